"""The Check model: bounds are the validation, and its odds are the engine's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine import check_odds
from tb_playground.models import Check


@given(
    element=st.integers(0, 10),
    difficulty=st.integers(0, 10),
    tier=st.integers(0, 4),
    plus=st.integers(0, 10),
    minus=st.integers(0, 10),
)
def test_model_odds_are_the_engines(element, difficulty, tier, plus, minus):
    check = Check(
        element=element,
        difficulty=difficulty,
        tier=tier,
        advantage_sources=plus,
        disadvantage_sources=minus,
    )
    expected = check_odds(element, difficulty, tier, plus - minus)
    assert check.odds is expected  # cached: the very same exact object
    assert check.target == expected.target
    assert (check.net_advantage > 0) - (check.net_advantage < 0) == expected.advantage


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("element", 11, "at most 10"),
        ("element", -1, "at least 0"),
        ("difficulty", 12, "at most 10"),
        ("tier", 5, "at most 4"),
        ("advantage_sources", -2, "at least 0"),
        ("element", 5.5, "must be an integer"),
    ],
)
def test_bad_values_name_the_field_and_bound_and_change_nothing(field, value, message):
    check = Check()
    before = (check.param.values(), check.odds)
    with pytest.raises(ValueError, match=rf"Check\.{field}.*{message}"):
        setattr(check, field, value)
    assert (check.param.values(), check.odds) == before


def test_derived_values_are_read_only():
    check = Check()
    with pytest.raises(TypeError, match="(?i)constant parameter .target"):
        check.target = 3


def test_names_from_rules_004():
    check = Check(difficulty=0, tier=3)
    assert check.difficulty_name == "Nearly Impossible"
    assert check.tier_name == "Expert"
    check.difficulty = 10
    assert check.difficulty_name == "Trivial"
