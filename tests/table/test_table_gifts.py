"""Gifts at the table (issue 19, item 3), through ``Table.apply`` only, with typed faces.

rules/000 "Ki" line ~227: "Gift usage. Most gifts cost Ki points to use"; line ~229: "When gift
calls for a Gift Check, you roll 2d10 and your current Ki is your target number. There is no
Advantage or Disadvantage on this roll"; rules/002 line ~129-131: the Gift Check is against
Ki + Stamina (the switch), "Fail, and you lose 1 Ki"; rules/004 Exhausted 4: "+1 Ki per Ki
spend". examples/roster: Ronan's Onslaught costs 1 Ki; the Nerdy Hacker's Feedback Loop 2 Ki
and a Gift Check.
"""

from __future__ import annotations

import json

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.engine.gift_check import gift_check_odds
from tb_playground.models import Gift, Ruleset

HACKER = "the-nerdy-hacker"


def _frozen(t) -> str:
    return json.dumps(t.state, sort_keys=True)


@pytest.fixture
def ronan_table(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    assert t.state["up"] == "ronan"
    return t


def _hacker_table(tmp_path, ruleset=None):
    enc = encounter(roster("nerdy_hacker.yaml"), foes=[soak7()])
    if ruleset is not None:
        enc.ruleset = ruleset
    _, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {HACKER: 10, "opponent": 1})
    assert t.state["up"] == HACKER
    return t


def test_onslaught_costs_one_ki(ronan_table):
    # rules/000 line ~227; ronan.json: Onslaught, ki_cost 1. Before issue 19: 14 before and after.
    t = ronan_table
    assert t.state["combatants"]["ronan"]["ki"] == 14
    gift = t.view_for("player", "ronan")["combatants"][0]["gifts"][0]
    assert (gift["name"], gift["ki_cost"], gift["attacks"], gift["attack"]) == (
        "Onslaught",
        1,
        True,
        1,
    )
    events = t.apply(
        {"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1},
        role="player",
        seat="ronan",
    )
    assert [e["type"] for e in events] == ["attack_declared", "gift_used"]
    assert t.state["combatants"]["ronan"]["ki"] == 13
    assert t.state["pending"]["step"] == "to_hit"  # Onslaught asks no Gift Check
    assert t.view_for("gm")["log"][-1]["text"] == "Ronan uses Onslaught on Opponent (1 Ki)."
    # A weapon attack costs nothing: Fists (attack 0) on the second action.
    t.apply({"type": "roll", "faces": [9, 9]})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    assert t.state["combatants"]["ronan"]["ki"] == 13


def test_feedback_loop_costs_two_ki_and_its_gift_check(tmp_path):
    # rules/000 line ~229: TN = current Ki (after the 2 Ki the Gift costs: our reading), no
    # Advantage; the pending step shows the engine's odds to 1e-12.
    t = _hacker_table(tmp_path)
    hacker = t.state["combatants"][HACKER]
    assert hacker["ki"] == 15
    t.apply({"type": "attack", "attacker": HACKER, "target": "opponent", "attack": 2})
    assert t.state["combatants"][HACKER]["ki"] == 13
    pending = t.view_for("player", HACKER)["pending"]
    assert pending["step"] == "gift_check"
    assert pending["gift_check"] == {"gift": "Feedback Loop"}
    engine = gift_check_odds(13, hacker["stamina"], False)
    shown = pending["odds"]["gift_check"]
    assert shown["tn"] == 13
    for key in ("p_success", "p_critical", "p_failure", "p_catastrophe"):
        assert abs(shown[key] - getattr(engine, key)) < 1e-12
    # The to-hit odds come with it (the attack is still to come) when the GM lets attackers
    # see exact odds (the default); with the chance in words, the Gift Check's odds alone.
    assert pending["odds"]["p_hit"] > 0
    t.apply({"type": "foe_odds", "show": "words"})
    worded = t.view_for("player", HACKER)["pending"]["odds"]
    assert "p_hit" not in worded
    assert abs(worded["gift_check"]["p_success"] - engine.p_success) < 1e-12
    # A kept 11 at TN 13 succeeds: no more Ki, then the to-hit roll.
    events = t.apply({"type": "roll", "faces": [5, 6]}, role="player", seat=HACKER)
    assert events[0]["type"] == "gift_check_rolled"
    assert (events[0]["data"]["outcome"], events[0]["data"]["ki_lost"]) == ("success", 0)
    assert t.state["combatants"][HACKER]["ki"] == 13
    assert t.state["pending"]["step"] == "to_hit"


def test_a_failed_gift_check_loses_one_ki_under_the_002_switch(tmp_path):
    # rules/002 line ~131: "Fail, and you lose 1 Ki until it's refilled - either way, the
    # Gift's effect still happens": the attack goes on to its to-hit roll. That is 002's
    # reading, so it comes with 002's Gift Check switch (issue 32 item 10).
    t = _hacker_table(tmp_path, Ruleset(gift_check_ki_plus_stamina=True))
    t.apply({"type": "attack", "attacker": HACKER, "target": "opponent", "attack": 2})
    events = t.apply({"type": "roll", "faces": [10, 10]})  # a kept 20 fails at any TN
    assert (events[0]["data"]["outcome"], events[0]["data"]["ki_lost"]) == ("catastrophe", 1)
    assert t.state["combatants"][HACKER]["ki"] == 12
    assert t.state["pending"]["step"] == "to_hit"
    assert "1 Ki lost" in t.view_for("gm")["log"][-1]["text"]


def test_the_002_switch_makes_the_tn_ki_plus_stamina(tmp_path):
    # RULES.md "Gift Check", variant 002 (rules/002 line ~129): "your own Ki and Stamina combined".
    t = _hacker_table(tmp_path, Ruleset(gift_check_ki_plus_stamina=True))
    stamina = t.state["combatants"][HACKER]["stamina"]
    t.apply({"type": "attack", "attacker": HACKER, "target": "opponent", "attack": 2})
    shown = t.view_for("gm")["pending"]["odds"]["gift_check"]
    engine = gift_check_odds(13, stamina, True)
    assert shown["tn"] == 13 + stamina
    assert abs(shown["p_success"] - engine.p_success) < 1e-12
    events = t.apply({"type": "roll", "faces": [9, 9]})
    assert events[0]["data"]["tn"] == 13 + stamina


def test_refused_when_short_of_ki_changes_nothing(ronan_table):
    t = ronan_table
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 0})
    before, version = _frozen(t), t.version
    with pytest.raises(ValueError, match="Ronan has 0 Ki; Onslaught costs 1"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert (_frozen(t), t.version) == (before, version)


def test_exhausted_4_pays_one_more(ronan_table):
    # rules/004 Exhausted 4: "+1 Ki per Ki spend" (engine ki_spend_cost): Onslaught costs 2.
    t = ronan_table
    t.apply({"type": "set", "combatant": "ronan", "field": "exhausted", "value": 4})
    assert t.view_for("gm")["combatants"][0]["gifts"][0]["ki_cost"] == 2
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 1})
    before = _frozen(t)
    with pytest.raises(ValueError, match=r"Ronan has 1 Ki; Onslaught costs 2 \(1 more for Exh"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert _frozen(t) == before
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 14})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert t.state["combatants"]["ronan"]["ki"] == 12


