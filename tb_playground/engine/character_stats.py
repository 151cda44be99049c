"""What a character sheet derives from Elements and sub-stats (Ki, Vitals, Movement, Fate caps).

Rule: RULES.md, Vitals and Core Roll; each formula cites its rules/000, 002 or 004 section.
Readings where the texts are silent or differ: docs/notes/0002-characters.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .core_roll import success_table, tier_rules
from .defense import ELEMENTS, defense
from .validation import (
    require_bool,
    require_choice,
    require_int,
    require_int_array,
    require_length,
)
from .vitals import MAX_TRACK, VITALS, track_range, vital_state

#: Most Skills (rows) one odds table takes, most Difficulty or DC columns, most walkers in a
#: party: far above any sheet (21 Skills, 11 columns) and any table, small enough to be quick.
MAX_SKILLS = 1000
MAX_COLUMNS = 100
MAX_PARTY = 1000

#: The five Elements in sheet order (``defense.ELEMENTS``).
ELEMENT_NAMES = ELEMENTS

#: The ten sub-stats the texts name (RULES.md, "Not given by the texts": independent, 0..10).
SUB_STAT_NAMES = (
    "Soak",
    "Health",
    "Ferocity",
    "Potence",
    "Initiative",
    "Stamina",
    "Presence",
    "Psyche",
    "Klotho",
    "Atropos",
)

#: The sub-stats variant 002 averages for the Ki pool (rules/002 "How Does Ki Work?").
KI_SUB_STATS = ("Soak", "Initiative", "Ferocity", "Stamina", "Atropos")

#: What rules/000 adds to the strongest Element for the Ki pool.
KI_BASE = 8

#: Every Vital track starts at 5 plus its sub-stat (rules/002).
VITAL_BASE = 5

#: The sub-stat that sizes each Vital track (rules/002; rules/000's Short Rest rates).
VITAL_SUB_STATS = {"health": "Health", "poise": "Presence", "sanity": "Psyche"}

#: Ground for travel and the divisor it applies to a day's distance (rules/000 "Travel").
GROUNDS = {"clear": 1, "rough": 2, "wild": 3}

#: Highest Exhausted level (rules/004 "Conditions": stacks 1-5).
MAX_EXHAUSTED = 5

#: Conditions a player or GM puts on a character (rules/004 "Conditions", rules/001 "Getting
#: Low", "Grabbed", "Terrain and Footing": Squeezed in a tight space). Dying, Flustered,
#: Humiliated, Overwhelmed and Shattered follow from the Vitals (``vital_conditions``) and
#: Exhausted is a level 0..5, so neither is listed here.
SET_CONDITIONS = (
    "Off Balance",
    "Distracted",
    "Surprised",
    "Prone",
    "Belly Down",
    "Grabbed",
    "Squeezed",
)

#: The condition each Vital gives at 0 and below 0 (rules/004 "At Zero and Below").
VITAL_CONDITIONS = {
    "health": ("Unconscious", "Dying"),
    "poise": ("Flustered", "Humiliated"),
    "sanity": ("Overwhelmed", "Shattered"),
}


def _stat(name: str, value: object) -> int:
    return require_int(name, value, 0, 10)


def ki_pool(
    elements: Sequence[int],
    sub_stats: Mapping[str, int] | None = None,
    from_sub_stats: bool = False,
    bonus: int = 0,
) -> int:
    """The Ki pool (RULES.md, Vitals; rules/000 "Ki Pool", rules/004 "Ki").

    Parameters
    ----------
    elements : sequence of int
        Earth, Air, Fire, Water, Moira, each 0..10.
    sub_stats : mapping of str to int, optional
        Needs Soak, Initiative, Ferocity, Stamina and Atropos (0..10) when ``from_sub_stats``.
    from_sub_stats : bool
        Variant 002: 2 x the average of those five sub-stats instead of strongest Element + 8.
        The average of five whole numbers doubled is a multiple of 0.4, never a half, so it is
        rounded to the nearest whole number without ties.
    bonus : int
        Ki added by experience (rules/000: "it is possible to have a Ki over 20"), 0..100.

    Returns
    -------
    int
        Strongest Element + 8 (8..18) by default, plus ``bonus``.
    """
    n = len(ELEMENT_NAMES)
    elements = require_length("elements", elements, n, what=f"whole numbers {ELEMENT_NAMES}")
    if len(elements) != n:
        raise ValueError(f"elements must be {n} whole numbers {ELEMENT_NAMES}")
    values = [_stat(name, v) for name, v in zip(ELEMENT_NAMES, elements, strict=True)]
    bonus = require_int("bonus", bonus, 0, 100)
    if not require_bool("from_sub_stats", from_sub_stats):
        return max(values) + KI_BASE + bonus
    if not isinstance(sub_stats, Mapping):
        raise ValueError(f"sub_stats must give {KI_SUB_STATS} when from_sub_stats is True")
    total = sum(_stat(name, sub_stats.get(name)) for name in KI_SUB_STATS)
    return round(Fraction(2 * total, len(KI_SUB_STATS))) + bonus


def short_rest_ki(klotho: int, half_klotho: bool = False) -> int:
    """Ki back from a Short Rest (rules/000 "Recovering Ki"; variant rules/002).

    Parameters
    ----------
    klotho : int
        Klotho, 0..10.
    half_klotho : bool
        Variant 002: half Klotho, rounded up (the text gives no minimum).

    Returns
    -------
    int
        Klotho, minimum 1 (default); ceil(Klotho / 2) under the variant.
    """
    klotho = _stat("klotho", klotho)
    if require_bool("half_klotho", half_klotho):
        return -(-klotho // 2)
    return max(klotho, 1)


def vital_maximum(sub_stat: int) -> int:
    """Levels on a Vital track: 5 + its sub-stat (rules/002; RULES.md, Vitals).

    Health uses the Health sub-stat, Poise Presence, Sanity Psyche (``VITAL_SUB_STATS``).

    Parameters
    ----------
    sub_stat : int
        0..10.

    Returns
    -------
    int
        5..15.
    """
    return VITAL_BASE + _stat("sub_stat", sub_stat)


def vital_now(vital: str, maximum: int, lost: int, variant_002: bool = False) -> int:
    """Where a track stands after losing ``lost`` levels (RULES.md, Vitals).

    Parameters
    ----------
    vital : {"health", "poise", "sanity"}
        Which track.
    maximum : int
        The track's size, 1..100.
    lost : int
        Levels lost so far, 0 or more.
    variant_002 : bool
        Variant 002: Poise stops at 0.

    Returns
    -------
    int
        ``maximum - lost``, held inside ``vitals.track_range`` (a sheet whose maximum dropped
        below the damage already taken shows the bottom of the track).
    """
    low, high = track_range(vital, maximum, variant_002)
    lost = require_int("lost", lost, 0, None)
    return max(low, min(high, maximum - lost))


def vital_conditions(
    health: int, poise: int, sanity: int, dead: bool = False, flustered: bool = False
) -> list[str]:
    """The conditions the Vitals impose (rules/004 "Conditions"; "At Zero and Below").

    A track below 0 keeps its "at 0" condition too: one attack never carries a track past 0
    (rules/000 "Going down, and staying down"), so it went through 0, and Flustered lasts the
    Scene while Overwhelmed lasts until a rest or Ki (rules/000 "Harm and Recovery", rules/002).
    Health is the exception: Dying already is "Unconscious and out of the fight" (rules/004).

    Parameters
    ----------
    health, poise, sanity : int
        Each track's current value.
    dead : bool
        The character is dead: "Dead" stands in place of Health's Unconscious or Dying.
    flustered : bool
        Poise reached 0 earlier this Scene: Flustered stays "until the Scene ends" even when
        Poise climbs back (rules/000 "Harm and Recovery", Poise).

    Returns
    -------
    list of str
        Health's condition, then Poise's (Flustered before Humiliated), then Sanity's.
    """
    dead = require_bool("dead", dead)
    flustered = require_bool("flustered", flustered)
    out = []
    for vital, value in zip(VITALS, (health, poise, sanity), strict=True):
        value = require_int(vital, value, -MAX_TRACK, MAX_TRACK)
        at_zero, below = VITAL_CONDITIONS[vital]
        if vital == "health":
            if dead:
                out.append("Dead")
            elif value <= 0:
                out.append(at_zero if value == 0 else below)
            continue
        if value <= 0 or (vital == "poise" and flustered):
            out.append(at_zero)
        if value < 0:
            out.append(below)
    return out


def short_rest_recovery(sub_stat: int) -> int:
    """Levels a Short Rest gives back above 0: half the sub-stat, rounded up, minimum 1.

    rules/000 "Recovery, Above zero": Health heals half your Health, Poise half your Presence,
    Sanity half your Psyche, "both rounded up, minimum 1". Below 0 the rates stop.
    """
    return max(1, -(-_stat("sub_stat", sub_stat) // 2))


def death_threshold(maximum: int, health: int, at_negative_sub_stat: bool = False) -> int:
    """The Health value at which a character is dead (RULES.md, Vitals).

    Parameters
    ----------
    maximum : int
        The Health track's size, 1..100.
    health : int
        The Health sub-stat, 0..10.
    at_negative_sub_stat : bool
        Variant 002: dead "at or below your negative Health sub-stat".

    Returns
    -------
    int
        ``-maximum`` (rules/000: "Seven Health Levels means dead at -7"), or ``-health``.
    """
    maximum = require_int("maximum", maximum, 1, MAX_TRACK)
    health = _stat("health", health)
    if require_bool("at_negative_sub_stat", at_negative_sub_stat):
        # rules/002 also says "At 0, you're unconscious": with a Health sub-stat of 0 the
        # variant's threshold is -1, not 0.
        return -max(health, 1)
    return -maximum


def defenses(atropos: int, psyche: int, presence: int) -> dict[str, int]:
    """The three Defenses: Physical 10 - Atropos, Social 10 - Psyche, Mental 10 - Presence.

    rules/000 "Defense and How It's Calculated"; the same rule as ``defense.defense``, for all
    three kinds at once.
    """
    return {
        "physical": defense("physical", _stat("atropos", atropos)),
        "social": defense("social", _stat("psyche", psyche)),
        "mental": defense("mental", _stat("presence", presence)),
    }


@dataclass(frozen=True)
class Movement:
    """How far a character moves in a round, in metres (rules/000 "Moving in a Round"; 001).

    Attributes
    ----------
    rate : int
        Movement Rate: one move (Fast, or the move half of a Normal round).
    dash : int
        Both Normal actions on movement: 2 x rate.
    sprint : int
        A Slow round's Sprint: 5 x rate.
    crawl : int
        Distance covered Belly Down with one move: 2 m of movement per 1 m.
    long_jump : float
        A running long jump clears Air metres (rules/000 "Jumping").
    standing_jump : float
        Half the running jump.
    high_jump : float
        Half the running long jump ("half as high as you can jump forward").
    """

    rate: int
    dash: int
    sprint: int
    crawl: int
    long_jump: float
    standing_jump: float
    high_jump: float


def movement_rate(air: int, exhausted: int = 0, grabbed: bool = False) -> int:
    """Movement Rate = 5 + Air metres (rules/000, 001, 004).

    Parameters
    ----------
    air : int
        Air, 0..10.
    exhausted : int
        Exhausted level 0..5; from 3 up the rate is halved (rules/001, rules/004), rounded down
        to whole metres (hexes).
    grabbed : bool
        Grabbed sets the rate to 0 (rules/001).

    Returns
    -------
    int
    """
    return rate_after_conditions(5 + _stat("air", air), exhausted, grabbed)


def rate_after_conditions(rate: int, exhausted: int = 0, grabbed: bool = False) -> int:
    """A Movement Rate after Exhausted 3 (halved, rounded down) and Grabbed (0) (rules/001).

    Parameters
    ----------
    rate : int
        The rate before conditions (5 + Air, or a creature card's rate), 0..1000 metres.
    exhausted : int
        Exhausted level 0..5.
    grabbed : bool
        Grabbed sets the rate to 0.

    Returns
    -------
    int
    """
    rate = require_int("rate", rate, 0, 1000)
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    if require_bool("grabbed", grabbed):
        return 0
    return rate // 2 if exhausted >= 3 else rate


def movement(air: int, exhausted: int = 0, grabbed: bool = False) -> Movement:
    """Every distance a round can cover (see ``Movement`` and ``movement_rate``)."""
    rate = movement_rate(air, exhausted, grabbed)
    jump = float(air)
    return Movement(
        rate=rate,
        dash=2 * rate,
        sprint=5 * rate,
        crawl=rate // 2,
        long_jump=jump,
        standing_jump=jump / 2,
        high_jump=jump / 2,
    )


@dataclass(frozen=True)
class Travel:
    """A day on the road (rules/000 "Travel").

    Attributes
    ----------
    speed_kmh : float
        3 + Air / 5 kilometres an hour on a road or trail.
    day_hours : int
        4 + Stamina hours before a forced march.
    day_km : float
        Speed x hours, divided by the ground (rough 2, Wild Land 3).
    ground : str
        "clear", "rough" or "wild".
    """

    speed_kmh: float
    day_hours: int
    day_km: float
    ground: str


def travel_speed(air: int) -> Fraction:
    """Walking speed in km/h: 3 plus a fifth of Air (rules/000 "Travel"), exact."""
    return 3 + Fraction(_stat("air", air), 5)


def travel_day_hours(stamina: int) -> int:
    """Hours in a travel day: 4 + Stamina (rules/000 "Travel")."""
    return 4 + _stat("stamina", stamina)


def travel(air: int, stamina: int, ground: str = "clear") -> Travel:
    """A day's travel for one walker (rules/000 "Travel").

    Parameters
    ----------
    air, stamina : int
        0..10 each.
    ground : {"clear", "rough", "wild"}
        Rough ground halves the day's distance, Wild Land cuts it to a third.

    Returns
    -------
    Travel
        Air 0, Stamina 0 on clear ground: 3 km/h for 4 hours, 12 km; the text's "fragile
        character at about sixteen" is Air 1, Stamina 1 (3.2 x 5) and its "toughest at
        forty-five" Air 10, Stamina 5 (5 x 9).
    """
    return party_travel([(air, stamina)], ground)


def party_travel(members: Sequence[tuple[int, int]], ground: str = "clear") -> Travel:
    """A group's day: the slowest pace and the shortest day (rules/000 "Travel").

    Parameters
    ----------
    members : sequence of (air, stamina)
        One to 1000 walkers; each value 0..10.
    ground : {"clear", "rough", "wild"}
        See ``travel``.

    Returns
    -------
    Travel
    """
    ground = require_choice("ground", ground, tuple(GROUNDS))
    members = require_length("members", members, MAX_PARTY, 1, "(air, stamina) pairs")
    for i, member in enumerate(members):
        require_length(f"members[{i}]", member, 2, 2, "numbers (air, stamina)")
    speed = min(travel_speed(air) for air, _ in members)
    hours = min(travel_day_hours(stamina) for _, stamina in members)
    return Travel(
        speed_kmh=float(speed),
        day_hours=hours,
        day_km=float(speed * hours / GROUNDS[ground]),
        ground=ground,
    )


def fate_token_cap(stamina: int) -> int:
    """Most Fate Tokens a character may hold: Stamina x 3 + 1 (rules/004 "Fate Tokens")."""
    return 3 * _stat("stamina", stamina) + 1


def fate_spends_per_scene(stamina: int, stamina_only: bool = False) -> int:
    """Counted Fate Token spends allowed per Scene (rules/004; variant rules/002).

    Parameters
    ----------
    stamina : int
        0..10.
    stamina_only : bool
        Variant 002: "your Stamina score sets that cap" (Stamina, not Stamina + 1).

    Returns
    -------
    int
        Stamina + 1 by default.
    """
    stamina = _stat("stamina", stamina)
    return stamina if require_bool("stamina_only", stamina_only) else stamina + 1


def skill_odds_table(
    elements: Sequence[int],
    tiers: Sequence[int],
    difficulties: Sequence[int] = range(11),
    advantage: int | Sequence[int] = 0,
    usable_untrained: Sequence[bool] | None = None,
    advantage_from_expert: bool = False,
) -> np.ndarray:
    """P(success) of each skill at each Difficulty (RULES.md, Core Roll; training tiers).

    Parameters
    ----------
    elements : sequence of int
        The Element each skill rolls with (its home Element's score), 0..10 each; at most
        1000 skills.
    tiers : sequence of int
        Each skill's training tier, 0 Untrained .. 4 Master; same length as ``elements``.
    difficulties : sequence of int
        Columns, 0..10 each; at most 100.
    advantage : int or sequence of int
        Net situational Advantage sources, added to each tier's own: one for every skill, or
        one per skill (conditions reach Physical, Social and Mental skills differently).
    usable_untrained : sequence of bool, optional
        False for a skill that cannot be rolled Untrained ("Swimming can't be done untrained",
        rules/000): its row is 0 while its tier is 0. Default: every skill can.
    advantage_from_expert : bool
        Variant 002: a tier's Advantage starts at Expert, not Adept (``tier_rules``).

    Returns
    -------
    numpy.ndarray
        Float array (len(elements), len(difficulties)); entry [i, j] equals
        ``check_odds(elements[i], difficulties[j], tiers[i], advantage[i],
        advantage_from_expert=...).p_success``.
    """
    elements = require_int_array("elements", elements, 0, 10, MAX_SKILLS).reshape(-1)
    tiers = require_int_array("tiers", tiers, 0, 4, MAX_SKILLS).reshape(-1)
    difficulties = require_length("difficulties", difficulties, MAX_COLUMNS, what="Difficulties")
    difficulties = require_int_array("difficulties", difficulties, 0, 10).reshape(-1)
    if elements.shape != tiers.shape:
        raise ValueError(
            f"elements and tiers must have the same length, got {elements.size} and {tiers.size}"
        )
    from_expert = require_bool("advantage_from_expert", advantage_from_expert)
    if isinstance(advantage, Sequence | np.ndarray):
        advantages = require_int_array("advantage", list(advantage), -100, 100).reshape(-1)
        if advantages.shape != elements.shape:
            raise ValueError("advantage must be one whole number, or one per skill")
    else:
        advantages = np.full(elements.shape, require_int("advantage", advantage))
    out = np.zeros((elements.size, difficulties.size))
    for tier, adv in {(int(t), int(a)) for t, a in zip(tiers, advantages, strict=True)}:
        rules = tier_rules(tier, from_expert)
        rows = np.flatnonzero((tiers == tier) & (advantages == adv))
        base = elements[rows] if rules.uses_element else np.zeros(rows.size, dtype=np.int64)
        targets = (base[:, None] + difficulties[None, :]).reshape(-1)
        table = success_table(
            targets,
            adv + rules.advantage_sources,
            rules.crit_max,
            rules.reroll_catastrophe,
        )
        out[rows] = table[:, :2].sum(axis=1).reshape(rows.size, difficulties.size)
    return _untrained_blocked(out, tiers, usable_untrained)


def _untrained_blocked(
    table: np.ndarray, tiers: np.ndarray, usable_untrained: Sequence[bool] | None
) -> np.ndarray:
    """Zero the rows of Skills that cannot be rolled Untrained (Swimming) while Untrained."""
    if usable_untrained is not None:
        usable_untrained = require_length(
            "usable_untrained", usable_untrained, tiers.size, what="True / False values"
        )
        usable = np.array([require_bool("usable_untrained", u) for u in usable_untrained])
        if usable.shape != tiers.shape:
            raise ValueError("usable_untrained must have one entry per skill")
        table[(tiers == 0) & ~usable] = 0.0
    return table


def skill_usable(tier: int, usable_untrained: bool = True) -> bool:
    """Whether a Skill can be rolled at all: any tier, but Untrained only if it allows it.

    rules/000 and 001: "Swimming can't be done untrained".
    """
    tier = require_int("tier", tier, 0, 4)
    return tier > 0 or require_bool("usable_untrained", usable_untrained)


def draft_skill_odds_table(
    elements: Sequence[int],
    tiers: Sequence[int],
    dcs: Sequence[int],
    usable_untrained: Sequence[bool] | None = None,
    advantage: int | Sequence[int] = 0,
) -> np.ndarray:
    """A 20 Below sheet's skills under the rules/003 roll-over draft, at each DC.

    Our mapping (the draft has no tiers): the Skill Rating is the Element's score when
    Trained or better, 0 Untrained; Adept and up keep their one Advantage, which in the draft
    is a re-roll of the worse die. A Skill that cannot be rolled Untrained still cannot.

    ``advantage`` (one, or one per skill) adds net situational sources as re-rolls, the way
    ``roll_over_attack`` takes the sheet's Advantage.

    Returns
    -------
    numpy.ndarray
        P(2d10 + rating >= DC), shape (skills, DCs).
    """
    from .roll_over import roll_over_table

    elements = require_int_array("elements", elements, 0, 10, MAX_SKILLS).reshape(-1)
    tiers = require_int_array("tiers", tiers, 0, 4, MAX_SKILLS).reshape(-1)
    if elements.shape != tiers.shape:
        raise ValueError("tiers must have one entry per skill, like elements")
    dcs = require_length("dcs", dcs, MAX_COLUMNS, what="DCs")
    ratings = np.where(tiers > 0, elements, 0)
    advantages = np.array([tier_rules(int(t)).advantage_sources for t in tiers], dtype=int)
    advantages = advantages + np.broadcast_to(
        require_int_array("advantage", advantage, -9, 9), advantages.shape
    )
    table = roll_over_table(ratings, dcs, advantages)
    return _untrained_blocked(table, tiers, usable_untrained)


def fight_status(health: int, maximum: int, named: bool = True) -> str:
    """Where a combatant stands by its Health (RULES.md, Vitals; rules/000 "Named and unnamed").

    Parameters
    ----------
    health : int
        Current Health, -maximum..maximum.
    maximum : int
        Health track size, 1..100.
    named : bool
        Player characters and named NPCs; an unnamed NPC who reaches 0 is out of the fight and
        the story ("out").

    Returns
    -------
    str
        "up", "unconscious", "dying", "dead", or "out" for an unnamed combatant at or below 0.
    """
    state = vital_state("health", health, maximum)
    if not require_bool("named", named) and health <= 0:
        return "out"
    return state
