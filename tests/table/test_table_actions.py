"""The actions of the round at the table, through ``Table.apply`` only (issue 19, item 4).

Typed faces, so the numbers are the texts'; each test cites its line of rules/000 or 001.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, run_to_turn, soak7, start_and_declare

from tb_playground.engine import to_hit_odds
from tb_playground.engine.core_roll import roll_odds
from tb_playground.engine.opposed import contest


@pytest.fixture
def duel(tmp_path):
    """Ronan (Earth 6, Potence 5) against rules/000's Soak 7 opponent (Defense 4)."""
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    return t


def _refused(t, command, **who) -> str:
    before, version = t.state, t.version
    with pytest.raises(ValueError) as err:
        t.apply(command, **who)
    assert t.state == before and t.version == version
    return str(err.value)


def test_a_fast_round_refuses_a_second_action_in_plain_words(duel):
    # rules/000 line 371: "Fast gets one action ... and that's all you do".
    t = duel
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "act", "combatant": "ronan", "action": "reload"})
    text = _refused(t, {"type": "act", "combatant": "ronan", "action": "small action"})
    assert "a Fast round holds one action" in text
    assert "Action Brackets" in text and "End the turn" in text
    assert not any(f"{field}:" in text for field in ("action", "metres", "combatant"))


def test_unknown_fields_are_refused_by_name(duel):
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    text = _refused(t, {"type": "act", "combatant": "ronan", "action": "reckless", "speed": 3})
    assert '"speed"' in text and "does not know" in text


def test_reckless_and_full_defense(duel):
    # rules/001 line 140: Reckless, Advantage on your attacks; line 141: Full Defense, no attacks.
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "act", "combatant": "ronan", "action": "reckless"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    assert ["Reckless", 1] in t.state["pending"]["sources"]
    t.apply({"type": "roll", "faces": [9, 9, 9]})
    t.apply({"type": "end_turn"})
    # The opponent's attack against a Reckless Ronan gains Advantage too.
    t.apply({"type": "attack", "attacker": "opponent", "target": "ronan", "attack": 0})
    assert ["Target is Reckless", 1] in t.state["pending"]["sources"]


def test_full_defense_refuses_an_attack(duel):
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "act", "combatant": "ronan", "action": "full defense"})
    with pytest.raises(ValueError, match="Full Defense"):
        t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})


def test_study_then_called_shot_with_advantage(duel):
    # rules/001 line 133: "Study a Target this round makes next round's Called Shot roll with
    # Advantage".
    t = duel
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "opponent": 1})
    run_to_turn(t, "ronan")
    t.apply({"type": "act", "combatant": "ronan", "action": "study", "target": "opponent"})
    t.apply({"type": "end_turn"})
    for cid in ("ronan", "opponent"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "slow"})
    run_to_turn(t, "ronan")
    t.apply(
        {
            "type": "attack",
            "attacker": "ronan",
            "target": "opponent",
            "attack": 0,
            "empowered": "called shot",
        }
    )
    assert ["Studied the target last round", 1] in t.state["pending"]["sources"]


def test_getting_low_and_back_up(duel):
    # rules/001 lines 50-53: Belly Down free, Stand up one action, Recover from Prone one action.
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "act", "combatant": "ronan", "action": "belly down"})
    assert "Belly Down" in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "act", "combatant": "ronan", "action": "stand up"})
    assert t.state["combatants"]["ronan"]["actions"] == ["belly down", "stand up"]


def test_recover_from_prone(duel):
    t = duel
    t.apply({"type": "set_condition", "combatant": "ronan", "condition": "Prone"})
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    text = _refused(t, {"type": "move", "combatant": "ronan", "metres": 1})
    assert "Prone" in text
    t.apply({"type": "act", "combatant": "ronan", "action": "recover from prone"})
    assert "Prone" not in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "move", "combatant": "ronan", "metres": 3})


def test_reload_by_the_weapon(duel):
    # rules/001 line 142: one action for a magazine, free for a bow from a quiver.
    t = duel
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "act", "combatant": "ronan", "action": "reload", "reload": "quiver"})
    t.apply({"type": "act", "combatant": "ronan", "action": "reload", "reload": "magazine"})
    assert t.state["combatants"]["ronan"]["actions"] == ["reload"]


def test_ready_fires_on_its_trigger_and_gives_the_turn_back(duel):
    # rules/001 line 146: "hold it for a trigger you name ... it resolves when the trigger
    # happens".
    t = duel
    start_and_declare(t, {"ronan": ("fast", 0)}, {"ronan": 10, "opponent": 1})
    t.apply(
        {
            "type": "act",
            "combatant": "ronan",
            "action": "ready",
            "trigger": "when it comes through the door",
            "what": "punch it",
        }
    )
    t.apply({"type": "end_turn"})
    assert t.state["up"] == "opponent"
    with pytest.raises(PermissionError):
        t.apply({"type": "ready_fired", "combatant": "ronan"}, role="player", seat="ronan")
    t.apply({"type": "ready_fired", "combatant": "ronan"})
    assert t.state["up"] == "ronan"
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    t.apply({"type": "roll", "faces": [9, 9]})
    t.apply({"type": "end_turn"})
    assert t.state["up"] == "opponent"
    _refused(t, {"type": "ready_fired", "combatant": "ronan"})


