"""Seats claimed by phones: one live page per seat, kept in the table file (issue 20, "Seats").

A page that sits a player in a seat claims it with its browser's token (a random value the
browser keeps, see ``views/combat/seat_session.py``). The claim lives in the SQLite file of the
tables (table ``seats``), so every server process on one file sees the same claims (issue 21, "Join
codes and seats are read from the file"). The rules, decided inside one write transaction:

- A free seat is claimed at once; so is a seat whose holder has been away longer than ``GRACE``.
- The browser that holds a seat comes back to it without a question (a reload, a phone that
  slept), whatever the join code is now: the claim is the seat's key, not the code.
- Another browser choosing a held seat is asked; if it takes the seat over, the claim moves to
  it and the page that held it no longer does (it becomes a spectator).
- The GM frees a seat: the claim is dropped and its page no longer holds it.

A page holds its seat while its page id is the claim's; the pages ask (``holds``) before every
command, so a page that lost its seat can act for no one. A holder is connected while its page
is open (``live``) and its process renews ``seen`` every ``BEAT`` seconds; a process that died
stops renewing, and after ``STALE`` seconds its pages count as gone. The clock is injected
(``clock``): tests never read the real one. Notes: docs/notes/0009-combat-panel.md, "Seats".
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .transaction import transaction

log = logging.getLogger(__name__)

#: Seconds a seat stays its holder's after the page closed (a phone asleep): another phone
#: choosing it is asked first, as if the holder were still there.
GRACE = 120.0

#: Seconds between two renewals of this process's live claims.
BEAT = 20.0

#: Seconds without renewal after which a live claim counts as gone (its process died).
STALE = 3 * BEAT

#: What a browser token looks like (``new_token``); anything else is no token.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seats (
    tname TEXT NOT NULL,
    seat TEXT NOT NULL,
    token TEXT NOT NULL,
    page TEXT NOT NULL,
    live INTEGER NOT NULL,
    seen REAL NOT NULL,
    since REAL NOT NULL,
    PRIMARY KEY (tname, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_requests (
    tname TEXT NOT NULL,
    seat TEXT NOT NULL,
    token TEXT NOT NULL,
    page TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (tname, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_options (
    tname TEXT NOT NULL PRIMARY KEY,
    ask_gm INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_takeovers (
    tname TEXT NOT NULL,
    seat TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (tname, seat)
) WITHOUT ROWID;
"""


def new_token() -> str:
    """A new browser token (192 random bits, URL-safe)."""
    import secrets

    return secrets.token_urlsafe(24)


def token_ok(token: object) -> bool:
    """Whether ``token`` has the shape of a browser token."""
    return isinstance(token, str) and TOKEN_SHAPE.fullmatch(token) is not None


def _asks_gm(conn, tname: str) -> bool:
    row = conn.execute("SELECT ask_gm FROM seat_options WHERE tname=?", (tname,)).fetchone()
    return bool(row and row[0])


def _forget_takeover(conn, tname: str, seat: str) -> None:
    conn.execute("DELETE FROM seat_takeovers WHERE tname=? AND seat=?", (tname, seat))


def _digest(token: str) -> str:
    # The file keeps only a hash: a copy of it seats no one.
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Claim:
    """One claimed seat as the GM sees it.

    ``connected``: its page is open now. ``away``: seconds since it was last seen (0 while
    connected). ``held``: another phone would be asked before taking it (connected, or away
    less than ``GRACE``). ``taken``: seconds since its phone took it over from another one
    (None: it sat down in a free seat, or came back); the GM's list says so (issue 31).
    """

    seat: str
    connected: bool
    away: float
    held: bool
    since: float
    taken: float | None = None


@dataclass(frozen=True)
class Sitting:
    """What ``SeatBook.sit`` decided.

    ``outcome``: "sat" (a free seat, now this browser's), "back" (this browser's already),
    "took" (taken over from another phone), "asked" (another phone holds it: nothing
    changed; ``connected`` says whether that phone is open now), or "waiting" (a takeover the
    GM must say yes to first: ``SeatBook.ask_gm``; issue 31).
    """

    outcome: str
    connected: bool = False

    @property
    def seated(self) -> bool:
        """Whether the page now holds the seat."""
        return self.outcome not in ("asked", "waiting")


