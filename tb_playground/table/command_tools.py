"""Small tools the action commands share: fields, senders, turns, dice, plain-words refusals.

The actions of the round (``round_actions``, ``grab``, ``skill_rolls``, ``movement``,
``chase_phase``) check their commands here the same way: an unknown field is refused by name,
a refused action says in plain words which rule refuses it and what to do instead (RULES.md
"Combat round"; rules/000 "Action Brackets"; rules/001 "Actions"). Readings:
docs/notes/0015-table-rules.md "Actions of the round".
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Iterable

import numpy as np

from tb_playground.engine import ACTIONS, roll_modifiers
from tb_playground.engine.core_roll import roll_odds, tier_rules
from tb_playground.engine.roll_reading import (
    RollReading,
    dice_needed,
    read_core_roll,
    read_faces,
)
from tb_playground.engine.validation import require_int

from . import fight_rules
from .command_record import Roller
from .state import combatant_path

#: Fields every command may carry (the table reads "type"; "faces" is typed dice).
COMMON_FIELDS = ("type",)

_BRACKET_WORDS = {"fast": "Fast", "normal": "Normal", "slow": "Slow"}
_COUNT_WORDS = {1: "one action", 2: "two actions"}


#: Longest note or label a person may type.
MAX_TEXT = 500


def text(command: dict, field: str, required: bool = True) -> str:
    """A typed text field (a note, a label): trimmed, at most ``MAX_TEXT`` characters."""
    value = command.get(field, "" if not required else None)
    if not isinstance(value, str) or (required and not value.strip()):
        raise ValueError(f"{field} must be text (1..{MAX_TEXT} characters), got {value!r}")
    if len(value) > MAX_TEXT:
        raise ValueError(f"{field} must be at most {MAX_TEXT} characters, got {len(value)}")
    return value.strip()


def in_phase(state: dict, *phases: str) -> None:
    """The table must be in one of ``phases`` for this command."""
    if state["phase"] not in phases:
        raise ValueError(
            f"type: this command belongs to the {' or '.join(phases)} phase; "
            f"the table is in the {state['phase']} phase"
        )


#: Fields a command may not carry, with the reason (others: "the table does not know it").
NOT_FIELDS = {
    "reach": "the attack's reach comes from its file (its weapon, Gift or card), never from "
    "the command (RULES.md 'Where two texts disagree')",
}


def check_fields(command: dict, allowed: Iterable[str]) -> None:
    """Refuse a field the command does not take, naming it in plain words."""
    allowed = (*COMMON_FIELDS, *allowed)
    for key in command:
        if key not in allowed:
            takes = ", ".join(a for a in allowed if a != "type") or "no other field"
            why = NOT_FIELDS.get(
                key,
                f'the table does not know the field "{key}" for a {command.get("type")} '
                "command, so it did nothing",
            )
            raise ValueError(f"{key}: {why}. This command takes: {takes}.")


#: Bounds on a command's shape, checked before any field is read (issue 21): how deep its
#: lists and mappings nest (the command itself is level 1), how many items a list or mapping
#: holds, how long a text is, how large a whole number is, and how big the whole command is.
MAX_DEPTH = 4
MAX_ITEMS = 100
MAX_CHARS = 500
MAX_NUMBER = 10**9
MAX_SIZE = 64_000

#: Fields that carry a whole file (checked by ``models.files``, which bounds its own nesting
#: and texts): only the whole command's size bounds them here.
FILE_FIELDS = ("document",)


def check_shape(command: object) -> None:
    """Refuse a command that is not plain, small data, naming the field, before any use.

    A command is a dict of text keys whose values are text, whole or finite numbers, true or
    false, nothing, or lists and dicts of them, nested at most ``MAX_DEPTH`` deep, each list
    at most ``MAX_ITEMS`` long, each text at most ``MAX_CHARS`` characters, each number below
    ``MAX_NUMBER``, the whole at most ``MAX_SIZE`` characters as JSON (about). The walk is
    iterative and stops at the first problem, so a huge or deep value costs little.
    """
    if not isinstance(command, dict):
        raise ValueError(f"command must be a dict with a 'type', got a {_kind(command)}")
    for key in command:
        if not isinstance(key, str) or len(key) > MAX_CHARS:
            shown = repr(key) if isinstance(key, str) else f"a {_kind(key)}"
            raise ValueError(f"command: each field's name must be short text, got {shown[:60]}")
    size = 0
    todo = [(key, value, 2, key in FILE_FIELDS) for key, value in command.items()]
    while todo:
        where, value, depth, whole_file = todo.pop()
        size += 8
        if isinstance(value, str):
            size += len(value)
            if len(value) > MAX_CHARS and not whole_file:
                raise ValueError(
                    f"{where}: text of at most {MAX_CHARS} characters, got {len(value):,}"
                )
        elif value is None or isinstance(value, bool | np.bool_):
            pass
        elif isinstance(value, numbers.Real):
            if not -MAX_NUMBER < value < MAX_NUMBER:  # also refuses nan and infinity
                raise ValueError(f"{where}: a number between -{MAX_NUMBER:,} and {MAX_NUMBER:,}")
        elif isinstance(value, list | dict):
            if depth > MAX_DEPTH and not whole_file:
                raise ValueError(
                    f"{where}: nested too deep (a command nests lists and dicts at most "
                    f"{MAX_DEPTH} levels)"
                )
            if len(value) > MAX_ITEMS and not whole_file:
                raise ValueError(f"{where}: at most {MAX_ITEMS} items, got {len(value):,}")
            if isinstance(value, list):
                todo.extend(
                    (f"{where}[{i}]", v, depth + 1, whole_file) for i, v in enumerate(value)
                )
                continue
            for key, v in value.items():
                if not isinstance(key, str) or len(key) > MAX_CHARS:
                    shown = repr(key) if isinstance(key, str) else f"a {_kind(key)}"
                    raise ValueError(f"{where}: keys must be short text, got {shown[:60]}")
                size += len(key)
                todo.append((f"{where}.{key}", v, depth + 1, whole_file))
        else:
            raise ValueError(
                f"{where}: text, a number, true or false, or a list, got a {_kind(value)}"
            )
        if size > MAX_SIZE:
            raise ValueError(f"command: at most about {MAX_SIZE:,} characters as JSON, got more")


#: The kind of value a field holds under every command that takes it, checked for all fields
#: before any handler reads one (issue 21); nothing (None) is "not given" and left to the
#: handler. Fields whose kind depends on the command ("faces", "initiative") are
#: checked by their handlers.
ID_FIELDS = frozenset(
    "a actor ally attacker b combatant leader pursuer quarry resister target".split()
)
#: Fields that name combatants as a list of ids, or one id outside ``ID_FIELDS`` (a move's way).
ID_LIST_FIELDS = frozenset("helpers members pursuers".split())
WAY_FIELDS = frozenset("toward away_from".split())
TEXT_FIELDS = frozenset(
    "action actor_skill approach band bracket condition cover element fact field ground how "
    "mode note option plausibility purpose reason reload resister_skill side skill spend text "
    "until zone".split()
)
WHOLE_FIELDS = frozenset(
    "attack bumps difficulty harder ki levels magnitude metres range scar static value".split()
)
BOOL_FIELDS = frozenset(
    "accept broken flaw_until_healed footing free gauntlets gear hidden lost off_hand on "
    "permanent sanity_ki surprise".split()
)


def check_kinds(command: dict) -> None:
    """Refuse a field whose value is not of its kind (text, a whole number, true or false).

    Run after ``check_shape`` and ``check_fields``, so every handler reads these fields as the
    kind it expects; the message names the field and the kind given, never the value.
    """
    for key, value in command.items():
        if value is None:
            continue
        if key in ID_FIELDS and not isinstance(value, str):
            raise ValueError(f"{key} must be the id of a combatant at this table, got {_a(value)}")
        if key in TEXT_FIELDS and not isinstance(value, str):
            raise ValueError(f"{key} must be text, got {_a(value)}")
        if key in WHOLE_FIELDS and (
            isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral)
        ):
            raise ValueError(f"{key} must be a whole number, got {_a(value)}")
        if key in BOOL_FIELDS and not isinstance(value, bool | np.bool_):
            raise ValueError(f"{key} must be True or False, got {_a(value)}")


def _a(value: object) -> str:
    """A value's kind in words ("a list"), never the value itself."""
    words = {str: "text", bool: "true or false", int: "a whole number", float: "a number"}
    words |= {list: "a list", dict: "a mapping"}
    return words.get(type(value), f"a {_kind(value)}")


