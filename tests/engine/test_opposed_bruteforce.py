"""Opposed rolls against every d10 face of both sides, read literally (rules/000 "Opposed Rolls").

"If only one of you succeeds, that one wins. If you both succeed, whoever came in further under
their target number wins. A tie goes to whoever is resisting, and so does both of you failing."
RULES.md, Core Roll: "The margin is TN minus the kept total for every success, a critical
included (000 makes no exception: a critical at TN 8 with a kept 2 is 6 under). 'A critical
outranks any ordinary success' is a named variant, off by default" (``criticals_outrank``).

The oracle here rolls every face of both sides' dice (2d10, or 3d10 with Advantage or
Disadvantage), applies the tier (Expert: a kept 2 or 3 is critical; Master: a kept 20 is rerolled
once and can only soften to a failure) and judges each pair of rolls by the sentence above.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from tb_playground.engine import check_odds, contest, opposed_odds, roll_odds, versus_static

#: (crit_max, reroll) of Trained, Expert and Master rolls.
TIERS = {"trained": (2, False), "expert": (3, False), "master": (3, True)}


@cache
def kept_faces(advantage: int) -> np.ndarray:
    """The kept total of every ordered roll of the dice, one entry per roll of the faces."""
    n = 2 if advantage == 0 else 3
    rolls = np.array(list(itertools.product(range(1, 11), repeat=n)))
    rolls.sort(axis=1)
    if advantage < 0:
        return rolls[:, -1] + rolls[:, -2]
    return rolls[:, 0] + rolls[:, 1]


def judge(kept: np.ndarray, target: int, crit_max: int, reroll: bool):
    """(success, critical, margin) of each roll.

    A Master's kept 20 is rerolled once; whatever the reroll shows it is at best an ordinary
    failure, so the roll still fails (RULES.md, Core Roll: training tiers).
    """
    critical = kept <= crit_max
    catastrophe = kept == 20  # with reroll: softened or not, a failure
    success = critical | ((kept <= target) & ~catastrophe)
    del reroll  # the reroll never makes a success: same success mask either way
    return success, critical, target - kept


def literal_wins(a_tn, r_tn, a_adv, r_adv, a_tier, r_tier, outrank) -> Fraction:
    a_kept, r_kept = kept_faces(a_adv), kept_faces(r_adv)
    a_ok, a_crit, a_margin = judge(a_kept, a_tn, *TIERS[a_tier])
    r_ok, r_crit, r_margin = judge(r_kept, r_tn, *TIERS[r_tier])
    further = a_margin[:, None] > r_margin[None, :]  # a tie goes to the resister
    if outrank:
        same_rank = a_crit[:, None] == r_crit[None, :]
        beats = (a_crit[:, None] & ~r_crit[None, :]) | (same_rank & further)
    else:
        beats = further
    # Only the actor succeeds, or both do and the actor beats the resister; else the resister.
    wins = a_ok[:, None] & (~r_ok[None, :] | beats)
    return Fraction(int(wins.sum()), a_kept.size * r_kept.size)


#: TN pairs where criticals and margins meet: a critical at TN 8 (6 under) against an ordinary
#: success further under, TNs below 2 and 3, TNs past 20, and even matches.
TN_PAIRS = [(8, 16), (16, 8), (11, 11), (2, 3), (3, 2), (1, 19), (-1, 5), (25, 20), (5, 14)]


@pytest.mark.parametrize("outrank", [False, True], ids=["margin", "outrank"])
@pytest.mark.parametrize("tiers", list(itertools.product(TIERS, TIERS)), ids="-".join)
@pytest.mark.parametrize("advs", list(itertools.product((-1, 0, 1), repeat=2)), ids=str)
def test_opposed_odds_every_face(advs, tiers, outrank):
    a_adv, r_adv = advs
    a_tier, r_tier = tiers
    a_crit, a_reroll = TIERS[a_tier]
    r_crit, r_reroll = TIERS[r_tier]
    for a_tn, r_tn in TN_PAIRS:
        want = literal_wins(a_tn, r_tn, a_adv, r_adv, a_tier, r_tier, outrank)
        got = opposed_odds(
            a_tn,
            r_tn,
            a_adv,
            r_adv,
            actor_crit_max=a_crit,
            resist_crit_max=r_crit,
            actor_reroll=a_reroll,
            resist_reroll=r_reroll,
            criticals_outrank=outrank,
        )
        assert got == pytest.approx(float(want), abs=1e-12), (a_tn, r_tn)
        a = roll_odds(a_tn, a_adv, a_crit, a_reroll)
        r = roll_odds(r_tn, r_adv, r_crit, r_reroll)
        assert contest(a, r, criticals_outrank=outrank) == got


def test_critical_six_under_loses_to_seven_under():
    """RULES.md's example: a critical at TN 8 with a kept 2 is 6 under; an ordinary success 7
    under beats it by default, and loses to it with ``criticals_outrank``."""
    a = literal_wins(8, 16, 0, 0, "trained", "trained", False)
    b = literal_wins(8, 16, 0, 0, "trained", "trained", True)
    assert b > a
    # The whole difference: actor critical (kept 2, 1/100, 6 under) against a resister ordinary
    # success 6 or more under, a tie going to the resister (kept 3..10 at TN 16: 44/100).
    assert b - a == Fraction(1, 100) * Fraction(2 + 3 + 4 + 5 + 6 + 7 + 8 + 9, 100)
    assert opposed_odds(8, 16, criticals_outrank=True) - opposed_odds(8, 16) == pytest.approx(
        float(b - a), abs=1e-15
    )


@pytest.mark.parametrize("outrank", [False, True])
def test_opposed_checks_share_the_difficulty(outrank):
    """Each side's own Element and tier against one Difficulty: contest of two check_odds."""
    for difficulty in (0, 3, 6, 10):
        for a_el, r_el in [(2, 7), (5, 5), (9, 1)]:
            for a_tier, r_tier in itertools.product(range(5), repeat=2):
                a = check_odds(a_el, difficulty, a_tier)
                r = check_odds(r_el, difficulty, r_tier)
                got = contest(a, r, criticals_outrank=outrank)
                a_name = "master" if a_tier == 4 else "expert" if a_tier == 3 else "trained"
                r_name = "master" if r_tier == 4 else "expert" if r_tier == 3 else "trained"
                want = literal_wins(
                    a_el * (a_tier > 0) + difficulty,
                    r_el * (r_tier > 0) + difficulty,
                    int(a_tier >= 2),
                    int(r_tier >= 2),
                    a_name,
                    r_name,
                    outrank,
                )
                assert got == pytest.approx(float(want), abs=1e-12)


def test_versus_static_is_untouched_by_the_switch():
    """A creature's static number is a Difficulty, no margins compared (rules/000)."""
    assert versus_static(6, 4).p_success == check_odds(6, 4).p_success


def test_criticals_outrank_must_be_bool():
    with pytest.raises((TypeError, ValueError), match="criticals_outrank"):
        contest(roll_odds(5), roll_odds(5), criticals_outrank="yes")
