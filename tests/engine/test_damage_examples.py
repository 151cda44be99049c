"""Damage dice: the rule texts' worked examples, large pools exactly, and bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine import (
    MAX_DICE,
    damage_distribution,
    damage_sweep,
    damage_with_ki,
    roll_levels,
)

TOL = 1e-12


def test_soak_six_four_dice_rules_002():
    # "Soak 6, four dice rolled: 3 and 6 bounce off, 9 and 10 connect - two Health Levels"
    assert roll_levels([3, 6, 9, 10], wall=6) == (2, 0)
    assert roll_levels([3, 6, 9, 10], wall=6, timing="before") == (2, 0)


def test_wall_of_ten_stops_every_unboosted_die():
    for dice in range(0, 41):
        dist = damage_distribution(dice, 10)
        assert dist[0] == 1.0 and dist[1:].sum() == 0.0


@pytest.mark.parametrize("timing", ["after", "before"])
def test_boosted_die_against_wall_ten_rules_000(timing):
    # "A boosted die from a character with a 10 in Ferocity will deal damage 100% of the time,
    # and a 2 in Ferocity has a 20% chance of topping that wall."
    assert damage_distribution(1, 10, boosts=1, bonus=10, timing=timing) == pytest.approx(
        [0.0, 1.0], abs=TOL
    )
    assert damage_distribution(1, 10, boosts=1, bonus=2, timing=timing) == pytest.approx(
        [0.8, 0.2], abs=TOL
    )


def test_ronan_critical_rules_000():
    # 7 dice, Klotho 4, Soak 7: 4 connect outright, the other 3 rolled at +4 need > 7.
    assert roll_levels([2, 1, 6], wall=7, klotho=4, automatic=4) == (5, 0)
    dist = damage_distribution(7, 7, critical=True, klotho=4)
    assert dist[:4].sum() == 0.0
    p = Fraction(7, 10)  # a die d + 4 > 7 means d >= 4
    for j in range(4):
        exact = math.comb(3, j) * p**j * (1 - p) ** (3 - j)
        assert dist[4 + j] == pytest.approx(float(exact), abs=TOL)


def test_critical_halves_round_up():
    for dice in range(0, 12):
        dist = damage_distribution(dice, 10, critical=True)  # rolled dice never beat 10
        assert dist[(dice + 1) // 2] == 1.0


def test_critical_boosts_go_on_top_of_klotho():
    # wall 10, Klotho 4, bonus 6, 2 dice: 1 connects outright; the rolled one beats 10 by
    # itself on 7..10 (+4), and with the boost on top (+10) on any face
    joint = damage_with_ki(2, 10, boosts=1, bonus=6, critical=True, klotho=4)
    assert joint[1].sum() == pytest.approx(0.0, abs=TOL)
    assert joint[2, 0] == pytest.approx(0.4, abs=TOL)
    assert joint[2, 1] == pytest.approx(0.6, abs=TOL)


def _exact_after(dice: int, wall: int, boosts: int, bonus: int) -> list[Fraction]:
    """Exact integer dynamic programme, one die at a time, over (over, liftable) counts."""
    over = 10 - wall
    lift = min(wall, bonus)
    rest = 10 - over - lift
    ways = {(0, 0): 1}
    for _ in range(dice):
        nxt: dict[tuple[int, int], int] = {}
        for (x, y), c in ways.items():
            for key, faces in (((x + 1, y), over), ((x, y + 1), lift), ((x, y), rest)):
                if faces:
                    nxt[key] = nxt.get(key, 0) + c * faces
        ways = nxt
    out = [0] * (dice + 1)
    for (x, y), c in ways.items():
        out[x + min(boosts, y)] += c
    return [Fraction(c, 10**dice) for c in out]


def _exact_before(dice: int, wall: int, boosts: int, bonus: int) -> list[Fraction]:
    """Exact integer product of per-die generating polynomials."""
    used = min(boosts, dice)
    poly = [1]
    for i in range(dice):
        over = 10 - max(wall - (bonus if i < used else 0), 0)
        die = [10 - over, over]
        poly = [
            sum(poly[k - j] * die[j] for j in range(2) if 0 <= k - j < len(poly))
            for k in range(len(poly) + 1)
        ]
    return [Fraction(c, 10**dice) for c in poly]


@pytest.mark.parametrize(("dice", "wall", "boosts", "bonus"), [(40, 6, 5, 3), (40, 9, 5, 4)])
def test_forty_dice_are_exact(dice, wall, boosts, bonus):
    after = damage_distribution(dice, wall, boosts, bonus)
    assert np.abs(after - [float(x) for x in _exact_after(dice, wall, boosts, bonus)]).max() < TOL
    before = damage_distribution(dice, wall, boosts, bonus, timing="before")
    exact = [float(x) for x in _exact_before(dice, wall, boosts, bonus)]
    assert np.abs(before - exact).max() < TOL


def test_largest_pool_is_a_distribution():
    for timing in ("after", "before"):
        dist = damage_distribution(MAX_DICE, 5, 5, 3, timing)
        assert dist.shape == (MAX_DICE + 1,)
        assert np.all(dist >= 0) and abs(dist.sum() - 1) < 1e-12


def test_sweep_shape_and_cells_match_single_calls():
    sweep = damage_sweep()
    assert sweep.shape == (21, 11, 6, 6, 21)
    assert np.abs(sweep.sum(axis=-1) - 1).max() < 1e-12
    rng = np.random.default_rng(7)
    for _ in range(200):
        n, w, b, o = (int(rng.integers(0, s)) for s in (21, 11, 6, 6))
        assert np.abs(sweep[n, w, b, o, : n + 1] - damage_distribution(n, w, b, o)).max() < TOL


def test_sweep_other_timings_and_criticals_match_single_calls():
    for timing in ("after", "before"):
        for critical in (False, True):
            sweep = damage_sweep(12, [0, 5, 10], [0, 2, 7], [0, 4], timing, critical, 3)
            for n in range(13):
                for w, wall in enumerate([0, 5, 10]):
                    for b, boosts in enumerate([0, 2, 7]):
                        for o, bonus in enumerate([0, 4]):
                            single = damage_distribution(
                                n, wall, boosts, bonus, timing, critical, 3
                            )
                            assert np.abs(sweep[n, w, b, o, : n + 1] - single).max() < TOL


def test_ki_spent_after_is_only_on_liftable_dice():
    # wall 0: every die is over already, so no Ki is ever spent
    joint = damage_with_ki(5, 0, boosts=3, bonus=4)
    assert joint[:, 0].sum() == pytest.approx(1.0, abs=TOL)
    # "before": all chosen boosts are spent, whatever the dice show
    joint = damage_with_ki(5, 0, boosts=3, bonus=4, timing="before")
    assert joint[:, 3].sum() == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"dice": -1, "wall": 5}, "dice"),
        ({"dice": MAX_DICE + 1, "wall": 5}, "dice"),
        ({"dice": 3, "wall": 11}, "wall"),
        ({"dice": 3, "wall": -1}, "wall"),
        ({"dice": 3, "wall": 5.0}, "wall"),
        ({"dice": 3, "wall": 5, "boosts": -1}, "boosts"),
        ({"dice": 3, "wall": 5, "bonus": 11}, "bonus"),
        ({"dice": 3, "wall": 5, "timing": "during"}, "timing"),
        ({"dice": 3, "wall": 5, "critical": 1}, "critical"),
        ({"dice": 3, "wall": 5, "klotho": 11}, "klotho"),
        ({"dice": True, "wall": 5}, "dice"),
    ],
)
def test_bad_input_names_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        damage_distribution(**kwargs)


def test_sweep_bad_input():
    with pytest.raises(ValueError, match="walls"):
        damage_sweep(walls=[0, 11])
    with pytest.raises(ValueError, match="bonuses"):
        damage_sweep(bonuses=[])
    with pytest.raises(ValueError, match="max_dice"):
        damage_sweep(max_dice=-1)
    with pytest.raises(ValueError, match="boosts"):
        damage_sweep(boosts=5)


def test_roll_levels_rules():
    # after: boosts go on the dice the bonus lifts (4 and 5 vs wall 6 with +3); 1 is hopeless
    assert roll_levels([1, 4, 5, 9], wall=6, boosts=3, bonus=3) == (3, 2)
    # before: the first `boosts` dice are the boosted ones (1 + 3 fails, 4 + 3 beats 6), both
    # Ki spent whatever they show
    assert roll_levels([1, 4, 5, 9], wall=6, boosts=2, bonus=3, timing="before") == (2, 2)
    with pytest.raises(ValueError, match=r"rolls\[1\]"):
        roll_levels([3, 11], wall=5)


@given(
    dice=st.integers(0, 40),
    wall=st.integers(0, 9),
    boosts=st.integers(0, 6),
    bonus=st.integers(0, 10),
    timing=st.sampled_from(["after", "before"]),
    critical=st.booleans(),
    klotho=st.integers(0, 10),
)
def test_more_wall_fewer_levels_more_boosts_more_levels(
    dice, wall, boosts, bonus, timing, critical, klotho
):
    def cdf(**changes):
        args = dict(
            dice=dice,
            wall=wall,
            boosts=boosts,
            bonus=bonus,
            timing=timing,
            critical=critical,
            klotho=klotho,
        )
        args.update(changes)
        dist = damage_distribution(**args)
        assert np.all(dist >= 0) and abs(dist.sum() - 1) < 1e-12
        return np.cumsum(dist)

    base = cdf()
    assert np.all(cdf(wall=wall + 1) >= base - 1e-12)  # stochastically fewer levels
    assert np.all(cdf(boosts=boosts + 1) <= base + 1e-12)  # stochastically more
    if bonus < 10:
        assert np.all(cdf(bonus=bonus + 1) <= base + 1e-12)
