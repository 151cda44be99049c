"""Fights from the rule texts, played through the live table (issue 8, section 3)."""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, run_to_turn, soak7, start_and_declare


@pytest.fixture
def ronan():
    return roster("ronan.json")


@pytest.fixture
def bare_ronan():
    # Ronan's file wears a Leather jacket, which takes a Body hit first (rules/002 "What Does
    # Armor Do?", issue 19); the rules/000 examples below are about his own track, so he takes
    # it off (tests/table/test_table_armor.py has the jacket's own tests).
    who = roster("ronan.json")
    who.armor = []
    return who


def test_ronans_critical_hit(tmp_path, ronan):
    # rules/000 "Critical Success in Combat": Onslaught 5 + Ferocity 4 = 7 dice; a 2 to hit;
    # 4 dice connect outright; the other 3 roll 2, 1, 6 + Klotho 4 against Soak 7: one more.
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    assert t.state["up"] == "ronan"
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    events = t.apply({"type": "roll", "faces": [1, 1]})
    assert events[0]["data"]["outcome"] == "critical"
    events = t.apply({"type": "roll", "faces": [2, 1, 6]})
    assert events[0]["data"]["automatic"] == 4
    assert events[0]["data"]["levels"] == 5
    # With the default timing Ronan may now boost: 2 + 4 and 1 + 4 are under the wall and
    # Ferocity 4 lifts both over it (6 + 4 > 7, 5 + 4 > 7).
    pending = t.view_for("gm")["pending"]
    assert pending["step"] == "boost"
    assert [d["boost_lifts"] for d in pending["odds"]["dice"]] == [True, True, False]
    events = t.apply({"type": "boost", "dice": []})
    resolved = events[-1]["data"]
    assert (resolved["before"], resolved["taken"], resolved["after"]) == (12, 5, 7)


def test_a_critical_hit_cannot_kill_on_its_own(tmp_path, ronan):
    # rules/000: "A Critical Hit can't kill on its own ... only reduce a character to zero".
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7(health=3, named=True)]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [1, 1]})
    t.apply({"type": "roll", "faces": [10, 10, 10]})
    t.apply({"type": "boost", "dice": []}) if t.state["pending"] else None
    assert t.state["combatants"]["opponent"]["now"]["health"] == 0


def test_the_bear_against_a_character_at_zero(tmp_path, bare_ronan):
    # rules/000 "Going down, and staying down": once at 0, any further attack takes one Level.
    _, t = new_table(tmp_path, encounter(bare_ronan, foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 0})
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 0})
    # RULES.md "Where two texts disagree (decided)": the Party has no one able to act, so the
    # fight is over until the GM goes on with it.
    assert t.state["phase"] == "over"
    t.apply({"type": "continue"})
    assert t.state["up"] == "grizzly-bear"
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    events = t.apply({"type": "roll", "faces": [10] * 10})
    assert events[-1]["data"]["taken"] == 1
    ronan_now = t.view_for("gm")["combatants"][0]
    assert ronan_now["vitals"]["health"]["now"] == -1
    assert "Dying" in ronan_now["states"]


def test_the_bear_drops_three_levels_left_to_zero(tmp_path, bare_ronan):
    # rules/000: "A bear that rolls ten dice at someone with three Levels left ... drops them."
    _, t = new_table(tmp_path, encounter(bare_ronan, foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 3})
    t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 0})
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [10] * 10})
    assert t.state["combatants"]["ronan"]["now"]["health"] == 0


def test_ki_prevention_when_hit(tmp_path, bare_ronan):
    # rules/000 "Preventing Damage": 1 Ki per level of damage prevented.
    _, t = new_table(tmp_path, encounter(bare_ronan, foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [10, 10, 10, 1, 1, 1, 1, 1, 1, 1]})
    pending = t.view_for("player", "ronan")["pending"]
    assert pending["step"] == "prevent" and pending["levels"] == 3
    with pytest.raises(PermissionError):
        t.apply({"type": "prevent", "ki": 1}, role="spectator")
    t.apply({"type": "prevent", "ki": 2}, role="player", seat="ronan")
    ronan_state = t.state["combatants"]["ronan"]
    assert ronan_state["now"]["health"] == 9
    assert ronan_state["ki"] == 12


