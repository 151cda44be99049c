"""Rounds until down / dead: the exact programmes against seeded 200,000-fight Monte Carlo."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tb_playground.engine import (
    AttackProfile,
    damage_distribution,
    down_by_round,
    fight_odds,
    to_hit_odds,
)

FIGHTS = 200_000
POINTS = 0.005  # half a percentage point


def test_down_by_round_matches_monte_carlo():
    health, p_hit, rounds = 7, 0.55, 20
    damage = damage_distribution(5, 6, boosts=1, bonus=3)
    exact = down_by_round(health, p_hit, damage, rounds)

    rng = np.random.default_rng(12345)
    track = np.full(FIGHTS, health)
    simulated = np.empty(rounds)
    for r in range(rounds):
        hit = rng.random(FIGHTS) < p_hit
        levels = rng.choice(damage.size, size=FIGHTS, p=damage) * hit
        track = np.where(track > 0, np.maximum(track - levels, 0), track)
        simulated[r] = np.mean(track <= 0)
    assert np.abs(exact - simulated).max() < POINTS
    assert np.all(np.diff(exact) >= -1e-15)


def _simulate_fights(
    rng,
    maximum,
    target,
    advantage,
    dice,
    wall,
    boosts,
    bonus,
    klotho,
    attacker_ki,
    defender_ki,
    timing,
    rounds_cap=1000,
):
    """Roll every fight with real dice: 2d10 to hit, d10s for damage, the Vitals rules."""
    track = np.full(FIGHTS, maximum)
    a_ki = np.full(FIGHTS, attacker_ki)
    d_ki = np.full(FIGHTS, defender_ki)
    down_at = np.zeros(FIGHTS, dtype=np.int64)
    dead_at = np.zeros(FIGHTS, dtype=np.int64)
    a_spent_by = []
    for r in range(1, rounds_cap + 1):
        alive = dead_at == 0
        if not alive.any():
            break
        pool = np.sort(rng.integers(1, 11, size=(FIGHTS, 3 if advantage else 2)), axis=1)
        kept = pool[:, :2].sum(axis=1)
        critical = kept == 2
        hit = critical | ((kept <= target) & (kept != 20))
        faces = rng.integers(1, 11, size=(FIGHTS, dice))
        automatic = np.where(critical, (dice + 1) // 2, 0)
        rolled = np.arange(dice)[None, :] < np.where(critical, dice // 2, dice)[:, None]
        values = faces + np.where(critical, klotho, 0)[:, None]
        available = np.minimum(boosts, a_ki)
        if timing == "after":  # seen dice: boost the ones the bonus lifts over the wall,
            # while the track still loses the level (the most one hit takes from it)
            over = ((values > wall) & rolled).sum(axis=1)
            liftable = ((values <= wall) & (values + bonus > wall) & rolled).sum(axis=1)
            room = np.where(track > 0, track, np.where(track <= -maximum, 0, 1))
            counts = np.maximum(room - automatic - over, 0)
            used = np.minimum(np.minimum(available, liftable), counts) * (hit & alive)
            connected = over + used
        else:  # chosen before the roll: the first `used` rolled dice, paid for regardless
            used = np.minimum(available, rolled.sum(axis=1)) * (hit & alive)
            boosted = np.arange(dice)[None, :] < used[:, None]
            connected = ((values + bonus * boosted > wall) & rolled).sum(axis=1)
        a_ki = a_ki - used
        levels = np.where(hit & alive, automatic + connected, 0)
        would = np.where(track > 0, np.minimum(levels, track), np.minimum(levels, 1))
        prevent = np.minimum(would, d_ki)  # policy "all"
        d_ki = d_ki - prevent
        track = np.maximum(track - (would - prevent), -maximum)
        down_at = np.where((down_at == 0) & (track <= 0), r, down_at)
        dead_at = np.where((dead_at == 0) & (track <= -maximum), r, dead_at)
        a_spent_by.append(attacker_ki - a_ki.mean())
    return down_at, dead_at, np.array(a_spent_by)


@pytest.mark.parametrize("timing", ["after", "before"])
def test_fight_odds_matches_monte_carlo_with_real_dice(timing):
    maximum, rounds = 6, 25
    element, target_defense, advantage = 5, 6, 1
    dice, wall, boosts, bonus, klotho = 5, 6, 2, 3, 3
    attacker_ki, defender_ki = 6, 3
    to_hit = to_hit_odds(element, target_defense, advantage)
    attack = AttackProfile.from_to_hit(to_hit, dice, wall, boosts, bonus, timing, klotho)
    exact = fight_odds(
        attack,
        maximum,
        rounds,
        attacker_ki=attacker_ki,
        defender_ki=defender_ki,
        ki_policy="all",
    )
    rng = np.random.default_rng(20240611)
    down_at, dead_at, a_spent = _simulate_fights(
        rng,
        maximum,
        to_hit.target,
        advantage,
        dice,
        wall,
        boosts,
        bonus,
        klotho,
        attacker_ki,
        defender_ki,
        timing,
    )
    assert (dead_at > 0).all()
    r = np.arange(1, rounds + 1)
    sim_down = (down_at[:, None] <= r[None, :]).mean(axis=0)
    sim_dead = ((dead_at[:, None] <= r[None, :]) & (dead_at[:, None] > 0)).mean(axis=0)
    assert np.abs(exact.p_down_by - sim_down).max() < POINTS
    assert np.abs(exact.p_dead_by - sim_dead).max() < POINTS
    assert exact.p_dead_by[-1] > 0.3  # the comparison covers deaths, not only zeros
    for sample, mean in (
        (down_at, exact.mean_rounds_to_down),
        (dead_at, exact.mean_rounds_to_dead),
    ):
        standard_error = sample.std() / math.sqrt(FIGHTS)
        assert abs(sample.mean() - mean) < 5 * standard_error
    assert np.abs(exact.attacker_ki_spent - a_spent[:rounds]).max() < 0.05
    assert exact.defender_ki_spent[-1] <= defender_ki


def test_fight_odds_plain_case_equals_down_by_round():
    attack = AttackProfile(dice=4, wall=5, p_hit=0.6)
    fight = fight_odds(attack, 8, 30)
    plain = down_by_round(8, 0.6, damage_distribution(4, 5), 30)
    assert np.abs(fight.p_down_by - plain).max() < 1e-12


def test_level_distribution_mixes_misses_hits_and_criticals():
    attack = AttackProfile(dice=5, wall=6, p_hit=0.5, p_critical=0.01, boosts=1, bonus=2, klotho=3)
    levels = attack.level_distribution()
    expected = 0.49 * damage_distribution(5, 6, 1, 2) + 0.01 * damage_distribution(
        5, 6, 1, 2, critical=True, klotho=3
    )
    expected[0] += 0.5
    assert np.abs(levels - expected).max() < 1e-15
    fight = fight_odds(attack, 7, 15)
    assert np.abs(fight.p_down_by - down_by_round(7, 1.0, levels, 15)).max() < 1e-12


def test_critical_only_damage_has_closed_form_means():
    # wall 10 stops every rolled die; a critical sends 2 of 4 dice through: 4 criticals to
    # drop 8 levels, then one level per critical for 8 more to dead (at or below 0: one level)
    attack = AttackProfile(dice=4, wall=10, p_hit=0.6, p_critical=0.01)
    fight = fight_odds(attack, 8, 50)
    assert fight.mean_rounds_to_down == pytest.approx(400, rel=1e-9)
    assert fight.mean_rounds_to_dead == pytest.approx(1200, rel=1e-9)
    # P(down by round r) = P(at least 4 criticals in r rounds)
    r = 50
    at_least_4 = 1 - sum(math.comb(r, k) * 0.01**k * 0.99 ** (r - k) for k in range(4))
    assert fight.p_down_by[-1] == pytest.approx(at_least_4, abs=1e-12)


def test_no_way_through_means_never():
    fight = fight_odds(AttackProfile(dice=4, wall=10, p_hit=0.9), 5, 10)
    assert fight.p_down_by.max() == 0.0
    assert math.isinf(fight.mean_rounds_to_down) and math.isinf(fight.mean_rounds_to_dead)


def test_boosts_run_out_with_the_attackers_ki():
    # wall 10: only boosted dice connect (bonus 10 always lifts); 3 Ki buys exactly 3 levels
    attack = AttackProfile(dice=2, wall=10, p_hit=1.0, boosts=2, bonus=10)
    fight = fight_odds(attack, 4, 5, attacker_ki=3)
    assert fight.p_down_by[0] == 0.0 and fight.p_down_by[-1] == 0.0
    assert fight.attacker_ki_spent[-1] == pytest.approx(3.0)
    unlimited = fight_odds(attack, 4, 5)
    assert unlimited.p_down_by[1] == pytest.approx(1.0)
    assert unlimited.mean_rounds_to_down == pytest.approx(2.0)
    assert unlimited.mean_rounds_to_dead == pytest.approx(6.0)


def test_defender_ki_delays_the_fall():
    attack = AttackProfile(dice=5, wall=4, p_hit=0.7)
    plain = fight_odds(attack, 6, 20)
    guarded = fight_odds(attack, 6, 20, defender_ki=6, ki_policy="all")
    assert np.all(guarded.p_down_by <= plain.p_down_by + 1e-15)
    assert guarded.mean_rounds_to_down > plain.mean_rounds_to_down
    assert guarded.defender_ki_spent[-1] == pytest.approx(6.0, abs=1e-3)


def test_poise_and_sanity_bottoms():
    """RULES.md, Vitals: Poise at the bottom resets to 0 and costs a Sanity level; the fight goes
    on until Sanity reaches its bottom. Sanity's own bottom ends a Mental fight, like death."""
    attack = AttackProfile(dice=4, wall=5, p_hit=0.8)
    sanity = fight_odds(attack, 5, 40, vital="sanity")
    health = fight_odds(attack, 5, 40)
    assert np.allclose(sanity.p_dead_by, health.p_dead_by)
    # Poise 5 down to its bottom is exactly Health 5 down to dead; each later bottom takes 5
    # more attacks that connect (one level each at or below 0); Sanity S dies after 2S bottoms.
    connects = 1.0 - attack.level_distribution()[0]
    for sanity_max in (1, 2, 3):
        poise = fight_odds(attack, 5, 40, vital="poise", sanity_max=sanity_max)
        extra = (2 * sanity_max - 1) * 5 / connects
        assert poise.mean_rounds_to_dead == pytest.approx(
            health.mean_rounds_to_dead + extra, rel=1e-12
        )
        assert poise.mean_rounds_to_down == pytest.approx(health.mean_rounds_to_down, rel=1e-12)
        assert np.all(poise.p_dead_by <= health.p_dead_by + 1e-15)
        # the first Sanity level is lost exactly when the Health twin would be dead
        lost_one = np.minimum(poise.sanity_lost, 1.0)
        assert np.all(poise.sanity_lost >= health.p_dead_by - 1e-12)
        assert np.all(lost_one <= poise.sanity_lost)
    flustered_only = fight_odds(attack, 5, 40, vital="poise", variant_002=True)
    assert flustered_only.p_dead_by.max() == 0.0
    assert math.isinf(flustered_only.mean_rounds_to_dead)
    assert flustered_only.mean_rounds_to_down == pytest.approx(health.mean_rounds_to_down)
    assert flustered_only.sanity_lost.max() == 0.0


