"""The chance to win against fights the live table plays itself (issue 32, item 17).

Run: python benchmarks/bench_table_played.py [--fights N] [--through fold|table]
[--only NAME] [--seed S]. For every example encounter (the warehouse, the party against the
Nightmare, the warehouse with the Nightmare added, Ronan against a bear and a dog) it plays N
fights at the table (``table_played.play_at_table``, default 1,000, ``--through fold``: the
table's own ``decide`` and fold without its file, several times faster than ``Table.apply``,
which ``--through table`` uses), simulates 200,000 (``lab.simulate``, the same policies), and
prints per side the table's share with its 95% and 99.9% Wilson intervals, the simulator's
chance, and whether it lies inside; then the mean rounds of each and the seconds taken.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from tb_playground.lab import simulate
from tb_playground.models.roster import build_encounter
from tb_playground.table_played import play_at_table

ENCOUNTERS = {
    "warehouse": ("warehouse.encounter.yaml", [], []),
    "party vs Nightmare": (
        "",
        ["ronan.json", "the_brick.json", "nerdy_hacker.yaml"],
        ["nightmare.yaml"],
    ),
    "warehouse + Nightmare": ("warehouse.encounter.yaml", [], ["nightmare.yaml"]),
    "Ronan vs bear, dog": ("", ["ronan.json"], ["grizzly_bear.yaml", "guard_dog.yaml"]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=1000)
    parser.add_argument("--through", choices=("fold", "table"), default="fold")
    parser.add_argument("--only", default="", help="one encounter's name")
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    names = [args.only] if args.only else list(ENCOUNTERS)
    for name in names:
        enc = build_encounter(*ENCOUNTERS[name])
        start = time.perf_counter()
        played = play_at_table(enc, fights=args.fights, seed=args.seed, through=args.through)
        took = time.perf_counter() - start
        sim = simulate(enc, fights=200_000, seed=args.seed)
        print(f"{name}: {args.fights} fights at the table ({args.through}), {took:.0f} s; "
              f"refused commands {played.refused}, draws {played.draws}")  # fmt: skip
        for side in played.sides:
            lo95, hi95 = played.interval(side, 1.96)
            lo, hi = played.interval(side, 3.29)
            p = sim.p_win[side]
            inside = "inside" if lo95 <= p <= hi95 else "inside 99.9%" if lo <= p <= hi else "OUT"
            print(
                f"  {side:6s} table {played.p_win(side):7.2%} (95% {lo95:.2%}..{hi95:.2%}; "
                f"99.9% {lo:.2%}..{hi:.2%})  simulator {p:7.2%}  {inside}"
            )
        print(
            f"  rounds: table {np.mean(played.rounds):.2f}, "
            f"simulator {sim.rounds_taken.mean():.2f}; load average {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
