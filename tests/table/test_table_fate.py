"""Fate Tokens as written, at the table (issue 19, item 6).

Through ``Table.apply`` only, with typed faces. Sources: rules/004 "Fate Tokens" lines ~135-154
(the gains ~137-143, the spends ~145-150, the caps ~152, Kotodama ~154); rules/000 line ~31;
rules/002 "How Does Fate Work?" line ~25 (Shrug Off names Flustered and Exhausted);
docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, run_to_turn, soak7, start_and_declare

INITIATIVE = {"ronan": 10, "the-brick": 5, "opponent": 1}


@pytest.fixture
def table(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    t = new_table(tmp_path, enc)[1]
    start_and_declare(t, {}, INITIATIVE)
    return t


def _ronan(t):
    return t.state["combatants"]["ronan"]


def _spend(t, spend, role="player", **more):
    command = {"type": "spend_fate", "combatant": "ronan", "spend": spend, **more}
    seat = "ronan" if role == "player" else None
    return t.apply(command, role=role, seat=seat)


def test_automatic_success_needs_no_dice(table):
    # rules/004 ~147: "Automatic Success - One roll succeeds outright, no dice".
    table.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    events = _spend(table, "automatic success")
    assert [e["type"] for e in events] == ["fate_spent"]
    p = table.state["pending"]
    assert p["step"] == "damage" and p["critical"] is False
    assert _ronan(table)["fate"] == 1  # 2 -> 1
    events = table.apply({"type": "roll", "faces": [1] * 7})  # straight to the damage dice
    assert events[0]["type"] == "damage_rolled"


def test_automatic_success_holds_an_asked_distracted_roll(table):
    # rules/004 ~147 and ~121 (Distracted is a roll): held, no dice.
    ask = {"type": "set_condition", "combatant": "ronan", "condition": "Distracted"}
    table.apply(ask)
    _spend(table, "automatic success")
    assert _ronan(table)["conditions"]["Distracted"]["state"] == "held"


def test_automatic_success_with_nothing_waiting_is_refused(table):
    version = table.version
    with pytest.raises(ValueError, match="no roll"):
        _spend(table, "automatic success")
    assert table.version == version


def test_kotodama_costs_magnitude_range_and_plausibility(table):
    # rules/004 ~154: "Cost is Magnitude + Range beyond yourself + Plausibility (Whisper 0,
    # Murmur +1, Shout +3), and permanent is free"; ~152: a Kotodama is a counted spend.
    koto = {"fact": "The lights go out.", "magnitude": 1, "range": 0}
    with pytest.raises(ValueError, match="needs 4 Fate Tokens"):
        _spend(table, "kotodama", **koto, plausibility="shout")  # 1 + 0 + 3
    events = _spend(table, "kotodama", **koto, plausibility="murmur", permanent=True)
    assert events[0]["data"]["cost"] == 2
    assert (_ronan(table)["fate"], _ronan(table)["fate_counted"]) == (0, 1)


def test_shrug_off_exhausted_takes_one_level(table):
    # rules/002 ~25: "shrug off a bad status like Flustered or Exhausted"; rules/004 ~127
    # lists Exhausted among the Conditions.
    table.apply({"type": "set", "combatant": "ronan", "field": "exhausted", "value": 2})
    _spend(table, "shrug off", condition="Exhausted")
    assert _ronan(table)["exhausted"] == 1


def test_shrug_off_lifts_a_tracks_condition_for_the_round(table):
    # rules/004 ~148: "Clear a condition for a moment": Shattered comes back with the round.
    table.apply({"type": "set", "combatant": "ronan", "field": "sanity", "value": -1})
    _spend(table, "shrug off", condition="Shattered")
    table.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})  # acts alone
    assert table.state["pending"]["advantage"] == -1  # still Overwhelmed
    table.apply({"type": "roll", "faces": [9, 9, 9]})
    while table.state["phase"] == "resolve":
        table.apply({"type": "end_turn"})
    assert "shrugged" not in _ronan(table)["carried"]
    for cid in ("ronan", "the-brick", "opponent"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    run_to_turn(table, "ronan")
    with pytest.raises(ValueError, match="Shattered"):
        table.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})


def test_shrug_off_refuses_what_an_action_ends(table):
    # rules/001 "Getting Low": Prone ends by an action ("Recovering from Prone takes one").
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Prone"})
    with pytest.raises(ValueError, match="can shrug off nothing now"):
        _spend(table, "shrug off", condition="Prone")


def test_a_players_gain_waits_for_the_gm(table):
    # rules/004 ~137-139: Nature, Flaws; the GM confirms.
    claim = {"type": "fate_gain", "combatant": "ronan", "reason": "flaw", "note": "Not smart"}
    table.apply(claim, role="player", seat="ronan")
    assert _ronan(table)["fate"] == 2
    with pytest.raises(PermissionError):
        table.apply({"type": "fate_confirm", "combatant": "ronan", "accept": True},
                    role="player", seat="ronan")  # fmt: skip
    table.apply({"type": "fate_confirm", "combatant": "ronan", "accept": True})
    assert _ronan(table)["fate"] == 3 and not _ronan(table)["fate_claim"]
    table.apply({**claim, "reason": "nature"}, role="player", seat="ronan")
    table.apply({"type": "fate_confirm", "combatant": "ronan", "accept": False})
    assert _ronan(table)["fate"] == 3


def test_a_voluntary_disadvantage_goes_on_the_roll(table):
    # rules/004 ~140: "Disadvantage - Taking it voluntarily on a roll".
    table.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})
    claim = {"type": "fate_gain", "combatant": "ronan", "reason": "disadvantage"}
    table.apply(claim, role="player", seat="ronan")
    p = table.state["pending"]
    assert p["advantage"] == -1 and p["sources"][-1] == ["Disadvantage taken by choice", -1]
    table.apply({"type": "fate_confirm", "combatant": "ronan", "accept": True})
    assert _ronan(table)["fate"] == 3


def test_a_milestone_gives_every_character_one_and_the_cap_loses_it(table):
    # rules/004 ~142: "Milestone - 1 to every PC"; ~152: "A Token earned at the cap is lost".
    table.apply({"type": "set", "combatant": "the-brick", "field": "fate", "value": 19})
    with pytest.raises(PermissionError):
        table.apply({"type": "fate_gain", "reason": "milestone"}, role="player", seat="ronan")
    events = table.apply({"type": "fate_gain", "reason": "milestone"})
    assert events[0]["data"]["gains"] == {"ronan": 1, "the-brick": 0}
    assert events[0]["data"]["lost"] == {"ronan": 0, "the-brick": 1}
    assert _ronan(table)["fate"] == 3