def _kind(value: object) -> str:
    return type(value).__name__


def check_version(expected: object) -> None:
    """Refuse an ``expected_version`` that is not a whole number of events (or None)."""
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise ValueError(
            f"expected_version must be the table's version, a whole number, got a {_kind(expected)}"
        )
    if not 0 <= expected < 10**12:
        raise ValueError("expected_version must be the table's version, 0 or more")


def combatant(state: dict, command: dict, field: str = "combatant") -> dict:
    """The combatant a field names, or a refusal naming the field."""
    cid = command.get(field)
    if not isinstance(cid, str) or cid not in state["combatants"]:
        raise ValueError(f"{field} must be the id of a combatant at this table, got {cid!r}")
    return state["combatants"][cid]


def hidden_as_unknown(state: dict, command: dict) -> tuple[dict, dict[str, str]]:
    """``command`` with each hidden combatant's id replaced by an id no one at the table has.

    A player's command naming a hidden foe must be refused in the words an unknown id gets
    (issue 33, item 8: "stabilise" named the hidden creature, "end_turn" said "only for their
    own seat", where an unknown id says "must be the id of a combatant at this table"): the
    command is decided with ids nobody has, and the refusal's words get the ids sent back.

    Returns
    -------
    (dict, dict)
        The command to decide (``command`` itself when it names no hidden one) and each
        stand-in id -> the id it stands for (empty when none).
    """
    cs = state["combatants"]
    hidden = {cid for cid in state["ids"] if cs[cid]["hidden"]}
    if not hidden:
        return command, {}
    swaps: dict[str, str] = {}

    def unknown(cid: object) -> object:
        if not isinstance(cid, str) or cid not in hidden:
            return cid
        stand_in = next(
            f"not-at-this-table-{n}" for n in range(len(cs) + len(swaps) + 2)
            if f"not-at-this-table-{n}" not in cs and f"not-at-this-table-{n}" not in swaps
        )  # fmt: skip
        swaps[stand_in] = cid
        return stand_in

    masked = dict(command)
    for key, value in command.items():
        if key in ID_FIELDS or key in WAY_FIELDS:
            masked[key] = unknown(value)
        elif key in ID_LIST_FIELDS and isinstance(value, list):
            masked[key] = [unknown(v) for v in value]
    return (masked, swaps) if swaps else (command, {})


