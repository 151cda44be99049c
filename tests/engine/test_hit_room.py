"""``engine.hit_room``: the most levels one hit takes from a track (RULES.md, Vitals).

The rule the table offers boosts by (``table/boost_offer.py``), the lab's simulator boosts by
and ``fight_odds`` spends boosts by: checked against ``take_attack`` level by level.
"""

from __future__ import annotations

import numpy as np
import pytest

from tb_playground.engine import VITALS, hit_room, take_attack, track_range


@pytest.mark.parametrize("variant", [False, True])
@pytest.mark.parametrize("vital", VITALS)
def test_hit_room_is_where_more_levels_stop_counting(vital, variant):
    for maximum in (1, 2, 5, 9):
        low, high = track_range(vital, maximum, variant)
        currents = np.arange(low, high + 1)
        room = hit_room(currents, maximum, vital, variant)
        for current, most in zip(currents.tolist(), room.tolist(), strict=True):
            taken = [
                take_attack(current, k, maximum, vital, 0, "none", variant).taken
                for k in range(maximum + 3)
            ]
            # Each level up to the room is lost; none past it.
            assert taken == [min(k, most) for k in range(maximum + 3)], (current, most)


def test_the_texts_example():
    """rules/000: ten dice at someone with three levels left take three."""
    assert int(hit_room(3, 8)) == 3
    assert int(hit_room(0, 8)) == 1  # at 0 or below, one level an attack
    assert int(hit_room(0, 8, "poise", True)) == 0  # 002 Poise stops at 0
    assert int(hit_room(-8, 8)) == 0  # the dead lose nothing more
    with pytest.raises(ValueError, match="current"):
        hit_room(9, 8)
