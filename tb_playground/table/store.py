"""Tables kept in SQLite: one row per event, several tables per file, safe across threads.

``store.create`` / ``store.open``; ``table.apply`` returns once its events are committed (WAL,
``synchronous=FULL``), so an acknowledged command survives a crash. The file is the authority for
every process that opens it: a table catches up with the others' events before it decides. The
file is at ``TB_TABLE_DB`` or in the user's data directory. Notes: docs/notes/0008-table.md,
"Persistence" and "Issue 21: the file is the authority".
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

import numpy as np

from tb_playground.models import Encounter
from tb_playground.models.combatants import encounter_records

from . import view as views
from .command_tools import MAX_TEXT, check_fields, check_shape, check_version
from .commands import check_sender, decide
from .dice_typed import typed_odds
from .errors import ConflictError, RaceError, TableFileError
from .export import party_documents
from .loss_watch import AckedRecord, gm_loss_words, loss_note
from .night import night_numbers
from .replay import Replay, round_starts
from .schema import code_after, connect, default_path, parse_rows, prepare
from .state import fold, step, undo_stack, undo_step
from .transaction import BUSY_PAUSE, WRITE_WAIT, BusyError, begin, rollback, transaction

log = logging.getLogger(__name__)

#: How many times a command is decided again when another process wrote first.
TRIES = 8

#: Lost races after which a command is decided holding the file's write lock (sure to win).
OPTIMISTIC_TRIES = 3

#: Events written between two checkpoints (a copy of the main file alone holds every event up
#: to the last checkpoint; ``close`` checkpoints too).
CHECKPOINT_EVERY = 100

#: Longest table name.
MAX_NAME = 80


class Table:
    """One live table: its events, its folded state, its subscribers. Use ``TableStore``."""

    def __init__(self, store: TableStore, name: str, events: list[dict], seen: int | None = None):
        self._store = store
        self.name = name
        self._events = events
        try:
            self._state = fold(events)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise ValueError(
                f"table {name!r} in {store.path}: its events do not fold ({exc!r}); "
                "the other tables are not affected"
            ) from None
        #: The store's change count when this table last read the file (None: read it).
        self._seen = seen
        self._in_force, self._redo = undo_stack(events)
        self._replay = Replay(self._events)  # snapshots of the fold, for ``replay``
        self._lock = threading.RLock()
        self._subscribers: dict[int, Callable] = {}
        self._next_handle = 0

    # -- reading -------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many events the table holds."""
        return self._state["version"]

    @property
    def state(self) -> dict:
        """A deep copy of the full state (the GM's truth; not for players)."""
        with self._lock:
            return json.loads(json.dumps(self._state))

    def state_of(self, ids: list[str]) -> dict:
        """A deep copy of the state holding only the combatants ``ids`` (cheaper than ``state``)."""
        with self._lock:
            cs = self._state["combatants"]
            part = {k: v for k, v in self._state.items() if k != "combatants"}
            part["combatants"] = {i: cs[i] for i in ids if i in cs}
            return json.loads(json.dumps(part))

    @property
    def events(self) -> list[dict]:
        """A copy of the whole log."""
        with self._lock:
            return json.loads(json.dumps(self._events))

    def code_matches(self, code: object) -> bool:
        """Whether ``code`` is the table's current join code in the file (constant time)."""
        if not isinstance(code, str):
            return False
        with self._lock:
            try:
                self._catch_up()
            except ValueError as exc:  # a damaged row: nobody joins this table
                logging.getLogger(__name__).error("%s", exc)
                return False
            current = self._state["join_code"]
        return secrets.compare_digest(code.strip().encode(), current.encode())

    def seats(self) -> list[tuple[str, str]]:
        """(id, name) of every character a player may sit as (not hidden), in table order."""
        with self._lock:
            self._catch_up()
            cs = self._state["combatants"]
            ids = self._state["ids"]
            return [
                (i, cs[i]["name"])
                for i in ids
                if cs[i]["kind"] == "character" and not cs[i]["hidden"]
            ]

    def replay(self, n: int) -> dict:
        """The state after the first ``n`` events (1..version), undo and redo in them respected.

        ``table/replay.py``. A new dict, the GM's truth; not for players.
        """
        with self._lock:
            return self._replay.state_at(n)

    def round_starts(self) -> list[tuple[int, int]]:
        """(round, the event count it starts at) of each round so far (``replay.round_starts``)."""
        with self._lock:
            return round_starts(self._events)

    def view_for(
        self,
        role: str,
        seat: str | None = None,
        memo: Callable[[int, str], dict] | None = None,
        at: int | None = None,
    ) -> dict:
        """The table as ``role`` (and ``seat``) may see it: JSON-ready, already filtered.

        ``memo(version, what)``, if given, returns the dicts this view may reuse and fill
        (``view.view_for``'s ``cache`` and ``shared``): "log lines" and "combatant views". It
        is called under the table's lock, with the version the view is made of; the table
        keeps no drawing of its own (the service's ``DrawCache`` holds them).

        ``at``: what this role saw after event ``at`` (1..version), through the same
        ``view.view_for`` on the replayed state (``replay``); ``memo`` is not used then.
        """
        with self._lock:
            check_sender(self._state, role, seat)
            if at is not None:
                state = self._replay.state_at(self._replay.check(at, "at"))
                check_sender(state, role, seat)
                return self._replay.view_at(at, role, seat, state)
            version = self._state["version"]
            return views.view_for(
                self._state,
                self._events,
                role,
                seat,
                undo=(bool(self._in_force), bool(self._redo)),
                cache=memo(version, "log lines") if memo else None,
                shared=memo(version, "combatant views") if memo else None,
            )

    def pending_odds(self, role: str, seat: str | None = None, typed: list | None = None):
        """The pending roll's exact odds given the dice ``typed`` so far, for ``role``/``seat``.

        ``dice_typed.typed_odds``: None when this person is not shown the odds; a ValueError
        when no to-hit or damage roll is due or ``typed`` does not fit it.
        """
        with self._lock:
            check_sender(self._state, role, seat)
            return typed_odds(self._state, role, seat, [] if typed is None else typed)

    def night(self, role: str = "gm", seat: str | None = None, since: str = "night") -> dict:
        """The night's numbers (or the last fight's, ``since="fight"``) as ``role`` may see them.

        ``night.night_numbers``: dealt, took, spent, hits, criticals, the luck of each roll,
        turn times; ``night.to_markdown``, ``to_csv`` and ``to_json`` export them.
        """
        with self._lock:
            check_sender(self._state, role, seat)
            return night_numbers(self._events, role, seat, since)

    def export_party(self) -> list[dict]:
        """The party's character files with the fight's vitals, conditions and scars.

        Documents as ``models.files`` writes them (``table/export.py``); the GM saves them.
        """
        with self._lock:
            return party_documents(self._state)

    # -- the file ------------------------------------------------------------------------------

    def refresh(self) -> bool:
        """Catch up with the events other processes wrote; whether there were any.

        Cheap when nothing changed (one ``PRAGMA data_version``). Subscribers hear the new
        events as they hear a commit. The service calls it on a timer while pages are open.
        """
        with self._lock:
            return bool(self._catch_up())

    def _catch_up(self) -> list[dict]:
        """Read and fold the events written since this table last looked (under the lock)."""
        seen = self._store._poll()
        if seen == self._seen:
            return []
        after = len(self._events)
        rows = self._store._rows(self.name, after)
        new = parse_rows(self._store.path, self.name, rows, after)
        if new:
            try:
                self._take(new)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                del self._events[after:]  # back to the state before the damaged events
                self._replay.forget_after(after)
                self._state = fold(self._events)
                self._in_force, self._redo = undo_stack(self._events)
                raise ValueError(
                    f"table {self.name!r} in {self._store.path}: the events after {after} "
                    f"do not fold ({exc!r}); the other tables are not affected"
                ) from None
            self._notify(new)
        self._seen = seen
        return new

    def _take(self, events: list[dict]) -> None:
        """Fold committed ``events`` into the log, the stacks and the state."""
        self._events.extend(events)
        for event in events:
            undo_step(self._in_force, self._redo, event)
        if any(e["type"] in ("undone", "redone") for e in events):
            self._state = fold(self._events)
        else:
            for event in events:
                step(self._state, event)

    def _notify(self, events: list[dict]) -> None:
        for callback in list(self._subscribers.values()):
            try:
                callback(self.version, events)
            except Exception:  # noqa: BLE001 - one broken page must not break the table
                log.exception(
                    "table %r: a subscriber failed on version %d (the table went on)",
                    self.name, self.version,
                )  # fmt: skip

    # -- changing ------------------------------------------------------------------------------

    def _roller(self, seq: int) -> Callable[[int], list[int]]:
        rng = np.random.default_rng([self._state["seed"], seq])
        return lambda n: [int(x) for x in rng.integers(1, 11, size=n)]

    def apply(
        self,
        command: dict,
        role: str = "gm",
        seat: str | None = None,
        expected_version: int | None = None,
    ) -> list[dict]:
        """Check ``command`` and append its events; return them once committed.

        The command is decided on the table as the file holds it: first the events other
        processes wrote are read; if another process writes between the decision and the
        insert, the command is decided again on the fresh state (``TRIES`` times at most).

        Raises
        ------
        ValueError
            The command is invalid (the message names the field), or an event in the file is
            damaged (the message names the table and the file).
        PermissionError
            The role or seat may not send it.
        ConflictError
            ``expected_version`` is older than the table; or (``RaceError``) another process
            kept writing first.
        TableFileError
            The file is locked by another process for longer than ``write_wait`` seconds, full,
            read-only or failing (a ValueError in plain words naming the file; nothing changed).
        """
        deadline = time.monotonic() + self._store.write_wait
        while True:
            try:
                with self._lock:
                    events = self._decide_and_append(command, role, seat, expected_version)
                    self._take(events)
                    self._notify(events)
                    return json.loads(json.dumps(events))
            except BusyError:
                # Another process holds the file's write lock: wait outside the table's lock,
                # so that pages and the watcher can read it meanwhile.
                if time.monotonic() >= deadline:
                    raise TableFileError("locked", self._store.path) from None
            time.sleep(BUSY_PAUSE)

    def _decide_and_append(
        self, command: dict, role: str, seat: str | None, expected_version: int | None
    ) -> list[dict]:
        """Decide ``command`` on the file's state and commit its events (under the lock).

        Raises ``BusyError`` when the file's write lock is held elsewhere (nothing changed).
        """
        for attempt in range(TRIES):
            # Optimistic first (the file is locked only to insert); after a few lost races
            # the command is decided holding the file's write lock.
            hold = attempt >= OPTIMISTIC_TRIES
            with self._store._holding() if hold else contextlib.nullcontext():
                self._catch_up()
                check_sender(self._state, role, seat)
                check_version(expected_version)
                check_shape(command)
                if expected_version is not None and expected_version != self.version:
                    since = views.log_lines(
                        self._state, self._events, role, seat, since=expected_version
                    )
                    raise ConflictError(expected_version, self.version, since)
                kind = command.get("type") if isinstance(command, dict) else None
                if kind in ("undo", "redo"):
                    check_fields(command, ())  # they take no field but "type"
                    made = self._undo_redo(kind, role)
                else:
                    made = decide(self._state, command, role, seat, self._roller(self.version + 1))
                events = self._stamp(made, role, seat)
                if self._store._append(self.name, events, code_after(events)):
                    return events
            self._seen = None  # another process wrote these seqs: read them, decide again
        raise RaceError(self.name, self._store.path, TRIES)

    def _undo_redo(self, kind: str, role: str) -> list:
        if role != "gm":
            raise PermissionError(f"only the GM may {kind}")
        stack = self._in_force if kind == "undo" else self._redo
        if not stack:
            raise ValueError(f"type: there is nothing to {kind}")
        target = stack[-1]
        first = next(e for e in self._events if e["cmd"] == target)
        data = {"command": target, "what": first["type"]}
        return [("undone" if kind == "undo" else "redone", data, [])]

    def _stamp(self, made: list, role: str, seat: str | None) -> list[dict]:
        seq = self.version
        cmd = seq + 1
        now = time.time()
        out = []
        for kind, data, changes in made:
            seq += 1
            out.append(
                {
                    "seq": seq,
                    "cmd": cmd,
                    "type": kind,
                    "data": data,
                    "changes": changes,
                    "by": {"role": role, "seat": seat},
                    "round": self._state["round"],
                    "time": now,
                }
            )
        return out

    # -- listening -----------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[int, list[dict]], None]) -> int:
        """Call ``callback(version, new_events)`` after each commit; returns a handle."""
        with self._lock:
            self._next_handle += 1
            self._subscribers[self._next_handle] = callback
            return self._next_handle

    def unsubscribe(self, handle: int) -> None:
        """Stop calling the callback behind ``handle`` (an unknown handle is ignored)."""
        with self._lock:
            self._subscribers.pop(handle, None)

    @property
    def subscriber_count(self) -> int:
        """How many callbacks are subscribed."""
        return len(self._subscribers)


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
