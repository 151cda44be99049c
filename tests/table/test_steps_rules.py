"""The boost step is offered exactly where a boost can change the result (table/boost_offer.py).

Checked against brute force: every d10 face of the damage dice, every set of dice the attacker's
Ki pays for, the hit's effect on the track (``take_attack``) or on the armor compared with none.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from tb_playground.engine import ki_spend_cost, take_attack
from tb_playground.table.boost_offer import boost_offered, liftable_dice


@cache
def _hit(current: int, levels: int, maximum: int, vital: str, v002: bool):
    return take_attack(current, levels, maximum, vital, 0, "none", v002)


def _brute(faces, wall, bonus, klotho, automatic, ki, exhausted, track, armor) -> bool:
    """Whether some affordable set of boosts changes what the hit does (no formula)."""
    current, maximum, vital, v002 = track

    def levels(picked) -> int:
        return automatic + sum(f + klotho + (bonus if i in picked else 0) > wall
                               for i, f in enumerate(faces))  # fmt: skip

    base = levels(())
    for size in range(1, len(faces) + 1):
        if ki_spend_cost(size, exhausted) > ki:
            break
        for picked in itertools.combinations(range(len(faces)), size):
            now = levels(picked)
            if armor:
                if (now > 0) != (base > 0):
                    return True
            elif _hit(current, now, maximum, vital, v002) != _hit(
                current, base, maximum, vital, v002
            ):
                return True
    return False


def _case(wall, bonus, klotho, ki, exhausted, track, armor, timing="after"):
    current, maximum, vital, v002 = track
    state = {
        "combatants": {
            "a": {"ki": ki, "exhausted": exhausted},
            "t": {"now": {vital: current}, "max": {vital: maximum}},
        },
        "ruleset": {"vitals_002": v002},
    }
    p = {
        "attacker": "a", "target": "t", "vital": vital, "wall": wall, "bonus": bonus,
        "klotho": klotho, "critical": bool(klotho), "klotho_added": klotho, "timing": timing,
        "armor": {"zone": "torso"} if armor else None,
    }  # fmt: skip
    return state, p


TRACKS = (
    [(c, 3, "health", False) for c in range(-3, 4)]
    + [(c, 2, "poise", False) for c in range(-1, 3)]
    + [(c, 2, "poise", True) for c in range(0, 3)]
)
KI = [(0, 0), (1, 0), (1, 4), (2, 4), (3, 0)]


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("wall,bonus", [(5, 2), (8, 3)])
@pytest.mark.parametrize("klotho,automatic", [(0, 0), (1, 1)])
def test_offered_exactly_where_a_boost_changes_the_hit(n, wall, bonus, klotho, automatic):
    checked = offered = 0
    for faces in itertools.product(range(1, 11), repeat=n):
        for (ki, exhausted), track, armor in itertools.product(KI, TRACKS, (False, True)):
            state, p = _case(wall, bonus, klotho, ki, exhausted, track, armor)
            levels = automatic + sum(f + klotho > wall for f in faces)
            got = boost_offered(state, p, list(faces), levels)
            want = _brute(faces, wall, bonus, klotho, automatic, ki, exhausted, track, armor)
            assert got == want, (faces, wall, bonus, klotho, automatic, ki, exhausted, track, armor)
            checked += 1
            offered += got
    assert 0 < offered < checked  # both answers occur


def test_three_dice_every_face():
    """Three dice, every face, a target with 2 Health left: lifting past 2 levels is moot."""
    track = (2, 4, "health", False)
    for faces in itertools.product(range(1, 11), repeat=3):
        state, p = _case(6, 2, 0, 3, 0, track, False)
        levels = sum(f > 6 for f in faces)
        got = boost_offered(state, p, list(faces), levels)
        assert got == _brute(faces, 6, 2, 0, 0, 3, 0, track, False), faces
        if levels >= 2:
            assert not got  # the target goes down anyway
        if not liftable_dice(p, list(faces)):
            assert not got  # no die can be lifted


def test_not_offered_when_boosts_come_before_the_roll():
    state, p = _case(6, 2, 0, 3, 0, (3, 3, "health", False), False, timing="before")
    assert not boost_offered(state, p, [5], 0)
    state, p = _case(6, 2, 0, 3, 0, (3, 3, "health", False), False)
    assert boost_offered(state, p, [5], 0)
