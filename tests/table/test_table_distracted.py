"""Distracted, Humiliated and Shattered as written, at the table (issue 19, item 5).

Every test goes through ``Table.apply`` with typed faces; the pending Advantage is compared to
the engine's ``roll_modifiers`` for the same inputs. Sources: RULES.md "Where two texts
disagree (decided)" (Distracted); rules/001 line ~131; rules/002 "What Is Distracted?" (lines
~165-171); rules/004 line ~121; rules/000 line ~31 (a kept 20 leaves Off Balance), lines ~268
(Humiliated) and ~275 (Shattered); docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, run_to_turn, soak7, start_and_declare

from tb_playground.engine import roll_modifiers
from tb_playground.models import Ruleset

INITIATIVE = {"ronan": 10, "the-brick": 5, "opponent": 1}


@pytest.fixture
def table(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    return new_table(tmp_path, enc)[1]


def _slow_ronan(t):
    start_and_declare(t, {"ronan": ("slow", 0)}, INITIATIVE)
    run_to_turn(t, "ronan")


def _aim(t):
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "empowered": "aim"})
    return t.state["pending"]


def _ask(t, difficulty=5):
    ask = {"type": "set_condition", "combatant": "ronan", "condition": "Distracted"}
    t.apply({**ask, "until": "round", "difficulty": difficulty})


AIM = roll_modifiers("attack", attack_kind="physical", aim=True)


def test_being_asked_makes_the_slow_action_wait_for_the_roll(table):
    # RULES.md (decided): "being asked to roll has no effect by itself"; rules/002 ~167: the
    # roll is made before the Slow action (issue 32 item 4: it could be skipped, and Aim went
    # ahead with its Advantage). Held, the Aim keeps it (next test).
    _slow_ronan(table)
    _ask(table)
    assert table.view_for("gm")["combatants"][0]["distracted"]["state"] == "asked"
    with pytest.raises(ValueError, match="hold focus"):
        _aim(table)
    assert table.state["pending"] is None


def test_a_distracted_slow_aim_that_holds_keeps_its_advantage(table):
    # rules/002 ~169: "Succeed, and your action resolves exactly as declared."
    _slow_ronan(table)
    _ask(table)
    events = table.apply({"type": "distracted", "combatant": "ronan", "faces": [2, 3]})
    assert events[0]["data"]["tn"] == 3 + 5 and events[0]["data"]["held"]  # Atropos 3 + 5
    p = _aim(table)
    assert (p["tn"], p["advantage"]) == (6 + 4, AIM.advantage)  # Earth 6 + Defense 4
    assert p["sources"] == [[s.label, s.sign] for s in AIM.sources]


def test_a_failed_slow_aim_drops_to_normal_with_no_extra_disadvantage(table):
    # rules/001 ~131: "Distracted drops the action to a Normal one, and it loses what its
    # empowerment gave"; RULES.md (decided): "no extra Disadvantage".
    _slow_ronan(table)
    _ask(table)
    table.apply({"type": "distracted", "combatant": "ronan", "faces": [9, 9]})
    assert table.view_for("gm")["combatants"][0]["distracted"] == {
        "state": "failed",
        "difficulty": 5,
        "slow": True,
        "spent": False,
    }
    engine = roll_modifiers("attack", attack_kind="physical", conditions=["Distracted"], aim=True)
    p = _aim(table)
    assert p["advantage"] == engine.advantage == 0 and p["sources"] == []
    assert p["empowered"] is None and p["dropped"] == "aim"
    assert table.state["combatants"]["ronan"]["actions"] == ["attack"]  # a plain attack


def test_a_failed_slow_round_takes_a_plain_attack_at_no_disadvantage(table):
    # rules/002 ~169: "you still act"; the plain action is untouched.
    _slow_ronan(table)
    _ask(table)
    table.apply({"type": "distracted", "combatant": "ronan", "faces": [9, 9]})
    table.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})
    assert table.state["pending"]["advantage"] == 0


def test_failed_outside_a_slow_action_is_disadvantage_on_that_roll_only(table):
    # rules/002 ~171: "failure just imposes Disadvantage on whatever triggered it"; RULES.md:
    # "and only that".
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "distracted", "combatant": "ronan", "difficulty": 5, "faces": [9, 9]})
    first = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    table.apply(first)
    engine = roll_modifiers("attack", attack_kind="physical", conditions=["Distracted"])
    assert table.state["pending"]["advantage"] == engine.advantage == -1
    table.apply({"type": "roll", "faces": [9, 9, 9]})  # a miss
    table.apply(first)  # the Normal round's second attack
    assert table.state["pending"]["advantage"] == 0


def test_the_roll_takes_the_rollers_own_conditions(table):
    # RULES.md (decided): "with the roller's own conditions"; rules/004 ~120 Off Balance.
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Off Balance"})
    roll = {"type": "distracted", "combatant": "ronan", "difficulty": 5}
    with pytest.raises(ValueError, match="faces"):
        table.apply({**roll, "faces": [2, 3]})  # Disadvantage rolls three dice
    events = table.apply({**roll, "faces": [1, 2, 10]})
    assert events[0]["data"]["total"] == 12 and not events[0]["data"]["held"]
    assert events[0]["data"]["sources"] == [["Off Balance", -1]]


def test_a_kept_20_on_the_distracted_roll_leaves_off_balance(table):
    # rules/000 line ~31: a catastrophic failure "In a fight ... also leaves you Off Balance".
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "distracted", "combatant": "ronan", "faces": [10, 10]})
    assert "Off Balance" in table.state["combatants"]["ronan"]["conditions"]


def test_a_kept_20_on_the_shake_off_roll_leaves_off_balance(tmp_path):
    # rules/002 "What Happens to My Poise?" (the switch); rules/000 line ~31.
    enc = encounter(roster("ronan.json"), foes=[soak7()])
    enc.ruleset = Ruleset(flustered_shaken_off=True)
    _, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "set_condition", "combatant": "ronan", "condition": "Flustered"})
    t.apply({"type": "shake_off", "combatant": "ronan", "faces": [10, 10, 10]})
    conditions = t.state["combatants"]["ronan"]["conditions"]
    assert "Off Balance" in conditions and "Flustered" in conditions


def test_the_table_asks_when_a_slow_action_takes_a_health_level(tmp_path):
    # rules/002 ~167: "Taking a Health Level ... while you're resolving a Slow Action Bracket
    # action can break your concentration. When that happens, roll to hold focus."
    ronan = roster("ronan.json")
    ronan.armor = []  # his jacket would take the hit instead (rules/002 "What Does Armor Do?")
    table = new_table(tmp_path, encounter(ronan, roster("the_brick.json"), foes=[soak7()]))[1]
    start_and_declare(table, {"ronan": ("slow", 0)}, INITIATIVE)
    run_to_turn(table, "opponent")
    table.apply({"type": "attack", "attacker": "opponent", "target": "ronan"})
    table.apply({"type": "roll", "faces": [2, 3]})
    table.apply({"type": "roll", "faces": [10, 10]})
    if table.state["pending"]:
        table.apply({"type": "prevent", "ki": 0})
    me = next(c for c in table.view_for("player", "ronan")["combatants"] if c["you"])
    assert me["distracted"]["state"] == "asked" and me["distracted"]["difficulty"] == 5


def test_a_humiliated_persuasion_attack_is_refused(table):
    # rules/000 ~268 (Poise below 0): "You cannot take the lead, negotiate, or speak for the
    # group"; note 0004 reading 5: Leadership, Persuasion, Public Speaking.
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "set", "combatant": "the-brick", "field": "poise", "value": -1})
    run_to_turn(table, "the-brick")
    version = table.version
    persuade = {"type": "attack", "attacker": "the-brick", "target": "opponent", "attack": 3}
    with pytest.raises(ValueError, match="Humiliated: you can't take the lead"):
        table.apply(persuade, role="player", seat="the-brick")
    assert table.version == version
    table.apply({**persuade, "attack": 2})  # Intimidation does not lead: allowed
    assert table.state["pending"]["attack"] == "Intimidation (Adept)"


def test_shattered_acts_only_when_led(table):
    # rules/000 ~275: "cannot act on your own, so somebody else has to lead you or drag you".
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "set", "combatant": "ronan", "field": "sanity", "value": -1})
    attack = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    with pytest.raises(ValueError, match="Shattered"):
        table.apply(attack, role="player", seat="ronan")
    lead = {"type": "lead", "combatant": "ronan", "leader": "the-brick"}
    with pytest.raises(PermissionError):
        table.apply(lead, role="player", seat="ronan")
    table.apply(lead, role="player", seat="the-brick")
    table.apply(attack, role="player", seat="ronan")
    engine = roll_modifiers(
        "attack", attack_kind="physical", conditions=["Overwhelmed", "Shattered"], alone=False
    )
    assert engine.allowed and table.state["pending"]["advantage"] == engine.advantage == -1


def test_a_humiliated_ally_cannot_lead(table):
    # rules/000 ~268: Humiliated "cannot take the lead".
    start_and_declare(table, {}, INITIATIVE)
    table.apply({"type": "set", "combatant": "ronan", "field": "sanity", "value": -1})
    table.apply({"type": "set", "combatant": "the-brick", "field": "poise", "value": -1})
    with pytest.raises(ValueError, match="Humiliated"):
        table.apply({"type": "lead", "combatant": "ronan", "leader": "the-brick"})
