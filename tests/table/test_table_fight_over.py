"""The end of a fight, at the table (issue 19, item 8).

RULES.md "Where two texts disagree (decided)": "A fight is over when one side has no one able
to act (at 0 Health or below, Shattered and unled, Exhausted 5, out); the table says so and
asks nothing more until the GM goes on or ends the Scene." The fight played here is rules/000's
critical-hit example ("Critical Success in Combat", line ~121: Onslaught 7 dice, Klotho 4,
Soak 7) against an unnamed foe (rules/004 ~165: "An unnamed NPC who reaches 0 is out").
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.models import Creature
from tb_playground.models.creature import CreatureAttack


def _lurker() -> Creature:
    return Creature(
        name="Lurker", soak=3, health=2, attacks=[CreatureAttack(name="Bite", element=3, dice=1)]
    )


@pytest.fixture
def fight(tmp_path):
    enc = encounter(
        roster("ronan.json"), roster("the_brick.json"), foes=[soak7(health=6), _lurker()]
    )
    _, t = new_table(tmp_path, enc)
    t.apply({"type": "hide", "combatant": "lurker"})
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 5, "opponent": 1, "lurker": 1})
    t.apply({"type": "set", "combatant": "lurker", "field": "health", "value": 0})
    assert t.state["phase"] == "resolve"  # the Opponent can still act
    # Ronan's critical hit: a 2 to hit; 4 of the 7 dice connect outright; 2, 1, 6 + Klotho 4
    # against Soak 7 add one; Ronan boosts the first two with 2 Ki (Ferocity 4): 7 levels on
    # 6 Health (a boost step is asked only while one more level counts: table/boost_offer.py).
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [1, 1]})
    t.apply({"type": "roll", "faces": [2, 1, 6]})
    events = t.apply({"type": "boost", "dice": [0, 1]})
    return t, events


def test_the_fight_ends_when_the_foes_have_no_one_able_to_act(fight):
    t, events = fight
    assert [e["type"] for e in events][-2:] == ["attack_resolved", "fight_over"]
    assert events[-2]["data"]["taken"] == 6  # one attack stops at 0 (rules/000)
    assert events[-1]["data"]["winner"] == "Party"
    assert t.state["phase"] == "over"
    for role, seat in (("gm", None), ("player", "ronan"), ("spectator", None)):
        view = t.view_for(role, seat)
        assert view["fight_over"]["winner"] == "Party"
        assert view["log"][-1]["text"] == "The fight is over: Party win."


def test_the_summary_counts_what_each_dealt_took_and_spent(fight):
    t, _ = fight
    rows = {r["id"]: r for r in t.view_for("gm")["fight_over"]["summary"]}
    assert rows["ronan"]["dealt"] == {"health": 6, "poise": 0, "sanity": 0}
    # 2 Ki on the boosts and 1 on Onslaught itself (rules/000 "Ki" ~227: a Gift costs its Ki)
    assert rows["ronan"]["spent"] == {"ki": 3, "fate": 0}
    assert rows["opponent"]["took"] == {"health": 6, "poise": 0, "sanity": 0}
    assert rows["the-brick"]["dealt"]["health"] == 0 and "lurker" in rows
    assert not rows["opponent"]["able"] and rows["ronan"]["able"]


def test_the_summary_keeps_hidden_foes_hidden_and_foes_numbers_unless_shared(fight):
    t, _ = fight
    for role, seat in (("player", "ronan"), ("spectator", None)):
        rows = {r["id"]: r for r in t.view_for(role, seat)["fight_over"]["summary"]}
        assert "lurker" not in rows
        assert rows["opponent"]["took"] is None and rows["ronan"]["spent"]["ki"] == 3
    t.apply({"type": "share", "on": True})
    rows = {r["id"]: r for r in t.view_for("spectator")["fight_over"]["summary"]}
    assert rows["opponent"]["took"]["health"] == 6 and "lurker" not in rows


def test_nothing_more_is_asked_until_the_gm_continues(fight):
    t, _ = fight
    version = t.version
    for command, role, seat in (
        ({"type": "end_turn"}, "gm", None),
        ({"type": "end_turn"}, "player", "ronan"),
        ({"type": "declare", "combatant": "ronan", "bracket": "fast"}, "player", "ronan"),
        ({"type": "attack", "attacker": "ronan", "target": "the-brick"}, "gm", None),
        ({"type": "continue"}, "player", "ronan"),
    ):
        with pytest.raises((ValueError, PermissionError)):
            t.apply(command, role=role, seat=seat)
    assert t.version == version
    t.apply({"type": "continue"})
    assert t.state["phase"] == "resolve" and t.view_for("gm")["fight_over"] is None
    while t.state["phase"] == "resolve":
        t.apply({"type": "end_turn"})
    t.apply({"type": "declare", "combatant": "ronan", "bracket": "fast"})
    assert t.state["phase"] == "declare"  # the GM went on: no second "fight over"
    with pytest.raises(ValueError, match="over phase"):
        t.apply({"type": "continue"})


def test_ending_the_scene_closes_the_fight(fight):
    t, _ = fight
    events = t.apply({"type": "end_scene"})
    assert [e["type"] for e in events] == ["end scene", "fight_closed"]
    assert t.state["phase"] == "setup" and t.state["up"] is None
    t.apply({"type": "set", "combatant": "opponent", "field": "health", "value": 5})
    t.apply({"type": "start"})  # a new fight, with the Opponent back on its feet
    assert t.state["phase"] == "declare"


def test_undo_takes_the_end_back_with_the_hit(fight):
    t, _ = fight
    t.apply({"type": "undo"})
    assert t.state["phase"] == "resolve" and t.state["pending"]["step"] == "boost"


def test_a_table_of_one_side_never_ends(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json")))
    start_and_declare(t, {})
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 0})
    assert t.state["phase"] != "over"


def test_shattered_and_unled_is_not_able_to_act(tmp_path):
    # RULES.md (decided): "Shattered and unled"; rules/000 ~275.
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    events = t.apply({"type": "set", "combatant": "ronan", "field": "sanity", "value": -1})
    assert events[-1]["type"] == "fight_over" and events[-1]["data"]["winner"] == "Foes"


def test_a_fight_started_with_one_side_down_is_over_at_once(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7(health=5)]))
    t.apply({"type": "set", "combatant": "opponent", "field": "health", "value": 0})
    events = t.apply({"type": "start"})
    assert events[-1]["type"] == "fight_over" and t.state["phase"] == "over"
