"""Undo always leaves a valid state: any commands with undo and redo, every role's view computes.

Issue 21: a GM added a combatant mid-fight, set one of its values and undid both; every player
and spectator view then raised ``KeyError`` (the log still named the combatant the fold had
dropped), and after a restart every player page did. Here hypothesis sends random sequences of
adds (hidden or not, in setup and mid-fight), overrides on any combatant (the new ones too),
hides, turns, attacks, undos and redos; after each step the GM's, each player's and the
spectator's views compute, the fold of the log equals the live state, and a reopened store
gives the same views.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from table_helpers import encounter, roster, soak7

from tb_playground.models.files import document
from tb_playground.table import TableStore, fold

SENDERS = [("gm", None), ("player", "ronan"), ("player", "the-brick"), ("spectator", None)]
FOE = document(soak7())


def _target(state: dict, pick: int) -> str:
    ids = state["ids"]
    return ids[-1] if pick >= 6 else ids[pick % len(ids)]  # the newest often: an added one


def _command(state: dict, op: str, pick: int, value: int) -> dict:
    cid = _target(state, pick)
    if op == "add":
        return {"type": "add", "document": FOE, "side": "Foes", "hidden": bool(value % 2)}
    if op == "set":
        field = ("health", "poise", "sanity", "ki", "fate", "exhausted")[value % 6]
        c = state["combatants"][cid]
        low, high = {"ki": (0, c.get("ki_pool", 0))}.get(field, (0, 3))
        return {"type": "set", "combatant": cid, "field": field, "value": low + value % (high + 1)}
    if op == "hide":
        return {"type": "hide" if value % 2 else "show", "combatant": cid}
    if op == "condition":
        return {"type": "set_condition", "combatant": cid, "condition": "Prone"}
    if op == "start":
        return {"type": "start"}
    if op == "declare":
        return {"type": "declare", "combatant": cid, "bracket": "normal", "bumps": 0}
    if op == "reveal":
        return {"type": "reveal"}
    if op == "attack":
        return {"type": "attack", "attacker": state["up"], "target": cid}
    if op == "roll":
        return {"type": "roll"}
    if op == "ki":
        return {"type": "spend_ki", "combatant": cid, "purpose": "restore poise"}
    if op == "rest":
        return {"type": ("short_rest", "full_night", "end_scene")[value % 3]}
    return {"type": op}


OPS = st.sampled_from(
    [
        "add",
        "add",
        "set",
        "set",
        "hide",
        "condition",
        "start",
        "declare",
        "declare",
        "reveal",
        "end_turn",
        "attack",
        "roll",
        "ki",
        "rest",
        "undo",
        "undo",
        "undo",
        "redo",
        "redo",
    ]
)
STEPS = st.lists(st.tuples(OPS, st.integers(0, 9), st.integers(0, 20)), min_size=1, max_size=30)


def _views(table) -> None:
    for role, seat in SENDERS:
        table.view_for(role, seat)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
@example(steps=[("start", 0, 0), ("add", 0, 1), ("set", 9, 0), ("undo", 0, 0), ("undo", 0, 0)])
@example(steps=[("add", 0, 0), ("set", 9, 0), ("undo", 0, 0), ("undo", 0, 0), ("redo", 0, 0)])
def test_every_view_computes_after_any_undo_and_redo(steps):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tables.sqlite"
        store = TableStore(path)
        enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
        table = store.create("T", enc, seed=5)
        for op, pick, value in steps:
            try:
                table.apply(_command(table.state, op, pick, value))
            except ValueError:  # refused (wrong phase, nothing to undo, ...): nothing changed
                pass
            _views(table)
            assert fold(table.events) == table.state
        store.close()
        again = TableStore(path).open("T")  # after a restart, folded from the file
        _views(again)
        for role, seat in SENDERS:
            assert again.view_for(role, seat)["version"] == table.view_for(role, seat)["version"]


def test_undoing_an_added_combatant_and_its_value_leaves_every_view(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite")
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    table = store.create("T", enc, seed=5)
    table.apply({"type": "start"})
    table.apply({"type": "add", "document": FOE, "side": "Foes", "hidden": True})
    cid = table.state["ids"][-1]
    table.apply({"type": "set", "combatant": cid, "field": "health", "value": 3})
    table.apply({"type": "undo"})
    table.apply({"type": "undo"})
    for role, seat in SENDERS[1:]:
        text = " ".join(line["text"] for line in table.view_for(role, seat)["log"])
        assert cid not in text  # the hidden combatant's id stays hidden
    _views(table)
    store.close()
    _views(TableStore(tmp_path / "tables.sqlite").open("T"))
