"""What a Ki point is worth: closed forms from the rules, and the vectorized table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tb_playground.engine import ki_value, ki_value_table


def _tail(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) >= k)."""
    return sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))


@pytest.mark.parametrize("wall", range(11))
@pytest.mark.parametrize("bonus", [0, 1, 3, 6, 10])
def test_after_the_kth_ki_is_worth_p_at_least_k_liftable(wall, bonus):
    dice = 6
    value = ki_value(dice, wall, bonus, max_boosts=7)
    p_lift = min(wall, bonus) / 10  # faces the bonus lifts over the wall, not over without
    expected = [_tail(dice, p_lift, k) for k in range(1, 8)]
    assert value.extra_levels == pytest.approx(expected, abs=1e-12)
    assert value.p_spent == pytest.approx(expected, abs=1e-12)
    spent = value.levels_per_ki_spent
    assert np.all(np.isclose(spent, 1.0, rtol=1e-6) | np.isnan(spent))  # a spent Ki: one level


def test_before_every_boost_is_worth_the_lifted_faces():
    value = ki_value(4, 7, 3, max_boosts=6, timing="before")
    assert value.extra_levels == pytest.approx([0.3] * 4 + [0.0, 0.0], abs=1e-12)
    assert value.p_spent == pytest.approx([1, 1, 1, 1, 0, 0], abs=1e-12)


def test_ferocity_examples_rules_000():
    assert ki_value(1, 10, 10).extra_levels[0] == pytest.approx(1.0)
    assert ki_value(1, 10, 2).extra_levels[0] == pytest.approx(0.2)


def test_diminishing_returns_after():
    value = ki_value(8, 7, 4, max_boosts=8)
    assert np.all(np.diff(value.extra_levels) <= 1e-15)


def test_table_matches_single_calls():
    table = ki_value_table(10, [0, 4, 8, 10], [0, 3, 5], max_boosts=4)
    assert table.shape == (11, 4, 3, 4)
    for n in range(11):
        for w, wall in enumerate([0, 4, 8, 10]):
            for o, bonus in enumerate([0, 3, 5]):
                single = ki_value(n, wall, bonus, max_boosts=4).extra_levels
                assert table[n, w, o] == pytest.approx(single, abs=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="max_boosts"):
        ki_value(3, 5, 2, max_boosts=-1)
    with pytest.raises(ValueError, match="max_boosts"):
        ki_value_table(max_boosts=0)
    with pytest.raises(ValueError, match="bonus"):
        ki_value(3, 5, 12)
