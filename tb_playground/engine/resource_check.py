"""Resource Checks: TN = Level + (10 - Resource Index), and what a failure costs.

Rule: RULES.md, Core Roll; rules/002 "How Do I Use My Resources?". Notes:
docs/notes/0001-foundation.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core_roll import Odds, roll_odds
from .validation import require_int


@dataclass(frozen=True)
class ResourceOdds:
    """Exact cost odds of a Resource Check.

    Attributes
    ----------
    target : int
        Level + (10 - Index).
    reaching : bool
        True when the ask reaches beyond your means (Index above Level, or Index 6).
    odds : Odds
        The roll itself.
    p_no_cost, p_drop_one, p_drop_to_zero : float
        Probability of each cost; they sum to 1.
    """

    target: int
    reaching: bool
    odds: Odds
    p_no_cost: float
    p_drop_one: float
    p_drop_to_zero: float


def resource_check_target(level: int, index: int) -> int:
    """TN of a Resource Check: Level + (10 - Index)."""
    level = require_int("level", level, 0, 10)
    index = require_int("index", index, 1, min(6, level + 2))
    return level + (10 - index)


def resource_check_odds(level: int, index: int, advantage: int = 0) -> ResourceOdds:
    """Exact odds of each cost of a Resource Check.

    Parameters
    ----------
    level : int
        The Resource's current Level, 0..10.
    index : int
        The Resource Index the GM sets, 1..6, and at most Level + 2.
    advantage : int
        Net Advantage sources on the roll.
    """
    target = resource_check_target(level, index)
    odds = roll_odds(target, advantage)
    if index == 6:
        return ResourceOdds(target, True, odds, 0.0, 0.0, 1.0)
    critical = odds.exact("critical")
    if index > level:
        return ResourceOdds(target, True, odds, float(critical), 0.0, float(1 - critical))
    success = odds.exact("success")
    return ResourceOdds(target, False, odds, float(success), float(1 - success), 0.0)