def test_ki_spent_at_the_bottom_delays_the_sanity_level():
    """rules/000: 1 Ki prevents one level of damage to any Vital. 'stay_alive' spends it on
    the level that would take Poise to its bottom, so the Sanity level waits one more hit."""
    attack = AttackProfile(dice=4, wall=5, p_hit=0.8)
    plain = fight_odds(attack, 2, 60, vital="poise", sanity_max=1)
    guarded = fight_odds(
        attack, 2, 60, vital="poise", sanity_max=1, defender_ki=1, ki_policy="stay_alive"
    )
    connects = 1.0 - attack.level_distribution()[0]
    assert guarded.mean_rounds_to_dead == pytest.approx(
        plain.mean_rounds_to_dead + 1 / connects, rel=1e-12
    )
    assert guarded.defender_ki_spent[-1] == pytest.approx(1.0, abs=1e-9)


def test_normal_bracket_is_two_attacks_a_round():
    """RULES.md, Combat round: a Normal round holds two attacks; Fast and Slow one."""
    attack = AttackProfile(dice=5, wall=5, p_hit=0.6, p_critical=0.01, klotho=3)
    fast = fight_odds(attack, 7, 40)
    normal = fight_odds(attack, 7, 20, bracket="normal")
    slow = fight_odds(attack, 7, 40, bracket="slow")
    np.testing.assert_allclose(normal.p_down_by, fast.p_down_by[1::2], atol=1e-12)
    np.testing.assert_allclose(normal.p_dead_by, fast.p_dead_by[1::2], atol=1e-12)
    np.testing.assert_allclose(slow.p_down_by, fast.p_down_by, atol=1e-15)
    # rounds to down with two attacks a round: ceil(attacks / 2), exactly
    assert normal.mean_rounds_to_down < fast.mean_rounds_to_down
    by_attack = np.diff(fast_long(attack).p_down_by, prepend=0.0)
    rounds = (np.arange(by_attack.size) + 2) // 2
    assert normal.mean_rounds_to_down == pytest.approx(float(by_attack @ rounds), abs=1e-9)


