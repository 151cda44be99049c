"""Each Ruleset switch of issue 7 changes exactly what its text says, and nothing else.

- rules/000 "Which Skill, and Which Element": Deception is Fire; rules/004 "Water carries
  Deception" is the switch ``deception_water``.
- rules/002 "What Are Advantage and Disadvantage?": "an Expert or Master Skill Training Tier"
  grants Advantage (``advantage_from_expert``); rules/000, 004: from Adept.
- rules/002 "How Do Action Brackets Work?" / "How Do Called Shots Work?" (Slow Called Shot has
  Advantage), "What Happens to My Health?" (below 0, one level per rest of either kind), "What
  Happens to My Poise?" (a Presence roll shakes Flustered off early).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tb_playground.engine import check_odds, roll_odds, tier_rules
from tb_playground.engine.character_stats import skill_odds_table
from tb_playground.models import Character, Ruleset
from tb_playground.models.ruleset import (
    READING_SWITCHES,
    SWITCH_SENTENCES,
    SWITCHES,
    VARIANT_SWITCHES,
)
from tb_playground.models.skills import SKILL_CATALOGUE, Skill, home_element, starting_skills

#: Each engine-argument property and the switches it carries.
ARG_PROPERTIES = {
    "opposed_args": {"criticals_outrank"},
    "tier_args": {"advantage_from_expert"},
    "skill_args": {"deception_water"},
    "called_shot_args": {"slow_called_shot_advantage"},
    "rest_args": {"below_zero_heals_per_rest"},
    "flustered_args": {"flustered_shaken_off"},
}

NEW = (
    "slow_called_shot_advantage",
    "advantage_from_expert",
    "below_zero_heals_per_rest",
    "flustered_shaken_off",
    "criticals_outrank",
    "deception_water",
)


def test_switch_lists():
    assert set(NEW) <= set(SWITCHES)
    assert SWITCHES == VARIANT_SWITCHES + READING_SWITCHES
    assert set(READING_SWITCHES) == {"criticals_outrank", "deception_water"}
    for name in SWITCHES:
        assert Ruleset.param[name].default is False, name
        doc = Ruleset.param[name].doc
        assert "rules/" in doc or "002" in doc, name  # names its text
        assert "Default" in doc or name not in NEW, name  # and what the default does instead
        assert name in SWITCH_SENTENCES and "_" not in SWITCH_SENTENCES[name]


@pytest.mark.parametrize("name", NEW)
def test_each_switch_moves_only_its_own_engine_arguments(name):
    base = Ruleset()
    flipped = Ruleset(**{name: True})
    for prop, carried in ARG_PROPERTIES.items():
        before, after = getattr(base, prop), getattr(flipped, prop)
        if name in carried:
            assert after == {name: True} and before == {name: False}
        else:
            assert before == after, prop
    assert base.boost_timing == flipped.boost_timing
    assert flipped.variants_on == [name]
    assert flipped.switches_on_text() == [SWITCH_SENTENCES[name]]


def test_quick_reference_turns_on_002_only():
    quick = Ruleset.quick_reference()
    assert set(quick.variants_on) == set(VARIANT_SWITCHES)
    assert not quick.criticals_outrank and not quick.deception_water


# -- Deception's home Element -----------------------------------------------------------------


def test_deception_is_fire_by_default_and_water_by_switch():
    assert home_element("Deception") == "Fire"  # rules/000 "Which Skill, and Which Element"
    assert home_element("Deception", deception_water=True) == "Water"  # rules/004
    for entry in SKILL_CATALOGUE:
        if entry.name != "Deception":
            assert home_element(entry.name) == home_element(entry.name, True) == entry.home
    assert home_element("Juggling") is None
    with pytest.raises(TypeError, match="deception_water"):
        home_element("Deception", deception_water=1)
    rows = {s.name: s.element for s in starting_skills(deception_water=True)}
    assert rows["Deception"] == "Water" and rows["Persuasion"] == "Fire"


def test_character_deception_follows_the_switch():
    c = Character(fire=8, water=2)
    assert c.skill("Deception").element == "Fire"
    before = c.skill_odds.copy()
    row = [s.name for s in c.skills].index("Deception")
    c.ruleset.deception_water = True
    assert c.skill("Deception").element == "Water"
    changed = np.flatnonzero(np.any(c.skill_odds != before, axis=1))
    assert list(changed) in ([], [row])  # Untrained: Difficulty only; no other row moves
    c.skill("Deception").tier = 1
    at_water = c.skill_odds[row].copy()
    c.ruleset.deception_water = False
    assert c.skill("Deception").element == "Fire"
    assert np.all(c.skill_odds[row] >= at_water) and np.any(c.skill_odds[row] > at_water)
    # A row the player argued to another Element stays there.
    c.skill("Deception").element = "Earth"
    c.ruleset.deception_water = True
    assert c.skill("Deception").element == "Earth"
    # A character made under the switch starts at Water; a new ruleset object moves it back.
    d = Character(ruleset=Ruleset(deception_water=True))
    assert d.skill("Deception").element == "Water"
    d.ruleset = Ruleset()
    assert d.skill("Deception").element == "Fire"


# -- Advantage from Expert ----------------------------------------------------------------------


def test_tier_rules_only_adept_changes():
    for tier in range(5):
        default, variant = tier_rules(tier), tier_rules(tier, advantage_from_expert=True)
        if tier == 2:
            assert (default.advantage_sources, variant.advantage_sources) == (1, 0)
            assert default.crit_max == variant.crit_max and default.uses_element
        else:
            assert default == variant
    with pytest.raises((TypeError, ValueError), match="advantage_from_expert"):
        tier_rules(2, advantage_from_expert="no")


def test_adept_rolls_plainly_under_the_switch():
    for element, difficulty, situational in itertools.product((0, 4, 9), (0, 5, 10), (-1, 0, 1)):
        got = check_odds(element, difficulty, 2, situational, advantage_from_expert=True)
        want = roll_odds(element + difficulty, situational)  # no tier source any more
        assert got.exact("success") == want.exact("success")
        assert got.exact("critical") == want.exact("critical")
        for tier in (0, 1, 3, 4):
            a = check_odds(element, difficulty, tier, situational, advantage_from_expert=True)
            b = check_odds(element, difficulty, tier, situational)
            assert a.exact("success") == b.exact("success")


def test_skill_table_and_character_only_adept_rows_move():
    elements, tiers = [5, 5, 5, 5, 5], [0, 1, 2, 3, 4]
    default = skill_odds_table(elements, tiers)
    variant = skill_odds_table(elements, tiers, advantage_from_expert=True)
    np.testing.assert_array_equal(np.delete(default, 2, axis=0), np.delete(variant, 2, axis=0))
    assert np.all(variant[2] <= default[2]) and np.any(variant[2] < default[2])
    np.testing.assert_array_equal(variant[2], variant[1])  # an Adept rolls as a Trained
    skills = [Skill(name=n, element="Air", tier=t) for n, t in [("Stealth", 2), ("Piloting", 3)]]
    c = Character(air=6, skills=skills)
    before, card = c.skill_odds.copy(), c.versus_card("Stealth", 4)
    c.ruleset.advantage_from_expert = True
    assert np.all(c.skill_odds[0] <= before[0]) and np.any(c.skill_odds[0] < before[0])
    np.testing.assert_array_equal(c.skill_odds[1], before[1])
    assert c.versus_card("Stealth", 4) == check_odds(6, 4, 1).p_success < card


# -- The switches read by other modules: the Character's derived values do not move ------------


@pytest.mark.parametrize(
    "name", ["slow_called_shot_advantage", "below_zero_heals_per_rest", "flustered_shaken_off"]
)
def test_switches_for_other_rules_leave_the_sheet_alone(name):
    c = Character(fire=6, water=3, presence=4, health_lost=7)
    watched = ("skill_odds", "ki_pool", "health_now", "poise_now", "states", "attacks")
    before = {k: getattr(c, k) for k in watched}
    setattr(c.ruleset, name, True)
    for key in watched:
        value = getattr(c, key)
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(value, before[key])
        else:
            assert value == before[key], key
