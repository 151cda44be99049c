"""Slow guessing of join codes and the GM key; harden the served pages (issues 21 and 33).

Panel-free. Every limit counts per *client*: the browser (a signed cookie the server gives it,
``browser_id``) where one can be told apart, else the address (the proxy's ``X-Forwarded-For``
when served with ``--use-xheaders``). Nothing is refused for everyone: what one client does
never refuses another (issue 33, item 2); the join code's length does the rest. The limits and
the figures behind them: docs/notes/0009-combat-panel.md, "Issue 21: guessing", and
docs/notes/0025-guards-and-locks.md.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

#: Wrong tries an address may make before it has to wait.
FREE_TRIES = 5
#: The first wait (seconds); it doubles with every wrong try after that, up to ``MAX_WAIT``.
FIRST_WAIT = 60.0
MAX_WAIT = 3600.0
#: An address that made no wrong try for this long starts afresh (seconds).
FORGET_AFTER = 24 * 3600.0

#: The cookie that tells browsers behind one address apart (``browser_id``).
BROWSER_COOKIE = "tb_browser"
_SECRET = secrets.token_bytes(32)  # this process's; after a restart a browser gets a new id


def new_browser_cookie() -> str:
    """A new browser id, signed with this process's secret: the value of ``BROWSER_COOKIE``."""
    ident = secrets.token_hex(8)
    return f"{ident}.{_sign(ident)}"


def browser_id(cookie: object) -> str | None:
    """The browser id in a ``BROWSER_COOKIE`` value this process signed (None: none, forged)."""
    if not isinstance(cookie, str) or cookie.count(".") != 1 or len(cookie) > 64:
        return None
    ident, mac = cookie.split(".")
    return ident if hmac.compare_digest(mac, _sign(ident)) else None


def _sign(ident: str) -> str:
    return hmac.new(_SECRET, ident.encode(), hashlib.sha256).hexdigest()[:32]


def client_key(address: object, cookie: object = None) -> str:
    """Who a limit counts: "<address>" or "<address> browser <id>" (a browser told apart).

    A cookie this process did not sign counts as none: inventing ids gains nothing.
    """
    address = str(address or "unknown")
    ident = browser_id(cookie)
    return f"{address} browser {ident}" if ident else address


class SlowDownError(ValueError):
    """A try refused unread: too many wrong ones; ``wait`` is the seconds left."""

    def __init__(self, what: str, wait: float):
        self.wait = wait
        super().__init__(f"Too many wrong {what}s: try again in {max(1, round(wait))} s.")


