"""The fight's momentum (issue 23, items 1-3): ``lab.momentum``, Panel-free.

- One run per table version a page watches (none while no page watches); a version that
  changes nothing the fight reads (a note, a table option) takes the previous chance at once.
- A newer version cancels the run in progress: only the newest version's point arrives.
- Watchers hear "working" then "result"; the points carry the markers (critical, catastrophe,
  down, Fate Token) of the events between two points, each at its own version.
- The past: a table that already has events gets a point for each earlier event that changes
  the fight, equal to ``win_from_here(table.replay(n))`` with the past's fights, after the
  live point; a new event goes first and the past resumes after it.
- Shared with the players while a foe is hidden: the players' point is worked out from the
  state without it (its id nowhere in the players' series, nor its markers); with nobody hidden
  the players' point is the GM's.
"""

from __future__ import annotations

import threading
import time

from table_helpers import new_table

from tb_playground.lab.momentum import (
    SHARE_OPTION,
    Momentum,
    _fight_key,
    coarse_to_fine,
    markers_of,
    momentum_for,
    visible_state,
)
from tb_playground.lab.win_from_here import win_from_here
from tb_playground.models.roster import build_encounter
from tb_playground.table.attack_options import TABLE_OPTIONS

WAREHOUSE = "warehouse.encounter.yaml"


def _warehouse(tmp_path, seed: int = 7):
    return new_table(tmp_path, build_encounter(WAREHOUSE, [], []), "Night shift", seed)[1]


class Heard:
    """A watcher that records what it hears and lets a test wait for a result."""

    def __init__(self):
        self.heard: list[str] = []
        self.result = threading.Event()

    def __call__(self, what: str) -> None:
        self.heard.append(what)
        if what == "result":
            self.result.set()

    def wait(self, momentum: Momentum, version: int, audience: str = "gm", timeout=60) -> None:
        """Until ``momentum``'s newest point for ``audience`` is at ``version``."""
        for _ in range(200):
            point = momentum.latest(audience)
            if point is not None and point.version >= version:
                return
            self.result.wait(timeout / 200)
            self.result.clear()
        raise AssertionError(f"no point at version {version} for {audience}")


def _momentum(table, fights=300):
    m = Momentum(table, fights=fights, seed=3, process=False)
    heard = Heard()
    m.watch(heard)
    return m, heard


def test_the_share_option_is_a_table_option():
    assert SHARE_OPTION in TABLE_OPTIONS


def test_one_run_per_version_and_the_point_is_win_from_here(tmp_path):
    table = _warehouse(tmp_path)
    m, heard = _momentum(table)
    try:
        heard.wait(m, table.version)
        table.apply({"type": "start", "initiative": dict.fromkeys(table.state["ids"], 5)})
        heard.wait(m, table.version)
        point = m.latest()
        assert point.chance == win_from_here(table, fights=300, seed=3)
        assert [v for v, _ in m.asked] == [1, 2]
        assert heard.heard[:2] == ["working", "result"]
        assert not m.working()
        # a note changes nothing the fight reads: the same chance, no run
        table.apply({"type": "note", "text": "the lights flicker"})
        heard.wait(m, table.version)
        assert len(m.asked) == 2
        assert m.latest().chance.p_win == point.chance.p_win
        assert [p.version for p in m.series()] == [1, 2, 3]
    finally:
        m.close()


def test_no_run_while_no_page_watches(tmp_path):
    table = _warehouse(tmp_path)
    m = Momentum(table, fights=300, seed=3, process=False)
    try:
        table.apply({"type": "start"})
        table.apply({"type": "note", "text": "quiet"})
        time.sleep(0.2)
        assert not m.asked and m.latest() is None
        heard = Heard()
        m.watch(heard)  # the first page asks for the table as it stands
        heard.wait(m, 3)
        assert [v for v, who in m.asked if who != "past"] == [3]
    finally:
        m.close()


