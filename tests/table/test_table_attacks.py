"""Attacks as the texts have them, at the table (issue 19, item 1), through ``Table.apply`` only.

Typed faces everywhere, so every number is the text's. Each test cites its line.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

HACKER = "nerdy_hacker.yaml"
TASER, FISTS = 1, 0


def _signs(t) -> list:
    return [s[1] for s in t.state["pending"]["sources"]]


def _labels(t) -> list:
    return [s[0] for s in t.state["pending"]["sources"]]


def _hacker_up(tmp_path, brackets=None):
    _, t = new_table(tmp_path, encounter(roster(HACKER), foes=[soak7()]))
    start_and_declare(t, brackets or {}, {"the-nerdy-hacker": 10, "opponent": 1})
    assert t.state["up"] == "the-nerdy-hacker"
    return t


def _attack(t, **fields):
    command = {"type": "attack", "attacker": "the-nerdy-hacker", "target": "opponent", **fields}
    return t.apply(command, role="player", seat="the-nerdy-hacker")


def test_a_taser_at_a_belly_down_target_is_at_disadvantage(tmp_path):
    # rules/000 line 433: "Flat on the ground ... ranged attacks against you are at
    # Disadvantage. Up close ... Melee attacks against you gain Advantage." The Taser's file
    # gives it Normal range 5 m, Long 10 m: a ranged weapon (rules/004 line 50).
    t = _hacker_up(tmp_path)
    t.apply({"type": "set_condition", "combatant": "opponent", "condition": "Belly Down"})
    _attack(t, attack=TASER)
    assert t.state["pending"]["reach"] == "ranged"
    assert t.state["pending"]["advantage"] == -1
    assert "Target is Belly Down (ranged)" in _labels(t)
    # Disadvantage: three typed dice, the highest two kept (rules/000 line 57).
    events = t.apply({"type": "roll", "faces": [2, 9, 3]}, role="player", seat="the-nerdy-hacker")
    assert events[0]["data"]["total"] == 12


def test_fists_at_a_belly_down_target_gain_advantage(tmp_path):
    # rules/000 line 433: "Melee attacks against you gain Advantage".
    t = _hacker_up(tmp_path)
    t.apply({"type": "set_condition", "combatant": "opponent", "condition": "Belly Down"})
    _attack(t, attack=FISTS)
    assert t.state["pending"]["reach"] == "melee"
    assert t.state["pending"]["advantage"] == 1


def test_the_weapon_range_band_comes_from_the_file(tmp_path):
    # rules/004 line 50: "no penalty inside Normal, Disadvantage out to Long, no shot past it".
    t = _hacker_up(tmp_path)
    with pytest.raises(ValueError, match="Long range"):
        _attack(t, attack=TASER, distance=11)
    with pytest.raises(ValueError, match="Long range"):
        _attack(t, attack=FISTS, distance=3)  # a Melee weapon reaches out to 1 m (000 l. 409)
    _attack(t, attack=TASER, distance=8)
    assert t.state["pending"]["weapon_range"] == "long"
    assert "Long range" in _labels(t)


def test_the_range_band_the_table_holds_is_checked(tmp_path):
    # rules/000 line 409: Near is 10 to 50 m: past the Taser's Long range of 10 m.
    t = _hacker_up(tmp_path)
    t.apply({"type": "set_range", "a": "the-nerdy-hacker", "b": "opponent", "band": "near"})
    with pytest.raises(ValueError, match="Long range"):
        _attack(t, attack=TASER)
    # Close (1-10 m) spans Normal and Long: the metres decide.
    t.apply({"type": "set_range", "a": "the-nerdy-hacker", "b": "opponent", "band": "close"})
    with pytest.raises(ValueError, match="distance"):
        _attack(t, attack=TASER)
    _attack(t, attack=TASER, distance=4)
    assert t.state["pending"]["weapon_range"] == "normal"


def test_off_hand_is_one_disadvantage_source(tmp_path):
    # rules/000 line 61: "Doing something that needs manual dexterity or precision with your
    # off-hand - attacking ... - is at Disadvantage."
    t = _hacker_up(tmp_path)
    _attack(t, attack=FISTS, off_hand=True)
    assert ("Off hand", -1) in [tuple(s) for s in t.state["pending"]["sources"]]
    assert t.state["pending"]["advantage"] == -1
    # The typed-dice path takes the third die the Disadvantage asks for.
    with pytest.raises(ValueError, match="exactly 3"):
        t.apply({"type": "roll", "faces": [2, 3]}, role="player", seat="the-nerdy-hacker")
    events = t.apply({"type": "roll", "faces": [1, 1, 10]}, role="player", seat="the-nerdy-hacker")
    assert events[0]["data"]["total"] == 11


def test_a_gm_situational_source_with_its_reason(tmp_path):
    # rules/000 line 45: "When an event, gift, ally, environmental effect, etc. would benefit
    # you, you roll at Advantage. If anything would impede you, you roll at Disadvantage."
    t = _hacker_up(tmp_path)
    dark = {"name": "Darkness", "effect": "disadvantage", "reason": "the lights are out"}
    t.apply(
        {
            "type": "attack",
            "attacker": "the-nerdy-hacker",
            "target": "opponent",
            "attack": FISTS,
            "situational": [dark],
        }
    )
    p = t.state["pending"]
    assert p["advantage"] == -1 and p["situational"] == [dark]
    assert "Darkness (GM: the lights are out)" in _labels(t)
    assert "Darkness" in str(t.view_for("player", "the-nerdy-hacker")["pending"]["situational"])
    events = t.apply({"type": "roll", "faces": [4, 5, 6]})
    assert events[0]["data"]["total"] == 11


def test_the_gm_rules_on_a_players_attack(tmp_path):
    # RULES.md "Where two texts disagree": the attacker describes the approach, the GM confirms
    # or changes it; rules/000 line 439: cover, "the GM tells you which".
    t = _hacker_up(tmp_path)
    _attack(t, attack=FISTS, approach="Water")
    assert (t.state["pending"]["element"], t.state["pending"]["tn"]) == ("Water", 5 + 4)
    sun = {"name": "Sun in the eyes", "effect": "advantage", "reason": "behind the hacker"}
    t.apply({"type": "attack_ruling", "approach": "Air", "situational": [sun], "cover": "partial"})
    p = t.state["pending"]
    assert (p["element"], p["tn"], p["advantage"]) == ("Air", 7 + 4, 0)
    with pytest.raises(PermissionError):
        t.apply(
            {"type": "attack_ruling", "approach": "Earth"}, role="player", seat="the-nerdy-hacker"
        )


def test_an_approach_can_wait_for_the_gms_nod(tmp_path):
    # Table option (no rule of the texts): a player's approach waits until the GM rules.
    t = _hacker_up(tmp_path)
    t.apply({"type": "table_option", "option": "approach_nod", "on": True})
    _attack(t, attack=FISTS, approach="Fire")
    assert t.state["pending"]["step"] == "approach"
    with pytest.raises(ValueError, match="confirm"):
        t.apply({"type": "roll", "faces": [2, 3]}, role="player", seat="the-nerdy-hacker")
    t.apply({"type": "attack_ruling"})
    assert t.state["pending"]["step"] == "to_hit" and t.state["pending"]["element"] == "Fire"


def test_a_player_may_not_send_situational_sources(tmp_path):
    # rules/000 line 53: "The GM agrees that this is enough to give Ronan advantage".
    t = _hacker_up(tmp_path)
    before = t.version
    bright = {"name": "Luck", "effect": "advantage", "reason": "I feel lucky"}
    with pytest.raises(PermissionError, match="only the GM"):
        _attack(t, attack=FISTS, situational=[bright])
    assert t.version == before and t.state["pending"] is None


def test_unknown_fields_are_refused_by_name(tmp_path):
    t = _hacker_up(tmp_path)
    before = t.version
    with pytest.raises(ValueError, match="^weapon: the table does not know the field"):
        _attack(t, attack=FISTS, weapon="Taser")
    with pytest.raises(ValueError, match="^reach: the attack's reach comes from its file"):
        _attack(t, attack=FISTS, reach="ranged")
    with pytest.raises(ValueError, match="situational"):
        t.apply({"type": "attack", "attacker": "the-nerdy-hacker", "target": "opponent",
                 "situational": [{"name": "x", "effect": "maybe", "reason": "y"}]})  # fmt: skip
    assert t.version == before


def test_help_from_a_trained_ally_raises_the_pending_advantage(tmp_path):
    # rules/000 line 79: "Somebody who is at least Trained in the Skill you're rolling can help,
    # and that gives you Advantage." The Brick helps Ronan's Intimidation (he is Adept in it).
    _, t = new_table(
        tmp_path, encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    )
    start_and_declare(t, {}, {"the-brick": 10, "ronan": 5, "opponent": 1})
    assert t.state["up"] == "the-brick"
    t.apply({"type": "help", "combatant": "the-brick", "ally": "ronan"}, "player", "the-brick")
    assert t.state["combatants"]["the-brick"]["actions"] == ["help"]
    t.apply({"type": "end_turn"}, role="player", seat="the-brick")
    ronan = {"attacker": "ronan", "target": "opponent"}
    t.apply({"type": "attack", **ronan, "attack": 2}, role="player", seat="ronan")
    p = t.state["pending"]
    assert p["helpers"] == ["the-brick"] and p["advantage"] == 1
    assert "Trained helper" in _labels(t)
    view = t.view_for("player", "ronan")["pending"]
    assert view["helpers"] == ["the-brick"] and view["advantage"] == 1
    # rules/000 line 81: "On a catastrophic failure, whoever was helping is caught in it too."
    t.apply({"type": "roll", "faces": [10, 10, 10]}, role="player", seat="ronan")
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]
    assert "Off Balance" in t.state["combatants"]["the-brick"]["conditions"]


def test_a_helper_must_be_trained_and_must_have_helped(tmp_path):
    # rules/000 line 79: "at least Trained in the Skill you're rolling". The hacker has no
    # Intimidation, so cannot help Ronan's Intimidation attack.
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), roster(HACKER), foes=[soak7()]))
    start_and_declare(t, {}, {"the-nerdy-hacker": 10, "ronan": 5, "opponent": 1})
    t.apply({"type": "end_turn"})
    ronan = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    with pytest.raises(ValueError, match="not helping"):
        t.apply({**ronan, "attack": 2, "helpers": ["the-nerdy-hacker"]})
    _, t = new_table(
        tmp_path, encounter(roster("ronan.json"), roster(HACKER), foes=[soak7()]), name="U"
    )
    start_and_declare(t, {}, {"the-nerdy-hacker": 10, "ronan": 5, "opponent": 1})
    t.apply({"type": "act", "combatant": "the-nerdy-hacker", "action": "help", "ally": "ronan"})
    t.apply({"type": "end_turn"})
    with pytest.raises(ValueError, match="not Trained in Intimidation"):
        t.apply({**ronan, "attack": 2, "helpers": ["the-nerdy-hacker"]})
    # Taken by default only where Trained: his help waits, unused, on Ronan's plain attack.
    t.apply({**ronan, "attack": 2})
    assert t.state["pending"]["helpers"] == []
