"""The Attack model: its derived values are the engine's, and its choices follow the rules."""

from __future__ import annotations

import numpy as np
import pytest

from tb_playground.engine import (
    AttackProfile,
    attack_to_hit,
    damage_distribution,
    fight_odds,
    roll_odds,
)
from tb_playground.models import Attack


def test_defaults_against_the_engine():
    a = Attack()
    # Physical, Earth 5 vs Atropos 3: Defense 7, TN 12; a knife (3 dice) vs Soak 5.
    assert (a.defense, a.to_hit.target, a.dice) == (7, 12, 3)
    assert a.to_hit.p_hit == pytest.approx(roll_odds(12).p_success, abs=1e-15)
    np.testing.assert_allclose(a.on_hit, damage_distribution(3, 5, 0, 4), atol=1e-15)
    np.testing.assert_allclose(
        a.on_critical, damage_distribution(3, 5, 0, 4, critical=True, klotho=4), atol=1e-15
    )
    # Per attack: a miss is 0 levels, an ordinary hit and a critical hit mixed by their odds.
    mixed = (a.to_hit.p_hit - a.to_hit.p_critical) * a.on_hit + a.to_hit.p_critical * a.on_critical
    mixed[0] += 1 - a.to_hit.p_hit
    np.testing.assert_allclose(a.per_attack, mixed, atol=1e-15)
    assert a.expected_per_attack == pytest.approx(float(mixed @ np.arange(4)), abs=1e-12)


def test_fight_is_the_engine_fight():
    a = Attack(target_levels=5, boosts=2, attacker_ki=6, target_ki=3, target_ki_policy="stay_up")
    off = attack_to_hit("physical", 5, 3, element_name="Earth", advantage=-1)
    profile = AttackProfile.from_to_hit(
        a.to_hit, a.dice, a.target_wall, 2, a.bonus, "after", 4, off_balance_to_hit=off
    )
    assert profile == a.profile()
    expected = fight_odds(
        profile, 5, a.rounds, vital="health", attacker_ki=6, defender_ki=3, ki_policy="stay_up"
    )
    np.testing.assert_allclose(a.fight.p_down_by, expected.p_down_by, atol=1e-15)
    # The means are exact (no tolerance, no cut-off).
    assert a.fight.mean_rounds_to_down == expected.mean_rounds_to_down


def test_circumstances_sum_to_the_net_advantage():
    a = Attack(slow_action="aim", target_prone=True, partial_cover=True)
    assert a.net_advantage == 1
    assert a.to_hit.odds.advantage == 1
    a.param.update(off_hand=True, disadvantage_sources=2)
    assert a.net_advantage == -2
    assert a.to_hit.odds.advantage == -1
    a.slow_action = "called_shot"  # a Called Shot is Slow too, but it is not Aim: no Advantage
    assert a.net_advantage == -3


def test_kind_restricts_approach_and_dice_source():
    a = Attack()
    assert "Moira" not in a.param.approach.objects  # Moira never carries a Physical attack
    with pytest.raises(ValueError, match="approach"):
        a.approach = "Moira"
    a.kind = "social"
    assert a.param.dice_source.objects == ["skill", "gift"]
    assert a.dice_source == "skill"
    assert a.dice == 3  # Trained: 3 dice
    a.approach = "Moira"
    assert a.to_hit.target == a.element + 10 - a.target_defense_stat
    a.kind = "mental"  # Mental attacks need a Gift
    assert a.param.dice_source.objects == ["gift"]
    assert (a.dice_source, a.dice) == ("gift", a.gift_dice)
    a.ruleset.never_moira = True  # variant 002
    assert "Moira" not in a.param.approach.objects
    assert a.approach == "Earth"


@pytest.mark.parametrize(("tier", "dice"), [(0, 1), (1, 3), (2, 4), (3, 5), (4, 6)])
def test_social_dice_follow_the_skill_tier(tier, dice):
    assert Attack(kind="social", skill_tier=tier).dice == dice


