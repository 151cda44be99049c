"""The rules lab: what each Ruleset switch changes, side by side (issue 11, section 2).

For every switch of ``models.Ruleset`` (each rules/002 variant and each reading of 000/004, see
``VARIANT_SWITCHES`` and ``READING_SWITCHES``) and for the rules/003 roll-over draft as a whole
system (``ROLL_OVER``), ``switch_report`` gives exactly what changes:

- curves of the default and the switched reading over one axis (a success curve over the TN,
  the Difficulty or the Defense; a damage curve over the wall or the Defense; or the quantity
  the rule touches, such as Ki back from a Short Rest over Klotho);
- a difference heatmap (switched minus default) over two axes, where the rule has two inputs;
- what the switch leaves alone.

``quantities(switches)`` is one battery of engine numbers, each computed through the switch's
engine argument (``Ruleset``'s translations: ``boost_timing``, ``tier_args``, ...);
``TOUCHES`` says which of them each switch's rule touches (RULES.md), and the tests check that
a switch changes those and nothing else. ``advantage_as_tn`` answers "which flat TN modifier
is Advantage worth at each TN", and ``win_comparison`` plays the same encounter under the
default and under a switch with ``lab.simulate``, in chunks, with progress and cancel hooks.

Every number comes from the engine (exact counts or float64 tested to 1e-12); no Panel here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from tb_playground.display import names
from tb_playground.engine import (
    ELEMENTS,
    attack_elements,
    check_odds,
    damage_distribution,
    fate_spends_per_scene,
    full_night,
    gift_check_odds,
    ki_pool,
    ki_recovery,
    opposed_odds,
    roll_modifiers,
    roll_odds,
    roll_over_attack,
    shake_off_flustered_odds,
    short_rest,
    success_curve,
    to_hit_odds,
    vital_step,
)
from tb_playground.engine.character_stats import (
    KI_SUB_STATS,
    death_threshold,
    short_rest_ki,
    vital_maximum,
)
from tb_playground.engine.roll_over import dice_total_counts, draft_defense
from tb_playground.engine.validation import require_choice, require_int
from tb_playground.models.ruleset import (
    READING_SWITCHES,
    SWITCH_SENTENCES,
    SWITCHES,
    VARIANT_SWITCHES,
    Ruleset,
)
from tb_playground.models.skills import home_element

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

#: Switches the simulator plays itself (``simulate``'s ``ruleset`` argument): all of
#: ``lab.prepare.RULESET_SWITCHES``.
SIMULATOR_SWITCHES = (
    "vitals_002",
    "never_moira",
    "slow_called_shot_advantage",
    "boosts_before_roll",
)

#: Switches that change the combatants' own numbers (the Ki pool): the comparison rebuilds the
#: encounter's characters under the switch and fights them.
SHEET_SWITCHES = ("ki_pool_from_sub_stats",)

SIMULATED = SIMULATOR_SWITCHES + SHEET_SWITCHES

#: The fight each simulated switch is best seen in (the page's starting sides) and the policies
#: ``win_comparison`` plays it with, with a sentence saying why.
#: Picked among the example roster's fights for being close (a change can show); none of them
#: has a Moira attack worth choosing, so "never_moira" changes nothing there (note 0014).
SUGGESTED_FIGHTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "vitals_002": (
        ("The Nerdy Hacker", "Ronan", "The Brick"),
        ("Captain Oriel Vance", "Nightmare"),
    ),
    "never_moira": (
        ("The Nerdy Hacker", "Ronan", "The Brick"),
        ("Captain Oriel Vance", "Nightmare"),
    ),
    "slow_called_shot_advantage": (("The Brick",), ("Nightmare",)),
    "ki_pool_from_sub_stats": (("Ronan",), ("Grizzly bear",)),
    "boosts_before_roll": (("Ronan",), ("Grizzly bear",)),
}

#: Policies a switch needs to come up in a fight at all, and what they mean.
SWITCH_POLICIES: dict[str, tuple[dict, str]] = {
    "slow_called_shot_advantage": (
        {"bracket_policy": "called_shot"},
        "Everyone declares Slow and makes a Called Shot every round: the switch touches only "
        "Called Shots.",
    ),
    "vitals_002": (
        {},
        "Each fighter uses the attack that takes the most levels; Social attacks (Poise) are "
        "where this switch shows.",
    ),
    "never_moira": (
        {},
        "Each fighter uses the attack that takes the most levels; under the switch an attack "
        "carried by Moira is not allowed, so the next best is used.",
    ),
    "boosts_before_roll": (
        {},
        "Under the switch each fighter puts as many Ki boosts as its Ki allows (up to its "
        "damage dice) on every damage roll before the dice are rolled, whenever a boost can "
        "lift a die over the wall; every one is spent on a hit. Under the default it boosts "
        "after the roll, only the dice a boost lifts. Ki spent on boosts is Ki no longer there "
        "to prevent damage.",
    ),
    "ki_pool_from_sub_stats": (
        {},
        "Each character starts with the Ki pool the switch gives (twice the average of five "
        "sub-stats) instead of the sheet's; creatures keep their card's Ki.",
    ),
}

#: Why the others have no P(win) comparison, in plain words.
NOT_SIMULATED = {
    ROLL_OVER: "The fight simulator plays 20 Below's dice only; the roll-over draft has no "
    "Vitals, Ki or brackets to fight with, so no P(win) is given for it.",
    "gift_check_ki_plus_stamina": "The fight simulator does not roll Gift Checks (Gifts are "
    "used for free), so this switch cannot change its P(win).",
    "short_rest_half_klotho": "There is no rest inside a fight: the simulator cannot show this.",
    "fate_spends_stamina_only": "The fight simulator does not spend Fate Tokens.",
    "death_at_negative_health": "Who wins cannot change: a fighter at 0 Health or below is "
    "already out of the fight, wherever death comes. The encounter planner's chance of a "
    "death follows the switch (an encounter whose rules have it on).",
    "advantage_from_expert": "The fight simulator's attacks roll Element + Defense with no "
    "training tier, so this switch cannot change its P(win).",
    "below_zero_heals_per_rest": "There is no rest inside a fight: the simulator cannot show this.",
    "flustered_shaken_off": "The fight simulator does not spend actions shaking off Flustered.",
    "criticals_outrank": "The fight simulator rolls no opposed rolls.",
    "deception_water": "The fight simulator's attacks come with their Element already chosen; "
    "Deception's home Element is not played.",
}

#: Fixed inputs of the battery (a representative character; the lab's pages vary them).
_ELEMENTS = (2, 3, 4, 3, 7)  # Earth, Air, Fire, Water, Moira: Moira the strongest
_SUB_STATS = {"Soak": 4, "Initiative": 3, "Ferocity": 5, "Stamina": 3, "Atropos": 4}


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


# --- the battery: every number a switch could touch -------------------------------------------


def _best_to_hit(kind: str, elements, defense: int, never_moira: bool, advantage: int = 0):
    names = attack_elements(kind, never_moira)
    best = max(elements[ELEMENTS.index(n)] for n in names)
    return to_hit_odds(best, defense, advantage).p_hit


def _modifier_sign(**kwargs) -> int:
    total = roll_modifiers("attack", attack_kind="physical", **kwargs).advantage
    return int(np.sign(total))


def _draft_check(draft: bool) -> np.ndarray:
    """P(success) of a check at each Element (rows) and Difficulty (columns) under a system.

    20 Below: 2d10 at or under Element + Difficulty. The draft: 2d10 + Element at or over the
    DC ``22 - Difficulty`` (the same step, mirrored: symmetric 2d10 makes the two agree when
    criticals are left aside; see ``draft_defense``).
    """
    elements, difficulties = np.arange(11), np.arange(11)
    if not draft:
        return np.array([[check_odds(e, d).p_success for d in difficulties] for e in elements])
    counts, denominator = dice_total_counts(0)
    at_least = np.concatenate([np.cumsum(counts[::-1])[::-1], [0]]) / denominator
    need = np.clip(22 - difficulties[None, :] - elements[:, None] - 2, 0, 19)
    return at_least[need]


def _attack(element: int, defense: int, dice: int, wall: int, draft: bool) -> tuple[float, float]:
    """P(hit) and expected damage of one attack, under 20 Below or the draft.

    20 Below: Element + Defense to hit, ``dice`` d10 against the wall (a critical: half the
    dice through). The draft: 2d10 + Element over ``draft_defense(defense)``, damage the margin
    capped by the weapon rating ``dice`` (rules/003 "Hurting People").
    """
    if draft:
        result = roll_over_attack(element, draft_defense(defense), dice)
        return result.p_hit, result.expected_damage
    hit = to_hit_odds(element, defense)
    plain = damage_distribution(dice, wall) @ np.arange(dice + 1)
    crit = damage_distribution(dice, wall, critical=True) @ np.arange(dice + 1)
    return hit.p_hit, hit.p_ordinary * plain + hit.p_critical * crit


def quantities(switches: Mapping[str, bool] | None = None) -> dict[str, np.ndarray]:
    """Every quantity of ``QUANTITY_NAMES`` under these switches, as float arrays.

    Each goes through the engine argument the ``Ruleset`` translates the switch into, with
    fixed representative inputs; ``TOUCHES`` names the ones each switch's rule touches.

    Parameters
    ----------
    switches : mapping of str to bool, optional
        Names from ``LAB_SWITCHES``; the rest are off.
    """
    rs = ruleset_for(switches)
    v002 = rs.vitals_002
    out: dict[str, np.ndarray] = {}
    out["check"] = np.array(
        [[check_odds(5, d, tier, **rs.tier_args).p_success for d in range(11)] for tier in range(5)]
    )
    out["gift_check"] = np.array(
        [
            gift_check_odds(ki, 3, ki_plus_stamina=rs.gift_check_ki_plus_stamina).p_success
            for ki in range(21)
        ]
    )
    out["social_to_hit"] = np.array(
        [_best_to_hit("social", _ELEMENTS, d, rs.never_moira) for d in range(11)]
    )
    out["physical_to_hit"] = np.array(
        [_best_to_hit("physical", _ELEMENTS, d, rs.never_moira) for d in range(11)]
    )
    out["damage"] = np.array(
        [damage_distribution(5, w, 2, 3, rs.boost_timing) @ np.arange(6) for w in range(11)]
    )
    poise = np.arange(-8, 9)
    if v002:
        poise = np.arange(0, 9)
    steps = []
    for levels in range(4):
        step = vital_step(poise, np.full(poise.size, levels), 8, "poise", 2, "stay_up", v002)
        steps.append(np.concatenate([step.current, step.taken, step.prevented, step.sanity_loss]))
    out["poise_step"] = np.concatenate([np.full(1, poise.size), *steps]).astype(float)
    health = np.arange(-8, 9)
    out["health_step"] = np.array(
        [
            vital_step(health, np.full(health.size, k), 8, "health", 2, "stay_up", v002).current
            for k in range(4)
        ],
        dtype=float,
    )
    out["poise_ki_recovery"] = np.array(
        [ki_recovery("poise", c, 8, v002) for c in range(-7 if not v002 else 0, 1)], dtype=float
    ).ravel()
    out["sanity_ki_recovery"] = np.array(
        [ki_recovery("sanity", c, 8, v002) for c in range(-7, 1)], dtype=float
    ).ravel()
    out["ki_pool"] = np.array(
        [
            ki_pool(_ELEMENTS, dict.fromkeys(KI_SUB_STATS, s), rs.ki_pool_from_sub_stats)
            for s in range(11)
        ],
        dtype=float,
    )
    out["short_rest_ki"] = np.array(
        [short_rest_ki(k, rs.short_rest_half_klotho) for k in range(11)], dtype=float
    )
    out["fate_spends"] = np.array(
        [fate_spends_per_scene(s, rs.fate_spends_stamina_only) for s in range(11)], dtype=float
    )
    out["death"] = np.array(
        [death_threshold(vital_maximum(h), h, rs.death_at_negative_health) for h in range(11)],
        dtype=float,
    )
    out["called_shot"] = np.array(
        [_modifier_sign(called_shot=True, **rs.called_shot_args)], dtype=float
    )
    out["aim"] = np.array([_modifier_sign(aim=True, **rs.called_shot_args)], dtype=float)
    out["short_rest_health"] = np.array(
        [_rest_health(h, 3, 8, short=True, **rs.rest_args) for h in range(-7, 9)], dtype=float
    )
    out["full_night_health"] = np.array(
        [_rest_health(h, 3, 8, short=False, **rs.rest_args) for h in range(-7, 9)], dtype=float
    )
    out["shake_off"] = np.array(
        [_shake_off(5, d, rs.flustered_shaken_off) for d in range(11)], dtype=float
    )
    out["opposed"] = np.array(
        [[opposed_odds(a, r, **rs.opposed_args) for r in range(1, 21)] for a in range(1, 21)]
    )
    fire_water = {"Fire": 4, "Water": 6}
    for skill, key in (("Deception", "deception"), ("Persuasion", "persuasion")):
        element = fire_water[home_element(skill, **rs.skill_args)]
        out[key] = np.array([check_odds(element, d).p_success for d in range(11)])
    out["draft_check"] = _draft_check(rs.roll_over)
    out["draft_attack"] = np.array(
        [_attack(5, d, 5, 5, rs.roll_over) for d in range(11)], dtype=float
    ).ravel()
    return out


def _rest_health(
    health: int, stat: int, maximum: int, short: bool, below_zero_heals_per_rest: bool = False
) -> int:
    """Health after a rest, everything else full (rules/000 "Harm and Recovery")."""
    rest = short_rest if short else full_night
    return rest(
        health=health,
        health_max=maximum,
        poise=1,
        poise_max=8,
        sanity=1,
        sanity_max=8,
        health_stat=stat,
        presence=3,
        psyche=3,
        ki=0,
        ki_pool=10,
        klotho=3,
        below_zero_heals_per_rest=below_zero_heals_per_rest,
    ).health


def _shake_off(presence: int, difficulty: int, shaken_off: bool) -> float:
    """P(an action ends Flustered): 0 by default (it lasts the Scene), the roll's odds if on."""
    return shake_off_flustered_odds(presence, difficulty).p_success if shaken_off else 0.0


