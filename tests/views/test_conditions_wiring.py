"""Conditions reach every caller through ``engine.roll_modifiers`` (issue 7).

The Character model's skill odds and attack table, the Attack model, and the sheet's text.
"""

from __future__ import annotations

import pytest

from tb_playground.engine import check_odds, roll_odds, to_hit_odds
from tb_playground.models import Attack, Character, Creature


def test_skill_odds_with_off_balance_are_check_odds_at_disadvantage():
    # rules/004 "Conditions": Off Balance, "Everything at Disadvantage".
    c = Character(air=4)
    c.skill("Stealth").tier = 1
    plain = c.skill_odds_at("Stealth", 6)
    assert plain == pytest.approx(check_odds(4, 6, 1).p_success)
    c.conditions = ["Off Balance"]
    assert c.skill_odds_at("Stealth", 6) == pytest.approx(check_odds(4, 6, 1, -1).p_success)
    assert c.skill_odds_at("Stealth", 6) < plain
    # Adept's own source cancels it (rules/000 "Advantage and Disadvantage", Ronan's example).
    c.skill("Stealth").tier = 2
    assert c.skill_odds_at("Stealth", 6) == pytest.approx(roll_odds(10, 0).p_success)
    c.conditions = []
    assert c.skill_odds_at("Stealth", 6) == pytest.approx(roll_odds(10, 1).p_success)


def test_skill_kind_decides_which_conditions_reach_it():
    # rules/004 "Conditions": Exhausted 1 "Disadvantage on Physical"; Flustered "Social rolls".
    c = Character(exhausted=1, fire=5, earth=5, air=5)
    for name in ("Athletics", "Persuasion", "Research"):
        c.skill(name).tier = 1
    assert c.skill_odds_at("Athletics", 5) == pytest.approx(check_odds(5, 5, 1, -1).p_success)
    assert c.skill_odds_at("Persuasion", 5) == pytest.approx(check_odds(5, 5, 1).p_success)
    c.param.update(exhausted=0, poise_lost=c.poise_max)  # Poise at 0: Flustered
    assert "Flustered" in c.states
    assert c.skill_odds_at("Persuasion", 5) == pytest.approx(check_odds(5, 5, 1, -1).p_success)
    assert c.skill_odds_at("Athletics", 5) == pytest.approx(check_odds(5, 5, 1).p_success)
    assert c.skill_odds_at("Research", 5) == pytest.approx(check_odds(5, 5, 1).p_success)


def test_poise_below_zero_is_flustered_and_humiliated_and_refuses_leading():
    # rules/000 "Harm and Recovery", Poise: at 0 Flustered; below 0 Humiliated, "You cannot
    # take the lead, negotiate, or speak for the group".
    c = Character(presence=2)
    c.poise_lost = c.poise_max + 1
    assert c.poise_now == -1
    assert "Flustered" in c.states and "Humiliated" in c.states
    row = [s.name for s in c.skills].index("Leadership")
    assert not c.skill_modifiers[row].allowed
    assert "Humiliated" in c.skill_modifiers[row].reason
    assert c.skill_odds_at("Leadership", 10) == 0.0


def test_flustered_lasts_the_scene():
    # rules/000 "Harm and Recovery": Flustered "until the Scene ends"; RULES.md (decided): "it
    # lasts after Poise climbs back".
    c = Character(presence=2)
    c.poise_lost = c.poise_max
    assert "Flustered" in c.states
    c.poise_lost = 2
    assert c.poise_now > 0 and "Flustered" in c.states and c.flustered_this_scene
    c.end_scene()
    assert "Flustered" not in c.states and not c.flustered_this_scene
    c.poise_lost = c.poise_max  # still at 0 when the Scene ends: Flustered again
    c.end_scene()
    assert "Flustered" in c.states


def test_unconscious_character_cannot_roll():
    # rules/000 "Harm and Recovery": Health at 0, "you are unconscious".
    c = Character()
    c.health_lost = c.health_max
    assert all(not m.allowed for m in c.skill_modifiers)
    assert c.skill_odds.max() == 0.0
    assert c.versus_card("Stealth", 6) == 0.0


