"""The GM's group rolls and chase controls (table/gm_tools.py) offer exactly what the table takes.

Issue 20: "Skill, opposed and group rolls ... the chase phase" from the pages. For the warehouse
fight in each phase a GM meets (the Scene, declarations, a turn, a chase with sight broken or
not), every control the panel shows is accepted by ``Table.apply`` on a copy of the table when
it says so, and refused with the same words when it does not; the odds on a button are the ones
the table's event then carries.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tb_playground.models.files import load
from tb_playground.table import TableStore
from tb_playground.table.gm_tools import gm_menu
from tb_playground.table.menu import entry

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"
PARTY = ("ronan", "the-brick", "the-nerdy-hacker")

_names = itertools.count()


_STORES: dict = {}


@pytest.fixture
def table(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite")
    made = store.create("W", load(ROSTER / "warehouse.encounter.yaml"), seed=3)
    _STORES[id(made)] = store
    return made


def _copy(table):
    store = _STORES[id(table)]
    return store.import_events(table.events, name=f"copy {next(_names)}")


def _check(table, m: dict) -> list[str]:
    """Every shown control is taken (or refused with the same words) by the table."""
    keys = []
    for a in m["actions"]:
        if a["group"] is None:
            continue
        keys.append(a["key"])
        copy = _copy(table)
        try:
            events = copy.apply(dict(a["command"]), role="gm")
            taken = ""
        except (ValueError, PermissionError) as err:
            taken, events = str(err), []
        assert a["allowed"] == (taken == ""), (a["key"], a["reason"], taken)
        if taken:
            assert a["reason"] == taken
        for name in ("members", "pursuers", "quarry", "difficulty", "metres"):
            field = next((f for f in a["fields"] if f["name"] == name), None)
            if field is not None and name in a["command"]:
                assert field["value"] == a["command"][name]
        del events
    return keys


def test_scene_offers_group_roll_and_chase(table):
    m = gm_menu(table.state)
    assert m["open"] and not m["end_turn"]
    assert _check(table, m) == ["group roll", "chase start"]
    group = entry(m, "group roll")
    assert group["allowed"] and group["command"]["members"] == list(PARTY)
    assert group["odds"].startswith("the group succeeds ")
    copy = _copy(table)
    copy.apply(group["command"], role="gm")
    rolled = copy.events[-1]["data"]
    assert group["p"]["p_success"] == pytest.approx(rolled["p_success"], abs=1e-12)
    # The GM's picks: two members, another Skill, a harder Difficulty.
    picks = {"members": ["ronan", "the-brick"], "group_skill": "Stealth", "difficulty": 3}
    group = entry(gm_menu(table.state, picks), "group roll")
    assert group["command"] == {
        "type": "group_roll", "members": ["ronan", "the-brick"], "skill": "Stealth",
        "difficulty": 3,
    }  # fmt: skip
    # Creatures are not offered (their cards give numbers); nobody picked: the table's words.
    some = entry(gm_menu(table.state, {"members": ["ronan", "guard-dog"]}), "group roll")
    assert some["command"]["members"] == ["ronan"]
    assert [v for _, v in some["fields"][0]["options"]] == list(PARTY)
    none = entry(gm_menu(table.state, {"members": []}), "group roll")
    assert not none["allowed"] and none["reason"]
    _check(table, gm_menu(table.state, {"members": []}))


def test_no_group_roll_while_a_round_resolves(table):
    table.apply({"type": "start", "initiative": dict.fromkeys(table.state["ids"], 5)})
    assert _check(table, gm_menu(table.state)) == ["group roll", "chase start"]  # declare
    for cid in table.state["ids"]:
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    if table.state["phase"] == "declare":
        table.apply({"type": "reveal"})
    assert table.state["phase"] == "resolve"
    m = gm_menu(table.state)
    assert _check(table, m) == ["chase start"]
    assert entry(m, "group roll")["group"] is None


def test_the_chase_from_start_to_end(table):
    m = gm_menu(table.state, {"quarry": "guard-dog", "pursuers": ["ronan"], "metres": 30})
    start = entry(m, "chase start")
    assert start["allowed"]
    assert start["command"] == {
        "type": "chase_start", "quarry": "guard-dog", "pursuers": ["ronan"], "metres": 30,
        "skill": "Athletics", "harder": 0,
    }  # fmt: skip
    table.apply(start["command"], role="gm")
    m = gm_menu(table.state)
    assert _check(table, m) == ["chase ruling", "chase end"]
    # Nothing changed yet: the ruling is refused with the table's sentence.
    assert not entry(m, "chase ruling")["allowed"]
    # Where sight breaks, then sight broken now: the Stealth roll is due.
    ruling = entry(gm_menu(table.state, {"sight_m": 40}), "chase ruling")
    assert ruling["command"] == {"type": "chase_ruling", "sight_m": 40}
    table.apply(ruling["command"], role="gm")
    ruling = entry(gm_menu(table.state, {"sight_m": 40, "broken": True}), "chase ruling")
    assert ruling["command"] == {"type": "chase_ruling", "broken": True}
    assert ruling["allowed"]
    table.apply(ruling["command"], role="gm")
    m = gm_menu(table.state, {"search_skill": "Tracking"})
    assert _check(table, m) == ["chase search", "chase ruling", "chase end"]
    search = entry(m, "chase search")
    # The dog's card gives its Stealth (7) against Ronan's Tracking.
    assert search["command"] == {
        "type": "chase_search", "pursuer": "ronan", "difficulty": 5, "skill": "Tracking",
        "static": 7,
    }  # fmt: skip
    copy = _copy(table)
    copy.apply(search["command"], role="gm")
    data = copy.events[-1]["data"]
    assert search["p"]["p_quarry_wins"] == pytest.approx(1 - data["p_actor_wins"], abs=1e-12)
    table.apply(entry(m, "chase end")["command"], role="gm")
    assert table.state["phase"] == "setup"


def test_two_creatures_searching_is_the_gms_word(table):
    table.apply({"type": "chase_start", "quarry": "guard-dog", "pursuers": ["guard-dog-2"],
                 "metres": 10})  # fmt: skip
    table.apply({"type": "chase_ruling", "broken": True})
    search = entry(gm_menu(table.state, {"lost": True}), "chase search")
    assert search["command"] == {"type": "chase_search", "pursuer": "guard-dog-2", "lost": True}
    assert search["allowed"]
    table.apply(search["command"], role="gm")
    assert table.state["phase"] == "setup"  # the quarry broke away


def test_players_have_no_gm_tools(table):
    """The commands stay the GM's: a player sending one is refused by the table."""
    m = gm_menu(table.state)
    for a in m["actions"]:
        with pytest.raises(PermissionError):
            _copy(table).apply(a["command"], role="player", seat="ronan")
