"""Moving and attacking with what the table knows of the distance (issue 31, item 4).

rules/001 "Two Ways to Play": the GM keeps rough distances in metres, "close enough is fine;
nobody measures"; rules/000 line 409: the bands; rules/004 line 50: "no penalty inside Normal,
Disadvantage out to Long, no shot past it".
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, start_and_declare

from tb_playground.table.menu import menu

HACKER = "the-nerdy-hacker"


def _bear_and_ronan(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 10, "grizzly-bear": 1})
    assert t.state["up"] == "ronan"
    return t


def test_moving_toward_a_foe_starts_from_near_when_nothing_is_known(tmp_path):
    # Before: "The table does not know how far Ronan is from Grizzly bear: the GM sets the
    # distance first", a refusal.
    t = _bear_and_ronan(tmp_path)
    move = {"type": "move", "combatant": "ronan", "metres": 6, "toward": "grizzly-bear"}
    data = t.apply(move, role="player", seat="ronan")[0]["data"]
    assert (data["start_taken"], data["distance_before"], data["distance_after"]) == (
        "near",
        50,
        44,
    )
    assert t.state["ranges"]["grizzly-bear|ronan"] == "near"
    line = t.view_for("player", "ronan")["log"][-1]["text"]
    assert line == (
        "Ronan moves 6 m. The table took Grizzly bear to be at Near range before the move: "
        "now 44 m (Near)."
    )


def test_the_menu_offers_the_start_and_the_mover_may_name_another(tmp_path):
    t = _bear_and_ronan(tmp_path)
    choices = {"toward": "grizzly-bear", "way": "away_from", "metres": 4}
    m = menu(t.state, "player", "ronan", None, choices)
    entry = next(a for a in m["actions"] if a["key"] == "move")
    start = next(f for f in entry["fields"] if f["name"] == "start")
    assert start["value"] == "melee" and entry["allowed"]  # away from a foe: out of Melee
    assert entry["command"]["start"] == "melee" and "1 m -> 5 m" in entry["odds"]
    m = menu(t.state, "player", "ronan", None, {**choices, "start": "close"})
    entry = next(a for a in m["actions"] if a["key"] == "move")
    assert "10 m -> 14 m (Near)" in entry["odds"]
    with pytest.raises(ValueError, match="start"):
        t.apply({**entry["command"], "start": "beside"}, role="player", seat="ronan")
    # Once the table knows the distance, no start is asked.
    t.apply({"type": "set_distance", "a": "ronan", "b": "grizzly-bear", "metres": 20})
    m = menu(t.state, "player", "ronan", None, choices)
    entry = next(a for a in m["actions"] if a["key"] == "move")
    assert not any(f["name"] == "start" for f in entry["fields"])
    assert "20 m -> 24 m (Near)" in entry["odds"]


def test_a_ranged_attack_uses_the_metres_the_gm_set(tmp_path):
    # The Taser: Normal 5 m, Long 10 m. Before: at 8 m (Close: 2-10 m) the attack still asked
    # "say how many metres"; at 15 m nothing refused the shot past Long.
    _, t = new_table(
        tmp_path, encounter(roster("nerdy_hacker.yaml"), foes=[roster("guard_dog.yaml")])
    )
    start_and_declare(t, {}, {HACKER: 10, "guard-dog": 1})
    attack = {"type": "attack", "attacker": HACKER, "target": "guard-dog", "attack": 1}
    t.apply({"type": "set_distance", "a": HACKER, "b": "guard-dog", "metres": 15})
    with pytest.raises(ValueError, match="15 m|range"):
        t.apply(attack, role="player", seat=HACKER)
    t.apply({"type": "set_distance", "a": HACKER, "b": "guard-dog", "metres": 8})
    t.apply(attack, role="player", seat=HACKER)
    p = t.state["pending"]
    assert (p["weapon_range"], p["distance"]) == ("long", 8)  # Disadvantage out to Long
    assert p["advantage"] < 0
