"""Combatants of the same name are numbered once, where their records are made (issue 20).

"Guard dog 1" and "Guard dog 2" from the encounter, "Guard dog 3" for one the GM adds: the same
name on every card, select and log line. A table made before keeps its records' names.
"""

from __future__ import annotations

import json
import sqlite3

from table_helpers import ROSTER, encounter, new_table, roster, run_to_turn, start_and_declare

from tb_playground.models.combatants import encounter_records, joiner_name, numbered_name
from tb_playground.models.files import parse
from tb_playground.table import TableStore
from tb_playground.views.combat import combat_render as render


def two_dogs():
    dogs = [roster("guard_dog.yaml"), roster("guard_dog.yaml")]
    return encounter(roster("ronan.json"), foes=[*dogs, roster("grizzly_bear.yaml")])


def test_records_number_the_names_they_share_once():
    records = encounter_records(two_dogs())
    assert [r["name"] for r in records] == ["Ronan", "Guard dog 1", "Guard dog 2", "Grizzly bear"]
    assert [r["id"] for r in records] == ["ronan", "guard-dog", "guard-dog-2", "grizzly-bear"]


def test_numbers_skip_a_name_someone_holds():
    assert numbered_name("Dog", {"Dog 1"}) == "Dog 2"
    assert joiner_name("Guard dog", ["Guard dog 1", "Guard dog 2", "Ronan"]) == "Guard dog 3"
    assert joiner_name("Guard dog", ["Guard dog"]) == "Guard dog 2"  # an older table's dog
    assert joiner_name("Guard dog", ["Ronan"]) == "Guard dog"
    assert joiner_name("Guard dog", ["Guard dog 10"]) == "Guard dog 11"
    assert joiner_name("Dog", ["Dog 1", "Dog 2", "Dog 3"]) == "Dog 4"


def test_the_one_name_on_cards_selects_and_log_lines(tmp_path):
    store, table = new_table(tmp_path, two_dogs())
    doc = parse((ROSTER / "guard_dog.yaml").read_text(), None, "guard_dog.yaml")
    table.apply({"type": "add", "document": doc, "side": "Foes"})
    names = {cid: c["name"] for cid, c in table.state["combatants"].items()}
    assert names["guard-dog-3"] == "Guard dog 3"
    view = start_and_declare(table, {})
    cards = "".join(render.card(c, view["phase"]) for c in view["combatants"])
    for n in (1, 2, 3):
        assert f"Guard dog {n}</div>" in cards
    labels = render.unique_labels(view["combatants"], lambda c: " (declared)")
    assert {"Guard dog 1 (declared)", "Guard dog 2 (declared)"} <= set(labels)
    run_to_turn(table, "guard-dog-2")
    table.apply({"type": "attack", "attacker": "guard-dog-2", "target": "ronan", "attack": 0})
    lines = [e["text"] for e in table.view_for("gm")["log"]]
    assert any("Guard dog 2" in line and "Ronan" in line for line in lines)
    store.close()


def test_an_older_table_keeps_its_names(tmp_path):
    """A table whose records hold two "Guard dog"s folds to them unchanged."""
    store, table = new_table(tmp_path, two_dogs())
    store.close()
    conn = sqlite3.connect(tmp_path / "tables.sqlite")
    (body,) = conn.execute("SELECT body FROM events WHERE seq = 1").fetchone()
    created = json.loads(body)
    for record in created["data"]["combatants"]:
        record["name"] = record["name"].removesuffix(" 1").removesuffix(" 2")
    conn.execute("UPDATE events SET body = ? WHERE seq = 1", (json.dumps(created),))
    conn.commit()
    conn.close()
    again = TableStore(tmp_path / "tables.sqlite").open("T")
    names = [again.state["combatants"][cid]["name"] for cid in again.state["ids"]]
    assert names == ["Ronan", "Guard dog", "Guard dog", "Grizzly bear"]
    # Its selects still tell them apart, by a number that stays put.
    labels = render.unique_labels(again.view_for("gm")["combatants"])
    assert labels["Guard dog 1"] == "guard-dog" and labels["Guard dog 2"] == "guard-dog-2"


def test_the_party_s_files_join_an_encounter_that_holds_them_once(tmp_path):
    """The README's way: the warehouse file (its party inside) plus the party's roster files."""
    from tb_playground.models.files import load
    from tb_playground.service import CombatService

    service = CombatService(tmp_path / "tables.sqlite", gm_key="k")
    warehouse = load(ROSTER / "warehouse.encounter.yaml", "encounter")
    before = [(c.who.name, c.side) for c in warehouse.combatants]
    ronan = roster("ronan.json")
    ronan.health_lost = 1  # the file's sheet wins: it is the newer one
    extras = [ronan, roster("the_brick.json"), roster("guard_dog.yaml")]
    table, merged = service.create_with("Friday", warehouse, extras)
    names = [table.state["combatants"][cid]["name"] for cid in table.state["ids"]]
    assert names.count("Ronan") == 1 and names.count("The Brick") == 1
    assert not any(n.startswith(("Ronan ", "The Brick ")) for n in names)
    assert merged == [
        f"{n} was already in the encounter; kept once (with the sheet from the roster file)."
        for n in ("Ronan", "The Brick")
    ]
    assert len(names) == len(before) + 1  # only the dog is new
    kept = table.state["combatants"]["ronan"]
    assert kept["side"] == dict(before)["Ronan"]
    assert kept["now"]["health"] == ronan.health_max - 1
    # An unnamed creature is one more of its kind, numbered with the others.
    dogs = sorted(n for n in names if n.startswith("Guard dog"))
    assert dogs == ["Guard dog 1", "Guard dog 2", "Guard dog 3"]
    service.store.close()
