"""What the rules lab compares: every Ruleset switch and the rules/003 draft (issue 11, section 2).

The names (``LAB_SWITCHES``, ``ROLL_OVER``), each one's plain title, sentence, the inputs its
report reads (``SWITCH_INPUTS``), where it comes from (``LAB_QUOTES``; ``source_text``) and
which battery quantities it touches (``TOUCHES``) are columns of ``models/switches.py``'s one
list, read at each look-up. The battery's quantities in plain words (``QUANTITY_NAMES``) and
``ruleset_for`` (a ``Ruleset`` with the given switches on) are the lab's own.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from tb_playground.engine.validation import require_choice
from tb_playground.models.names import names, options_for
from tb_playground.models.ruleset import Ruleset
from tb_playground.models.switches import (
    ROLL_OVER_DRAFT,
    SwitchColumn,
    get_switch,
    switch_names,
)

#: The rules/003 roll-over draft, compared as a whole system (``Ruleset.system``).
ROLL_OVER = ROLL_OVER_DRAFT.name

#: Everything the lab compares: each switch, then the draft (as the module was imported;
#: ``lab_switch_names`` reads the list again).
LAB_SWITCHES = switch_names(draft=True)

#: Short plain names for the lab's picker (``models/switches.py``'s titles).
SWITCH_TITLES = names("lab_switch")

#: What ``switch_report``'s inputs mean for each switch (None: the switch does not read it).
SWITCH_INPUTS: Mapping[str, dict[str, str | None]] = SwitchColumn("input_words", draft=True)

#: Each one's sentence; the draft's too.
LAB_SENTENCES: Mapping[str, str] = SwitchColumn("sentence", draft=True)

#: Where each reading comes from: (rules file, its heading, the words quoted verbatim).
LAB_QUOTES: Mapping[str, tuple[str, str, str]] = SwitchColumn("source", draft=True)

#: What the default reading says instead, and what the switch does with the quote.
LAB_READINGS: Mapping[str, str] = SwitchColumn(
    "source_note", draft=True, keep=lambda s: bool(s.source_note)
)


def lab_switch_names() -> tuple[str, ...]:
    """Everything the lab compares now: each switch in ``SWITCH_LIST``, then the draft."""
    return switch_names(draft=True)


def picker_options() -> dict[str, str]:
    """The lab's picker: plain title -> switch name, for every switch and the draft."""
    return options_for("lab_switch", lab_switch_names())


def source_text(switch: str) -> str:
    """Where a reading comes from, in words: 'rules/002, "How Do I Attack?": "..."'."""
    return get_switch(check_switch(switch)).source_text


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
TOUCHES: Mapping[str, frozenset[str]] = SwitchColumn("touches", draft=True)


def check_switch(switch: str) -> str:
    """``switch`` if the lab knows it, else a refusal naming the field and the choices."""
    return require_choice("switch", switch, lab_switch_names())


def _switches(switches: Mapping[str, bool] | None) -> dict[str, bool]:
    """Every lab switch with its value (off unless given); unknown names are refused."""
    out = dict.fromkeys(lab_switch_names(), False)
    for name, value in dict(switches or {}).items():
        check_switch(name)
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"switch {name} must be True or False, got {value!r}")
        out[name] = bool(value)
    return out


def ruleset_for(switches: Mapping[str, bool] | None = None) -> Ruleset:
    """A ``Ruleset`` with these switches on (``ROLL_OVER`` sets the system)."""
    on = _switches(switches)
    draft = on.pop(ROLL_OVER)
    return Ruleset(system="roll-over draft" if draft else "20 Below", **on)
