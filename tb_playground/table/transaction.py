"""One write transaction of the table file: the write lock, busy waits, commit or rollback.

``with transaction(conn, path, lock) as conn:`` takes the file's write lock (``BEGIN
IMMEDIATE``), runs the block and commits; any error rolls back, so nothing is written. Another
process holding the lock is waited for in steps: ``BUSY_STEP_MS`` inside SQLite, then
``BUSY_PAUSE`` s with the store free for readers (pages, the service's watcher), until ``wait``
seconds have passed (``WRITE_WAIT`` by default for the store). A full disk, a read-only file and
any other SQLite error while writing become a ``TableFileError`` in plain words naming the file.
Notes: docs/notes/0018-liveness.md, "Writes off the event loop, and a bad file said in words";
docs/notes/0008-table.md, "Persistence".
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import TableFileError
from .schema import READ_WAIT

log = logging.getLogger(__name__)

#: Seconds a write waits for another process's write lock before the GM is told (the wait
#: happens off the server's event loop: ``TableSession.submit``).
WRITE_WAIT = 5.0

#: Each try for the write lock waits this long (ms) inside SQLite; between two tries the table
#: and the store are free for readers (pages, the service's watcher) for ``BUSY_PAUSE`` s.
BUSY_STEP_MS = 40
BUSY_PAUSE = 0.02


class BusyError(Exception):
    """Another connection holds the file's write lock (try again shortly)."""


def file_error(path: Path, exc: BaseException) -> TableFileError:
    """``exc`` (an sqlite3 error met while writing) as a ``TableFileError`` in plain words."""
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        kind = "locked"
    elif name.startswith("SQLITE_FULL") or "full" in text:
        kind = "full"
    elif name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text:
        kind = "read-only"
    else:
        kind = "failing"
    log.error("table file %s: %s (%s)", path, exc, name or "no code")
    return TableFileError(kind, path, str(exc))


def begin(conn: sqlite3.Connection, path: Path) -> None:
    """Take the file's write lock (``BEGIN IMMEDIATE``), waiting ``BUSY_STEP_MS`` at most.

    Raises ``BusyError`` when another connection holds it, ``TableFileError`` when the file
    at ``path`` cannot be written. Call it holding the store's lock.
    """
    conn.execute(f"PRAGMA busy_timeout={BUSY_STEP_MS}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        error = file_error(path, exc) if "locked" not in str(exc) else None
        if error is None:
            raise BusyError() from None
        raise error from None
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(READ_WAIT * 1000)}")


def commit(conn: sqlite3.Connection, path: Path) -> None:
    """Commit; a failed commit (full, read-only, failing) is rolled back as a ``TableFileError``."""
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:  # full, read-only, failing: nothing was written
        rollback(conn, path)
        raise file_error(path, exc) from None


def rollback(conn: sqlite3.Connection, path: Path) -> None:
    """Roll back the transaction under way, if any (a failure is only logged)."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error as exc:  # SQLite rolls back by itself on such errors
            log.warning("table file %s: rollback failed (%s)", path, exc)


@contextlib.contextmanager
def transaction(
    conn: sqlite3.Connection,
    path: Path,
    lock: threading.RLock,
    wait: float | None = None,
) -> Iterator[sqlite3.Connection]:
    """Hold ``lock`` and the file's write lock while the block runs, then commit.

    Parameters
    ----------
    conn : sqlite3.Connection
        The store's connection (autocommit: ``schema.connect``). A transaction it already has
        (``TableStore._holding``) is joined, not begun again.
    path : Path
        The file, for the error's words.
    lock : threading.RLock
        The store's lock, held from ``BEGIN`` to ``COMMIT`` and released between two tries.
    wait : float, optional
        Seconds to wait for another connection's write lock, trying again every
        ``BUSY_PAUSE`` s; then ``TableFileError("locked")``. None: one try, and ``BusyError``
        when another connection holds it.

    Raises
    ------
    BusyError
        ``wait`` is None and another connection holds the write lock.
    sqlite3.IntegrityError
        Raised by the block (a row that exists): rolled back, raised as is.
    TableFileError
        The file cannot be written (or, with ``wait``, stayed locked): rolled back. Any other
        exception of the block is rolled back and raised as is.
    """
    deadline = None if wait is None else time.monotonic() + wait
    while True:
        lock.acquire()
        try:
            if not conn.in_transaction:  # else the caller holds the write lock already
                begin(conn, path)
        except BusyError:
            lock.release()
            if deadline is None:
                raise
        except BaseException:
            lock.release()
            raise
        else:
            break
        if time.monotonic() >= deadline:
            raise TableFileError("locked", path)
        time.sleep(BUSY_PAUSE)
    try:
        try:
            yield conn
        except sqlite3.IntegrityError:
            rollback(conn, path)
            raise
        except sqlite3.Error as exc:
            rollback(conn, path)
            raise file_error(path, exc) from None
        except BaseException:
            rollback(conn, path)
            raise
        commit(conn, path)
    finally:
        lock.release()
