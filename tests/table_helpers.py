"""Small builders shared by the table tests."""

from __future__ import annotations

from pathlib import Path

from tb_playground.models import Creature, Encounter
from tb_playground.models.creature import CreatureAttack
from tb_playground.models.files import load
from tb_playground.table import TableStore

ROSTER = Path(__file__).resolve().parents[1] / "examples" / "roster"

#: Initiative of the combat pages' fight (``fight``): Ronan first.
FIRST_RONAN = {"ronan": 10, "the-brick": 1, "guard-dog": 1, "nightmare": 1}


def roster(name: str):
    """A character or creature from examples/roster."""
    return load(ROSTER / name)


def soak7(health: int = 12, named: bool = False) -> Creature:
    """rules/000's critical-hit opponent: Soak 7."""
    return Creature(
        name="Opponent",
        named=named,
        soak=7,
        health=health,
        defense_physical=4,
        attacks=[CreatureAttack(name="Jab", element=3, dice=2)],
    )


def encounter(*party, foes=()) -> Encounter:
    enc = Encounter(name="Test fight")
    for who in party:
        enc.add(who, "Party")
    for who in foes:
        enc.add(who, "Foes")
    return enc


def new_table(tmp_path, enc: Encounter, name: str = "T", seed: int = 7):
    store = TableStore(tmp_path / "tables.sqlite")
    return store, store.create(name, enc, seed=seed)


def start_and_declare(table, brackets: dict, initiative: dict | None = None):
    """Start (with fixed Initiative faces) and declare every bracket; returns the GM view."""
    ids = table.state["ids"]
    faces = initiative or dict.fromkeys(ids, 5)
    table.apply({"type": "start", "initiative": faces})
    for cid in ids:
        bracket, bumps = brackets.get(cid, ("normal", 0))
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": bracket, "bumps": bumps})
    return table.view_for("gm")


def run_to_turn(table, cid: str):
    """End turns until ``cid`` is up."""
    while table.state["up"] != cid:
        table.apply({"type": "end_turn"})


def fight() -> Encounter:
    """Ronan and the Brick against a guard dog; the Nightmare waits, hidden."""
    enc = Encounter(name="Test warehouse")
    ronan = load(ROSTER / "ronan.json")
    ronan.armor = []  # the dog's bite must reach him (his jacket: tests/table/test_table_armor.py)
    enc.add(ronan, "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "guard_dog.yaml"), "Foes")
    enc.add(load(ROSTER / "nightmare.yaml"), "Foes")
    return enc
