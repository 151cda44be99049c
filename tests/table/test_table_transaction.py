"""One write transaction of the table file: commit, rollback, busy waits (issue 30; note 0018)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from tb_playground.table.errors import TableFileError
from tb_playground.table.schema import connect
from tb_playground.table.transaction import BusyError, transaction


@pytest.fixture
def file(tmp_path):
    path = tmp_path / "t.sqlite"
    conn = connect(path)
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    yield path, conn
    conn.close()


def rows(conn) -> list[int]:
    return [r[0] for r in conn.execute("SELECT k FROM t ORDER BY k")]


def free_elsewhere(lock) -> bool:
    """Whether another thread can take ``lock`` now."""
    got = []

    def take() -> None:
        got.append(lock.acquire(blocking=False))
        if got[0]:
            lock.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return got[0]


def test_the_block_is_committed_and_any_error_rolled_back(file):
    path, conn = file
    lock = threading.RLock()
    with transaction(conn, path, lock) as cur:
        cur.execute("INSERT INTO t VALUES (1)")
    assert rows(conn) == [1] and not conn.in_transaction
    with pytest.raises(sqlite3.IntegrityError), transaction(conn, path, lock):
        conn.execute("INSERT INTO t VALUES (2)")
        conn.execute("INSERT INTO t VALUES (1)")  # exists: raised as is
    with pytest.raises(KeyError), transaction(conn, path, lock):
        conn.execute("INSERT INTO t VALUES (3)")
        raise KeyError("mine")
    assert rows(conn) == [1] and not conn.in_transaction


def test_a_file_error_is_said_in_words_and_changes_nothing(file):
    path, conn = file
    lock = threading.RLock()
    conn.execute("PRAGMA query_only=1")
    with pytest.raises(TableFileError, match="read-only") as err, transaction(conn, path, lock):
        conn.execute("INSERT INTO t VALUES (1)")
    assert err.value.kind == "read-only" and str(path) in str(err.value)
    conn.execute("PRAGMA query_only=0")
    assert rows(conn) == [] and not conn.in_transaction


def test_a_transaction_under_way_is_joined_and_committed(file):
    path, conn = file
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t VALUES (1)")
    with transaction(conn, path, threading.RLock()):
        conn.execute("INSERT INTO t VALUES (2)")
    assert rows(connect(path)) == [1, 2]


def test_another_writer_s_lock_busy_at_once_or_locked_after_the_wait(file):
    path, conn = file
    lock = threading.RLock()
    other = connect(path)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(BusyError), transaction(conn, path, lock):
        pytest.fail("the block runs only holding the write lock")
    assert free_elsewhere(lock) and not conn.in_transaction
    start = time.monotonic()
    with pytest.raises(TableFileError, match="locked by another program") as err:
        with transaction(conn, path, lock, wait=0.2):
            pytest.fail("the block runs only holding the write lock")
    assert err.value.kind == "locked" and time.monotonic() - start >= 0.2
    assert free_elsewhere(lock)
    # Freed during the wait: the block runs once, committed.
    threading.Timer(0.1, other.rollback).start()
    with transaction(conn, path, lock, wait=5.0):
        conn.execute("INSERT INTO t VALUES (1)")
    assert rows(conn) == [1]
    other.close()
