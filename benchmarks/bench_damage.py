"""Damage engine speed: ``damage_sweep`` against icepool, in the same run.

- ``damage_sweep()`` over the full default grid: dice 1..20 x walls 0..10 x boosts 0..5 x
  bonus 0..5 = 7,920 cells (the dice-0 row comes free).
- icepool 2.x on a 660-cell subset: dice 1..10, all walls, boosts 0..2, bonus 2 and 4, each
  cell its own icepool expression (each die is a Vector (over, liftable); levels =
  over + min(boosts, liftable)); its answers are checked against the sweep.
- Per-cell time of both and the ratio. Targets: ratio >= 100x, the whole sweep <= 0.4 s,
  40 dice with 5 boosts <= 5 ms, a 20-round ``down_by_round`` <= 20 ms.

Run: ``python benchmarks/bench_damage.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import icepool
import numpy as np

from tb_playground.engine import (
    AttackProfile,
    damage_distribution,
    damage_sweep,
    down_by_round,
    fight_odds,
)


def best_of(call, repeats: int) -> float:
    """Fastest of ``repeats`` timed calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def icepool_cell(dice: int, wall: int, boosts: int, bonus: int) -> np.ndarray:
    die = icepool.d10.map(lambda d: icepool.Vector((int(d > wall), int(wall - bonus < d <= wall))))
    levels = (dice @ die).map(lambda v: v[0] + min(boosts, v[1]))
    out = np.zeros(dice + 1)
    denominator = levels.denominator()
    for outcome, quantity in levels.items():
        out[int(outcome)] = quantity / denominator
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    damage_sweep()  # warm imports and caches
    sweep_s = best_of(damage_sweep, args.repeats)
    sweep_cells = 20 * 11 * 6 * 6
    sweep = damage_sweep()

    subset = [
        (n, w, b, o) for n in range(1, 11) for w in range(11) for b in range(3) for o in (2, 4)
    ]
    worst = 0.0
    start = time.perf_counter()
    for n, w, b, o in subset:
        answer = icepool_cell(n, w, b, o)
        worst = max(worst, float(np.abs(answer - sweep[n, w, b, o, : n + 1]).max()))
    icepool_s = time.perf_counter() - start

    per_sweep = sweep_s / sweep_cells
    per_icepool = icepool_s / len(subset)
    ratio = per_icepool / per_sweep

    forty_s = best_of(lambda: damage_distribution(40, 6, 5, 3), args.repeats * 4)
    damage = damage_distribution(6, 5, 2, 3)
    rounds_s = best_of(lambda: down_by_round(12, 0.6, damage, 20), args.repeats * 4)
    attack = AttackProfile(6, 5, 0.55, 0.028, boosts=2, bonus=3, klotho=3)
    fight_s = statistics.median(
        best_of(lambda: fight_odds(attack, 8, 20, attacker_ki=12), 1) for _ in range(args.repeats)
    )

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    print(f"icepool {icepool.__version__}, numpy {np.__version__}")
    print(
        f"damage_sweep(): {sweep_cells} cells in {sweep_s * 1e3:.2f} ms "
        f"-> {per_sweep * 1e6:.3f} us/cell   [target <= 400 ms: {verdict(sweep_s <= 0.4)}]"
    )
    print(
        f"icepool: {len(subset)} cells in {icepool_s * 1e3:.0f} ms "
        f"-> {per_icepool * 1e6:.1f} us/cell   (max |difference| vs sweep {worst:.1e})"
    )
    print(f"ratio per cell: {ratio:,.0f}x faster   [target >= 100x: {verdict(ratio >= 100)}]")
    print(
        f"damage_distribution(40 dice, 5 boosts): {forty_s * 1e3:.3f} ms   "
        f"[target <= 5 ms: {verdict(forty_s <= 0.005)}]"
    )
    print(
        f"down_by_round(20 rounds): {rounds_s * 1e3:.3f} ms   "
        f"[target <= 20 ms: {verdict(rounds_s <= 0.020)}]"
    )
    print(f"fight_odds(crits, boosts while Ki lasts, 20 rounds + means): {fight_s * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
