"""Speed of the exact Core Roll engine against icepool, on the full check table.

The table is every Target Number -1..25 x net situational Advantage -1..1 x training tier
0..4, four outcomes per cell (critical, ordinary success, failure, catastrophe). Each tier's
rules come from ``tier_rules`` (its extra Advantage source, critical band and Master reroll).

Computed three ways in one run, and checked to agree to 1e-12:

- the engine, vectorized: one ``success_table`` call per (tier, Advantage);
- the engine, one ``roll_odds`` call per cell after ``_roll_odds.cache_clear()`` (cold cache);
- icepool 2.x, building the kept-total dice and mapping totals to outcomes per cell.

Also times one cached ``check_odds`` call with ``timeit``. Targets: the vectorized engine at
least 50x faster than icepool; a cached ``check_odds`` call at most 20 us (median).

Run: ``python benchmarks/bench_engine.py [--repeats 15]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import timeit

import icepool
import numpy as np

from tb_playground.engine import check_odds, roll_odds, success_table, tier_rules
from tb_playground.engine.core_roll import _roll_odds

TARGETS = np.arange(-1, 26)
ADVANTAGES = (-1, 0, 1)
TIERS = range(5)
SHAPE = (len(TIERS), len(ADVANTAGES), TARGETS.size, 4)
RATIO_TARGET = 50.0
CACHED_CALL_TARGET_US = 20.0


def engine_vectorized() -> np.ndarray:
    """The full table from one ``success_table`` call per tier and Advantage."""
    table = np.empty(SHAPE)
    for i, tier in enumerate(TIERS):
        rules = tier_rules(tier)
        for j, advantage in enumerate(ADVANTAGES):
            table[i, j] = success_table(
                TARGETS,
                advantage + rules.advantage_sources,
                rules.crit_max,
                rules.reroll_catastrophe,
            )
    return table


def engine_cold() -> np.ndarray:
    """The full table from one ``roll_odds`` call per cell, starting from an empty cache."""
    _roll_odds.cache_clear()
    table = np.empty(SHAPE)
    for i, tier in enumerate(TIERS):
        rules = tier_rules(tier)
        for j, advantage in enumerate(ADVANTAGES):
            for k, target in enumerate(TARGETS.tolist()):
                odds = roll_odds(
                    target,
                    advantage + rules.advantage_sources,
                    rules.crit_max,
                    rules.reroll_catastrophe,
                )
                table[i, j, k] = (
                    odds.p_critical,
                    odds.p_success - odds.p_critical,
                    odds.p_failure,
                    odds.p_catastrophe,
                )
    return table


def _kept_die(sign: int) -> icepool.Die:
    if sign > 0:
        return icepool.d10.pool(3).lowest(2).sum()
    if sign < 0:
        return icepool.d10.pool(3).highest(2).sum()
    return 2 @ icepool.d10


def _outcome_rule(target: int, crit_max: int, reroll: bool, reroll_die: icepool.Die):
    """Kept total -> outcome name (or, for a Master's 20, the die of the reroll's outcome)."""

    def outcome(total):
        if total <= crit_max:
            return "critical"
        if total == 20:
            return reroll_die if reroll else "catastrophe"
        return "success" if total <= target else "failure"

    return outcome


def icepool_table() -> np.ndarray:
    """The full table with icepool: kept-total dice mapped to outcomes, cell by cell."""
    dice = {sign: _kept_die(sign) for sign in (-1, 0, 1)}
    names = ("critical", "success", "failure", "catastrophe")
    table = np.empty(SHAPE)
    for i, tier in enumerate(TIERS):
        rules = tier_rules(tier)
        for j, advantage in enumerate(ADVANTAGES):
            net = advantage + rules.advantage_sources
            die = dice[(net > 0) - (net < 0)]
            reroll = die.map(lambda again: "catastrophe" if again == 20 else "failure")
            for k, target in enumerate(TARGETS.tolist()):
                outcome = _outcome_rule(target, rules.crit_max, rules.reroll_catastrophe, reroll)
                outcomes = die.map(outcome)
                table[i, j, k] = [float(outcomes.probability(name)) for name in names]
    return table


def timed(func, repeats: int) -> tuple[float, float, np.ndarray]:
    """Best and median wall time of ``repeats`` runs of ``func``, and its last result."""
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def cached_check_odds_us(calls: int = 20_000, repeats: int = 7) -> float:
    """Median time of one cached ``check_odds`` call, in microseconds."""
    check_odds(6, 5, 2, 0)  # warm the cache
    runs = timeit.repeat(lambda: check_odds(6, 5, 2, 0), number=calls, repeat=repeats)
    return statistics.median(runs) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs per timing")
    args = parser.parse_args()

    best_vec, t_vec, vec = timed(engine_vectorized, args.repeats)
    best_cold, t_cold, cold = timed(engine_cold, args.repeats)
    best_ice, t_ice, ice = timed(icepool_table, args.repeats)
    per_call = cached_check_odds_us()

    np.testing.assert_allclose(vec, ice, rtol=0, atol=1e-12)
    np.testing.assert_allclose(cold, ice, rtol=0, atol=1e-12)
    assert np.allclose(vec.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    deviation = max(np.abs(vec - ice).max(), np.abs(cold - ice).max())

    cells = int(np.prod(SHAPE[:3]))
    ratio_vec = t_ice / t_vec
    print(f"Full check table: {cells} cells (TN -1..25 x Advantage -1..1 x tier 0..4), 4 outcomes")
    print(f"icepool {icepool.__version__}; {args.repeats} runs of each; ratios of medians")
    print()
    print(f"{'method':<40}{'best':>11}{'median':>11}{'icepool / this':>16}")
    rows = [
        ("engine, vectorized success_table", best_vec, t_vec),
        ("engine, roll_odds per cell, cold cache", best_cold, t_cold),
        ("icepool", best_ice, t_ice),
    ]
    for label, best, median in rows:
        print(f"{label:<40}{best * 1e3:>8.2f} ms{median * 1e3:>8.2f} ms{t_ice / median:>15.1f}x")
    print()
    print(f"one cached check_odds call (median of 7 x 20000 calls): {per_call:.2f} us")
    print(f"max |engine - icepool| over the table: {deviation:.1e} (must be <= 1e-12)")
    print()
    verdict = {True: "met", False: "MISSED"}
    print(
        f"target: vectorized >= {RATIO_TARGET:.0f}x faster than icepool ... "
        f"{verdict[ratio_vec >= RATIO_TARGET]} ({ratio_vec:.0f}x)"
    )
    print(
        f"target: cached check_odds <= {CACHED_CALL_TARGET_US:.0f} us .............. "
        f"{verdict[per_call <= CACHED_CALL_TARGET_US]} ({per_call:.2f} us)"
    )
    print()
    print("P(success) at Advantage 0, by tier (rules/004's published TNs):")
    print("tier  " + "".join(f"{f'TN {t}':>8}" for t in (5, 8, 11, 14, 17)))
    columns = [int(np.flatnonzero(TARGETS == t)[0]) for t in (5, 8, 11, 14, 17)]
    for i, tier in enumerate(TIERS):
        row = vec[i, 1, columns, :2].sum(axis=-1)
        print(f"{tier:<6}" + "".join(f"{p:>8.1%}" for p in row))


if __name__ == "__main__":
    main()