def fast_long(attack):
    return fight_odds(attack, 7, 4000)


def test_bracket_bumps_cost_ki_before_boosts():
    """rules/002: 1 Ki bumps the Bracket a step; it is paid from the attacker's Ki."""
    attack = AttackProfile(dice=2, wall=10, p_hit=1.0, boosts=2, bonus=10)
    # Only boosted dice connect (2 a round, 1 Ki each). 6 Ki unbumped: 4 levels in 2 rounds.
    plain = fight_odds(attack, 4, 5, attacker_ki=6, bracket="slow")
    np.testing.assert_allclose(plain.p_down_by, [0, 1, 1, 1, 1], atol=1e-15)
    # Bumping 2 steps a round: round 1 pays 2 + 2 boosts, round 2 only the bump: never down
    bumped = fight_odds(attack, 4, 5, attacker_ki=6, bracket="slow", bumps=2)
    assert bumped.p_down_by.max() == 0.0
    np.testing.assert_allclose(bumped.attacker_ki_spent, [4, 6, 6, 6, 6])
    assert math.isinf(bumped.mean_rounds_to_down)
    # unlimited Ki: the bumps are counted every round on top of the boosts
    free = fight_odds(attack, 4, 3, bracket="normal", bumps=1)
    plain = fight_odds(attack, 4, 3, bracket="normal")
    assert np.all(free.attacker_ki_spent - plain.attacker_ki_spent >= 1 - 1e-12)
    np.testing.assert_allclose(free.p_down_by, plain.p_down_by, atol=1e-15)