class Guard:
    """Counts wrong tries per client; says how long that client waits (issue 33, item 2).

    A client is a browser told apart by its cookie, else an address (``client_key``). Each may
    be wrong ``free`` times; after its n-th wrong try (n >= ``free``) it waits
    ``first_wait * 2 ** (n - free)`` seconds (at most ``max_wait``) before the next is read.
    Nothing is counted for all clients together: wrong tries from other addresses, or from
    other browsers behind the same address (a hotspot, a school's network, a proxy), never
    delay the right answer. A client that drops its cookie counts as its address, and a new
    browser id costs a page load (``PageLoads``): the guesses an address can make a day are
    ``guesses_per_day``, and the join code's length does the rest.

    Parameters
    ----------
    what : str
        What is guessed, for messages and the log ("join code", "GM key").
    clock : callable, optional
        Seconds, monotonic (default ``time.monotonic``; tests pass a fake one).
    """

    def __init__(
        self,
        what: str,
        clock: Callable[[], float] = time.monotonic,
        free: int = FREE_TRIES,
        first_wait: float = FIRST_WAIT,
        max_wait: float = MAX_WAIT,
        forget_after: float = FORGET_AFTER,
    ):
        self.what = what
        self._clock = clock
        self._free, self._first, self._max = free, first_wait, max_wait
        self._forget = forget_after
        self._lock = threading.Lock()
        self._addresses: dict[str, tuple[int, float]] = {}  # client: (wrong tries, last)

    def _counted(self, client: str) -> str:
        """The counter of ``client``'s next try: its own, or its address's once it used its free.

        A browser told apart has ``free`` tries of its own; after those its tries count on its
        address's counter (with the tries of the address's scripts without a cookie), so a
        browser id, which costs a page load, buys ``free`` tries and no more. A browser that
        made no wrong try is never slowed by the others.
        """
        address, sep, _ = client.partition(" browser ")
        if sep and self._addresses.get(client, (0, 0.0))[0] >= self._free:
            return address
        return client

    def wait(self, address: str) -> float:
        """Seconds the client ``address`` (``client_key``) waits before its next try is read."""
        now = self._clock()
        with self._lock:
            self._tidy(now)
            wrong, last = self._addresses.get(self._counted(address), (0, now))
            if wrong < self._free:
                return 0.0
            pause = min(self._max, self._first * 2 ** (wrong - self._free))
            return max(0.0, last + pause - now)

    def check(self, address: str) -> None:
        """Raise ``SlowDownError`` when ``address`` must wait (the try is then not read)."""
        left = self.wait(address)
        if left > 0:
            log.warning("%s try from %s refused unread: %.0f s to wait", self.what, address, left)
            raise SlowDownError(self.what, left)

    def failed(self, address: str) -> None:
        """Count one wrong try from the client ``address`` (and log it)."""
        now = self._clock()
        with self._lock:
            self._tidy(now)
            counter = self._counted(address)
            if counter != address:  # the browser keeps its count (its free tries used)
                self._addresses[address] = (self._free, now)
            wrong = self._addresses.get(counter, (0, now))[0] + 1
            self._addresses[counter] = (wrong, now)
        log.warning("wrong %s from %s (%d from it)", self.what, counter, wrong)

    def _tidy(self, now: float) -> None:
        if len(self._addresses) > 1000:  # addresses quiet for a day start afresh
            self._addresses = {
                a: (n, t) for a, (n, t) in self._addresses.items() if now - t < self._forget
            }
        else:
            for a in [a for a, (_, t) in self._addresses.items() if now - t >= self._forget]:
                del self._addresses[a]


#: Pages one browser (told apart by its cookie) may open at once, and how many more a second
#: (issue 33, item 2): the site's 9 pages, each twice within a minute (18), never wait.
BROWSER_BURST = 24
BROWSER_RATE = 1 / 3
#: Pages an address may open at once without a browser cookie (a first visit, a script), and
#: how many more a second: a classroom of 30 behind one address opening /odds at once all get
#: it at once. Beyond the burst a request waits its turn (``MAX_PACE`` at most), it is not
#: refused: a script looping on a page without keeping its cookie gets one every 30 s (a
#: build's 5% of the loop's time at most); while it waits its request holds no session, and
#: ``PageGate`` builds other people's pages first (issue 33, item 9). A new browser id costs
#: one of these: ``guesses_per_day``.
PAGE_BURST = 40
PAGE_RATE = 1 / 30
#: Longest wait for a turn; a client whose requests would wait longer (a script with many
#: requests queued) is answered "too many" at once (``serve_setup``'s patch: HTTP 429).
MAX_PACE = 60.0


def page_burst_from_env(environ=None) -> int:
    """The burst of pages an address may open: ``TB_PAGE_BURST`` if set, else ``PAGE_BURST``.

    A test suite behind one address opens many pages at once; the steady rate after the burst
    stays ``PAGE_RATE``.

    Raises
    ------
    ValueError
        Naming ``TB_PAGE_BURST`` and its range, when it is not a whole number from 1 to 100,000.
    """
    text = (os.environ if environ is None else environ).get("TB_PAGE_BURST", "").strip()
    if not text:
        return PAGE_BURST
    try:
        burst = int(text)
    except ValueError:
        burst = 0
    if not 1 <= burst <= 100_000:
        raise ValueError(f"TB_PAGE_BURST must be a whole number from 1 to 100000, got {text!r}")
    return burst


