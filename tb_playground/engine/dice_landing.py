"""The odds as the dice land: exact chances given the dice typed so far (issue 23, item 5).

Rule: RULES.md, Core Roll (the kept two of 2d10 or 3d10 at or under the TN; a kept 20 is a
catastrophe, a kept total up to ``crit_max`` a critical) and Attacks (each damage die over the
wall is a level; a critical sends half the dice through; Ki boosts, "after" the dice are seen
or, rules/002, "before" on the first dice). The dice still to come are enumerated (a Core Roll)
or counted by the trinomial and binomial laws (damage), so every chance is exact. The reading
of typed dice matches ``roll_reading.read_core_roll`` and ``damage.roll_levels``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .damage import DamageRoll, critical_split
from .dice import FACES, KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, advantage_sign
from .roll_reading import DICE_FOR_SIGN
from .validation import require_bool, require_int


@dataclass(frozen=True)
class LandingOdds:
    """Exact odds of a Core Roll given its first dice.

    Attributes
    ----------
    typed : tuple of int
        The faces already shown.
    to_come : int
        How many dice are still to be rolled.
    numerators : numpy.ndarray
        Integer counts of (critical, ordinary success, failure, catastrophe) over the faces
        still to come (and a Master's reroll).
    denominator : int
        Their common denominator.
    """

    typed: tuple[int, ...]
    to_come: int
    numerators: np.ndarray
    denominator: int

    @property
    def p_critical(self) -> float:
        """P(critical success)."""
        return float(self.numerators[0]) / self.denominator

    @property
    def p_hit(self) -> float:
        """P(success, critical included)."""
        return float(self.numerators[0] + self.numerators[1]) / self.denominator

    @property
    def p_ordinary(self) -> float:
        """P(ordinary success)."""
        return float(self.numerators[1]) / self.denominator

    @property
    def p_miss(self) -> float:
        """P(failure, catastrophe included)."""
        return float(self.numerators[2] + self.numerators[3]) / self.denominator

    @property
    def p_catastrophe(self) -> float:
        """P(catastrophic failure)."""
        return float(self.numerators[3]) / self.denominator


def _typed(name: str, typed: Sequence[int], most: int) -> tuple[int, ...]:
    if isinstance(typed, (str, bytes)) or not isinstance(typed, Sequence):
        raise ValueError(f"{name} must be a list of d10 faces (1..10), got {typed!r}")
    if len(typed) > most:
        raise ValueError(f"{name} may hold at most {most} faces, got {len(typed)}")
    return tuple(require_int(f"{name}[{i}]", f, 1, 10) for i, f in enumerate(typed))


def _rest(count: int) -> np.ndarray:
    """Every way ``count`` d10 can fall: int array (10 ** count, count)."""
    if count == 0:
        return np.zeros((1, 0), dtype=np.int64)
    grids = np.meshgrid(*([FACES] * count), indexing="ij")
    return np.stack(grids, axis=-1).reshape(-1, count)


def core_roll_given(
    typed: Sequence[int],
    target: int,
    advantage: int = 0,
    crit_max: int = 2,
    reroll_catastrophe: bool = False,
) -> LandingOdds:
    """Exact odds of a Core Roll once its first dice are shown (RULES.md, Core Roll).

    Parameters
    ----------
    typed : sequence of int
        The faces shown so far, 0 up to all the dice (2, or 3 with Advantage or Disadvantage).
    target : int
        The Target Number, -10..40.
    advantage : int
        Net Advantage sources; only the sign counts.
    crit_max : int
        Highest kept total that is a critical success, 2..19.
    reroll_catastrophe : bool
        Master: a catastrophe is rerolled once (a fresh roll, whatever was typed).

    Returns
    -------
    LandingOdds

    Examples
    --------
    After a first die of 10 on a plain roll against TN 9, only a second 10 is a catastrophe.

    >>> round(core_roll_given([10], 9).p_catastrophe, 3)
    0.1
    """
    sign = advantage_sign(require_int("advantage", advantage))
    count = DICE_FOR_SIGN[sign]
    shown = _typed("typed", typed, count)
    target = require_int("target", target, -10, 40)
    crit_max = require_int("crit_max", crit_max, 2, 19)
    reroll = require_bool("reroll_catastrophe", reroll_catastrophe)
    rest = _rest(count - len(shown))
    pool = np.concatenate([np.broadcast_to(shown, (len(rest), len(shown))), rest], axis=1)
    pool = np.sort(pool, axis=1)
    kept = pool[:, :2] if sign >= 0 else pool[:, -2:]
    total = kept.sum(axis=1)
    catastrophe = total == 20
    critical = ~catastrophe & (total <= crit_max)
    success = ~catastrophe & ~critical & (total <= target)
    failure = ~catastrophe & ~critical & ~success
    counts = np.array([m.sum() for m in (critical, success, failure, catastrophe)], np.int64)
    denominator = len(rest)
    if reroll:  # the reroll is a fresh roll: it keeps the catastrophe only on another 20
        c20, whole = int(KEPT_TOTAL_COUNTS[sign][-1]), KEPT_TOTAL_DENOMINATOR[sign]
        counts = counts * whole
        cat = counts[3] // whole
        counts[3], counts[2] = cat * c20, counts[2] + cat * (whole - c20)
        denominator *= whole
    counts.setflags(write=False)
    return LandingOdds(shown, count - len(shown), counts, denominator)


def _trinomial(m: int, p_over: float, p_lift: float) -> np.ndarray:
    """P(a dice over, b dice lifted by a boost) of ``m`` dice: float array (m + 1, m + 1)."""
    p_none = 1.0 - p_over - p_lift
    out = np.zeros((m + 1, m + 1))
    for a in range(m + 1):
        for b in range(m + 1 - a):
            ways = math.comb(m, a) * math.comb(m - a, b)
            out[a, b] = ways * p_over**a * p_lift**b * p_none ** (m - a - b)
    return out


def _binomial(m: int, p: float) -> np.ndarray:
    return np.array([math.comb(m, k) * p**k * (1 - p) ** (m - k) for k in range(m + 1)])


def damage_given(
    typed: Sequence[int],
    dice: int,
    wall: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """P(levels == k), k = 0..dice, of a damage roll once its first dice are shown.

    Parameters
    ----------
    typed : sequence of int
        The faces of the rolled dice shown so far (on a critical hit, of the dice rolled: half
        the pool, rounded up, connects with no roll).
    dice, wall, boosts, bonus, timing, critical, klotho
        As for ``damage_distribution`` (``DamageRoll``). With "after", boosts go on the dice
        they lift over the wall, as far as ``boosts``; with "before", on the first ``boosts``
        dice rolled (``roll_levels``).

    Returns
    -------
    numpy.ndarray
        Float array of length ``dice + 1`` summing to 1; with no dice typed it is
        ``damage_distribution``'s.

    Examples
    --------
    rules/002, Soak 6: after 3, 6 and 9 of four dice, two levels if the last is 7 or more.

    >>> damage_given([3, 6, 9], 4, 6).round(2).tolist()
    [0.0, 0.6, 0.4, 0.0, 0.0]
    """
    roll = DamageRoll(dice, wall, boosts, bonus, timing, critical, klotho)
    automatic, rolled = critical_split(roll.dice) if roll.critical else (0, roll.dice)
    shown = _typed("typed", typed, rolled)
    plus = roll.klotho if roll.critical else 0
    m = rolled - len(shown)
    p_over = float(np.sum(FACES + plus > roll.wall)) / 10
    out = np.zeros(roll.dice + 1)
    if roll.timing == "before":
        used = min(roll.boosts, rolled)
        seen = sum(
            f + plus + (roll.bonus if i < used else 0) > roll.wall for i, f in enumerate(shown)
        )
        boosted = max(used - len(shown), 0)
        p_boosted = float(np.sum(FACES + plus + roll.bonus > roll.wall)) / 10
        rest = np.convolve(_binomial(boosted, p_boosted), _binomial(m - boosted, p_over))
        out[automatic + seen : automatic + seen + len(rest)] = rest
        return out
    over = sum(f + plus > roll.wall for f in shown)
    lifted = sum(f + plus <= roll.wall < f + plus + roll.bonus for f in shown)
    p_lift = float(np.sum((FACES + plus <= roll.wall) & (FACES + plus + roll.bonus > roll.wall)))
    joint = _trinomial(m, p_over, p_lift / 10)
    for a in range(m + 1):
        for b in range(m + 1 - a):
            out[automatic + over + a + min(roll.boosts, lifted + b)] += joint[a, b]
    return out
