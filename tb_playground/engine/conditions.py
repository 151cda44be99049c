"""Conditions and circumstances -> the Advantage sources of one roll (``roll_modifiers``).

Rule: RULES.md, Core Roll, Combat round, "Where two texts disagree (decided)"; each condition
cites its rules/000, 001, 002 or 004 section where it is encoded. Readings where the texts are
silent: docs/notes/0004-conditions.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .defense import ATTACK_KINDS
from .validation import require_bool, require_choice, require_int

#: What kind of roll is made. "physical", "social" and "mental" are Skill (and other Core)
#: rolls of that kind; "attack" is a to-hit roll (its ``attack_kind`` says Physical, Social or
#: Mental, and counts as a roll of that kind); "gift check" never has Advantage or
#: Disadvantage (rules/000); "other" is a roll of no kind (a Resource Check): only the
#: conditions on "everything" reach it.
ROLL_KINDS = ("physical", "social", "mental", "attack", "gift check", "other")

#: How a Physical attack reaches its target: Belly Down treats the two differently (rules/001).
REACHES = ("melee", "ranged")

#: Grades of cover the GM calls (rules/001 "Cover").
COVERS = ("none", "partial", "full")

#: Where the target stands against the weapon's ranges (rules/004 "Weapon range").
WEAPON_RANGES = ("normal", "long", "beyond")

#: Highest Exhausted level (rules/004 "Conditions": stacks 1-5).
MAX_EXHAUSTED = 5

#: How long a condition lasts.
DURATIONS = (
    "round",
    "end of owner's next turn",
    "scene",
    "until a rest",
    "while the track is there",
    "until an action ends it",
    "while in the place",
    "for good",
)


@dataclass(frozen=True)
class ConditionRule:
    """What one condition does, where a text says so, and how long it lasts.

    Attributes
    ----------
    name : str
        The condition as the texts spell it.
    effect : str
        Its effect in plain words.
    source : str
        The rule text(s) and heading(s).
    duration : str
        One of ``DURATIONS``.
    stacks : bool
        Whether it can be on a character twice (none of them can; Exhausted is a level).
    """

    name: str
    effect: str
    source: str
    duration: str
    stacks: bool = False


#: Every condition and its rule (rules/004 "Conditions", rules/000, 001, 002).
CONDITION_RULES: dict[str, ConditionRule] = {
    r.name: r
    for r in (
        ConditionRule(
            "Off Balance",
            "Everything at Disadvantage. Doesn't stack.",
            "rules/000 'Rolling the Dice' (a catastrophic failure in a fight); rules/004 "
            "'Conditions'",
            "end of owner's next turn",
        ),
        ConditionRule(
            "Surprised",
            "Everything at Disadvantage for the round.",
            "rules/004 'Conditions'; rules/002 'What Is Surprised?'",
            "round",
        ),
        ConditionRule(
            "Distracted",
            "A Slow action drops to a Normal one and loses what its empowerment gave (Aim, "
            "a Called Shot's Advantage); outside a Slow action, Disadvantage on the roll.",
            "rules/004 'Conditions'; rules/001 'Empowered Actions'; rules/002 'What Is "
            "Distracted?'",
            "round",
        ),
        ConditionRule(
            "Flustered",
            "Social rolls at Disadvantage. Lasts to the end of the Scene, even after Poise "
            "climbs back.",
            "rules/000 'Harm and Recovery' (Poise at 0); rules/004 'Conditions'",
            "scene",
        ),
        ConditionRule(
            "Humiliated",
            "Can't take the lead, negotiate or speak for the group; you defer and comply.",
            "rules/000 'Harm and Recovery' (Poise below 0); rules/004 'Conditions'",
            "while the track is there",
        ),
        ConditionRule(
            "Overwhelmed",
            "Everything at Disadvantage, plus a temporary Mental scar effect.",
            "rules/000 'Harm and Recovery' (Sanity at 0); rules/004 'Conditions'",
            "while the track is there",
        ),
        ConditionRule(
            "Shattered",
            "Can't act on your own: someone has to lead you.",
            "rules/000 'Harm and Recovery' (Sanity below 0); rules/004 'Conditions'",
            "while the track is there",
        ),
        ConditionRule(
            "Unconscious",
            "Out cold: can't act.",
            "rules/000 'Harm and Recovery' (Health at 0); rules/004 'At Zero and Below'",
            "while the track is there",
        ),
        ConditionRule(
            "Dying",
            "Unconscious and out of the fight: can't act.",
            "rules/000 'Harm and Recovery' (Health below 0); rules/004 'Conditions'",
            "while the track is there",
        ),
        ConditionRule(
            "Dead",
            "Can't act.",
            "rules/000 'Harm and Recovery'; rules/004 'At Zero and Below'",
            "for good",
        ),
        ConditionRule(
            "Prone",
            "Can't attack or Crawl; every attack against you gains Advantage.",
            "rules/000 'Getting Low and Taking Cover'; rules/001 'Getting Low'",
            "until an action ends it",
        ),
        ConditionRule(
            "Belly Down",
            "Your Melee attacks at Disadvantage; Melee attacks against you gain Advantage; "
            "ranged attacks against you at Disadvantage.",
            "rules/000 'Getting Low and Taking Cover'; rules/001 'Getting Low'",
            "until an action ends it",
        ),
        ConditionRule(
            "Grabbed",
            "Movement Rate 0: escape the hold first, then move.",
            "rules/000 'Leaving Melee'; rules/001 'Movement Rate', 'Leaving Melee'",
            "until an action ends it",
        ),
        ConditionRule(
            "Squeezed",
            "In a tight space: can't attack; attacks against you at Disadvantage.",
            "rules/000 'Bad Ground'; rules/001 'Terrain and Footing'",
            "while in the place",
        ),
    )
}

#: Conditions by name, in the order above. Exhausted is a level 0..5 (``EXHAUSTED_RULE``).
CONDITIONS = tuple(CONDITION_RULES)

#: Exhausted, a level 1..5 rather than a condition that is on or off.
EXHAUSTED_RULE = ConditionRule(
    "Exhausted",
    "1: Physical rolls at Disadvantage; 2: every roll; 3: also half Move and no Fast; "
    "4: also +1 Ki on every Ki spend; 5: out cold.",
    "rules/004 'Conditions'; rules/000 'Recovery' (a Short Rest lifts one level, a Full "
    "Night's Rest all)",
    "until a rest",
    stacks=True,
)

#: Conditions that put every roll at Disadvantage (rules/004 "Conditions").
EVERYTHING_AT_DISADVANTAGE = ("Off Balance", "Surprised", "Overwhelmed")

#: Conditions under which a character can't act at all.
CANNOT_ACT = ("Dead", "Dying", "Unconscious")

#: Conditions under which a character can't attack (rules/000, 001).
CANNOT_ATTACK = ("Prone", "Squeezed")


@dataclass(frozen=True)
class ExhaustedEffects:
    """What an Exhausted level does (rules/004 "Conditions": each level keeps the ones before).

    Attributes
    ----------
    level : int
        0..5.
    physical_disadvantage : bool
        1 and up: Physical rolls at Disadvantage.
    all_disadvantage : bool
        2 and up: every roll at Disadvantage.
    half_move : bool
        3 and up: Movement Rate halved (rules/001 "Movement Rate").
    no_fast : bool
        3 and up: the Fast bracket can't be declared.
    ki_surcharge : int
        4 and up: 1 more Ki on every Ki spend; else 0.
    out_cold : bool
        5: can't act.
    """

    level: int
    physical_disadvantage: bool
    all_disadvantage: bool
    half_move: bool
    no_fast: bool
    ki_surcharge: int
    out_cold: bool


def exhausted_effects(level: int) -> ExhaustedEffects:
    """The effects of Exhausted ``level``, 0..5.

    rules/004 "Conditions": "Stacks 1-5: Disadvantage on Physical, then on all, then half Move
    and no Fast, then +1 per Ki spend, then out cold".
    """
    level = require_int("level", level, 0, MAX_EXHAUSTED)
    return ExhaustedEffects(
        level=level,
        physical_disadvantage=level >= 1,
        all_disadvantage=level >= 2,
        half_move=level >= 3,
        no_fast=level >= 3,
        ki_surcharge=int(level >= 4),
        out_cold=level >= 5,
    )


@dataclass(frozen=True)
class Source:
    """One named Advantage (+1) or Disadvantage (-1) source.

    Attributes
    ----------
    label : str
        Plain words: "Off Balance", "Target is Prone", "Aim".
    sign : int
        +1 for an Advantage source, -1 for a Disadvantage source.
    """

    label: str
    sign: int


@dataclass(frozen=True)
class RollModifiers:
    """What conditions and circumstances do to one roll (``roll_modifiers``).

    Attributes
    ----------
    sources : tuple of Source
        Every source, named, in the order found (the roller's, the target's, the
        circumstances'; a training tier's last).
    advantage : int
        Their net sum (training tier included). Its sign decides the roll.
    tier_advantage : int
        The part of ``advantage`` that is the roller's training tier (Adept and up): pass
        ``situational`` to ``check_odds``, which adds the tier's source itself.
    defense_change : int
        Added to the target's Defense (Full Defense: -4); ``defense`` applies the minimum 0.
    allowed : bool
        False when the roll can't be made.
    reason : str
        Why not, in plain words ("Prone: you can't attack"); "" when allowed.
    notes : tuple of str
        What the conditions do besides the odds (Exhausted 3: half Move, no Fast...).
    """

    sources: tuple[Source, ...] = ()
    advantage: int = 0
    tier_advantage: int = 0
    defense_change: int = 0
    allowed: bool = True
    reason: str = ""
    notes: tuple[str, ...] = ()

    @property
    def situational(self) -> int:
        """Net sources without the training tier's (what ``check_odds`` takes)."""
        return self.advantage - self.tier_advantage

    @property
    def sign(self) -> int:
        """The roll made: +1 Advantage, 0 normal, -1 Disadvantage (rules/000)."""
        return (self.advantage > 0) - (self.advantage < 0)

    @property
    def roll_name(self) -> str:
        """The roll's name: Advantage, Normal roll or Disadvantage."""
        return {1: "Advantage", 0: "Normal roll", -1: "Disadvantage"}[self.sign]

    def defense(self, base: int) -> int:
        """The target's Defense after ``defense_change``, never below 0 (rules/001)."""
        return max(0, require_int("base", base, 0, None) + self.defense_change)

    def labels(self, sign: int) -> list[str]:
        """Labels of the sources of one sign (+1 or -1)."""
        return [s.label for s in self.sources if s.sign == sign]

    def describe(self) -> str:
        """The roll in plain words.

        "Can't roll: Prone: you can't attack", "Disadvantage: Off Balance, Surprised",
        "Advantage: Aim, Target is Prone; against: Off Balance",
        "Normal roll: Aim cancels Off Balance", or "" when no source applies.
        """
        if not self.allowed:
            return f"Can't roll: {self.reason}"
        plus, minus = self.labels(1), self.labels(-1)
        if not plus and not minus:
            return ""
        if self.sign == 0:
            return f"Normal roll: {', '.join(plus)} cancels {', '.join(minus)}"
        main, other = (plus, minus) if self.sign > 0 else (minus, plus)
        text = f"{self.roll_name}: {', '.join(main)}"
        if other:
            text += f"; {'against' if self.sign > 0 else 'for'}: {', '.join(other)}"
        return text


