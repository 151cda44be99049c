"""The damage engine against brute-force enumeration of every d10 face (up to 6 dice)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from brute_dice import as_float, brute_damage

from tb_playground.engine import damage_distribution, damage_sweep, damage_with_ki

TOL = 1e-12

SMALL_GRID = list(
    itertools.product(
        range(0, 5),  # dice
        range(0, 11),  # wall
        (0, 1, 2, 5),  # boosts
        (0, 1, 3, 6, 10),  # bonus
    )
)


@pytest.mark.parametrize("timing", ["after", "before"])
def test_every_cell_up_to_four_dice(timing):
    for dice, wall, boosts, bonus in SMALL_GRID:
        exact = as_float(brute_damage(dice, wall, boosts, bonus, timing))
        joint = damage_with_ki(dice, wall, boosts, bonus, timing)
        assert np.abs(joint - exact).max() < TOL, (dice, wall, boosts, bonus, timing)
        levels = damage_distribution(dice, wall, boosts, bonus, timing)
        assert np.abs(levels - exact.sum(axis=1)).max() < TOL


@pytest.mark.parametrize("timing", ["after", "before"])
@pytest.mark.parametrize("klotho", [0, 2, 4, 10])
def test_critical_hits_up_to_six_dice(timing, klotho):
    # a critical rolls only floor(dice / 2) dice, so 6 dice enumerate 10**3 rolls
    for dice, wall, boosts, bonus in itertools.product(
        range(0, 7), range(0, 11), (0, 1, 3), (0, 2, 5)
    ):
        exact = as_float(brute_damage(dice, wall, boosts, bonus, timing, True, klotho))
        joint = damage_with_ki(dice, wall, boosts, bonus, timing, True, klotho)
        assert np.abs(joint - exact).max() < TOL, (dice, wall, boosts, bonus, timing, klotho)


@pytest.mark.parametrize(
    ("dice", "wall", "boosts", "bonus", "timing"),
    [
        (5, 6, 2, 3, "after"),
        (5, 9, 3, 4, "before"),
        (5, 3, 5, 2, "after"),
        (6, 7, 1, 4, "after"),
        (6, 5, 0, 0, "after"),
        (6, 10, 2, 3, "before"),
    ],
)
def test_five_and_six_dice(dice, wall, boosts, bonus, timing):
    exact = as_float(brute_damage(dice, wall, boosts, bonus, timing))
    assert np.abs(damage_with_ki(dice, wall, boosts, bonus, timing) - exact).max() < TOL


@pytest.mark.parametrize("timing", ["after", "before"])
@pytest.mark.parametrize("critical", [False, True])
def test_sweep_matches_brute_force(timing, critical):
    walls, boosts, bonuses = [0, 3, 6, 9, 10], [0, 1, 3], [0, 2, 5]
    sweep = damage_sweep(4, walls, boosts, bonuses, timing, critical, klotho=3)
    for n in range(5):
        for (w, wall), (b, boost), (o, bonus) in itertools.product(
            enumerate(walls), enumerate(boosts), enumerate(bonuses)
        ):
            exact = as_float(brute_damage(n, wall, boost, bonus, timing, critical, 3)).sum(1)
            cell = sweep[n, w, b, o]
            assert np.abs(cell[: n + 1] - exact).max() < TOL
            assert np.all(cell[n + 1 :] == 0.0)
