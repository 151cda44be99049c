"""icepool as a second opinion on the Core Roll (RULES.md, "Core Roll").

icepool builds the kept-total dice itself (``2 @ d10``, lowest / highest two of a 3d10 pool)
and maps kept totals to outcomes with exact ``Fraction`` probabilities, including the Master's
reroll as a nested die.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest

from tb_playground.engine import check_odds, roll_odds, success_table

TARGETS = range(-1, 26)
OUTCOME_NAMES = ("critical", "success", "failure", "catastrophe")


def kept_die(sign: int) -> icepool.Die:
    if sign > 0:
        return icepool.d10.pool(3).lowest(2).sum()
    if sign < 0:
        return icepool.d10.pool(3).highest(2).sum()
    return 2 @ icepool.d10


KEPT = {s: kept_die(s) for s in (-1, 0, 1)}


def outcome_die(target: int, sign: int, crit_max: int, reroll: bool) -> icepool.Die:
    die = KEPT[sign]

    def outcome(total):
        if total <= crit_max:
            return "critical"
        if total == 20:
            if reroll:
                return die.map(lambda again: "catastrophe" if again == 20 else "failure")
            return "catastrophe"
        return "success" if total <= target else "failure"

    return die.map(outcome)


def icepool_probabilities(target, sign, crit_max, reroll) -> dict[str, Fraction]:
    die = outcome_die(target, sign, crit_max, reroll)
    return {name: Fraction(die.probability(name)) for name in OUTCOME_NAMES}


@pytest.mark.parametrize("advantage", (-1, 0, 1), ids=("disadvantage", "plain", "advantage"))
def test_kept_total_distribution(advantage):
    die = KEPT[advantage]
    want = np.array([float(die.probability(t)) for t in range(2, 21)])
    assert sum(die.probability(t) for t in range(2, 21)) == 1
    odds = roll_odds(10, advantage)
    np.testing.assert_allclose(odds.distribution, want, rtol=0, atol=1e-15)
    # And exactly, through the integer numerators.
    rows = odds.numerators.sum(axis=1)
    for t, ways in zip(range(2, 21), rows, strict=True):
        assert Fraction(int(ways), odds.denominator) == die.probability(t), t


def test_icepool_agrees_with_published_plain_roll():
    plain = KEPT[0]
    assert [plain.probability("<=", t) for t in (5, 8, 11, 14, 17)] == [
        Fraction(p, 100) for p in (10, 28, 55, 79, 94)
    ]


@pytest.mark.parametrize("reroll", (False, True), ids=("plain", "master"))
@pytest.mark.parametrize("crit_max", (2, 3), ids=("crit2", "crit3"))
@pytest.mark.parametrize("advantage", (-1, 0, 1), ids=("dis", "normal", "adv"))
def test_outcomes_against_icepool(advantage, crit_max, reroll):
    table = success_table(np.arange(-1, 26), advantage, crit_max, reroll)
    for row, target in enumerate(TARGETS):
        want = icepool_probabilities(target, advantage, crit_max, reroll)
        odds = roll_odds(target, advantage, crit_max, reroll)
        assert odds.exact("critical") == want["critical"], target
        assert odds.exact("success") == want["critical"] + want["success"], target
        assert odds.exact("failure") == want["failure"], target
        assert odds.exact("catastrophe") == want["catastrophe"], target
        floats = [float(want[name]) for name in OUTCOME_NAMES]
        np.testing.assert_allclose(table[row], floats, rtol=0, atol=1e-12, err_msg=f"TN {target}")
        assert odds.p_success == pytest.approx(floats[0] + floats[1], abs=1e-12)


@pytest.mark.parametrize("tier", range(5), ids=lambda t: f"tier{t}")
def test_check_odds_against_icepool(tier):
    for element, difficulty, advantage in [
        (0, 0, 0),
        (3, 5, -1),
        (5, 5, 0),
        (7, 4, 1),
        (10, 10, -2),
    ]:
        target = difficulty if tier == 0 else element + difficulty
        net = advantage + (1 if tier >= 2 else 0)
        sign = (net > 0) - (net < 0)
        want = icepool_probabilities(target, sign, 3 if tier >= 3 else 2, tier == 4)
        odds = check_odds(element, difficulty, tier, advantage)
        assert odds.exact("success") == want["critical"] + want["success"]
        assert odds.exact("catastrophe") == want["catastrophe"]
        assert odds.exact("critical") == want["critical"]
