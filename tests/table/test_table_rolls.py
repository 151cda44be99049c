"""Skill, opposed and group rolls and stabilising at the table (issue 19, item 4).

Through ``Table.apply`` only, with typed faces; each test cites its line of rules/000.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, start_and_declare

from tb_playground.engine.core_roll import check_odds
from tb_playground.engine.group import group_odds
from tb_playground.engine.opposed import contest


@pytest.fixture
def party(tmp_path):
    enc = encounter(
        roster("ronan.json"), roster("the_brick.json"), foes=[roster("grizzly_bear.yaml")]
    )
    return new_table(tmp_path, enc)[1]


def test_stealth_against_a_cards_perception_sets_surprised(party):
    # rules/000 line 75: "Its card gives you the number"; rules/002 "What Is Surprised?". Ronan
    # is Untrained in Stealth: TN = the card's Perception 5 alone (rules/000 line 67).
    t = party
    events = t.apply(
        {
            "type": "opposed_roll",
            "actor": "ronan",
            "resister": "grizzly-bear",
            "actor_skill": "Stealth",
            "resister_skill": "Perception",
            "surprise": True,
            "actor_faces": [2, 2],
        }
    )
    data = events[-1]["data"]
    assert data["static"] == 5 and data["winner"] == "ronan"
    assert abs(data["p_actor_wins"] - check_odds(3, 5, 0).p_success) < 1e-12
    assert "Surprised" in t.state["combatants"]["grizzly-bear"]["conditions"]
    t.apply({"type": "start", "initiative": {"ronan": 5, "the-brick": 5, "grizzly-bear": 5}})
    assert "Surprised" in t.state["combatants"]["grizzly-bear"]["conditions"]


def test_an_opposed_roll_between_characters(party):
    # rules/000 line 73: both succeed, "whoever came in further under their target number wins".
    t = party
    events = t.apply(
        {
            "type": "opposed_roll",
            "actor": "ronan",
            "resister": "the-brick",
            "actor_skill": "Stealth",
            "resister_skill": "Perception",
            "difficulty": 6,
            "actor_faces": [1, 3],
            "resister_faces": [2, 3],
            "surprise": True,
        }
    )
    data = events[-1]["data"]
    assert data["winner"] == "ronan"
    expected = contest(check_odds(3, 6, 0), check_odds(1, 6, 0))
    assert abs(data["p_actor_wins"] - expected) < 1e-12
    assert "Surprised" in t.state["combatants"]["the-brick"]["conditions"]


def test_a_group_roll_needs_half_and_no_catastrophe(party):
    # rules/000 line 89: "If at least half of you succeed, the group makes it ... A catastrophic
    # failure spoils it for everyone". Athletics at 5: Ronan Adept (Earth 6), the Brick Expert
    # (Earth 10, a kept 3 is critical).
    t = party
    command = {"type": "group_roll", "members": ["ronan", "the-brick"], "skill": "Athletics"}
    made = t.apply({**command, "faces": {"ronan": [9, 9, 9], "the-brick": [1, 2, 5]}})
    data = made[-1]["data"]
    assert data["successes"] == 1 and data["success"] is True
    assert data["rolls"][1]["outcome"] == "critical"
    expected = group_odds([check_odds(6, 5, 2), check_odds(10, 5, 3)])
    assert abs(data["p_success"] - expected) < 1e-12
    spoiled = t.apply({**command, "faces": {"ronan": [10, 10, 10], "the-brick": [1, 2, 5]}})
    assert spoiled[-1]["data"]["success"] is False


def test_a_skill_roll_at_its_tier_in_a_fight(party):
    # rules/000 line 51: Ronan is Adept at Research: Advantage, 3 dice. One action in a fight.
    t = party
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "the-brick": 1, "grizzly-bear": 1})
    events = t.apply(
        {"type": "skill_roll", "combatant": "ronan", "skill": "Research", "faces": [2, 9, 3]},
        role="player",
        seat="ronan",
    )
    data = events[-1]["data"]
    assert data["total"] == 5 and data["outcome"] == "success"
    assert abs(data["p_success"] - check_odds(3, 5, 2).p_success) < 1e-12
    with pytest.raises(ValueError, match="Fast round holds one action"):
        t.apply({"type": "skill_roll", "combatant": "ronan", "skill": "Research"})


def test_a_kept_20_in_a_fight_leaves_off_balance(party):
    # rules/000 line 31: "In a fight it also leaves you Off Balance".
    t = party
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 1, "grizzly-bear": 1})
    t.apply(
        {"type": "skill_roll", "combatant": "ronan", "skill": "Research", "faces": [10, 10, 10]}
    )
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]


def test_humiliated_cannot_lead_a_persuasion_roll(party):
    # rules/000 line 268: Humiliated "cannot take the lead, negotiate, or speak for the group".
    t = party
    t.apply({"type": "set", "combatant": "the-brick", "field": "poise", "value": -1})
    with pytest.raises(ValueError, match="Humiliated"):
        t.apply({"type": "skill_roll", "combatant": "the-brick", "skill": "Persuasion"})


def test_first_aid_stabilises_the_dying(party):
    # rules/000 line 287: "somebody stabilizes you - First Aid ... and you're at 0".
    t = party
    t.apply({"type": "set", "combatant": "the-brick", "field": "health", "value": -2})
    events = t.apply(
        {"type": "stabilise", "combatant": "ronan", "target": "the-brick", "faces": [1, 2]}
    )
    assert events[-1]["type"] == "stabilised"
    assert t.state["combatants"]["the-brick"]["now"]["health"] == 0
    with pytest.raises(ValueError, match="Not Dying"):
        t.apply({"type": "stabilise", "combatant": "ronan", "target": "the-brick"})