def _current(m: Momentum, version: int, timeout: float = 30.0):
    """The run in progress once it is the one for ``version``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = m._runs.current if m._runs is not None else None
        if run is not None and run.version == version:
            return run
        time.sleep(0.01)
    raise AssertionError(f"no run for version {version}")


def test_a_newer_version_cancels_the_run_in_progress(tmp_path):
    table = _warehouse(tmp_path)
    m, heard = _momentum(table, fights=200_000)
    try:
        table.apply({"type": "start", "initiative": dict.fromkeys(table.state["ids"], 5)})
        first = _current(m, 2)  # the run for the start is under way
        ids = table.state["ids"]
        table.apply({"type": "declare", "combatant": ids[0], "bracket": "fast", "bumps": 0})
        _current(m, 3).cancel()  # the newer one is asked for; stop it too (200,000 fights)
        assert first.wait(30) and first.cancelled and first.result is None
        assert all(p.version != 2 for p in m.series())
        assert (2, "gm") in m.asked and (3, "gm") in m.asked
    finally:
        m.close()


def test_markers_name_criticals_downs_and_fate_spends(tmp_path):
    table = _warehouse(tmp_path)
    before = table.state
    ids = before["ids"]
    who, other = ids[0], ids[-1]
    after = {**before, "version": 9}
    after["combatants"] = {**before["combatants"]}
    down = dict(before["combatants"][other])
    down["now"] = {**down["now"], "health": 0}
    after["combatants"][other] = down
    events = [
        {"seq": 7, "type": "to_hit_rolled",
         "data": {"attacker": who, "target": other, "outcome": "critical"}},
        {"seq": 8, "type": "fate_spent", "data": {"combatant": who, "spend": "reroll"}},
        {"seq": 9, "type": "gift_check_rolled",
         "data": {"combatant": who, "outcome": "catastrophe"}},
    ]  # fmt: skip
    found = markers_of(events, before, after)
    kinds = [(m.version, m.kind) for m in found]
    assert kinds == [(7, "critical"), (8, "fate"), (9, "catastrophe"), (9, "down")]
    name, other_name = before["combatants"][who]["name"], before["combatants"][other]["name"]
    assert found[0].text == f"{name}: a critical against {other_name}"
    assert found[3].text == f"{other_name} is down"
    assert found[1].text.startswith(f"{name} spends a Fate Token")


def test_shared_with_a_hidden_foe_the_players_never_meet_it(tmp_path):
    table = _warehouse(tmp_path)
    ids = table.state["ids"]
    foe = next(c for c in ids if table.state["combatants"][c]["side"] == "Foes")
    table.apply({"type": "hide", "combatant": foe})
    m, heard = _momentum(table)
    try:
        table.apply({"type": "table_option", "option": SHARE_OPTION, "on": True})
        heard.wait(m, table.version, "players")
        assert m.shared
        players = m.latest("players")
        gm = m.latest("gm")
        assert foe in gm.chance.down_next_round
        assert foe not in players.chance.down_next_round and foe not in players.names
        expected = win_from_here(visible_state(table.state), fights=300, seed=3)
        assert players.chance.p_win == expected.p_win
        # shown again: one run, the players' point is the GM's
        table.apply({"type": "show", "combatant": foe})
        heard.wait(m, table.version, "players")
        assert m.latest("players").chance == m.latest("gm").chance
    finally:
        m.close()


def test_visible_state_drops_the_hidden_everywhere(tmp_path):
    table = _warehouse(tmp_path)
    ids = table.state["ids"]
    table.apply({"type": "hide", "combatant": ids[1]})
    table.apply({"type": "start", "initiative": dict.fromkeys(ids, 5)})
    for cid in ids:
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal", "bumps": 0})
    if table.state["phase"] == "declare":
        table.apply({"type": "reveal"})
    state = visible_state(table.state)
    assert ids[1] not in state["ids"] and ids[1] not in state["combatants"]
    assert ids[1] not in state["order"] and ids[1] not in state["initiative_order"]
    assert state["up"] != ids[1]
    assert visible_state(state) is state  # nobody hidden: the same state


def test_one_momentum_per_table(tmp_path):
    table = _warehouse(tmp_path)
    a = momentum_for(table, fights=100, process=False)
    try:
        assert momentum_for(table) is a
    finally:
        a.close()
    assert momentum_for(table, fights=100, process=False) is not a
    momentum_for(table).close()


def test_a_table_no_one_holds_is_let_go(tmp_path):
    import gc
    import weakref

    from tb_playground.lab import momentum

    store, table = new_table(tmp_path, build_encounter(WAREHOUSE, [], []), "Gone", 7)
    m = momentum_for(table, fights=100, process=False)
    heard = Heard()
    handle = m.watch(heard)
    heard.wait(m, table.version)
    m.unwatch(handle)  # the last page: no subscription, no thread, no worker
    assert table.subscriber_count == 0
    gone = weakref.ref(table)
    store._open.clear()
    del table
    for _ in range(50):  # the momentum's thread ends on its own
        gc.collect()
        if gone() is None:
            break
        time.sleep(0.05)
    assert gone() is None and m.table is None
    assert all(t is not None for t in momentum._MOMENTA.keys())


# -- the past: the points before the first page watched ------------------------------------------


def _played(tmp_path, events: int, seed: int = 5):
    """A seeded random game of ``events`` events (the visibility test's commands)."""
    import random

    from test_table_visibility import _game, _random_command

    rng = random.Random(seed)
    t = _game(tmp_path)
    t.apply({"type": "start"})
    for _ in range(5000):
        if t.version >= events:
            break
        cmd, role, seat = _random_command(rng, t)
        if cmd["type"] in ("undo", "redo"):
            continue
        try:
            t.apply(cmd, role=role, seat=seat)
        except (ValueError, PermissionError):
            continue
    return t


def _expected_past(table, last: int, fights: int, seed) -> dict[int, float]:
    """The past points ``Momentum`` should chart: each event that changes the fight."""
    out, before = {}, None
    for n in range(1, last + 1):
        state = table.replay(n)
        key = _fight_key(state)
        if key != before:
            try:
                out[n] = win_from_here(state, fights, seed)
            except ValueError:  # not a phase of rounds
                pass
        before = key
    return out


def _wait_filled(m: Momentum, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while m.filling or m.working():
        assert time.monotonic() < deadline, "the past was not filled"
        time.sleep(0.02)


def test_coarse_to_fine_covers_each_event_once():
    for last in range(0, 70):
        order = coarse_to_fine(last)
        assert sorted(order) == list(range(1, last + 1))
        if last:
            assert order[0] == last
    assert coarse_to_fine(9)[:3] == [9, 8, 4]


def test_the_past_fills_after_the_live_point_and_equals_win_from_here(tmp_path):
    table = _played(tmp_path, 30)
    v0 = table.version
    m = Momentum(table, fights=300, seed=3, process=False, past_fights=200)
    heard = Heard()
    m.watch(heard)
    try:
        _wait_filled(m)
        assert m.asked[0] == (v0, "gm")  # the live point first
        expected = _expected_past(table, v0 - 1, 200, 3)
        past = {p.version: p.chance for p in m.series() if p.version < v0}
        assert past.keys() == expected.keys()
        assert len(past) >= 5
        for n, chance in past.items():
            assert chance == expected[n], n
            assert chance.fights in (0, 200)  # an exact duel plays no fights
        assert [p.version for p in m.series()] == sorted(past) + [v0]
        # each event that changes nothing the fight reads is skipped, never run
        assert {n for n, who in m.asked if who == "past"} == set(expected)
    finally:
        m.close()


def test_a_new_event_goes_before_the_past_which_resumes(tmp_path):
    table = _played(tmp_path, 30)
    v0 = table.version
    m = Momentum(table, fights=300, seed=3, process=False, past_fights=200_000)
    heard = Heard()
    m.watch(heard)
    try:
        deadline = time.monotonic() + 60
        while not any(who == "past" for _, who in m.asked):  # a slow past run is under way
            assert time.monotonic() < deadline
            time.sleep(0.01)
        first = next(n for n, who in m.asked if who == "past")
        m.past_fights = 200  # the rest quickly (the run under way keeps its 200,000)
        table.apply({"type": "set", "combatant": table.state["ids"][0], "field": "health",
                     "value": 3})  # fmt: skip
        heard.wait(m, v0 + 1)  # the live point comes, the slow past run cancelled
        assert m.latest().version == v0 + 1
        assert all(p.version != first for p in m.series())
        _wait_filled(m)
        asked = list(m.asked)
        assert asked.index((v0 + 1, "gm")) < len(asked) - 1
        assert asked[asked.index((v0 + 1, "gm")) + 1] == (first, "past")  # resumed at it
        expected = _expected_past(table, v0 - 1, 200, 3)
        past = {p.version: p.chance for p in m.series() if p.version < v0}
        assert past == expected
    finally:
        m.close()


def test_the_players_past_never_counts_a_hidden_foe(tmp_path):
    table = _played(tmp_path, 20)
    table.apply({"type": "table_option", "option": SHARE_OPTION, "on": True})
    v0 = table.version
    m = Momentum(table, fights=300, seed=3, process=False, past_fights=200)
    m.watch(Heard(), "players")
    try:
        _wait_filled(m)
        gm = {p.version: p for p in m.series("gm") if p.version < v0}
        players = {p.version: p for p in m.series("players") if p.version < v0}
        assert players.keys() == gm.keys() and len(players) >= 5
        for n, point in players.items():
            state = table.replay(n)
            hidden = {c for c, x in state["combatants"].items() if x.get("hidden")}
            if hidden:
                assert point.chance == win_from_here(visible_state(state), 200, 3)
                assert not hidden & set(point.names) and not hidden & set(
                    point.chance.down_next_round
                )
                assert all(not set(mk.who) & hidden for mk in point.markers)
            else:
                assert point.chance == gm[n].chance
        cs = [table.replay(n)["combatants"] for n in players]
        assert any(x.get("hidden") for c in cs for x in c.values())  # a visible_state run
    finally:
        m.close()
