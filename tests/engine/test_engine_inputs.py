"""Public engine functions refuse bad input with the argument's name, and floats are exact."""

from __future__ import annotations

import itertools

import pytest

from tb_playground.engine import (
    contest,
    expected_levels,
    gift_check_odds,
    group_odds,
    help_sources,
    p_any_level,
    resource_check_odds,
    roll_odds,
)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: contest("a", roll_odds(5)), "actor"),
        (lambda: contest(roll_odds(5), None), "resister"),
        (lambda: group_odds(None), "members"),
        (lambda: group_odds(roll_odds(5)), "members"),
        (lambda: group_odds([roll_odds(5), 0.5]), "members"),
        (lambda: help_sources(3), "helper_tiers"),
        (lambda: help_sources("12"), "helper_tiers"),
        (lambda: help_sources([1, 5]), r"helper_tiers\[1\]"),
        (lambda: roll_odds(10**20), "target"),
        (lambda: gift_check_odds(10, 5, "no"), "ki_plus_stamina"),
        (lambda: p_any_level([]), "distribution"),
        (lambda: expected_levels([0.5, 0.6]), "distribution"),
        (lambda: expected_levels([1.5, -0.5]), "distribution"),
    ],
)
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize(
    ("target", "advantage", "crit_max", "reroll"),
    list(itertools.product(range(-1, 26), (-1, 0, 1), (2, 3), (False, True))),
)
def test_float_fields_are_the_exact_fractions_rounded_once(target, advantage, crit_max, reroll):
    odds = roll_odds(target, advantage, crit_max, reroll)
    assert odds.p_success == float(odds.exact("success"))
    assert odds.p_critical == float(odds.exact("critical"))
    assert odds.p_failure == float(odds.exact("failure"))
    assert odds.p_catastrophe == float(odds.exact("catastrophe"))


@pytest.mark.parametrize(
    ("level", "index"), [(lv, i) for lv in range(0, 8) for i in range(1, 7) if i <= lv + 2]
)
def test_resource_costs_are_exact(level, index):
    result = resource_check_odds(level, index)
    success, critical = result.odds.exact("success"), result.odds.exact("critical")
    if index == 6:
        expected = (0.0, 0.0, 1.0)
    elif index > level:
        expected = (float(critical), 0.0, float(1 - critical))
    else:
        expected = (float(success), float(1 - success), 0.0)
    assert (result.p_no_cost, result.p_drop_one, result.p_drop_to_zero) == expected
