"""Gift Checks (RULES.md, Core Roll: Gift Check; rules/000 "Ki"; rules/002 "How Do I Use a Gift?").

Roll 2d10 with your current Ki as the TN, never with Advantage or Disadvantage. A 20 always
fails, even against a TN of 25; a 2 is a critical success as always. Failing costs 1 Ki
(rules/002; rules/000 leaves the cost to each Gift).

Variant ``ki_plus_stamina`` (rules/002): the TN is current Ki + Stamina.
"""

from __future__ import annotations

from .core_roll import Odds, roll_odds
from .validation import require_bool, require_int


def gift_check_target(ki: int, stamina: int = 0, ki_plus_stamina: bool = False) -> int:
    """Target Number of a Gift Check: current Ki, or Ki + Stamina under the 002 variant."""
    ki = require_int("ki", ki, 0, None)
    stamina = require_int("stamina", stamina, 0, 10)
    return ki + stamina if require_bool("ki_plus_stamina", ki_plus_stamina) else ki


def gift_check_odds(ki: int, stamina: int = 0, ki_plus_stamina: bool = False) -> Odds:
    """Exact odds of a Gift Check.

    Parameters
    ----------
    ki : int
        Current Ki, 0 or more (experience can lift it over 20).
    stamina : int
        Stamina sub-stat 0..10, used only by the ``ki_plus_stamina`` variant.
    ki_plus_stamina : bool
        Variant 002: the TN is Ki + Stamina.
    """
    return roll_odds(gift_check_target(ki, stamina, ki_plus_stamina), advantage=0)
