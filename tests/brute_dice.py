"""Brute-force damage rolls by enumerating every d10 face (itertools.product), for the tests.

Independent of the engine: no formula, just every roll and every choice of dice to boost.
Returns exact ``Fraction`` tables so the engine can be checked to 1e-12.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np

FACES = range(1, 11)


@cache
def all_rolls(n: int) -> np.ndarray:
    """Every ordered roll of ``n`` d10, shape (10 ** n, n)."""
    if n == 0:
        return np.zeros((1, 0), dtype=np.int64)  # the one empty roll
    return np.array(list(itertools.product(FACES, repeat=n)), dtype=np.int64)


def _boost_masks(n: int, most: int) -> list[np.ndarray]:
    """Every set of at most ``most`` dice positions, as boolean masks, smallest sets first."""
    masks = []
    for size in range(min(most, n) + 1):
        for chosen in itertools.combinations(range(n), size):
            mask = np.zeros(n, dtype=bool)
            mask[list(chosen)] = True
            masks.append(mask)
    return masks


def _levels_after(rolls: np.ndarray, wall: int, boosts: int, bonus: int):
    """Best levels over every allowed set of boosted dice, and the fewest Ki that achieve it."""
    n = rolls.shape[1]
    best = np.full(rolls.shape[0], -1)
    spent = np.zeros(rolls.shape[0], dtype=np.int64)
    for mask in _boost_masks(n, boosts):
        levels = (rolls + bonus * mask > wall).sum(axis=1)
        better = levels > best  # masks come smallest first: ties keep the cheaper choice
        best = np.where(better, levels, best)
        spent = np.where(better, mask.sum(), spent)
    return best, spent


def brute_damage(
    dice: int,
    wall: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> list[list[Fraction]]:
    """Exact P(levels = k and Ki spent = s) as a (dice + 1) x (boosts + 1) table of Fractions."""
    automatic = (dice + 1) // 2 if critical else 0
    rolled = dice - automatic
    rolls = all_rolls(rolled) + (klotho if critical else 0)
    if timing == "after":
        levels, spent = _levels_after(rolls, wall, boosts, bonus)
    else:
        used = min(boosts, rolled)
        mask = np.arange(rolled) < used  # chosen before the roll: any `used` dice will do
        levels = (rolls + bonus * mask > wall).sum(axis=1)
        spent = np.full(rolls.shape[0], used)
    counts = np.zeros((dice + 1, boosts + 1), dtype=np.int64)
    np.add.at(counts, (levels + automatic, spent), 1)
    total = 10**rolled
    return [[Fraction(int(c), total) for c in row] for row in counts]


def brute_armor_break(
    dice: int,
    hardness: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
) -> Fraction:
    """Exact P(some die beats the armor's Hardness), boosting as the timing allows."""
    if dice == 0:
        return Fraction(0)
    if critical:
        return Fraction(1)  # the dice that connect outright beat it
    rolls = all_rolls(dice)
    if timing == "after":
        beaten = np.zeros(rolls.shape[0], dtype=bool)
        for mask in _boost_masks(dice, boosts):
            beaten |= (rolls + bonus * mask > hardness).any(axis=1)
    else:
        mask = np.arange(dice) < min(boosts, dice)
        beaten = (rolls + bonus * mask > hardness).any(axis=1)
    return Fraction(int(beaten.sum()), 10**dice)


def as_float(table) -> np.ndarray:
    """A Fraction table as a float array."""
    return np.array([[float(x) for x in row] for row in table])
