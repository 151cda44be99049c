"""Damage summaries against brute force over d10 faces, and the critical split."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from tb_playground.engine import (
    critical_split,
    damage_distribution,
    damage_grid,
    expected_levels,
    p_any_level,
    p_die_over,
)


def brute_levels(dice: int, wall: int) -> list[Fraction]:
    """P(levels == k) for unboosted dice, enumerating every face combination."""
    counts = [0] * (dice + 1)
    for faces in itertools.product(range(1, 11), repeat=dice):
        counts[sum(f > wall for f in faces)] += 1
    return [Fraction(c, 10**dice) for c in counts]


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("wall", [0, 3, 7, 10])
def test_summaries_match_enumeration(dice, wall):
    exact = brute_levels(dice, wall)
    dist = damage_distribution(dice, wall)
    assert expected_levels(dist) == pytest.approx(
        float(sum(k * p for k, p in enumerate(exact))), abs=1e-12
    )
    assert p_any_level(dist) == pytest.approx(float(1 - exact[0]), abs=1e-12)


def test_grid_is_the_per_cell_distribution():
    for statistic, reduce in (("expected", expected_levels), ("any", p_any_level)):
        grid = damage_grid(statistic, max_dice=8, boosts=2, bonus=3, timing="before")
        assert grid.shape == (8, 11)
        for n in range(1, 9):
            for wall in range(11):
                cell = reduce(damage_distribution(n, wall, 2, 3, "before"))
                assert grid[n - 1, wall] == pytest.approx(cell, abs=1e-12)


def test_plain_expected_levels_is_dice_times_faces_over_wall():
    grid = damage_grid("expected", max_dice=12)
    dice, wall = np.meshgrid(np.arange(1, 13), np.arange(11), indexing="ij")
    np.testing.assert_allclose(grid, dice * (10 - wall) / 10, atol=1e-12)


@pytest.mark.parametrize("dice", range(0, 12))
def test_critical_split_is_half_rounded_up(dice):
    automatic, rolled = critical_split(dice)
    assert automatic == math.ceil(dice / 2)
    assert automatic + rolled == dice


@pytest.mark.parametrize("wall", range(11))
@pytest.mark.parametrize("plus", [0, 2, 4, 10])
def test_p_die_over_counts_faces(wall, plus):
    assert p_die_over(wall, plus) == sum(f + plus > wall for f in range(1, 11)) / 10


def test_rules_000_boosted_die_examples():
    # "A boosted die from a character with a 10 in Ferocity will deal damage 100% of the time,
    # and a 2 in Ferocity has a 20% chance of topping that wall."
    assert p_die_over(10, 10) == 1.0
    assert p_die_over(10, 2) == 0.2


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: damage_grid("median"), "statistic"),
        (lambda: damage_grid("expected", max_dice=0), "max_dice"),
        (lambda: critical_split(-1), "dice"),
        (lambda: p_die_over(11), "wall"),
    ],
)
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