def test_a_grab_that_holds(duel):
    # rules/001 line 143: "an attack roll, then your Potence in d10s against its Soak. Any die
    # over, and it's Grabbed." Ronan: Earth 6 + Defense 4 = TN 10; Potence 5 against Soak 7.
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    events = t.apply(
        {
            "type": "grab",
            "attacker": "ronan",
            "target": "opponent",
            "approach": "Earth",
            "faces": [3, 4],
            "potence_faces": [2, 3, 8, 1, 1],
        }
    )
    data = events[-1]["data"]
    assert data["tn"] == 10 and data["to_hit"]["outcome"] == "success"
    assert data["grabbed"] is True
    assert t.state["combatants"]["opponent"]["conditions"]["Grabbed"]["by"] == "ronan"
    assert abs(data["p_hit"] - to_hit_odds(6, 4).p_hit) < 1e-12
    assert abs(data["p_hold"] - (1 - 0.7**5)) < 1e-12
    assert t.state["combatants"]["ronan"]["actions"] == ["grab"]


def test_a_grab_whose_dice_stay_under_soak_does_not_hold(duel):
    t = duel
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply(
        {
            "type": "grab",
            "attacker": "ronan",
            "target": "opponent",
            "faces": [3, 4],
            "potence_faces": [7, 7, 7, 1, 1],
        }
    )
    assert "Grabbed" not in t.state["combatants"]["opponent"]["conditions"]


def _brick_holds_ronan(tmp_path):
    """The Brick (Earth 10, Potence 6) grabs Ronan (Defense 7, Soak 5): TN 17, a 6 is over."""
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("the_brick.json")]))
    start_and_declare(t, {}, {"ronan": 1, "the-brick": 10})
    t.apply(
        {
            "type": "grab",
            "attacker": "the-brick",
            "target": "ronan",
            "faces": [5, 6],
            "potence_faces": [6, 1, 1, 1, 1, 1],
        }
    )
    assert t.state["combatants"]["ronan"]["conditions"]["Grabbed"]["by"] == "the-brick"
    t.apply({"type": "end_turn"})
    return t


def test_escape_by_an_opposed_potence_roll(tmp_path):
    # rules/001 line 148 "Escape a hold - see Grabbed": our reading (docs/notes/0015), Potence +
    # Difficulty against the holder's, the holder resisting (rules/000 line 73).
    t = _brick_holds_ronan(tmp_path)
    text = _refused(t, {"type": "move", "combatant": "ronan", "metres": 1})
    assert "Grabbed" in text  # rules/001 line 35: "escape first, then move"
    # Ronan: Potence 5 + 5 = TN 10, a 7 is 3 under; the Brick: 6 + 5 = TN 11, a 10 is 1 under.
    events = t.apply(
        {"type": "escape", "combatant": "ronan", "faces": [3, 4], "holder_faces": [5, 5]},
        role="player",
        seat="ronan",
    )
    data = events[-1]["data"]
    assert data["escaped"] is True
    assert "Grabbed" not in t.state["combatants"]["ronan"]["conditions"]
    expected = contest(roll_odds(10), roll_odds(11))
    assert abs(data["p_escape"] - expected) < 1e-12
    t.apply({"type": "move", "combatant": "ronan", "metres": 1})  # free to move now


def test_escape_tie_goes_to_the_holder(tmp_path):
    t = _brick_holds_ronan(tmp_path)
    events = t.apply(
        {"type": "escape", "combatant": "ronan", "faces": [4, 4], "holder_faces": [4, 5]}
    )  # 2 under each: a tie goes to the resister (rules/000 line 73)
    assert events[-1]["data"]["escaped"] is False
    assert "Grabbed" in t.state["combatants"]["ronan"]["conditions"]


def test_disarm_is_a_called_shot_then_potence_against_potence(tmp_path):
    # rules/001 line 144: "a Called Shot at a held weapon or item; on a hit, Potence against
    # Potence to knock it loose".
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("the_brick.json")]))
    start_and_declare(t, {"ronan": ("normal", 0)}, {"ronan": 10, "the-brick": 1})
    text = _refused(t, {"type": "disarm", "attacker": "ronan", "target": "the-brick"})
    assert "Slow round" in text
    t.apply({"type": "end_turn"})
    t.apply({"type": "end_turn"})
    for cid in ("ronan", "the-brick"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "slow"})
    run_to_turn(t, "ronan")
    events = t.apply(
        {
            "type": "disarm",
            "attacker": "ronan",
            "target": "the-brick",
            "item": "crowbar",
            "faces": [1, 2],
            "attacker_faces": [2, 3],
            "defender_faces": [9, 9],
        }
    )
    data = events[-1]["data"]
    assert data["knocked_loose"] is True
    assert abs(data["p_knock_loose"] - contest(roll_odds(10), roll_odds(11))) < 1e-12
