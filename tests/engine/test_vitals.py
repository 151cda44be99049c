"""Vitals track rules (RULES.md, Vitals): one function, checked against the texts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine import (
    KI_POLICIES,
    VITALS,
    ki_recovery,
    take_attack,
    track_range,
    vital_state,
    vital_step,
)


def test_one_attack_never_carries_a_track_past_zero():
    # rules/000: "A bear that rolls ten dice at someone with three Levels left ... drops them."
    hit = take_attack(3, 10, maximum=8)
    assert (hit.current, hit.taken, hit.state) == (0, 3, "unconscious")


def test_at_or_below_zero_an_attack_takes_one_level():
    assert take_attack(0, 10, maximum=8).current == -1
    assert take_attack(-3, 7, maximum=8).current == -4
    assert take_attack(-3, 0, maximum=8).current == -3
    assert take_attack(-3, 1, maximum=8).state == "dying"


def test_health_dead_at_minus_maximum():
    # "Seven Health Levels means dead at -7."
    hit = take_attack(-6, 5, maximum=7)
    assert hit.current == -7 and hit.bottomed and hit.state == "dead"
    again = take_attack(-7, 5, maximum=7)
    assert again.current == -7 and again.taken == 0


def test_critical_hit_alone_cannot_kill():
    # any levels, from any positive level: the track stops at 0
    for maximum in (1, 5, 12):
        for current in range(1, maximum + 1):
            for levels in range(0, 40):
                assert take_attack(current, levels, maximum).current >= 0


def test_poise_bottom_resets_and_costs_sanity():
    hit = take_attack(-4, 3, maximum=5, vital="poise")
    assert hit.current == 0 and hit.bottomed and hit.sanity_loss == 1
    assert take_attack(-3, 3, maximum=5, vital="poise").sanity_loss == 0
    assert take_attack(2, 9, maximum=5, vital="poise").state == "flustered"
    assert take_attack(0, 9, maximum=5, vital="poise").state == "humiliated"


def test_sanity_bottom_resets_with_no_cost_elsewhere():
    hit = take_attack(-4, 3, maximum=5, vital="sanity")
    assert hit.current == 0 and hit.bottomed and hit.sanity_loss == 0
    assert take_attack(1, 3, maximum=5, vital="sanity").state == "overwhelmed"
    assert take_attack(-1, 3, maximum=5, vital="sanity").state == "shattered"


def test_variant_002_poise_stops_at_zero_and_ki_cannot_prevent_it():
    hit = take_attack(0, 5, maximum=5, vital="poise", variant_002=True)
    assert hit.current == 0 and hit.taken == 0
    hit = take_attack(3, 2, maximum=5, vital="poise", ki=5, ki_policy="all", variant_002=True)
    assert hit.current == 1 and hit.prevented == 0
    assert track_range("poise", 5, variant_002=True) == (0, 5)
    with pytest.raises(ValueError, match="current"):
        take_attack(-1, 1, maximum=5, vital="poise", variant_002=True)


def test_ki_prevention_policies():
    # "all": every level the attack would take (after the cap at 0), while Ki lasts
    hit = take_attack(3, 10, maximum=8, ki=5, ki_policy="all")
    assert (hit.current, hit.prevented) == (3, 3)
    hit = take_attack(3, 10, maximum=8, ki=2, ki_policy="all")
    assert (hit.current, hit.prevented) == (2, 2)
    # "stay_up": just enough to stay above 0, nothing if the Ki cannot do it
    hit = take_attack(3, 10, maximum=8, ki=5, ki_policy="stay_up")
    assert (hit.current, hit.prevented) == (1, 1)
    hit = take_attack(3, 10, maximum=8, ki=0, ki_policy="stay_up")
    assert (hit.current, hit.prevented) == (0, 0)
    hit = take_attack(5, 2, maximum=8, ki=5, ki_policy="stay_up")
    assert (hit.current, hit.prevented) == (3, 0)
    # "stay_alive": only the blow that would kill
    hit = take_attack(-6, 3, maximum=7, ki=1, ki_policy="stay_alive")
    assert (hit.current, hit.prevented) == (-6, 1)
    hit = take_attack(-5, 3, maximum=7, ki=1, ki_policy="stay_alive")
    assert (hit.current, hit.prevented) == (-6, 0)
    # "none"
    assert take_attack(3, 2, maximum=8, ki=5).prevented == 0


def test_ki_recovery():
    # 000: at or below 0, 1 Ki brings Poise or Sanity back to 1; never Health
    assert ki_recovery("poise", -2, 5) == (1, 1)
    assert ki_recovery("sanity", 0, 5) == (1, 1)
    assert ki_recovery("health", -2, 5) == (-2, 0)
    assert ki_recovery("sanity", 3, 5) == (3, 0)
    # 002: at 0, Poise refills to full; Sanity at 0 to full, below 0 to 1
    assert ki_recovery("poise", 0, 5, variant_002=True) == (5, 1)
    assert ki_recovery("sanity", 0, 5, variant_002=True) == (5, 1)
    assert ki_recovery("sanity", -2, 5, variant_002=True) == (1, 1)


def test_states():
    assert vital_state("health", 3, 5) == "up"
    assert vital_state("health", 0, 5) == "unconscious"
    assert vital_state("health", -5, 5) == "dead"
    assert vital_state("poise", -1, 5) == "humiliated"


def _reference(vital, current, levels, maximum, ki, policy, variant):
    """The rules written out plainly, one case at a time."""
    if vital == "health" and current <= -maximum:
        return current, 0
    if levels <= 0:
        return current, 0
    if current > 0:
        would = min(levels, current)
    elif vital == "poise" and variant:
        would = 0
    else:
        would = 1
    if vital == "poise" and variant:
        ki = 0
    prevent = 0
    for p in range(0, min(would, ki) + 1):  # the cheapest prevention that meets the policy
        after = current - (would - p)
        if policy == "all":
            prevent = min(would, ki)
            break
        if policy == "none":
            break
        goal = after > 0 if policy == "stay_up" else after > -maximum
        if policy == "stay_up" and current <= 0:
            goal = after >= current
        if goal:
            prevent = p
            break
    after = current - (would - prevent)
    if after <= -maximum and would - prevent > 0:
        after = -maximum if vital == "health" else 0
    return after, prevent


@pytest.mark.parametrize("vital", VITALS)
@pytest.mark.parametrize("variant", [False, True])
def test_exhaustive_against_plain_reference(vital, variant):
    maximum = 4
    low, high = track_range(vital, maximum, variant)
    for policy in KI_POLICIES:
        for current in range(low, high + 1):
            for levels in range(0, 7):
                for ki in range(0, 4):
                    hit = take_attack(current, levels, maximum, vital, ki, policy, variant)
                    expected = _reference(vital, current, levels, maximum, ki, policy, variant)
                    assert (hit.current, hit.prevented) == expected, (
                        vital,
                        variant,
                        policy,
                        current,
                        levels,
                        ki,
                    )


@given(
    vital=st.sampled_from(VITALS),
    maximum=st.integers(1, 15),
    data=st.data(),
    policy=st.sampled_from(KI_POLICIES),
    variant=st.booleans(),
)
def test_vectorized_step_equals_scalar(vital, maximum, data, policy, variant):
    low, high = track_range(vital, maximum, variant)
    currents = data.draw(st.lists(st.integers(low, high), min_size=1, max_size=12))
    levels = data.draw(st.lists(st.integers(0, 30), min_size=len(currents), max_size=len(currents)))
    kis = data.draw(st.lists(st.integers(0, 6), min_size=len(currents), max_size=len(currents)))
    step = vital_step(
        np.array(currents), np.array(levels), maximum, vital, np.array(kis), policy, variant
    )
    for i, (c, lv, k) in enumerate(zip(currents, levels, kis, strict=True)):
        hit = take_attack(c, lv, maximum, vital, k, policy, variant)
        assert step.current[i] == hit.current
        assert step.prevented[i] == hit.prevented
        assert step.taken[i] == hit.taken
        assert bool(step.bottomed[i]) == hit.bottomed
        # invariants: never past 0 from above; one level at or below 0; never below the bottom
        if c > 0:
            assert hit.current >= 0
        else:
            assert hit.taken <= 1
        assert hit.current >= -maximum


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"current": 9, "levels": 1, "maximum": 8}, "current"),
        ({"current": -9, "levels": 1, "maximum": 8}, "current"),
        ({"current": 3, "levels": -1, "maximum": 8}, "levels"),
        ({"current": 3, "levels": 1, "maximum": 0}, "maximum"),
        ({"current": 3, "levels": 1, "maximum": 8, "vital": "stamina"}, "vital"),
        ({"current": 3, "levels": 1, "maximum": 8, "ki": -1}, "ki"),
        ({"current": 3, "levels": 1, "maximum": 8, "ki_policy": "some"}, "ki_policy"),
        ({"current": 3, "levels": 1, "maximum": 8, "variant_002": "no"}, "variant_002"),
        ({"current": -8, "levels": 1, "maximum": 8, "vital": "sanity"}, "current"),
    ],
)
def test_bad_input_names_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        take_attack(**kwargs)


def test_vectorized_step_bad_input():
    with pytest.raises(ValueError, match="current"):
        vital_step(np.array([3, 9]), 1, maximum=8)
    with pytest.raises(ValueError, match="levels"):
        vital_step(3, np.array([1, -1]), maximum=8)
    with pytest.raises(ValueError, match="levels"):
        vital_step(3, np.array([1.5]), maximum=8)
    with pytest.raises(ValueError, match="ki"):
        vital_step(3, 1, maximum=8, ki=-2)
