"""A writer killed with SIGKILL loses nothing it acknowledged and leaves nothing partial.

A child process opens the table and applies up to 1,000 commands, printing each version as
soon as ``apply`` returns (the acknowledgement). The parent kills it with SIGKILL at a random
moment, reopens the file and checks: every acknowledged event is there, the log is whole (seq
1..n, every row a complete event) and its fold is a valid state (20 runs).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from table_helpers import encounter, roster, soak7

from tb_playground.table import TableStore, fold

CHILD = r"""
import sys
from tb_playground.table import TableStore
table = TableStore(sys.argv[1]).open("T")
ids = ["ronan", "the-brick"]
for i in range(1000):
    if i % 3:
        table.apply({"type": "note", "text": f"note {i}"})
    else:
        cid = ids[i % 2]
        value = 1 + i % 9
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": value})
    print(table.version, flush=True)
"""

pytestmark = pytest.mark.server


@pytest.mark.parametrize("run", range(20))
def test_sigkill_loses_nothing_acknowledged(tmp_path, run):
    path = tmp_path / "tables.sqlite"
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    store = TableStore(path)
    store.create("T", enc, seed=run)
    store.close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    rng = random.Random(run)
    wanted = rng.randint(1, 200)
    acknowledged = 1
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        acknowledged = int(line)
        if acknowledged - 1 >= wanted:
            break
    time.sleep(rng.random() * 0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    # Whatever the child printed after our last read was acknowledged too.
    rest = child.stdout.read().split()
    if rest:
        acknowledged = int(rest[-1])
    child.stdout.close()

    rows = sqlite3.connect(path).execute("SELECT seq, body FROM events ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    events = [json.loads(body) for _, body in rows]
    assert len(events) >= acknowledged
    table = TableStore(path).open("T")
    assert table.version == len(events)
    assert fold(table.events) == table.state
    # The next command still works on the reopened table.
    table.apply({"type": "note", "text": "after the crash"})
    assert table.version == len(events) + 1
