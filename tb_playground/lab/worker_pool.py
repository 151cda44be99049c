"""The chance to win after every table event, worked out off the caller's thread (issue 23).

``WinChanceRuns.submit(table)`` plays ``win_from_here`` for the state as it is now in a thread,
or in one worker process started once ("spawn", at ``WORKER_NICE`` lower CPU priority), so the
simulation never competes with the server's own thread for the interpreter. One run at a time: a
newer event cancels the run in progress within one acting slot of the simulator (one turn in
the round's order: RULES.md "Combat round"); each ``WinChanceRun`` records its result, its error
or its cancellation. The figures, and the interference a run makes beside a server's work:
docs/notes/0010-lab.md (``benchmarks/bench_win.py --interference``).

No Panel import: a page calls ``WinChanceRuns`` from a worker thread.
"""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Callable

from .from_table import state_of
from .runs import RunCancelledError
from .win_chance import WinChance
from .win_from_here import win_from_here


class WinChanceRun:
    """One ``win_from_here`` in a thread or a worker process (``WinChanceRuns.submit``)."""

    def __init__(self, state: dict, fights: int, seed, **policies):
        self.state = state
        self.version = int(state.get("version", 0))
        self.fights = fights
        self.seed = seed
        self.policies = policies
        self.result: WinChance | None = None
        self.error = ""
        self.cancelled = False
        self.started = time.monotonic()
        self.finished: float | None = None
        self._stop = threading.Event()
        self._settled = threading.Event()
        self._thread: threading.Thread | None = None
        self._stop_hook: Callable | None = None  # a worker process's way to stop

    def play(self, done: Callable | None = None) -> None:
        """Work the chance out in this thread; ``done(run)`` when it finishes (not cancelled)."""
        try:
            self.result = win_from_here(
                self.state, self.fights, self.seed, cancel=self._stop, **self.policies
            )
        except RunCancelledError:
            self.cancelled = True
        except (ValueError, TypeError, KeyError) as err:
            self.error = str(err)
        self._settle(done)

    def _settle(self, done: Callable | None) -> None:
        self.finished = time.monotonic()
        if done is not None and not self.cancelled:
            done(self)
        self._settled.set()

    def _from_worker(self, future, done: Callable | None) -> None:
        try:
            kind, value = future.result()
        except Exception as err:  # the worker died: say so, never hang
            kind, value = "error", f"the worker process stopped: {err}"
        if kind == "result":
            self.result = value
        elif kind == "cancelled":
            self.cancelled = True
        else:
            self.error = value
        self._settle(done)

    def cancel(self) -> None:
        """Stop at the simulator's next acting slot."""
        self._stop.set()
        if self._stop_hook is not None:
            self._stop_hook()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the run has finished (its result, error or cancellation recorded)."""
        return self._settled.wait(timeout)

    @property
    def elapsed(self) -> float:
        """Seconds from the start to the end (or to now)."""
        return (self.finished or time.monotonic()) - self.started


#: In a worker process: the ticket of the newest run asked for (shared memory).
_NEWEST = None


#: How much lower the worker process's CPU priority is than the server's (``os.nice``): on a
#: busy machine the pages' fan-out goes first, the chance a little later.
WORKER_NICE = 10


#: Seconds between a worker's looks at whether the server that started it is still there.
PARENT_CHECK = 1.0


def _leave_with_parent(parent: int) -> None:
    """End this worker once the process that started it is gone.

    A pool's worker holds both ends of its call queue, so it never reads an end of file: a
    server killed outright (a crash, ``kill -9``, a laptop's power) left its worker running
    for ever, one more after each restart (found by the test run, note 0024).
    """
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != parent:
            os._exit(0)


def _worker_start(newest, parent: int) -> None:
    global _NEWEST
    _NEWEST = newest
    threading.Thread(
        target=_leave_with_parent, args=(parent,), name="parent-watch", daemon=True
    ).start()
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: the same priority as the server
        pass


def _play_in_worker(state: dict, fights: int, seed, ticket: int, policies: dict):
    """``win_from_here`` in a worker process; it stops when a newer ticket is asked for."""
    try:
        chance = win_from_here(
            state, fights, seed, cancel=lambda: _NEWEST.value != ticket, **policies
        )
    except RunCancelledError:
        return "cancelled", None
    except (ValueError, TypeError, KeyError) as err:
        return "error", str(err)
    return "result", chance


class WinChanceRuns:
    """The chance to win after every event, one run at a time: a newer one cancels the last.

    Parameters
    ----------
    fights, seed : int
        As ``win_from_here``.
    on_result : callable, optional
        ``on_result(run)``, called (in a thread of its own, never the caller's) when the
        newest run finishes (its ``result`` or ``error``); a page schedules its update on its
        own loop from there.
    process : bool
        Play the runs in one worker process (started once, "spawn") instead of a thread, so
        the simulation never competes with the server's own thread for the interpreter (a
        script that makes one needs the ``if __name__ == "__main__":`` guard).
    **policies
        ``win_from_here``'s policies.
    """

    def __init__(
        self,
        fights: int = 20_000,
        seed=0,
        on_result: Callable | None = None,
        *,
        process: bool = False,
        **policies,
    ):
        self.fights = fights
        self.seed = seed
        self.on_result = on_result
        self.policies = policies
        self.current: WinChanceRun | None = None
        self.latest: WinChanceRun | None = None
        self._lock = threading.Lock()
        self._pool = None
        self._newest = None
        if process:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            self._newest = context.Value("q", 0, lock=False)
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=context,
                initializer=_worker_start,
                initargs=(self._newest, os.getpid()),
            )

    def _done(self, run: WinChanceRun) -> None:
        with self._lock:
            if self.latest is None or run.version >= self.latest.version:
                self.latest = run
            current = run is self.current
        if self.on_result is not None and current:  # a newer run's answer is coming
            self.on_result(run)

    def _bump(self) -> int:
        self._newest.value += 1
        return int(self._newest.value)

    def submit(self, table_or_state, fights: int | None = None) -> WinChanceRun:
        """Start a run for the state as it is now (copied here); cancel the one in progress.

        ``fights``: this run's, if not the runs' own (a momentum's past points play fewer).
        """
        state = copy.deepcopy(state_of(table_or_state))
        fights = self.fights if fights is None else int(fights)
        run = WinChanceRun(state, fights, self.seed, **self.policies)
        with self._lock:
            if self.current is not None:
                self.current.cancel()
            self.current = run
            ticket = self._bump() if self._pool is not None else 0
        if self._pool is not None:
            run._stop_hook = lambda: ticket == self._newest.value and self._bump()
            try:
                future = self._pool.submit(
                    _play_in_worker, state, fights, self.seed, ticket, self.policies
                )
            except RuntimeError as err:  # the worker process could not start or died
                run.error = f"the worker process stopped: {err}"
                run._settle(self._done)
                return run
            future.add_done_callback(lambda f: run._from_worker(f, self._done))
            return run
        run._thread = threading.Thread(
            target=run.play, args=(self._done,), name="win-chance", daemon=True
        )
        run._thread.start()
        return run

    def cancel(self) -> None:
        """Stop the run in progress, if any."""
        with self._lock:
            if self.current is not None:
                self.current.cancel()

    def close(self) -> None:
        """Stop the run in progress and the worker process, if any."""
        self.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