def test_off_balance_changes_only_the_next_rolls():
    """rules/000: a kept 20 leaves the attacker Off Balance (Disadvantage) until the end of
    their next turn. With the Off Balance bands equal to the plain ones, nothing changes."""
    from dataclasses import replace

    base = AttackProfile(dice=5, wall=5, p_hit=0.55, p_critical=0.01, p_catastrophe=0.01)
    same = replace(base, off_balance=base)
    for bracket in ("fast", "normal"):
        a = fight_odds(base, 6, 15, bracket=bracket)
        b = fight_odds(same, 6, 15, bracket=bracket)
        np.testing.assert_allclose(a.p_down_by, b.p_down_by, atol=1e-12)
        assert a.mean_rounds_to_dead == pytest.approx(b.mean_rounds_to_dead, rel=1e-12)
    worse = replace(
        base, off_balance=replace(base, p_hit=0.3, p_critical=0.001, p_catastrophe=0.03)
    )
    slower = fight_odds(worse, 6, 15)
    assert slower.mean_rounds_to_down > fight_odds(base, 6, 15).mean_rounds_to_down


def test_starting_down():
    fight = fight_odds(AttackProfile(dice=3, wall=4, p_hit=0.5), 5, 10, start=-4)
    assert fight.p_down_by == pytest.approx(np.ones(10), abs=1e-12)
    assert fight.mean_rounds_to_down == 0.0
    # one more level kills: a hit (0.5) with at least one die over 4 (1 - 0.4 ** 3)
    assert fight.mean_rounds_to_dead == pytest.approx(1 / (0.5 * (1 - 0.4**3)), rel=1e-9)
    assert fight.already_down and fight.p_down_at.sum() == 0.0


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: down_by_round(0, 0.5, [1.0], 5), "health"),
        (lambda: down_by_round(5, 1.5, [1.0], 5), "p_hit"),
        (lambda: down_by_round(5, 0.5, [0.5, 0.4], 5), "damage"),
        (lambda: down_by_round(5, 0.5, [[1.0]], 5), "damage"),
        (lambda: down_by_round(5, 0.5, [1.0], 0), "rounds"),
        (lambda: AttackProfile(3, 5, 0.5, 0.6), "p_critical"),
        (lambda: AttackProfile(3, 11, 0.5), "wall"),
        (lambda: fight_odds("attack", 5), "attack"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, start=6), "start"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, attacker_ki=-1), "attacker_ki"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, ki_policy="most"), "ki_policy"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, bracket="medium"), "bracket"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, bumps=1), "bumps"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, bracket="normal", bumps=2), "bumps"),
        (lambda: fight_odds(AttackProfile(3, 5, 0.5), 5, vital="poise", sanity_max=0), "sanity"),
        (lambda: AttackProfile(3, 5, 0.5, p_catastrophe=0.6), "p_catastrophe"),
        (lambda: AttackProfile(3, 5, 0.5, off_balance=AttackProfile(4, 5, 0.4)), "off_balance"),
    ],
)
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
