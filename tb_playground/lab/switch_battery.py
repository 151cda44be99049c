"""The rules lab's battery: every engine number a switch could touch (issue 11, section 2).

``quantities(switches)`` computes each of ``QUANTITY_NAMES`` through the switch's engine
argument (``Ruleset``'s translations: ``boost_timing``, ``tier_args``, ...); the tests check
that a switch changes exactly the quantities ``TOUCHES`` names. The small helpers here are the
curves' too (``switch_curves``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

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
    roll_over_attack,
    shake_off_flustered_odds,
    short_rest,
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
from tb_playground.models.skills import home_element

from .lab_switches import ruleset_for

#: Fixed inputs of the battery (a representative character; the lab's pages vary them).
_ELEMENTS = (2, 3, 4, 3, 7)  # Earth, Air, Fire, Water, Moira: Moira the strongest
_SUB_STATS = {"Soak": 4, "Initiative": 3, "Ferocity": 5, "Stamina": 3, "Atropos": 4}


def best_to_hit(kind: str, elements, defense: int, never_moira: bool, advantage: int = 0):
    """The best chance to hit with an attack of ``kind``, over the Elements it may use."""
    names = attack_elements(kind, never_moira)
    best = max(elements[ELEMENTS.index(n)] for n in names)
    return to_hit_odds(best, defense, advantage).p_hit


def modifier_sign(**kwargs) -> int:
    """Whether circumstances give an attack Advantage (1), Disadvantage (-1) or neither (0)."""
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
        [best_to_hit("social", _ELEMENTS, d, rs.never_moira) for d in range(11)]
    )
    out["physical_to_hit"] = np.array(
        [best_to_hit("physical", _ELEMENTS, d, rs.never_moira) for d in range(11)]
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
        [modifier_sign(called_shot=True, **rs.called_shot_args)], dtype=float
    )
    out["aim"] = np.array([modifier_sign(aim=True, **rs.called_shot_args)], dtype=float)
    out["short_rest_health"] = np.array(
        [rest_health(h, 3, 8, short=True, **rs.rest_args) for h in range(-7, 9)], dtype=float
    )
    out["full_night_health"] = np.array(
        [rest_health(h, 3, 8, short=False, **rs.rest_args) for h in range(-7, 9)], dtype=float
    )
    out["shake_off"] = np.array(
        [shake_off_chance(5, d, rs.flustered_shaken_off) for d in range(11)], dtype=float
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


def rest_health(
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


def shake_off_chance(presence: int, difficulty: int, shaken_off: bool) -> float:
    """P(an action ends Flustered): 0 by default (it lasts the Scene), the roll's odds if on."""
    return shake_off_flustered_odds(presence, difficulty).p_success if shaken_off else 0.0
