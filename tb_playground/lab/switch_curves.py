"""Curves and heatmaps of one switch, default against switched (issue 11, section 2).

``switch_report(switch, element, stat, dice)`` gives a ``SwitchReport``: curves of the default
and the switched reading over one axis (a success curve over the TN, the Difficulty or the
Defense; a damage curve over the wall or the Defense; or the quantity the rule touches), a
difference heatmap over two axes where the rule has two inputs, and what the switch leaves
alone. One builder per switch (``_BUILDERS``); every number from the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tb_playground.engine import (
    ELEMENTS,
    attack_elements,
    check_odds,
    damage_distribution,
    fate_spends_per_scene,
    gift_check_odds,
    ki_pool,
    opposed_odds,
    roll_odds,
    roll_over_attack,
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
from tb_playground.engine.roll_over import draft_defense
from tb_playground.engine.validation import require_int
from tb_playground.models.skills import home_element

from .lab_switches import (
    LAB_SENTENCES,
    QUANTITY_NAMES,
    ROLL_OVER,
    SWITCH_TITLES,
    TOUCHES,
    check_switch,
    source_text,
)
from .switch_battery import best_to_hit, modifier_sign, rest_health, shake_off_chance
from .switch_fights import NOT_SIMULATED, SIMULATED


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
    switch = check_switch(switch)
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
        lambda on: [best_to_hit("social", elements, d, on) for d in D11],
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
        lambda m, o, on: best_to_hit("social", (o, o, o, o, m), 5, on),
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
        return modifier_sign(called_shot=True, slow_called_shot_advantage=on)

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
        lambda on: [rest_health(h, stat, maximum, True, on) for h in healths],
    )
    night = _curve(
        "Health after a Full Night's Rest",
        "Health before the rest",
        "Health after",
        healths,
        lambda on: [rest_health(h, stat, maximum, False, on) for h in healths],
    )
    xs = np.arange(-14, 16)

    def cell(h, s, on):
        m = vital_maximum(s)
        if h <= -m or h > m:
            return np.nan
        return rest_health(h, s, m, True, on)

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
        lambda on: [shake_off_chance(stat, d, on) for d in D11],
        "success",
    )
    heat = _heatmap(
        "Chance an action ends Flustered: switch minus default",
        "Difficulty",
        "Presence",
        "Chance",
        D11,
        D11,
        lambda d, p, on: shake_off_chance(p, d, on),
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
