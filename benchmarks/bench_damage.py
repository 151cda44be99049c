"""Damage engine speed: ``damage_sweep`` against icepool, in the same run.

- ``damage_sweep()`` over the full default grid: dice 1..20 x walls 0..10 x boosts 0..5 x
  bonus 0..5 = 7,920 cells (the dice-0 row comes free).
- icepool 2.x on a 660-cell subset: dice 1..10, all walls, boosts 0..2, bonus 2 and 4, each
  cell its own icepool expression (each die is a Vector (over, liftable); levels =
  over + min(boosts, liftable)); its answers are checked against the sweep.
- Per-cell time of both and the ratio. Targets: ratio >= 100x, the whole sweep <= 0.4 s,
  40 dice with 5 boosts <= 5 ms, a 20-round ``down_by_round`` <= 20 ms.
- The exact fight (``fight_odds``: absorbing chain, means solved, no cut-off) as the damage
  page calls it: the ``Attack`` model's defaults, and the slowest settings its bounds allow
  (20 levels, 20 dice, 5 boosts, 20 Ki, target Ki 10 spent on every level, Normal Bracket
  with a bump, 30 rounds; Physical, Mental and Social with Sanity 15 behind Poise).

Run: ``python benchmarks/bench_damage.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import icepool
import numpy as np

from tb_playground.engine import (
    BUMP_STEPS,
    AttackProfile,
    damage_distribution,
    damage_sweep,
    down_by_round,
    fight_odds,
    vital_maximum,
)
from tb_playground.models import Attack


def best_of(call, repeats: int) -> float:
    """Fastest of ``repeats`` timed calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def model_fight(attack: Attack):
    """The ``fight_odds`` call the Attack model makes, as a timed closure."""
    profile = attack.profile()
    kwargs = {
        "vital": attack.rules.vital,
        "attacker_ki": attack.attacker_ki,
        "defender_ki": attack.target_ki,
        "ki_policy": attack.target_ki_policy,
        "variant_002": attack.ruleset.vitals_002,
        "bracket": attack.bracket,
        "bumps": min(attack.bracket_bumps, BUMP_STEPS[attack.bracket]),
        "sanity_max": vital_maximum(attack.target_defense_stat),
    }
    return lambda: fight_odds(profile, attack.target_levels, attack.rounds, **kwargs)


SLOWEST = {
    "dice_source": "gift",
    "gift_dice": 20,
    "boosts": 5,
    "bonus": 3,
    "attacker_ki": 20,
    "target_levels": 20,
    "target_ki": 10,
    "target_ki_policy": "all",
    "target_defense_stat": 10,
    "target_wall": 5,
    "element": 10,
    "rounds": 30,
    "bracket": "normal",
    "bracket_bumps": 1,
}


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
    fights = {"Attack() defaults": Attack()}
    for kind in ("physical", "mental", "social"):
        fights[f"slowest bounds, {kind}"] = Attack(kind=kind, **SLOWEST)
    for label, attack in fights.items():
        call = model_fight(attack)
        wall = statistics.median(best_of(call, 1) for _ in range(args.repeats))
        cpu_start = time.process_time()
        call()
        cpu = time.process_time() - cpu_start
        print(
            f"fight_odds exact, {label}: {wall * 1e3:.1f} ms wall (median), {cpu * 1e3:.1f} ms CPU"
        )


if __name__ == "__main__":
    main()
