"""Two processes on one table file: the file is the authority (issue 21, "Data").

A child process (a small script reading one JSON request a line) and this test's process open
the same file: each sees the other's commands within 200 ms through ``Table.refresh``; a
command decided on stale state is decided again on the fresh one; 1,000 interleaved commands
from two processes are all there once; a join code the other process revoked is refused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from table_helpers import encounter, roster, soak7

from tb_playground.table import ConflictError, TableStore, fold
from tb_playground.table.errors import RaceError

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time
from tb_playground.table import TableStore
store = TableStore(sys.argv[1])
table = store.open("T")
for line in sys.stdin:
    ask = json.loads(line)
    op = ask["op"]
    if op == "apply":
        table.apply(ask["command"])
        said = {"version": table.version, "time": time.time()}
    elif op == "wait_for":  # refresh every 20 ms, as the service's timer would
        while table.version < ask["version"]:
            table.refresh()
            time.sleep(0.02)
        said = {"version": table.version, "time": time.time()}
    elif op == "code":
        found = store.table_by_code(ask["code"])
        said = {"matches": table.code_matches(ask["code"]), "found": found and found.name,
                "seats": table.seats()}
    elif op == "notes":  # many commands in a row, as fast as the file lets it
        for i in range(ask["n"]):
            table.apply({"type": "note", "text": f"{ask['who']} {i}"})
        said = {"version": table.version}
    elif op == "state":
        table.refresh()
        said = {"version": table.version, "state": table.state}
    print(json.dumps(said), flush=True)
"""

pytestmark = pytest.mark.server


class Child:
    """A second process with the table open."""

    def __init__(self, path: Path):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def send(self, **ask) -> None:
        self.proc.stdin.write(json.dumps(ask) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, "the child process died"
        return json.loads(line)

    def ask(self, **ask) -> dict:
        self.send(**ask)
        return self.answer()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


@pytest.fixture
def shared(tmp_path):
    path = tmp_path / "tables.sqlite"
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    store = TableStore(path)
    table = store.create("T", enc, seed=3)
    child = Child(path)
    yield store, table, child
    child.close()
    store.close()


def test_each_process_sees_the_others_commands_within_200_ms(shared):
    store, table, child = shared
    heard = []
    table.subscribe(lambda version, events: heard.append((version, events)))
    for turn in range(3):
        # The other process writes; this one refreshes every 20 ms, as the service does.
        said = child.ask(op="apply", command={"type": "note", "text": f"child {turn}"})
        while table.version < said["version"]:
            table.refresh()
            time.sleep(0.02)
        assert time.time() - said["time"] < 0.2
        assert table.events[-1]["data"]["text"] == f"child {turn}"
        assert heard[-1][0] == table.version  # subscribers hear what refresh read
        # This process writes; the other one refreshes.
        child.send(op="wait_for", version=table.version + 1)
        time.sleep(0.05)
        table.apply({"type": "note", "text": f"parent {turn}"})
        committed = time.time()
        said = child.answer()
        assert said["version"] == table.version
        assert said["time"] - committed < 0.2
    assert table.refresh() is False  # nothing new


def test_a_stale_process_decides_again_on_the_fresh_state(shared):
    store, table, child = shared
    for i in range(3):
        child.ask(op="apply", command={"type": "set", "combatant": "ronan", "field": "ki",
                                       "value": i})  # fmt: skip
    # This process has not looked since; its command is decided on the file's state.
    events = table.apply({"type": "note", "text": "after the child's"})
    assert events[0]["seq"] == 5
    assert table.state["combatants"]["ronan"]["ki"] == 2
    assert fold(TableStore(store.path).open("T").events) == table.state


def test_a_thousand_interleaved_commands_none_lost_none_twice(shared, tmp_path):
    store, table, child = shared
    other = Child(store.path)
    try:
        child.send(op="notes", who="a", n=500)
        other.send(op="notes", who="b", n=500)
        child.answer(), other.answer()
        a, b = child.ask(op="state"), other.ask(op="state")
    finally:
        other.close()
    table.refresh()
    texts = Counter(e["data"]["text"] for e in table.events if e["type"] == "note")
    assert texts == Counter([f"a {i}" for i in range(500)] + [f"b {i}" for i in range(500)])
    assert [e["seq"] for e in table.events] == list(range(1, 1002))
    assert a["version"] == b["version"] == table.version == 1001
    assert a["state"] == b["state"] == table.state == fold(table.events)


def test_a_code_revoked_by_another_process_is_refused(shared):
    store, table, child = shared
    code = table.state["join_code"]
    said = child.ask(op="code", code=code)
    assert said["matches"] and said["found"] == "T"
    assert [s[0] for s in said["seats"]] == ["ronan", "the-brick"]
    table.apply({"type": "rotate_code"})
    new = table.state["join_code"]
    assert new != code
    said = child.ask(op="code", code=code)
    assert not said["matches"] and said["found"] is None
    said = child.ask(op="code", code=new)
    assert said["matches"] and said["found"] == "T"
    # Seats too are read from the file.
    table.apply({"type": "hide", "combatant": "the-brick"})
    assert [s[0] for s in child.ask(op="code", code=new)["seats"]] == ["ronan"]


def test_a_lost_race_is_decided_again_and_endless_ones_refused(tmp_path, monkeypatch):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", encounter(roster("ronan.json"), foes=[soak7()]))
    other = TableStore(path).open("T")  # another connection, as another process has
    real = store._append
    tried = []

    def racing(name, events, code=None):
        tried.append(events[0]["seq"])
        if len(tried) == 1:  # the other writes between this decision and its insert
            other.apply({"type": "note", "text": "the other's"})
        return real(name, events, code)

    monkeypatch.setattr(store, "_append", racing)
    events = table.apply({"type": "note", "text": "mine"})
    assert tried == [2, 3] and events[0]["seq"] == 3
    assert [e["data"]["text"] for e in table.events[1:]] == ["the other's", "mine"]

    monkeypatch.setattr(store, "_append", lambda *args: False)  # always beaten
    with pytest.raises(RaceError, match=r'table "T" in .*tables.sqlite') as err:
        table.apply({"type": "note", "text": "lost"})
    assert isinstance(err.value, ConflictError) and isinstance(err.value, ValueError)
    monkeypatch.undo()
    assert table.apply({"type": "note", "text": "again"})[0]["seq"] == 4
    assert other.refresh() and other.state == table.state
