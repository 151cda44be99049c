"""Summaries of damage distributions for tables and charts (RULES.md, Attacks).

A damage distribution is an array whose last axis is P(levels == k), k = 0, 1, ...; these
functions reduce that axis, so they work on one roll or on a whole ``damage_sweep`` grid.
"""

from __future__ import annotations

import numpy as np

from .damage import MAX_SWEEP_CELLS, MAX_WALL, DamageRoll, damage_sweep
from .validation import require_choice, require_int, require_size

#: What ``damage_grid`` can report for each cell.
GRID_STATISTICS = ("expected", "any")


def _distributions(value: object) -> np.ndarray:
    """``value`` as a float array whose last axis holds probability vectors, or a ValueError.

    At most ``MAX_SWEEP_CELLS`` numbers: the biggest ``damage_sweep`` table.
    """
    require_size("distribution", value, MAX_SWEEP_CELLS)
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("distribution must be an array of probabilities") from None
    require_size("distribution", array, MAX_SWEEP_CELLS)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise ValueError("distribution must hold P(levels == k) for k = 0, 1, ..., got no entries")
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError("distribution must hold probabilities from 0 to 1")
    if not np.allclose(array.sum(axis=-1), 1.0, atol=1e-9):
        raise ValueError("distribution must sum to 1 along its last axis")
    return array


def expected_levels(distribution: np.ndarray) -> np.ndarray:
    """Expected levels dealt: sum over k of k * P(levels == k), along the last axis."""
    distribution = _distributions(distribution)
    return distribution @ np.arange(distribution.shape[-1])


def p_any_level(distribution: np.ndarray) -> np.ndarray:
    """P(at least one level), along the last axis."""
    distribution = _distributions(distribution)
    return 1.0 - distribution[..., 0]


def damage_grid(
    statistic: str = "expected",
    max_dice: int = 12,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """Expected levels, or P(at least one level), for every pool 1..max_dice and wall 0..10.

    Parameters
    ----------
    statistic : {"expected", "any"}
        "expected": expected levels; "any": P(at least one level).
    max_dice : int
        Largest pool, 1..100.
    boosts, bonus, timing, critical, klotho
        As for ``DamageRoll``, the same in every cell.

    Returns
    -------
    numpy.ndarray
        Shape (max_dice, 11): row n - 1 is a pool of n dice, column w is wall w.
    """
    statistic = require_choice("statistic", statistic, GRID_STATISTICS)
    max_dice = require_int("max_dice", max_dice, 1, 100)
    boosts = DamageRoll.check("boosts", boosts)
    bonus = DamageRoll.check("bonus", bonus)
    critical = DamageRoll.check("critical", critical)
    sweep = damage_sweep(
        max_dice, range(MAX_WALL + 1), [boosts], [bonus], timing, critical, klotho
    )[1:, :, 0, 0, :]
    return expected_levels(sweep) if statistic == "expected" else p_any_level(sweep)
