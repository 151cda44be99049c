"""The table's persistence, versions, undo, roles and errors (issue 8, section 2)."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.table import ConflictError, TableStore, default_path, fold
from tb_playground.table.state import NOT_UNDOABLE


@pytest.fixture
def fight(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    return new_table(tmp_path, enc)


def test_create_open_and_names(tmp_path, fight):
    store, t = fight
    assert store.names() == ["T"]
    with pytest.raises(ValueError, match="already exists"):
        store.create("T", encounter(roster("ronan.json")))
    with pytest.raises(ValueError, match="name"):
        store.create("", encounter(roster("ronan.json")))
    store.create("Second", encounter(roster("ronan.json")))
    assert store.names() == ["T", "Second"]
    with pytest.raises(ValueError, match="no table called"):
        store.open("missing")


def test_reopen_after_a_restart_gives_the_same_state(tmp_path, fight):
    store, t = fight
    start_and_declare(t, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll"})
    t.apply({"type": "note", "text": "Ronan <b>shouts</b>"})
    before, version = t.state, t.version
    store.close()
    again = TableStore(tmp_path / "tables.sqlite").open("T")
    assert again.version == version
    assert again.state == before
    assert again.view_for("player", "ronan") == t.view_for("player", "ronan")


def test_apply_returns_after_commit(tmp_path, fight):
    store, t = fight
    events = t.apply({"type": "note", "text": "hello"})
    conn = sqlite3.connect(tmp_path / "tables.sqlite")
    rows = conn.execute("SELECT seq, body FROM events WHERE tname='T' ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == [1, 2]
    assert json.loads(rows[-1][1])["data"] == events[0]["data"]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_schema_version_is_checked(tmp_path, fight):
    store, _ = fight
    store._conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(ValueError, match="schema version 99"):
        TableStore(tmp_path / "tables.sqlite")


def test_default_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TB_TABLE_DB", str(tmp_path / "x.sqlite"))
    assert default_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("TB_TABLE_DB")
    assert default_path().name == "tables.sqlite"


def test_the_state_is_the_fold_of_the_log(fight):
    _, t = fight
    start_and_declare(t, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll"})
    assert fold(t.events) == t.state


def test_table_rolls_are_recorded_and_replay_the_same(tmp_path, fight):
    store, t = fight
    start_and_declare(t, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    event = t.apply({"type": "roll"})[0]
    assert event["data"]["rolled_by"] == "table"
    assert len(event["data"]["faces"]) == 2 and all(1 <= f <= 10 for f in event["data"]["faces"])
    # The same seed gives the same faces at the same point of the log.
    other = TableStore(tmp_path / "other.sqlite").create(
        "T", encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()]), seed=7
    )
    start_and_declare(other, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    other.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert other.apply({"type": "roll"})[0]["data"]["faces"] == event["data"]["faces"]


def test_conflict_when_the_version_is_stale(fight):
    _, t = fight
    v = t.version
    t.apply({"type": "note", "text": "first"}, expected_version=v)
    with pytest.raises(ConflictError, match="Note: first") as err:
        t.apply({"type": "note", "text": "second"}, expected_version=v)
    assert isinstance(err.value, ValueError)
    assert t.version == v + 1


def test_two_writers_on_the_same_version_exactly_one_wins(fight):
    _, t = fight
    v = t.version
    barrier = threading.Barrier(2)
    results = []

    def write(text):
        barrier.wait()
        try:
            t.apply({"type": "note", "text": text}, expected_version=v)
            results.append("ok")
        except ConflictError:
            results.append("conflict")

    threads = [threading.Thread(target=write, args=(s,)) for s in ("a", "b")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == ["conflict", "ok"]
    assert t.version == v + 1


def test_many_threads_apply_safely(fight):
    _, t = fight
    v = t.version

    def write(i):
        for j in range(25):
            t.apply({"type": "note", "text": f"{i}-{j}"})

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert t.version == v + 100
    assert [e["seq"] for e in t.events] == list(range(1, v + 101))
    assert fold(t.events) == t.state


def test_subscribers_hear_each_commit(fight):
    _, t = fight
    heard = []
    handle = t.subscribe(
        lambda version, events: heard.append((version, [e["type"] for e in events]))
    )
    t.apply({"type": "note", "text": "x"})
    t.unsubscribe(handle)
    t.apply({"type": "note", "text": "y"})
    assert heard == [(t.version - 1, ["note"])]
    assert t.subscriber_count == 0


def test_undo_and_redo_are_events_everyone_sees(fight):
    _, t = fight
    start_and_declare(t, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    before = t.state
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 1})
    after = t.state
    t.apply({"type": "undo"})
    assert t.state["combatants"] == before["combatants"]
    assert "undoes" in t.view_for("player", "ronan")["log"][-1]["text"]
    t.apply({"type": "redo"})
    assert t.state["combatants"] == after["combatants"]
    with pytest.raises(ValueError, match="nothing to redo"):
        t.apply({"type": "redo"})
    with pytest.raises(PermissionError, match="GM"):
        t.apply({"type": "undo"}, role="player", seat="ronan")


def test_undo_walks_back_command_by_command(fight):
    _, t = fight
    states = [t.state]
    start_and_declare(t, {}, {"ronan": 9, "the-brick": 4, "opponent": 1})
    commands = [e["cmd"] for e in t.events if e["type"] not in NOT_UNDOABLE]
    for _ in set(commands):
        t.apply({"type": "undo"})
    assert t.state["combatants"] == states[0]["combatants"]
    assert t.state["phase"] == "setup"
    with pytest.raises(ValueError, match="nothing to undo"):
        t.apply({"type": "undo"})


def test_a_new_command_clears_the_redo_stack(fight):
    _, t = fight
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 1})
    t.apply({"type": "undo"})
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 2})
    with pytest.raises(ValueError, match="nothing to redo"):
        t.apply({"type": "redo"})


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"type": "launch"}, "type"),
        ("start", "command"),
        ({"type": "set", "combatant": "nobody", "field": "health", "value": 1}, "combatant"),
        ({"type": "set", "combatant": "ronan", "field": "health", "value": 99}, "value"),
        ({"type": "set", "combatant": "ronan", "field": "luck", "value": 1}, "field"),
        ({"type": "note", "text": ""}, "text"),
        ({"type": "note", "text": "x" * 501}, "text"),
        ({"type": "declare", "combatant": "ronan", "bracket": "fast"}, "type"),
        ({"type": "set_condition", "combatant": "ronan", "condition": "Sleepy"}, "condition"),
        ({"type": "share", "on": "yes"}, "on"),
    ],
)
def test_invalid_commands_name_the_field_and_change_nothing(fight, command, field):
    _, t = fight
    before, version = t.state, t.version
    with pytest.raises(ValueError, match=field):
        t.apply(command)
    assert t.state == before and t.version == version


@pytest.mark.parametrize(
    ("command", "role", "seat", "rule"),
    [
        ({"type": "start"}, "player", "ronan", "only the GM"),
        ({"type": "note", "text": "hi"}, "spectator", None, "spectator"),
        ({"type": "hide", "combatant": "opponent"}, "player", "ronan", "only the GM"),
        (
            {"type": "spend_ki", "combatant": "the-brick", "purpose": "restore poise"},
            "player",
            "ronan",
            "own seat",
        ),
        ({"type": "note", "text": "hi"}, "player", "opponent", "seat must be a character"),
    ],
)
def test_roles_are_checked(fight, command, role, seat, rule):
    _, t = fight
    version = t.version
    with pytest.raises(PermissionError, match=rule):
        t.apply(command, role=role, seat=seat)
    assert t.version == version


def test_a_player_declares_only_for_their_seat(fight):
    _, t = fight
    t.apply({"type": "start"})
    with pytest.raises(PermissionError, match="own seat"):
        t.apply(
            {"type": "declare", "combatant": "the-brick", "bracket": "slow"},
            role="player",
            seat="ronan",
        )
    t.apply({"type": "declare", "combatant": "ronan", "bracket": "slow"}, "player", "ronan")
    assert t.state["combatants"]["ronan"]["bracket"] == "slow"