# --- curves and heatmaps ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Curve:
    """One quantity over one axis, under the default reading and under the switch.

    Attributes
    ----------
    title, x_label, y_label : str
        In plain words.
    x : numpy.ndarray
        The axis (whole numbers).
    default, switched : numpy.ndarray
        The quantity at each ``x``.
    kind : str
        "success", "damage" or "other" (what the curve measures).
    """

    title: str
    x_label: str
    y_label: str
    x: np.ndarray
    default: np.ndarray
    switched: np.ndarray
    kind: str = "other"

    @property
    def difference(self) -> np.ndarray:
        """Switched minus default at each ``x``."""
        return self.switched - self.default

    def biggest_change(self) -> int | None:
        """The index of the largest change in size (the first of equals); None if none."""
        size = np.abs(np.nan_to_num(self.difference))
        if not np.any(size > 1e-12):
            return None
        return int(np.argmax(size))

    def rows(self) -> list[dict[str, float]]:
        """One row per ``x``: the axis, the default, the switch and the difference."""
        return [
            {
                self.x_label: int(x),
                "Default": float(d),
                "Switched": float(s),
                "Difference": float(s - d),
            }
            for x, d, s in zip(self.x, self.default, self.switched, strict=True)
        ]


@dataclass(frozen=True, eq=False)
class Heatmap:
    """One quantity over two axes; ``difference`` is switched minus default.

    ``default`` and ``switched`` have shape (len(y), len(x)); a cell the rule does not allow
    (a track value past a smaller track's end) is NaN in both.
    """

    title: str
    x_label: str
    y_label: str
    value_label: str
    x: np.ndarray
    y: np.ndarray
    default: np.ndarray
    switched: np.ndarray

    @property
    def difference(self) -> np.ndarray:
        """Switched minus default, cell by cell."""
        return self.switched - self.default

    def rows(self) -> list[dict[str, float]]:
        """One row per cell that exists: both axes, the default, the switch, the difference."""
        out = []
        for i, y in enumerate(self.y):
            for j, x in enumerate(self.x):
                d, s = self.default[i, j], self.switched[i, j]
                if np.isnan(d):
                    continue
                out.append(
                    {
                        self.x_label: int(x),
                        self.y_label: int(y),
                        "Default": float(d),
                        "Switched": float(s),
                        "Difference": float(s - d),
                    }
                )
        return out