def test_defense_by_kind():
    for kind, stat in (("physical", "Atropos"), ("social", "Psyche"), ("mental", "Presence")):
        a = Attack(kind=kind, target_defense_stat=2)
        assert a.defense == 8
        assert a.rules.defense_stat == stat
        expected = attack_to_hit(kind, a.element, 2, element_name=a.approach)
        assert a.to_hit.target == expected.target


@pytest.mark.parametrize(
    ("field", "value"),
    [("element", 11), ("target_wall", -1), ("boosts", 11), ("skill_tier", 5), ("kind", "magic")],
)
def test_bad_values_are_refused_and_change_nothing(field, value):
    a = Attack()
    before = a.per_attack.copy(), a.param.values()[field]
    with pytest.raises(ValueError, match=field):
        setattr(a, field, value)
    np.testing.assert_array_equal(a.per_attack, before[0])
    assert getattr(a, field) == before[1]


def test_ruleset_switches_reach_the_attack():
    a = Attack(kind="social", boosts=2, target_wall=6, bonus=3, target_levels=4)
    assert a.timing == "after"
    after = a.on_hit.copy()
    a.ruleset.boosts_before_roll = True
    assert a.timing == "before"
    np.testing.assert_allclose(a.on_hit, damage_distribution(3, 6, 2, 3, "before"), atol=1e-15)
    assert not np.allclose(a.on_hit, after)
    # 002 Poise stops at 0: a Social fight can never reach the bottom.
    a.ruleset.vitals_002 = True
    assert a.fight.p_dead_by[-1] == 0.0
    assert np.isinf(a.fight.mean_rounds_to_dead)
    a.ruleset.vitals_002 = False
    # Default: each Poise bottom costs a Sanity level, until Sanity (5 + Psyche) bottoms too.
    assert np.isfinite(a.fight.mean_rounds_to_dead)
    a.rounds = 30
    assert a.fight.sanity_lost[-1] > 0.0


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"approach": "Moira"}, "approach"),
        ({"kind": "mental", "dice_source": "weapon"}, "dice_source"),
        ({"kind": "social", "dice_source": "weapon"}, "dice_source"),
    ],
)
def test_constructor_refuses_choices_the_kind_forbids(params, name):
    with pytest.raises(ValueError, match=name):
        Attack(**params)


def test_long_fights_have_exact_means():
    # A 1-die knife against Soak 9 and a Defense of 10: each attack connects one level with
    # 0.44 x 0.1 (a 10 on an ordinary hit) + 0.01 (a critical sends the die through); 40
    # levels to dead. The chain is solved exactly, not followed for a number of rounds.
    # A kept 20 (1%) leaves the attacker Off Balance next round: one more Disadvantage source.
    a = Attack(weapon_rating=1, target_wall=9, target_defense_stat=0, element=0, target_levels=20)
    off = a.profile().off_balance
    connect = [a.to_hit.p_ordinary * 0.1 + a.to_hit.p_critical, 0.0]
    connect[1] = (off.p_hit - off.p_critical) * 0.1 + off.p_critical
    slip = [a.to_hit.p_catastrophe, off.p_catastrophe]
    # states (levels dealt n < 40, Off Balance this round); N = (I - Q)^-1 by hand
    q = np.zeros((80, 80))
    for n in range(40):
        for ob in (0, 1):
            here = 2 * n + ob
            if n + 1 < 40:
                q[here, 2 * (n + 1)] = connect[ob]
            q[here, 2 * n + 1] += slip[ob]
            q[here, 2 * n] += 1 - connect[ob] - slip[ob]
    mean = np.linalg.solve(np.eye(80) - q, np.ones(80))[0]
    assert a.fight.mean_rounds_to_dead == pytest.approx(mean, rel=1e-12)
    assert mean > 40 / connect[0]  # slower than without Off Balance


