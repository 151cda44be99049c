"""A chase as its own phase at the table (issue 19 item 4), through ``Table.apply`` only.

Typed faces throughout; each test cites its lines of rules/001 "Chases" (105-119) or rules/000
"Chases" (477-485). Ronan: Athletics Adept at Earth 6 (TN 12 at Difficulty 6, three dice, keep
the lowest two), Movement Rate 8. The grizzly bear: its card's Maul 6 (TN 12, two dice), runs
12 m, "Perception 5 vs. Stealth".
"""

from __future__ import annotations

import json

import pytest
from table_helpers import encounter, new_table, roster

from tb_playground.engine.chase import chase_result_odds, chase_round


@pytest.fixture
def bear(tmp_path):
    enc = encounter(roster("ronan.json"), foes=[roster("grizzly_bear.yaml")])
    return new_table(tmp_path, enc)[1]


def _round(t, bear_faces, ronan_faces, bear_how="move", ronan_how="move"):
    t.apply({"type": "chase_declare", "combatant": "grizzly-bear", "how": bear_how})
    t.apply({"type": "chase_declare", "combatant": "ronan", "how": ronan_how}, "player", "ronan")
    t.apply({"type": "chase_roll", "combatant": "grizzly-bear", "faces": bear_faces})
    return t.apply({"type": "chase_roll", "combatant": "ronan", "faces": ronan_faces})


def test_the_bear_closes_to_a_metre_and_catches(bear):
    # rules/001 lines 109-112: declare a move, Chase roll at Difficulty 6, "One side succeeds
    # and the other fails: the side that failed moves at half", "1m or less: caught - Melee".
    t = bear
    t.apply({"type": "start", "initiative": {"ronan": 5, "grizzly-bear": 5}})
    t.apply({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 10})
    assert t.state["phase"] == "chase"
    view = t.view_for("player", "ronan")
    assert view["chase"]["due"]["declare"] == ["ronan", "grizzly-bear"]
    # Round 1: both succeed, full moves: 10 + 8 - 12 = 6 m.
    events = _round(t, [3, 4], [2, 3, 9])
    moved = next(e for e in events if e["type"] == "chase_moved")["data"]
    assert moved["results"] == ["success", "success"] and moved["gap_after"] == 6
    assert t.state["distances"]["grizzly-bear|ronan"] == 6
    assert t.state["ranges"]["grizzly-bear|ronan"] == "close"
    # Round 2: the bear succeeds, Ronan keeps 20 (a catastrophic failure, a failure): he moves
    # half, 6 + 4 - 12 < 1: caught. A kept 20 in a fight leaves him Off Balance (000 line 31).
    events = _round(t, [3, 4], [10, 10, 10])
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["chase_moved", "chase_caught"]
    assert events[-2]["data"]["moved"] == [12.0, 4.0] and events[-2]["data"]["caught"]
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]
    # The chase ends with the two in Melee and the fight goes on with a new round.
    assert t.state["chase"] is None and t.state["phase"] == "declare" and t.state["round"] == 2
    assert t.state["distances"]["grizzly-bear|ronan"] == 1
    assert t.state["ranges"]["grizzly-bear|ronan"] == "melee"
    assert t.view_for("gm")["chase"] is None


def test_ronan_breaks_sight_and_loses_the_bear(bear):
    # rules/001 line 111: "A critical success moves 1.5x"; line 114: "The GM sets where sight
    # breaks ... The quarry then rolls Stealth against the pursuer's Perception (a creature's
    # card: 'Perception 7 vs. Stealth'). Success, and they've lost it. Failure, and it's back
    # on their trail at the edge of sight."
    t = bear
    t.apply(
        {
            "type": "chase_start",
            "quarry": "ronan",
            "pursuers": ["grizzly-bear"],
            "metres": 15,
            "sight_m": 20,
        }
    )
    # Round 1: the bear fails (kept 18), Ronan keeps 2 (critical): 12 m against the bear's 6.
    events = _round(t, [9, 9], [1, 1, 5])
    moved = next(e for e in events if e["type"] == "chase_moved")["data"]
    assert moved["moved"] == [6.0, 12.0] and moved["gap_after"] == 21 and moved["out_of_sight"]
    assert t.view_for("spectator")["chase"]["due"]["search"] == ["grizzly-bear"]
    with pytest.raises(ValueError, match="Stealth roll comes first"):
        t.apply({"type": "chase_declare", "combatant": "grizzly-bear"})
    # Stealth untrained: TN 5 (the card's 5 is the Difficulty); kept 11 fails: back on the trail.
    t.apply({"type": "chase_search", "pursuer": "grizzly-bear", "actor_faces": [5, 6]})
    assert t.state["chase"]["gaps"]["grizzly-bear"] == 20
    # Round 2: the bear fails, Ronan succeeds: 20 + 8 - 6 = 22 m, out of sight again.
    _round(t, [9, 9], [2, 3, 9])
    assert t.state["chase"]["searching"] == {"grizzly-bear": 20}
    events = t.apply({"type": "chase_search", "pursuer": "grizzly-bear", "actor_faces": [1, 3]})
    assert [e["type"] for e in events] == ["chase_searched", "chase_escaped"]
    assert events[0]["data"]["lost"] is True
    # No fight was under way: back to the Scene (setup).
    assert t.state["phase"] == "setup" and t.state["chase"] is None
    assert "Ronan has broken away." in [line["text"] for line in t.view_for("gm")["log"]]