def test_character_attack_table_with_conditions():
    # rules/001 "Getting Low": every attack against a Prone target gains Advantage; Prone
    # "can't attack".
    c = Character(earth=5)
    target = Creature()
    plain = c.attack_options(target)[0]
    prone = c.attack_options(target, target_conditions=["Prone"])[0]
    d = target.defense_for(plain.kind)
    assert plain.p_hit == pytest.approx(to_hit_odds(plain.score, d, 0).p_hit)
    assert prone.p_hit == pytest.approx(to_hit_odds(plain.score, d, 1).p_hit)
    assert prone.modifiers.describe() == "Advantage: Target is Prone"
    c.conditions = ["Off Balance"]
    off = c.attack_options(target)[0]
    assert off.p_hit == pytest.approx(to_hit_odds(plain.score, d, -1).p_hit)
    assert off.modifiers.describe() == "Disadvantage: Off Balance"
    c.conditions = ["Prone"]
    refused = c.attack_options(target)[0]
    assert not refused.allowed and refused.modifiers.reason == "Prone: you can't attack"


def test_attack_model_prone_target_has_advantage():
    # rules/000 "Getting Low and Taking Cover": "every attack against you gains Advantage".
    a = Attack(element=5, target_defense_stat=3)
    plain = a.to_hit.p_hit
    a.target_conditions = ["Prone"]
    assert a.net_advantage == 1 and a.modifiers.describe() == "Advantage: Target is Prone"
    assert a.to_hit.p_hit == pytest.approx(to_hit_odds(5, 7, 1).p_hit)
    assert a.to_hit.p_hit > plain
    a.target_prone = True  # the old switch and the condition are one source
    assert a.net_advantage == 1


def test_attack_model_attacker_conditions():
    # The figure: 64% to hit, Off Balance, Surprised and Exhausted 2 each a source.
    a = Attack(element=5, target_defense_stat=3)
    assert a.to_hit.p_hit == pytest.approx(0.64)
    a.attacker_conditions = ["Off Balance", "Surprised"]
    a.attacker_exhausted = 2
    assert a.net_advantage == -3
    assert a.to_hit.p_hit == pytest.approx(to_hit_odds(5, 7, -1).p_hit)
    a.attacker_conditions = ["Prone"]
    a.attacker_exhausted = 0
    assert not a.allowed and "Prone" in a.modifiers.reason


def test_attack_model_belly_down_by_reach():
    # rules/001 "Getting Low": Belly Down, Melee against gain Advantage, ranged at Disadvantage.
    a = Attack(target_conditions=["Belly Down"])
    assert a.net_advantage == 1
    a.reach = "ranged"
    assert a.net_advantage == -1
    a.partial_cover = True  # rules/001 "Cover": two sources against a ranged attack
    a.slow_action = "aim"
    assert a.net_advantage == -1


def test_sheet_shows_why_the_odds_changed():
    from tb_playground.formatting import escape, percent
    from tb_playground.views import CharacterSheet
    from tb_playground.views.sheet_render import attacks_html, skill_odds_html

    c = Character(earth=5, air=4)
    target = Creature()
    assert "skill-conditions" not in skill_odds_html(c)
    c.conditions = ["Off Balance"]
    html = skill_odds_html(c)
    assert "Physical Skills: Disadvantage: Off Balance" in html
    assert "Social Skills: Disadvantage: Off Balance" in html
    assert percent(check_odds(4, 6, 0, -1).p_success) in html
    attacks = attacks_html(c, target, c.attack_options(target))
    assert "Disadvantage: Off Balance" in attacks
    # A refused roll shows the reason, not 0%.
    c.conditions = ["Prone"]
    attacks = attacks_html(c, target, c.attack_options(target))
    assert escape("Prone: you can't attack") in attacks
    assert 'class="refused"' in attacks
    c.conditions = []
    c.poise_lost = c.poise_max + 1  # Humiliated: Leadership refused
    html = skill_odds_html(c)
    assert "Social Skills: Disadvantage: Flustered" in html
    assert "Humiliated" in html and 'class="refused"' in html
    # The sheet itself: the creature's conditions reach its attack table.
    sheet = CharacterSheet(character=Character(earth=5), creatures=[Creature(name="Dummy")])
    sheet.target_conditions = ["Prone"]
    assert "Advantage: Target is Prone" in sheet.odds.attacks.object


def test_damage_page_shows_the_conditions():
    from tb_playground.views.damage_explorer import DamageExplorer

    page = DamageExplorer()
    a = page.attack
    a.param.update(element=5, target_defense_stat=3)
    assert "64.0%" in page._stats.object
    a.attacker_conditions = ["Off Balance"]
    a.target_conditions = ["Prone"]
    assert "Normal roll: Target is Prone cancels Off Balance" in page._stats.object
    a.attacker_conditions = ["Unconscious"]
    assert "No attack:</b> Unconscious: you can&#x27;t act" in page._stats.object
    assert "to hit" not in page._stats.object
