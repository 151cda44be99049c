"""A hidden joiner leaves no trace in the names players see (issue 20, note 0009 "Names").

"Secret Dragon 2" with only one in sight told the players that another one hides. A joiner
players see is numbered among the ones they see; a hidden namesake holding that name gives it
up (the GM's log says so). For random sequences of joins, hidden and seen, every player's and
the spectator's view is the same as at a twin table where the hidden ones never joined.
"""

from __future__ import annotations

import json
import random

import pytest
from table_helpers import ROSTER, encounter, new_table, roster

from tb_playground.models.files import parse

BEAR = parse((ROSTER / "grizzly_bear.yaml").read_text(), None, "grizzly_bear.yaml")
DOG = parse((ROSTER / "guard_dog.yaml").read_text(), None, "guard_dog.yaml")
READERS = (("player", "ronan"), ("spectator", None))


def _add(table, doc, hidden: bool) -> str:
    command = {"type": "add", "document": doc, "side": "Foes", "hidden": hidden}
    if table.state["phase"] != "setup":
        command["initiative"] = 5
    table.apply(command)
    return table.events[-1]["data"]["combatant"]


def _seen(table, role, seat) -> tuple[list[str], list[str]]:
    view = table.view_for(role, seat)
    names = [c["name"] for c in view["combatants"]]
    lines = [line["text"] for line in view["log"]]
    return names, lines


def test_a_seen_joiner_is_not_numbered_after_a_hidden_one(tmp_path):
    _, table = new_table(tmp_path, encounter(roster("ronan.json")))
    hid = _add(table, BEAR, hidden=True)
    assert table.state["combatants"][hid]["name"] == "Grizzly bear"
    seen = _add(table, BEAR, hidden=False)
    assert table.state["combatants"][seen]["name"] == "Grizzly bear"  # not "Grizzly bear 2"
    assert table.state["combatants"][hid]["name"] == "Grizzly bear 2"  # it gave its name up
    for role, seat in READERS:
        names, lines = _seen(table, role, seat)
        assert names == ["Ronan", "Grizzly bear"]
        text = json.dumps(table.view_for(role, seat))
        assert "Grizzly bear 2" not in text and hid not in text and "hidden" not in lines[-1]
    gm_lines = _seen(table, "gm", None)[1]
    assert gm_lines[-1].endswith("The hidden Grizzly bear is now Grizzly bear 2.")
    # Shown later, it reads as the second one: no gap.
    table.apply({"type": "show", "combatant": hid})
    names = sorted(_seen(table, "player", "ronan")[0])
    assert names == ["Grizzly bear", "Grizzly bear 2", "Ronan"]
    # Undone, the join gives the name back.
    table.apply({"type": "undo"})
    table.apply({"type": "undo"})
    assert table.state["combatants"][hid]["name"] == "Grizzly bear"


@pytest.mark.parametrize("seed", range(12))
def test_players_cannot_tell_hidden_joiners(tmp_path, seed):
    """Random joins: the readers' views equal those of a table without the hidden joiners."""
    rng = random.Random(seed)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, table = new_table(tmp_path / "a", encounter(roster("ronan.json"), foes=[]))
    _, twin = new_table(tmp_path / "b", encounter(roster("ronan.json"), foes=[]))
    if rng.random() < 0.5:
        for t in (table, twin):
            t.apply({"type": "start", "initiative": {"ronan": 5}})
    for _ in range(8):
        doc = rng.choice((BEAR, DOG))
        hidden = rng.random() < 0.5
        _add(table, doc, hidden)
        if not hidden:
            _add(twin, doc, False)
        for role, seat in READERS:
            names, lines = _seen(table, role, seat)
            twin_names, twin_lines = _seen(twin, role, seat)
            assert names == twin_names
            assert lines == twin_lines
    # Every combatant still holds a name of its own.
    names = [c["name"] for c in table.state["combatants"].values()]
    assert len(set(names)) == len(names)
