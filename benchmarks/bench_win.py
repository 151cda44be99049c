"""Benchmark of the chance to win from here (issue 23, item 1: ``lab.win_from_here``).

Run: python benchmarks/bench_win.py [--fights N] [--repeat K]. Plays the warehouse fight (three
characters against two guard dogs and Captain Vance: 6 combatants) at a live table up to a
round under way (Initiative, declarations with a bump, the reveal, an attack rolled and ended),
then times ``win_from_here`` after that event: 20,000 fights by default, the median of
``--repeat`` runs, split into building the simulator's tables (``prepare``) and playing the
fights, with the CPU seconds and the load average (the machine may be shared).
Target: <= 1 s on 2 cores after an event. ``--interference`` also times a small piece of Python
work (a stand-in for the server's fan-out) alone, while runs go on in a thread, and while they go
on in a worker process (``WinChanceRuns(process=True)``): median, p95 and max.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from tb_playground.lab import WinChanceRuns, win_from_here
from tb_playground.lab.from_table import opening
from tb_playground.lab.prepare import prepare
from tb_playground.models.roster import build_encounter
from tb_playground.table import TableStore


def warehouse_table(directory: Path):
    """The warehouse fight at a live table, a few events into round 1."""
    store = TableStore(directory / "bench.sqlite")
    table = store.create("Night shift", build_encounter("warehouse.encounter.yaml", [], []), seed=4)
    table.apply({"type": "start"})
    for cid in table.state["ids"]:
        bracket, bumps = ("normal", 1) if cid == "ronan" else ("normal", 0)
        table.apply({"type": "declare", "combatant": cid, "bracket": bracket, "bumps": bumps})
    up = table.state["up"]
    cs = table.state["combatants"]
    foe = next(c for c in table.state["ids"] if cs[c]["side"] != cs[up]["side"])
    table.apply({"type": "attack", "attacker": up, "target": foe})
    while table.state["pending"] is not None:
        step = table.state["pending"]["step"]
        if step == "boost":
            table.apply({"type": "boost", "dice": []})
        elif step == "prevent":
            table.apply({"type": "prevent", "ki": 0})
        else:
            table.apply({"type": "roll"})
    table.apply({"type": "end_turn"})
    return store, table


def _work() -> float:
    """A few milliseconds of plain Python (dict and string work), timed."""
    start = time.perf_counter()
    seen: dict = {}
    for i in range(20_000):
        seen[i % 97] = str(i)
    return time.perf_counter() - start


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms, "
            f"max {ordered[-1] * 1e3:.1f} ms ({len(ordered)} pieces)")  # fmt: skip


def interference(table, fights: int, runs_count: int = 5) -> None:
    """The small work's latency alone, beside thread runs, beside process runs."""
    print(f"a small piece of Python work, alone: {_summary([_work() for _ in range(200)])}")
    for process in (False, True):
        runs = WinChanceRuns(fights=fights, process=process)
        runs.submit(table).wait()  # start the worker (process) and warm it
        times = []
        for _ in range(runs_count):
            run = runs.submit(table)
            while not run.wait(0):
                times.append(_work())
        runs.close()
        where = "a worker process" if process else "a thread"
        print(f"  while runs go on in {where}: {_summary(times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--interference", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store, table = warehouse_table(Path(tmp))
        state = table.state
        print(f"warehouse fight, {len(state['ids'])} combatants, after event {table.version} "
              f"(round {state['round']}, {state['phase']}, {state['up']} up)")  # fmt: skip
        win_from_here(table, fights=1_000, seed=0)  # warm the imports and caches
        walls, cpus, preps = [], [], []
        chance = None
        for k in range(args.repeat):
            start = time.perf_counter()
            encounter, _ = opening(state)
            prepare(encounter)
            preps.append(time.perf_counter() - start)
            start, cpu = time.perf_counter(), time.process_time()
            chance = win_from_here(table, fights=args.fights, seed=k)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        if args.interference:
            interference(table, args.fights)
        store.close()
    wall = statistics.median(walls)
    spread = f"min {min(walls):.3f}, max {max(walls):.3f}"
    print(f"win_from_here, {args.fights:,} fights: {wall:.3f} s wall (median of {args.repeat}; "
          f"{spread}), {statistics.median(cpus):.3f} s CPU")  # fmt: skip
    print(f"  of which building the tables (prepare): {statistics.median(preps):.3f} s")
    low, high = chance.p_win_interval
    print(f"  P(party wins) {chance.p_win:.3f} ({low:.3f} to {high:.3f}), "
          f"rounds left {chance.rounds_left:.2f}")  # fmt: skip
    print(f"target <= 1 s: {'met' if wall <= 1.0 else 'NOT met'}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
