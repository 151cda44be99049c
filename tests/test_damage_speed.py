"""Speed targets of the damage engine (best of several runs, so a busy machine is forgiven)."""

from __future__ import annotations

import time

from tb_playground.engine import damage_distribution, damage_sweep


def _best(call, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def test_whole_default_sweep_under_four_tenths_of_a_second():
    assert _best(damage_sweep, runs=3) <= 0.4


def test_forty_dice_five_boosts_under_five_milliseconds():
    assert _best(lambda: damage_distribution(40, 6, 5, 3)) <= 0.005
    assert _best(lambda: damage_distribution(40, 6, 5, 3, timing="before")) <= 0.005
    assert _best(lambda: damage_distribution(40, 6, 5, 3, critical=True, klotho=4)) <= 0.005
