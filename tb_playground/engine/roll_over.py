"""The roll-over draft (rules/003), a different dice system kept for comparison.

Rule: RULES.md (the ``system`` option); rules/003 "Taking Actions and Rolling Dice". Counts are
integers over ``10 ** (2 + |advantage|)``. Readings where the draft is silent:
docs/notes/0002-characters.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .validation import require_int, require_int_array, require_length

#: Most rows (ratings) and columns (DCs) one ``roll_over_table`` takes.
MAX_TABLE_ROWS = 1000
MAX_TABLE_COLUMNS = 100

#: rules/003 "Standard Difficulty Ratings".
STANDARD_DCS: dict[str, int] = {"Easy": 8, "Medium": 14, "Hard": 20, "Very Hard": 26}

#: The DC columns a sheet shows under the draft: 6, 8, ..., 26 (the standard four included).
SHEET_DCS: tuple[int, ...] = tuple(range(6, 27, 2))

#: Most stacked re-rolls the engine takes (each multiplies the denominator by 10).
MAX_REROLLS = 10

#: Dice totals 2..20.
DICE_TOTALS = np.arange(2, 21)

#: Highest dice total that is a critical miss, lowest that is a critical hit (rules/003).
CRIT_LOW_MAX = 3
CRIT_HIGH_MIN = 19


#: What ``draft_defense`` adds to a 20 Below Defense.
DRAFT_DEFENSE_OFFSET = 11


def draft_defense(defense: int) -> int:
    """A 20 Below Defense (0..10) on the draft's scale, for side-by-side comparisons.

    rules/003 gives no way to read a Defense off a 20 Below sheet or card; our mapping is
    11 + Defense. 2d10 is symmetric about 11, so the draft's "2d10 + Element higher than
    11 + Defense" is exactly as likely as 20 Below's "2d10 at or under Element + Defense" when
    the Defense is 5, for every Element (criticals aside); the systems part ways from there.
    """
    return DRAFT_DEFENSE_OFFSET + require_int("defense", defense, 0, 10)


@lru_cache(maxsize=64)
def _pair_counts(advantage: int) -> tuple[np.ndarray, int]:
    """Counts of the sorted dice (low, high) after ``advantage`` stacked re-rolls."""
    faces = np.arange(1, 11)
    counts = np.zeros((11, 11), dtype=np.int64)
    for a in faces:
        for b in faces:
            counts[min(a, b), max(a, b)] += 1
    denominator = 100
    for _ in range(abs(advantage)):
        new = np.zeros_like(counts)
        for low in faces:
            for high in faces[faces >= low]:
                c = counts[low, high]
                if c == 0:
                    continue
                for r in faces:
                    if advantage > 0:  # re-roll the lowest die, keep the higher of the two
                        kept = max(low, r)
                        new[min(kept, high), max(kept, high)] += c
                    else:  # re-roll the higher die, keep the lower of the two
                        kept = min(high, r)
                        new[min(low, kept), max(low, kept)] += c
        counts, denominator = new, denominator * 10
    counts.setflags(write=False)
    return counts, denominator


@lru_cache(maxsize=64)
def dice_total_counts(advantage: int = 0) -> tuple[np.ndarray, int]:
    """Integer counts of the dice total 2..20 after stacked re-rolls (rules/003).

    Parameters
    ----------
    advantage : int
        Net Advantages (+) minus Disadvantages (-), -10..10; each one is a re-roll.

    Returns
    -------
    counts : numpy.ndarray
        int64 array (19,), totals 2..20.
    denominator : int
        ``10 ** (2 + |advantage|)``.
    """
    advantage = require_int("advantage", advantage, -MAX_REROLLS, MAX_REROLLS)
    pairs, denominator = _pair_counts(advantage)
    low, high = np.indices(pairs.shape)
    counts = np.zeros(21, dtype=np.int64)
    np.add.at(counts, (low + high).ravel(), pairs.ravel())
    out = counts[2:21].copy()
    out.setflags(write=False)
    return out, denominator


@dataclass(frozen=True, eq=False)
class RollOverOdds:
    """Exact odds of one roll-over Check (rules/003).

    Attributes
    ----------
    rating : int
        The Skill Rating added to the dice.
    dc : int
        The Difficulty Rating to meet or exceed.
    advantage : int
        Net stacked re-rolls (+ Advantage, - Disadvantage).
    numerators : numpy.ndarray
        int64 (19,): counts of dice totals 2..20.
    denominator : int
    """

    rating: int
    dc: int
    advantage: int
    numerators: np.ndarray
    denominator: int

    @property
    def p_success(self) -> float:
        """P(dice + rating >= DC)."""
        return float(self.exact("success"))

    @property
    def p_critical_low(self) -> float:
        """P(dice total 3 or less)."""
        return float(self.exact("critical_low"))

    @property
    def p_critical_high(self) -> float:
        """P(dice total 19 or more)."""
        return float(self.exact("critical_high"))

    def exact(self, outcome: str) -> Fraction:
        """Exact probability of "success", "critical_low" or "critical_high"."""
        masks = {
            "success": DICE_TOTALS + self.rating >= self.dc,
            "critical_low": DICE_TOTALS <= CRIT_LOW_MAX,
            "critical_high": DICE_TOTALS >= CRIT_HIGH_MIN,
        }
        if outcome not in masks:
            raise ValueError(f"outcome must be one of {tuple(masks)}, got {outcome!r}")
        return Fraction(int(self.numerators[masks[outcome]].sum()), self.denominator)

    def __repr__(self) -> str:
        return (
            f"RollOverOdds(rating={self.rating}, dc={self.dc}, advantage={self.advantage:+d}, "
            f"success={self.p_success:.4f})"
        )


def roll_over_odds(rating: int, dc: int, advantage: int = 0) -> RollOverOdds:
    """Exact odds of a roll-over Check: 2d10 + rating >= DC (rules/003).

    Parameters
    ----------
    rating : int
        Skill Rating, 0..30 (0 when untrained).
    dc : int
        Difficulty Rating, 0..60 (Easy 8, Medium 14, Hard 20, Very Hard 26).
    advantage : int
        Net Advantages minus Disadvantages, -10..10; they stack, one re-roll each.

    Returns
    -------
    RollOverOdds
    """
    rating = require_int("rating", rating, 0, 30)
    dc = require_int("dc", dc, 0, 60)
    counts, denominator = dice_total_counts(advantage)
    return RollOverOdds(rating, dc, int(advantage), counts, denominator)


def roll_over_table(
    ratings: np.ndarray, dcs: np.ndarray = SHEET_DCS, advantages: np.ndarray | int = 0
) -> np.ndarray:
    """P(success) for each rating (rows) at each DC (columns), vectorized (rules/003).

    Parameters
    ----------
    ratings : array of int
        Skill Ratings 0..30, shape (n,), n at most 1000.
    dcs : array of int
        DCs 0..60, shape (m,), m at most 100.
    advantages : int or array of int
        Net re-rolls for every row (an int) or per row (shape (n,)), -10..10.

    Returns
    -------
    numpy.ndarray
        Float (n, m).
    """
    ratings = require_int_array("ratings", ratings, 0, 30, MAX_TABLE_ROWS).reshape(-1)
    dcs = require_length("dcs", dcs, MAX_TABLE_COLUMNS, what="DCs")
    dcs = require_int_array("dcs", dcs, 0, 60).reshape(-1)
    advantages = require_int_array(
        "advantages", advantages, -MAX_REROLLS, MAX_REROLLS, MAX_TABLE_ROWS
    )
    if advantages.size not in (1, ratings.size):
        raise ValueError(
            f"advantages must be one whole number or one per rating ({ratings.size}), "
            f"got {advantages.size}"
        )
    advantages = np.broadcast_to(advantages, ratings.shape)
    out = np.zeros((ratings.size, dcs.size))
    for adv in np.unique(advantages):
        counts, denominator = dice_total_counts(int(adv))
        # P(total >= k) for every k: reverse cumulative sums over totals 2..20.
        at_least = np.concatenate([np.cumsum(counts[::-1])[::-1], [0]]) / denominator
        rows = np.flatnonzero(advantages == adv)
        need = np.clip(dcs[None, :] - ratings[rows, None] - 2, 0, 19)
        out[rows] = at_least[need]
    return out


@dataclass(frozen=True)
class RollOverAttack:
    """Exact odds of one roll-over attack (rules/003 "Hurting People").

    Attributes
    ----------
    p_hit : float
        P(the attack lands), critical hits included.
    p_critical : float
        P(critical hit: dice total ``crit_from`` or more).
    p_fumble : float
        P(critical miss: dice total 3 or less).
    damage : numpy.ndarray
        P(damage == k), k = 0.. (a miss is 0).
    expected_damage : float
    """

    p_hit: float
    p_critical: float
    p_fumble: float
    damage: np.ndarray
    expected_damage: float


def roll_over_attack(
    rating: int, defense: int, weapon_rating: int, advantage: int = 0, crit_from: int = 19
) -> RollOverAttack:
    """Hit and damage of a roll-over attack (rules/003 "Hurting People").

    Parameters
    ----------
    rating : int
        Martial Arts or Ranged, 0..30.
    defense : int
        The target's Defense (armor included), 0..60; the total must be higher.
    weapon_rating : int
        The damage cap, 0..30.
    advantage : int
        Net stacked re-rolls, -10..10.
    crit_from : int
        Lowest dice total that is a critical hit, 4..20 (19 by the draft; 18 for a knife).

    Returns
    -------
    RollOverAttack
        Damage on an ordinary hit is min(total - Defense, weapon rating); on a critical hit
        max(total - Defense, 1), uncapped; a dice total of 3 or less misses.
    """
    rating = require_int("rating", rating, 0, 30)
    defense = require_int("defense", defense, 0, 60)
    weapon_rating = require_int("weapon_rating", weapon_rating, 0, 30)
    crit_from = require_int("crit_from", crit_from, CRIT_LOW_MAX + 1, 20)
    counts, denominator = dice_total_counts(advantage)
    p = counts / denominator
    margin = DICE_TOTALS + rating - defense
    critical = DICE_TOTALS >= crit_from
    fumble = DICE_TOTALS <= CRIT_LOW_MAX
    ordinary = ~critical & ~fumble & (margin > 0)
    dealt = np.where(critical, np.maximum(margin, 1), np.minimum(margin, weapon_rating))
    dealt = np.where(critical | ordinary, dealt, 0)
    damage = np.bincount(dealt, weights=p, minlength=1)
    return RollOverAttack(
        p_hit=float(p[critical | ordinary].sum()),
        p_critical=float(p[critical].sum()),
        p_fumble=float(p[fumble].sum()),
        damage=damage,
        expected_damage=float(damage @ np.arange(damage.size)),
    )
