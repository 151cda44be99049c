"""The Ruleset: each RULES.md variant is a documented switch, off by default."""

from __future__ import annotations

from tb_playground.engine.damage import TIMINGS
from tb_playground.models import Character, Creature, Gift, Ruleset
from tb_playground.models.ruleset import SYSTEMS, VARIANT_SWITCHES


def test_default_is_rules_000_and_004():
    r = Ruleset()
    assert r.system == "20 Below" and not r.roll_over
    assert r.variants_on == []
    assert r.boost_timing == "after"
    assert "default reading" in r.describe()


def test_every_switch_is_documented_and_cites_its_source():
    for name in VARIANT_SWITCHES:
        doc = Ruleset.param[name].doc
        assert "002" in doc, name
    assert set(Ruleset.param["system"].objects) == set(SYSTEMS)


def test_presets():
    quick = Ruleset.quick_reference()
    assert quick.variants_on == list(VARIANT_SWITCHES)
    assert quick.boost_timing == "before" and quick.boost_timing in TIMINGS
    assert Ruleset.roll_over_draft().roll_over


def test_never_moira_reaches_the_attack_options():
    c = Character(moira=9, earth=2, gifts=[Gift(name="Glare", dice=4, kind="social")])
    target = Creature()
    glare = next(o for o in c.attack_options(target) if o.label.startswith("Glare"))
    assert glare.element == "Moira"  # default: Moira carries Social attacks
    c.ruleset.never_moira = True
    glare = next(o for o in c.attack_options(target) if o.label.startswith("Glare"))
    assert glare.element != "Moira"


def test_boost_timing_reaches_the_attack_options():
    c = Character(earth=6, ferocity=5, gifts=[Gift(name="Punch", dice=5)])
    target = Creature(soak=7)
    after = next(o for o in c.attack_options(target, boosts=2) if o.label.startswith("Punch"))
    c.ruleset.boosts_before_roll = True
    before = next(o for o in c.attack_options(target, boosts=2) if o.label.startswith("Punch"))
    assert after.expected > before.expected  # choosing after seeing the dice is worth more
