"""The Core Roll: 2d10 at or under a Target Number, with training tiers (``tier_rules``).

Rule: RULES.md, Core Roll. Probabilities are integer counts over a common denominator, so each
``Odds`` also answers exactly as a ``fractions.Fraction``. Notes: docs/notes/0001-foundation.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..formatting import fraction_text, html_table, percent
from .dice import KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, TOTALS, advantage_sign
from .validation import require_bool, require_int, require_int_array

#: Outcome columns of ``Odds.by_total``; "success" there is an *ordinary* success.
OUTCOMES = ("critical", "success", "failure", "catastrophe")

#: Each outcome in plain words (for rich reprs; ``models/names.py`` shows the same words).
OUTCOME_WORDS = {
    "critical": "Critical success",
    "success": "Success",
    "failure": "Failure",
    "catastrophe": "Catastrophic failure",
}

#: Largest Target Number magnitude accepted; beyond 1 and 20 every TN rolls the same.
MAX_TARGET = 10**6

#: Training tier names by tier number (RULES.md, Core Roll; rules/004 "Training Tiers").
TIER_NAMES = ("Untrained", "Trained", "Adept", "Expert", "Master")

#: Each roll in words, by the sign of its net Advantage (for rich reprs).
ROLL_WORDS = {
    -1: "Disadvantage (the highest two of 3d10)",
    0: "a plain roll (2d10)",
    1: "Advantage (the lowest two of 3d10)",
}

#: The highest kept total that counts as a critical success, by default and for an Expert.
CRIT_MAX_DEFAULT = 2
CRIT_MAX_EXPERT = 3


@dataclass(frozen=True)
class TierRules:
    """What a training tier does to a Core Roll (RULES.md, Core Roll: training tiers).

    Attributes
    ----------
    uses_element : bool
        False for Untrained: the TN is the Difficulty alone.
    advantage_sources : int
        Extra Advantage sources the tier grants (Adept and above: one).
    crit_max : int
        Highest kept total that is a critical success (Expert and above: 3).
    reroll_catastrophe : bool
        Master: a catastrophic failure is rerolled once.
    """

    uses_element: bool
    advantage_sources: int
    crit_max: int
    reroll_catastrophe: bool


def tier_rules(tier: int, advantage_from_expert: bool = False) -> TierRules:
    """Return the rules a training tier (0 Untrained .. 4 Master) applies to a check.

    Parameters
    ----------
    tier : int
        0 Untrained .. 4 Master.
    advantage_from_expert : bool
        Variant 002 ("What Are Advantage and Disadvantage?": "an Expert or Master Skill
        Training Tier" grants Advantage): the tier's Advantage source starts at Expert, so an
        Adept rolls plainly. Default (rules/000, 004): from Adept.
    """
    tier = require_int("tier", tier, 0, 4)
    first = 3 if require_bool("advantage_from_expert", advantage_from_expert) else 2
    return TierRules(
        uses_element=tier >= 1,
        advantage_sources=1 if tier >= first else 0,
        crit_max=CRIT_MAX_EXPERT if tier >= 3 else CRIT_MAX_DEFAULT,
        reroll_catastrophe=tier >= 4,
    )


@dataclass(frozen=True, eq=False)
class Odds:
    """Exact odds of one Core Roll.

    Attributes
    ----------
    target : int
        The Target Number rolled against.
    advantage : int
        The roll made: -1 Disadvantage, 0 plain, +1 Advantage (the sign of the net sources).
    crit_max : int
        Highest kept total that is a critical success.
    reroll_catastrophe : bool
        Whether a catastrophic failure was rerolled once (Master).
    numerators : numpy.ndarray
        Integer array, shape (19, 4): rows are kept totals 2..20, columns ``OUTCOMES``.
        ``numerators / denominator`` is P(first kept total = t and outcome = o).
    denominator : int
        Common denominator of ``numerators``.
    """

    target: int
    advantage: int
    crit_max: int
    reroll_catastrophe: bool
    numerators: np.ndarray
    denominator: int

    @property
    def by_total(self) -> np.ndarray:
        """Float array (19, 4): P(kept total = 2..20 and outcome), columns ``OUTCOMES``."""
        return self.numerators / self.denominator

    @property
    def distribution(self) -> np.ndarray:
        """Float array (19,): P(kept total = 2..20) of the roll as first thrown."""
        return self.numerators.sum(axis=1) / self.denominator

    @property
    def p_critical(self) -> float:
        """Probability of a critical success."""
        return self._p(0)

    @property
    def p_success(self) -> float:
        """Probability of success, criticals included."""
        return float(int(self.numerators[:, :2].sum())) / self.denominator

    @property
    def p_failure(self) -> float:
        """Probability of a plain (non-catastrophic) failure."""
        return self._p(2)

    @property
    def p_catastrophe(self) -> float:
        """Probability of a catastrophic failure."""
        return self._p(3)

    def exact(self, outcome: str) -> Fraction:
        """Return the exact probability of ``outcome``.

        Parameters
        ----------
        outcome : {"critical", "success", "failure", "catastrophe"}
            "success" counts criticals too, as ``p_success`` does.
        """
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {outcome!r}")
        columns = (0, 1) if outcome == "success" else (OUTCOMES.index(outcome),)
        return Fraction(int(self.numerators[:, columns].sum()), self.denominator)

    def _p(self, column: int) -> float:
        return float(self.numerators[:, column].sum()) / self.denominator

    def _repr_html_(self) -> str:
        """The four outcomes as a small table: exact fractions, percentages, what each counts."""
        roll = ROLL_WORDS[self.advantage]
        if self.crit_max == 2:
            crit = "A kept 2"
        elif self.crit_max == 3:
            crit = "A kept 2 or 3"
        else:
            crit = f"A kept total of 2 to {self.crit_max}"
        twenty = "A kept 20, whatever the TN"
        if self.reroll_catastrophe:
            twenty = "A kept 20 that comes up 20 again on the Master's one reroll"
        counts = {
            "critical": crit,
            "success": f"A critical, or any other kept total at or under {self.target}",
            "failure": f"A kept total over {self.target} that is not a catastrophe",
            "catastrophe": twenty,
        }
        rows = [
            [OUTCOME_WORDS[o], counts[o], fraction_text(self.exact(o)), percent(self.exact(o))]
            for o in OUTCOMES
        ]
        return html_table(
            ["Outcome", "What it counts", "Exactly", "Chance"],
            rows,
            caption=f"Core Roll against TN {self.target}: {roll}",
            note="Success includes the critical successes and Failure leaves out the "
            "catastrophic failures, so Success + Failure + Catastrophic failure = 100%.",
            align=["left", "left", "right", "right"],
        )

    def __repr__(self) -> str:
        return (
            f"Odds(target={self.target}, advantage={self.advantage:+d}, "
            f"critical={self.p_critical:.4f}, success={self.p_success:.4f}, "
            f"failure={self.p_failure:.4f}, catastrophe={self.p_catastrophe:.4f})"
        )


def outcome_numerators(
    targets: np.ndarray, sign: int, crit_max: int, reroll_catastrophe: bool
) -> tuple[np.ndarray, int]:
    """Integer outcome counts for many Target Numbers at once.

    The one place the Core Roll's outcome rule lives; ``roll_odds`` and the vectorized
    tables both call it.

    Parameters
    ----------
    targets : numpy.ndarray
        Integer Target Numbers, shape (n,).
    sign : {-1, 0, 1}
        Disadvantage, plain or Advantage.
    crit_max : int
        Highest kept total that is a critical success (2..19).
    reroll_catastrophe : bool
        Master's reroll of a catastrophic failure.

    Returns
    -------
    numerators : numpy.ndarray
        int64 array (n, 19, 4): P(total, outcome) times ``denominator``.
    denominator : int
    """
    counts = KEPT_TOTAL_COUNTS[sign]
    denominator = KEPT_TOTAL_DENOMINATOR[sign]
    targets = np.asarray(targets, dtype=np.int64).reshape(-1, 1)
    critical = np.broadcast_to(TOTALS <= crit_max, (targets.shape[0], TOTALS.size))
    catastrophe = np.broadcast_to(TOTALS == 20, critical.shape)
    success = ~critical & ~catastrophe & (TOTALS <= targets)
    failure = ~critical & ~catastrophe & ~success
    masks = np.stack([critical, success, failure, catastrophe], axis=-1)
    numerators = masks * counts[None, :, None]
    if reroll_catastrophe:
        # Reroll the 20 once with the same pool: a second 20 stays catastrophic, anything
        # else softens to an ordinary failure. Scale everything to the squared denominator.
        c20 = int(counts[-1])
        numerators = numerators * denominator
        numerators[:, -1, 3] = c20 * c20
        numerators[:, -1, 2] = c20 * (denominator - c20)
        denominator = denominator * denominator
    return numerators, denominator


def _roll_rules(advantage: int, crit_max: int, reroll_catastrophe: bool) -> tuple[int, int, bool]:
    """Check the arguments every Core Roll takes besides its TN: (sign, crit_max, reroll)."""
    advantage = require_int("advantage", advantage)
    crit_max = require_int("crit_max", crit_max, 2, 19)
    reroll = require_bool("reroll_catastrophe", reroll_catastrophe)
    return advantage_sign(advantage), crit_max, reroll


@lru_cache(maxsize=256)
def _outcomes_by_target(sign: int, crit_max: int, reroll: bool) -> tuple[np.ndarray, int]:
    """Outcome counts (20, 4) for TN 1..20; any other TN behaves as the nearest of these.

    TN <= 1 succeeds only on a critical, like TN 1; TN >= 20 fails only on a 20, like TN 20.
    """
    numerators, denominator = outcome_numerators(np.arange(1, 21), sign, crit_max, reroll)
    table = numerators.sum(axis=1)
    table.setflags(write=False)
    return table, denominator


@lru_cache(maxsize=4096)
def _roll_odds(target: int, sign: int, crit_max: int, reroll: bool) -> Odds:
    numerators, denominator = outcome_numerators(np.array([target]), sign, crit_max, reroll)
    table = numerators[0]
    table.setflags(write=False)
    return Odds(target, sign, crit_max, reroll, table, denominator)


def roll_odds(
    target: int, advantage: int = 0, crit_max: int = 2, reroll_catastrophe: bool = False
) -> Odds:
    """Exact odds of a Core Roll against a Target Number (RULES.md, Core Roll).

    Parameters
    ----------
    target : int
        Any integer TN. TN <= 1 succeeds only on a critical; TN >= 20 fails only on a 20.
    advantage : int
        Net sum of Advantage (+1 each) and Disadvantage (-1 each) sources; only the sign counts.
    crit_max : int
        Highest kept total that is a critical success: 2 normally, 3 for an Expert (2..19).
    reroll_catastrophe : bool
        Master: reroll a catastrophic failure once; it can only soften to a failure.

    Returns
    -------
    Odds
    """
    target = require_int("target", target, -MAX_TARGET, MAX_TARGET)
    sign, crit_max, reroll = _roll_rules(advantage, crit_max, reroll_catastrophe)
    return _roll_odds(target, sign, crit_max, reroll)


def check_target(element: int, difficulty: int, tier: int = 1) -> int:
    """Target Number of a check: Element + Difficulty, or Difficulty alone when Untrained.

    RULES.md, Core Roll: TN = Element + Difficulty (Difficulty 0..10); Untrained: TN =
    Difficulty alone.
    """
    element = require_int("element", element, 0, 10)
    difficulty = require_int("difficulty", difficulty, 0, 10)
    return element + difficulty if tier_rules(tier).uses_element else difficulty


def check_odds(
    element: int,
    difficulty: int,
    tier: int = 1,
    advantage: int = 0,
    *,
    advantage_from_expert: bool = False,
) -> Odds:
    """Exact odds of a skill check at a training tier (RULES.md, Core Roll).

    Parameters
    ----------
    element : int
        The Element used, 0..10 (ignored by the TN when Untrained, still validated).
    difficulty : int
        0 Nearly Impossible .. 10 Trivial; higher is easier.
    tier : int
        0 Untrained (Difficulty only), 1 Trained, 2 Adept (+1 Advantage source),
        3 Expert (as Adept; a kept 2 or 3 is critical), 4 Master (as Expert; a catastrophe
        is rerolled once).
    advantage : int
        Net situational Advantage sources, before the tier's own source is added.
    advantage_from_expert : bool
        Variant 002: the tier's Advantage starts at Expert, not Adept (``tier_rules``).

    Returns
    -------
    Odds
    """
    rules = tier_rules(tier, advantage_from_expert)
    target = check_target(element, difficulty, tier)
    advantage = require_int("advantage", advantage)
    return roll_odds(
        target,
        advantage + rules.advantage_sources,
        rules.crit_max,
        rules.reroll_catastrophe,
    )


def success_table(
    targets: np.ndarray, advantage: int = 0, crit_max: int = 2, reroll_catastrophe: bool = False
) -> np.ndarray:
    """Outcome probabilities for many Target Numbers in one vectorized call.

    Parameters
    ----------
    targets : array of int
        Target Numbers, shape (n,).
    advantage, crit_max, reroll_catastrophe
        As for ``roll_odds``.

    Returns
    -------
    numpy.ndarray
        Float array (n, 4): P(critical), P(ordinary success), P(failure), P(catastrophe).
    """
    targets = require_int_array("targets", targets, -MAX_TARGET, MAX_TARGET).reshape(-1)
    table, denominator = _outcomes_by_target(*_roll_rules(advantage, crit_max, reroll_catastrophe))
    return table[np.clip(targets, 1, 20) - 1] / denominator


def success_curve(
    targets: np.ndarray, advantage: int = 0, crit_max: int = 2, reroll_catastrophe: bool = False
) -> np.ndarray:
    """P(success), criticals included, for each Target Number in ``targets``.

    Parameters
    ----------
    targets : array of int
        Target Numbers, shape (n,).
    advantage, crit_max, reroll_catastrophe
        As for ``roll_odds``.

    Returns
    -------
    numpy.ndarray
        Float array (n,).
    """
    return success_table(targets, advantage, crit_max, reroll_catastrophe)[:, :2].sum(axis=1)


def difficulty_step(
    targets: np.ndarray, advantage: int = 0, crit_max: int = 2, reroll_catastrophe: bool = False
) -> np.ndarray:
    """What the point of Difficulty that reached each TN in ``targets`` was worth.

    rules/004: "One point of Difficulty is worth ~10 points of probability mid-curve, ~2 at
    the extremes". Returns P(success at t) - P(success at t - 1): the chance of rolling
    exactly t on a plain roll. ``one_more_point`` is the step from t up to t + 1.
    """
    targets = require_int_array("targets", targets, -MAX_TARGET, MAX_TARGET).reshape(-1)
    return success_curve(targets, advantage, crit_max, reroll_catastrophe) - success_curve(
        targets - 1, advantage, crit_max, reroll_catastrophe
    )


def one_more_point(
    targets: np.ndarray, advantage: int = 0, crit_max: int = 2, reroll_catastrophe: bool = False
) -> np.ndarray:
    """What one more point of Element (or one less of Difficulty) adds at each TN in ``targets``.

    P(success at t + 1) - P(success at t): what a player at TN t gains from one more point
    (RULES.md, Core Roll; rules/004 "What Your Target Is Worth").
    """
    targets = require_int_array("targets", targets, -MAX_TARGET, MAX_TARGET - 1).reshape(-1)
    return difficulty_step(targets + 1, advantage, crit_max, reroll_catastrophe)