def test_the_odds_shown_are_the_engines(bear):
    # rules/001 line 110 (Difficulty 6, one step harder for the route), line 116 ("Exhausted 1
    # puts Chase rolls at Disadvantage"); rules/004: Off Balance puts everything at Disadvantage.
    t = bear
    t.apply({"type": "set", "combatant": "ronan", "field": "exhausted", "value": 1})
    t.apply({"type": "set_condition", "combatant": "grizzly-bear", "condition": "Off Balance"})
    t.apply(
        {
            "type": "chase_start",
            "quarry": "ronan",
            "pursuers": ["grizzly-bear"],
            "metres": 14,
            "harder": 1,
        }
    )
    bear_odds = chase_result_odds(6, 1, -1, 5, 0)
    ronan_odds = chase_result_odds(6, 2, 0, 5, 1)
    for role, seat in (("gm", None), ("player", "ronan"), ("spectator", None)):
        odds = t.view_for(role, seat)["chase"]["odds"]
        for key in ("critical", "success", "failure"):
            assert abs(odds["ronan"][key] - float(ronan_odds[key])) < 1e-12
            if role == "gm":
                assert abs(odds["grizzly-bear"][key] - float(bear_odds[key])) < 1e-12
        # a foe's odds (its Athletics) only for the GM, unless the foes' numbers are shared
        assert ("grizzly-bear" in odds) == (role == "gm")
    t.apply({"type": "share", "on": True})
    odds = t.view_for("player", "ronan")["chase"]["odds"]
    assert abs(odds["grizzly-bear"]["success"] - float(bear_odds["success"])) < 1e-12
    t.apply({"type": "share", "on": False})
    t.apply({"type": "chase_declare", "combatant": "grizzly-bear", "how": "dash"})
    t.apply({"type": "chase_declare", "combatant": "ronan", "how": "move"})
    row = t.view_for("player", "ronan")["chase"]["gaps"][0]
    assert row["metres"] == 14 and row["band"] == "near"
    engine = chase_round(
        gap_m=14,
        pursuer_move_m=24,  # a Dash: twice the bear's 12 m (rules/000 line 415)
        quarry_move_m=8,  # Exhausted 1 does not slow him (Exhausted 3 halves, rules/001 line 19)
        pursuer_element=6,
        quarry_element=6,
        pursuer_tier=1,
        quarry_tier=2,
        pursuer_advantage=-1,
        quarry_advantage=0,
        pursuer_difficulty=5,
        quarry_difficulty=5,
        pursuer_exhausted=0,
        quarry_exhausted=1,
    )
    assert abs(row["p_caught"] - float(engine.exact_caught)) < 1e-12
    shown = dict((g, p) for g, p in row["gaps"])
    for gap, p in engine.gaps:
        assert abs(shown[float(gap)] - float(p)) < 1e-12
    # After the bear's roll the odds are the engine's given its result.
    events = t.apply({"type": "chase_roll", "combatant": "grizzly-bear", "faces": [1, 2, 3]})
    assert events[0]["data"]["result"] == "success"  # Disadvantage: kept 5 vs TN 11
    row = t.view_for("gm")["chase"]["gaps"][0]
    given = [o for o in engine.outcomes if o.pursuer == "success"]
    p = sum(o.probability for o in given if o.caught) / sum(o.probability for o in given)
    assert abs(row["p_caught"] - float(p)) < 1e-12
    assert t.view_for("gm")["chase"]["due"]["roll"] == ["ronan"]