def _conditions(name: str, values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str | bytes):
        raise ValueError(f"{name} must be a list of conditions {CONDITIONS}, got {values!r}")
    out = tuple(require_choice(name, v, CONDITIONS) for v in values)
    return tuple(dict.fromkeys(out))  # a condition doesn't stack (rules/004: Off Balance)


def split_states(states: Iterable[str]) -> tuple[tuple[str, ...], int]:
    """Split a sheet's states ("Off Balance", "Exhausted 2"...) into conditions and a level.

    Parameters
    ----------
    states : iterable of str
        Condition names from ``CONDITIONS`` and at most one "Exhausted N" (N 1..5).

    Returns
    -------
    (tuple of str, int)
        The conditions, and the Exhausted level (0 if none).
    """
    if isinstance(states, str | bytes):
        raise ValueError(f"states must be a list of conditions, got {states!r}")
    conditions, exhausted = [], 0
    for state in states:
        if isinstance(state, str) and state.startswith("Exhausted "):
            level = state.removeprefix("Exhausted ")
            if not level.isdigit():
                raise ValueError(f"states: Exhausted needs a level 1..5, got {state!r}")
            exhausted = max(exhausted, require_int("Exhausted level", int(level), 1, 5))
        else:
            conditions.append(state)
    return _conditions("states", conditions), exhausted


