"""Tactics for one attack (issue 11, section 1): exact, checked against the engine's own fight.

One or two attacks in a round are one or two rounds of ``engine.fight_odds`` with one attack a
round (its Bracket "fast"), so P(target down this round) and the Ki spent must match it to
float precision; the expected levels of one attack on a deep track are the engine's damage
means weighted by the to-hit bands.
"""

from __future__ import annotations

import numpy as np
import pytest
from table_helpers import roster

from tb_playground.engine import AttackProfile, damage_distribution, fight_odds, to_hit_odds
from tb_playground.lab import TACTICS, compare_tactics, simulate, tactic_win_change
from tb_playground.models import Creature, Encounter
from tb_playground.models.combatants import encounter_records
from tb_playground.models.creature import CreatureAttack


def duel(health=6, ki=2, soak=6, named=True, attacks=()):
    target = Creature(
        name="Target", named=named, soak=soak, health=health, defense_physical=4, ki=ki,
        attacks=list(attacks),
    )  # fmt: skip
    enc = Encounter()
    enc.add(roster("ronan.json"), "Party")
    enc.add(target, "Foes")
    return enc


def _profile(records, advantage, timing="after"):
    a, t = records
    hit = to_hit_odds(6, t["defense"]["physical"], advantage)
    return AttackProfile.from_to_hit(
        hit, 7, t["wall"]["physical"], boosts=7, bonus=a["boost"]["physical"], klotho=a["klotho"],
        timing=timing,
    )  # fmt: skip


@pytest.mark.parametrize("timing", ["after", "before"])
@pytest.mark.parametrize("ki_policy", ["none", "all", "stay_up", "stay_alive"])
@pytest.mark.parametrize("health", [2, 6])
def test_down_this_round_matches_fight_odds(ki_policy, health, timing):
    """Both boost timings: "before" is the 002 switch ``boosts_before_roll``."""
    enc = duel(health=health)
    records = encounter_records(enc)
    report = compare_tactics(
        enc, "ronan", "target", attack=1, ki_policy=ki_policy,
        ruleset={"boosts_before_roll": timing == "before"},
    )  # fmt: skip
    a, t = records
    for name, advantage, attacks in (("normal", 0, 2), ("slow_aim", 1, 1), ("keep_ki", 0, 2)):
        profile = _profile(records, advantage, timing)
        if name == "keep_ki":
            profile = AttackProfile(
                profile.dice, profile.wall, profile.p_hit, profile.p_critical, klotho=4
            )
        odds = fight_odds(
            profile, t["max"]["health"], attacks, attacker_ki=a["ki"], defender_ki=t["ki"],
            ki_policy=ki_policy,
        )  # fmt: skip
        option = report.options[name]
        assert option.p_down == pytest.approx(odds.p_down_by[attacks - 1], abs=1e-12)
        assert option.expected_ki_spent == pytest.approx(
            odds.attacker_ki_spent[attacks - 1], abs=1e-12
        )


def test_expected_levels_of_one_attack_are_the_engine_means():
    """On a deep track with no Ki, one attack's levels are the to-hit bands times the means."""
    enc = duel(health=60, ki=0)
    report = compare_tactics(enc, "ronan", "target", attack=1, attacker_ki=0, ki_policy="none")
    levels = np.arange(8)
    plain = damage_distribution(7, 6) @ levels
    crit = damage_distribution(7, 6, critical=True, klotho=4) @ levels
    for name, advantage in (("slow_aim", 1), ("called_shot", 0)):
        hit = to_hit_odds(6, 4, advantage)
        want = (hit.p_hit - hit.p_critical) * plain + hit.p_critical * crit
        assert report.options[name].expected_levels == pytest.approx(want, abs=1e-12)
    # two attacks on a deep track: twice one
    hit = to_hit_odds(6, 4)
    one = (hit.p_hit - hit.p_critical) * plain + hit.p_critical * crit
    assert report.options["keep_ki"].expected_levels == pytest.approx(2 * one, abs=1e-12)


def test_the_options_relate_as_the_rules_say():
    report = compare_tactics(duel(), "ronan", "target", attack=1)
    o = report.options
    assert set(o) == set(TACTICS)
    assert o["slow_aim"].advantage == o["normal"].advantage + 1
    assert o["slow_aim"].p_hit > o["normal"].p_hit
    # a Called Shot alone gives no Advantage (rules/000); Studied gives one
    assert o["called_shot"].p_hit == o["normal"].p_hit
    studied = compare_tactics(duel(), "ronan", "target", attack=1, studied=True)
    assert studied.options["called_shot"].p_hit == o["slow_aim"].p_hit
    # the bump changes when, not what: the same levels, 1 Ki more (Ki is plentiful here)
    assert o["bump"].expected_levels == pytest.approx(o["normal"].expected_levels)
    assert o["bump"].expected_ki_spent == pytest.approx(o["normal"].expected_ki_spent + 1)
    # boosting now deals more now; keeping the Ki spends none
    assert o["keep_ki"].expected_levels < o["normal"].expected_levels
    assert o["keep_ki"].expected_ki_spent == 0.0
    assert report.best in TACTICS
    assert len(report.table()) == len(TACTICS)


def test_no_ki_no_bump():
    report = compare_tactics(duel(), "ronan", "target", attack=1, attacker_ki=0)
    assert not report.options["bump"].allowed
    assert report.options["normal"].expected_ki_spent == 0.0


def test_win_change_is_paired_with_the_same_seed():
    bear = roster("grizzly_bear.yaml")
    enc = Encounter()
    enc.add(roster("ronan.json"), "Party")
    enc.add(roster("the_brick.json"), "Party")
    enc.add(bear, "Foes")
    changes = tactic_win_change(enc, "ronan", ("slow_aim", "keep_ki"), fights=4_000, seed=2)
    assert changes["normal"].change == 0.0
    plain = simulate(enc, 4_000, 2)
    assert changes["normal"].p_win == plain.p_win["Party"]
    for change in changes.values():
        low, high = change.change_interval
        assert low <= change.change <= high
        assert 0.0 <= change.p_win <= 1.0


def test_refusals_name_the_argument():
    enc = duel(attacks=[CreatureAttack(name="Jab", element=3, dice=2)])
    with pytest.raises(ValueError, match="combatant"):
        compare_tactics(enc, "nobody", "target")
    with pytest.raises(ValueError, match="target"):
        compare_tactics(enc, "ronan", "ronan")
    with pytest.raises(ValueError, match="ki_policy"):
        compare_tactics(enc, "ronan", "target", ki_policy="hoard")
