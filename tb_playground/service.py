"""The combat service: the live tables of one server process, its GM key, its sessions.

``get_service()`` makes the one ``CombatService`` (one ``TableStore``, the GM key, join codes,
one ``DrawCache`` per table version); pages bind to it through
``views.combat.combat_session.TableSession``. No Panel import. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from tb_playground import guard
from tb_playground.models import Encounter, roster
from tb_playground.table import Table, TableStore
from tb_playground.table.previews import attack_previews
from tb_playground.table.seats import SeatBook

log = logging.getLogger(__name__)

#: The shortest ``TB_GM_KEY`` the server accepts (note 0009, "Issue 21: guessing").
MIN_GM_KEY = 16
#: What the GM page's cookie token signs under the GM key (``CombatService.gm_cookie``).
GM_COOKIE_LABEL = b"tb_playground: the GM key was given on this browser"

#: Seconds after the last page closed before freed heap is handed back to the system.
TRIM_DELAY = 3.0

#: Seconds between two looks at the file for other processes' events, while pages are open
#: (issue 21: another process's command shows within 200 ms).
WATCH_EVERY = 0.1


def _libc_trim():
    """The C library's ``malloc_trim`` (None where there is none)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


_malloc_trim = _libc_trim()


def _server_address(argv: list[str]) -> str:
    """host:port the server listens on, read from ``panel serve``'s arguments (or the default)."""
    host, port = "localhost", "5006"
    for i, arg in enumerate(argv):
        for flag in ("--port", "--address"):
            value = None
            if arg == flag and i + 1 < len(argv):
                value = argv[i + 1]
            elif arg.startswith(flag + "="):
                value = arg.split("=", 1)[1]
            if value:
                if flag == "--port":
                    port = value
                elif value not in ("0.0.0.0", "::"):
                    host = value
    return f"{host}:{port}"


#: Parts of the drawing cache keyed by what they read rather than by the version: a newer
#: version takes over, on first use, an entry one of its ``CARRIED_FOR`` previous drawn
#: versions held (two: a switch turned on and off again, such as "Share foes' numbers", finds
#: the log lines of the version before).
CARRIED = frozenset({"log lines", "previews"})
CARRIED_FOR = 2


class _Carried(dict):
    """A part whose keys hold across versions: a miss looks in the previous versions' parts."""

    __slots__ = ("previous",)

    def __init__(self, previous: dict | None = None):
        super().__init__()
        self.previous = previous

    def __missing__(self, key):
        if self.previous is None:
            raise KeyError(key)
        value = self[key] = self.previous[key]
        return value


