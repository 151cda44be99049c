"""The shapes of the table's state: the table, a combatant, a pending attack, a chase.

Plain dicts (the state is a fold of JSON events, ``state.fold``); these ``TypedDict``s say
which keys each holds and what they mean, for readers and type checkers.
``tests/table/test_state_types.py`` checks every state a whole fight goes through against
them. Rule: RULES.md "Combat round",
"Attacks", "Vitals"; the event log: docs/notes/0008-table.md.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Combatant(TypedDict):
    """One combatant at the table: its card's numbers (``combatant_record``) and its round."""

    id: str
    name: str
    side: str
    kind: str  # "character" or "creature"
    named: bool
    elements: dict  # Element -> score
    initiative_stat: int
    defense: dict  # kind of attack -> Defense
    wall: dict  # vital -> the wall damage dice must roll over
    boost: dict
    klotho: int
    atropos: int
    rest_stats: dict
    stamina: int
    max: dict  # vital -> its most
    now: dict  # vital -> its value now
    dead_at: int
    ki_pool: int
    ki: int
    fate: int
    fate_cap: int
    fate_counted: int
    fate_per_scene: int
    movement_rate: int
    exhausted: int
    conditions: dict  # name -> {"until", "since", "own_turn", ...}
    attacks: list
    armor: dict
    gifts: list
    scars: list
    document: NotRequired[dict]  # the file it came from (a character)
    potence: int | None
    skills: dict
    static_numbers: dict
    movement_modes: dict
    initiative: dict | None  # {"face", "total"} once rolled
    bracket: str | None  # declared this round
    bumps: int
    band: str | None  # its place in the round's order once revealed
    actions: list  # the round's actions taken
    metres: int  # moved this round
    acted: bool
    hidden: bool
    out: bool
    carried: dict  # what carries over inside a round (help, a Ready action, a lead)
    short_rest_taken: bool
    fate_claim: NotRequired[dict | None]  # a Fate Token claimed, for the GM to decide
    sprint_run: NotRequired[int]  # rounds of the Sprint run under way
    sprint_round: NotRequired[int]  # the round of its last Sprint


class PendingAttack(TypedDict):
    """The attack under way, step by step (``attack_steps``; ``attack_options.attack_pending``)."""

    attacker: str
    target: str
    attack: str
    index: int
    kind: str
    vital: str
    element: str | None
    score: int
    defense: int
    tn: int
    advantage: int
    sources: list
    empowered: str | None
    dropped: str | None
    notes: list
    leads: bool
    zone: str
    off_hand: bool
    helpers: list
    situational: list
    cover: str
    reach: str
    weapon_range: str
    distance: int | None
    armor: dict | None
    dice: int
    wall: int
    bonus: int
    klotho: int
    automatic: bool
    timing: str
    step: str  # "approach", "gift_check", "to_hit", "damage", "boost", "prevent"
    critical: bool
    boosts_before: int
    inputs: dict
    gift_check: NotRequired[dict]
    faces: NotRequired[list]
    boosted: NotRequired[list]
    automatic_levels: NotRequired[int]
    klotho_added: NotRequired[int]
    levels: NotRequired[int]
    would_take: NotRequired[int]
    opened: NotRequired[int]


class Chase(TypedDict):
    """A chase under way (``chase_phase``; rules/001 "Chases")."""

    quarry: str
    pursuers: list
    gaps: dict
    skill: str
    harder: int
    difficulty: int
    sight_m: int | None
    scores: dict
    round: int
    back: str
    moves: dict
    results: dict
    searching: dict
    lost: list
    sprints: dict


class TableState(TypedDict):
    """The whole table: ``state.initial_state`` folded with every event in force."""

    name: str
    version: int  # how many events the log holds
    round: int
    phase: str  # ``state.PHASES``
    up: str | None  # whose turn it is
    order: list  # the round's order once revealed
    initiative_order: list
    ids: list  # every combatant, in the order they joined
    sides: list
    party_side: str
    ruleset: dict
    share_foes: bool
    foe_odds: NotRequired[str]  # "exact", "words" or "none" (privacy.FOE_ODDS; issue 31)
    seed: int
    join_code: str
    pending: PendingAttack | None
    combatants: dict[str, Combatant]
    ranges: dict
    distances: dict
    chase: Chase | None
    options: NotRequired[dict]  # the table options the GM turned on
    over: NotRequired[dict | None]  # how the fight ended, while it is over
