"""Armor (rules/002): brute-force enumeration and the zone rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from brute_dice import as_float, brute_armor_break, brute_damage

from tb_playground.engine import (
    Armor,
    armor_break_probability,
    armor_covers,
    armor_distribution,
    attack_zone,
    damage_distribution,
)

TOL = 1e-12


@pytest.mark.parametrize("timing", ["after", "before"])
def test_break_probability_matches_brute_force(timing):
    for dice, hardness, boosts, bonus in itertools.product(
        range(0, 5), range(0, 11), (0, 1, 3), (0, 2, 6)
    ):
        exact = float(brute_armor_break(dice, hardness, boosts, bonus, timing))
        got = armor_break_probability(dice, hardness, boosts, bonus, timing)
        assert abs(got - exact) < TOL, (dice, hardness, boosts, bonus, timing)


def test_break_probability_five_and_six_dice():
    for args in [(5, 7, 2, 3, "after"), (6, 8, 1, 2, "after"), (6, 9, 2, 4, "before")]:
        assert abs(armor_break_probability(*args) - float(brute_armor_break(*args))) < TOL


@pytest.mark.parametrize("dice", range(0, 7))
def test_joint_distribution_when_armor_holds(dice):
    armor = Armor(hardness=6, levels=2, zone="body")
    joint = armor_distribution(dice, wall=3, armor=armor, boosts=1, bonus=2)
    p_break = float(brute_armor_break(dice, 6, 1, 2)) if dice <= 4 else None
    assert joint.shape == (2, dice + 1)
    assert joint[:, 1:].sum() == 0.0  # the wearer takes nothing while the armor holds
    assert joint.sum() == pytest.approx(1.0, abs=TOL)
    if p_break is not None:
        assert joint[1, 0] == pytest.approx(p_break, abs=TOL)


def test_at_most_one_armor_level_per_attack():
    joint = armor_distribution(20, 0, Armor(0, 5))
    assert joint.shape[0] == 2 and joint[1, 0] == pytest.approx(1.0)


def test_critical_costs_the_armor_its_level():
    for timing in ("after", "before"):
        joint = armor_distribution(3, 4, Armor(10, 1), critical=True, klotho=2, timing=timing)
        assert joint[1, 0] == 1.0


def test_called_shot_goes_to_the_head():
    assert attack_zone(False) == "body" and attack_zone(True) == "head"
    body, head = Armor(8, 3, "body"), Armor(8, 3, "head")
    assert armor_covers(body) and not armor_covers(body, called_shot=True)
    assert armor_covers(head, called_shot=True) and not armor_covers(head)
    # a Called Shot ignores Body armor and goes straight to the wall
    exact = as_float(brute_damage(3, 4, 0, 0)).sum(axis=1)
    joint = armor_distribution(3, 4, body, called_shot=True)
    assert np.abs(joint[0] - exact).max() < TOL and joint[1].sum() == 0.0
    # a normal attack ignores Head armor
    assert np.abs(armor_distribution(3, 4, head)[0] - exact).max() < TOL


def test_broken_armor_stops_covering():
    broken = Armor(10, 0)
    assert not armor_covers(broken)
    joint = armor_distribution(4, 5, broken, boosts=2, bonus=3)
    assert np.abs(joint[0] - damage_distribution(4, 5, 2, 3)).max() < TOL
    assert np.abs(armor_distribution(4, 5, None)[0] - damage_distribution(4, 5)).max() < TOL


def test_bad_input():
    with pytest.raises(ValueError, match="hardness"):
        Armor(11, 2)
    with pytest.raises(ValueError, match="levels"):
        Armor(5, -1)
    with pytest.raises(ValueError, match="zone"):
        Armor(5, 2, "legs")
    with pytest.raises(ValueError, match="armor"):
        armor_distribution(3, 4, armor=(5, 2))
    with pytest.raises(ValueError, match="called_shot"):
        armor_distribution(3, 4, Armor(5, 2), called_shot="yes")
    with pytest.raises(ValueError, match="timing"):
        armor_break_probability(3, 5, timing="later", critical=True)
