"""``DamageRoll``: the damage argument group, checked in one place (RULES.md, Attacks)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tb_playground.engine import (
    ROLL_LIMITS,
    AttackProfile,
    DamageRoll,
    armor_break_probability,
    damage_distribution,
    damage_with_ki,
    ki_value,
)

GOOD = {
    "dice": 7,
    "wall": 7,
    "boosts": 2,
    "bonus": 3,
    "timing": "after",
    "critical": True,
    "klotho": 4,
}


@pytest.mark.parametrize(
    ("field", "bad", "allowed"),
    [
        ("dice", 101, "from 0 to 100"),
        ("dice", -1, "from 0 to 100"),
        ("dice", 2.0, "whole number"),
        ("wall", 11, "from 0 to 10"),
        ("boosts", 101, "from 0 to 100"),
        ("bonus", 11, "from 0 to 10"),
        ("bonus", True, "whole number"),
        ("timing", "during", "one of ('after', 'before')"),
        ("critical", 1, "True or False"),
        ("klotho", 11, "from 0 to 10"),
    ],
)
def test_a_bad_field_is_named_with_its_allowed_values(field, bad, allowed):
    with pytest.raises(ValueError, match=f"^{field} must be") as error:
        DamageRoll(**{**GOOD, field: bad})
    assert allowed in str(error.value) and str(error.value).endswith(f"got {bad!r}")
    # the keyword functions check through the same record, with the same words
    with pytest.raises(ValueError, match=f"^{field} must be"):
        damage_distribution(**{**GOOD, field: bad})


def test_every_field_has_its_limits():
    assert [f.name for f in dataclasses.fields(DamageRoll)] == list(ROLL_LIMITS)


def test_check_can_call_the_value_by_another_name():
    assert DamageRoll.check("wall", np.int64(6)) == 6
    with pytest.raises(ValueError, match="^hardness must be from 0 to 10, got 12"):
        DamageRoll.check("wall", 12, "hardness")
    with pytest.raises(ValueError, match="^hardness must be"):
        armor_break_probability(3, 12)


def test_a_roll_is_frozen_and_its_values_plain():
    roll = DamageRoll(np.int64(4), np.int32(5), critical=np.bool_(True))
    assert type(roll.dice) is int and type(roll.wall) is int and roll.critical is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.dice = 5  # type: ignore[misc]
    with pytest.raises(ValueError, match="^boosts must be"):
        roll.replace(boosts=-1)


def test_the_record_gives_what_the_keyword_functions_give():
    roll = DamageRoll(**GOOD)
    assert np.array_equal(roll.joint(), damage_with_ki(**GOOD))
    assert np.array_equal(roll.distribution(), damage_distribution(**GOOD))
    # rules/000, Ronan's critical: 7 dice, 4 connect, so at least 4 levels.
    assert np.array_equal(DamageRoll(7, 7, critical=True, klotho=4).distribution()[:4], [0] * 4)


def test_the_fight_and_ki_functions_check_through_the_record():
    with pytest.raises(ValueError, match="^klotho must be from 0 to 10"):
        AttackProfile(dice=3, wall=5, p_hit=0.5, klotho=12)
    with pytest.raises(ValueError, match="^timing must be one of"):
        ki_value(3, 5, 2, timing="later")
    profile = AttackProfile(dice=3, wall=5, p_hit=0.5, p_critical=0.1, boosts=1, bonus=2)
    assert profile.roll(1, critical=True) == DamageRoll(3, 5, 1, 2, "after", True, 0)
