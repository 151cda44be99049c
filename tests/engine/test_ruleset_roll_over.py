"""Engine: rules/003's roll-over draft against a brute-force enumeration written differently."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from tb_playground.engine.roll_over import (
    STANDARD_DCS,
    dice_total_counts,
    roll_over_attack,
    roll_over_odds,
    roll_over_table,
)


def brute_totals(advantage: int) -> Counter:
    """Enumerate every throw: two dice, then one extra die per re-roll, applied in order."""
    out = Counter()
    for throw in itertools.product(range(1, 11), repeat=2 + abs(advantage)):
        dice = list(throw[:2])
        for new in throw[2:]:
            if advantage > 0:
                i = dice.index(min(dice))  # the lowest die is re-rolled, keep the better
                dice[i] = max(dice[i], new)
            else:
                i = dice.index(max(dice))  # the higher die is re-rolled, keep the worse
                dice[i] = min(dice[i], new)
        out[sum(dice)] += 1
    return out


@pytest.mark.parametrize("advantage", [-3, -2, -1, 0, 1, 2, 3])
def test_dice_totals_match_enumeration(advantage):
    counts, denominator = dice_total_counts(advantage)
    brute = brute_totals(advantage)
    assert denominator == 10 ** (2 + abs(advantage))
    assert list(counts) == [brute[t] for t in range(2, 21)]


def test_advantage_stacks_and_cancels():
    base = roll_over_odds(4, 14).p_success
    one = roll_over_odds(4, 14, 1).p_success
    two = roll_over_odds(4, 14, 2).p_success
    assert base < one < two  # stacking: each Advantage is one more re-roll
    assert roll_over_odds(4, 14, -1).p_success < base
    # 2d10 + 4 >= 14 needs 10+: 64 of 100.
    assert roll_over_odds(4, 14).exact("success") == Fraction(64, 100)


def test_table_matches_single_odds():
    ratings = np.array([0, 3, 7, 12])
    table = roll_over_table(ratings, list(STANDARD_DCS.values()), np.array([0, 1, -2, 3]))
    for i, (rating, adv) in enumerate(zip(ratings, [0, 1, -2, 3], strict=True)):
        for j, dc in enumerate(STANDARD_DCS.values()):
            assert table[i, j] == pytest.approx(roll_over_odds(int(rating), dc, adv).p_success)


def brute_attack(rating, defense, cap):
    """Expected damage by listing every 2d10 throw (plain roll)."""
    total = Fraction(0)
    hits = Fraction(0)
    for a, b in itertools.product(range(1, 11), repeat=2):
        dice = a + b
        margin = dice + rating - defense
        if dice >= 19:
            dealt, hit = max(margin, 1), True
        elif dice <= 3 or margin <= 0:
            dealt, hit = 0, False
        else:
            dealt, hit = min(margin, cap), True
        total += Fraction(dealt, 100)
        hits += Fraction(int(hit), 100)
    return float(hits), float(total)


@pytest.mark.parametrize("rating,defense,cap", [(5, 12, 4), (0, 25, 3), (8, 6, 2), (3, 10, 0)])
def test_attack_matches_enumeration(rating, defense, cap):
    attack = roll_over_attack(rating, defense, cap)
    p_hit, expected = brute_attack(rating, defense, cap)
    assert attack.p_hit == pytest.approx(p_hit)
    assert attack.expected_damage == pytest.approx(expected)
    assert attack.damage.sum() == pytest.approx(1.0)
    assert attack.p_critical == pytest.approx(0.03)  # 19 and 20: 3 of 100
    assert attack.p_fumble == pytest.approx(0.03)  # 2 and 3: 3 of 100


def test_critical_hit_beats_any_defense_for_one_damage():
    attack = roll_over_attack(0, 60, 5)
    assert attack.p_hit == pytest.approx(0.03)
    assert attack.expected_damage == pytest.approx(0.03)


def test_bad_input():
    with pytest.raises(ValueError, match="advantage must be from -10 to 10"):
        roll_over_odds(1, 10, 11)
    with pytest.raises(ValueError, match="dc must be from 0 to 60"):
        roll_over_odds(1, 61)
