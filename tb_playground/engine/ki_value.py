"""What a Ki point spent on a damage die is worth (the k-th boost's expected extra levels).

Rule: RULES.md, Attacks (Ki boost); rules/000 "Spending Ki on the Dice"; rules/002 "How Do I Deal
Damage?". The derivation: docs/notes/0003-attacks.md, "Kept from the module docstrings".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formatting import html_table, percent
from .damage import MAX_DICE, DamageRoll, damage_sweep
from .validation import require_int


@dataclass(frozen=True)
class KiValue:
    """The worth of each successive Ki boost on one damage roll.

    Attributes
    ----------
    expected_levels : numpy.ndarray
        E[levels] with a budget of b boosts, b = 0..max_boosts.
    expected_ki_spent : numpy.ndarray
        E[Ki actually spent] with a budget of b boosts, b = 0..max_boosts.
    extra_levels : numpy.ndarray
        Expected extra levels from the k-th boost, k = 1..max_boosts.
    p_spent : numpy.ndarray
        P(the k-th Ki is actually spent), k = 1..max_boosts.
    """

    expected_levels: np.ndarray
    expected_ki_spent: np.ndarray
    extra_levels: np.ndarray
    p_spent: np.ndarray

    @property
    def levels_per_ki_spent(self) -> np.ndarray:
        """Extra levels per Ki actually spent, k = 1..max_boosts (``nan`` if never spent)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.p_spent > 0, self.extra_levels / self.p_spent, np.nan)

    def _repr_html_(self) -> str:
        """One row per boost: the extra levels it adds, how often it is spent, per Ki spent."""
        per_ki = self.levels_per_ki_spent
        rows = [
            [
                f"Boost {k}",
                f"{self.extra_levels[k - 1]:.3f}",
                percent(self.p_spent[k - 1]),
                "never spent" if np.isnan(per_ki[k - 1]) else f"{per_ki[k - 1]:.3f}",
                f"{self.expected_levels[k]:.3f}",
            ]
            for k in range(1, self.extra_levels.size + 1)
        ]
        return html_table(
            [
                "Ki boost",
                "Extra levels it adds",
                "Chance it is spent",
                "Levels per Ki spent",
                "Levels expected with this many",
            ],
            rows,
            caption="What each Ki boost is worth (expected levels of damage)",
            note=f"With no boost: {self.expected_levels[0]:.3f} levels expected. A boost chosen "
            "after the roll is spent only on a die it lifts over the wall.",
        )


def ki_value(
    dice: int,
    wall: int,
    bonus: int,
    max_boosts: int = 5,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> KiValue:
    """Expected extra levels from the k-th Ki boost, k = 1..max_boosts.

    Parameters
    ----------
    dice, wall, bonus, timing, critical, klotho
        As for ``damage.DamageRoll``.
    max_boosts : int
        Largest budget considered, 0..100.

    Returns
    -------
    KiValue
    """
    max_boosts = require_int("max_boosts", max_boosts, 0, MAX_DICE)
    roll = DamageRoll(dice, wall, 0, bonus, timing, critical, klotho)
    levels = np.empty(max_boosts + 1)
    spent = np.empty(max_boosts + 1)
    for b in range(max_boosts + 1):
        joint = roll.replace(boosts=b).joint()
        levels[b] = joint.sum(axis=1) @ np.arange(joint.shape[0])
        spent[b] = joint.sum(axis=0) @ np.arange(joint.shape[1])
    return KiValue(levels, spent, np.diff(levels), np.diff(spent))


def ki_value_table(
    max_dice: int = 20,
    walls: Sequence[int] = range(11),
    bonuses: Sequence[int] = range(6),
    max_boosts: int = 5,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """Expected extra levels from the k-th boost over a whole grid, in one vectorized call.

    Parameters
    ----------
    max_dice, walls, bonuses, timing, critical, klotho
        As for ``damage.damage_sweep``.
    max_boosts : int
        Largest budget, 1..100.

    Returns
    -------
    numpy.ndarray
        Shape (max_dice + 1, len(walls), len(bonuses), max_boosts): entry [n, w, o, k - 1] is
        the worth of the k-th boost for n dice against ``walls[w]`` with bonus
        ``bonuses[o]``.
    """
    max_boosts = require_int("max_boosts", max_boosts, 1, MAX_DICE)
    sweep = damage_sweep(max_dice, walls, range(max_boosts + 1), bonuses, timing, critical, klotho)
    expected = sweep @ np.arange(sweep.shape[-1])  # (n, w, b, o)
    return np.transpose(np.diff(expected, axis=2), (0, 1, 3, 2))