def test_a_normal_round_of_move_attack_move(tmp_path, ronan):
    # rules/000 "Moving in a Round": move, shoot, and move again, the total inside the
    # Movement Rate (5 + Air 3 = 8 m).
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "move", "combatant": "ronan", "metres": 3})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    t.apply({"type": "roll", "faces": [9, 9]})  # a miss
    t.apply({"type": "move", "combatant": "ronan", "metres": 5})
    with pytest.raises(ValueError, match="metres"):
        t.apply({"type": "move", "combatant": "ronan", "metres": 1})
    with pytest.raises(ValueError, match="holds 2 actions"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})


def test_a_normal_round_holds_two_attacks(tmp_path, ronan):
    # RULES.md "Where two texts disagree (decided)": "two other actions and no move at all".
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    for _ in range(2):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
        t.apply({"type": "roll", "faces": [9, 9]})
    with pytest.raises(ValueError, match="holds 2 actions"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})


def test_a_slow_called_shot_bumped_to_fast(tmp_path, ronan):
    # rules/000 "Action Brackets": 1 Ki per step; "a Called Shot bumped to Fast is still a
    # Called Shot".
    foe = soak7()
    _, t = new_table(tmp_path, encounter(ronan, foes=[foe]))
    view = start_and_declare(
        t, {"ronan": ("slow", 2), "opponent": ("fast", 0)}, {"ronan": 1, "opponent": 10}
    )
    assert t.state["combatants"]["ronan"]["ki"] == 14 - 2
    # Both Fast now; the opponent's higher Initiative goes first inside the band.
    assert view["order"] == ["opponent", "ronan"]
    assert {c["id"]: c["band"] for c in view["combatants"]} == {"ronan": "fast", "opponent": "fast"}
    run_to_turn(t, "ronan")
    t.apply(
        {
            "type": "attack",
            "attacker": "ronan",
            "target": "opponent",
            "attack": 1,
            "empowered": "called shot",
        }
    )
    assert t.state["pending"]["empowered"] == "called shot"


def test_empowered_actions_need_a_slow_bracket(tmp_path, ronan):
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    with pytest.raises(ValueError, match="needs a Slow round"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "empowered": "aim"})


def test_aim_gives_advantage(tmp_path, ronan):
    # rules/000 "Action Brackets": Slow, "you Aim for Advantage".
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "opponent": 1})
    run_to_turn(t, "ronan")
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "empowered": "aim"})
    assert t.state["pending"]["advantage"] == 1
    with pytest.raises(ValueError, match="3 d10"):
        t.apply({"type": "roll", "faces": [1, 2]})  # Advantage throws three dice


def test_a_catastrophe_leaves_off_balance_to_the_end_of_the_next_turn(tmp_path, ronan):
    # rules/000 "Rolling the Dice": a 20 "leaves you Off Balance until the end of your next
    # turn, rolling everything at Disadvantage".
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    t.apply({"type": "roll", "faces": [10, 10]})
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "end_turn"})  # the turn it happened in is not the "next" turn
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "end_turn"})  # the opponent's turn: round 1 ends
    assert t.state["round"] == 2
    for cid in ("ronan", "opponent"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    assert ["Off Balance", -1] in t.state["pending"]["sources"]
    assert t.state["pending"]["advantage"] == -1
    t.apply({"type": "roll", "faces": [9, 9, 9]})
    t.apply({"type": "end_turn"})
    assert "Off Balance" not in t.state["combatants"]["ronan"]["conditions"]


def test_flustered_lasts_to_the_end_of_the_scene(tmp_path, ronan):
    # RULES.md (decided): Flustered, once Poise reaches 0, lasts until the Scene ends, even
    # after Poise climbs back (rules/000 "Poise").
    captain = roster("guard_captain.yaml")
    _, t = new_table(tmp_path, encounter(ronan, foes=[captain]))
    cid = t.state["ids"][1]
    start_and_declare(t, {}, {"ronan": 10, cid: 1})
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
    assert "Flustered" in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 5})
    t.apply({"type": "end_turn"})
    t.apply({"type": "end_turn"})  # a new round
    assert "Flustered" in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "end_scene"})
    assert "Flustered" not in t.state["combatants"]["ronan"]["conditions"]


