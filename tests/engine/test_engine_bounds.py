"""Every public engine function bounds the size of what it is given (issue 10, bad input).

Each case used to run for minutes, die with a MemoryError or raise from deep inside; now it is
refused at once with a ValueError naming the argument and its bound.
"""

from __future__ import annotations

import itertools
import tracemalloc

import numpy as np
import pytest

from tb_playground.engine import (
    Armor,
    armor_covers,
    armor_distribution,
    damage_grid,
    damage_sweep,
    difficulty_step,
    expected_levels,
    group_odds,
    help_sources,
    ki_pool,
    ki_value_table,
    p_any_level,
    party_travel,
    roll_levels,
    roll_odds,
    roll_over_table,
    skill_odds_table,
    success_curve,
    success_table,
)
from tb_playground.engine.character_stats import draft_skill_odds_table
from tb_playground.engine.damage import MAX_SWEEP_CELLS
from tb_playground.engine.rounds import down_by_round
from tb_playground.engine.validation import require_length
from tb_playground.engine.vitals import vital_step

BIG = 200_000

CASES = [
    (lambda: damage_sweep(walls=[0] * BIG), "walls", "11"),
    (lambda: ki_value_table(walls=[0] * BIG), "walls", "11"),
    (lambda: damage_sweep(boosts=[0] * BIG), "boosts", "101"),
    (lambda: damage_sweep(bonuses=[0] * BIG), "bonuses", "11"),
    (lambda: ki_value_table(bonuses=range(10**30)), "bonuses", "11"),
    (lambda: damage_sweep(walls=itertools.repeat(0)), "walls", "11"),
    (
        lambda: damage_sweep(max_dice=100, boosts=range(101)),
        "max_dice, walls, boosts",
        "20,000,000",
    ),
    (lambda: ki_value_table(max_dice=100, max_boosts=100), "max_dice, walls, boosts", "20,000,000"),
    (lambda: armor_covers("head armor"), "armor", "Armor or None"),
    (lambda: armor_covers({"hardness": 3, "levels": 2}), "armor", "Armor or None"),
    (lambda: armor_distribution(3, 5, 7), "armor", "Armor or None"),
    (lambda: roll_levels([5] * BIG, 5), "rolls", "100"),
    (lambda: skill_odds_table([1] * BIG, [1] * BIG), "elements", "1000"),
    (lambda: skill_odds_table([1], [1], range(10**30)), "difficulties", "100"),
    (lambda: skill_odds_table([1], [1], usable_untrained=[True] * BIG), "usable_untrained", "1"),
    (lambda: draft_skill_odds_table([1], [1], [10] * BIG), "dcs", "100"),
    (lambda: roll_over_table([1] * BIG), "ratings", "1000"),
    (lambda: roll_over_table([1], [10] * BIG), "dcs", "100"),
    (lambda: success_table(range(10**30)), "targets", "1000000"),
    (lambda: success_curve(np.broadcast_to(np.int64(0), (2_000_000,))), "targets", "1000000"),
    (lambda: difficulty_step([5] * 2_000_000), "targets", "1000000"),
    (lambda: group_odds([roll_odds(5)] * BIG), "members", "1000"),
    (lambda: help_sources([1] * BIG), "helper_tiers", "100"),
    (lambda: party_travel([(1, 1)] * BIG), "members", "1000"),
    (lambda: party_travel([(1, 1, 1)]), r"members\[0\]", "2"),
    (lambda: ki_pool(iter(range(BIG))), "elements", "5"),
    (lambda: ki_pool([1] * 5, sub_stats=[1, 2], from_sub_stats=True), "sub_stats", "Soak"),
    (lambda: expected_levels(np.broadcast_to(1 / 5000, (5000, 5000))), "distribution", "20000000"),
    (lambda: p_any_level(np.broadcast_to(0.0, (30_000_000,))), "distribution", "20000000"),
    (
        lambda: down_by_round(10, 0.5, np.broadcast_to(1 / (BIG * 10), (BIG * 10,)), 3),
        "damage",
        "1000000",
    ),
    (
        lambda: vital_step(
            np.zeros((1000, 1, 1), int),
            np.zeros((1, 1000, 1), int),
            10,
            ki=np.zeros((1, 1, 1000), int),
        ),
        "current, levels and ki",
        "1000000",
    ),
]


@pytest.mark.parametrize(("call", "name", "bound"), CASES)
def test_oversized_input_is_refused_at_once_naming_argument_and_bound(call, name, bound):
    # "At once": before the oversized arrays are made. Memory, not a clock: at most 64 MB at
    # the peak (numpy's arrays are traced), where the refused calls would need gigabytes.
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=name) as error:
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    assert bound in str(error.value)


def test_the_bounds_leave_every_page_sized_call_alone():
    # What the pages and the sheet ask for: full default grids, a 12-dice heatmap, a sheet.
    assert damage_sweep().shape == (21, 11, 6, 6, 21)
    assert damage_sweep(walls=[3] * 11, boosts=range(101), max_dice=30).shape[2] == 101
    assert ki_value_table(max_dice=40, max_boosts=40).shape == (41, 11, 6, 40)
    assert damage_grid("any", max_dice=100).shape == (100, 11)
    assert skill_odds_table([3] * 1000, [1] * 1000).shape == (1000, 11)
    assert roll_levels([10] * 100, 5) == (100, 0)
    assert armor_covers(None) is False
    assert armor_covers(Armor(3, 1, "head"), called_shot=True) is True


def test_a_sweep_near_the_cap_stays_quick():
    # (max_dice + 1)^2 * walls * boosts * bonuses just under MAX_SWEEP_CELLS
    # How quick is benchmarks' business (about 0.3 s alone); here: it is allowed and bounded.
    out = damage_sweep(max_dice=50, boosts=range(51), bonuses=range(11))
    assert out.size <= MAX_SWEEP_CELLS


@pytest.mark.parametrize(
    ("value", "expected"),
    [([1, 2], [1, 2]), ((1,), [1]), (range(3), [0, 1, 2]), (iter([4, 5]), [4, 5])],
)
def test_require_length_returns_the_entries(value, expected):
    assert require_length("x", value, 3) == expected


@pytest.mark.parametrize("value", ["abc", {"a": 1}, 5, np.int64(3), np.array(3)])
def test_require_length_refuses_non_sequences(value):
    with pytest.raises(ValueError, match="x must be a list of at most 3"):
        require_length("x", value, 3)


def test_require_length_reads_at_most_one_past_the_bound_of_an_iterator():
    counter = itertools.count()
    with pytest.raises(ValueError, match="x must hold at most 3 things, got more than 3"):
        require_length("x", counter, 3, what="things")
    assert next(counter) == 4
