"""Tables kept in SQLite: one row per event, several tables per file, safe across threads.

``store.create`` / ``store.open``; ``table.apply`` returns once its events are committed (WAL), so
an acknowledged command survives a crash. The file is at ``TB_TABLE_DB`` or in the user's data
directory. Notes: docs/notes/0008-table.md, "Persistence".
"""

from __future__ import annotations

import json
import os
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
from .command_tools import check_shape, check_version
from .commands import check_sender, decide
from .errors import ConflictError
from .export import party_documents
from .state import fold, step, undo_stack, undo_step

#: The layout of the SQLite file; a file with another version is refused.
SCHEMA_VERSION = 1

#: Longest table name.
MAX_NAME = 80

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    tname TEXT NOT NULL REFERENCES tables(name),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (tname, seq)
) WITHOUT ROWID;
"""


def default_path() -> Path:
    """``TB_TABLE_DB`` if set, else ``tables.sqlite`` in the user's data directory."""
    env = os.environ.get("TB_TABLE_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tb_playground", appauthor=False)) / "tables.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit survives the process being killed (not a power cut).
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class Table:
    """One live table: its events, its folded state, its subscribers. Use ``TableStore``."""

    def __init__(self, store: TableStore, name: str, events: list[dict]):
        self._store = store
        self.name = name
        self._events = events
        self._state = fold(events)
        self._in_force, self._redo = undo_stack(events)
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
        """Whether ``code`` is the table's current join code (compared in constant time)."""
        if not isinstance(code, str):
            return False
        with self._lock:
            current = self._state["join_code"]
        return secrets.compare_digest(code.strip().encode(), current.encode())

    def seats(self) -> list[tuple[str, str]]:
        """(id, name) of every character a player may sit as (not hidden), in table order."""
        with self._lock:
            cs = self._state["combatants"]
            ids = self._state["ids"]
            return [
                (i, cs[i]["name"])
                for i in ids
                if cs[i]["kind"] == "character" and not cs[i]["hidden"]
            ]

    def view_for(
        self, role: str, seat: str | None = None, memo: Callable[[int, str], dict] | None = None
    ) -> dict:
        """The table as ``role`` (and ``seat``) may see it: JSON-ready, already filtered.

        ``memo(version, what)``, if given, returns the dicts this view may reuse and fill
        (``view.view_for``'s ``cache`` and ``shared``): "log lines" and "combatant views". It
        is called under the table's lock, with the version the view is made of; the table
        keeps no drawing of its own (the service's ``DrawCache`` holds them).
        """
        with self._lock:
            check_sender(self._state, role, seat)
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

    def export_party(self) -> list[dict]:
        """The party's character files with the fight's vitals, conditions and scars.

        Documents as ``models.files`` writes them (``table/export.py``); the GM saves them.
        """
        with self._lock:
            return party_documents(self._state)

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

        Raises
        ------
        ValueError
            The command is invalid (the message names the field).
        PermissionError
            The role or seat may not send it.
        ConflictError
            ``expected_version`` is older than the table.
        """
        with self._lock:
            check_sender(self._state, role, seat)
            check_version(expected_version)
            check_shape(command)
            if expected_version is not None and expected_version != self.version:
                since = views.log_lines(self._state, self._events[expected_version:], role, seat)
                raise ConflictError(expected_version, self.version, since)
            kind = command.get("type") if isinstance(command, dict) else None
            if kind in ("undo", "redo"):
                made = self._undo_redo(kind, role)
            else:
                made = decide(self._state, command, role, seat, self._roller(self.version + 1))
            events = self._stamp(made, role, seat)
            self._store._append(self.name, events)
            self._events.extend(events)
            for event in events:
                undo_step(self._in_force, self._redo, event)
            if kind in ("undo", "redo"):
                self._state = fold(self._events)
            else:
                for event in events:
                    step(self._state, event)
            for callback in list(self._subscribers.values()):
                try:
                    callback(self.version, events)
                except Exception:  # noqa: BLE001 - one broken page must not break the table
                    pass
            return json.loads(json.dumps(events))

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
        self._conn = _connect(self.path)
        self._lock = threading.RLock()
        self._open: dict[str, Table] = {}
        with self._lock:
            self._conn.executescript(_SCHEMA)
            row = self._conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) != SCHEMA_VERSION:
                raise ValueError(
                    f"path: {self.path} holds tables of schema version {row[0]}; "
                    f"this version reads {SCHEMA_VERSION}"
                )

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
            "join_code": f"{secrets.randbelow(10**6):06d}",
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
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("INSERT INTO tables VALUES (?, ?)", (name, time.time()))
                self._conn.execute(
                    "INSERT INTO events VALUES (?, 1, ?)", (name, json.dumps(created))
                )
                self._conn.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._conn.execute("ROLLBACK")
                raise ValueError(f"name: a table called {name!r} already exists") from None
            table = Table(self, name, [created])
            self._open[name] = table
            return table

    def open(self, name: str) -> Table:
        """The table called ``name``, folded from its events (the same object while open)."""
        with self._lock:
            if name in self._open:
                return self._open[name]
            rows = self._conn.execute(
                "SELECT body FROM events WHERE tname=? ORDER BY seq", (name,)
            ).fetchall()
            if not rows:
                raise ValueError(f"name: there is no table called {name!r} in {self.path}")
            table = Table(self, name, [json.loads(r[0]) for r in rows])
            self._open[name] = table
            return table

    def open_tables(self) -> list[Table]:
        """The tables opened so far (each stays open for the life of the store)."""
        with self._lock:
            return list(self._open.values())

    def _append(self, name: str, events: list[dict]) -> None:
        rows = [(name, e["seq"], json.dumps(e)) for e in events]
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        """Close the file (open tables can no longer be changed)."""
        with self._lock:
            self._conn.close()
