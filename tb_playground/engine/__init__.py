"""Pure maths of 20 Below: exact distributions with numpy, no Panel or param.

Every number a view shows comes from here. See ``RULES.md`` for the rules each module holds.
"""

from .core_roll import (
    OUTCOMES,
    TIER_NAMES,
    Odds,
    TierRules,
    check_odds,
    check_target,
    difficulty_step,
    roll_odds,
    success_curve,
    success_table,
    tier_rules,
)
from .dice import KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, TOTALS, advantage_sign
from .difficulty import DIFFICULTY_LADDER, DIFFICULTY_NAMES, PUBLISHED_TARGETS
from .gift_check import gift_check_odds, gift_check_target
from .group import TAKING_YOUR_TIME_SOURCES, group_odds, help_sources
from .opposed import contest, opposed_odds, versus_static
from .resource_check import ResourceOdds, resource_check_odds, resource_check_target

__all__ = [
    "DIFFICULTY_LADDER",
    "DIFFICULTY_NAMES",
    "KEPT_TOTAL_COUNTS",
    "KEPT_TOTAL_DENOMINATOR",
    "OUTCOMES",
    "PUBLISHED_TARGETS",
    "TAKING_YOUR_TIME_SOURCES",
    "TIER_NAMES",
    "TOTALS",
    "Odds",
    "ResourceOdds",
    "TierRules",
    "advantage_sign",
    "check_odds",
    "check_target",
    "contest",
    "difficulty_step",
    "gift_check_odds",
    "gift_check_target",
    "group_odds",
    "help_sources",
    "opposed_odds",
    "resource_check_odds",
    "resource_check_target",
    "roll_odds",
    "success_curve",
    "success_table",
    "tier_rules",
    "versus_static",
]
