"""Dice typed from physical dice for the rolls the action panel makes (issue 20).

Grab, Escape, a Skill roll, the GM's opposed roll, Stabilise and the Chase roll each show a
dice box (kind "faces") in the menu (table/menu.py); the panel reads it as the attack's dice box
does (``combat_session.parse_faces``) and sends the faces in the command's field, which the
table takes as thrown by hand. Blank, the table rolls; words instead of numbers are refused on
the panel in plain words and nothing is sent; the box is emptied once the command is taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tb_playground.models import Encounter, load
from tb_playground.table import TableStore
from tb_playground.table.menu import entry, menu
from tb_playground.views.combat.action_panel import ActionPanel

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"


@pytest.fixture
def table(tmp_path):
    enc = Encounter(name="Dice")
    ronan = load(ROSTER / "ronan.json")
    ronan.armor = []
    enc.add(ronan, "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    t = TableStore(tmp_path / "t.sqlite").create("Dice", enc, seed=4)
    t.apply({"type": "start", "initiative": {"ronan": 10, "the-brick": 2, "grizzly-bear": 1}})
    t.apply({"type": "set_range", "a": "ronan", "b": "grizzly-bear", "band": "melee"})
    t.apply({"type": "set_range", "a": "ronan", "b": "the-brick", "band": "melee"})
    return t


def _declare(t) -> None:
    for cid in ("ronan", "the-brick", "grizzly-bear"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    if t.state["phase"] == "declare":
        t.apply({"type": "reveal"})
    assert t.state["up"] == "ronan"


def _dice_fields(e: dict) -> list[str]:
    return [f["name"] for f in e["fields"] if f["kind"] == "faces"]


def _rolls(data: dict) -> list[dict]:
    """Every roll record in an event's data (a roll's own keys or nested ones)."""
    out = [data] if "rolled_by" in data else []
    for value in data.values():
        if isinstance(value, dict) and "rolled_by" in value:
            out.append(value)
    return out


def _typed(t, e: dict, faces: dict) -> dict:
    """Apply ``e``'s command with ``faces`` typed; the event's data."""
    command = {**e["command"], **faces}
    t.apply(command, role="gm")
    return next(ev for ev in reversed(t.events) if ev["type"] not in ("fight_over",))["data"]


def test_every_roll_of_the_panel_has_a_dice_box(table):
    _held_by_the_bear(table)
    table.apply({"type": "set", "combatant": "the-brick", "field": "health", "value": -1})
    player = menu(table.state, "player", "ronan")
    gm = menu(table.state, "gm", choices={"resister": "the-brick"})
    for m, key, names in (
        (player, "grab", ["faces"]),
        (player, "escape", ["faces"]),
        (player, "skill", ["faces"]),
        (player, "stabilise", ["faces"]),
        (gm, "opposed", ["actor_faces", "resister_faces"]),
    ):
        e = entry(m, key)
        assert e is not None and _dice_fields(e) == names, (key, e and e["fields"])
        labels = [f["label"] for f in e["fields"] if f["kind"] == "faces"]
        assert all("blank: the table rolls" in label for label in labels)
        assert all(f.get("clear") for f in e["fields"] if f["kind"] == "faces")
    assert [f["label"] for f in entry(player, "skill")["fields"]][-1].startswith("Your dice")
    assert [f["label"] for f in entry(gm, "opposed")["fields"]][-2].startswith("Ronan's dice")
    # Nothing else asks for dice: a move, Help, Reckless roll nothing.
    for key in ("move", "help", "reckless", "attack"):
        assert _dice_fields(entry(player, key)) == []


def test_no_dice_for_a_hold_nobody_keeps(table):
    """The GM set Grabbed by hand: no one holds on, the Escape rolls nothing (grab.escape)."""
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Grabbed"})
    _declare(table)
    e = entry(menu(table.state, "player", "ronan"), "escape")
    assert e["allowed"] and _dice_fields(e) == []


def _held_by_the_bear(t) -> None:
    """The bear grabs Ronan on its turn (dice typed so that it holds)."""
    _declare(t)
    while t.state["up"] != "grizzly-bear":
        t.apply({"type": "end_turn"})
    grab = {"type": "grab", "attacker": "grizzly-bear", "target": "ronan", "potence": 4}
    for n in (2, 3, 4):
        try:
            t.apply({**grab, "faces": [1] * n, "potence_faces": [10] * 4})
            break
        except ValueError:
            continue
    assert t.state["combatants"]["ronan"]["conditions"]["Grabbed"]["by"] == "grizzly-bear"
    while t.state["phase"] == "resolve":
        t.apply({"type": "end_turn"})
    _declare(t)


@pytest.mark.parametrize("key", ["escape", "skill", "grab"])
def test_typed_faces_are_taken_as_thrown(table, key):
    _held_by_the_bear(table)
    e = entry(menu(table.state, "player", "ronan"), key)
    assert e["allowed"], e["reason"]
    for n in (2, 3, 4):
        try:
            data = _typed(table, e, {"faces": [9] * n})
        except ValueError as err:
            assert f"list of {n} d10" not in str(err)
            continue
        rolls = _rolls(data)
        assert rolls and rolls[0]["faces"] == [9] * n and rolls[0]["rolled_by"] == "hand"
        return
    raise AssertionError("no count of dice was taken")


def test_chase_roll_has_a_dice_box(table):
    table.apply({"type": "chase_start", "quarry": "grizzly-bear", "pursuers": ["ronan"],
                 "metres": 20})  # fmt: skip
    for cid in ("grizzly-bear", "ronan"):
        table.apply({"type": "chase_declare", "combatant": cid, "how": "move"})
    e = entry(menu(table.state, "player", "ronan"), "chase roll")
    assert _dice_fields(e) == ["faces"]


class _Menu:
    """A menu of one Skill roll with a dice box, and what the panel sent."""

    def __init__(self, taken: bool = True):
        self.sent: list[dict] = []
        self.taken = taken

    def menu_of(self, choices: dict) -> dict:
        fields = [
            {"name": "faces", "label": "Your dice (blank: the table rolls)", "kind": "faces",
             "value": "", "clear": True},
        ]  # fmt: skip
        action = {
            "key": "skill", "label": "Use a Skill", "group": "act", "cost": "1 action",
            "fields": fields, "command": {"type": "skill_roll", "combatant": "ronan"},
            "allowed": True, "reason": "", "refusal": None, "odds": "", "p": {},
        }  # fmt: skip
        return {"actor": "ronan", "name": "Ronan", "open": True, "why": "", "bracket": "normal",
                "words": "", "chips": [], "left": None, "phase": "resolve", "groups": [],
                "actions": [action]}  # fmt: skip

    def send(self, command: dict, then=None) -> None:
        self.sent.append(command)
        if self.taken and then is not None:  # the page runs ``then`` once the table took it
            then()


def test_the_panel_sends_typed_faces_and_empties_the_box():
    fake = _Menu()
    panel = ActionPanel("tp", "End my turn", fake.send, fake.menu_of)
    panel.show(True)
    panel.select("skill")
    box = panel.fields["faces"]
    box.value = "4, 9 "
    panel._go()
    assert fake.sent[-1] == {"type": "skill_roll", "combatant": "ronan", "faces": [4, 9]}
    assert box.value == ""
    panel._go()  # blank: the table rolls
    assert fake.sent[-1] == {"type": "skill_roll", "combatant": "ronan"}
    box.value = "four nine"
    panel._go()
    assert len(fake.sent) == 2  # nothing sent
    assert "whole numbers from 1 to 10" in panel.detail.object
    assert box.value == "four nine"  # kept to be corrected


def test_a_refused_roll_keeps_the_dice_typed():
    fake = _Menu(taken=False)
    panel = ActionPanel("tp", "End my turn", fake.send, fake.menu_of)
    panel.show(True)
    panel.select("skill")
    panel.fields["faces"].value = "12 3"
    panel._go()
    assert fake.sent[-1]["faces"] == [12, 3]  # the table says what is wrong with them
    assert panel.fields["faces"].value == "12 3"