def roll_modifiers(
    roll: str,
    *,
    attack_kind: str | None = None,
    reach: str = "melee",
    conditions: Iterable[str] = (),
    exhausted: int = 0,
    target_conditions: Iterable[str] = (),
    target_exhausted: int = 0,
    cover: str = "none",
    weapon_range: str = "normal",
    aim: bool = False,
    called_shot: bool = False,
    studied: bool = False,
    reckless: bool = False,
    full_defense: bool = False,
    target_reckless: bool = False,
    target_full_defense: bool = False,
    off_hand: bool = False,
    helpers: int = 0,
    alone: bool = True,
    leads: bool = False,
    tier_advantage: int = 0,
    other_advantage: int = 0,
    other_disadvantage: int = 0,
    slow_called_shot_advantage: bool = False,
    taking_time: bool = False,
) -> RollModifiers:
    """The named Advantage sources of one roll, their sum, and whether it can be made.

    Parameters
    ----------
    roll : str
        One of ``ROLL_KINDS``.
    attack_kind : {"physical", "social", "mental"}, optional
        Required when ``roll`` is "attack"; the attack counts as a roll of that kind
        (Exhausted 1 reaches a Physical attack, Flustered a Social one).
    reach : {"melee", "ranged"}
        How a Physical attack reaches its target (Belly Down, rules/001). Other rolls ignore it.
    conditions : iterable of str
        The roller's conditions, from ``CONDITIONS``; a repeat counts once.
    exhausted : int
        The roller's Exhausted level, 0..5.
    target_conditions : iterable of str
        An attack's target's conditions (Prone, Belly Down, Squeezed reach the odds).
    target_exhausted : int
        The target's Exhausted level, 0..5. No text gives attacks against an Exhausted target
        a source; it is accepted so a caller can pass the whole state.
    cover : {"none", "partial", "full"}
        The target's cover against an attack (rules/001 "Cover").
    weapon_range : {"normal", "long", "beyond"}
        Where the target stands against the weapon's ranges (``weapon_range_band``).
    aim, called_shot, studied : bool
        The attack's Slow action: Aim (+1), a Called Shot, and whether the roller Studied
        the target last round (+1 to this round's Called Shot). Aim and a Called Shot in one
        round are not allowed.
    reckless, full_defense : bool
        The roller's combat actions this round: Reckless (+1 on its attacks), Full Defense
        (it can't attack).
    target_reckless, target_full_defense : bool
        The target's: attacks against a Reckless target gain Advantage; against one on Full
        Defense they are at Disadvantage and its Defense drops by 4.
    off_hand : bool
        An off-hand attack or precise task: -1.
    helpers : int
        Helpers at least Trained in the Skill, 0..10: +1 each (rules/000 "Helping").
    alone : bool
        The roller acts on its own. False when someone leads a Shattered character.
    leads : bool
        The roll takes the lead, negotiates or speaks for the group (Humiliated can't).
    tier_advantage : int
        The training tier's own sources (Adept and up: 1), 0..1.
    other_advantage, other_disadvantage : int
        Any other sources, 0..20 each.
    slow_called_shot_advantage : bool
        Variant 002: a Called Shot, being Slow, rolls with Advantage (+1).
    taking_time : bool
        Taking Your Time: the next Time Band up, with Advantage (+1; rules/000 "Taking Your
        Time"; RULES.md, Core Roll).

    Returns
    -------
    RollModifiers
    """
    roll = require_choice("roll", roll, ROLL_KINDS)
    if roll == "attack":
        if attack_kind is None:
            raise ValueError(f"attack_kind must be one of {ATTACK_KINDS} for an attack roll")
        attack_kind = require_choice("attack_kind", attack_kind, ATTACK_KINDS)
    elif attack_kind is not None:
        raise ValueError(f"attack_kind is only for an attack roll, got {attack_kind!r}")
    reach = require_choice("reach", reach, REACHES)
    mine = _conditions("conditions", conditions)
    theirs = _conditions("target_conditions", target_conditions)
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    require_int("target_exhausted", target_exhausted, 0, MAX_EXHAUSTED)
    cover = require_choice("cover", cover, COVERS)
    weapon_range = require_choice("weapon_range", weapon_range, WEAPON_RANGES)
    flags = {
        name: require_bool(name, value)
        for name, value in (
            ("aim", aim),
            ("called_shot", called_shot),
            ("studied", studied),
            ("reckless", reckless),
            ("full_defense", full_defense),
            ("target_reckless", target_reckless),
            ("target_full_defense", target_full_defense),
            ("off_hand", off_hand),
            ("alone", alone),
            ("leads", leads),
            ("slow_called_shot_advantage", slow_called_shot_advantage),
            ("taking_time", taking_time),
        )
    }
    helpers = require_int("helpers", helpers, 0, 10)
    tier_advantage = require_int("tier_advantage", tier_advantage, 0, 1)
    other_advantage = require_int("other_advantage", other_advantage, 0, 20)
    other_disadvantage = require_int("other_disadvantage", other_disadvantage, 0, 20)

    attack = roll == "attack"
    kind = attack_kind if attack else roll
    physical = attack and attack_kind == "physical"
    sources: list[Source] = []
    notes: list[str] = []
    refusals: list[str] = []

    # -- the roller: who can act at all (rules/000 "Harm and Recovery", rules/004) ----------
    for name in CANNOT_ACT:
        if name in mine:
            refusals.append(f"{name}: you can't act")
    tired = exhausted_effects(exhausted)
    if tired.out_cold:
        refusals.append("Exhausted 5: out cold, you can't act")
    if "Shattered" in mine and flags["alone"]:
        refusals.append("Shattered: you can't act on your own; someone has to lead you")
    if "Humiliated" in mine and flags["leads"]:
        refusals.append("Humiliated: you can't take the lead, negotiate or speak for the group")
    if attack:
        if "Prone" in mine:
            refusals.append("Prone: you can't attack")
        if "Squeezed" in mine:
            refusals.append("Squeezed in a tight space: you can't attack")
        if flags["full_defense"]:
            refusals.append("Full Defense: you can't attack this round")
        if cover == "full":
            refusals.append("Target behind full cover: it can't be seen or reached")
        if weapon_range == "beyond":
            refusals.append("Past the weapon's Long range: no shot")
        if flags["aim"] and flags["called_shot"]:
            refusals.append("You can't Aim and take a Called Shot in the same round")

    # -- the roller's conditions (rules/004 "Conditions") -----------------------------------
    gift_check = roll == "gift check"  # rules/000: no Advantage or Disadvantage on it
    if not gift_check:
        for name in EVERYTHING_AT_DISADVANTAGE:
            if name in mine:
                sources.append(Source(name, -1))
        if "Flustered" in mine and kind == "social":
            sources.append(Source("Flustered", -1))
        if tired.all_disadvantage or (tired.physical_disadvantage and kind == "physical"):
            sources.append(Source(f"Exhausted {exhausted}", -1))
        if physical and reach == "melee" and "Belly Down" in mine:
            sources.append(Source("Belly Down (your Melee attack)", -1))
    if tired.half_move:
        notes.append(f"Exhausted {exhausted}: half Move and no Fast bracket")
    if tired.ki_surcharge:
        notes.append(f"Exhausted {exhausted}: every Ki spend costs 1 Ki more")
    if "Grabbed" in mine:
        notes.append("Grabbed: you can't move until you escape the hold")

    # -- Slow actions and Distracted (rules/000 "Action Brackets", rules/001, rules/002) ----
    empowered = []
    if attack and flags["aim"]:
        empowered.append(Source("Aim", 1))
    if attack and flags["called_shot"]:
        if flags["studied"]:
            empowered.append(Source("Studied the target last round", 1))
        if flags["slow_called_shot_advantage"]:
            empowered.append(Source("Called Shot (Slow)", 1))
    if "Distracted" in mine and not gift_check:
        if attack and (flags["aim"] or flags["called_shot"]):
            lost = [s.label for s in empowered]
            what = "Aim" if flags["aim"] else "Called Shot"
            notes.append(
                f"Distracted: the {what} drops to a Normal action"
                + (f" and loses {', '.join(lost)}" if lost else "")
            )
            empowered = []
        else:
            sources.append(Source("Distracted", -1))
    sources += empowered
    if attack and flags["reckless"]:
        sources.append(Source("Reckless", 1))

    # -- the target, against an attack (rules/000, 001) -------------------------------------
    defense_change = 0
    if attack:
        if "Prone" in theirs:
            sources.append(Source("Target is Prone", 1))
        if physical and "Belly Down" in theirs:
            if reach == "melee":
                sources.append(Source("Target is Belly Down (Melee)", 1))
            else:
                sources.append(Source("Target is Belly Down (ranged)", -1))
        if "Squeezed" in theirs:
            sources.append(Source("Target is squeezed in a tight space", -1))
        if cover == "partial":
            sources.append(Source("Target behind partial cover", -1))
        if flags["target_reckless"]:
            sources.append(Source("Target is Reckless", 1))
        if flags["target_full_defense"]:
            sources.append(Source("Target on Full Defense", -1))
            defense_change = -4
        if weapon_range == "long":
            sources.append(Source("Long range", -1))

    # -- the rest (rules/000 "Advantage and Disadvantage", "Helping") -----------------------
    if not gift_check:
        if flags["off_hand"]:
            sources.append(Source("Off hand", -1))
        sources += [Source("Trained helper", 1)] * helpers
        if flags["taking_time"]:
            sources.append(Source("Taking your time", 1))
        sources += [Source("Other Advantage", 1)] * other_advantage
        sources += [Source("Other Disadvantage", -1)] * other_disadvantage
        if tier_advantage:
            sources.append(Source("Adept or better", 1))
    else:
        tier_advantage = 0

    return RollModifiers(
        sources=tuple(sources),
        advantage=sum(s.sign for s in sources),
        tier_advantage=tier_advantage,
        defense_change=defense_change,
        allowed=not refusals,
        reason="; ".join(refusals),
        notes=tuple(notes),
    )


def weapon_range_band(distance: int, normal_range: int, long_range: int) -> str:
    """Where a target at ``distance`` metres stands against a weapon's ranges (rules/004).

    "Weapon range - no penalty inside Normal, Disadvantage out to Long, no shot past it."

    Parameters
    ----------
    distance : int
        Metres to the target, 0..100000.
    normal_range, long_range : int
        The weapon's Normal and Long range in metres; a Melee weapon has 0 and 0 and reaches
        the Melee band, out to 1 m (rules/000 "Map or No Map").

    Returns
    -------
    str
        "normal", "long" or "beyond".
    """
    distance = require_int("distance", distance, 0, 100_000)
    normal_range = require_int("normal_range", normal_range, 0, 100_000)
    long_range = require_int("long_range", long_range, normal_range, 100_000)
    if distance <= max(normal_range, 1):
        return "normal"
    if distance <= long_range:
        return "long"
    return "beyond"
