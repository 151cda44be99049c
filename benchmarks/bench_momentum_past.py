"""Benchmark of the momentum's past (issue 23, items 2-3): charting the events before a page.

Run: python benchmarks/bench_momentum_past.py [events] [fights]. Plays bench_replay.py's seeded
fight of six to ``events`` events (50), then a ``Momentum`` (one worker process, as the server
runs it; ``fights`` per live point, 20,000, and a quarter of that per past point) starts
watching: prints when the live point came, when the past was filled, how many past events were
worked out and how many skipped (nothing the fight reads changed), and the time of each.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_replay import play

from tb_playground.lab.momentum import Momentum
from tb_playground.table import TableStore


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    fights = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    with tempfile.TemporaryDirectory() as tmp:
        store = TableStore(Path(tmp) / "bench.sqlite")
        table = play(store, events)
        m = Momentum(table, fights=fights, seed=0, process=True)
        heard = threading.Event()
        # the worker process starts first (spawn), as it has on a server already running
        m._ensure_runs().submit({**table.state, "momentum_past": True}, 10).wait(120)
        start = time.perf_counter()
        m.watch(lambda _what: heard.set())
        live = None
        while m.filling or m.working() or live is None:
            if live is None and m.latest() is not None:
                live = time.perf_counter() - start
            heard.wait(0.05)
            heard.clear()
        total = time.perf_counter() - start
        past = [v for v, who in m.asked if who == "past"]
        points = [p for p in m.series() if p.version < table.version]
        print(f"{table.version} events, {len(table.state['ids'])} combatants, {fights:,} fights "
              f"live, {m.past_fights:,} per past point")  # fmt: skip
        print(f"live point after {live:.2f} s; the past filled after {total:.2f} s")
        each = (total - live) / max(len(past), 1)
        print(f"past events worked out: {len(past)} ({len(points)} points), skipped: "
              f"{table.version - 1 - len(past)}; {each:.3f} s each")  # fmt: skip
        m.close()
        store.close()


if __name__ == "__main__":
    main()