def refuse_hidden_as_unknown(
    state: dict, command: dict, handler: Callable, role: str, seat: str | None, roll: Roller
) -> None:
    """A player's command naming a hidden combatant: refused as if the id were unknown.

    Decided with stand-in ids no one has (``hidden_as_unknown``) by ``handler``; its refusal
    is raised with the ids the player sent back in its words. A command that an unknown id
    would not stop is refused as ``combatant`` refuses an unknown id.
    """
    masked, swaps = hidden_as_unknown(state, command)
    if not swaps:
        return
    try:
        handler(state, masked, role, seat, roll)
    except (ValueError, PermissionError) as err:
        text = str(err)
        for stand_in, cid in swaps.items():
            text = text.replace(stand_in, cid)
        err.args = (text,)
        raise
    for key, value in masked.items():  # the first field that named a hidden one
        named = value if isinstance(value, list) else [value]
        for v in named:
            if isinstance(v, str) and v in swaps:
                cid = swaps[v]
                raise ValueError(f"{key} must be the id of a combatant at this table, got {cid!r}")


def gm_only(role: str, what: str) -> None:
    """Only the GM may do ``what``."""
    if role != "gm":
        raise PermissionError(f"only the GM may {what}")


def own(role: str, seat: str | None, c: dict, what: str) -> None:
    """A player acts only for their own seat; the GM for anyone."""
    if role == "gm":
        return
    if role != "player" or seat != c["id"]:
        raise PermissionError(f"a player may {what} only for their own seat")


def in_fight(state: dict) -> bool:
    """Whether a fight is running (rules/000 "Combat": the round's budget applies)."""
    return state["phase"] in ("declare", "resolve")


def on_turn(state: dict, c: dict, what: str) -> None:
    """In a fight, ``c`` must be the one whose turn it is."""
    if state["phase"] != "resolve":
        raise ValueError(
            f"{c['name']} can {what} only on their turn, once the brackets are revealed "
            f'(rules/000 "Combat Order"). Wait for the reveal, then act on your turn.'
        )
    if state["up"] != c["id"]:
        up = state["combatants"][state["up"]]["name"] if state["up"] else "nobody"
        raise ValueError(
            f"It is {up}'s turn, not {c['name']}'s: everyone acts in the round's order "
            f'(rules/000 "Combat Order"). Wait for {c["name"]}\'s turn.'
        )