class DrawCache:
    """What the pages draw, once per table version, shared by every page (note 0009).

    An entry is keyed by (table, version, what, key): ``what`` names the part ("page" for a
    seat's view and HTML, "card", "previews", "log lines", ...), ``key`` the entry in it. One
    rule lets go: a table keeps the entries of its newest drawn version only. Drawing a newer
    version drops the older ones', except that an entry of a ``CARRIED`` part (a log line, the
    attack previews of an unchanged attacker and targets: keyed on what they read) passes to
    the newer version the first time it is asked for there, if one of the ``CARRIED_FOR``
    versions before held it. ``forget`` drops every entry of the tables no page shows. Asked
    for an older version than the kept one, a part is a fresh dict kept by no one.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._tables: dict[str, tuple[int, dict[str, dict]]] = {}

    def part(self, table: str, version: int, what: str) -> dict:
        """The dict of ``what`` for ``table`` at ``version``, to read and fill."""
        known, parts = self._tables.get(table, (-1, {}))  # the common case, without the lock
        if known == version and what in parts:
            return parts[what]
        with self._lock:
            known, parts = self._tables.get(table, (-1, {}))
            if version < known:
                return _Carried() if what in CARRIED else {}
            if version > known:
                older, parts = parts, {}
                for name in CARRIED & older.keys():
                    parts[name] = last = _Carried(older[name])
                    for _ in range(CARRIED_FOR):  # no longer chain than that
                        last = last.previous
                        if last is None:
                            break
                    else:
                        last.previous = None
                self._tables[table] = (version, parts)
            found = parts.get(what)
            if found is None:
                found = parts[what] = _Carried() if what in CARRIED else {}
            return found

    def get(self, table: str, version: int, what: str, key, make: Callable | None = None):
        """The entry ``key`` of ``what``: kept, else ``make()`` kept (None with no ``make``)."""
        part = self.part(table, version, what)
        try:
            return part[key]
        except KeyError:
            if make is None:
                return None
        return part.setdefault(key, make())

    def forget(self, keep: set[str]) -> None:
        """Drop every entry of the tables not in ``keep``."""
        with self._lock:
            for name in [n for n in self._tables if n not in keep]:
                del self._tables[name]

    def tables(self) -> dict[str, int]:
        """The tables with entries, and the version kept of each (tests)."""
        with self._lock:
            return {name: version for name, (version, _) in self._tables.items()}


class CombatService:
    """The tables, the GM key and the drawing cache of one server process.

    Parameters
    ----------
    path : str or Path, optional
        The SQLite file of tables (default: ``TB_TABLE_DB`` or the user's data directory).
    gm_key : str, optional
        The GM key (default: ``TB_GM_KEY``, else a new random key).
    """

    def __init__(self, path: str | Path | None = None, gm_key: str | None = None):
        self.store = TableStore(path)
        #: Which phone holds which seat, kept in the table file (``table/seats.py``).
        self.seats = SeatBook(self.store)
        env = os.environ.get("TB_GM_KEY")
        if not gm_key and env and len(env) < MIN_GM_KEY:
            raise ValueError(
                f"TB_GM_KEY is {len(env)} characters long: use at least {MIN_GM_KEY} (a short key "
                "falls to guessing), or unset it and the server makes a random one."
            )
        given = gm_key or env
        self.key_from_env = bool(given)
        #: Wrong join codes and GM keys, per client address (``guard.Guard``).
        self.code_guard = guard.Guard("join code")
        self.key_guard = guard.Guard("GM key")
        self._gm_key = given or secrets.token_urlsafe(18)
        self._lock = threading.RLock()
        #: What the pages draw, per table version (read through ``drawn``, ``drawing``,
        #: ``previews`` and ``view``).
        self.cache = DrawCache()
        #: The pages' live table bindings (weakly held; for tests, benchmarks and counts).
        self.sessions: weakref.WeakSet = weakref.WeakSet()
        self._trim_timer: threading.Timer | None = None
        self._last_close = 0.0
        #: How many times freed heap was handed back (tests).
        self.trims = 0
        self._watcher = _Watcher(self)

    # -- other processes -----------------------------------------------------------------------

    def watched(self) -> list[Table]:
        """The open tables some page (or other subscriber) listens to."""
        return [t for t in self.store.open_tables() if t.subscriber_count]

    def look_at_the_file(self) -> int:
        """Catch every watched table up with the file; how many had new events.

        One ``PRAGMA data_version`` per watched table when nothing changed. The watcher thread
        calls it every ``WATCH_EVERY`` s; ``Table.refresh`` tells the pages (each redraws on its
        document's next tick). A damaged table is logged and left as it was.
        """
        changed = 0
        for table in self.watched():
            try:
                changed += table.refresh()
            except ValueError as exc:  # a damaged row or a file that cannot be read: say so
                log.error("%s", exc)
        return changed

    def close(self) -> None:
        """Stop watching the file (tests; a server's service lives as long as the process)."""
        self._watcher.stop()

    # -- memory ------------------------------------------------------------------------------

    def page_closed(self) -> None:
        """A page left its table: soon after, give the heap it freed back to the system.

        A closed session's Python objects are all collected (benchmarks/bench_combat.py counts
        them), but the C allocator keeps the pages they used, so the server's resident memory
        stays at its high-water mark. ``malloc_trim`` returns them; it runs on a timer thread
        ``TRIM_DELAY`` seconds after a page closed, and again while pages keep closing. With
        CPython's small-object allocator most freed memory stays in its arenas: serve with
        ``PYTHONMALLOC=malloc MALLOC_ARENA_MAX=2`` so the trim reaches it (note 0009).
        """
        if _malloc_trim is None:
            return
        with self._lock:
            self._last_close = time.monotonic()
            if self._trim_timer is None:
                self._start_trim_timer()

    def _start_trim_timer(self, delay: float = TRIM_DELAY, last: bool = False) -> None:
        self._trim_timer = threading.Timer(delay, self._trim, kwargs={"last": last})
        self._trim_timer.daemon = True
        self._trim_timer.start()

    def _trim(self, last: bool = False) -> None:
        import gc

        began = time.monotonic()
        self.forget_unwatched()
        gc.collect()
        _malloc_trim(0)
        with self._lock:
            self.trims += 1
            # A page that closed just before (its memory perhaps not yet freed) or since: again.
            if self._last_close > began - 1.0:
                self._start_trim_timer()
            elif not last:  # and once more later: the server lets go of a session in stages
                self._start_trim_timer(4 * TRIM_DELAY, last=True)
            else:
                self._trim_timer = None

    def forget_unwatched(self) -> None:
        """Drop what was drawn for the tables no open page shows any more.

        Made while many pages were open, the drawings would outlive those pages scattered
        through the heap, and keep the memory the pages freed from going back to the system.
        The next page to open draws again (a few ms). A table some page shows keeps its newest
        version's drawings, which its next version replaces.
        """
        self.cache.forget({s.table.name for s in list(self.sessions) if not s.closed})

    # -- the GM key ----------------------------------------------------------------------------

    def gm_key_ok(self, key: object, client: str | None = None) -> bool:
        """Whether ``key`` is the GM key (constant-time comparison).

        A page passes its ``client`` address: a wrong key counts against it, and while it must
        wait this raises ``guard.SlowDownError`` without reading the key.
        """
        if not isinstance(key, str) or not key:
            return False
        if client is not None:
            self.key_guard.check(client)
        ok = secrets.compare_digest(key.encode(), self._gm_key.encode())
        if not ok and client is not None:
            self.key_guard.failed(client)
        return ok

    def gm_cookie(self) -> str:
        """The token the GM page keeps in its cookie once the key is accepted (issue 33).

        An HMAC of a fixed label under the GM key: it proves the key was given without being
        the key, and stops working when the key changes (a new random key at each start).
        """
        return hmac.new(self._gm_key.encode(), GM_COOKIE_LABEL, hashlib.sha256).hexdigest()

    def gm_cookie_ok(self, token: object) -> bool:
        """Whether ``token`` is ``gm_cookie()`` (constant-time comparison).

        A stale token (the key changed) is not a guess: it counts against no one, so a GM whose
        browser kept an old cookie is never made to wait for the right key.
        """
        if not isinstance(token, str) or not token:
            return False
        return hmac.compare_digest(token.encode(), self.gm_cookie().encode())

    def gm_link(self, address: str | None = None) -> str:
        """The full link to the GM page, key included."""
        # Bokeh swaps sys.argv while it runs an app script; the command line is in orig_argv.
        address = address or _server_address(getattr(sys, "orig_argv", sys.argv))
        return f"http://{address}/gm?key={self._gm_key}"

    def announce(self, stream=None) -> None:
        """Print the GM link (once per process, from ``get_service``)."""
        stream = stream or sys.stdout
        if self.key_from_env:
            link = self.gm_link().split("?")[0]
            print(f"tb_playground: GM page at {link}?key=<TB_GM_KEY>", file=stream)
        else:
            print(f"tb_playground: GM page (keep this link to yourself): {self.gm_link()}",
                  file=stream)  # fmt: skip
        print(f"tb_playground: tables are kept in {self.store.path}", file=stream)
        stream.flush()

    # -- tables --------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """The tables in the file, oldest first."""
        return self.store.names()

    def open(self, name: str) -> Table:
        """The live table called ``name`` (the same object for every session)."""
        return self.store.open(name)

    def create(self, name: str, encounter: Encounter) -> Table:
        """A new table for ``encounter``; refuses a name that exists (ValueError)."""
        return self.store.create(name, encounter)

    def create_with(
        self, name: str, encounter: Encounter, extras: list = ()
    ) -> tuple[Table, list[str]]:
        """A new table for ``encounter`` joined by ``extras`` (characters, creatures from files).

        An extra already in the encounter (a character or named creature of the same name: the
        README's "an encounter file plus its party's roster files") is kept once, with the
        file's sheet (``Encounter.add_or_merge``). Returns the table and a sentence for each
        one merged, for the page to say.
        """
        merged = [note for who in extras if (note := encounter.add_or_merge(who))]
        return self.create(name, encounter), merged

    def find_by_code(self, code: object, name: str | None = None) -> Table | None:
        """The table whose join code is ``code`` (only ``name`` if given), or None."""
        if not isinstance(code, str) or not code.strip():
            return None
        if not name:  # the file's code column: no table is opened but the one that matches
            return self.store.table_by_code(code)
        try:
            table = self.open(name)
        except ValueError:
            return None
        return table if table.code_matches(code) else None

    def look_up(self, code: object, client: str | None, name: str | None = None) -> Table | None:
        """``find_by_code`` for a page: ``name`` first, then any table.

        A miss counts against the ``client`` address (None: no limit, outside a server); while
        it must wait this raises ``guard.SlowDownError`` without looking.
        """
        if not isinstance(code, str) or not code.strip():
            return None
        if client is not None:
            self.code_guard.check(client)
        table = self.find_by_code(code, name) if name else None
        table = table or self.find_by_code(code)
        if table is None and client is not None:
            self.code_guard.failed(client)
        return table

    def view(self, table: Table, role: str, seat: str | None = None) -> dict:
        """``Table.view_for(role, seat)`` with the drawing cache's log lines and shared views.

        Plain data, partly shared with other pages' views: read-only.
        """
        name = table.name
        return table.view_for(
            role, seat, lambda version, what: self.cache.part(name, version, what)
        )

    def drawn(self, table: Table, role: str, seat: str | None, draw: Callable) -> dict:
        """What ``draw(view)`` makes of the table as ``role`` and ``seat`` see it, now.

        Every page of the same role and seat shows the same thing, so the view and its HTML
        are made once per table version and shared: the first page to refresh after a change
        calls ``draw(self.view(table, role, seat))``, the others get the same dict (plain data
        and strings, never a Bokeh model; read-only).
        """
        kept = self.cache.get(table.name, table.version, "page", (role, seat))
        if kept is not None:
            return kept
        made = draw(self.view(table, role, seat))
        version = made["view"]["version"]  # a page that drew the same meanwhile: its dict
        return self.cache.get(table.name, version, "page", (role, seat), lambda: made)

    def drawing(self, table: Table, version: int, what: str, key, draw: Callable | None = None):
        """``draw()``, made once for (``what``, ``key``) at ``version`` of ``table`` and shared.

        The cards every player and spectator draws alike, for instance (those of the
        combatants not their own seat). With no ``draw``, the kept drawing or None.
        """
        return self.cache.get(table.name, version, what, key, draw)

    def previews(
        self, table: Table, seat: str, visible: list[str], compute: bool = True
    ) -> list[dict] | None:
        """``attack_previews`` for ``seat`` against ``visible`` (cached).

        The cache key is everything the previews read (the ruleset, the ranges, the round, the
        attacker's and the targets' records), so an event that changes none of it (a note, a
        declaration, another combatant's hit) costs every player page nothing. With
        ``compute=False`` a preview not in the cache is None rather than computed.
        """
        asked = (seat, tuple(visible))
        version = table.version
        key = self.cache.get(table.name, version, "preview keys", asked)
        if key is None:  # the same until the table changes
            state = table.state_of([seat, *visible])
            version = state["version"]
            key = self.cache.get(table.name, version, "preview keys", asked,
                                 lambda: (seat, _preview_key(state, seat, visible)))  # fmt: skip
        make = (lambda: attack_previews(table.state, seat, visible)) if compute else None
        return self.cache.get(table.name, version, "previews", key, make)

    def drawn_previews(
        self,
        table: Table,
        version: int,
        seat: str,
        visible: list[str],
        draw: Callable[[list[dict]], str],
        compute: bool = True,
    ) -> str | None:
        """``draw(previews)`` for ``seat`` at ``version`` (once per version, shared).

        With ``compute=False``, None when neither the drawing nor the previews are known.
        """
        html = self.drawing(table, version, "previews drawn", seat)
        if html is None:
            previews = self.previews(table, seat, visible, compute)
            if previews is None:
                return None
            html = self.drawing(table, version, "previews drawn", seat, lambda: draw(previews))
        return html

    def encounter_files(self) -> dict[str, Path]:
        """The example encounter files by label (``models.roster``: checkout or package data)."""
        return roster.encounter_files()

    def creature_files(self) -> dict[str, Path]:
        """The example roster files (characters and creatures) by file name."""
        return roster.creature_files()


class _Watcher:
    """A daemon thread: ``look_at_the_file`` every ``WATCH_EVERY`` s.

    It holds the service weakly and ends with it (or at ``stop``).
    """

    def __init__(self, service: CombatService):
        self._service = weakref.ref(service)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tb-file-watcher", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(WATCH_EVERY):
            service = self._service()
            if service is None or service.store._closed:
                return
            try:
                service.look_at_the_file()
            except Exception:  # noqa: BLE001 - the watcher must outlive one bad look
                log.exception("watching %s for other processes' events", service.store.path)
            del service


#: Parts of the table state attack previews never read.
_NOT_READ = frozenset(
    {"combatants", "version", "pending", "up", "order", "initiative_order", "join_code", "seed",
     "phase", "name", "ids", "share_foes"}
)  # fmt: skip


def _preview_key(state: dict, seat: str, visible: list[str]) -> str:
    """Everything ``attack_previews(state, seat, visible)`` depends on, as one string."""
    cs = state["combatants"]
    involved = {cid: cs[cid] for cid in [seat, *visible] if cid in cs}
    rest = {k: v for k, v in state.items() if k not in _NOT_READ}
    return json.dumps([rest, involved, list(visible)], sort_keys=True)


_service: CombatService | None = None
_service_lock = threading.Lock()


def get_service() -> CombatService:
    """The process-wide ``CombatService``; made, and its GM link printed, on first call."""
    global _service
    with _service_lock:
        if _service is None:
            _service = CombatService()
            _service.seats.start_beating()
            log.info("combat service started: tables kept in %s", _service.store.path)
            _service.announce()
        return _service


def set_service(service: CombatService | None) -> None:
    """Replace the process-wide service (tests and benchmarks)."""
    global _service
    with _service_lock:
        _service = service


__all__ = ["CombatService", "DrawCache", "get_service", "set_service"]
