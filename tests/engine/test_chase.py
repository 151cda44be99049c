"""Engine: one chase round, against rules/000 and rules/001 "Chases" and brute force over faces."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine.chase import CHASE_RESULTS, chase_result_odds, chase_round

FACES = range(1, 11)


def side_results(target, sign, crit):
    """Each throw of one side's dice, classified with no engine code: a list of results."""
    out = []
    for faces in itertools.product(FACES, repeat=3 if sign else 2):
        kept = sorted(faces)
        kept = kept[:2] if sign > 0 else kept[-2:] if sign < 0 else kept
        total = sum(kept)
        if total <= crit:
            out.append("critical")
        elif total != 20 and total <= target:
            out.append("success")
        else:
            out.append("failure")
    return out


def moved(move, mine, theirs):
    """rules/001 "Chases" step 3, written apart from the engine."""
    if mine == "critical":
        return Fraction(move) * 3 / 2
    if mine == "failure" and theirs in ("success", "critical"):
        return Fraction(move) / 2
    return Fraction(move)


def brute_round(gap, p_move, q_move, p_side, q_side):
    """Every pair of throws (full joint enumeration): (result pair counts, gap distribution)."""
    a, b = side_results(*p_side), side_results(*q_side)
    pairs, gaps = Counter(), Counter()
    for ra in a:
        for rb in b:
            pairs[ra, rb] += 1
            gaps[max(Fraction(0), gap + moved(q_move, rb, ra) - moved(p_move, ra, rb))] += 1
    n = len(a) * len(b)
    return (
        {k: Fraction(v, n) for k, v in pairs.items()},
        {k: Fraction(v, n) for k, v in gaps.items()},
    )


@pytest.mark.parametrize(
    ("pe", "pt", "padv", "qe", "qt", "qadv", "gap", "pm", "qm"),
    [
        (3, 1, 0, 3, 1, 0, 10, 12, 12),  # equal runners
        (5, 1, 0, 2, 0, 0, 4, 10, 8),  # an untrained quarry: TN = Difficulty alone
        (4, 2, 0, 6, 1, 0, 30, 60, 45),  # Adept pursuer (Advantage), Sprint vs Dash
        (2, 3, -1, 7, 1, 1, 7, 11, 9),  # Expert (crit on a kept 3) at net 0; quarry helped
        (0, 1, -1, 10, 1, 0, 2, 6, 0),  # a quarry standing still
    ],
)
def test_outcomes_and_gap_against_brute_force(pe, pt, padv, qe, qt, qadv, gap, pm, qm):
    r = chase_round(
        gap_m=gap,
        pursuer_move_m=pm,
        quarry_move_m=qm,
        pursuer_element=pe,
        pursuer_tier=pt,
        pursuer_advantage=padv,
        quarry_element=qe,
        quarry_tier=qt,
        quarry_advantage=qadv,
    )

    def side(element, tier, adv):
        target = (element if tier else 0) + 6
        sources = adv + (tier >= 2)
        sign = (sources > 0) - (sources < 0)
        return target, sign, 3 if tier >= 3 else 2

    pairs, gaps = brute_round(gap, pm, qm, side(pe, pt, padv), side(qe, qt, qadv))
    got = {(o.pursuer, o.quarry): o.probability for o in r.outcomes}
    assert {k: v for k, v in got.items() if v} == pairs
    assert dict(r.gaps) == gaps
    assert r.exact_caught == sum(p for g, p in gaps.items() if g <= 1)
    assert sum(got.values()) == 1


def test_movement_rule_from_the_text():
    # rules/000 "Chases": "One side succeeds and the other fails: the side that failed hits
    # the fruit stand, and moves at half this round. Both succeed, or both fail: everyone moves
    # in full. A critical success: you move half again as far."
    r = chase_round(
        gap_m=10, pursuer_move_m=12, quarry_move_m=10, pursuer_element=3, quarry_element=3
    )
    by = {(o.pursuer, o.quarry): o for o in r.outcomes}
    assert (by["success", "failure"].pursuer_moved, by["success", "failure"].quarry_moved) == (
        12,
        5,
    )
    assert (by["failure", "success"].pursuer_moved, by["failure", "success"].quarry_moved) == (
        6,
        10,
    )
    assert (by["success", "success"].pursuer_moved, by["failure", "failure"].quarry_moved) == (
        12,
        10,
    )
    assert (
        by["critical", "failure"].pursuer_moved == 18
        and by["critical", "failure"].quarry_moved == 5
    )
    assert by["critical", "critical"].quarry_moved == 15
    # "At a meter or less, you're caught": 10 + 5 - 18 < 0 -> 0; 10 + 5 - 12 = 3 -> not caught
    assert by["critical", "failure"].caught and by["critical", "failure"].gap_after == 0
    assert not by["success", "failure"].caught and by["success", "failure"].gap_after == 3


def test_exhausted_1_puts_chase_rolls_at_disadvantage():
    # rules/001 "Chases": "Exhausted 1 puts Chase rolls at Disadvantage."
    fresh = chase_result_odds(4)
    tired = chase_result_odds(4, exhausted=1)
    assert tired == chase_result_odds(4, advantage=-1)
    assert tired["failure"] > fresh["failure"]


def test_a_bad_route_is_a_step_or_two_harder():
    # rules/001 "Chases": "The GM makes it one or two steps harder where the route calls for it."
    p = [chase_result_odds(4, difficulty=d)["failure"] for d in (6, 5, 4)]
    assert p[0] < p[1] < p[2]


@given(
    st.integers(0, 50),
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 10),
    st.integers(0, 10),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_round_properties(gap, pm, qm, pe, qe, pt, qt):
    r = chase_round(
        gap_m=gap,
        pursuer_move_m=pm,
        quarry_move_m=qm,
        pursuer_element=pe,
        quarry_element=qe,
        pursuer_tier=pt,
        quarry_tier=qt,
    )
    assert len(r.outcomes) == 9 and sum(o.probability for o in r.outcomes) == 1
    assert sum(p for _, p in r.gaps) == 1
    for o in r.outcomes:
        assert o.pursuer in CHASE_RESULTS and o.quarry in CHASE_RESULTS
        assert Fraction(pm, 2) <= o.pursuer_moved <= Fraction(3 * pm, 2)
        assert o.gap_after >= 0 and o.caught == (o.gap_after <= 1)
    # a pursuer no faster than a quarry more than 1 m away can't close the gap on equal rolls
    same = [o for o in r.outcomes if o.pursuer == o.quarry]
    if pm <= qm and gap > 1:
        assert not any(o.caught for o in same)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="gap_m"):
        chase_round(
            gap_m=-1, pursuer_move_m=1, quarry_move_m=1, pursuer_element=1, quarry_element=1
        )
    with pytest.raises(ValueError, match="exhausted"):
        chase_result_odds(3, exhausted=6)
