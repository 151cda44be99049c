"""Two gaps of the round's budget at the table (issue 20).

- An action after an Escape (or a Stand up, or a Belly Down) this round is checked from the
  conditions of the round's start, whichever command spends it: an attack after escaping a
  Grab was refused "Not Grabbed: no hold to escape." (``rules.next_action_problem``).
- Reckless and Full Defense hold for the round (rules/001 "Combat Actions"): a second in the
  same round is refused in plain words, and allowed again next round.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tb_playground.models import Encounter, load
from tb_playground.table import TableStore

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"


@pytest.fixture
def table(tmp_path):
    enc = Encounter(name="Gaps")
    ronan = load(ROSTER / "ronan.json")
    ronan.armor = []
    enc.add(ronan, "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    t = TableStore(tmp_path / "t.sqlite").create("Gaps", enc, seed=2)
    t.apply({"type": "start", "initiative": {"ronan": 10, "the-brick": 2, "grizzly-bear": 1}})
    t.apply({"type": "set_range", "a": "ronan", "b": "grizzly-bear", "band": "melee"})
    return t


def _round(t, ronan: str = "normal") -> None:
    for cid, bracket in (("ronan", ronan), ("the-brick", "normal"), ("grizzly-bear", "normal")):
        if t.state["phase"] == "declare":
            t.apply({"type": "declare", "combatant": cid, "bracket": bracket})
    if t.state["phase"] == "declare":
        t.apply({"type": "reveal"})
    assert t.state["up"] == "ronan"


def _escape(t) -> None:
    t.apply({"type": "set_condition", "combatant": "ronan", "condition": "Grabbed"})
    _round(t)
    t.apply({"type": "escape", "combatant": "ronan", "faces": [10, 10]})
    assert "Grabbed" not in t.state["combatants"]["ronan"]["conditions"]


@pytest.mark.parametrize(
    "second",
    [
        {"type": "attack", "attacker": "ronan", "target": "grizzly-bear", "attack": 0},
        {"type": "act", "combatant": "ronan", "action": "small action", "what": "draws a knife"},
        {"type": "help", "combatant": "ronan", "ally": "the-brick"},
        {"type": "skill_roll", "combatant": "ronan", "skill": "Athletics"},
        {"type": "move", "combatant": "ronan", "metres": 3},
    ],
    ids=["attack", "small action", "help", "skill", "move"],
)
def test_an_action_after_escaping_a_grab(table, second):
    _escape(table)
    table.apply(second)
    assert table.state["combatants"]["ronan"]["actions"][0] == "escape"
    assert len(table.state["combatants"]["ronan"]["actions"]) == 2


def test_a_third_action_after_an_escape_is_still_refused(table):
    _escape(table)
    table.apply({"type": "act", "combatant": "ronan", "action": "small action", "what": "x"})
    with pytest.raises(ValueError, match="holds 2 actions") as err:
        table.apply({"type": "attack", "attacker": "ronan", "target": "grizzly-bear", "attack": 0})
    assert "Grabbed" not in str(err.value)


def test_attack_after_stand_up(table):
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Belly Down"})
    _round(table)
    table.apply({"type": "act", "combatant": "ronan", "action": "stand up"})
    table.apply({"type": "attack", "attacker": "ronan", "target": "grizzly-bear", "attack": 0})
    assert table.state["pending"] is not None


@pytest.mark.parametrize("action", ["reckless", "full defense"])
def test_reckless_and_full_defense_once_a_round(table, action):
    _round(table)
    table.apply({"type": "act", "combatant": "ronan", "action": action})
    with pytest.raises(ValueError, match="already") as err:
        table.apply({"type": "act", "combatant": "ronan", "action": action})
    words = str(err.value)
    assert words.startswith("Ronan is already") and 'rules/001 "Combat Actions"' in words
    assert ":" not in words.split(" is already")[0]  # no field name before the sentence
    assert table.state["combatants"]["ronan"]["actions"] == [action]
    table.apply({"type": "end_turn"})
    while table.state["phase"] == "resolve":
        table.apply({"type": "end_turn"})
    _round(table)  # a new round: it may be taken again
    table.apply({"type": "act", "combatant": "ronan", "action": action})


def test_an_escape_from_a_hold_nobody_keeps_reads_in_words(table):
    """The GM set Grabbed by hand: the log says so, never "None's hold"."""
    _escape(table)
    for role, seat in (("gm", None), ("player", "ronan"), ("spectator", None)):
        lines = [line["text"] for line in table.view_for(role, seat)["log"]]
        assert any(t.endswith("Ronan is free: nobody was holding on.") for t in lines)
        assert not any("None" in t for t in lines)