@dataclass(frozen=True, eq=False)
class SwitchReport:
    """What one switch changes (``switch_report``).

    Attributes
    ----------
    switch : str
        Its name in ``LAB_SWITCHES``.
    title, sentence, source : str
        Its short name, its rule in a sentence and where it comes from.
    touches : tuple of str
        The quantities (plain words, ``QUANTITY_NAMES``) its rule changes.
    curves : tuple of Curve
        The default and the switch over one axis (success first, then damage, then others).
    heatmap : Heatmap or None
        Switched minus default over two axes; None for a rule with one input.
    unchanged : str
        What the switch leaves alone, in a sentence.
    simulated : bool
        Whether ``win_comparison`` can play it; ``simulator_note`` says why not.
    """

    switch: str
    title: str
    sentence: str
    source: str
    touches: tuple[str, ...]
    curves: tuple[Curve, ...]
    heatmap: Heatmap | None
    unchanged: str
    simulated: bool
    simulator_note: str

    @property
    def default_label(self) -> str:
        """What the default line is called on a chart."""
        return "20 Below" if self.switch == ROLL_OVER else "Default"

    @property
    def switched_label(self) -> str:
        """What the switched line is called on a chart."""
        return "Roll-over draft" if self.switch == ROLL_OVER else "Switch on"


def _grid(fn: Callable[[int, int], float], xs, ys) -> np.ndarray:
    return np.array([[fn(int(x), int(y)) for x in xs] for y in ys], dtype=float)


