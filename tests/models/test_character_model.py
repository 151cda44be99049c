"""The Character model: derived values against the texts, always current, by ruleset."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tb_playground.engine import (
    AttackProfile,
    check_odds,
    expected_levels,
    gift_check_odds,
    to_hit_odds,
)
from tb_playground.engine.roll_over import SHEET_DCS, roll_over_odds
from tb_playground.models import (
    SKILL_CATALOGUE,
    ArmorItem,
    Character,
    Creature,
    Gift,
    Ruleset,
    Skill,
    Weapon,
    load,
)

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"


@pytest.fixture(scope="module")
def ronan() -> Character:
    return load(ROSTER / "ronan.json")


def test_ronan_is_the_texts_ronan(ronan):
    # rules/000: "Ronan has Onslaught at level 5 and a Ferocity of 4 ... His Klotho is 4";
    # "Ronan is (shockingly) Adept at Research".
    onslaught = next(g for g in ronan.gifts if g.name == "Onslaught")
    assert (onslaught.level, onslaught.dice) == (5, 7)
    assert (ronan.ferocity, ronan.klotho) == (4, 4)
    research = ronan.skill("Research")
    assert research.tier_name == "Adept"
    # Adept: Advantage on every Research roll.
    for d in range(11):
        expected = check_odds(ronan.element_score(research.element), d, 2).p_success
        assert ronan.skill_odds_at("Research", d) == pytest.approx(expected, abs=1e-15)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10))
def test_defenses_are_ten_minus_sub_stats(atropos, psyche, presence):
    c = Character(atropos=atropos, psyche=psyche, presence=presence)
    assert c.defense_physical == 10 - atropos
    assert c.defense_social == 10 - psyche
    assert c.defense_mental == 10 - presence
    assert c.walls == {"physical": c.soak, "social": presence, "mental": psyche}


def test_derived_values_follow_every_input():
    c = Character()
    c.atropos = 7
    assert c.defense_physical == 3
    c.air = 9
    assert c.movement_rate == 14  # 5 + Air
    assert (c.movement.dash, c.movement.sprint) == (28, 70)
    assert c.travel.speed_kmh == pytest.approx(3 + 9 / 5)
    c.stamina = 5
    assert c.travel.day_hours == 9
    assert c.fate_cap == 16  # Stamina x 3 + 1
    assert c.fate_spends_per_scene == 6
    c.fate_spent_this_scene = 2
    assert c.fate_spends_left == 4
    c.health = 6
    assert c.health_max == 11 and c.dead_at == -11
    c.presence, c.psyche = 1, 9
    assert (c.poise_max, c.sanity_max) == (6, 14)


def test_ki_pool_by_ruleset():
    c = Character(earth=2, air=7, fire=1, water=0, moira=4)
    assert c.ki_pool == 15  # strongest Element + 8
    c.air = 2
    assert c.ki_pool == 12
    c.soak, c.initiative, c.ferocity, c.stamina, c.atropos = 10, 8, 6, 4, 2
    c.ruleset.ki_pool_from_sub_stats = True
    assert c.ki_pool == 12  # 2 x 30 / 5
    c.ferocity = 9
    assert c.ki_pool == 13  # 2 x 33 / 5 = 13.2
    c.ruleset = Ruleset()
    assert c.ki_pool == 12  # a new ruleset is followed too
    c.ki_bonus, c.ki_spent = 3, 5
    assert (c.ki_pool, c.ki_now) == (15, 10)


def test_other_ruleset_switches():
    c = Character(klotho=5, stamina=4, health=3)
    assert c.short_rest_ki == 5
    assert c.fate_spends_per_scene == 5
    assert c.dead_at == -8
    assert c.gift_check.target == c.ki_now
    c.ruleset = Ruleset.quick_reference()
    assert c.short_rest_ki == 3
    assert c.fate_spends_per_scene == 4
    assert c.dead_at == -3
    assert c.gift_check.target == c.ki_now + 4
    assert c.gift_check.p_success == gift_check_odds(c.ki_now, 4, True).p_success
    c.poise_lost = 20
    assert c.poise_now == 0  # 002: Poise stops at 0


def test_vitals_and_states():
    c = Character(health=3, presence=2, psyche=4)
    c.health_lost = 8
    assert (c.health_now, c.health_state) == (0, "unconscious")
    c.health_lost = 9
    assert c.health_state == "dying" and "Dying" in c.states
    c.health_lost = 16
    assert c.health_state == "dead"
    c.poise_lost = 7
    assert "Flustered" in c.states
    c.conditions = ["Prone", "Grabbed"]
    c.exhausted = 3
    assert c.movement_rate == 0  # Grabbed
    c.conditions = ["Prone"]
    assert c.movement_rate == (5 + c.air) // 2  # Exhausted 3 halves it
    assert {"Prone", "Exhausted 3"} <= set(c.states)


def test_rows_update_derived_values_in_place_and_when_replaced():
    c = Character(air=4)
    events = []
    c.param.watch(lambda e: events.append(e.name), ["skill_odds", "attacks", "worn_armor"])
    row = c.skill("Stealth")
    before = c.skill_odds_at("Stealth", 6)
    row.tier = 3
    assert c.skill_odds_at("Stealth", 6) == pytest.approx(check_odds(4, 6, 3).p_success)
    assert c.skill_odds_at("Stealth", 6) != before
    c.skills = [*c.skills, Skill(name="Lockpicking", element="Air", tier=1)]
    assert c.skill_odds.shape == (len(SKILL_CATALOGUE) + 1, 11)
    c.skills[-1].tier = 4  # the new row is watched
    assert c.skill_odds_at("Lockpicking", 2) == pytest.approx(check_odds(4, 2, 4).p_success)
    c.gifts = [Gift(name="Blast", dice=5, kind="mental")]
    assert any("Blast" in a.label for a in c.attacks)
    c.gifts[0].dice = 0  # a Gift with no dice makes no attack
    assert not any("Blast" in a.label for a in c.attacks)
    c.armor = [ArmorItem(zone="body"), ArmorItem(name="Second vest", zone="body")]
    assert c.worn_armor["body"].name == "Kevlar vest"  # armor doesn't stack: the first
    c.armor[0].worn = False
    assert c.worn_armor["body"].name == "Second vest"
    assert {"skill_odds", "attacks", "worn_armor"} <= set(events)


def test_swimming_cannot_be_rolled_untrained():
    c = Character(water=8)
    assert c.skill_odds_at("Swimming", 10) == 0.0
    c.skill("Swimming").tier = 1
    assert c.skill_odds_at("Swimming", 10) == pytest.approx(check_odds(8, 10).p_success)


def test_skill_table_under_the_roll_over_draft():
    c = Character(air=6)
    c.skill("Stealth").tier = 2
    c.ruleset.system = "roll-over draft"
    assert c.skill_odds_columns == SHEET_DCS
    # Adept: rating = Air, one Advantage (a re-roll); Untrained: rating 0.
    assert c.skill_odds_at("Stealth", 14) == pytest.approx(roll_over_odds(6, 14, 1).p_success)
    assert c.skill_odds_at("Perception", 14) == pytest.approx(roll_over_odds(0, 14).p_success)
    c.ruleset.system = "20 Below"
    assert c.skill_odds_columns == tuple(range(11))


def test_attack_options_against_a_creature_are_the_engines(ronan):
    bear = load(ROSTER / "grizzly_bear.yaml")
    options = {o.label.split(" (")[0]: o for o in ronan.attack_options(bear)}
    onslaught = options["Onslaught"]
    # Strongest allowed Element for a Physical attack: Earth 6.
    assert (onslaught.element, onslaught.score, onslaught.dice) == ("Earth", 6, 7)
    to_hit = to_hit_odds(6, bear.defense_physical)
    profile = AttackProfile.from_to_hit(to_hit, 7, bear.soak, 0, ronan.ferocity, "after", 4)
    assert onslaught.p_hit == pytest.approx(to_hit.p_hit)
    assert onslaught.expected == pytest.approx(float(expected_levels(profile.level_distribution())))
    # Intimidation (Trained, Fire) carries a Social attack with 3 dice against Presence.
    intimidation = options["Intimidation"]
    assert (intimidation.kind, intimidation.element, intimidation.dice) == ("social", "Fire", 3)
    # An approach that cannot carry the attack falls back, with a note.
    moira = {o.label.split(" (")[0]: o for o in ronan.attack_options(bear, approach="Moira")}
    assert moira["Onslaught"].element == "Earth" and "Moira" in moira["Onslaught"].note
    # Under the draft, each option is a roll-over attack.
    draft = Character(earth=5, weapons=[Weapon(name="Bat", dice=2)])
    draft.ruleset.system = "roll-over draft"
    option = draft.attack_options(Creature(defense_physical=5))[0]
    assert option.target_number == 16 and option.p_hit == pytest.approx(to_hit_odds(5, 5).p_hit)


def test_versus_a_creature_card():
    c = Character(air=5)
    c.skill("Stealth").tier = 1
    # rules/001: "Perception 7 vs. Stealth" -> you roll Stealth at Difficulty 7.
    assert c.versus_card("Stealth", 7) == pytest.approx(check_odds(5, 7).p_success)
    assert c.versus_card("Nothing", 7) == pytest.approx(check_odds(0, 7, 0).p_success)


def test_bounds_are_the_validation():
    with pytest.raises(ValueError, match="air"):
        Character(air=11)
    c = Character()
    with pytest.raises(ValueError):
        c.atropos = -1
    with pytest.raises(TypeError):
        c.defense_physical = 3  # derived: read-only
    with pytest.raises(TypeError):
        c.skills = ["Stealth"]
    assert np.all(c.skill_odds >= 0)


def test_every_parameter_is_documented():
    from tb_playground.models import Creature, Encounter
    from tb_playground.models.character import Descriptor, Flaw
    from tb_playground.models.creature import CreatureAttack, MovementMode, StaticNumber
    from tb_playground.models.encounter import Combatant, SceneConditions

    classes = [Character, Skill, Weapon, Gift, ArmorItem, Descriptor, Flaw, Creature, Ruleset]
    classes += [CreatureAttack, MovementMode, StaticNumber, Encounter, Combatant, SceneConditions]
    for cls in classes:
        for name, p in cls.param.objects("existing").items():
            assert p.doc, f"{cls.__name__}.{name} has no doc"


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda c: c.skill_odds_at("Nope", 5), "name"),
        (lambda c: c.skill_odds_at("Athletics", 11), "difficulty"),
        (lambda c: c.element_score("Mars"), "element"),
        (lambda c: c.defense_for("magic"), "kind"),
        (lambda c: c.attack_options(Creature(), approach="earth"), "approach"),
    ],
)
def test_model_methods_name_the_bad_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call(Character())


def test_attack_labels_count_one_die_and_many_dice(ronan):
    labels = [a.label for a in ronan.attacks]
    assert "Fists (1 die)" in labels and "Onslaught (Gift 5, 7 dice)" in labels
    c = Character(
        weapons=[Weapon(name="Knife", dice=2)],
        gifts=[Gift(name="Spark", level=1, dice=1, kind="mental")],
    )
    assert [a.label for a in c.attacks][:2] == ["Knife (2 dice)", "Spark (Gift 1, 1 die)"]
    assert not any("1 dice" in a.label for a in c.attacks)