class PageLoads:
    """How many pages each client may open: a burst, then a steady rate (issues 21 and 33).

    Each page opened builds a session on the server's one event loop; a script looping plain
    GETs kept it busy and left everyone else's page waiting for seconds. A browser told apart
    by its cookie opens ``browser_burst`` pages at once and ``browser_rate`` more a second; an
    address without one (first visits, scripts) ``burst`` and ``rate``. Beyond that a request
    is not refused: ``reserve`` says how long it waits for its turn; only a client whose
    requests would wait over ``max_pace`` seconds is told "too many".
    """

    def __init__(
        self,
        burst: int = PAGE_BURST,
        rate: float = PAGE_RATE,
        clock: Callable[[], float] = time.monotonic,
        browser_burst: int = BROWSER_BURST,
        browser_rate: float = BROWSER_RATE,
        max_pace: float = MAX_PACE,
    ):
        self._sizes = {False: (float(burst), rate), True: (float(browser_burst), browser_rate)}
        self._clock, self._max_pace = clock, max_pace
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, when)
        self.refused = 0
        self.paced = 0

    def reserve(self, client: str, browser: bool = False) -> float | None:
        """Take ``client``'s next turn: seconds to wait before its page is built (0: now).

        None when it would wait over ``max_pace`` (nothing taken). ``browser``: the client is
        a browser told apart by its cookie (``client_key``).
        """
        burst, rate = self._sizes[bool(browser)]
        now = self._clock()
        with self._lock:
            tokens, when = self._buckets.get(client, (burst, now))
            tokens = min(burst, tokens + (now - when) * rate) - 1.0
            wait = max(0.0, -tokens / rate)
            if wait > self._max_pace:
                self._buckets[client] = (tokens + 1.0, now)
                self.refused += 1
                if self.refused % 100 == 1:
                    log.warning("too many pages opened by %s (%d refused)", client, self.refused)
                return None
            self._buckets[client] = (tokens, now)
            self.paced += wait > 0
            if len(self._buckets) > 10_000:  # clients with a full bucket are forgotten
                full = max(b / r for b, r in self._sizes.values())
                self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < full}
            return wait

    def used(self, client: str) -> float:
        """How many turns ``client`` took lately (0 for a full bucket): ``PageGate``'s order."""
        with self._lock:
            tokens, when = self._buckets.get(client, (None, 0.0))
        if tokens is None:
            return 0.0
        burst, rate = self._sizes[" browser " in client]
        return max(0.0, burst - min(burst, tokens + (self._clock() - when) * rate))


class PageGate:
    """One page build at a time; of those waiting, the least busy client's goes first.

    A page's build holds the event loop anyway; builds queued behind each other are taken in
    the order of ``score`` (``PageLoads.used``: how many pages the client opened lately), then
    of arrival. Another person's page then waits for at most the build under way, never for a
    script's queue (issue 33, item 9). Used from the event loop only.
    """

    def __init__(self):
        self._busy = False
        self._waiting: list[tuple[float, int, object]] = []  # heap of (score, n, future)
        self._n = 0

    async def enter(self, score: float) -> None:
        """Wait for this build's turn."""
        import asyncio

        if not self._busy and not self._waiting:
            self._busy = True
            return
        turn = asyncio.get_running_loop().create_future()
        self._n += 1
        heapq.heappush(self._waiting, (score, self._n, turn))
        try:
            await turn
        except asyncio.CancelledError:  # the client left: pass the turn on if it was given
            if turn.done() and not turn.cancelled():
                self.leave()
            raise

    def leave(self) -> None:
        """Let the next build in line go (this one is done)."""
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self._busy = False


def guesses_per_day(free: int = FREE_TRIES, page_rate: float = PAGE_RATE) -> float:
    """Wrong join codes one address can try a day, at most, whatever its browsers do.

    A browser id costs a page load without a cookie (``PAGE_RATE`` a second from an address);
    each id gets ``free`` tries, then tries on its address's counter, whose doubling waits
    (``FIRST_WAIT`` up to ``MAX_WAIT``) let about one a hour through.
    """
    return 86_400 * page_rate * free + 86_400 / MAX_WAIT + free


def expected_days_to_find(codes: int, addresses: int = 1, tables: int = 1) -> float:
    """Days ``addresses`` guessing at the limit take, on average, to hit one of ``tables`` codes."""
    return codes / 2 / max(1, tables) / (max(1, addresses) * guesses_per_day())
