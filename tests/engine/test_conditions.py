"""Conditions and circumstances -> Advantage sources (engine/conditions.py).

Each rule is checked against the text it comes from (file and heading in a comment); the
odds are checked against a brute-force count of d10 faces that re-reads rules/000
"Advantage and Disadvantage" (3d10, keep the lowest / highest two) and knows nothing of the
engine's tables.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tb_playground.engine import (
    CONDITION_RULES,
    CONDITIONS,
    ROLL_KINDS,
    attack_advantage,
    check_odds,
    roll_modifiers,
    split_states,
    to_hit_odds,
    weapon_range_band,
)
from tb_playground.engine.conditions import DURATIONS, EXHAUSTED_RULE, RollModifiers, Source


@cache
def brute_p_success(target: int, net: int) -> Fraction:
    """P(kept total <= target, or a kept 2; never a kept 20), by enumerating every face."""
    dice = 2 if net == 0 else 3
    hits = 0
    rolls = list(itertools.product(range(1, 11), repeat=dice))
    for faces in rolls:
        ordered = sorted(faces)
        kept = ordered[:2] if net > 0 else ordered[-2:]
        total = sum(kept)
        hits += total == 2 or (total <= target and total != 20)
    return Fraction(hits, len(rolls))


def attack(**kwargs) -> RollModifiers:
    kwargs.setdefault("attack_kind", "physical")
    return roll_modifiers("attack", **kwargs)


# -- the roller's conditions (rules/004 "Conditions") ------------------------------------------


@pytest.mark.parametrize("name", ["Off Balance", "Surprised", "Overwhelmed"])
@pytest.mark.parametrize(
    "roll, kind",
    [("physical", None), ("social", None), ("mental", None), ("other", None)]
    + [("attack", k) for k in ("physical", "social", "mental")],
)
def test_everything_at_disadvantage(name, roll, kind):
    # rules/004 "Conditions": Off Balance "Everything at Disadvantage", Surprised "Everything
    # at Disadvantage for the round", Overwhelmed "Disadvantage on everything".
    m = roll_modifiers(roll, attack_kind=kind, conditions=[name])
    assert m.allowed and m.advantage == -1
    assert m.sources == (Source(name, -1),)
    assert m.describe() == f"Disadvantage: {name}"


def test_off_balance_does_not_stack():
    # rules/004 "Conditions": Off Balance "Doesn't stack".
    assert roll_modifiers("physical", conditions=["Off Balance", "Off Balance"]).advantage == -1


def test_each_condition_is_its_own_source():
    # rules/000 "Advantage and Disadvantage": treat each instance as -1 and add them up;
    # so Aim (+1) does not lift Off Balance and Surprised together off Disadvantage.
    m = attack(conditions=["Off Balance", "Surprised"], aim=True)
    assert m.advantage == -1
    assert m.describe() == "Disadvantage: Off Balance, Surprised; for: Aim"
    assert attack(conditions=["Off Balance"], aim=True).describe() == (
        "Normal roll: Aim cancels Off Balance"
    )


@pytest.mark.parametrize(
    "roll, kind, net",
    [
        ("social", None, -1),
        ("attack", "social", -1),
        ("physical", None, 0),
        ("mental", None, 0),
        ("attack", "physical", 0),
    ],
)
def test_flustered_is_social_only(roll, kind, net):
    # rules/004 "Conditions": Flustered "Social rolls at Disadvantage for the scene";
    # rules/000 "Harm and Recovery": "Every Social roll ... is at Disadvantage".
    assert roll_modifiers(roll, attack_kind=kind, conditions=["Flustered"]).advantage == net


@pytest.mark.parametrize(
    "level, roll, kind, net",
    [
        (1, "physical", None, -1),
        (1, "attack", "physical", -1),
        (1, "social", None, 0),
        (1, "mental", None, 0),
        (1, "attack", "social", 0),
        (2, "social", None, -1),
        (2, "mental", None, -1),
        (3, "attack", "mental", -1),
        (4, "physical", None, -1),
    ],
)
def test_exhausted_levels(level, roll, kind, net):
    # rules/004 "Conditions": Exhausted "Stacks 1-5: Disadvantage on Physical, then on all,
    # then half Move and no Fast, then +1 per Ki spend, then out cold". One condition, so one
    # source at any level.
    m = roll_modifiers(roll, attack_kind=kind, exhausted=level)
    assert m.allowed and m.advantage == net


def test_exhausted_three_and_four_are_budget_notes():
    # rules/004 "Conditions": 3 "half Move and no Fast", 4 "+1 per Ki spend".
    assert roll_modifiers("mental", exhausted=2).notes == ()
    assert roll_modifiers("mental", exhausted=3).notes == (
        "Exhausted 3: half Move and no Fast bracket",
    )
    assert len(roll_modifiers("mental", exhausted=4).notes) == 2


@pytest.mark.parametrize(
    "conditions, exhausted, reason",
    [
        (["Unconscious"], 0, "Unconscious: you can't act"),
        (["Dying"], 0, "Dying: you can't act"),
        (["Dead"], 0, "Dead: you can't act"),
        ([], 5, "Exhausted 5: out cold, you can't act"),
        (["Shattered"], 0, "Shattered: you can't act on your own; someone has to lead you"),
    ],
)
@pytest.mark.parametrize("roll", ROLL_KINDS)
def test_cannot_act(conditions, exhausted, reason, roll):
    # rules/004 "Conditions": Dying "Unconscious and out of the fight"; Exhausted 5 "out
    # cold"; Shattered "you have to be led"; rules/000 "Harm and Recovery": Health at 0
    # "you are unconscious".
    kind = "physical" if roll == "attack" else None
    m = roll_modifiers(roll, attack_kind=kind, conditions=conditions, exhausted=exhausted)
    assert not m.allowed and m.reason == reason
    assert m.describe() == f"Can't roll: {reason}"


def test_shattered_can_act_when_led():
    # rules/000 "Harm and Recovery": "somebody else has to lead you or drag you".
    assert roll_modifiers("physical", conditions=["Shattered"], alone=False).allowed


def test_humiliated_cannot_lead_or_negotiate():
    # rules/000 "Harm and Recovery": Humiliated "You cannot take the lead, negotiate, or speak
    # for the group"; an ordinary roll is not refused.
    m = roll_modifiers("social", conditions=["Humiliated"], leads=True)
    assert not m.allowed and m.reason.startswith("Humiliated")
    assert roll_modifiers("social", conditions=["Humiliated"]).allowed


def test_gift_check_has_no_advantage_but_needs_a_conscious_roller():
    # rules/000 "What Ki Is": Gift Check, "There is no Advantage or Disadvantage on this roll".
    m = roll_modifiers(
        "gift check", conditions=["Off Balance", "Flustered"], exhausted=2, helpers=1
    )
    assert m.allowed and m.advantage == 0 and m.sources == ()
    assert not roll_modifiers("gift check", conditions=["Unconscious"]).allowed


# -- Getting low, cover, tight spaces (rules/000, rules/001) ----------------------------------


def test_prone():
    # rules/001 "Getting Low": Prone "You can't attack, every attack against you gains
    # Advantage".
    assert attack(conditions=["Prone"]).reason == "Prone: you can't attack"
    assert roll_modifiers("physical", conditions=["Prone"]).allowed
    for reach in ("melee", "ranged"):
        m = attack(target_conditions=["Prone"], reach=reach)
        assert m.advantage == 1 and m.describe() == "Advantage: Target is Prone"
    assert attack(attack_kind="social", target_conditions=["Prone"]).advantage == 1


def test_belly_down():
    # rules/001 "Getting Low": Belly Down "Your Melee attacks are at Disadvantage, Melee
    # attacks against you gain Advantage, and ranged attacks against you are at Disadvantage
    # ... Your own ranged attacks are unaffected."
    assert attack(conditions=["Belly Down"], reach="melee").advantage == -1
    assert attack(conditions=["Belly Down"], reach="ranged").advantage == 0
    assert attack(target_conditions=["Belly Down"], reach="melee").advantage == 1
    assert attack(target_conditions=["Belly Down"], reach="ranged").advantage == -1


def test_belly_down_behind_partial_cover_is_two_sources():
    # rules/001 "Cover": "Belly Down behind partial cover is two sources against a ranged
    # attack: no harder to hit than partial cover alone, but a shooter who Aims (+1) is still
    # left at Disadvantage."
    both = attack(target_conditions=["Belly Down"], cover="partial", reach="ranged")
    assert both.advantage == -2 and both.sign == attack(cover="partial").sign == -1
    aimed = attack(target_conditions=["Belly Down"], cover="partial", reach="ranged", aim=True)
    assert aimed.advantage == -1
    assert attack(cover="partial", aim=True).advantage == 0


def test_cover():
    # rules/001 "Cover": partial "attacks against you are at Disadvantage"; full "attacks that
    # need to see or reach you can't".
    assert attack(cover="partial").sources == (Source("Target behind partial cover", -1),)
    full = attack(cover="full")
    assert not full.allowed and "full cover" in full.reason


def test_squeezed():
    # rules/001 "Terrain and Footing": tight spaces, "you can't attack, and attacks against
    # you are at Disadvantage".
    assert not attack(conditions=["Squeezed"]).allowed
    assert attack(target_conditions=["Squeezed"]).advantage == -1


def test_grabbed_changes_no_roll():
    # rules/001 "Movement Rate": "Grabbed sets it to 0" -- a movement matter, not a roll's.
    m = attack(conditions=["Grabbed"])
    assert m.allowed and m.advantage == 0 and m.notes


# -- Combat actions and Slow actions (rules/001 "Combat Actions", "Empowered Actions") --------


def test_reckless():
    # rules/001 "Combat Actions": Reckless "Advantage on all your attack rolls this round;
    # attacks against you gain Advantage this round too".
    assert attack(reckless=True).advantage == 1
    assert roll_modifiers("physical", reckless=True).advantage == 0
    assert attack(target_reckless=True).advantage == 1


def test_full_defense():
    # rules/001 "Combat Actions": Full Defense "you can't attack; attacks against you are at
    # Disadvantage and your Defense drops by 4 (to a minimum of 0)".
    assert not attack(full_defense=True).allowed
    m = attack(target_full_defense=True)
    assert m.advantage == -1 and m.defense_change == -4
    assert m.defense(7) == 3 and m.defense(2) == 0


def test_aim_and_called_shot():
    # rules/000 "Action Brackets": Slow, "you Aim for Advantage"; "You can't Aim and take a
    # Called Shot in the same round. ... Study a Target, then take the shot with Advantage."
    assert attack(aim=True).advantage == 1
    assert attack(called_shot=True).advantage == 0  # default reading: no Advantage
    assert attack(called_shot=True, studied=True).advantage == 1
    assert attack(studied=True).advantage == 0  # Study helps a Called Shot only
    assert not attack(aim=True, called_shot=True).allowed
    # rules/002 "How Do Called Shots Work?": the Slow action "already grants you Advantage".
    assert attack(called_shot=True, slow_called_shot_advantage=True).advantage == 1


def test_distracted():
    # rules/001 "Empowered Actions": "Distracted drops the action to a Normal one, and it
    # loses what its empowerment gave"; rules/002 "What Is Distracted?": outside a Slow
    # action, "failure just imposes Disadvantage on whatever triggered it".
    m = attack(conditions=["Distracted"], aim=True)
    assert m.advantage == 0 and m.notes and "Aim" in m.notes[0]
    assert roll_modifiers("physical", conditions=["Distracted"]).advantage == -1


# -- the rest (rules/000 "Advantage and Disadvantage", "Helping"; rules/004 weapon range) -----


def test_ronan_research_example():
    # rules/000 "Advantage and Disadvantage", EXAMPLE: Ronan, Adept at Research (+1), in a
    # dark library (-1): they cancel. Guiding the party earns Advantage: he rolls at Advantage.
    m = roll_modifiers("mental", tier_advantage=1, other_disadvantage=1)
    assert m.advantage == 0 and m.situational == -1
    assert roll_modifiers("mental", tier_advantage=1, other_disadvantage=1, helpers=1).sign == 1


def test_helpers():
    # rules/000 "Helping": "A second helper doesn't give you more of it ... but it can cancel
    # out something working against you."
    assert roll_modifiers("physical", helpers=2).sign == roll_modifiers("physical", helpers=1).sign
    assert roll_modifiers("physical", helpers=1, conditions=["Off Balance"]).sign == 0
    assert roll_modifiers("physical", helpers=2, conditions=["Off Balance"]).sign == 1


def test_off_hand():
    # rules/000 "Advantage and Disadvantage", Off-hand: "is at Disadvantage".
    assert attack(off_hand=True).advantage == roll_modifiers("physical", off_hand=True).advantage
    assert attack(off_hand=True).advantage == -1


@pytest.mark.parametrize(
    "distance, normal, long, band",
    [(1, 0, 0, "normal"), (2, 0, 0, "beyond"), (30, 30, 90, "normal"), (31, 30, 90, "long"),
     (90, 30, 90, "long"), (91, 30, 90, "beyond")],
)  # fmt: skip
def test_weapon_range(distance, normal, long, band):
    # rules/004 "Weapon range - no penalty inside Normal, Disadvantage out to Long, no shot
    # past it."
    assert weapon_range_band(distance, normal, long) == band
    m = attack(reach="ranged", weapon_range=band)
    assert m.allowed == (band != "beyond")
    assert m.advantage == (-1 if band == "long" else 0)


def test_attack_advantage_wrapper_agrees():
    assert attack_advantage(aim=True, target_prone=True, partial_cover=True) == 1
    assert attack_advantage(off_hand=True) == attack(off_hand=True).advantage


@pytest.mark.parametrize(
    "roll, kwargs, name",
    [
        ("jump", {}, "roll"),
        ("attack", {}, "attack_kind"),
        ("physical", {"attack_kind": "physical"}, "attack_kind"),
        ("physical", {"conditions": ["Sleepy"]}, "conditions"),
        ("physical", {"conditions": "Prone"}, "conditions"),
        ("physical", {"target_conditions": ["Tired"]}, "target_conditions"),
        ("physical", {"exhausted": 6}, "exhausted"),
        ("physical", {"aim": 1}, "aim"),
        ("physical", {"cover": "half"}, "cover"),
        ("physical", {"reach": "far"}, "reach"),
        ("physical", {"helpers": -1}, "helpers"),
        ("physical", {"tier_advantage": 2}, "tier_advantage"),
    ],
)
def test_bad_input_names_the_argument(roll, kwargs, name):
    with pytest.raises(ValueError, match=name):
        roll_modifiers(roll, **kwargs)


# -- durations and the sheet's states ----------------------------------------------------------


def test_condition_rules_as_data():
    assert set(CONDITIONS) == set(CONDITION_RULES)
    for rule in [*CONDITION_RULES.values(), EXHAUSTED_RULE]:
        assert rule.duration in DURATIONS and rule.source.startswith("rules/")
    # rules/000 "Rolling the Dice": Off Balance "until the end of your next turn".
    assert CONDITION_RULES["Off Balance"].duration == "end of owner's next turn"
    # rules/004 "Conditions": Surprised "for the round"; Flustered "for the scene".
    assert CONDITION_RULES["Surprised"].duration == "round"
    assert CONDITION_RULES["Flustered"].duration == "scene"


def test_split_states():
    assert split_states(["Off Balance", "Exhausted 2", "Flustered"]) == (
        ("Off Balance", "Flustered"),
        2,
    )
    with pytest.raises(ValueError, match="Exhausted"):
        split_states(["Exhausted 9"])


# -- properties ---------------------------------------------------------------------------------

#: By hand from rules/004 "Conditions": the roll kinds (a kind or "attack:<kind>") each
#: condition puts at Disadvantage. Conditions not listed give the roller no source.
ROLLS = ["physical", "social", "mental", "other", "attack:physical", "attack:social",
         "attack:mental"]  # fmt: skip
EVERY = set(ROLLS)
BY_HAND = {
    "Off Balance": EVERY,
    "Surprised": EVERY,
    "Overwhelmed": EVERY,
    "Distracted": EVERY,
    "Flustered": {"social", "attack:social"},
    "Belly Down": {"attack:physical"},  # rules/001 "Getting Low": your Melee attacks
}
NO_REFUSAL = [c for c in CONDITIONS if c not in ("Unconscious", "Dying", "Dead", "Shattered")]


def _call(roll: str, **kwargs) -> RollModifiers:
    if roll.startswith("attack:"):
        return roll_modifiers("attack", attack_kind=roll.split(":")[1], **kwargs)
    return roll_modifiers(roll, **kwargs)


@settings(max_examples=300, deadline=None)
@given(
    roll=st.sampled_from(ROLLS),
    conditions=st.lists(st.sampled_from(NO_REFUSAL), max_size=4),
    exhausted=st.integers(0, 4),
    plus=st.integers(0, 3),
    minus=st.integers(0, 3),
    tier=st.integers(0, 4),
    element=st.integers(0, 10),
    difficulty=st.integers(0, 10),
)
def test_conditions_never_raise_the_odds(
    roll, conditions, exhausted, plus, minus, tier, element, difficulty
):
    base = _call(roll, other_advantage=plus, other_disadvantage=minus)
    worse = _call(
        roll,
        conditions=conditions,
        exhausted=exhausted,
        other_advantage=plus,
        other_disadvantage=minus,
    )
    assert worse.advantage <= base.advantage
    before = check_odds(element, difficulty, tier, base.situational).p_success
    after = check_odds(element, difficulty, tier, worse.situational).p_success
    assert after <= before + 1e-15


@settings(max_examples=300, deadline=None)
@given(
    roll=st.sampled_from(ROLLS),
    conditions=st.lists(st.sampled_from(NO_REFUSAL), max_size=5),
    exhausted=st.integers(0, 4),
    plus=st.integers(0, 2),
    element=st.integers(0, 10),
    defense=st.integers(0, 10),
)
def test_effect_equals_the_advantage_rule_by_hand(
    roll, conditions, exhausted, plus, element, defense
):
    # rules/000 "Advantage and Disadvantage": sum +1 / -1 per source, the sign decides.
    if roll.startswith("attack:"):  # Prone and Squeezed can't attack (test_prone, test_squeezed)
        conditions = [c for c in conditions if c not in ("Prone", "Squeezed")]
    by_hand = plus - sum(roll in BY_HAND.get(c, ()) for c in set(conditions))
    physical = roll in ("physical", "attack:physical")
    by_hand -= exhausted >= 2 or (exhausted == 1 and physical)
    m = _call(roll, conditions=conditions, exhausted=exhausted, other_advantage=plus)
    assert m.allowed
    assert m.advantage == by_hand
    target = element + defense
    sign = (by_hand > 0) - (by_hand < 0)
    odds = to_hit_odds(element, defense, m.advantage)
    assert odds.p_hit == pytest.approx(float(brute_p_success(target, sign)), abs=1e-12)


def test_sixty_four_percent_to_hit_changes_with_off_balance():
    # The figure: TN 12 is 64% on a plain roll; Off Balance makes it a Disadvantage.
    plain = to_hit_odds(5, 7, 0).p_hit
    off = to_hit_odds(5, 7, attack(conditions=["Off Balance"]).advantage).p_hit
    assert plain == pytest.approx(0.64)
    assert off == pytest.approx(float(brute_p_success(12, -1)))
    assert off < plain


@pytest.mark.parametrize("level", range(6))
def test_exhausted_effects_stack(level):
    # rules/004 "Conditions": "Stacks 1-5: Disadvantage on Physical, then on all, then half
    # Move and no Fast, then +1 per Ki spend, then out cold".
    from tb_playground.engine.conditions import exhausted_effects

    e = exhausted_effects(level)
    assert (e.physical_disadvantage, e.all_disadvantage) == (level >= 1, level >= 2)
    assert e.half_move == e.no_fast == (level >= 3)
    assert e.ki_surcharge == (1 if level >= 4 else 0)
    assert e.out_cold == (level == 5)
    with pytest.raises(ValueError, match="level"):
        exhausted_effects(6)
