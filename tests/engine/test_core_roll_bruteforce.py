"""Independent brute-force oracle for the Core Roll (RULES.md, "Core Roll").

Every probability here is counted by enumerating d10 faces with ``itertools.product`` and
kept as a ``fractions.Fraction``. Nothing is borrowed from the engine's own tables: the
oracle re-reads the rules:

- Roll 2d10; success when the kept total is at or under the TN.
- Net advantage > 0: roll 3d10, keep the lowest two; < 0: keep the highest two; 0: 2d10.
- A kept total <= crit_max (2, or 3 for an Expert) is a critical success whatever the TN.
- A kept total of 20 is a catastrophic failure whatever the TN.
- Master: a catastrophe is rerolled once with the same pool; a second 20 stays a
  catastrophe, anything else (even a kept 2) is an ordinary failure.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from tb_playground.engine import check_odds, roll_odds

OUTCOME_NAMES = ("critical", "success", "failure", "catastrophe")
TARGETS = range(-1, 26)
NET_ADVANTAGES = range(-3, 4)
CRIT_MAXES = (2, 3)
REROLLS = (False, True)


# ---------------------------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------------------------


def kept_total(faces: tuple[int, ...], net_advantage: int) -> int:
    """The total a roll keeps: all of 2d10, or the lowest / highest two of 3d10."""
    ordered = sorted(faces)
    if net_advantage > 0:
        return ordered[0] + ordered[1]
    if net_advantage < 0:
        return ordered[-1] + ordered[-2]
    return ordered[0] + ordered[1]


def dice_in_pool(net_advantage: int) -> int:
    """Binary Advantage: any net non-zero sum rolls exactly 3d10, never 4d10."""
    return 2 if net_advantage == 0 else 3


@cache
def first_roll_counts(net_advantage: int) -> tuple[Counter, int]:
    """Ways to keep each total, by enumerating every face tuple; and the number of tuples."""
    n = dice_in_pool(net_advantage)
    counts: Counter = Counter()
    tuples = 0
    for faces in itertools.product(range(1, 11), repeat=n):
        counts[kept_total(faces, net_advantage)] += 1
        tuples += 1
    assert tuples == 10**n
    return counts, tuples


def classify(total: int, target: int, crit_max: int) -> str:
    if total <= crit_max:
        return "critical"
    if total == 20:
        return "catastrophe"
    if total <= target:
        return "success"
    return "failure"


@cache
def master_reroll(net_advantage: int) -> dict[str, Fraction]:
    """Enumerate the pair (first roll kept 20, reroll) and weigh the reroll's outcome.

    Returns P(final outcome | first kept total was 20) for a Master.
    """
    n = dice_in_pool(net_advantage)
    ways = Counter()
    pairs = 0
    for first in itertools.product(range(1, 11), repeat=n):
        if kept_total(first, net_advantage) != 20:
            continue
        for second in itertools.product(range(1, 11), repeat=n):
            pairs += 1
            again = kept_total(second, net_advantage) == 20
            ways["catastrophe" if again else "failure"] += 1
    return {name: Fraction(ways[name], pairs) for name in ("failure", "catastrophe")}


@cache
def oracle_by_total(
    target: int, net_advantage: int, crit_max: int, reroll: bool
) -> dict[tuple[int, str], Fraction]:
    """P(first kept total = t and final outcome = o) for t in 2..20, o in OUTCOME_NAMES."""
    counts, tuples = first_roll_counts(net_advantage)
    table = {(t, o): Fraction(0) for t in range(2, 21) for o in OUTCOME_NAMES}
    for total, ways in counts.items():
        p = Fraction(ways, tuples)
        outcome = classify(total, target, crit_max)
        if outcome == "catastrophe" and reroll:
            for final, q in master_reroll(net_advantage).items():
                table[total, final] += p * q
        else:
            table[total, outcome] += p
    return table


def oracle(target: int, net_advantage: int, crit_max: int, reroll: bool) -> dict[str, Fraction]:
    table = oracle_by_total(target, net_advantage, crit_max, reroll)
    result = {
        o: sum((p for (_, oo), p in table.items() if oo == o), Fraction(0)) for o in OUTCOME_NAMES
    }
    return result


def oracle_check(element: int, difficulty: int, tier: int, advantage: int) -> dict[str, Fraction]:
    """A skill check at a training tier, from the tier table in RULES.md / rules/004."""
    target = difficulty if tier == 0 else element + difficulty
    net = advantage + (1 if tier >= 2 else 0)
    crit_max = 3 if tier >= 3 else 2
    return oracle(target, net, crit_max, tier == 4)


# ---------------------------------------------------------------------------------------------
# Sanity checks of the oracle itself (hand-countable facts)
# ---------------------------------------------------------------------------------------------


def test_oracle_hand_counts():
    plain, n = first_roll_counts(0)
    assert n == 100 and plain[2] == 1 and plain[11] == 10 and plain[20] == 1
    adv, n = first_roll_counts(1)
    # Advantage keeps 2 only with at least two 1s: 3 * 9 + 1 = 28 of 1000.
    assert n == 1000 and adv[2] == 28 and adv[20] == 1
    dis, _ = first_roll_counts(-1)
    assert dis[2] == 1 and dis[20] == 28
    assert sum(plain.values()) == 100 and sum(adv.values()) == sum(dis.values()) == 1000
    assert master_reroll(0) == {"failure": Fraction(99, 100), "catastrophe": Fraction(1, 100)}
    for net in NET_ADVANTAGES:
        for crit in CRIT_MAXES:
            for reroll in REROLLS:
                assert sum(oracle(10, net, crit, reroll).values()) == 1


# ---------------------------------------------------------------------------------------------
# roll_odds against the oracle
# ---------------------------------------------------------------------------------------------

ROLL_CASES = [
    pytest.param(t, a, c, r, id=f"TN{t}-adv{a:+d}-crit{c}-{'master' if r else 'plain'}")
    for a in NET_ADVANTAGES
    for c in CRIT_MAXES
    for r in REROLLS
    for t in TARGETS
]


@pytest.mark.parametrize(("target", "advantage", "crit_max", "reroll"), ROLL_CASES)
def test_roll_odds_matches_oracle(target, advantage, crit_max, reroll):
    odds = roll_odds(target, advantage, crit_max, reroll)
    want = oracle(target, advantage, crit_max, reroll)
    got_float = {
        "critical": odds.p_critical,
        "success": odds.p_success - odds.p_critical,
        "failure": odds.p_failure,
        "catastrophe": odds.p_catastrophe,
    }
    for name in OUTCOME_NAMES:
        assert got_float[name] == pytest.approx(float(want[name]), abs=1e-12), name
    assert odds.p_success == pytest.approx(float(want["critical"] + want["success"]), abs=1e-12)
    assert odds.exact("critical") == want["critical"]
    assert odds.exact("success") == want["critical"] + want["success"]
    assert odds.exact("failure") == want["failure"]
    assert odds.exact("catastrophe") == want["catastrophe"]
    assert odds.target == target
    assert odds.advantage == (advantage > 0) - (advantage < 0)
    assert odds.crit_max == crit_max and odds.reroll_catastrophe is reroll


@pytest.mark.parametrize(("target", "advantage", "crit_max", "reroll"), ROLL_CASES)
def test_by_total_matches_oracle(target, advantage, crit_max, reroll):
    odds = roll_odds(target, advantage, crit_max, reroll)
    table = oracle_by_total(target, advantage, crit_max, reroll)
    want = np.array([[float(table[t, o]) for o in OUTCOME_NAMES] for t in range(2, 21)])
    assert odds.by_total.shape == (19, 4)
    np.testing.assert_allclose(odds.by_total, want, rtol=0, atol=1e-12)
    # Exact: numerators / denominator reproduce every cell as a Fraction.
    for i, t in enumerate(range(2, 21)):
        for j, o in enumerate(OUTCOME_NAMES):
            assert Fraction(int(odds.numerators[i, j]), odds.denominator) == table[t, o], (t, o)
    np.testing.assert_allclose(odds.by_total.sum(axis=1), odds.distribution, rtol=0, atol=1e-15)


@pytest.mark.parametrize("advantage", NET_ADVANTAGES, ids=lambda a: f"adv{a:+d}")
@pytest.mark.parametrize("reroll", REROLLS, ids=["plain", "master"])
def test_distribution_is_first_roll_kept_total(advantage, reroll):
    counts, tuples = first_roll_counts(advantage)
    want = np.array([counts[t] / tuples for t in range(2, 21)])
    for target in (-1, 2, 11, 25):
        odds = roll_odds(target, advantage, 2, reroll)
        np.testing.assert_allclose(odds.distribution, want, rtol=0, atol=1e-15)
        assert odds.distribution.sum() == pytest.approx(1.0, abs=1e-15)


# ---------------------------------------------------------------------------------------------
# check_odds at every tier against the oracle's reading of the tier table
# ---------------------------------------------------------------------------------------------

TIERS = range(5)
ELEMENTS = range(11)
DIFFICULTIES = range(11)


@pytest.mark.parametrize("advantage", (-2, -1, 0, 1), ids=lambda a: f"adv{a:+d}")
@pytest.mark.parametrize("tier", TIERS, ids=lambda t: f"tier{t}")
def test_check_odds_matches_oracle(tier, advantage):
    mismatches = []
    for element in ELEMENTS:
        for difficulty in DIFFICULTIES:
            odds = check_odds(element, difficulty, tier, advantage)
            want = oracle_check(element, difficulty, tier, advantage)
            got = {
                "critical": odds.exact("critical"),
                "success": odds.exact("success") - odds.exact("critical"),
                "failure": odds.exact("failure"),
                "catastrophe": odds.exact("catastrophe"),
            }
            if got != want:
                mismatches.append((element, difficulty, got, want))
            elif abs(odds.p_success - float(want["critical"] + want["success"])) > 1e-12:
                mismatches.append((element, difficulty, odds.p_success, want))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[0]}"


@pytest.mark.parametrize("tier", TIERS, ids=lambda t: f"tier{t}")
def test_check_odds_tier_effects(tier):
    """Spot values that single out each tier rule, counted by hand from the oracle."""
    odds = check_odds(4, 6, tier)
    assert odds.target == (6 if tier == 0 else 10)
    assert odds.advantage == (1 if tier >= 2 else 0)
    assert odds.crit_max == (3 if tier >= 3 else 2)
    assert odds.reroll_catastrophe is (tier == 4)
    if tier == 4:
        # Advantage: a kept 20 needs three 10s (1/1000); the reroll keeps it 1/1000 of the time.
        assert odds.exact("catastrophe") == Fraction(1, 1000) ** 2
        assert odds.exact("failure") + odds.exact("success") + odds.exact("catastrophe") == 1


def test_master_reroll_worked_numbers():
    # Trained-style plain roll with the reroll: catastrophe 1/100 * 1/100.
    odds = roll_odds(10, 0, 2, True)
    assert odds.exact("catastrophe") == Fraction(1, 10_000)
    assert odds.exact("failure") == Fraction(55, 100) - Fraction(1, 100) + Fraction(99, 10_000)
    # Master at Disadvantage (situational -1 cancels the tier's source) is plain again;
    # at -2 it is Disadvantage: kept 20 in 28/1000, twice in a row (28/1000)^2.
    assert check_odds(5, 5, 4, -1).exact("catastrophe") == Fraction(1, 10_000)
    assert check_odds(5, 5, 4, -2).exact("catastrophe") == Fraction(28, 1000) ** 2
    # The reroll never turns into a success, even on a kept 2 on the reroll.
    assert check_odds(10, 10, 4, -2).exact("success") == 1 - Fraction(28, 1000)