class SeatBook:
    """The seat claims of one table file.

    Parameters
    ----------
    store : TableStore
        The file (its connection and lock are shared).
    clock : callable, optional
        Seconds since the epoch (default ``time.time``; the same wall clock for every process).
    """

    def __init__(self, store, clock: Callable[[], float] = time.time):
        self._store = store
        self._clock = clock
        self._watchers: dict[int, Callable[[str, str], None]] = {}
        self._next = 0
        self._lock = threading.Lock()
        self._mine: set[str] = set()  # pages of this process that hold a seat, open
        self._beating: threading.Event | None = None
        with store._lock:
            store._conn.executescript(_SCHEMA)

    # -- the file ------------------------------------------------------------------------------

    def _write(
        self, work: Callable[[sqlite3.Connection, float], object], wait: float | None = None
    ):
        """``work(conn, now)`` inside one write transaction of the file.

        Another program holding the file's write lock is waited for in short steps, with the
        store free for readers between them (``transaction.transaction``; issue 33, item 3),
        ``wait`` seconds at most (default: the store's ``write_wait``); then
        ``TableFileError("locked")``, nothing written.
        """
        store = self._store
        wait = store.write_wait if wait is None else wait
        with transaction(store._conn, store.path, store._lock, wait=wait) as conn:
            return work(conn, self._clock())

    def _row(self, conn, tname: str, seat: str):
        return conn.execute(
            "SELECT token, page, live, seen, since FROM seats WHERE tname=? AND seat=?",
            (tname, seat),
        ).fetchone()

    def _state(self, live: int, seen: float, now: float) -> tuple[bool, float, bool]:
        """(connected, away, held) of a claim at ``now``."""
        connected = bool(live) and now - seen < STALE
        away = 0.0 if connected else max(now - seen, 0.0)
        return connected, away, connected or away < GRACE

    # -- a page --------------------------------------------------------------------------------

    def sit(
        self,
        table,
        seat: str,
        token: str,
        page: str,
        take_over: bool = False,
        wait: float | None = None,
    ) -> Sitting:
        """Claim ``seat`` of ``table`` for the browser ``token``, shown on ``page``.

        Raises ValueError for a seat that is not one of ``table.seats()`` or a malformed token,
        and ``TableFileError("locked")`` when another program held the file's write lock for
        ``wait`` seconds (default: the store's ``write_wait``; nothing claimed).
        """
        if not token_ok(token):
            raise ValueError("token: not a browser token")
        if not isinstance(page, str) or not page:
            raise ValueError("page: not a page id")
        if seat not in dict(table.seats()):
            raise ValueError("seat: that seat is not at this table")
        tname, mine = table.name, _digest(token)

        def work(conn, now):
            row = self._row(conn, tname, seat)
            if row is None:
                outcome = "sat"
            elif row[0] == mine:
                outcome = "back"
            else:
                connected, _away, held = self._state(row[2], row[3], now)
                if held and not take_over:
                    return Sitting("asked", connected)
                if held and _asks_gm(conn, tname):  # the GM's yes first (issue 31)
                    conn.execute(
                        "INSERT OR REPLACE INTO seat_requests VALUES (?, ?, ?, ?, ?)",
                        (tname, seat, mine, page, now),
                    )
                    return Sitting("waiting", connected)
                outcome = "took" if held else "sat"
            since = row[4] if outcome == "back" else now
            conn.execute(
                "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, 1, ?, ?)",
                (tname, seat, mine, page, now, since),
            )
            if outcome == "took":  # the GM's list says so at once (issue 31)
                conn.execute(
                    "INSERT OR REPLACE INTO seat_takeovers VALUES (?, ?, ?)", (tname, seat, now)
                )
            elif outcome == "sat":
                _forget_takeover(conn, tname, seat)
            return Sitting(outcome)

        sitting = self._write(work, wait)
        if sitting.seated:
            with self._lock:
                self._mine.add(page)
            log.info("table %r: seat %r %s", tname, seat, sitting.outcome)
            self._tell(tname, seat)
        elif sitting.outcome == "waiting":
            log.info("table %r: seat %r: a takeover waits for the GM", tname, seat)
            self._tell(tname, seat)
        return sitting

    def holds(self, tname: str, seat: str | None, page: str) -> bool:
        """Whether ``page`` holds ``seat`` at the table ``tname`` now (read in the file)."""
        if seat is None:
            return False
        with self._store._lock:
            row = self._store._conn.execute(
                "SELECT page FROM seats WHERE tname=? AND seat=?", (tname, seat)
            ).fetchone()
        return row is not None and row[0] == page

    def owner(self, tname: str, seat: str, token: object) -> bool:
        """Whether the browser ``token`` holds ``seat`` at ``tname`` (opens no table)."""
        if not token_ok(token) or not isinstance(tname, str) or not isinstance(seat, str):
            return False
        with self._store._lock:
            row = self._store._conn.execute(
                "SELECT token FROM seats WHERE tname=? AND seat=?", (tname, seat)
            ).fetchone()
        return row is not None and row[0] == _digest(token)

    def lost(self, tname: str, seat: str, token: object) -> str:
        """Why a page of the browser ``token`` no longer holds ``seat``.

        "freed" (no claim), "elsewhere" (this browser's, on another page) or "taken" (another
        browser's).
        """
        with self._store._lock:
            row = self._store._conn.execute(
                "SELECT token FROM seats WHERE tname=? AND seat=?", (tname, seat)
            ).fetchone()
        if row is None:
            return "freed"
        return "elsewhere" if token_ok(token) and row[0] == _digest(token) else "taken"

    def away(self, page: str) -> None:
        """``page`` closed (a phone asleep, a tab shut): its seats stay its own for ``GRACE``."""
        with self._lock:
            self._mine.discard(page)

        def work(conn, now):
            rows = conn.execute("SELECT tname, seat FROM seats WHERE page=?", (page,)).fetchall()
            conn.execute("UPDATE seats SET live=0, seen=? WHERE page=? AND live=1", (now, page))
            return rows

        for tname, seat in self._write(work):
            self._tell(tname, seat)

    def stand_up(self, tname: str, seat: str | None, page: str) -> None:
        """The player on ``page`` left ``seat``: free it (if ``page`` still holds it)."""
        if seat is None:
            return

        def work(conn, _now):
            gone = conn.execute(
                "DELETE FROM seats WHERE tname=? AND seat=? AND page=?", (tname, seat, page)
            ).rowcount
            if gone:
                _forget_takeover(conn, tname, seat)
            return gone

        if self._write(work):
            self._tell(tname, seat)

    # -- the GM --------------------------------------------------------------------------------

    def claims(self, tname: str) -> dict[str, Claim]:
        """The claimed seats of ``tname``, by seat id."""
        now = self._clock()
        with self._store._lock:
            rows = self._store._conn.execute(
                "SELECT s.seat, s.live, s.seen, s.since, t.at FROM seats s LEFT JOIN "
                "seat_takeovers t ON t.tname = s.tname AND t.seat = s.seat WHERE s.tname=?",
                (tname,),
            ).fetchall()
        out = {}
        for seat, live, seen, since, taken_at in rows:
            connected, away, held = self._state(live, seen, now)
            taken = None if taken_at is None else max(now - taken_at, 0.0)
            out[seat] = Claim(seat, connected, away, held, since, taken)
        return out

    def free(self, tname: str, seat: str) -> bool:
        """Drop the claim on ``seat`` (the GM's "Free"); whether there was one."""

        def work(conn, _now):
            _forget_takeover(conn, tname, seat)
            conn.execute("DELETE FROM seat_requests WHERE tname=? AND seat=?", (tname, seat))
            return conn.execute(
                "DELETE FROM seats WHERE tname=? AND seat=?", (tname, seat)
            ).rowcount

        done = bool(self._write(work))
        if done:
            log.info("table %r: the GM freed seat %r", tname, seat)
            self._tell(tname, seat)
        return done

    def asks_gm(self, tname: str) -> bool:
        """Whether a takeover of a held seat at ``tname`` waits for the GM's yes (issue 31)."""
        with self._store._lock:
            return _asks_gm(self._store._conn, tname)

    def set_ask_gm(self, tname: str, on: bool) -> None:
        """The GM's switch: takeovers wait for the GM's yes (``on``), or happen at once.

        Turned off, the takeovers waiting are dropped: their phones may ask again.
        """
        if not isinstance(on, bool):
            raise ValueError(f"ask_gm must be true or false, got {on!r}")

        def work(conn, _now):
            conn.execute("INSERT OR REPLACE INTO seat_options VALUES (?, ?)", (tname, int(on)))
            if not on:
                return [
                    r[0]
                    for r in conn.execute(
                        "DELETE FROM seat_requests WHERE tname=? RETURNING seat", (tname,)
                    ).fetchall()
                ]
            return []

        for seat in self._write(work) or [""]:
            self._tell(tname, seat)

    def requests(self, tname: str) -> dict[str, float]:
        """The takeovers waiting for the GM at ``tname``: seat -> seconds it has waited."""
        now = self._clock()
        with self._store._lock:
            rows = self._store._conn.execute(
                "SELECT seat, at FROM seat_requests WHERE tname=?", (tname,)
            ).fetchall()
        return {seat: max(now - at, 0.0) for seat, at in rows}

    def waiting(self, tname: str, seat: str, page: str) -> bool:
        """Whether ``page`` waits for the GM's yes to take ``seat`` over."""
        with self._store._lock:
            row = self._store._conn.execute(
                "SELECT page FROM seat_requests WHERE tname=? AND seat=?", (tname, seat)
            ).fetchone()
        return row is not None and row[0] == page

    def answer(self, tname: str, seat: str, yes: bool) -> bool:
        """The GM says yes (the waiting phone takes the seat) or no; whether one was waiting."""

        def work(conn, now):
            row = conn.execute(
                "SELECT token, page FROM seat_requests WHERE tname=? AND seat=?", (tname, seat)
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM seat_requests WHERE tname=? AND seat=?", (tname, seat))
            if yes:
                conn.execute(
                    "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, 1, ?, ?)",
                    (tname, seat, row[0], row[1], now, now),
                )
                conn.execute(
                    "INSERT OR REPLACE INTO seat_takeovers VALUES (?, ?, ?)", (tname, seat, now)
                )
            return row[1]

        if self._write(work) is None:
            return False
        said = "allowed" if yes else "refused"
        log.info("table %r: the GM %s a takeover of seat %r", tname, said, seat)
        self._tell(tname, seat)
        return True

    # -- this process --------------------------------------------------------------------------

    def beat(self) -> int:
        """Renew ``seen`` of the claims this process's open pages hold; how many pages."""
        with self._lock:
            pages = sorted(self._mine)
        if not pages:
            return 0

        def work(conn, now):
            conn.executemany(
                "UPDATE seats SET seen=? WHERE page=? AND live=1", [(now, p) for p in pages]
            )

        self._write(work)
        return len(pages)

    def start_beating(self, every: float = BEAT) -> None:
        """Renew this process's claims every ``every`` seconds on a daemon thread."""
        if self._beating is not None:
            return
        stop = self._beating = threading.Event()

        def run():
            while not stop.wait(every):
                try:
                    self.beat()
                except (sqlite3.Error, ValueError) as exc:  # a busy or closed file: next time
                    log.warning("seat claims not renewed: %s", exc)

        threading.Thread(target=run, name="seat-claims", daemon=True).start()

    def stop_beating(self) -> None:
        """Stop the renewals (``start_beating``)."""
        if self._beating is not None:
            self._beating.set()
            self._beating = None

    def watch(self, callback: Callable[[str, str], None]) -> int:
        """Call ``callback(table name, seat)`` after every change this process makes."""
        with self._lock:
            self._next += 1
            self._watchers[self._next] = callback
            return self._next

    def unwatch(self, handle: int) -> None:
        """Stop calling the callback behind ``handle`` (an unknown handle is ignored)."""
        with self._lock:
            self._watchers.pop(handle, None)

    def _tell(self, tname: str, seat: str) -> None:
        with self._lock:
            callbacks = list(self._watchers.values())
        for callback in callbacks:
            try:
                callback(tname, seat)
            except Exception:  # noqa: BLE001 - one broken page must not break the others
                log.exception("a seat watcher failed (the others went on)")


__all__ = ["BEAT", "GRACE", "STALE", "Claim", "SeatBook", "Sitting", "new_token", "token_ok"]
