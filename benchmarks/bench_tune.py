"""Benchmark of the encounter tuner (issue 35, item 2: ``lab.tune.tune_encounter``).

Run: python benchmarks/bench_tune.py [--targets 0.2 0.5 ...] [--fights N] [--max-runs K].
Tunes the example roster's party (Ronan, the Brick, the Nerdy Hacker: 3 characters) against a
pool of 4 creatures (guard dog, Captain Vance, the Nightmare, the grizzly bear) for each
target, and prints per target the wall and CPU seconds, the ``simulate`` calls made, the best
lineup, its chance and an independent check (another seed, 4,000 fights), with the load
average (the machine may be shared: the CPU seconds are the fairer figure then).
Target: <= 10 s a target on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import time

from tb_playground.lab import simulate
from tb_playground.lab.prepare import plain_encounter
from tb_playground.lab.tune import tune_encounter
from tb_playground.models.files import load
from tb_playground.models.roster import roster_dir

PARTY = ("ronan.json", "the_brick.json", "nerdy_hacker.yaml")
POOL = ("guard_dog.yaml", "guard_captain.yaml", "nightmare.yaml", "grizzly_bear.yaml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=float, nargs="+", default=[0.2, 0.4, 0.6, 0.8, 0.95])
    parser.add_argument("--fights", type=int, default=4000)
    parser.add_argument("--max-runs", type=int, default=12)
    args = parser.parse_args()
    folder = roster_dir()
    party = [load(folder / name) for name in PARTY]
    pool = [load(folder / name) for name in POOL]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("target  wall s  CPU s  runs  reached  p_win   check   best lineup")
    for target in args.targets:
        wall, cpu = time.perf_counter(), time.process_time()
        result = tune_encounter(party, pool, target, fights=args.fights, max_runs=args.max_runs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best = result.best
        check = simulate(plain_encounter(best.encounter), 4000, 987).p_win["Party"]
        print(
            f"{target:6.2f}  {wall:6.1f}  {cpu:5.1f}  {result.runs:4d}  {str(result.reached):7s}"
            f"  {best.p_win:5.3f}  {check:5.3f}   {best.describe()}"
        )


if __name__ == "__main__":
    main()
