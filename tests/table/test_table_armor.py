"""Armor at the table (issue 19, item 2), through ``Table.apply`` only, with typed faces.

rules/002 "What Does Armor Do?" (lines 149-157) and "How Do Called Shots Work?" (159-163).
"""

from __future__ import annotations

import numpy as np
from table_helpers import encounter, new_table, roster, start_and_declare

from tb_playground.engine import to_hit_odds
from tb_playground.engine.armor import Armor, armor_distribution


def _bear_on_ronan(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    assert t.state["up"] == "grizzly-bear"
    return t


def test_a_jacket_takes_the_bears_hit(tmp_path):
    # rules/002 line 153: "While it still has Health Levels left, armor intercepts every die
    # aimed at the Zone it covers"; line 155: "you take nothing while the armor holds ... An
    # armor item never loses more than 1 Health Level per attack". Ronan's Leather jacket:
    # Hardness 3, 2 levels, Body; the bear's Maul, 10 dice.
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    assert t.state["pending"]["armor"]["name"] == "Leather jacket"
    t.apply({"type": "roll", "faces": [3, 4]})
    events = t.apply({"type": "roll", "faces": [10] * 10})
    hit = next(e for e in events if e["type"] == "armor_hit")["data"]
    assert (hit["lost"], hit["before"], hit["after"]) == (1, 2, 1)
    resolved = events[-1]["data"]
    ronan = t.state["combatants"]["ronan"]
    assert resolved["taken"] == 0 and ronan["now"]["health"] == ronan["max"]["health"]
    assert t.state["combatants"]["ronan"]["armor"]["body"]["levels"] == 1


def test_dice_at_or_under_hardness_leave_the_armor_whole(tmp_path):
    # rules/002 line 155: only "a die that beats Hardness" costs the armor a level.
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    events = t.apply({"type": "roll", "faces": [3, 2, 1, 3, 3, 2, 1, 1, 2, 3]})
    hit = next(e for e in events if e["type"] == "armor_hit")["data"]
    assert hit["lost"] == 0 and t.state["combatants"]["ronan"]["armor"]["body"]["levels"] == 2


def test_a_broken_jacket_covers_nothing(tmp_path):
    # rules/002 line 157: "Once an armor item hits 0 Health Levels, it's broken - it stops
    # covering its Zone entirely, and dice resolve straight against your own Soak".
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "repair_armor", "combatant": "ronan", "zone": "body", "levels": 0})
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 0})
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    assert t.state["pending"]["armor"] is None
    t.apply({"type": "roll", "faces": [3, 4]})
    events = t.apply({"type": "roll", "faces": [6, 6, 6, 5, 5, 5, 5, 1, 1, 1]})
    assert events[-1]["data"]["taken"] == 3  # three dice over Soak 5


def test_rests_do_not_mend_armor_the_gm_repairs_it(tmp_path):
    # rules/002 line 157: broken "until it's repaired"; the texts tie no repair to a rest.
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [10] * 10})
    t.apply({"type": "end_scene"})  # no rest while the fight goes on (issue 32 item 8)
    t.apply({"type": "full_night"})
    assert t.state["combatants"]["ronan"]["armor"]["body"]["levels"] == 1
    t.apply({"type": "repair_armor", "combatant": "ronan", "zone": "body"})
    assert t.state["combatants"]["ronan"]["armor"]["body"]["levels"] == 2


def test_a_called_shot_to_an_armored_head(tmp_path):
    # rules/002 line 161: "A called shot ... is the only way to specifically target the Head
    # Zone"; line 163: "If the target has Head-Zone armor, it - and only it - resolves against
    # the called shot". The Brick's Riot helmet: Hardness 6, 2 levels. Ronan, Slow, Onslaught
    # (7 dice): one die over 6 costs the helmet one level, the Brick takes nothing.
    brick = roster("the_brick.json")
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[brick]))
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "the-brick": 1})
    t.apply({"type": "end_turn"})
    assert t.state["up"] == "ronan"
    t.apply(
        {
            "type": "attack",
            "attacker": "ronan",
            "target": "the-brick",
            "attack": 1,
            "empowered": "called shot",
            "zone": "head",
        },
        role="player",
        seat="ronan",
    )
    p = t.state["pending"]
    assert (p["zone"], p["armor"]["name"], p["wall"]) == ("head", "Riot helmet", 6)
    t.apply({"type": "roll", "faces": [3, 4]}, role="player", seat="ronan")
    events = t.apply({"type": "roll", "faces": [7, 8, 1, 1, 1, 1, 1]}, "player", "ronan")
    hit = next(e for e in events if e["type"] == "armor_hit")["data"]
    assert (hit["zone"], hit["lost"], hit["after"]) == ("head", 1, 1)
    assert events[-1]["data"]["taken"] == 0


def test_a_plain_attack_goes_to_the_body(tmp_path):
    # rules/002 line 161: "their Head-Zone armor does nothing to stop" an ordinary attack.
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("the_brick.json")]))
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "the-brick", "attack": 1})
    assert t.state["pending"]["armor"] is None and t.state["pending"]["wall"] == 10


def test_the_pending_odds_include_the_armor(tmp_path):
    # The odds are the engine's: to_hit_odds and armor_distribution (rules/002).
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    odds = t.view_for("gm")["pending"]["odds"]
    hit = to_hit_odds(6, 7, 0)
    jacket = Armor(3, 2, "body")
    plain = armor_distribution(10, 5, jacket, boosts=0)
    crit = armor_distribution(10, 5, jacket, critical=True)
    assert abs(odds["p_armor_loses"] - (hit.p_ordinary * plain[1].sum() + hit.p_critical)) < 1e-12
    assert odds["levels"][0] == 1.0 and odds["p_down"] == 0.0
    assert np.isclose(crit[1].sum(), 1.0)


def test_one_boost_at_most_against_armor(tmp_path):
    # rules/002 line 155: at most one armor level an attack, so one boost is all that counts.
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("the_brick.json")]))
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "the-brick": 1})
    t.apply({"type": "end_turn"})
    shot = {"type": "attack", "attacker": "ronan", "target": "the-brick", "attack": 1}
    t.apply({**shot, "empowered": "called shot"})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [5, 5, 1, 1, 1, 1, 1]})
    assert t.state["pending"]["step"] == "boost"  # 5 + Ferocity 4 lifts it over Hardness 6
    try:
        t.apply({"type": "boost", "dice": [0, 1]})
        raise AssertionError("two boosts against armor were taken")
    except ValueError as err:
        assert "one boost" in str(err)
    events = t.apply({"type": "boost", "dice": [0]})
    assert next(e for e in events if e["type"] == "armor_hit")["data"]["lost"] == 1
