"""Property tests of the Core Roll engine (RULES.md, "Core Roll"), with hypothesis."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine import (
    check_odds,
    check_target,
    difficulty_step,
    roll_odds,
    success_curve,
    success_table,
    tier_rules,
)

targets = st.integers(min_value=-5, max_value=30)
advantages = st.integers(min_value=-4, max_value=4)
crit_maxes = st.sampled_from((2, 3))
rerolls = st.booleans()
elements = st.integers(min_value=0, max_value=10)
difficulties = st.integers(min_value=0, max_value=10)
tiers = st.integers(min_value=0, max_value=4)


@given(targets, advantages, crit_maxes, rerolls)
def test_outcomes_sum_to_one(target, advantage, crit_max, reroll):
    odds = roll_odds(target, advantage, crit_max, reroll)
    total = odds.p_success + odds.p_failure + odds.p_catastrophe
    assert total == pytest.approx(1.0, abs=1e-12)
    assert odds.exact("success") + odds.exact("failure") + odds.exact("catastrophe") == 1
    assert 0 <= odds.exact("critical") <= odds.exact("success") <= 1
    assert np.all(odds.by_total >= 0)
    assert odds.by_total.sum() == pytest.approx(1.0, abs=1e-12)


@given(targets, advantages, crit_maxes, rerolls)
def test_success_monotone_in_target(target, advantage, crit_max, reroll):
    lower = roll_odds(target, advantage, crit_max, reroll)
    higher = roll_odds(target + 1, advantage, crit_max, reroll)
    assert higher.exact("success") >= lower.exact("success")
    assert higher.p_success >= lower.p_success


@given(elements, st.integers(min_value=0, max_value=9), tiers, advantages)
def test_success_monotone_in_difficulty(element, difficulty, tier, advantage):
    harder = check_odds(element, difficulty, tier, advantage)
    easier = check_odds(element, difficulty + 1, tier, advantage)
    assert easier.exact("success") >= harder.exact("success")


@given(targets, crit_maxes, rerolls)
def test_advantage_never_lowers_success(target, crit_max, reroll):
    dis, plain, adv = (roll_odds(target, a, crit_max, reroll) for a in (-1, 0, 1))
    assert adv.exact("success") >= plain.exact("success") >= dis.exact("success")
    # And it never raises the chance of a catastrophe.
    assert adv.exact("catastrophe") <= plain.exact("catastrophe") <= dis.exact("catastrophe")


@given(targets, advantages, crit_maxes, rerolls)
def test_only_the_sign_of_advantage_counts(target, advantage, crit_max, reroll):
    sign = (advantage > 0) - (advantage < 0)
    a = roll_odds(target, advantage, crit_max, reroll)
    b = roll_odds(target, sign, crit_max, reroll)
    assert a.advantage == sign
    np.testing.assert_array_equal(a.numerators, b.numerators)


@given(elements, difficulties, st.integers(min_value=-3, max_value=3))
def test_higher_tier_never_lowers_success(element, difficulty, advantage):
    chances = [check_odds(element, difficulty, t, advantage).exact("success") for t in range(5)]
    assert chances == sorted(chances), chances


@given(elements, difficulties, st.integers(min_value=-3, max_value=3))
def test_higher_tier_never_raises_catastrophe(element, difficulty, advantage):
    cats = [check_odds(element, difficulty, t, advantage).exact("catastrophe") for t in range(5)]
    assert cats == sorted(cats, reverse=True), cats


@given(advantages, crit_maxes, rerolls, st.lists(targets, min_size=2, max_size=6))
def test_critical_and_catastrophe_ignore_the_target(advantage, crit_max, reroll, tns):
    crits = {roll_odds(t, advantage, crit_max, reroll).exact("critical") for t in tns}
    cats = {roll_odds(t, advantage, crit_max, reroll).exact("catastrophe") for t in tns}
    assert len(crits) == 1 and len(cats) == 1


@given(elements, difficulties, tiers)
def test_check_target(element, difficulty, tier):
    want = difficulty if tier == 0 else element + difficulty
    assert check_target(element, difficulty, tier) == want
    assert check_odds(element, difficulty, tier).target == want


@given(st.lists(targets, min_size=1, max_size=8), advantages, crit_maxes, rerolls)
def test_success_table_matches_roll_odds(tns, advantage, crit_max, reroll):
    table = success_table(np.array(tns), advantage, crit_max, reroll)
    curve = success_curve(np.array(tns), advantage, crit_max, reroll)
    for row, tn in enumerate(tns):
        odds = roll_odds(tn, advantage, crit_max, reroll)
        want = [
            odds.p_critical,
            odds.p_success - odds.p_critical,
            odds.p_failure,
            odds.p_catastrophe,
        ]
        np.testing.assert_allclose(table[row], want, rtol=0, atol=1e-12)
        assert curve[row] == pytest.approx(odds.p_success, abs=1e-12)


def test_tier_rules_table():
    rows = [
        (t.uses_element, t.advantage_sources, t.crit_max, t.reroll_catastrophe)
        for t in map(tier_rules, range(5))
    ]
    assert rows == [
        (False, 0, 2, False),
        (True, 0, 2, False),
        (True, 1, 2, False),
        (True, 1, 3, False),
        (True, 1, 3, True),
    ]


# ---------------------------------------------------------------------------------------------
# Bad input: a ValueError naming the argument and its range
# ---------------------------------------------------------------------------------------------

BAD_CALLS = [
    pytest.param(lambda: check_odds(11, 5), "element", "0", "10", id="element-11"),
    pytest.param(lambda: check_odds(-1, 5), "element", "0", "10", id="element--1"),
    pytest.param(lambda: check_odds(5, -1), "difficulty", "0", "10", id="difficulty--1"),
    pytest.param(lambda: check_odds(5, 11), "difficulty", "0", "10", id="difficulty-11"),
    pytest.param(lambda: check_odds(5, 5, 5), "tier", "0", "4", id="tier-5"),
    pytest.param(lambda: check_odds(5, 5, -1), "tier", "0", "4", id="tier--1"),
    pytest.param(lambda: check_odds(5.5, 5), "element", "0", "10", id="element-5.5"),
    pytest.param(lambda: check_odds(True, 5), "element", "0", "10", id="element-True"),
    pytest.param(lambda: check_odds("5", 5), "element", "0", "10", id="element-str"),
    pytest.param(lambda: check_odds(5, 5, 1, 0.5), "advantage", None, None, id="advantage-0.5"),
    pytest.param(lambda: check_target(5, 5, 5), "tier", "0", "4", id="check_target-tier-5"),
    pytest.param(lambda: roll_odds(10, crit_max=1), "crit_max", "2", "19", id="crit_max-1"),
    pytest.param(lambda: roll_odds(10, crit_max=20), "crit_max", "2", "19", id="crit_max-20"),
    pytest.param(lambda: roll_odds(10.0), "target", None, None, id="target-float"),
    pytest.param(lambda: roll_odds(10, 0, 2, 1), "reroll_catastrophe", None, None, id="reroll-1"),
    pytest.param(lambda: tier_rules(5), "tier", "0", "4", id="tier_rules-5"),
]


@pytest.mark.parametrize(("call", "name", "low", "high"), BAD_CALLS)
def test_bad_input_raises_value_error_naming_argument(call, name, low, high):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert re.match(rf"{name}\b", message), message
    if low is not None:
        assert f"from {low} to {high}" in message, message


@given(st.integers(min_value=11, max_value=1000) | st.integers(max_value=-1))
def test_any_out_of_range_element_is_rejected(element):
    with pytest.raises(ValueError, match=r"^element must be .*from 0 to 10"):
        check_odds(element, 5)


@pytest.mark.parametrize("crit_max", (1, 20), ids=("crit_max-1", "crit_max-20"))
def test_success_table_validates_crit_max(crit_max):
    with pytest.raises(ValueError, match="crit_max"):
        success_table(np.arange(-1, 26), 0, crit_max)
    with pytest.raises(ValueError, match="crit_max"):
        difficulty_step(np.array([11]), crit_max=crit_max)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"reroll_catastrophe": 1}, "reroll_catastrophe"), ({"advantage": 1.5}, "advantage")],
)
def test_success_table_validates_the_roll(kwargs, name):
    with pytest.raises(ValueError, match=name):
        success_table(np.arange(-1, 26), **kwargs)


def test_success_curve_rejects_fractional_targets():
    with pytest.raises(ValueError, match="target"):
        success_curve(np.array([10.9]))