def _pair(fn: Callable[[bool], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(fn(False), dtype=float), np.asarray(fn(True), dtype=float)


def _curve(title, x_label, y_label, x, fn, kind="other") -> Curve:
    default, switched = _pair(fn)
    return Curve(title, x_label, y_label, np.asarray(x), default, switched, kind)


def _heatmap(title, x_label, y_label, value_label, xs, ys, fn) -> Heatmap:
    default = _grid(lambda x, y: fn(x, y, False), xs, ys)
    switched = _grid(lambda x, y: fn(x, y, True), xs, ys)
    return Heatmap(
        title, x_label, y_label, value_label, np.asarray(xs), np.asarray(ys), default, switched
    )


def _expected_per_attack(element: int, defense: int, dice: int, wall: int, advantage: int) -> float:
    """Expected levels of one 20 Below attack: P(ordinary hit) x plain + P(critical) x critical."""
    hit = to_hit_odds(element, defense, advantage)
    levels = np.arange(dice + 1)
    plain = damage_distribution(dice, wall) @ levels
    crit = damage_distribution(dice, wall, critical=True) @ levels
    return hit.p_ordinary * plain + hit.p_critical * crit


def switch_report(switch: str, element: int = 5, stat: int = 3, dice: int = 5) -> SwitchReport:
    """Exactly what ``switch`` changes: curves, a difference heatmap and what stays.

    Parameters
    ----------
    switch : str
        A name from ``LAB_SWITCHES`` (a Ruleset switch, or ``ROLL_OVER`` for the draft).
    element : int
        The Element rolled (0..10); for "never_moira" the Moira score.
    stat : int
        The sub-stat the rule reads (Stamina, Klotho, Presence, the Health sub-stat, a Ki
        boost's bonus, the other Element...), 0..10.
    dice : int
        Damage dice (the weapon rating under the draft), 1..12.

    Returns
    -------
    SwitchReport
    """
    switch = _check_switch(switch)
    element = require_int("element", element, 0, 10)
    stat = require_int("stat", stat, 0, 10)
    dice = require_int("dice", dice, 1, 12)
    builder = _BUILDERS[switch]
    curves, heatmap, unchanged = builder(element, stat, dice)
    return SwitchReport(
        switch=switch,
        title=SWITCH_TITLES[switch],
        sentence=LAB_SENTENCES[switch],
        source=source_text(switch),
        touches=tuple(QUANTITY_NAMES[q] for q in sorted(TOUCHES[switch])),
        curves=tuple(curves),
        heatmap=heatmap,
        unchanged=unchanged,
        simulated=switch in SIMULATED,
        simulator_note="" if switch in SIMULATED else NOT_SIMULATED[switch],
    )


TN_AXIS = np.arange(1, 21)
D11 = np.arange(11)


def _gift(element, stat, dice):
    kis = np.arange(0, 21)
    curve = _curve(
        f"Gift Check (Stamina {stat})",
        "Current Ki",
        "Chance of success",
        kis,
        lambda on: [gift_check_odds(k, stat, ki_plus_stamina=on).p_success for k in kis],
        "success",
    )
    heat = _heatmap(
        "Gift Check: switch minus default",
        "Current Ki",
        "Stamina",
        "Chance of success",
        kis,
        D11,
        lambda k, s, on: gift_check_odds(k, s, ki_plus_stamina=on).p_success,
    )
    return [curve], heat, "Every other roll: only the Gift Check's TN moves."


def _moira(element, stat, dice):
    elements = (stat, stat, stat, stat, element)
    hit = _curve(
        f"Social attack to hit (Moira {element}, other Elements {stat})",
        "Target's Social Defense",
        "Chance to hit",
        D11,
        lambda on: [_best_to_hit("social", elements, d, on) for d in D11],
        "success",
    )

    def levels(on):
        names = attack_elements("social", on)
        best = max(elements[ELEMENTS.index(n)] for n in names)
        return [_expected_per_attack(best, d, dice, 5, 0) for d in D11]

    dmg = _curve(
        f"Expected Poise per Social attack ({dice} dice, Presence 5)",
        "Target's Social Defense",
        "Expected levels",
        D11,
        levels,
        "damage",
    )
    heat = _heatmap(
        "Social attack to hit, Defense 5: switch minus default",
        "Moira",
        "Best other Element",
        "Chance to hit",
        D11,
        D11,
        lambda m, o, on: _best_to_hit("social", (o, o, o, o, m), 5, on),
    )
    return [hit, dmg], heat, "Physical attacks (never Moira anyway) and every check."


def _boosts(element, stat, dice):
    boosts = min(2, dice)
    curve = _curve(
        f"Expected levels, {dice} dice, {boosts} Ki boosts of +{stat}",
        "Wall (Soak, Presence or Psyche)",
        "Expected levels",
        D11,
        lambda on: [
            damage_distribution(dice, w, boosts, stat, "before" if on else "after")
            @ np.arange(dice + 1)
            for w in D11
        ],
        "damage",
    )
    heat = _heatmap(
        f"Expected levels with {boosts} boosts of +{stat}: switch minus default",
        "Wall",
        "Damage dice",
        "Expected levels",
        D11,
        np.arange(1, 13),
        lambda w, n, on: (
            damage_distribution(n, w, min(2, n), stat, "before" if on else "after")
            @ np.arange(n + 1)
        ),
    )
    return [curve], heat, "The to-hit roll, and any damage roll with no Ki boost."


def _vitals(element, stat, dice):
    maximum = 8
    ki = stat
    currents = np.arange(-maximum, maximum + 1)

    def after(on, levels):
        cur = currents if not on else np.clip(currents, 0, None)
        step = vital_step(cur, np.full(cur.size, levels), maximum, "poise", ki, "stay_up", on)
        return np.where(currents < 0, np.nan, step.current) if on else step.current

    curve = _curve(
        f"Poise after a 2-level hit (Poise track 8, Ki {ki} to stay up)",
        "Poise before the hit",
        "Poise after",
        currents,
        lambda on: after(on, 2),
    )
    sanity = _curve(
        "Sanity levels lost to a 1-level hit",
        "Poise before the hit",
        "Sanity lost",
        currents,
        lambda on: np.where(
            (currents < 0) & on,
            np.nan,
            vital_step(
                np.clip(currents, 0, None) if on else currents,
                np.ones(currents.size, dtype=int),
                maximum,
                "poise",
                0,
                "none",
                on,
            ).sanity_loss,
        ),
    )
    heat = _heatmap(
        f"Poise after one hit (Ki {ki} to stay up): switch minus default",
        "Poise before the hit",
        "Levels the hit connects",
        "Poise after",
        currents,
        np.arange(0, 7),
        lambda c, k, on: (
            np.nan
            if (on and c < 0)
            else float(vital_step([c], [k], maximum, "poise", ki, "stay_up", on).current[0])
        ),
    )
    return (
        [curve, sanity],
        heat,
        "Health and Sanity tracks and every roll; under the switch Poise never goes below 0, "
        "so those cells are blank.",
    )


def _ki_pool(element, stat, dice):
    def pool(e, s, on):
        return ki_pool((e, 0, 0, 0, 0), dict.fromkeys(KI_SUB_STATS, s), on)

    curve = _curve(
        f"Ki pool (strongest Element {element})",
        "Each of the five sub-stats",
        "Ki pool",
        D11,
        lambda on: [pool(element, s, on) for s in D11],
    )
    heat = _heatmap(
        "Ki pool: switch minus default",
        "Each of the five sub-stats",
        "Strongest Element",
        "Ki",
        D11,
        D11,
        pool,
    )
    return [curve], heat, "Everything that spends Ki; only the pool's size."


def _half_klotho(element, stat, dice):
    curve = _curve(
        "Ki back from a Short Rest",
        "Klotho",
        "Ki",
        D11,
        lambda on: [short_rest_ki(k, on) for k in D11],
    )
    heat = _heatmap(
        "Ki back from a Short Rest, Ki spent before it: switch minus default",
        "Klotho",
        "Ki spent before the rest",
        "Ki",
        D11,
        D11,
        lambda k, spent, on: min(spent, short_rest_ki(k, on)),
    )
    return [curve], heat, "Health, Poise and Sanity on any rest; Ki on a Full Night."


def _fate(element, stat, dice):
    curve = _curve(
        "Counted Fate spends per Scene",
        "Stamina",
        "Spends",
        D11,
        lambda on: [fate_spends_per_scene(s, on) for s in D11],
    )
    return [curve], None, "The Token cap (Stamina x 3 + 1) and every roll."


def _death(element, stat, dice):
    curve = _curve(
        "Health level where a character dies",
        "Health sub-stat",
        "Dead at Health",
        D11,
        lambda on: [death_threshold(vital_maximum(h), h, on) for h in D11],
    )
    room = _curve(
        "Levels below 0 before death",
        "Health sub-stat",
        "Levels",
        D11,
        lambda on: [-death_threshold(vital_maximum(h), h, on) for h in D11],
    )
    return [curve, room], None, "Unconscious at 0 and Dying below it; every roll."


def _called_shot(element, stat, dice):
    def sign(on):
        return _modifier_sign(called_shot=True, slow_called_shot_advantage=on)

    hit = _curve(
        "A Called Shot's chance to hit",
        "Target Number (Element + Defense)",
        "Chance to hit",
        TN_AXIS,
        lambda on: success_curve(TN_AXIS, sign(on)),
        "success",
    )
    dmg = _curve(
        f"Expected levels per Called Shot (Element {element}, {dice} dice, wall 5)",
        "Target's Defense",
        "Expected levels",
        D11,
        lambda on: [_expected_per_attack(element, d, dice, 5, sign(on)) for d in D11],
        "damage",
    )
    heat = _heatmap(
        "A Called Shot's chance to hit: switch minus default",
        "Target's Defense",
        "Element",
        "Chance to hit",
        D11,
        D11,
        lambda d, e, on: roll_odds(e + d, sign(on)).p_success,
    )
    return [hit, dmg], heat, "Aim (Advantage either way), Normal and Fast attacks, every check."


def _expert(element, stat, dice):
    curve = _curve(
        f"An Adept's check (Element {element})",
        "Difficulty",
        "Chance of success",
        D11,
        lambda on: [check_odds(element, d, 2, advantage_from_expert=on).p_success for d in D11],
        "success",
    )
    heat = _heatmap(
        f"Check odds by training tier (Element {element}): switch minus default",
        "Difficulty",
        "Training tier (0 Untrained .. 4 Master)",
        "Chance of success",
        D11,
        np.arange(5),
        lambda d, t, on: check_odds(element, d, t, advantage_from_expert=on).p_success,
    )
    return [curve], heat, "Untrained, Trained, Expert and Master rolls: only the Adept's."


def _below_zero(element, stat, dice):
    maximum = vital_maximum(stat)
    healths = np.arange(-maximum + 1, maximum + 1)
    curve = _curve(
        f"Health after a Short Rest (Health sub-stat {stat}, track {maximum})",
        "Health before the rest",
        "Health after",
        healths,
        lambda on: [_rest_health(h, stat, maximum, True, on) for h in healths],
    )
    night = _curve(
        "Health after a Full Night's Rest",
        "Health before the rest",
        "Health after",
        healths,
        lambda on: [_rest_health(h, stat, maximum, False, on) for h in healths],
    )
    xs = np.arange(-14, 16)

    def cell(h, s, on):
        m = vital_maximum(s)
        if h <= -m or h > m:
            return np.nan
        return _rest_health(h, s, m, True, on)

    heat = _heatmap(
        "Health after a Short Rest: switch minus default",
        "Health before the rest",
        "Health sub-stat",
        "Health after",
        xs,
        D11,
        cell,
    )
    return [curve, night], heat, "A Full Night's Rest, and any rest at or above 0 Health."


def _flustered(element, stat, dice):
    curve = _curve(
        f"Chance an action ends Flustered (Presence {stat})",
        "Difficulty",
        "Chance",
        D11,
        lambda on: [_shake_off(stat, d, on) for d in D11],
        "success",
    )
    heat = _heatmap(
        "Chance an action ends Flustered: switch minus default",
        "Difficulty",
        "Presence",
        "Chance",
        D11,
        D11,
        lambda d, p, on: _shake_off(p, d, on),
    )
    return [curve], heat, "Flustered's Disadvantage while it lasts, and every other roll."


def _criticals(element, stat, dice):
    resist = min(20, max(1, element + 5))
    curve = _curve(
        f"Opposed roll: chance the actor wins (resister's TN {resist})",
        "Actor's Target Number",
        "Chance the actor wins",
        TN_AXIS,
        lambda on: [opposed_odds(a, resist, criticals_outrank=on) for a in TN_AXIS],
        "success",
    )
    heat = _heatmap(
        "Opposed roll, chance the actor wins: switch minus default",
        "Actor's Target Number",
        "Resister's Target Number",
        "Chance",
        TN_AXIS,
        TN_AXIS,
        lambda a, r, on: opposed_odds(a, r, criticals_outrank=on),
    )
    return [curve], heat, "Every roll that is not opposed, and opposed rolls without criticals."


def _deception(element, stat, dice):
    def odds(fire, water, d, on):
        elem = {"Fire": fire, "Water": water}[home_element("Deception", on)]
        return check_odds(elem, d).p_success

    curve = _curve(
        f"Deception check (Fire {element}, Water {stat})",
        "Difficulty",
        "Chance of success",
        D11,
        lambda on: [odds(element, stat, d, on) for d in D11],
        "success",
    )
    heat = _heatmap(
        "Deception at Difficulty 5: switch minus default",
        "Fire",
        "Water",
        "Chance of success",
        D11,
        D11,
        lambda f, w, on: odds(f, w, 5, on),
    )
    return [curve], heat, "Every other Skill (Persuasion, Intimidation... stay on Fire)."


def _roll_over(element, stat, dice):
    def hit(d, on, adv=0):
        if on:
            return roll_over_attack(element, draft_defense(d), dice, adv).p_hit
        return to_hit_odds(element, d, adv).p_hit

    hits = _curve(
        f"Attack to hit (Element or Skill {element})",
        "Target's Defense (draft: 11 + Defense)",
        "Chance to hit",
        D11,
        lambda on: [hit(d, on) for d in D11],
        "success",
    )

    def damage(on):
        if on:
            return [roll_over_attack(element, draft_defense(d), dice).expected_damage for d in D11]
        return [_expected_per_attack(element, d, dice, stat, 0) for d in D11]

    dmg = _curve(
        f"Expected damage per attack (20 Below: {dice} {'die' if dice == 1 else 'dice'}, wall "
        f"{stat}; draft: rating {dice}, in points)",
        "Target's Defense (draft: 11 + Defense)",
        "Expected damage",
        D11,
        damage,
        "damage",
    )
    heat = _heatmap(
        f"Chance to hit (Element {element}, 20 Below counts only the sign): draft minus 20 Below",
        "Target's Defense (draft: 11 + Defense)",
        "Advantages (+) or Disadvantages (-)",
        "Chance to hit",
        D11,
        np.arange(-3, 4),
        lambda d, a, on: hit(d, on, a),
    )
    return (
        [hits, dmg],
        heat,
        "Under the draft there are no Vitals, Ki or brackets: only checks and attacks compare.",
    )


_BUILDERS = {
    "gift_check_ki_plus_stamina": _gift,
    "never_moira": _moira,
    "boosts_before_roll": _boosts,
    "vitals_002": _vitals,
    "ki_pool_from_sub_stats": _ki_pool,
    "short_rest_half_klotho": _half_klotho,
    "fate_spends_stamina_only": _fate,
    "death_at_negative_health": _death,
    "slow_called_shot_advantage": _called_shot,
    "advantage_from_expert": _expert,
    "below_zero_heals_per_rest": _below_zero,
    "flustered_shaken_off": _flustered,
    "criticals_outrank": _criticals,
    "deception_water": _deception,
    ROLL_OVER: _roll_over,
}


# --- Advantage as a flat TN modifier ----------------------------------------------------------


@dataclass(frozen=True, eq=False)
class AdvantageFit:
    """Which flat modifier an Advantage level is worth at each TN (``advantage_as_tn``).

    Attributes
    ----------
    system : str
        "20 Below" (a TN shift: roll at or under TN + shift) or "roll-over draft" (a bonus
        added to 2d10 against the DC).
    targets : numpy.ndarray
        The TNs (20 Below) or DCs (the draft), shape (n,).
    levels : numpy.ndarray
        The Advantage levels (negative: Disadvantage), shape (m,).
    p_plain : numpy.ndarray
        P(success) of the plain roll at each target, (n,).
    p : numpy.ndarray
        P(success) with each level at each target, (m, n).
    integer_shift, integer_error : numpy.ndarray
        (m, n): the whole-number shift whose plain odds come nearest, and plain odds at the
        shift minus the odds with the level (ties: the smaller shift in size).
    real_shift, real_error : numpy.ndarray
        (m, n): the real shift that fits best by least squares on the plain curve drawn as
        straight lines between whole TNs; the error is that curve at the shift minus the odds
        (0 where the plain curve reaches them, else the gap at its nearest end, 1% or 99%).
    overall_shift, overall_rms : numpy.ndarray
        (m,): one real shift for all targets at once (least squares over the same straight
        line curve) and the root mean square of its errors.
    """

    system: str
    targets: np.ndarray
    levels: np.ndarray
    p_plain: np.ndarray
    p: np.ndarray
    integer_shift: np.ndarray
    integer_error: np.ndarray
    real_shift: np.ndarray
    real_error: np.ndarray
    overall_shift: np.ndarray
    overall_rms: np.ndarray
    shift_word: str = field(default="TN")

    def rows(self) -> list[dict[str, float]]:
        """One row per (level, target): the odds, both shifts and their errors."""
        head = "TN" if self.system == "20 Below" else "DC"
        out = []
        for i, level in enumerate(self.levels):
            for j, t in enumerate(self.targets):
                out.append(
                    {
                        "Advantage": int(level),
                        head: int(t),
                        "Plain": float(self.p_plain[j]),
                        "With it": float(self.p[i, j]),
                        "Whole shift": int(self.integer_shift[i, j]),
                        "Whole shift error": float(self.integer_error[i, j]),
                        "Best shift": float(self.real_shift[i, j]),
                        "Best shift error": float(self.real_error[i, j]),
                    }
                )
        return out


#: Shifts searched (a plain 2d10 moves from 1% to 99% over 19 TNs).
MAX_SHIFT = 40


def _plain_line(u: np.ndarray, plain_at: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The plain curve as straight lines between whole numbers, at real ``u``."""
    low = np.floor(u)
    frac = u - low
    a = plain_at(low.astype(int))
    b = plain_at(low.astype(int) + 1)
    return a + frac * (b - a)


def _fit(
    targets: np.ndarray, p: np.ndarray, plain_at: Callable[[np.ndarray], np.ndarray]
) -> tuple[np.ndarray, ...]:
    """Integer and real shifts for one level (see ``AdvantageFit``), in increasing-``u`` terms."""
    shifts = np.arange(-MAX_SHIFT, MAX_SHIFT + 1)
    # integer: plain(t + s) nearest p(t), ties to the smaller |s|
    grid = plain_at(targets[None, :] + shifts[:, None])  # (shifts, n)
    gap = np.abs(grid - p[None, :])
    order = np.argsort(np.abs(shifts), kind="stable")
    best = order[np.argmin(gap[order], axis=0)]
    integer_shift = shifts[best]
    integer_error = grid[best, np.arange(targets.size)] - p
    # real, per target: invert the straight-line curve (monotone); clamp where it cannot reach
    real_shift = np.empty(targets.size)
    real_error = np.empty(targets.size)
    for j in range(targets.size):
        values = grid[:, j]
        low, high = values[0], values[-1]
        if low < p[j] < high:
            k = int(np.flatnonzero(values <= p[j])[-1])  # values[k] <= p < values[k + 1]
            frac = (p[j] - values[k]) / (values[k + 1] - values[k])
            real_shift[j], real_error[j] = shifts[k] + frac, 0.0
        else:  # out of the plain curve's reach (or at its end): its nearest end, smallest shift
            end = low if p[j] <= low else high
            flat = shifts[values == end]
            real_shift[j], real_error[j] = flat[np.argmin(np.abs(flat))], end - p[j]
    # one shift for all: piecewise quadratic in s between whole numbers, minimised exactly
    best_s, best_sse = 0.0, math.inf
    for k in shifts[:-1]:
        a = plain_at(targets + k) - p
        b = plain_at(targets + k + 1) - plain_at(targets + k)
        # sum (a + f b)^2, f in [0, 1]
        bb = float(b @ b)
        f = 0.0 if bb == 0 else min(1.0, max(0.0, -float(a @ b) / bb))
        sse = float(((a + f * b) ** 2).sum())
        if sse < best_sse - 1e-15 or (abs(sse - best_sse) <= 1e-15 and abs(k + f) < abs(best_s)):
            best_s, best_sse = float(k + f), sse
    rms = math.sqrt(best_sse / targets.size)
    return integer_shift, integer_error, real_shift, real_error, best_s, rms


def advantage_as_tn(
    system: str = "20 Below",
    targets: np.ndarray | None = None,
    levels: tuple[int, ...] | None = None,
) -> AdvantageFit:
    """Which flat modifier each Advantage level is worth, at each TN (or DC).

    20 Below (RULES.md, Core Roll): Advantage keeps the lowest two of 3d10, Disadvantage the
    highest two, and only the sign counts, so the levels are -1 and +1. The shift ``s`` is a
    TN change: the plain roll at TN ``t + s`` against the level's roll at TN ``t``.

    The draft (rules/003): each Advantage is one more re-roll of the lowest die (they stack).
    The shift is a bonus added to 2d10: the plain roll at DC ``dc - s`` against the level's
    roll at DC ``dc``.

    Parameters
    ----------
    system : {"20 Below", "roll-over draft"}
        The dice system.
    targets : array of int, optional
        TNs 1..20 (default all), or DCs 2..21 (default all).
    levels : tuple of int, optional
        Advantage levels, default (-1, 1) for 20 Below and (-3, -2, -1, 1, 2, 3) for the draft
        (-10..10).

    Returns
    -------
    AdvantageFit
    """
    system = require_choice("system", system, ("20 Below", "roll-over draft"))
    if system == "20 Below":
        targets = np.arange(1, 21) if targets is None else np.asarray(targets)
        levels = (-1, 1) if levels is None else levels
        targets = np.array([require_int("targets", int(t), 1, 20) for t in targets])
        levels = np.array([require_int("levels", int(v), -1, 1) for v in levels])

        def curve(level: int) -> Callable[[np.ndarray], np.ndarray]:
            return lambda u: success_curve(np.asarray(u).ravel(), level).reshape(np.shape(u))

        plain_at = curve(0)
        p = np.array([curve(int(v))(targets) for v in levels])
        u_targets = targets
    else:
        targets = np.arange(2, 22) if targets is None else np.asarray(targets)
        levels = (-3, -2, -1, 1, 2, 3) if levels is None else levels
        targets = np.array([require_int("targets", int(t), 2, 21) for t in targets])
        levels = np.array([require_int("levels", int(v), -10, 10) for v in levels])

        def at_least(level: int) -> Callable[[np.ndarray], np.ndarray]:
            counts, denominator = dice_total_counts(level)
            tail = np.concatenate([np.cumsum(counts[::-1])[::-1], [0]]) / denominator

            def p_of_u(u):  # u = -DC: success rises with u
                u = np.asarray(u)
                return tail[np.clip(-u - 2, 0, 19)]

            return p_of_u

        plain_at = at_least(0)
        u_targets = -targets
        p = np.array([at_least(int(v))(u_targets) for v in levels])
    fits = [_fit(u_targets, p[i], plain_at) for i in range(levels.size)]
    return AdvantageFit(
        system=system,
        targets=targets,
        levels=levels,
        p_plain=plain_at(u_targets),
        p=p,
        integer_shift=np.array([f[0] for f in fits]),
        integer_error=np.array([f[1] for f in fits]),
        real_shift=np.array([f[2] for f in fits]),
        real_error=np.array([f[3] for f in fits]),
        overall_shift=np.array([f[4] for f in fits]),
        overall_rms=np.array([f[5] for f in fits]),
        shift_word="TN" if system == "20 Below" else "bonus",
    )


# --- P(win) under each reading ----------------------------------------------------------------


class Cancelled(Exception):  # noqa: N818 (a state, not an error)
    """Raised inside ``win_comparison`` when its ``cancelled`` hook says so."""


@dataclass(frozen=True)
class WinComparison:
    """P(each side wins) of one encounter under the default and under a switch.

    Attributes
    ----------
    switch : str
    simulated : bool
        False when ``lab.simulate`` cannot play the switch; ``note`` says why and there are
        no numbers.
    note : str
    sides : tuple of str
    fights : int
        Fights played under each reading (the same seeds for both).
    default, switched : dict of str to float
        P(each side wins).
    default_interval, switched_interval : dict of str to (float, float)
        95% Wilson intervals.
    default_draw, switched_draw : float
        P(no side won by the round limit).
    """

    switch: str
    simulated: bool
    note: str
    sides: tuple[str, ...] = ()
    fights: int = 0
    default: dict = field(default_factory=dict)
    switched: dict = field(default_factory=dict)
    default_interval: dict = field(default_factory=dict)
    switched_interval: dict = field(default_factory=dict)
    default_draw: float = 0.0
    switched_draw: float = 0.0

    def rows(self) -> list[dict[str, object]]:
        """One row per side: P(win) under each reading with its interval, and the change."""
        return [
            {
                "Side": side,
                "Default": self.default[side],
                "Default low": self.default_interval[side][0],
                "Default high": self.default_interval[side][1],
                "Switched": self.switched[side],
                "Switched low": self.switched_interval[side][0],
                "Switched high": self.switched_interval[side][1],
                "Change": self.switched[side] - self.default[side],
            }
            for side in self.sides
        ]


def example_encounter(party=("Ronan", "The Brick"), foes=("Grizzly bear", "Guard dog")):
    """An Encounter from the example roster: ``party`` (characters) against ``foes``.

    Names not in the roster are refused with a ValueError listing the ones that are.
    """
    from tb_playground.example_roster import example_roster
    from tb_playground.models import Encounter
    from tb_playground.models.files import loads

    roster = example_roster()
    characters = {c.name: c for c in roster.characters}
    creatures = {c.name: c for c in roster.creatures}
    enc = Encounter()
    for who in party:
        if who not in characters:
            raise ValueError(f"party must name characters among {sorted(characters)}, got {who!r}")
        enc.add(loads(characters[who].text, kind="character", source=who), "Party")
    for who in foes:
        if who not in creatures:
            raise ValueError(f"foes must name creatures among {sorted(creatures)}, got {who!r}")
        enc.add(creatures[who], "Foes")  # read only: the simulator never changes it
    return enc


def _under_switch(encounter, switch: str):
    """A copy of ``encounter`` whose ruleset (shared by its characters) has ``switch`` on."""
    from tb_playground.models import Encounter
    from tb_playground.models.files import from_dict, to_dict

    if not isinstance(encounter, Encounter):
        raise TypeError(
            f"encounter: the {switch} switch changes the characters' own numbers, so it needs "
            f"an Encounter (their sheets), got {type(encounter).__name__}"
        )
    copy = from_dict(Encounter, to_dict(encounter))
    copy.ruleset.param.update(**{switch: True})
    return copy


def win_comparison(
    encounter,
    switch: str,
    fights: int = 2000,
    seed: int = 1,
    chunk: int = 500,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    **policies,
) -> WinComparison:
    """P(win) of ``encounter`` under the default reading and under ``switch`` (``lab.simulate``).

    The fights are played in chunks (``chunk`` each, default then switched), each chunk with
    a seed drawn from ``SeedSequence(seed)``, the same for both readings (common random
    numbers); ``progress(fraction)`` is called after each, and ``cancelled()`` is asked before
    each (True raises ``Cancelled``). The same arguments give the same result.

    Parameters
    ----------
    encounter : Encounter or list of dict
        As for ``simulate``; its own Ruleset switches are overridden by the comparison's.
    switch : str
        From ``LAB_SWITCHES``; one ``simulate`` cannot play gives ``simulated=False`` and a
        note, never a silent default.
    fights : int
        Per reading, 1..1,000,000.
    seed : int
        The random seed, 0 or more.
    chunk : int
        Fights per step, 1..100,000.
    progress : callable, optional
        Called with the fraction done (0..1) after each chunk.
    cancelled : callable, optional
        Asked before each chunk; True stops the run with ``Cancelled``.
    **policies
        Passed to ``simulate`` (``bracket_policy``, ``target_policy``...), over the ones the
        switch needs to come up at all (``SWITCH_POLICIES``; said in ``note``).
    """
    from .simulate import simulate, wilson_interval

    switch = _check_switch(switch)
    fights = require_int("fights", fights, 1, 1_000_000)
    seed = require_int("seed", seed, 0, None)
    chunk = require_int("chunk", chunk, 1, 100_000)
    if switch not in SIMULATED:
        return WinComparison(switch, False, NOT_SIMULATED[switch])
    needed, why = SWITCH_POLICIES[switch]
    policies = {**needed, **policies}
    readings = {False: encounter, True: encounter}
    if switch in SHEET_SWITCHES:
        readings[True] = _under_switch(encounter, switch)
    sizes = [chunk] * (fights // chunk) + ([fights % chunk] if fights % chunk else [])
    seeds = np.random.SeedSequence(seed).generate_state(len(sizes), dtype=np.uint32)
    wins = {False: None, True: None}
    draws = {False: 0, True: 0}
    sides: list[str] = []
    steps = 2 * len(sizes)
    done = 0
    for size, chunk_seed in zip(sizes, seeds, strict=True):
        for on in (False, True):
            if cancelled is not None and cancelled():
                raise Cancelled("the comparison was cancelled")
            result = simulate(
                readings[on],
                fights=size,
                seed=int(chunk_seed),
                ruleset={name: (on and name == switch) for name in SIMULATOR_SWITCHES},
                **policies,
            )
            sides = list(result.sides)
            counts = np.bincount(result.winner + 1, minlength=len(sides) + 1)
            wins[on] = counts[1:] if wins[on] is None else wins[on] + counts[1:]
            draws[on] += int(counts[0])
            done += 1
            if progress is not None:
                progress(done / steps)

    def probs(on):
        return {s: float(wins[on][i] / fights) for i, s in enumerate(sides)}

    def intervals(on):
        return {s: wilson_interval(int(wins[on][i]), fights) for i, s in enumerate(sides)}

    return WinComparison(
        switch=switch,
        simulated=True,
        note=why,
        sides=tuple(sides),
        fights=fights,
        default=probs(False),
        switched=probs(True),
        default_interval=intervals(False),
        switched_interval=intervals(True),
        default_draw=draws[False] / fights,
        switched_draw=draws[True] / fights,
    )


__all__ = [
    "LAB_SWITCHES",
    "QUANTITY_NAMES",
    "READING_SWITCHES",
    "ROLL_OVER",
    "SIMULATED",
    "SWITCH_TITLES",
    "TOUCHES",
    "VARIANT_SWITCHES",
    "AdvantageFit",
    "Cancelled",
    "Curve",
    "Heatmap",
    "SwitchReport",
    "WinComparison",
    "advantage_as_tn",
    "example_encounter",
    "quantities",
    "ruleset_for",
    "switch_report",
    "win_comparison",
]