def _warded_ronan():
    ronan = roster("ronan.json")
    ward = Gift(name="Iron Ward", level=2, dice=0, kind="physical", ki_cost=2, gift_check=True)
    ronan.gifts = [*ronan.gifts, ward]
    return ronan


def test_a_gift_that_makes_no_attack_is_an_action_logged_in_words(tmp_path):
    # rules/000 ~227-229 (cost, check), ~383 (an action, unless the Gift says otherwise).
    _, t = new_table(tmp_path, encounter(_warded_ronan(), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    command = {
        "type": "use_gift",
        "combatant": "ronan",
        "gift": "Iron Ward",
        "effect": "his skin turns to iron until the end of the Scene",
        "faces": [3, 4],
    }
    events = t.apply(command, role="player", seat="ronan")
    ronan = t.state["combatants"]["ronan"]
    assert (ronan["ki"], ronan["actions"]) == (12, ["small action"])
    check = events[0]["data"]["check"]
    assert (check["tn"], check["outcome"], check["ki_lost"]) == (12, "success", 0)
    text = t.view_for("player", "ronan")["log"][-1]["text"]
    assert text == (
        "Ronan uses Iron Ward (2 Ki); Gift Check: 3, 4, kept 7 vs TN 12: a success (physical "
        "dice): his skin turns to iron until the end of the Scene."
    )
    # An attack Gift is not "used": it attacks; a field the command does not take is refused.
    before = _frozen(t)
    with pytest.raises(ValueError, match="Onslaught makes an attack: send an attack with attack 1"):
        t.apply({"type": "use_gift", "combatant": "ronan", "gift": 0})
    with pytest.raises(ValueError, match="^colour: the table does not know the field"):
        t.apply({"type": "use_gift", "combatant": "ronan", "gift": 1, "colour": "red"})
    with pytest.raises(PermissionError):
        t.apply({"type": "use_gift", "combatant": "ronan", "gift": 1}, "player", "x")
    assert _frozen(t) == before


def test_a_gift_check_catastrophe_in_a_fight_leaves_off_balance(tmp_path):
    # rules/000 line ~31: a kept 20 "in a fight also leaves you Off Balance".
    _, t = new_table(tmp_path, encounter(_warded_ronan(), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    events = t.apply({"type": "use_gift", "combatant": "ronan", "gift": 1, "faces": [10, 10]})
    assert events[0]["data"]["check"]["outcome"] == "catastrophe"
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]
    assert t.state["combatants"]["ronan"]["ki"] == 12  # 2 for the Gift; no loss (000:229)


def test_out_of_a_fight_a_gift_takes_no_action_and_is_undone_whole(tmp_path):
    _, t = new_table(tmp_path, encounter(_warded_ronan(), foes=[soak7()]))
    before = _frozen(t)
    t.apply({"type": "use_gift", "combatant": "ronan", "gift": "Iron Ward", "faces": [1, 1]})
    assert t.state["combatants"]["ronan"]["ki"] == 12
    t.apply({"type": "undo"})
    after = json.loads(_frozen(t))
    assert after["combatants"] == json.loads(before)["combatants"]
