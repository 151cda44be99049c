"""Group rolls, Helping and Taking your time.

Rule: RULES.md, Core Roll; rules/000 "Group Rolls", "Helping". Notes:
docs/notes/0001-foundation.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .core_roll import Odds
from .validation import require_int, require_length

#: Advantage sources for taking the next Time Band up (rules/000, Taking Your Time).
TAKING_YOUR_TIME_SOURCES = 1

#: Most helpers, and most members of a group roll, one call takes.
MAX_HELPERS = 100
MAX_GROUP = 1000


def help_sources(helper_tiers: Sequence[int]) -> int:
    """Advantage sources from helpers: one per helper who is at least Trained (tier >= 1).

    Parameters
    ----------
    helper_tiers : sequence of int
        Each helper's training tier (0..4) in the Skill being rolled; at most 100 helpers.
    """
    if isinstance(helper_tiers, str | bytes) or not isinstance(helper_tiers, Sequence):
        raise ValueError(f"helper_tiers must be a list of tiers 0..4, got {helper_tiers!r}")
    helper_tiers = require_length("helper_tiers", helper_tiers, MAX_HELPERS, what="tiers 0..4")
    tiers = [require_int(f"helper_tiers[{i}]", t, 0, 4) for i, t in enumerate(helper_tiers)]
    return sum(1 for t in tiers if t >= 1)


def group_odds(members: Sequence[Odds]) -> float:
    """Probability a group roll succeeds.

    At least half the members succeed (successes * 2 >= n) and nobody rolls a
    catastrophic failure. Exact dynamic programme over the number of successes.

    Parameters
    ----------
    members : sequence of Odds
        One ``Odds`` per member, 1 to 1000 members.
    """
    if isinstance(members, Odds) or not isinstance(members, Sequence):
        raise ValueError(f"members must be a list of Odds, got {type(members).__name__}")
    members = require_length("members", members, MAX_GROUP, 1, "members' Odds")
    # ways[k] = P(k successes so far and no catastrophe so far)
    ways = np.array([1.0])
    for odds in members:
        if not isinstance(odds, Odds):
            raise ValueError(f"members must be Odds objects, got {type(odds).__name__}")
        nxt = np.zeros(ways.size + 1)
        nxt[:-1] += ways * odds.p_failure
        nxt[1:] += ways * odds.p_success
        ways = nxt
    n = len(members)
    needed = (n + 1) // 2
    return float(ways[needed:].sum())
