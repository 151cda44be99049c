"""The round's budget: what an Action Bracket holds, Ki bumps, and the rolls of moving.

``validate_turn`` is the one place these rules live; ``check_next_action`` asks it about a plan
one action longer. Rule: RULES.md, Combat round and "Where two texts disagree (decided)";
rules/000 "Action Brackets", rules/001 "Actions". Readings:
docs/notes/0006-recovery-fate-round.md, "The round's budget".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .character_stats import GROUNDS, MAX_EXHAUSTED, rate_after_conditions
from .core_roll import Odds, check_odds, roll_odds
from .fate import ki_spend_cost
from .validation import require_bool, require_choice, require_int

#: Action Brackets, fastest first (rules/000 "Action Brackets"; the table's ``BRACKETS``).
BRACKETS = ("fast", "normal", "slow")

#: How many actions each declared bracket holds (rules/000 "Action Brackets").
BRACKET_ACTIONS = {"fast": 1, "normal": 2, "slow": 1}

#: Conditions that change what a round may hold; any other name the table knows is accepted
#: and ignored here (its effect is on rolls: ``conditions.roll_modifiers``).
TURN_CONDITIONS = (
    "Off Balance",
    "Surprised",
    "Distracted",
    "Flustered",
    "Humiliated",
    "Overwhelmed",
    "Shattered",
    "Unconscious",
    "Dying",
    "Dead",
    "Prone",
    "Belly Down",
    "Grabbed",
    "Squeezed",
)

#: Conditions under which a character takes no actions at all.
OUT_OF_ACTION = ("Unconscious", "Dying", "Dead")


@dataclass(frozen=True)
class ActionRule:
    """One thing a round can hold (rules/000 "What an Action Buys You"; rules/001 "Actions").

    Attributes
    ----------
    label : str
        The name on screen.
    cost : int
        Actions it takes from the bracket: 0 free, 1, or 2 (a Dash). All the moves of one
        round together take one action; a Sprint takes the whole Slow round; a step is free
        but Slow only.
    brackets : tuple of str
        The declared brackets that may hold it.
    attack : bool
        An attack roll (refused while Prone or Squeezed, and in a Full Defense round).
    moves : bool
        Movement (refused while Grabbed or Prone).
    empowered : bool
        An empowered action: a Slow round's one action.
    source : str
        Where the rule text says so.
    """

    label: str
    cost: int
    brackets: tuple[str, ...]
    attack: bool = False
    moves: bool = False
    empowered: bool = False
    source: str = "rules/001 'Combat Actions'"


_ANY = ("fast", "normal", "slow")
_FN = ("fast", "normal")

#: Every action the table offers, by key.
ACTIONS: dict[str, ActionRule] = {
    "move": ActionRule("Move", 1, _FN, moves=True, source="rules/000 'Moving in a Round'"),
    "dash": ActionRule("Dash", 2, ("normal",), moves=True, source="rules/001 'Combat Actions'"),
    "sprint": ActionRule(
        "Sprint", 1, ("slow",), moves=True, source="rules/000 'Moving in a Round'"
    ),
    "step": ActionRule("1 m step", 0, ("slow",), moves=True, source="rules/000 'Action Brackets'"),
    "crawl": ActionRule("Crawl", 1, _FN, moves=True, source="rules/001 'Getting Low'"),
    "attack": ActionRule("Attack", 1, _ANY, attack=True, source="rules/000 'Action Brackets'"),
    "aim": ActionRule(
        "Aim and attack", 1, ("slow",), attack=True, empowered=True, source="rules/000"
    ),
    "called shot": ActionRule(
        "Called Shot", 1, ("slow",), attack=True, empowered=True, source="rules/000"
    ),
    "disarm": ActionRule("Disarm", 1, ("slow",), attack=True, empowered=True),
    "study": ActionRule("Study a Target", 1, ("slow",), empowered=True, source="rules/000"),
    "grab": ActionRule("Grab", 1, _ANY, attack=True),
    "skill": ActionRule("Use a Skill", 1, _ANY, source="rules/000 'Action Brackets'"),
    "help": ActionRule("Help", 1, _ANY),
    "ready": ActionRule("Ready", 1, _ANY),
    "reload": ActionRule("Reload", 1, _ANY),
    "reload tube": ActionRule("Reload a tube-fed shotgun", 1, ("slow",)),
    "small action": ActionRule("Small action", 1, _ANY),
    "escape": ActionRule("Escape a hold", 1, _ANY),
    "stand up": ActionRule("Stand up", 1, _ANY, source="rules/001 'Getting Low'"),
    "recover from prone": ActionRule(
        "Recover from Prone", 1, _ANY, source="rules/001 'Getting Low'"
    ),
    "full defense": ActionRule("Full Defense", 1, ("normal",)),
    "belly down": ActionRule("Belly Down", 0, _ANY, source="rules/001 'Getting Low'"),
    "reckless": ActionRule("Reckless", 0, _ANY),
}

#: What an empowered action becomes when Distracted breaks it (rules/001 "Empowered Actions":
#: "Distracted drops the action to a Normal one, and it loses what its empowerment gave").
#: None: nothing is left of it (a Study broken off gains nothing).
DISTRACTED_FALLBACK: dict[str, str | None] = {
    "aim": "attack",
    "called shot": "attack",
    "disarm": "attack",
    "study": None,
}

_BRACKET_NAMES = {"fast": "Fast", "normal": "Normal", "slow": "Slow"}


@dataclass(frozen=True)
class TurnCheck:
    """Whether a round's plan fits its bracket (``validate_turn``).

    Attributes
    ----------
    ok : bool
        No problems.
    problems : tuple of str
        Each rule the plan breaks, in plain words.
    metres_allowed : int
        Movement the plan's moves may spend: the Movement Rate for a (split) move or Crawl, 2x
        for a Dash or two moves, 5x for a Sprint, 1 for a step, 0 without movement (after
        Exhausted 3 halves the rate).
    band : str
        The band the round resolves in after the bumps ("fast", "normal", "slow").
    ki_cost : int
        Ki the bumps cost.
    actions_used, actions_allowed : int
        Actions the plan takes and the bracket holds.
    surprised : bool
        Everything at Disadvantage this round (Surprised in the first round).
    notes : tuple of str
        What the plan does to rolls (Aim, Reckless, Full Defense, Surprised), in plain words.
    """

    ok: bool
    problems: tuple[str, ...]
    metres_allowed: int
    band: str
    ki_cost: int
    actions_used: int
    actions_allowed: int
    surprised: bool
    notes: tuple[str, ...]


def bump_cost(bumps: int, exhausted: int = 0) -> int:
    """Ki to bump a bracket ``bumps`` steps: 1 a step, one spend (rules/000 "Action Brackets").

    Exhausted 4 adds 1 to the spend (``fate.ki_spend_cost``).
    """
    return ki_spend_cost(require_int("bumps", bumps, 0, 2), exhausted)


def _plan(actions: Iterable[str]) -> tuple[str, ...]:
    if isinstance(actions, str):
        raise ValueError(f"actions must be a list of action names {tuple(ACTIONS)}")
    return tuple(require_choice("actions", a, tuple(ACTIONS)) for a in actions)


def _known_conditions(conditions: Iterable[str]) -> frozenset[str]:
    if isinstance(conditions, str):
        raise ValueError(f"conditions must be a list of conditions {TURN_CONDITIONS}")
    return frozenset(require_choice("conditions", c, TURN_CONDITIONS) for c in conditions)


def validate_turn(
    bracket: str,
    actions: Sequence[str],
    *,
    movement_rate: int,
    metres: int | None = None,
    bumps: int = 0,
    exhausted: int = 0,
    conditions: Iterable[str] = (),
    first_round_surprised: bool = False,
    ki: int | None = None,
) -> TurnCheck:
    """Check a round's plan against its Action Bracket (see the module docstring).

    Parameters
    ----------
    bracket : {"fast", "normal", "slow"}
        The bracket declared.
    actions : sequence of str
        Keys of ``ACTIONS`` in the order taken.
    movement_rate : int
        Movement Rate before conditions (5 + Air, or a creature card's), 0..1000 metres.
    metres : int, optional
        Movement the plan's moves spend in all, after ground and Crawl costs; checked only when
        the plan moves; None skips the check. For ``check_next_action`` it is the movement
        spent once the next action is done.
    bumps : int
        Ki bumps, 0..2.
    exhausted : int
        Exhausted level, 0..5.
    conditions : iterable of str
        The character's conditions (``TURN_CONDITIONS``).
    first_round_surprised : bool
        Surprised in the first round of the fight.
    ki : int, optional
        Ki held, to check the bumps can be paid; None skips the check.

    Returns
    -------
    TurnCheck
    """
    bracket = require_choice("bracket", bracket, BRACKETS)
    plan = _plan(actions)
    rate = require_int("movement_rate", movement_rate, 0, 1000)
    bumps = require_int("bumps", bumps, 0, 2)
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    conds = _known_conditions(conditions)
    surprised = require_bool("first_round_surprised", first_round_surprised)
    if metres is not None:
        metres = require_int("metres", metres, 0, None)
    if ki is not None:
        ki = require_int("ki", ki, 0, None)
    name = _BRACKET_NAMES[bracket]
    problems: list[str] = []

    speed = BRACKETS.index(bracket)
    band_index = speed - bumps
    if band_index < 0:
        problems.append(f"A {name} round can be bumped at most {speed} step(s): Fast is first.")
        band_index = 0
    band = BRACKETS[band_index]
    if exhausted >= 3 and bracket == "fast":
        problems.append("Exhausted 3: no Fast round.")
    elif exhausted >= 3 and band == "fast":
        problems.append("Exhausted 3: no bumping into the Fast band.")
    cost = ki_spend_cost(bumps, exhausted)
    if ki is not None and ki < cost:
        problems.append(f"Bumping {bumps} step(s) costs {cost} Ki; you have {ki}.")

    out = exhausted >= 5 or bool(conds & set(OUT_OF_ACTION))
    if out and plan:
        why = "Exhausted 5" if exhausted >= 5 else sorted(conds & set(OUT_OF_ACTION))[0]
        problems.append(f"{why}: out cold, no actions.")

    # Walk the plan in order: getting up, escaping and lying down change what comes after.
    prone = "Prone" in conds
    belly = "Belly Down" in conds
    grabbed = "Grabbed" in conds
    squeezed = "Squeezed" in conds
    full_defense = "full defense" in plan
    said: set[str] = set()

    def problem(text: str) -> None:
        if text not in said:
            said.add(text)
            problems.append(text)

    for key in plan:
        rule = ACTIONS[key]
        if bracket not in rule.brackets:
            if rule.empowered:
                problem(f"{rule.label} is an empowered action: it needs a Slow round.")
            elif key in ("move", "crawl"):
                problem("A Slow round moves only by a 1 m step or a Sprint.")
            else:
                held = " or ".join(_BRACKET_NAMES[b] for b in rule.brackets)
                problem(f"{rule.label} needs a {held} round.")
        if rule.moves and grabbed:
            problem("Grabbed: escape the hold before moving.")
        if rule.moves and prone:
            problem("Prone: recover before moving (no Crawl while Prone).")
        if key in ("move", "dash", "sprint") and belly and not prone:
            problem("Belly Down: stand up first, or Crawl.")
        if key == "crawl" and not belly and not prone:
            problem("Crawl is moving while Belly Down.")
        if rule.attack and prone:
            problem("Prone: recover before attacking.")
        if rule.attack and squeezed:
            problem("Squeezed into a tight space: no attacks.")
        if rule.attack and full_defense:
            problem("Full Defense: no attacks this round.")
        if key == "stand up":
            if not belly:
                problem("Stand up is for getting up from Belly Down.")
            belly = False
        if key == "recover from prone":
            if not prone:
                problem("Not Prone: nothing to recover from.")
            prone = False
        if key == "escape":
            if not grabbed:
                problem("Not Grabbed: no hold to escape.")
            grabbed = False
        if key == "belly down":
            if belly or prone:
                problem("Already on the ground.")
            belly = True

    # The budget. Moves around another action are one split move (one action, one Movement
    # Rate in all); moves with no other action are each an action: two of them are a Dash.
    moving = [k for k in plan if k in ("move", "crawl")]
    others = [k for k in plan if k not in ("move", "crawl", "step", "sprint")]
    acting = sum(ACTIONS[k].cost for k in others)
    split = bool(acting and moving)
    used = acting + (1 if split else len(moving))
    if "sprint" in plan:
        used += 1
        if len(plan) > 1:
            problem("A Sprint is the whole round: nothing else.")
    if "dash" in plan and (moving or plan.count("dash") > 1):
        problem("A Dash is both actions on movement: no other move.")
    if plan.count("step") > 1:
        problem("A Slow round holds one 1 m step.")
    allowed = BRACKET_ACTIONS[bracket]
    if used > allowed:
        problem(
            f"A {name} round holds {allowed} action{'s' if allowed > 1 else ''}; "
            f"this plan takes {used}."
        )

    # Movement the plan may spend.
    step_rate = rate_after_conditions(rate, exhausted)
    if "sprint" in plan:
        metres_allowed = 5 * step_rate
    elif "dash" in plan:
        metres_allowed = 2 * step_rate
    elif moving:
        metres_allowed = step_rate * (1 if split else len(moving))
    elif "step" in plan:
        metres_allowed = min(1, step_rate)
    else:
        metres_allowed = 0
    if metres is not None and metres > metres_allowed and any(ACTIONS[k].moves for k in plan):
        problem(f"Moves {metres} m; this round allows {metres_allowed} m.")

    notes = []
    surprised = surprised or "Surprised" in conds
    if surprised:
        notes.append("Surprised: every roll this round is at Disadvantage.")
    if "aim" in plan:
        notes.append("Aim: the attack rolls with Advantage.")
    if "reckless" in plan:
        notes.append("Reckless: Advantage on your attacks; attacks against you gain it too.")
    if full_defense:
        notes.append("Full Defense: attacks against you at Disadvantage; your Defense drops by 4.")
    return TurnCheck(
        ok=not problems,
        problems=tuple(problems),
        metres_allowed=metres_allowed,
        band=band,
        ki_cost=cost,
        actions_used=used,
        actions_allowed=allowed,
        surprised=surprised,
        notes=tuple(notes),
    )


def check_next_action(
    bracket: str, done_so_far: Sequence[str], next_action: str, **same: object
) -> str | None:
    """Why ``next_action`` can't follow ``done_so_far`` this round, or None if it can.

    Asks ``validate_turn`` about the plan one action longer (same keyword arguments), so the
    step-by-step answer agrees with the whole-plan one: every rule is an "at most", so a plan is
    allowed exactly when each of its steps was.

    Returns
    -------
    str or None
        The first problem the longer plan has that the plan so far did not (or, if the plan so
        far already breaks a rule, the first problem of the longer plan).
    """
    before = validate_turn(bracket, done_so_far, **same)
    after = validate_turn(bracket, (*_plan(done_so_far), next_action), **same)
    new = [p for p in after.problems if p not in before.problems]
    if new:
        return new[0]
    return after.problems[0] if after.problems else None


# -- Rolls of moving ---------------------------------------------------------------------------


def ground_cost(
    metres: int,
    ground: str = "clear",
    athletics_success: bool | None = None,
    crawling: bool = False,
) -> int:
    """Movement spent to cover ``metres`` of ground (rules/000 "Bad Ground"; rules/001).

    Parameters
    ----------
    metres : int
        Distance covered, 0..10000.
    ground : {"clear", "rough", "wild"}
        Clear costs 1 m a metre, Rough 2, Wild Land 3.
    athletics_success : bool or None
        The once-a-turn Athletics roll at Difficulty 6: a success crosses Rough as Clear and
        Wild Land as Rough, never better; a failure (False) or no roll (None) pays in full.
    crawling : bool
        Belly Down Crawl: 2 m a metre; Rough ground doesn't slow it; Wild Land costs its usual 3
        with no roll (rules/001 "Getting Low").

    Returns
    -------
    int
    """
    metres = require_int("metres", metres, 0, 10000)
    ground = require_choice("ground", ground, tuple(GROUNDS))
    if athletics_success is not None:
        athletics_success = require_bool("athletics_success", athletics_success)
    if require_bool("crawling", crawling):
        return metres * (3 if ground == "wild" else 2)
    per_metre = GROUNDS[ground]
    if athletics_success and per_metre > 1:
        per_metre -= 1
    return metres * per_metre


#: Moves that need a footing roll on ice, a slick deck or loose scree (rules/001).
FOOTING_MOVES = ("dash", "sprint", "bulldoze")


def footing_roll_needed(move: str) -> bool:
    """A Dash, Sprint or Bulldoze across bad footing needs Athletics at 6 (rules/001)."""
    return require_choice("move", move, ("move", "crawl", "step", *FOOTING_MOVES)) in FOOTING_MOVES


def footing_odds(element: int, tier: int = 1, advantage: int = 0) -> Odds:
    """Athletics at Difficulty 6: the footing roll and the push through bad ground.

    rules/000 "Bad Ground"; rules/001 "Terrain and Footing": a failed footing roll leaves you
    Prone; a failed push through pays the ground's full cost.

    Parameters
    ----------
    element : int
        The Element argued for Athletics (Earth by default), 0..10.
    tier : int
        Athletics training tier 0..4.
    advantage : int
        Net situational Advantage sources.
    """
    return check_odds(element, 6, tier, advantage)


def distracted_odds(atropos: int, difficulty: int, advantage: int = 0) -> Odds:
    """The roll to hold a Slow action together: Atropos + Difficulty (rules/004 "Conditions").

    A failure drops the action to a Normal one that loses its empowerment
    (``DISTRACTED_FALLBACK``; rules/001 "Empowered Actions"); outside a Slow action a failure
    puts the roll that was hit at Disadvantage (rules/002 "What Is Distracted?").

    Parameters
    ----------
    atropos : int
        0..10.
    difficulty : int
        0..10, set by the GM.
    advantage : int
        Net Advantage sources.
    """
    atropos = require_int("atropos", atropos, 0, 10)
    difficulty = require_int("difficulty", difficulty, 0, 10)
    return roll_odds(atropos + difficulty, require_int("advantage", advantage))


def shake_off_flustered_odds(presence: int, difficulty: int, advantage: int = 0) -> Odds:
    """Variant 002: an action rolling Presence + Difficulty ends Flustered early.

    rules/002 "What Happens to My Poise?": "You can spend an action to roll Presence against a
    Difficulty to shake it off early - succeed, and the condition ends right there." Default
    (rules/000): Flustered lasts until the Scene ends; the Ruleset switch
    ``flustered_shaken_off`` turns this roll on.

    Parameters
    ----------
    presence : int
        0..10.
    difficulty : int
        0..10, set by the GM.
    advantage : int
        Net Advantage sources (Flustered itself is a Disadvantage on Social rolls).
    """
    presence = require_int("presence", presence, 0, 10)
    difficulty = require_int("difficulty", difficulty, 0, 10)
    return roll_odds(presence + difficulty, require_int("advantage", advantage))


def distracted_fallback(action: str) -> str | None:
    """What an action becomes when Distracted breaks it: the plain version, or None.

    Actions that aren't empowered are unchanged (rules/001 "Empowered Actions").
    """
    action = require_choice("action", action, tuple(ACTIONS))
    return DISTRACTED_FALLBACK.get(action, action)


@dataclass(frozen=True)
class EnduranceOdds:
    """Exhausted levels after an endurance run (``endurance_odds``).

    Attributes
    ----------
    levels : tuple of Fraction
        P(Exhausted level = 0..5 at the end), exact.
    by_period : tuple of tuple of float
        The same distribution after each period (row ``k`` after ``k + 1`` periods).
    free : int
        Periods before the first roll.
    difficulties : tuple of int
        The Difficulty of each roll made, in order.
    """

    levels: tuple[Fraction, ...]
    by_period: tuple[tuple[float, ...], ...]
    free: int
    difficulties: tuple[int, ...]

    @property
    def p_out(self) -> float:
        """P(Exhausted 5): out cold, or under the water."""
        return float(self.levels[MAX_EXHAUSTED])

    @property
    def expected_level(self) -> float:
        """Mean Exhausted level at the end."""
        return float(sum(k * p for k, p in enumerate(self.levels)))


def endurance_odds(
    element: int,
    start_difficulty: int,
    free: int,
    periods: int,
    *,
    exhausted: int = 0,
    advantage: int = 0,
    physical: bool = True,
) -> EnduranceOdds:
    """Exact Exhausted levels from an endurance rule (Sprint, swimming, forced march).

    rules/000 and 001: "your Stamina in Rounds for free, then a roll of Water plus Difficulty
    every Round, starting at 6 and getting harder, with a level of Exhausted for each failure";
    swimming starts at 8 (calm) or 6 (rough), a forced march at 7, "one step harder every roll".
    Exhausted 5 ends the run (out cold, or under). Each level changes the next roll: Exhausted 1
    puts Physical rolls at Disadvantage, 2 every roll (rules/004 "Conditions").

    Parameters
    ----------
    element : int
        The Element rolled (Water), 0..10.
    start_difficulty : int
        Difficulty of the first roll, 0..10; each roll after is 1 harder, down to 0.
    free : int
        Periods before the first roll (Stamina), 0..100.
    periods : int
        Periods in all, 0..200.
    exhausted : int
        Exhausted level at the start, 0..5.
    advantage : int
        Net situational Advantage sources on every roll.
    physical : bool
        Whether the roll is Physical (a Sprint is): Exhausted 1 then puts it at Disadvantage.

    Returns
    -------
    EnduranceOdds
    """
    element = require_int("element", element, 0, 10)
    start = require_int("start_difficulty", start_difficulty, 0, 10)
    free = require_int("free", free, 0, 100)
    periods = require_int("periods", periods, 0, 200)
    level0 = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    advantage = require_int("advantage", advantage)
    physical = require_bool("physical", physical)
    dist = [Fraction(0)] * (MAX_EXHAUSTED + 1)
    dist[level0] = Fraction(1)
    rows: list[tuple[float, ...]] = []
    difficulties: list[int] = []
    for period in range(periods):
        if period >= free:
            difficulty = max(0, start - (period - free))
            difficulties.append(difficulty)
            new = [Fraction(0)] * (MAX_EXHAUSTED + 1)
            new[MAX_EXHAUSTED] = dist[MAX_EXHAUSTED]
            for level in range(MAX_EXHAUSTED):
                if not dist[level]:
                    continue
                tired = level >= (1 if physical else 2)
                p = check_odds(element, difficulty, 1, advantage - tired).exact("success")
                new[level] += dist[level] * p
                new[level + 1] += dist[level] * (1 - p)
            dist = new
        rows.append(tuple(float(p) for p in dist))
    return EnduranceOdds(tuple(dist), tuple(rows), free, tuple(difficulties))


#: The Difficulty of a Sprint's first endurance roll after its free rounds (rules/000 line 485).
SPRINT_DIFFICULTY = 6


def sprint_difficulty(stamina: int, run: int) -> int | None:
    """The Difficulty of the endurance roll of round ``run`` of a Sprint, or None when free.

    rules/000 line 485, rules/001 "Chases" line 116: Stamina rounds are free, then each round
    rolls Water + Difficulty, from 6 and one harder a round, down to 0 (the table's Sprint in a
    round and in a chase both read it here).

    Parameters
    ----------
    stamina : int
        The sprinter's Stamina, 0..10 (its free rounds).
    run : int
        Which round of the run this is, from 1.
    """
    stamina = require_int("stamina", stamina, 0, 10)
    run = require_int("run", run, 1, 1_000_000)
    if run <= stamina:
        return None
    return max(0, SPRINT_DIFFICULTY - (run - stamina - 1))


def sprint_exhaustion_odds(
    stamina: int, water: int, rounds_sprinted: int, *, exhausted: int = 0, advantage: int = 0
) -> EnduranceOdds:
    """Exhausted levels after Sprinting ``rounds_sprinted`` rounds (rules/000, 001 "Chases").

    Stamina rounds free, then Water + Difficulty each round, starting at 6 and dropping by 1,
    a level of Exhausted per failure (``endurance_odds`` with a Physical roll).
    """
    return endurance_odds(
        water,
        SPRINT_DIFFICULTY,
        require_int("stamina", stamina, 0, 10),
        rounds_sprinted,
        exhausted=exhausted,
        advantage=advantage,
    )
