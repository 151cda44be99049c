"""The table's state as a pure fold of its append-only event log.

Each event's ``changes`` (``[path, value]`` pairs) were worked out by its command, so folding is
plain assignment, the same on every replay; undo and redo are events too (a stack). The event
shape and the undo rule: docs/notes/0008-table.md.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING

from tb_playground.engine.conditions import CONDITION_RULES

from .privacy import FOE_ODDS_DEFAULT

if TYPE_CHECKING:
    from .state_types import Combatant, TableState


def combatant_path(cid: str, *keys: str) -> list:
    """The state path of a combatant's value: ``["combatants", cid, *keys]``."""
    return ["combatants", cid, *keys]


#: How the table keeps each of the engine's durations (``CONDITION_RULES``); the others
#: ("while the track is there", "until an action ends it", ...) are lifted by hand or by rules.
UNTIL_OF_DURATION = {
    "round": "round",
    "end of owner's next turn": "next_turn_end",
    "scene": "scene",
    "until a rest": "rest",
}

#: Each condition's usual duration, from the engine's one list (rules/004 "Conditions").
DEFAULT_UNTIL = {
    name: UNTIL_OF_DURATION.get(rule.duration, "manual") for name, rule in CONDITION_RULES.items()
}

#: Phases of a fight (RULES.md, Combat round).
PHASES = ("setup", "declare", "resolve", "over", "chase")

#: Action Brackets, fastest first (rules/000 "Action Brackets").
BRACKETS = ("fast", "normal", "slow")

#: Events that cannot be undone (they are not moves in the game).
NOT_UNDOABLE = frozenset({"created", "undone", "redone", "note", "code_rotated"})


def combatant_state(record: dict) -> Combatant:
    """A combatant's live state from its plain record: as set up, nothing rolled yet."""
    c = copy.deepcopy(record)
    c.setdefault("gifts", [])  # a record stored before issue 19 has no Gifts or scars
    c.setdefault("scars", [])
    # A file's condition lasts as the condition does (issue 32 item 3): Surprised lapses with
    # the first round (rules/002 line 176, rules/004 line 122), Flustered with the Scene.
    c["conditions"] = {
        name: {"until": DEFAULT_UNTIL.get(name, "manual"), "since": 0, "own_turn": False}
        for name in record.get("conditions", [])
    }
    c.update(
        initiative=None,
        bracket=None,
        bumps=0,
        band=None,
        actions=[],
        metres=0,
        acted=False,
        hidden=bool(record.get("hidden", False)),
        out=False,
        carried={},
        short_rest_taken=False,
    )
    return c


def initial_state(data: dict) -> TableState:
    """The state a "created" event starts: the combatants as set up, nothing rolled yet."""
    combatants = {r["id"]: combatant_state(r) for r in data["combatants"]}
    return {
        "name": data["name"],
        "version": 0,
        "round": 0,
        "phase": "setup",
        "up": None,
        "order": [],
        "initiative_order": [],
        "ids": [r["id"] for r in data["combatants"]],
        "sides": list(data["sides"]),
        "party_side": data["sides"][0] if data["sides"] else "Party",
        "ruleset": dict(data["ruleset"]),
        "share_foes": False,
        "foe_odds": FOE_ODDS_DEFAULT,
        "seed": data["seed"],
        "join_code": data["join_code"],
        "pending": None,
        "combatants": combatants,
        "ranges": {},
        "distances": {},
        "chase": None,
    }


def apply_changes(state: dict, changes: Iterable) -> None:
    """Set each ``[path, value]`` of ``changes`` in ``state`` (in place)."""
    for path, value in changes:
        node = state
        for key in path[:-1]:
            node = node[key]
        last = path[-1]
        if value is None and isinstance(node, dict) and path[-2:-1] == ["conditions"]:
            node.pop(last, None)
        else:
            node[last] = copy.deepcopy(value) if isinstance(value, (dict, list)) else value


def undone_commands(events: Iterable[dict]) -> set[int]:
    """The command numbers undone at the end of ``events`` (undo / redo pairs cancel)."""
    undone: set[int] = set()
    for event in events:
        if event["type"] == "undone":
            undone.add(event["data"]["command"])
        elif event["type"] == "redone":
            undone.discard(event["data"]["command"])
    return undone


def fold(events: list[dict]) -> TableState:
    """The state after ``events`` (the whole log, from its "created" event)."""
    if not events or events[0]["type"] != "created":
        raise ValueError("a table's log starts with its 'created' event")
    skip = undone_commands(events)
    state = initial_state(events[0]["data"])
    for event in events[1:]:
        if event["cmd"] not in skip:
            apply_changes(state, event["changes"])
    state["version"] = len(events)
    return state


def step(state: dict, event: dict) -> None:
    """Fold one new event into ``state`` in place (no undo or redo: those refold)."""
    apply_changes(state, event["changes"])
    state["version"] = event["seq"]


def undo_step(in_force: list[int], redo: list[int], event: dict) -> None:
    """Update the undo and redo stacks (``undo_stack``) with one more event, in place."""
    kind, cmd = event["type"], event["cmd"]
    if kind == "undone":
        target = event["data"]["command"]
        if target in in_force:
            in_force.remove(target)
        redo.append(target)
    elif kind == "redone":
        target = event["data"]["command"]
        if target in redo:
            redo.remove(target)
        in_force.append(target)
    elif kind not in NOT_UNDOABLE and (not in_force or in_force[-1] != cmd):
        in_force.append(cmd)
        redo.clear()


def undo_stack(events: list[dict]) -> tuple[list[int], list[int]]:
    """(commands that can be undone, newest last; commands that can be redone, newest last).

    A command can be undone when it is in force; redone when it was undone and nothing but
    undo, redo or a note came after that undo.
    """
    in_force: list[int] = []
    redo: list[int] = []
    for event in events:
        undo_step(in_force, redo, event)
    return in_force, redo
