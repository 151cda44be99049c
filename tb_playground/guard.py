"""Slow guessing of join codes and the GM key; harden the served pages (issue 21).

Panel-free. The limits and the figures behind them: docs/notes/0009-combat-panel.md,
"Issue 21: guessing".
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)

#: Wrong tries an address may make before it has to wait.
FREE_TRIES = 5
#: The first wait (seconds); it doubles with every wrong try after that, up to ``MAX_WAIT``.
FIRST_WAIT = 60.0
MAX_WAIT = 3600.0
#: An address that made no wrong try for this long starts afresh (seconds).
FORGET_AFTER = 24 * 3600.0
#: Wrong tries per ``TOTAL_WINDOW`` seconds from all addresses together.
TOTAL_TRIES = 20
TOTAL_WINDOW = 60.0


class SlowDownError(ValueError):
    """A try refused unread: too many wrong ones; ``wait`` is the seconds left."""

    def __init__(self, what: str, wait: float):
        self.wait = wait
        super().__init__(f"Too many wrong {what}s: try again in {max(1, round(wait))} s.")


class Guard:
    """Counts wrong tries per client address and in total; says how long to wait.

    Each address may be wrong ``free`` times; after its n-th wrong try (n >= ``free``) it
    waits ``first_wait * 2 ** (n - free)`` seconds (at most ``max_wait``) before the next is
    read. All addresses together may be wrong ``total`` times per ``window`` seconds; beyond
    that every try waits until the oldest leaves the window. A right try is always read when
    its address is not waiting: the right code from another address still works.

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
        total: int = TOTAL_TRIES,
        window: float = TOTAL_WINDOW,
        forget_after: float = FORGET_AFTER,
    ):
        self.what = what
        self._clock = clock
        self._free, self._first, self._max = free, first_wait, max_wait
        self._total, self._window, self._forget = total, window, forget_after
        self._lock = threading.Lock()
        self._addresses: dict[str, tuple[int, float]] = {}  # address: (wrong tries, last)
        self._recent: deque[float] = deque()  # times of the wrong tries in the window

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try is read (0: now)."""
        now = self._clock()
        with self._lock:
            self._tidy(now)
            left = 0.0
            if len(self._recent) >= self._total:
                left = self._recent[0] + self._window - now
            wrong, last = self._addresses.get(address, (0, now))
            if wrong >= self._free:
                pause = min(self._max, self._first * 2 ** (wrong - self._free))
                left = max(left, last + pause - now)
            return max(0.0, left)

    def check(self, address: str) -> None:
        """Raise ``SlowDownError`` when ``address`` must wait (the try is then not read)."""
        left = self.wait(address)
        if left > 0:
            log.warning("%s try from %s refused unread: %.0f s to wait", self.what, address, left)
            raise SlowDownError(self.what, left)

    def failed(self, address: str) -> None:
        """Count one wrong try from ``address`` (and log it)."""
        now = self._clock()
        with self._lock:
            self._tidy(now)
            wrong = self._addresses.get(address, (0, now))[0] + 1
            self._addresses[address] = (wrong, now)
            self._recent.append(now)
            total = len(self._recent)
        log.warning("wrong %s from %s (%d from it, %d from all in the last minute)",
                    self.what, address, wrong, total)  # fmt: skip

    def _tidy(self, now: float) -> None:
        while self._recent and self._recent[0] <= now - self._window:
            self._recent.popleft()
        if len(self._addresses) > 1000:  # addresses quiet for a day start afresh
            self._addresses = {
                a: (n, t) for a, (n, t) in self._addresses.items() if now - t < self._forget
            }
        else:
            for a in [a for a, (_, t) in self._addresses.items() if now - t >= self._forget]:
                del self._addresses[a]


#: Pages an address may open at once, and how many more per second after that (``PageLoads``).
#: After the burst, one page every 10 s: a script looping on /odds from one address then costs
#: the loop about 2.5% of its time (0.2-0.3 s a page), and other people's pages keep a p95
#: under 250 ms (``benchmarks/bench_loads.py``; one page every 4 s left it at 300-330 ms). The
#: burst refills in 100 s: a person clicking through every page twice still never waits.
PAGE_BURST = 10
PAGE_RATE = 0.1


def page_burst_from_env(environ=None) -> int:
    """The burst of pages an address may open: ``TB_PAGE_BURST`` if set, else ``PAGE_BURST``.

    A test suite or a classroom behind one address opens many pages at once; the steady rate
    after the burst stays ``PAGE_RATE``.

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
    """How many pages each client address may open: a burst, then a steady rate (issue 21).

    Each page opened builds a session on the server's one event loop; a script looping plain
    GETs from a few clients kept it busy and left everyone else's page waiting for seconds. An
    address may open ``burst`` pages at once and ``rate`` more per second; beyond that the
    server answers "too many" at once, at almost no cost (``serve_setup.limit_page_loads``).
    """

    def __init__(
        self,
        burst: int = PAGE_BURST,
        rate: float = PAGE_RATE,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._burst, self._rate, self._clock = burst, rate, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when)
        self.refused = 0

    def allow(self, address: str) -> bool:
        """Whether ``address`` may open a page now (and count it)."""
        now = self._clock()
        with self._lock:
            tokens, when = self._buckets.get(address, (float(self._burst), now))
            tokens = min(float(self._burst), tokens + (now - when) * self._rate)
            if tokens < 1.0:
                self._buckets[address] = (tokens, now)
                self.refused += 1
                if self.refused % 100 == 1:
                    log.warning("too many pages opened from %s (%d refused)", address, self.refused)
                return False
            self._buckets[address] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:  # addresses with a full bucket are forgotten
                full = self._burst / self._rate
                self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < full}
            return True


def expected_days_to_find(codes: int, tables: int, per_minute: int = TOTAL_TRIES) -> float:
    """Days an attacker at the total limit takes, on average, to hit any of ``tables`` codes."""
    return codes / max(1, tables) / per_minute / (60 * 24)
