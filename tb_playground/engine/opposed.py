"""Opposed rolls (RULES.md, Core Roll: Opposed roll; rules/000 "Opposed Rolls").

Both sides roll against the same Difficulty, each with their own Element and Skill.

- Only one succeeds: that one wins.
- Both succeed: whoever came in further under their own TN wins; a tie goes to the resister.
- Both fail: the resister wins (nothing changes).

How a critical success compares (the texts are silent, so this is our reading): a critical
success outranks any ordinary success, whatever the margins, because it is "the best thing
that could have happened" (rules/000). Two criticals, or two ordinary successes, compare by
margin (TN minus kept total, which may be negative for a critical against a TN below 2); a
tie still goes to the resister. A catastrophic failure is a failure.

A creature does not roll its side: its card gives a static number, which is the Difficulty
of your own roll ("Stealth 6 vs. Perception" means you roll Perception at Difficulty 6).
``versus_static`` is that roll.
"""

from __future__ import annotations

import numpy as np

from .core_roll import Odds, check_odds, roll_odds
from .dice import TOTALS
from .validation import require_int


def _success_keys(odds: Odds) -> tuple[np.ndarray, np.ndarray]:
    """Rank keys and probabilities of each successful kept total.

    The key orders successes: criticals first, then by margin (TN - total).
    """
    by_total = odds.by_total
    margin = odds.target - TOTALS
    key = np.concatenate([margin + 1000, margin])  # critical rows outrank ordinary ones
    prob = np.concatenate([by_total[:, 0], by_total[:, 1]])
    keep = prob > 0
    return key[keep], prob[keep]


def contest(actor: Odds, resister: Odds) -> float:
    """Probability that ``actor`` wins an opposed roll against ``resister``.

    Parameters
    ----------
    actor, resister : Odds
        Each side's own roll (its own TN, Advantage, critical band and reroll).

    Returns
    -------
    float
        P(actor wins); the resister wins every other case (ties and both failing).
    """
    for name, odds in (("actor", actor), ("resister", resister)):
        if not isinstance(odds, Odds):
            raise ValueError(f"{name} must be an Odds (from roll_odds), got {type(odds).__name__}")
    a_key, a_prob = _success_keys(actor)
    r_key, r_prob = _success_keys(resister)
    r_fail = 1.0 - r_prob.sum()
    beaten = (r_key[None, :] < a_key[:, None]) @ r_prob  # P(resister succeeds lower), per a_key
    return float(a_prob @ (r_fail + beaten))


def opposed_odds(
    actor_target: int,
    resist_target: int,
    actor_advantage: int = 0,
    resist_advantage: int = 0,
    *,
    actor_crit_max: int = 2,
    resist_crit_max: int = 2,
) -> float:
    """Probability the actor wins an opposed roll (ties and both-fail go to the resister).

    Parameters
    ----------
    actor_target, resist_target : int
        Each side's own Target Number (own Element + the shared Difficulty).
    actor_advantage, resist_advantage : int
        Net Advantage sources of each side.
    actor_crit_max, resist_crit_max : int
        Highest critical kept total of each side (3 for an Expert).

    Returns
    -------
    float
        P(actor wins).
    """
    actor = roll_odds(actor_target, actor_advantage, actor_crit_max)
    resister = roll_odds(resist_target, resist_advantage, resist_crit_max)
    return contest(actor, resister)


def versus_static(element: int, static: int, tier: int = 1, advantage: int = 0) -> Odds:
    """Odds of beating a creature's static opposed number.

    The static number on the card is the Difficulty of your own roll (rules/000, Opposed
    Rolls: "Stealth 6 vs. Perception means you roll Perception at Difficulty 6").

    Parameters
    ----------
    element : int
        Your Element, 0..10.
    static : int
        The creature's number, 0..10.
    tier : int
        Your training tier in the Skill, 0..4.
    advantage : int
        Net situational Advantage sources.
    """
    static = require_int("static", static, 0, 10)
    return check_odds(element, static, tier, advantage)
