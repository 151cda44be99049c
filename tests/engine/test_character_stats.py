"""Engine: what a character sheet derives, checked against the rule texts' own numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine import check_odds
from tb_playground.engine.character_stats import (
    death_threshold,
    defenses,
    fate_spends_per_scene,
    fate_token_cap,
    fight_status,
    ki_pool,
    movement,
    movement_rate,
    party_travel,
    short_rest_ki,
    short_rest_recovery,
    skill_odds_table,
    travel,
    vital_maximum,
)

stat = st.integers(0, 10)


def test_ki_pool_is_strongest_element_plus_8():
    # rules/000: "every character in the game starts with a Ki Pool somewhere between 13 and 18"
    assert ki_pool([5, 0, 0, 0, 0]) == 13
    assert ki_pool([1, 10, 3, 2, 0]) == 18
    assert ki_pool([0, 0, 0, 0, 0]) == 8
    assert ki_pool([4, 4, 4, 4, 7], bonus=3) == 18


@given(st.lists(stat, min_size=5, max_size=5), st.lists(stat, min_size=5, max_size=5))
def test_ki_pool_ignores_everything_but_the_strongest_element(elements, subs):
    names = ("Soak", "Initiative", "Ferocity", "Stamina", "Atropos")
    assert ki_pool(elements, dict(zip(names, subs, strict=True))) == max(elements) + 8


def test_ki_pool_variant_002_doubles_the_average_of_five_sub_stats():
    subs = {"Soak": 3, "Initiative": 3, "Ferocity": 4, "Stamina": 2, "Atropos": 1}
    # 2 x 13 / 5 = 5.2 -> 5
    assert ki_pool([9] * 5, subs, from_sub_stats=True) == 5
    subs = {"Soak": 10, "Initiative": 10, "Ferocity": 10, "Stamina": 10, "Atropos": 10}
    assert ki_pool([0] * 5, subs, from_sub_stats=True) == 20
    subs = {"Soak": 1, "Initiative": 1, "Ferocity": 0, "Stamina": 0, "Atropos": 0}
    assert ki_pool([0] * 5, subs, from_sub_stats=True) == 1  # 0.8 rounds to 1


@given(st.lists(stat, min_size=5, max_size=5))
def test_ki_variant_rounds_to_nearest_without_ties(subs):
    names = ("Soak", "Initiative", "Ferocity", "Stamina", "Atropos")
    exact = 2 * sum(subs) / 5
    got = ki_pool([0] * 5, dict(zip(names, subs, strict=True)), from_sub_stats=True)
    assert abs(got - exact) < 0.5


def test_ki_pool_rejects_bad_input():
    with pytest.raises(ValueError, match="Earth must be from 0 to 10"):
        ki_pool([11, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="elements must be 5"):
        ki_pool([1, 2, 3])
    with pytest.raises(ValueError, match="sub_stats must give"):
        ki_pool([1] * 5, from_sub_stats=True)
    with pytest.raises(ValueError, match="Soak must be a whole number"):
        ki_pool([1] * 5, {"Soak": None}, from_sub_stats=True)


def test_short_rest_ki():
    assert short_rest_ki(4) == 4
    assert short_rest_ki(0) == 1  # "minimum of 1"
    assert short_rest_ki(5, half_klotho=True) == 3
    assert short_rest_ki(4, half_klotho=True) == 2


def test_vitals_and_rests():
    # rules/002: "Everyone starts with 5, plus whatever you've put into your Health sub-stat"
    assert vital_maximum(0) == 5
    assert vital_maximum(3) == 8
    assert vital_maximum(10) == 15
    assert short_rest_recovery(5) == 3
    assert short_rest_recovery(0) == 1
    # rules/000: "Seven Health Levels means dead at -7"; variant 002: at -Health sub-stat.
    assert death_threshold(7, 2) == -7
    assert death_threshold(7, 2, at_negative_sub_stat=True) == -2


@given(stat, stat, stat)
def test_defense_is_ten_minus_the_sub_stat(atropos, psyche, presence):
    assert defenses(atropos, psyche, presence) == {
        "physical": 10 - atropos,
        "social": 10 - psyche,
        "mental": 10 - presence,
    }


@given(stat)
def test_movement_rate_is_5_plus_air(air):
    assert movement_rate(air) == 5 + air
    m = movement(air)
    assert (m.dash, m.sprint) == (2 * (5 + air), 5 * (5 + air))
    assert m.long_jump == air and m.standing_jump == air / 2
    assert movement_rate(air, exhausted=3) == (5 + air) // 2
    assert movement_rate(air, exhausted=2) == 5 + air
    assert movement_rate(air, grabbed=True) == 0


def test_travel_matches_the_texts_examples():
    # rules/000: "a fragile character at about sixteen kilometers a day and the toughest at
    # forty-five"
    assert travel(1, 1).day_km == pytest.approx(16)
    assert travel(10, 5).day_km == pytest.approx(45)
    day = travel(5, 3)
    assert (day.speed_kmh, day.day_hours, day.day_km) == (4.0, 7, 28.0)
    assert travel(5, 3, "rough").day_km == 14.0
    assert travel(5, 3, "wild").day_km == pytest.approx(28 / 3)
    # A group goes at its slowest pace and stops when its shortest day runs out.
    group = party_travel([(10, 1), (0, 10)])
    assert (group.speed_kmh, group.day_hours) == (3.0, 5)
    with pytest.raises(ValueError, match="ground must be one of"):
        travel(1, 1, "swamp")


@given(stat)
def test_fate_token_caps(stamina):
    assert fate_token_cap(stamina) == 3 * stamina + 1
    assert fate_spends_per_scene(stamina) == stamina + 1
    assert fate_spends_per_scene(stamina, stamina_only=True) == stamina


@given(
    st.lists(st.tuples(stat, st.integers(0, 4)), min_size=1, max_size=6),
    st.integers(-2, 2),
)
def test_skill_odds_table_is_check_odds_cell_by_cell(skills, advantage):
    elements = [e for e, _ in skills]
    tiers = [t for _, t in skills]
    table = skill_odds_table(elements, tiers, advantage=advantage)
    assert table.shape == (len(skills), 11)
    for i, (element, tier) in enumerate(skills):
        for d in range(11):
            assert table[i, d] == pytest.approx(
                check_odds(element, d, tier, advantage).p_success, abs=1e-15
            )


def test_skill_odds_table_validates():
    with pytest.raises(ValueError, match="same length"):
        skill_odds_table([1, 2], [1])
    with pytest.raises(ValueError, match="tiers must hold whole numbers from 0 to 4"):
        skill_odds_table([1], [5])


def test_fight_status_named_and_unnamed():
    assert fight_status(3, 8) == "up"
    assert fight_status(0, 8) == "unconscious"
    assert fight_status(-2, 8) == "dying"
    assert fight_status(-8, 8) == "dead"
    assert fight_status(0, 8, named=False) == "out"
    assert fight_status(2, 8, named=False) == "up"


def test_swimming_cannot_be_rolled_untrained():
    table = skill_odds_table([5, 5, 5], [0, 1, 0], usable_untrained=[False, False, True])
    assert (table[0] == 0).all()
    assert (table[1] > 0).all() and (table[2] > 0).all()


def test_vital_now_and_conditions():
    from tb_playground.engine.character_stats import vital_conditions, vital_now

    assert vital_now("health", 8, 3) == 5
    assert vital_now("health", 8, 30) == -8  # held at the bottom
    assert vital_now("poise", 8, 30) == -7  # Poise resets at the bottom
    assert vital_now("poise", 8, 12, variant_002=True) == 0  # 002: Poise stops at 0
    # rules/000 "Harm and Recovery": below 0 went through 0, and Flustered lasts the Scene.
    assert vital_conditions(0, -1, 3) == ["Unconscious", "Flustered", "Humiliated"]
    assert vital_conditions(-2, 0, 0) == ["Dying", "Flustered", "Overwhelmed"]
    assert vital_conditions(3, 2, -1) == ["Overwhelmed", "Shattered"]
    assert vital_conditions(3, 2, 3) == []
    assert vital_conditions(3, 2, 3, flustered=True) == ["Flustered"]  # Poise climbed back


def _draft_brute(rating: int, dc: int, rerolls: int) -> float:
    """rules/003 by enumeration: 2d10 + rating >= DC; Advantage re-rolls the lowest die and
    keeps the higher of old and new (one re-roll here)."""
    import itertools

    hits = total = 0
    faces = range(1, 11)
    if rerolls == 0:
        for a, b in itertools.product(faces, faces):
            total += 1
            hits += a + b + rating >= dc
    else:
        for a, b, c in itertools.product(faces, faces, faces):
            low, high = min(a, b), max(a, b)
            total += 1
            hits += high + max(low, c) + rating >= dc
    return hits / total


def test_draft_skill_table_maps_tiers_to_ratings_and_rerolls():
    from tb_playground.engine.character_stats import draft_skill_odds_table

    elements, tiers, dcs = [5, 5, 7, 0], [0, 1, 2, 0], [6, 12, 18]
    table = draft_skill_odds_table(elements, tiers, dcs, usable_untrained=[True, True, True, False])
    for i, (element, tier) in enumerate(zip(elements, tiers, strict=True)):
        for j, dc in enumerate(dcs):
            if i == 3:
                assert table[i, j] == 0.0  # Swimming, Untrained: can't be rolled
                continue
            rating = element if tier else 0
            assert table[i, j] == pytest.approx(_draft_brute(rating, dc, int(tier >= 2)), abs=1e-12)


def test_death_variant_keeps_zero_unconscious():
    from tb_playground.engine.character_stats import death_threshold

    assert death_threshold(8, 3, at_negative_sub_stat=True) == -3
    assert death_threshold(5, 0, at_negative_sub_stat=True) == -1  # 002: "At 0, unconscious"
    assert death_threshold(5, 0) == -5


def test_dead_replaces_dying_in_the_conditions():
    from tb_playground.engine.character_stats import vital_conditions
    from tb_playground.models import Character

    assert vital_conditions(-8, 0, 3, dead=True) == ["Dead", "Flustered"]
    # Health 3 -> 8 levels, dead at -8 (rules/000): only "Dead", never "Dying" beside it.
    assert Character(health=3, health_lost=16).states == ["Dead"]
    assert Character(health=3, health_lost=9).states == ["Dying"]
