"""Moving in metres at the table: bands, Leaving Melee, bad ground, creatures' media (issue 19).

Through ``Table.apply`` only; each test cites its line of rules/000 or 001.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, run_to_turn, start_and_declare

from tb_playground.engine.round_budget import sprint_difficulty
from tb_playground.table import movement


@pytest.fixture
def bear_fight(tmp_path):
    enc = encounter(roster("ronan.json"), foes=[roster("grizzly_bear.yaml")])
    return new_table(tmp_path, enc)[1]


def test_leaving_melee_names_who_may_follow(bear_fight):
    # rules/000 lines 421-425: whatever "hasn't acted yet this round ... can follow you and
    # attack - as long as its move reaches you"; rules/001 line 29: it "declared Normal".
    t = bear_fight
    t.apply({"type": "set_distance", "a": "ronan", "b": "grizzly-bear", "metres": 1})
    assert t.state["ranges"]["grizzly-bear|ronan"] == "melee"
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "grizzly-bear": 1})
    events = t.apply(
        {"type": "move", "combatant": "ronan", "metres": 8, "away_from": "grizzly-bear"}
    )
    data = events[-1]["data"]
    assert data["distance_after"] == 9 and data["band"] == "close"  # rules/000 line 409
    assert data["may_follow"] == ["grizzly-bear"]  # run 12 m reaches 9 m
    assert t.state["ranges"]["grizzly-bear|ronan"] == "close"


def test_a_creature_swims_at_its_swim_rate_not_its_fastest(bear_fight):
    # rules/000 line 475: creatures move "at the rate on their card" for the medium; the bear
    # swims 4 m, not its 12 m run.
    t = bear_fight
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    with pytest.raises(ValueError, match="allows 4 metres"):
        t.apply({"type": "move", "combatant": "grizzly-bear", "metres": 5, "mode": "swim"})
    with pytest.raises(ValueError, match="no fly mode"):
        t.apply({"type": "move", "combatant": "grizzly-bear", "metres": 1, "mode": "fly"})
    t.apply({"type": "move", "combatant": "grizzly-bear", "metres": 4, "mode": "swim"})


def test_a_character_cannot_swim_untrained(bear_fight):
    # rules/000 line 469: "Swimming can't be done untrained".
    t = bear_fight
    start_and_declare(t, {}, {"ronan": 10, "grizzly-bear": 1})
    with pytest.raises(ValueError, match="cannot swim untrained"):
        t.apply({"type": "move", "combatant": "ronan", "metres": 2, "mode": "swim"})


def test_rough_ground_costs_double_after_a_failed_push(bear_fight):
    # rules/000 lines 445-447: Rough costs 2 m a metre; Athletics at 6 once a turn crosses it as
    # clear; a failure pays the full cost. Ronan: Adept Athletics, three dice.
    t = bear_fight
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "grizzly-bear": 1})
    events = t.apply(
        {
            "type": "move",
            "combatant": "ronan",
            "metres": 3,
            "ground": "rough",
            "athletics_faces": [9, 9, 9],
        }
    )
    data = events[-1]["data"]
    assert data["athletics"]["outcome"] == "failure" and data["spent"] == 6
    assert abs(data["athletics"]["p_success"] - data["athletics"]["p_engine"]) < 1e-12


def test_a_pushed_success_crosses_rough_as_clear(bear_fight):
    t = bear_fight
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "grizzly-bear": 1})
    events = t.apply(
        {
            "type": "move",
            "combatant": "ronan",
            "metres": 8,
            "ground": "rough",
            "athletics_faces": [1, 3, 9],
        }
    )
    assert events[-1]["data"]["spent"] == 8


def test_a_sprint_over_slick_footing_can_leave_you_prone(bear_fight):
    # rules/000 line 449: "Dash, Sprint or Bulldoze across it and you roll Athletics at 6, and a
    # failure puts you down Prone".
    t = bear_fight
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "grizzly-bear": 1})
    run_to_turn(t, "ronan")
    events = t.apply(
        {
            "type": "move",
            "combatant": "ronan",
            "metres": 20,
            "how": "sprint",
            "footing": True,
            "footing_faces": [9, 9, 9],
        }
    )
    assert events[-1]["data"]["prone"] is True
    assert "Prone" in t.state["combatants"]["ronan"]["conditions"]


def test_sprint_exhaustion_after_the_free_rounds(bear_fight):
    # rules/000 line 485: "your Stamina in Rounds for free, then a roll of Water plus Difficulty
    # every Round, starting at 6". Ronan: Stamina 4, Water 2: the 5th Sprint rolls at TN 8.
    t = bear_fight
    t.apply({"type": "start", "initiative": {"ronan": 10, "grizzly-bear": 1}})
    for n in range(1, 6):
        t.apply({"type": "declare", "combatant": "ronan", "bracket": "slow"})
        t.apply({"type": "declare", "combatant": "grizzly-bear", "bracket": "normal"})
        run_to_turn(t, "ronan")
        command = {"type": "move", "combatant": "ronan", "metres": 10, "how": "sprint"}
        if n == 5:
            command["sprint_faces"] = [5, 6]
        events = t.apply(command)
        t.apply({"type": "end_turn"})
        if t.state["up"] == "grizzly-bear":
            t.apply({"type": "end_turn"})
    endurance = events[-1]["data"]["endurance"]
    assert endurance["tn"] == 8 and endurance["outcome"] == "failure"
    assert t.state["combatants"]["ronan"]["exhausted"] == 1


def test_one_sprint_endurance_rule_for_a_round_and_a_chase(bear_fight):
    """rules/000 line 485 = rules/001 line 116: one engine rule, one table roll (issue 30).

    The round's Sprint once skipped the check the chase made: a roller whose conditions forbid
    the roll (here Shattered and not led) is now refused in both, in plain words.
    """
    stamina = 4  # Ronan
    assert [sprint_difficulty(stamina, run) for run in range(1, 12)] == [
        None, None, None, None, 6, 5, 4, 3, 2, 1, 0,
    ]  # fmt: skip
    state = bear_fight.state
    c = state["combatants"]["ronan"]
    assert c["stamina"] == stamina
    shattered = {**c, "conditions": {**c["conditions"], "Shattered": {"until": "scene"}}}
    data: dict = {}
    with pytest.raises(ValueError, match="cannot make this roll: Shattered"):
        movement.sprint_endurance(state, {}, shattered, stamina + 1, data, lambda n: [5] * n)
    changes = movement.sprint_endurance(state, {}, c, stamina + 1, data, lambda n: [5] * n)
    assert data["endurance"]["difficulty"] == 6 and data["endurance"]["tn"] == 8  # Water 2 + 6
    assert data["endurance"]["outcome"] == "failure"  # 5 + 5 = 10 over TN 8
    assert changes == [[["combatants", "ronan", "exhausted"], 1]]
