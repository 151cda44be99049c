"""Replay (issue 23, item 3): the state and every role's view after any event of the log.

A seeded random game of 300 events or more, undo and redo included: after every event N the
replayed view of each role equals ``view_for`` of a table rebuilt from the first N events, and
a player's or spectator's replay never holds what the visibility test forbids.
"""

from __future__ import annotations

import json
import random

import pytest
from test_table_visibility import SECRET, _game, _random_command

from tb_playground.table import fold
from tb_playground.table.live_table import Table
from tb_playground.table.replay import Replay, round_starts, step_to

VIEWERS = (("gm", None), ("player", "ronan"), ("player", "the-brick"), ("spectator", None))


def _play(tmp_path, seed: int, events: int = 300):
    """A random game of at least ``events`` events; the live views after each command."""
    rng = random.Random(seed)
    t = _game(tmp_path)
    t.apply({"type": "start"})
    live = {}
    for _ in range(5000):
        if t.version >= events:
            break
        if rng.random() < 0.08:
            cmd, role, seat = {"type": rng.choice(["undo", "undo", "redo"])}, "gm", None
        else:
            cmd, role, seat = _random_command(rng, t)
        if cmd["type"] == "share" and cmd.get("on"):
            cmd["on"] = False  # the foes' numbers stay hidden for the leak checks
        try:
            t.apply(cmd, role=role, seat=seat)
        except (ValueError, PermissionError):
            continue
        live[t.version] = {who: t.view_for(*who) for who in VIEWERS}
    assert t.version >= events
    return t, live


def _never_leaks(state: dict, view: dict, seat: str | None) -> None:
    """tests/table/test_table_visibility.py's checks, on one view."""
    text = json.dumps(view)
    for c in state["combatants"].values():
        if c["hidden"]:  # the lurker (SECRET), once hidden and unless an undo shows it again
            assert c["name"] not in text and c["id"] not in text
    assert str(state["seed"]) not in text
    assert "join_code" not in view
    pending = view["pending"]
    if pending and pending["odds"] and state["combatants"][pending["target"]]["side"] != "Party":
        assert "wall" not in pending["odds"]
    for c in view["combatants"]:
        if c["foe"]:
            assert c["vitals"] is None and c["ki"] is None and c["wall"] is None
        if state["phase"] == "declare" and not c["you"]:
            assert c["bracket"] is None and c["bumps"] is None


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return _play(tmp_path_factory.mktemp("replay"), seed=11)


def test_every_event_replays_as_a_table_rebuilt_from_it(game):
    t, live = game
    events = t.events
    assert any(e["type"] == "undone" for e in events) and any(e["type"] == "redone" for e in events)
    assert SECRET in json.dumps(t.state) and t.state["combatants"]["zyxwv-the-unseen"]["hidden"]
    close = Replay(events, every=16)  # snapshots (and their logs) reused many times
    for n in range(1, len(events) + 1):
        rebuilt = Table(t._store, t.name, json.loads(json.dumps(events[:n])))
        state = t.replay(n)
        assert state == rebuilt.state == fold(events[:n]) == close.state_at(n)
        for role, seat in VIEWERS:
            view = t.view_for(role, seat, at=n)
            assert view == rebuilt.view_for(role, seat) == close.view_at(n, role, seat), (n, role)
            if role != "gm":
                _never_leaks(state, view, seat)
            if n in live:  # what this role saw then, live
                assert view == live[n][role, seat], (n, role, seat)


def test_replay_does_not_touch_the_table(game):
    t, _ = game
    before = t.state
    state = t.replay(5)
    state["combatants"].clear()
    assert t.replay(5)["combatants"] and t.state == before


def test_snapshots_agree_with_the_fold_whatever_their_spacing(game):
    t, _ = game
    events = t.events
    for every in (1, 7, 64):
        replay = Replay(events, every=every)
        order = list(range(1, len(events) + 1))
        random.Random(every).shuffle(order)  # any order: the snapshots are made as needed
        for n in order[:120]:
            assert replay.state_at(n) == fold(events[:n])


def test_an_undo_of_an_old_command_is_respected(tmp_path):
    """Snapshots taken before an undo of a command they hold are not used after it."""
    t = _game(tmp_path)
    t._replay = Replay(t._events, every=2)
    t.apply({"type": "note", "text": "first"})
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 3})
    for i in range(6):
        t.apply({"type": "set", "combatant": "the-brick", "field": "ki", "value": i})
    assert t.replay(t.version) == t.state  # snapshots holding the "set" are kept now
    for _ in range(7):
        t.apply({"type": "undo"})  # back past the six others to Ronan's Health
        assert t.replay(t.version) == t.state
    n = t.version
    assert t.replay(n) == fold(t.events) == t.state
    assert t.replay(n)["combatants"]["ronan"]["now"]["health"] != 3
    t.apply({"type": "redo"})
    assert t.replay(t.version) == t.state
    assert t.replay(n + 1)["combatants"]["ronan"]["now"]["health"] == 3


def test_bad_event_numbers_are_refused(game):
    t, _ = game
    for bad in (0, -1, t.version + 1, 1.5, "3", True):
        with pytest.raises(ValueError, match="n must be"):
            t.replay(bad)
        with pytest.raises(ValueError, match="at must be"):
            t.view_for("gm", at=bad)
    with pytest.raises(PermissionError):  # a seat that is not a character
        t.view_for("player", "opponent", at=5)


def test_stepping_by_event_and_by_round(game):
    t, _ = game
    events = t.events
    starts = round_starts(events)
    assert starts == t.round_starts()
    assert [r for r, _ in starts][:2] == [1, 2]
    for rnd, at in starts:
        assert t.replay(at)["round"] == rnd
        assert at == 1 or fold(events[: at - 1])["round"] != rnd
    first, second = starts[0][1], starts[1][1]
    assert step_to(events, first, "round") == second
    assert step_to(events, second, "round", -1) == first
    assert step_to(events, first + 1, "round", -1) == first
    assert step_to(events, 1, "event", -1) == 1
    assert step_to(events, len(events), "event") == len(events)
    assert step_to(events, 10, "event") == 11
    assert step_to(events, len(events), "round") == len(events)
