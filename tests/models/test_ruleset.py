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


def test_criticals_outrank_changes_only_the_opposed_comparison():
    """rules/000 'Opposed Rolls' read literally by default; the switch ranks criticals first."""
    from tb_playground.engine import check_odds, contest, opposed_odds

    r = Ruleset()
    assert r.opposed_args == {"criticals_outrank": False}
    default = opposed_odds(8, 16, **r.opposed_args)
    r.criticals_outrank = True
    assert r.variants_on == ["criticals_outrank"]
    assert opposed_odds(8, 16, **r.opposed_args) > default
    # A plain check knows nothing of it.
    assert check_odds(5, 5).p_success == check_odds(5, 5).p_success
    # Both sides at TN 20: a critical (kept 2) is 18 under, already the best margin: no change.
    a, b = check_odds(10, 10), check_odds(10, 10)
    assert contest(a, b, criticals_outrank=True) == contest(a, b)


def test_switches_on_text_is_plain_words():
    r = Ruleset()
    assert r.switches_on_text() == []
    r.criticals_outrank = True
    r.never_moira = True
    text = r.switches_on_text()
    assert len(text) == 2
    for sentence in text:
        assert "_" not in sentence and sentence.endswith(".")