def test_bracket_and_slow_action_follow_each_other():
    a = Attack()
    assert (a.bracket, a.slow_action) == ("fast", "none")
    a.bracket = "slow"
    assert a.slow_action == "aim" and a.net_advantage == 1
    a.slow_action = "called_shot"
    assert a.bracket == "slow"
    a.bracket = "normal"
    assert a.slow_action == "none"
    a.slow_action = "aim"
    assert a.bracket == "slow"
    assert Attack(slow_action="called_shot").bracket == "slow"
    assert Attack(bracket="slow").slow_action == "aim"


def test_bracket_reaches_the_fight():
    a = Attack(target_levels=6, attacker_ki=4, boosts=1)
    one = a.fight
    a.bracket = "normal"
    two = a.fight
    assert two.mean_rounds_to_down < one.mean_rounds_to_down
    profile = a.profile()
    assert profile.off_balance is not None  # a kept 20 leaves the attacker Off Balance
    assert profile.off_balance.p_hit < profile.p_hit
    expected = fight_odds(profile, 6, a.rounds, attacker_ki=4, bracket="normal", sanity_max=8)
    np.testing.assert_allclose(two.p_down_by, expected.p_down_by, atol=1e-15)
    a.bracket_bumps = 2  # Normal bumps at most one step
    bumped = a.fight
    expected = fight_odds(
        profile, 6, a.rounds, attacker_ki=4, bracket="normal", bumps=1, sanity_max=8
    )
    np.testing.assert_allclose(bumped.attacker_ki_spent, expected.attacker_ki_spent, atol=1e-15)


def test_armor_is_the_engines_and_a_called_shot_goes_to_the_head():
    from tb_playground.engine import Armor, armor_distribution

    a = Attack(target_armor_levels=3, target_armor_hardness=6)
    body = armor_distribution(3, 5, Armor(6, 3, "body"), False, 0, 4, "after")
    np.testing.assert_allclose(a.against_armor, body, atol=1e-15)
    # rules/002: the armor loses a level if any die beats its Hardness, at most one an attack.
    assert a.against_armor[1].sum() == pytest.approx(1 - 0.6**3, abs=1e-12)
    assert a.against_armor[0, 1:].sum() == 0.0  # the wearer takes nothing while it holds
    a.slow_action = "called_shot"  # to the head: the body armor does nothing
    np.testing.assert_allclose(a.against_armor[0], a.on_hit, atol=1e-15)
    a.kind = "social"  # armor stands in front of Soak only
    assert a.armor() is None


@pytest.mark.parametrize(
    ("kwargs", "net"),
    [
        ({}, 0),
        ({"aim": True}, 1),
        ({"aim": True, "target_prone": True}, 2),
        ({"partial_cover": True, "off_hand": True}, -2),
        ({"aim": True, "partial_cover": True, "other_disadvantage": 2}, -2),
    ],
)
def test_attack_advantage_sums_the_circumstances(kwargs, net):
    from tb_playground.engine import attack_advantage

    assert attack_advantage(**kwargs) == net


def test_attack_advantage_names_bad_input():
    from tb_playground.engine import attack_advantage

    with pytest.raises(ValueError, match="aim"):
        attack_advantage(aim=1)
    with pytest.raises(ValueError, match="other_advantage"):
        attack_advantage(other_advantage=-1)


def test_the_002_switch_gives_a_slow_called_shot_advantage():
    # rules/002 "How Do Called Shots Work?": a Called Shot is "the same action that already
    # grants you Advantage on the attack"; off by default (rules/000: Aim or a Called Shot).
    from tb_playground.models import Attack, Ruleset

    attack = Attack(bracket="slow", slow_action="called_shot")
    plain = attack.to_hit.p_hit
    assert attack.modifiers.advantage == 0
    attack.ruleset = Ruleset(slow_called_shot_advantage=True)
    assert attack.modifiers.advantage == 1
    assert attack.to_hit.p_hit > plain
