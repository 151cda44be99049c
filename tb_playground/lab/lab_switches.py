"""What the rules lab compares: every Ruleset switch and the rules/003 draft (issue 11, section 2).

The names (``LAB_SWITCHES``, ``ROLL_OVER``), each one's plain title, sentence, the inputs its
report reads (``SWITCH_INPUTS``), where it comes from (``LAB_QUOTES``, quoted verbatim from
rules/002, 003, 004; ``source_text``), the battery's quantities in plain words
(``QUANTITY_NAMES``) and which of them each switch's rule touches (``TOUCHES``, RULES.md), and
``ruleset_for`` (a ``Ruleset`` with the given switches on).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from tb_playground.engine.validation import require_choice
from tb_playground.models.names import names
from tb_playground.models.ruleset import (
    SWITCH_SENTENCES,
    SWITCHES,
    Ruleset,
)

#: The rules/003 roll-over draft, compared as a whole system (``Ruleset.system``).
ROLL_OVER = "roll_over_draft"

#: Everything the lab compares: each switch, then the draft.
LAB_SWITCHES = (*SWITCHES, ROLL_OVER)

#: Short plain names for the lab's picker (``display.DISPLAY_NAMES["lab_switch"]``).
SWITCH_TITLES = dict(names("lab_switch"))

#: What ``switch_report``'s inputs mean for each switch (None: the switch does not read it).
SWITCH_INPUTS: dict[str, dict[str, str | None]] = {
    "gift_check_ki_plus_stamina": {"element": None, "stat": "Stamina", "dice": None},
    "never_moira": {"element": "Moira", "stat": "Best other Element", "dice": "Damage dice"},
    "boosts_before_roll": {
        "element": None,
        "stat": "What a boost adds (Ferocity, Presence or Psyche)",
        "dice": "Damage dice",
    },
    "vitals_002": {"element": None, "stat": "Defender's Ki", "dice": None},
    "ki_pool_from_sub_stats": {"element": "Strongest Element", "stat": None, "dice": None},
    "short_rest_half_klotho": {"element": None, "stat": None, "dice": None},
    "fate_spends_stamina_only": {"element": None, "stat": None, "dice": None},
    "death_at_negative_health": {"element": None, "stat": None, "dice": None},
    "slow_called_shot_advantage": {"element": "Element", "stat": None, "dice": "Damage dice"},
    "advantage_from_expert": {"element": "Element", "stat": None, "dice": None},
    "below_zero_heals_per_rest": {"element": None, "stat": "Health sub-stat", "dice": None},
    "flustered_shaken_off": {"element": None, "stat": "Presence", "dice": None},
    "criticals_outrank": {
        "element": "Resister's Element (their TN is it + 5)",
        "stat": None,
        "dice": None,
    },
    "deception_water": {"element": "Fire", "stat": "Water", "dice": None},
    ROLL_OVER: {
        "element": "Element (the draft: Skill Rating)",
        "stat": "Wall (Soak)",
        "dice": "Damage dice (the draft: weapon rating)",
    },
}

#: Each one's sentence; the draft's too.
LAB_SENTENCES = {
    **SWITCH_SENTENCES,
    ROLL_OVER: "2d10 + Skill at or over a DC; Advantages stack as re-rolls; damage is the "
    "margin, capped by the weapon rating.",
}

#: Where each reading comes from: (rules file, its heading, the words quoted verbatim).
LAB_QUOTES: dict[str, tuple[str, str, str]] = {
    "gift_check_ki_plus_stamina": (
        "002",
        "How Do I Use a Gift?",
        "a resource-risk roll against your own Ki and Stamina combined",
    ),
    "never_moira": (
        "002",
        "How Do I Attack?",
        "Earth, Air, Fire, or Water - whichever matches how you're actually attempting the "
        "attack, not your weapon, and never Moira",
    ),
    "boosts_before_roll": (
        "002",
        "How Do I Deal Damage?",
        "decided before any of the attack's dice are rolled, not chosen afterward to salvage "
        "a bad one",
    ),
    "vitals_002": (
        "002",
        "What Happens to My Poise?",
        "Poise can't go below 0",
    ),
    "ki_pool_from_sub_stats": (
        "002",
        "How Does Ki Work?",
        "average your Soak, Initiative, Ferocity, Stamina, and Atropos sub-stats, then double "
        "the result",
    ),
    "short_rest_half_klotho": (
        "002",
        "How Does Ki Work?",
        "A Short Rest gives back half your Klotho, rounded up.",
    ),
    "fate_spends_stamina_only": (
        "002",
        "How Does Fate Work?",
        "your Stamina score sets that cap",
    ),
    "death_at_negative_health": (
        "002",
        "What Happens to My Health?",
        "at or below your negative Health sub-stat) and you die",
    ),
    "slow_called_shot_advantage": (
        "002",
        "How Do Action Brackets Work?",
        "it allows called shots and gets Advantage on the attack",
    ),
    "advantage_from_expert": (
        "002",
        "What Are Advantage and Disadvantage?",
        "an Expert or Master Skill Training Tier",
    ),
    "below_zero_heals_per_rest": (
        "002",
        "What Happens to My Health?",
        "1 Health Level per rest, Short or Full, until you're back up to 0",
    ),
    "flustered_shaken_off": (
        "002",
        "What Happens to My Poise?",
        "You can spend an action to roll Presence against a Difficulty to shake it off early",
    ),
    "criticals_outrank": (
        "000",
        "Opposed Rolls",
        "If you both succeed, whoever came in further under their target number wins.",
    ),
    "deception_water": ("004", "Social Attacks", "Water carries Deception."),
    ROLL_OVER: (
        "003",
        "Taking Actions and Rolling Dice",
        "If you meet or exceed the DC, you succeed.",
    ),
}

#: What the default reading says instead, and what the switch does with the quote.
LAB_READINGS = {
    "criticals_outrank": "The text is silent on criticals; by default a critical's margin counts "
    "like any other, and the switch lets a critical beat any ordinary success.",
}


def source_text(switch: str) -> str:
    """Where a reading comes from, in words: 'rules/002, "How Do I Attack?": "..."'."""
    number, heading, quote = LAB_QUOTES[_check_switch(switch)]
    extra = LAB_READINGS.get(switch)
    return f'rules/{number}, "{heading}": "{quote}"' + (f" {extra}" if extra else "")


#: The quantities ``quantities`` computes, in plain words.
QUANTITY_NAMES = {
    "check": "Skill check odds by training tier and Difficulty",
    "gift_check": "Gift Check odds",
    "social_to_hit": "Best Social attack's odds to hit",
    "physical_to_hit": "Physical attack's odds to hit",
    "damage": "Damage levels per roll (with Ki boosts)",
    "poise_step": "Poise after one attack",
    "health_step": "Health after one attack",
    "poise_ki_recovery": "What 1 Ki does for Poise at or below 0",
    "sanity_ki_recovery": "What 1 Ki does for Sanity at or below 0",
    "ki_pool": "Ki pool",
    "short_rest_ki": "Ki back from a Short Rest",
    "fate_spends": "Counted Fate spends per Scene",
    "death": "The Health level where a character dies",
    "called_shot": "A Slow Called Shot's roll",
    "aim": "A Slow Aim's roll",
    "short_rest_health": "Health after a Short Rest",
    "full_night_health": "Health after a Full Night's Rest",
    "shake_off": "Chance an action ends Flustered",
    "opposed": "Opposed roll: chance the actor wins",
    "deception": "Deception's odds",
    "persuasion": "Persuasion's odds",
    "draft_check": "The dice system's check odds",
    "draft_attack": "The dice system's attack: hit and damage",
}

#: Which quantities each switch's rule touches (RULES.md; rules/002, 003, 004).
TOUCHES: dict[str, frozenset[str]] = {
    "gift_check_ki_plus_stamina": frozenset({"gift_check"}),
    "never_moira": frozenset({"social_to_hit"}),
    "boosts_before_roll": frozenset({"damage"}),
    # 002 "What Happens to My Sanity?": at 0, 1 Ki "also fills Sanity back to full" (the
    # engine's ki_recovery); RULES.md's digest names only Poise's refill.
    "vitals_002": frozenset({"poise_step", "poise_ki_recovery", "sanity_ki_recovery"}),
    "ki_pool_from_sub_stats": frozenset({"ki_pool"}),
    "short_rest_half_klotho": frozenset({"short_rest_ki"}),
    "fate_spends_stamina_only": frozenset({"fate_spends"}),
    "death_at_negative_health": frozenset({"death"}),
    "slow_called_shot_advantage": frozenset({"called_shot"}),
    "advantage_from_expert": frozenset({"check"}),
    "below_zero_heals_per_rest": frozenset({"short_rest_health"}),
    "flustered_shaken_off": frozenset({"shake_off"}),
    "criticals_outrank": frozenset({"opposed"}),
    "deception_water": frozenset({"deception"}),
    ROLL_OVER: frozenset({"draft_check", "draft_attack"}),
}


def _check_switch(switch: str) -> str:
    return require_choice("switch", switch, LAB_SWITCHES)


def _switches(switches: Mapping[str, bool] | None) -> dict[str, bool]:
    """Every lab switch with its value (off unless given); unknown names are refused."""
    out = dict.fromkeys(LAB_SWITCHES, False)
    for name, value in dict(switches or {}).items():
        _check_switch(name)
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"switch {name} must be True or False, got {value!r}")
        out[name] = bool(value)
    return out


def ruleset_for(switches: Mapping[str, bool] | None = None) -> Ruleset:
    """A ``Ruleset`` with these switches on (``ROLL_OVER`` sets the system)."""
    on = _switches(switches)
    draft = on.pop(ROLL_OVER)
    return Ruleset(system="roll-over draft" if draft else "20 Below", **on)
