"""The one reader of the example roster (``models.roster``, issue 18 item 2).

- It finds the roster in a checkout (``examples/roster``) and, without one, in the installed
  package data (``tb_playground/roster``, see setup.py), in that order.
- The service's encounter and roster lists, the planner's picks and the sheet's characters all
  come through it: after a non-editable install ``/gm`` still lists the encounters.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tb_playground
from tb_playground.models import roster
from tb_playground.service import CombatService

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = ROOT / "examples" / "roster"


@pytest.fixture
def fresh(monkeypatch):
    """The roster's per-process cache emptied for the test (and the real one kept)."""
    monkeypatch.setattr(roster, "_cache", {})
    return roster


def test_the_places_looked_at_match_setup_py():
    package = Path(tb_playground.__file__).resolve().parent
    assert roster.ROSTER_DIRS == (package.parent / "examples" / "roster", package / "roster")
    assert "examples/roster" in (ROOT / "setup.py").read_text()


def test_from_a_checkout(fresh):
    assert fresh.roster_dir() == CHECKOUT
    found = fresh.example_roster()
    assert found.directory == CHECKOUT and not found.problem
    assert "Ronan" in [c.name for c in found.characters]
    assert "Grizzly bear" in [c.name for c in found.creatures]
    assert found.encounters == ("warehouse.encounter.yaml",)
    assert fresh.encounter_files() == {"warehouse": CHECKOUT / "warehouse.encounter.yaml"}
    files = fresh.creature_files()
    assert "ronan.json" in files and "guard_dog.yaml" in files
    assert "warehouse.encounter.yaml" not in files
    assert sorted(files) == sorted(e.file_name for e in found.entries)


def test_from_an_installed_package(fresh, monkeypatch, tmp_path):
    """No checkout: the package data (a copy here, laid out as a wheel installs it) is read."""
    installed = tmp_path / "site-packages" / "tb_playground" / "roster"
    shutil.copytree(CHECKOUT, installed)
    monkeypatch.setattr(fresh, "ROSTER_DIRS", (tmp_path / "no-checkout", installed))
    assert fresh.roster_dir() == installed
    found = fresh.example_roster()
    assert found.directory == installed and not found.problem
    assert "The Brick" in [c.name for c in found.characters] and found.creatures
    assert found.encounters == ("warehouse.encounter.yaml",)
    assert fresh.encounter_files() == {"warehouse": installed / "warehouse.encounter.yaml"}
    assert fresh.creature_files()["ronan.json"] == installed / "ronan.json"
    enc = fresh.build_encounter("warehouse.encounter.yaml", [], ["guard_dog.yaml#2"])
    assert "Guard dog" in [c.who.name for c in enc.combatants]
    assert fresh.encounter_choices() == {"Warehouse": "warehouse.encounter.yaml"}


def test_the_checkout_comes_first(fresh, monkeypatch, tmp_path):
    installed = tmp_path / "roster"
    shutil.copytree(CHECKOUT, installed)
    (installed / "ronan.json").unlink()
    monkeypatch.setattr(fresh, "ROSTER_DIRS", (CHECKOUT, installed))
    assert fresh.roster_dir() == CHECKOUT
    assert "ronan.json" in fresh.creature_files()


def test_no_roster_anywhere(fresh, monkeypatch, tmp_path):
    monkeypatch.setattr(fresh, "ROSTER_DIRS", (tmp_path / "a", tmp_path / "b"))
    assert fresh.roster_dir() is None
    assert fresh.encounter_files() == {} and fresh.creature_files() == {}
    found = fresh.example_roster()
    assert found.entries == () and "No example roster" in found.problem
    assert fresh.roster_choices() == {}
    with pytest.raises(ValueError, match="No example roster"):
        fresh.build_encounter("", ["ronan.json"], ["guard_dog.yaml"])


def test_the_service_lists_through_the_one_reader(fresh, monkeypatch, tmp_path):
    service = CombatService(tmp_path / "tables.sqlite", gm_key="k")
    assert service.encounter_files() == fresh.encounter_files() != {}
    assert service.creature_files() == fresh.creature_files() != {}
    installed = tmp_path / "tb_playground" / "roster"
    shutil.copytree(CHECKOUT, installed)
    monkeypatch.setattr(fresh, "ROSTER_DIRS", (tmp_path / "no-checkout", installed))
    assert service.encounter_files() == {"warehouse": installed / "warehouse.encounter.yaml"}
    assert service.creature_files()["guard_dog.yaml"] == installed / "guard_dog.yaml"
