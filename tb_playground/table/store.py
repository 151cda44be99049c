"""The file of tables: one SQLite file holding several tables, safe across threads and processes.

``store.create`` / ``store.open`` give a ``live_table.Table``; ``table.apply`` returns once its
events are committed (WAL, ``synchronous=FULL``), so an acknowledged command survives a crash.
The file is the authority for every process that opens it: a table catches up with the others'
events before it decides. The store checkpoints, backs up, imports and exports, and keeps the
side record of acknowledged events (``loss_watch.py``). Its layout: ``schema.py``; its writes:
``transaction.py``. Notes: docs/notes/0008-table.md, "Persistence", "Backup" and "Issue 21: the
file is the authority".
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tb_playground.models import Encounter
from tb_playground.models.combatants import encounter_records

from .command_tools import MAX_TEXT
from .live_table import Table
from .loss_watch import AckedRecord, gm_loss_words, loss_note
from .schema import connect, default_path, parse_rows, prepare
from .state import fold
from .transaction import WRITE_WAIT, begin, rollback, transaction

log = logging.getLogger(__name__)

#: Events written between two checkpoints (a copy of the main file alone holds every event up
#: to the last checkpoint; ``close`` checkpoints too).
CHECKPOINT_EVERY = 100

#: Longest table name.
MAX_NAME = 80


class TableStore:
    """A SQLite file of tables.

    Parameters
    ----------
    path : str or Path, optional
        The file (created if missing). Default: ``default_path()``.
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._open: dict[str, Table] = {}
        self._closed = False
        # Other processes' commits seen so far (``_poll``), and events since the last checkpoint.
        self._data_version: int | None = None
        self._changes = 0
        self._unsaved = 0
        #: Seconds a write waits for another process's write lock (``WRITE_WAIT``).
        self.write_wait = WRITE_WAIT
        try:
            self._conn = connect(self.path)
            with self._lock:
                prepare(self._conn, self.path)
                #: The side record of the last event each table acknowledged
                #: (``loss_watch.AckedRecord``), and the losses found when the file was opened
                #: ({table: what it lost, in words}; noted in its log when it is opened).
                self._acked = AckedRecord(self.path)
                self.losses: dict[str, str] = self._acked.losses(self._conn)
                #: {table: the GM's words} for each loss noted in a table's log by this process
                #: (``gm_loss``): the whole path and what to do, for the GM page only.
                self.noted_losses: dict[str, str] = {}
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"path: {self.path} cannot be used as a table file: {exc}") from None

    # -- the file ------------------------------------------------------------------------------

    def _note_loss(self, table: Table) -> None:
        """Put the loss found on opening into the table's log, where the GM and everyone see it.

        The note names the events lost and the file by its name only (players read the log
        too; the server's log has the whole path).
        """
        words = self.losses.get(table.name)
        if words is None:
            return
        note = loss_note(self.path, words, table.version)
        try:
            table.apply({"type": "note", "text": note[:MAX_TEXT]})
        except (ValueError, sqlite3.DatabaseError) as exc:
            log.error("table %r in %s: the loss could not be noted: %s", table.name, self.path, exc)
            return
        with self._lock:
            self.losses.pop(table.name, None)
            self.noted_losses[table.name] = gm_loss_words(self.path, words, table.version)

    def gm_loss(self, name: str) -> str | None:
        """The GM's words about what table ``name`` lost (None: nothing lost).

        The log's note names the file by its name only, because players read the log; the GM
        page shows these words, with the file's whole path and what to do, while this process
        serves the table (the server's log keeps them too).
        """
        return self.noted_losses.get(name)

    def _poll(self) -> int:
        """A count that grows each time another connection has committed to the file."""
        with self._lock:
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if version != self._data_version:
                self._data_version = version
                self._changes += 1
            return self._changes

    def _rows(self, name: str, after: int) -> list:
        """(seq, body) of the events of table ``name`` after seq ``after``."""
        try:
            with self._lock:
                return self._conn.execute(
                    "SELECT seq, body FROM events WHERE tname=? AND seq>? ORDER BY seq",
                    (name, after),
                ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"table {name!r} in {self.path} cannot be read: {exc}") from None

    def checkpoint(self, truncate: bool = False) -> bool:
        """Copy the WAL into the main file (synced); whether every frame was copied.

        After a complete checkpoint a copy of the main file alone holds every acknowledged
        event. ``truncate`` (every ``CHECKPOINT_EVERY`` events and ``close``) also empties the
        WAL file, waiting at most 0.2 s for other processes: a WAL kept for reuse still holds
        the copied frames until the next write restarts it, and a copy of it cut short would
        take the table back before the checkpoint (SQLite reads the older pages of its valid
        part over the main file's). Without ``truncate`` it waits for no one (``PASSIVE``: a
        reader of another process on an older snapshot leaves it incomplete).
        """
        with self._lock:
            if self._closed:
                return False
            timeout = self._conn.execute("PRAGMA busy_timeout").fetchone()[0]
            self._conn.execute("PRAGMA busy_timeout=200")
            mode = "TRUNCATE" if truncate else "PASSIVE"
            try:
                busy, log, copied = self._conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
            except sqlite3.OperationalError:
                busy, log, copied = 1, 0, 0
            finally:
                self._conn.execute(f"PRAGMA busy_timeout={int(timeout)}")
            done = not busy and log == copied
            if done:
                self._unsaved = 0
                self._acked.compact()
            return done

    def backup(self, dest: str | Path) -> None:
        """Copy the whole file, WAL included, to ``dest`` with SQLite's backup API.

        Refuses a ``dest`` that exists. Safe while tables are in use.
        """
        dest = Path(dest)
        if dest.exists():
            raise ValueError(f"dest: {dest} exists; give a new file")
        target = sqlite3.connect(dest)
        try:
            with self._lock:
                self._conn.backup(target)
        finally:
            target.close()

    # -- tables --------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """The tables in the file, oldest first."""
        with self._lock:
            rows = self._conn.execute("SELECT name FROM tables ORDER BY created, name").fetchall()
        return [r[0] for r in rows]

    def create(self, name: str, encounter: Encounter, seed: int | None = None) -> Table:
        """Start a table for ``encounter``; refuses a name that exists."""
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ValueError(f"name must be text of 1..{MAX_NAME} characters, got {name!r}")
        name = name.strip()
        records = encounter_records(encounter)
        ruleset = encounter.ruleset
        switches = {k: v for k, v in ruleset.param.values().items() if isinstance(v, bool)}
        seed = secrets.randbits(63) if seed is None else int(seed)
        data = {
            "name": name,
            "encounter": encounter.name,
            "sides": list(encounter.sides),
            "ruleset": {"name": ruleset.name, **switches},
            "combatants": records,
            "seed": seed,
            "join_code": f"{secrets.randbelow(10**9):09d}",  # note 0009 "Issue 21: guessing"
        }
        created = {
            "seq": 1,
            "cmd": 1,
            "type": "created",
            "data": data,
            "changes": [],
            "by": {"role": "gm", "seat": None},
            "round": 0,
            "time": time.time(),
        }

        def insert() -> None:
            self._conn.execute(
                "INSERT INTO tables VALUES (?, ?, ?)", (name, time.time(), data["join_code"])
            )
            self._conn.execute("INSERT INTO events VALUES (?, 1, ?)", (name, json.dumps(created)))

        try:  # outside the store's lock: readers go on while it waits for the file
            self._write(insert)
        except sqlite3.IntegrityError:
            raise ValueError(f'name: a table called "{name}" already exists') from None
        with self._lock:
            self._saved(1)
            self._acked.acknowledge(name, 1, json.dumps(created))
            self.losses.pop(name, None)
            table = Table(self, name, [created], seen=self._poll())
            self._open[name] = table
        log.info("table %r created in %s", name, self.path)
        return table

    def open(self, name: str) -> Table:
        """The table called ``name``, folded from its events (the same object while open).

        A damaged event raises a ValueError naming the table and the file; the other tables
        still open.
        """
        with self._lock:
            if name in self._open:
                return self._open[name]
            seen = self._poll()
            rows = self._rows(name, 0)
            if not rows:
                raise ValueError(f'name: there is no table called "{name}" in {self.path}')
            table = Table(self, name, parse_rows(self.path, name, rows, 0), seen=seen)
            self._open[name] = table
        log.info("table %r opened from %s (%d events)", name, self.path, table.version)
        if name in self.losses:
            self._note_loss(table)
        return table

    def table_by_code(self, code: object) -> Table | None:
        """The table whose join code in the file is ``code``, or None.

        Reads the code column, so it opens at most the table that matches; a damaged table
        is skipped (and logged), never raised.
        """
        if not isinstance(code, str) or not code.strip():
            return None
        code = code.strip()
        try:
            with self._lock:
                rows = self._conn.execute(
                    "SELECT name FROM tables WHERE code=?", (code,)
                ).fetchall()
        except sqlite3.DatabaseError as exc:
            logging.getLogger(__name__).error("join codes in %s cannot be read: %s", self.path, exc)
            return None
        for (name,) in rows:
            try:
                table = self.open(name)
                if table.code_matches(code):
                    return table
            except ValueError as exc:
                logging.getLogger(__name__).error("%s", exc)
        return None

    def export_events(self, name: str) -> list[dict]:
        """Every event of table ``name`` as stored (checked, not folded)."""
        rows = self._rows(name, 0)
        if not rows:
            raise ValueError(f'name: there is no table called "{name}" in {self.path}')
        return parse_rows(self.path, name, rows, 0)

    def import_events(self, events: list[dict], name: str | None = None) -> Table:
        """A new table from ``events`` (``export_events``); ``name`` renames it.

        Refuses a name that exists and a log that does not fold.
        """
        if not isinstance(events, list) or not events or not isinstance(events[0], dict):
            raise ValueError("events: a table's log starts with its 'created' event")
        if events[0].get("type") != "created" or not isinstance(events[0].get("data"), dict):
            raise ValueError("events: a table's log starts with its 'created' event")
        events = json.loads(json.dumps(events))
        name = events[0]["data"].get("name") if name is None else name
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ValueError(f"name must be text of 1..{MAX_NAME} characters, got {name!r}")
        name = events[0]["data"]["name"] = name.strip()
        rows = [(n, json.dumps(e)) for n, e in enumerate(events, 1)]
        parse_rows(self.path, name, rows, 0)
        try:
            code = fold(events)["join_code"]
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise ValueError(f'events: the log of "{name}" does not fold ({exc!r})') from None

        def insert() -> None:
            self._conn.execute("INSERT INTO tables VALUES (?, ?, ?)", (name, time.time(), code))
            self._conn.executemany(
                "INSERT INTO events VALUES (?, ?, ?)", [(name, n, b) for n, b in rows]
            )

        try:
            self._write(insert)
        except sqlite3.IntegrityError:
            raise ValueError(
                f'name: a table called "{name}" already exists in {self.path}'
            ) from None
        with self._lock:
            self._saved(len(rows))
            self._acked.acknowledge(name, len(rows), rows[-1][1])
        return self.open(name)

    def open_tables(self) -> list[Table]:
        """The tables opened so far (each stays open for the life of the store)."""
        with self._lock:
            return list(self._open.values())

    def _append(self, name: str, events: list[dict], code: str | None = None) -> bool:
        """Commit ``events`` (and the table's new join ``code``); whether it was written.

        False: another process wrote these seqs first, nothing was written. Raises ``BusyError``
        when another process holds the write lock, ``TableFileError`` when the file cannot be
        written (nothing was written either way). Joins the transaction ``_holding`` began.
        """
        rows = [(name, e["seq"], json.dumps(e)) for e in events]
        with self._lock:
            try:
                with transaction(self._conn, self.path, self._lock):
                    self._conn.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
                    if code is not None:
                        self._conn.execute("UPDATE tables SET code=? WHERE name=?", (code, name))
            except sqlite3.IntegrityError:
                return False
            self._saved(len(rows))
            self._acked.acknowledge(name, rows[-1][1], rows[-1][2])
            return True

    def _write(self, work: Callable[[], object]) -> object:
        """``work()`` in one transaction holding the write lock, committed; its result.

        Waits ``write_wait`` seconds at most for another process's write lock, with the store
        free for readers between tries. An ``IntegrityError`` from ``work`` is rolled back and
        raised as is; other file errors as ``TableFileError``.
        """
        with transaction(self._conn, self.path, self._lock, wait=self.write_wait):
            result = work()
        return result

    @contextlib.contextmanager
    def _holding(self):
        """Hold the file's write lock (a transaction ``_append`` commits, else rolled back)."""
        with self._lock:
            begin(self._conn, self.path)
            try:
                yield
            finally:
                rollback(self._conn, self.path)

    def _saved(self, count: int) -> None:
        self._unsaved += count
        if self._unsaved >= CHECKPOINT_EVERY:
            self._unsaved = CHECKPOINT_EVERY // 2  # a busy checkpoint is tried again soon
            self.checkpoint(truncate=True)

    def close(self) -> None:
        """Checkpoint and close the file (open tables can no longer be changed)."""
        with self._lock:
            if self._closed:
                return
            self.checkpoint(truncate=True)
            self._closed = True
            self._conn.close()
            self._acked.close()