def plain_refusal(c: dict, key: str, problem: str) -> str:
    """The engine's budget problem for action ``key``, as a sentence a player understands.

    It names the rule (rules/000 "Action Brackets", rules/001 "Actions") and says what to do
    instead.
    """
    problem = problem.removeprefix("action: ")
    name = c["name"]
    label = ACTIONS[key].label
    bracket = c["bracket"] or "normal"
    words = _BRACKET_WORDS[bracket]
    if "round holds" in problem:
        held = _COUNT_WORDS.get(2 if bracket == "normal" else 1)
        done = ", ".join(ACTIONS[a].label for a in c["actions"]) or "nothing"
        instead = (
            "End the turn; next round, declare Normal for two actions."
            if bracket != "normal"
            else "End the turn; a Normal round holds two actions and no more."
        )
        return (
            f"{name} cannot {label} now: a {words} round holds {held}, and {name} has used "
            f'it already ({done}). Rule: Action Brackets (rules/000 "Action Brackets"). {instead}'
        )
    if "empowered action" in problem:
        return (
            f"{name} cannot {label} in a {words} round: it is an empowered action, and only a "
            f'Slow round holds one (rules/000 "Action Brackets"). Declare Slow next round.'
        )
    if "needs a" in problem:
        return (
            f"{name} cannot {label} in a {words} round: {problem} "
            f'(rules/001 "Combat Actions"). Choose another action, or declare that bracket '
            "next round."
        )
    moved = re.match(r"Moves (\d+) m; this round allows (\d+) m", problem)
    if moved:
        return (
            f"{name} cannot move that far: the move would spend {moved[1]} metres, and this "
            f'{words} round allows {moved[2]} metres in all (rules/000 "Moving in a Round": '
            "Movement Rate 5 + Air; a Dash is twice it, a Sprint five times). Move less, or "
            "end the turn."
        )
    if "Distracted" in problem:
        return (
            f"{name}'s action was broken by Distracted: it dropped to a Normal one and lost its "
            f'empowerment (rules/001 "Empowered Actions"). Take a plain action instead.'
        )
    return (
        f'{name} cannot {label} now: {problem} (rules/000 "What an Action Buys You"; rules/001 '
        f'"Actions"). Choose another action, or end the turn.'
    )


#: ``c`` with the conditions it had before this round's actions (``fight_rules.start_of_round``).
start_of_round = fight_rules.start_of_round


def budget(state: dict, c: dict, key: str, metres: int = 0) -> list:
    """In a fight: refuse ``key`` if the round's budget has no room, else the change spending it.

    Outside a fight (setup) nothing is spent and nothing is refused.
    """
    if not in_fight(state):
        return []
    problem = fight_rules.next_action_problem(state, c, key, metres)
    if problem:
        raise ValueError(plain_refusal(c, key, problem))
    return fight_rules.spend_action(c, key)


def faces(command: dict, field: str, count: int, roll: Roller) -> tuple[list[int], str]:
    """The faces of a roll: typed from physical dice (``field``) or rolled by the table.

    Returns the faces and who threw them ("hand" or "table"); typed faces are checked by the
    engine's one reader (``read_faces``: their count, each 1..10, errors naming ``field``).
    """
    typed = command.get(field)
    if typed is None:
        return roll(count), "table"
    return list(read_faces(field, typed, count)), "hand"


def difficulty(command: dict, default: int = 5, field: str = "difficulty") -> int:
    """The GM's Difficulty, 0 Nearly Impossible .. 10 Trivial (rules/004)."""
    return require_int(field, command.get(field, default), 0, 10)


def refuse_roll(c: dict, mods) -> None:
    """A roll the roller's conditions forbid (engine ``roll_modifiers``), in plain words."""
    if not mods.allowed:
        raise ValueError(
            f'{c["name"]} cannot make this roll: {mods.reason} (rules/004 "Conditions"; '
            'rules/000 "Harm and Recovery"). Another character can act instead.'
        )


def tier_of(state: dict, tier: int):
    """The tier's rules under the table's Ruleset (002's ``advantage_from_expert`` switch)."""
    return tier_rules(tier, bool(state["ruleset"].get("advantage_from_expert")))


