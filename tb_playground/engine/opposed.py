"""Opposed rolls, and a roll against a creature's static number (``versus_static``).

Rule: RULES.md, Core Roll (Opposed roll); rules/000 "Opposed Rolls". The ``criticals_outrank``
switch and the margin reading: docs/notes/0005-readings-and-fights.md.
"""

from __future__ import annotations

import numpy as np

from .core_roll import MAX_TARGET, Odds, check_odds, roll_odds
from .dice import TOTALS
from .validation import require_bool, require_int


def _success_keys(odds: Odds, criticals_outrank: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rank keys and probabilities of each successful kept total.

    The key orders successes by margin (TN - total); with ``criticals_outrank`` criticals
    come first, then by margin.
    """
    by_total = odds.by_total
    margin = odds.target - TOTALS
    lift = 4 * MAX_TARGET if criticals_outrank else 0  # beyond any ordinary margin
    key = np.concatenate([margin + lift, margin])
    prob = np.concatenate([by_total[:, 0], by_total[:, 1]])
    keep = prob > 0
    return key[keep], prob[keep]


def contest(actor: Odds, resister: Odds, *, criticals_outrank: bool = False) -> float:
    """Probability that ``actor`` wins an opposed roll against ``resister``.

    rules/000 "Opposed Rolls": only one succeeds, that one wins; both succeed, further under
    their own TN wins, a tie to the resister; both fail, the resister.

    Parameters
    ----------
    actor, resister : Odds
        Each side's own roll (its own TN, Advantage, critical band and reroll).
    criticals_outrank : bool
        Ruleset switch: a critical success beats any ordinary success. Default False: a
        critical's margin is its TN minus its kept total, like any success.

    Returns
    -------
    float
        P(actor wins); the resister wins every other case (ties and both failing).
    """
    for name, odds in (("actor", actor), ("resister", resister)):
        if not isinstance(odds, Odds):
            raise ValueError(f"{name} must be an Odds (from roll_odds), got {type(odds).__name__}")
    outrank = require_bool("criticals_outrank", criticals_outrank)
    a_key, a_prob = _success_keys(actor, outrank)
    r_key, r_prob = _success_keys(resister, outrank)
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
    actor_reroll: bool = False,
    resist_reroll: bool = False,
    criticals_outrank: bool = False,
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
    actor_reroll, resist_reroll : bool
        Master's reroll of a catastrophic failure (it stays a failure: no effect on who wins).
    criticals_outrank : bool
        Ruleset switch ``criticals_outrank``: a critical beats any ordinary success.

    Returns
    -------
    float
        P(actor wins).
    """
    actor = roll_odds(actor_target, actor_advantage, actor_crit_max, actor_reroll)
    resister = roll_odds(resist_target, resist_advantage, resist_crit_max, resist_reroll)
    return contest(actor, resister, criticals_outrank=criticals_outrank)


def versus_static(
    element: int,
    static: int,
    tier: int = 1,
    advantage: int = 0,
    *,
    advantage_from_expert: bool = False,
) -> Odds:
    """Odds of beating a creature's static opposed number.

    The static number on the card is the Difficulty of your own roll (rules/000, Opposed
    Rolls: "Stealth 6 vs. Perception means you roll Perception at Difficulty 6"). Nothing is
    compared by margin, so ``criticals_outrank`` does not touch it: any success beats the card.

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
    advantage_from_expert : bool
        Variant 002: a tier's Advantage starts at Expert, not Adept (``tier_rules``).
    """
    static = require_int("static", static, 0, 10)
    return check_odds(element, static, tier, advantage, advantage_from_expert=advantage_from_expert)
