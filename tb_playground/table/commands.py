"""Commands: what a person asks the table to do, checked, and turned into events.

Every command is declared once, in the rule module that holds its rule (``COMMANDS``: its
handler, its fields, its log words; ``command_record.Command``); this module only collects
them. ``decide(state, command, role, seat, roll)`` returns the events a command makes and never
changes ``state``; a bad command raises ``ValueError``, a role or seat that may not send it
``PermissionError``. Rule: RULES.md, Combat round and Vitals. Roles, commands and readings:
docs/notes/0008-table.md; adding a command: ARCHITECTURE.md.
"""

from __future__ import annotations

from tb_playground.engine import ATTACK_KINDS, take_attack

from . import (
    armor_at_table,
    attack_options,
    attack_steps,
    chase_phase,
    distracted,
    fate_commands,
    fight_end,
    gifts,
    grab,
    help_action,
    movement,
    recovery,
    round_actions,
    round_flow,
    scars,
    skill_rolls,
    table_edits,
)
from . import command_tools as tools
from .command_record import Command, Event, Roller, Words
from .state_types import TableState

#: Who may send commands.
ROLES = ("gm", "player", "spectator")

#: The rule modules that declare commands, in the order the command list shows them.
RULE_MODULES = (
    round_flow,
    attack_steps,
    movement,
    round_actions,
    grab,
    skill_rolls,
    recovery,
    table_edits,
    help_action,
    attack_options,
    armor_at_table,
    gifts,
    scars,
    distracted,
    fate_commands,
    fight_end,
    chase_phase,
)


def collect(modules) -> dict[str, Command]:
    """Every command the ``modules`` declare, by name; two homes for one name are refused."""
    found: dict[str, Command] = {}
    for module in modules:
        for command in module.COMMANDS:
            if command.name in found:
                raise RuntimeError(f"the command '{command.name}' is declared twice")
            found[command.name] = command
    return found


def event_words(registry: dict[str, Command]) -> dict[str, Words]:
    """Each event type's log words, from the one command that declares them."""
    found: dict[str, Words] = {}
    for command in registry.values():
        for kind, words in command.words.items():
            if kind in found:
                raise RuntimeError(f"the words of the event '{kind}' are declared twice")
            found[kind] = words
    return found


#: Every command, declared in its rule module.
REGISTRY = collect(RULE_MODULES)

#: The handler of each command.
HANDLERS = {name: command.handler for name, command in REGISTRY.items()}

#: The fields each command may carry besides "type" (issue 19, issue 21): ``decide`` refuses
#: every other field by name.
FIELDS: dict[str, tuple[str, ...]] = {name: c.fields for name, c in REGISTRY.items()}

#: Each event type's log words (``table_log``).
EVENT_WORDS = event_words(REGISTRY)

#: What an undo or redo line calls an event it names ("an attack").
EVENT_CALLED = {kind: what for c in REGISTRY.values() for kind, what in c.called.items()}

#: Every command type, "undo" and "redo" included (the table handles those two itself).
COMMANDS = (*HANDLERS, "undo", "redo")


def check_sender(state: dict, role: object, seat: object) -> None:
    """Refuse an unknown role, or a player seat that is not a character at this table."""
    if not isinstance(role, str) or role not in ROLES:
        shown = repr(role)[:40] if isinstance(role, str) else f"a {type(role).__name__}"
        raise ValueError(f"role must be one of {', '.join(ROLES)}, got {shown}")
    if role == "player":
        c = state["combatants"].get(seat) if isinstance(seat, str) else None
        if c is None or c["kind"] != "character":
            raise PermissionError("a player's seat must be a character at this table")
    elif seat is not None:
        shown = repr(seat)[:40] if isinstance(seat, str) else f"a {type(seat).__name__}"
        raise ValueError(f"seat is only given with the player role, got {shown}")


def decide(
    state: TableState, command: object, role: str, seat: str | None, roll: Roller
) -> list[Event]:
    """The events ``command`` makes, or an error; ``state`` is not changed.

    Checked in this order before the handler reads anything: the shape (plain, small data),
    the type, the fields (``FIELDS``: any other is refused by name), their kinds (ids, texts,
    whole numbers, true or false), then the sender (a spectator sends nothing).

    Parameters
    ----------
    state : dict
        The table's current state.
    command : dict
        A plain dict with a "type" from ``COMMANDS`` (not "undo" or "redo").
    role, seat : str
        The sender.
    roll : callable
        ``roll(n)`` returns n d10 faces from the table's generator.

    Returns
    -------
    list of (type, data, changes)
    """
    tools.check_shape(command)  # plain, small data before any field is read
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in HANDLERS:
        raise ValueError(f"type must be one of {', '.join(COMMANDS)}, got {kind!r}")
    tools.check_fields(command, FIELDS[kind])  # a field it does not take: refused first
    tools.check_kinds(command)  # text, whole numbers, true or false: before any use
    if role == "spectator":
        raise PermissionError("a spectator only watches the table")
    if role != "gm":  # a hidden one's id reads as unknown to a player (issue 33, item 8)
        tools.refuse_hidden_as_unknown(state, command, HANDLERS[kind], role, seat, roll)
    events = scars.with_scars(state, HANDLERS[kind](state, command, role, seat, roll), kind)
    return events + fight_end.over_events(state, events)


__all__ = [
    "ATTACK_KINDS",
    "COMMANDS",
    "EVENT_WORDS",
    "FIELDS",
    "REGISTRY",
    "ROLES",
    "check_sender",
    "decide",
    "take_attack",
]