def test_refused_commands_change_nothing(bear):
    # rules/001 line 109-110: declarations come before the rolls; the GM runs the chase.
    t = bear
    tries = [
        ({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 9},
         ("player", "ronan"), PermissionError),
        ({"type": "chase_start", "quarry": "ronan", "pursuers": ["ronan"], "metres": 9},
         ("gm", None), ValueError),
        ({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 1},
         ("gm", None), ValueError),
        ({"type": "chase_roll", "combatant": "ronan", "faces": [1, 2, 3]}, ("gm", None),
         ValueError),
    ]  # fmt: skip
    for command, (role, seat), error in tries:
        before, version = json.dumps(t.state, sort_keys=True), t.version
        with pytest.raises(error):
            t.apply(command, role, seat)
        assert json.dumps(t.state, sort_keys=True) == before and t.version == version
    t.apply({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 9})
    tries = [
        ({"type": "chase_roll", "combatant": "ronan", "faces": [1, 2, 3]}, ("gm", None),
         ValueError, "declares their move first"),
        ({"type": "chase_declare", "combatant": "grizzly-bear"}, ("player", "ronan"),
         PermissionError, "own seat"),
        ({"type": "chase_declare", "combatant": "ronan", "gear": True}, ("player", "ronan"),
         PermissionError, "GM"),
        ({"type": "chase_declare", "combatant": "ronan", "how": "fly"}, ("gm", None),
         ValueError, "how"),
        ({"type": "start"}, ("gm", None), ValueError, "setup"),
        ({"type": "chase_search", "pursuer": "grizzly-bear"}, ("gm", None), ValueError,
         "lost sight"),
        ({"type": "chase_end"}, ("player", "ronan"), PermissionError, "GM"),
    ]  # fmt: skip
    for command, (role, seat), error, words in tries:
        before, version = json.dumps(t.state, sort_keys=True), t.version
        with pytest.raises(error, match=words):
            t.apply(command, role, seat)
        assert json.dumps(t.state, sort_keys=True) == before and t.version == version
    t.apply({"type": "chase_end"})
    assert t.state["phase"] == "setup" and t.state["chase"] is None


@pytest.mark.parametrize(
    "command",
    [
        {"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 9,
         "speed": 3},
        {"type": "chase_declare", "combatant": "ronan", "metres": 40},
        {"type": "chase_roll", "combatant": "ronan", "advantage": 1},
        {"type": "chase_ruling", "sight": 30},
        {"type": "chase_search", "pursuer": "grizzly-bear", "faces": [1, 1]},
        {"type": "chase_end", "why": "bored"},
    ],
)  # fmt: skip
def test_unknown_fields_are_refused(bear, command):
    # issue 19: "Unknown fields are refused, naming the field".
    before, version = json.dumps(bear.state, sort_keys=True), bear.version
    unknown = list(command)[-1]  # each command's last field is one it does not take
    with pytest.raises(ValueError, match=unknown):
        bear.apply(command)
    assert json.dumps(bear.state, sort_keys=True) == before and bear.version == version


def test_a_hidden_pursuer_stays_hidden(bear):
    # The table's visibility: a hidden combatant is not even named to players (privacy.py).
    t = bear
    t.apply({"type": "hide", "combatant": "grizzly-bear"})
    t.apply({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 9})
    view = t.view_for("player", "ronan")
    assert view["chase"]["pursuers"] == [] and view["chase"]["gaps"] == []
    assert "grizzly-bear" not in json.dumps(view)
    assert t.view_for("gm")["chase"]["pursuers"] == ["grizzly-bear"]


def test_a_combatant_joins_a_chase_from_the_scene_without_initiative(bear):
    # A chase before any fight (rules/001 line 107: "ordinary movement"): no Initiative yet.
    from table_helpers import ROSTER

    from tb_playground.models.files import parse

    t = bear
    t.apply({"type": "chase_start", "quarry": "ronan", "pursuers": ["grizzly-bear"], "metres": 9})
    doc = parse((ROSTER / "the_brick.json").read_text(), None, "the_brick.json")
    t.apply({"type": "add", "document": doc, "side": "Party"})
    assert t.state["combatants"]["the-brick"]["initiative"] is None
