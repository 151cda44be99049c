"""``damage_sweep`` against icepool on a sample of cells (an independent dice library)."""

from __future__ import annotations

import icepool
import numpy as np
import pytest

from tb_playground.engine import damage_sweep

TOL = 1e-12


def icepool_after(dice: int, wall: int, boosts: int, bonus: int, shift: int = 0) -> np.ndarray:
    """Levels when boosts are chosen after the roll: each die is (over, liftable)."""
    die = icepool.d10.map(lambda d: icepool.Vector((int(d > wall), int(wall - bonus < d <= wall))))
    levels = (dice @ die).map(lambda v: v[0] + min(boosts, v[1]) + shift)
    return _as_array(levels, dice + shift)


def icepool_before(dice: int, wall: int, boosts: int, bonus: int) -> np.ndarray:
    used = min(boosts, dice)
    plain = icepool.d10.map(lambda d: int(d > wall))
    boosted = icepool.d10.map(lambda d: int(d + bonus > wall))
    return _as_array(used @ boosted + (dice - used) @ plain, dice)


def _as_array(die, top: int) -> np.ndarray:
    out = np.zeros(top + 1)
    denominator = die.denominator()
    for outcome, quantity in die.items():
        out[int(outcome)] = quantity / denominator
    return out


WALLS = list(range(11))
BOOSTS = [0, 1, 2, 5]
BONUSES = [0, 2, 4, 10]


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(2024)


@pytest.mark.parametrize("timing", ["after", "before"])
def test_sample_of_sweep_cells(timing, rng):
    sweep = damage_sweep(12, WALLS, BOOSTS, BONUSES, timing)
    for _ in range(40):
        n = int(rng.integers(0, 13))
        w, b, o = (int(rng.integers(0, len(s))) for s in (WALLS, BOOSTS, BONUSES))
        args = (n, WALLS[w], BOOSTS[b], BONUSES[o])
        expected = icepool_after(*args) if timing == "after" else icepool_before(*args)
        assert np.abs(sweep[n, w, b, o, : n + 1] - expected).max() < TOL, (timing, args)


def test_sample_of_critical_cells(rng):
    klotho = 3
    sweep = damage_sweep(12, WALLS, BOOSTS, BONUSES, "after", critical=True, klotho=klotho)
    for _ in range(30):
        n = int(rng.integers(1, 13))
        w, b, o = (int(rng.integers(0, len(s))) for s in (WALLS, BOOSTS, BONUSES))
        automatic = (n + 1) // 2
        expected = icepool_after(
            n - automatic, WALLS[w] - klotho, BOOSTS[b], BONUSES[o], shift=automatic
        )
        assert np.abs(sweep[n, w, b, o][: n + 1] - expected).max() < TOL
