"""The combat service: the live tables of one server process, its GM key, and its sessions.

``panel serve`` runs an app script once per browser session, so nothing a script defines is
shared. The tables every page works on live here instead, in an imported module, once per
process (never run the server with ``--num-procs``): ``get_service()`` makes the one
``CombatService`` on first use.

- One ``TableStore``: the SQLite file at ``TB_TABLE_DB`` or the default path in the user's data
  directory (``tb_playground.table.default_path``). A restart opens the same tables.
- The GM key works like Jupyter's token: ``TB_GM_KEY`` if set, else a random key made once per
  process and printed once, with the full link ``http://HOST:PORT/gm?key=...`` (at start when
  served with ``--setup tb_playground/serve_setup.py``, as the README does; else at the first
  visit). Keys are compared in constant time (``secrets.compare_digest``).
- Players join a table with its join code (``find_by_code``); every command a page sends goes
  through ``Table.apply`` with the role and seat the page's own server-side state holds, so every
  permission is checked by the table whatever a browser sends.

No Panel import: the pages bind to a table through ``views.combat_session.TableSession``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import secrets
import sys
import threading
import time
import weakref
from collections import OrderedDict
from pathlib import Path

from tb_playground.models import Encounter, roster
from tb_playground.table import Table, TableStore
from tb_playground.table.previews import attack_previews

#: How many (table, version, seat) attack previews the service keeps.
PREVIEW_CACHE = 256

#: How many (table, role, seat) drawings the service keeps (the newest version of each).
DRAWN_CACHE = 512

#: Seconds after the last page closed before freed heap is handed back to the system.
TRIM_DELAY = 3.0


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


class CombatService:
    """The tables, the GM key and the attack-preview cache of one server process.

    Parameters
    ----------
    path : str or Path, optional
        The SQLite file of tables (default: ``TB_TABLE_DB`` or the user's data directory).
    gm_key : str, optional
        The GM key (default: ``TB_GM_KEY``, else a new random key).
    """

    def __init__(self, path: str | Path | None = None, gm_key: str | None = None):
        self.store = TableStore(path)
        given = gm_key or os.environ.get("TB_GM_KEY")
        self.key_from_env = bool(given)
        self._gm_key = given or secrets.token_urlsafe(18)
        self._lock = threading.RLock()
        self._previews: OrderedDict = OrderedDict()
        self._memos: dict = {}  # table name -> (version, memo)
        self._drawn: OrderedDict = OrderedDict()
        #: The pages' live table bindings (weakly held; for tests, benchmarks and counts).
        self.sessions: weakref.WeakSet = weakref.WeakSet()
        self._trim_timer: threading.Timer | None = None
        self._last_close = 0.0
        #: How many times freed heap was handed back (tests).
        self.trims = 0

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
        """Drop what was drawn for tables and seats no open page shows any more.

        The caches hold the newest view and HTML of each seat, the attack previews and each
        table's log lines. Made while many pages were open, they would outlive those pages
        scattered through the heap, and keep the memory the pages freed from going back to the
        system. The next page to open draws again (a few ms).
        """
        watched = {(s.table.name, s.role, s.seat) for s in list(self.sessions) if not s.closed}
        tables = {name for name, _, _ in watched}
        with self._lock:
            for key in [k for k in self._drawn if k not in watched]:
                del self._drawn[key]
            for key in [k for k in self._previews if k[0] not in tables]:
                del self._previews[key]
            for name in [n for n in self._memos if n not in tables]:
                del self._memos[name]
        for table in self.store.open_tables():
            if table.name not in tables:
                table.forget_drawn()

    # -- the GM key ----------------------------------------------------------------------------

    def gm_key_ok(self, key: object) -> bool:
        """Whether ``key`` is the GM key (constant-time comparison)."""
        if not isinstance(key, str) or not key:
            return False
        return secrets.compare_digest(key.encode(), self._gm_key.encode())

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

    def find_by_code(self, code: object, name: str | None = None) -> Table | None:
        """The table whose join code is ``code`` (only ``name`` if given), or None."""
        if not isinstance(code, str) or not code.strip():
            return None
        names = [name] if name else self.names()
        for n in names:
            try:
                table = self.open(n)
            except ValueError:
                continue
            if table.code_matches(code):
                return table
        return None

    def drawn(self, table: Table, role: str, seat: str | None, draw) -> dict:
        """What ``draw(view)`` makes of the table as ``role`` and ``seat`` see it, now.

        Every page of the same role and seat shows the same thing, so the view and its HTML
        are made once per table version and shared: the first page to refresh after a change
        calls ``draw(Table.view_for(role, seat))``, the others get the same dict (plain data
        and strings, never a Bokeh model; treat it as read-only). Only the newest version of
        each (table, role, seat) is kept.
        """
        key = (table.name, role, seat)
        with self._lock:
            hit = self._drawn.get(key)
        if hit is not None and hit["view"]["version"] == table.version:
            return hit
        made = draw(table.view_for(role, seat))
        with self._lock:
            old = self._drawn.get(key)
            if old is None or old["view"]["version"] <= made["view"]["version"]:
                self._drawn[key] = made
                self._drawn.move_to_end(key)
            while len(self._drawn) > DRAWN_CACHE:
                self._drawn.popitem(last=False)
        return made

    def memo(self, table: Table, version: int) -> dict:
        """A dict for what holds for ``table`` at ``version`` only.

        The cards every player and spectator draws alike (those of the combatants not their
        own seat) and the attack previews' cache keys. The newest version's is kept, and
        dropped with the other caches once no page shows the table; asked for an older
        version, a fresh dict (kept by no one).
        """
        with self._lock:
            known, memo = self._memos.get(table.name, (-1, None))
            if version == known:
                return memo
            memo = {}
            if version > known:
                self._memos[table.name] = (version, memo)
            return memo

    def previews(
        self, table: Table, seat: str, visible: list[str], compute: bool = True
    ) -> list[dict] | None:
        """``attack_previews`` for ``seat`` against ``visible`` (cached).

        The cache key is everything the previews read (the ruleset, the ranges, the round, the
        attacker's and the targets' records), so an event that changes none of it (a note, a
        declaration, another combatant's hit) costs every player page nothing. With
        ``compute=False`` a preview not in the cache is None rather than computed.
        """
        asked = ("preview key", seat, tuple(visible))
        key = self.memo(table, table.version).get(asked)  # the same until the table changes
        if key is None:
            state = table.state_of([seat, *visible])
            key = (table.name, seat, _preview_key(state, seat, visible))
            self.memo(table, state["version"])[asked] = key
        with self._lock:
            if key in self._previews:
                self._previews.move_to_end(key)
                return self._previews[key]
        if not compute:
            return None
        found = attack_previews(table.state, seat, visible)
        with self._lock:
            self._previews[key] = found
            while len(self._previews) > PREVIEW_CACHE:
                self._previews.popitem(last=False)
        return found

    def encounter_files(self) -> dict[str, Path]:
        """The example encounter files by label (``models.roster``: checkout or package data)."""
        return roster.encounter_files()

    def creature_files(self) -> dict[str, Path]:
        """The example roster files (characters and creatures) by file name."""
        return roster.creature_files()


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
            _service.announce()
        return _service


def set_service(service: CombatService | None) -> None:
    """Replace the process-wide service (tests and benchmarks)."""
    global _service
    with _service_lock:
        _service = service


__all__ = ["CombatService", "get_service", "set_service"]