def modifiers(state: dict, c: dict, kind: str, tier: int = 0, leads: bool = False, **more):
    """The roller's named Advantage sources (their conditions, Exhausted, the tier's own)."""
    rule = tier_of(state, tier)
    return roll_modifiers(
        kind,
        conditions=fight_rules.states(c),
        exhausted=c["exhausted"],
        tier_advantage=rule.advantage_sources,
        leads=leads,
        **more,
    )


def odds(state: dict, target: int, advantage: int, tier: int):
    """The exact odds of one Core Roll at ``target`` with a tier's rules (engine ``roll_odds``)."""
    rule = tier_of(state, tier)
    return roll_odds(target, advantage, rule.crit_max, rule.reroll_catastrophe)


def read(
    state: dict, command: dict, field: str, target: int, advantage: int, tier: int, roll: Roller
) -> tuple[RollReading, str]:
    """Throw (or read typed) dice for one Core Roll at ``target`` with a tier's rules."""
    rule = tier_of(state, tier)
    count = dice_needed(advantage)
    thrown, by = faces(command, field, count, roll)
    again = None
    if rule.reroll_catastrophe:
        first = read_core_roll(thrown, target, advantage, rule.crit_max)
        if first.outcome == "catastrophe":
            again, _ = faces(command, f"{field.removesuffix('faces')}reroll_faces", count, roll)
    reading = read_core_roll(
        thrown, target, advantage, rule.crit_max, rule.reroll_catastrophe, again
    )
    return reading, by


def off_balance(state: dict, c: dict, reading: RollReading) -> list:
    """A kept 20 in a fight leaves the roller Off Balance (rules/000 line 31; rules/004)."""
    if reading.outcome != "catastrophe" or not in_fight(state):
        return []
    info = fight_rules.condition(
        "Off Balance", state["round"], "next_turn_end", own_turn=state["up"] == c["id"]
    )
    return [[combatant_path(c["id"], "conditions", "Off Balance"), info]]


def roll_record(c: dict, reading: RollReading, by: str, odds) -> dict:
    """What the log keeps of one roll: the reading and the exact odds it was made at."""
    data = fight_rules.roll_data(c, reading, by)
    data.update(
        advantage=reading_sign(odds.advantage),
        p_success=odds.p_success,
        p_critical=odds.p_critical,
        p_catastrophe=odds.p_catastrophe,
    )
    return data


def reading_sign(advantage: int) -> int:
    """-1, 0 or 1: only the sign of the sources counts (RULES.md, Core Roll)."""
    return (advantage > 0) - (advantage < 0)


def skill_of(c: dict, name: object) -> dict:
    """A character's Skill row (home Element, tier), or Untrained at the catalogue's home."""
    from tb_playground.models.skills import CATALOGUE_BY_NAME, SKILL_ROLL_KINDS

    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"skill must be the name of a Skill, got {name!r}")
    row = c.get("skills", {}).get(name)
    entry = CATALOGUE_BY_NAME.get(name)
    if row is None and entry is None:
        known = ", ".join(sorted(c.get("skills", {}))) or "none on this record"
        who = c["name"]
        raise ValueError(
            f'skill: The Skill "{name}" is neither on {who}\'s sheet nor a known Skill ({known})'
        )
    element = row["element"] if row else entry.home
    tier = row["tier"] if row else 0
    kind = SKILL_ROLL_KINDS.get(
        name, "physical" if element in ("Earth", "Air", "Water") else "social"
    )
    usable = entry is None or entry.usable_untrained
    return {
        "name": name,
        "element": element,
        "tier": tier,
        "kind": kind,
        "usable_untrained": usable,
    }


def opposed_winner(actor: RollReading, resister: RollReading, outrank: bool = False) -> str:
    """Who wins an opposed roll: "actor" or "resister" (rules/000 "Opposed Rolls", line 73).

    Only one succeeds: that one. Both succeed: further under their own TN (TN minus kept total,
    a critical included); a tie to the resister. Both fail: the resister. ``outrank`` is the
    Ruleset switch ``criticals_outrank`` (a critical beats any ordinary success).
    """
    if not actor.success:
        return "resister"
    if not resister.success:
        return "actor"
    lift = 10**6 if outrank else 0

    def key(r: RollReading) -> int:
        return r.target - r.total + (lift if r.outcome == "critical" else 0)

    return "actor" if key(actor) > key(resister) else "resister"