def test_a_short_rest_and_a_full_night(tmp_path, ronan):
    # rules/000 "Harm and Recovery", Above zero: a Short Rest heals half your Health
    # (sub-stat 5: 3 levels), Poise half your Presence (3: 2), Sanity half your Psyche (2: 1),
    # Ki your Klotho (4). Below zero: a Short Rest gives Health nothing; a Full Night one level.
    # Poise and Sanity at or below 0 come back to 1.
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    for field, value in (("health", 2), ("poise", 1), ("sanity", 0), ("ki", 3)):
        t.apply({"type": "set", "combatant": "ronan", "field": field, "value": value})
    t.apply({"type": "short_rest"})
    r = t.state["combatants"]["ronan"]
    assert (r["now"]["health"], r["now"]["poise"], r["now"]["sanity"], r["ki"]) == (5, 3, 1, 7)
    t.apply({"type": "full_night"})
    r = t.state["combatants"]["ronan"]
    assert (r["now"]["health"], r["now"]["poise"], r["now"]["sanity"], r["ki"]) == (10, 8, 7, 14)
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": -6})
    t.apply({"type": "short_rest"})
    assert t.state["combatants"]["ronan"]["now"]["health"] == -6
    t.apply({"type": "full_night"})
    assert t.state["combatants"]["ronan"]["now"]["health"] == -5


def test_an_unnamed_creature_at_zero_leaves_the_fight(tmp_path, ronan):
    # rules/000 "Named and unnamed"; rules/004 "An unnamed NPC who reaches 0 is out".
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7(health=2)]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [2, 3]})
    t.apply({"type": "roll", "faces": [10] * 7})
    assert t.state["combatants"]["opponent"]["out"]
    view = t.view_for("player", "ronan")
    assert view["combatants"][1]["label"] == "down"
    assert t.state["phase"] == "over"  # the Foes have no one able to act (RULES.md)
    t.apply({"type": "continue"})
    with pytest.raises(ValueError, match="out of the fight"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})


def test_poise_at_the_bottom_costs_a_sanity_level_ki_may_prevent_it(tmp_path, ronan):
    # rules/000 "Poise": "Hit the bottom and your Poise resets to 0 and it costs you a Sanity
    # Level. This level of Sanity damage can't be soaked, but can be prevented by spending a
    # point of Ki."
    captain = roster("guard_captain.yaml")
    for sanity_ki, sanity_after, ki_after in ((False, 6, 14), (True, 7, 13)):
        _, t = new_table(tmp_path / str(sanity_ki), encounter(ronan, foes=[captain]))
        cid = t.state["ids"][1]
        social = next(
            i for i, a in enumerate(t.state["combatants"][cid]["attacks"]) if a["kind"] == "social"
        )
        start_and_declare(t, {}, {"ronan": 1, cid: 10})
        t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": -7})
        t.apply({"type": "attack", "attacker": cid, "target": "ronan", "attack": social})
        t.apply({"type": "roll", "faces": [1, 2]})
        dice = t.state["pending"]["dice"]
        t.apply({"type": "roll", "faces": [10] * dice})
        t.apply({"type": "prevent", "ki": 0, "sanity_ki": sanity_ki}, "player", "ronan")
        r = t.state["combatants"]["ronan"]
        assert r["now"]["poise"] == 0
        assert (r["now"]["sanity"], r["ki"]) == (sanity_after, ki_after)


def test_flustered_shaken_off_only_under_the_002_switch(tmp_path, ronan):
    # rules/002 "What Happens to My Poise?": "spend an action to roll Presence against a
    # Difficulty to shake it off early"; rules/000 (default): it lasts until the Scene ends.
    from tb_playground.engine import shake_off_flustered_odds
    from tb_playground.models import Encounter, Ruleset

    for switch in (False, True):
        enc = encounter(ronan, foes=[soak7()])
        enc.ruleset = Ruleset(flustered_shaken_off=switch)
        assert isinstance(enc, Encounter)
        _, t = new_table(tmp_path / str(switch), enc)
        start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
        t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
        t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 4})
        command = {"type": "shake_off", "combatant": "ronan", "difficulty": 5, "faces": [2, 3, 1]}
        if not switch:
            with pytest.raises(ValueError, match="lasts to the end of the Scene"):
                t.apply(command, "player", "ronan")
            continue
        # Flustered: Social rolls at Disadvantage (three dice, keep the highest two: 3 + 2);
        # Presence 3 + Difficulty 5 = TN 8.
        event = t.apply(command, "player", "ronan")[0]["data"]
        assert (event["tn"], event["total"], event["outcome"]) == (8, 5, "success")
        assert "Flustered" not in t.state["combatants"]["ronan"]["conditions"]
        assert t.state["combatants"]["ronan"]["actions"] == ["skill"]
    assert shake_off_flustered_odds(3, 5, -1).p_success < shake_off_flustered_odds(3, 5).p_success
