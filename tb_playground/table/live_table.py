"""One live table: its events, its folded state, its subscribers, and how a command is applied.

``table.apply`` decides a command on the table as the file holds it (first the events other
processes wrote are read and folded), commits its events and returns them once committed; a
race lost to another process is decided again on the fresh state (``TRIES`` at most, holding the
file's write lock after ``OPTIMISTIC_TRIES``), and another process's write lock is waited for
outside the table's lock. Subscribers hear each commit, in order. Tables are made and opened by
``store.TableStore``. Notes: docs/notes/0008-table.md, "Persistence" and "Issue 21: the file is
the authority"; docs/notes/0018-liveness.md, "Writes off the event loop, and a bad file said in
words".
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import numpy as np

from . import reader_view, table_log
from .command_tools import check_fields, check_shape, check_version
from .commands import check_sender, decide
from .dice_typed import typed_odds
from .errors import ConflictError, RaceError, TableFileError
from .export import party_documents
from .night import night_numbers
from .replay import Replay, round_starts
from .schema import code_after, parse_rows
from .state import fold, step, undo_stack, undo_step
from .transaction import BUSY_PAUSE, BusyError

log = logging.getLogger(__name__)

#: How many times a command is decided again when another process wrote first.
TRIES = 8

#: Lost races after which a command is decided holding the file's write lock (sure to win).
OPTIMISTIC_TRIES = 3


class TableFile(Protocol):
    """What a live table needs of the file that holds it (``store.TableStore``)."""

    #: The file.
    path: Path
    #: Seconds a write waits for another process's write lock.
    write_wait: float

    def _poll(self) -> int: ...

    def _rows(self, name: str, after: int) -> list: ...

    def _holding(self) -> AbstractContextManager: ...

    def _append(self, name: str, events: list[dict], code: str | None = None) -> bool: ...


class Table:
    """One live table: its events, its folded state, its subscribers. Use ``TableStore``."""

    def __init__(self, store: TableFile, name: str, events: list[dict], seen: int | None = None):
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
            return reader_view.view_for(
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
                    since = table_log.log_lines(
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
