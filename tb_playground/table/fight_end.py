"""The end of a fight: when one side has no one able to act, the table says so and waits.

Rule: RULES.md, "Where two texts disagree (decided)". ``over_events`` is asked after every
command; "continue" and "end_scene" are the GM's ways on; ``summary`` reads the log.
Readings: docs/notes/0015-table-rules.md, "The end of a fight".
"""

from __future__ import annotations

import copy

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Event, Reader
from .state import apply_changes, undone_commands

#: The phases of a fight under way (a fight over is in the "over" phase).
FIGHTING = ("declare", "resolve")

#: The tracks a summary counts.
VITALS = ("health", "poise", "sanity")


def able(c: dict) -> bool:
    """Able to act: up, conscious, not Exhausted 5, not out, not Shattered and unled."""
    return fight_rules.can_act(c) and not fight_rules.shattered_alone(c)


def sides_able(state: dict) -> dict[str, bool]:
    """Each side with someone at the table, and whether anyone on it can act."""
    out: dict[str, bool] = {}
    for cid in state["ids"]:
        c = state["combatants"][cid]
        out[c["side"]] = out.get(c["side"], False) or able(c)
    return out


def is_over(state: dict) -> bool:
    """Two sides or more, and at most one of them with anyone able to act (in a fight)."""
    if state["phase"] not in FIGHTING:
        return False
    sides = sides_able(state)
    return len(sides) >= 2 and sum(sides.values()) <= 1


def _after(state: dict, events: list[Event]) -> dict:
    """The state after ``events``, copying only what their changes touch."""
    new = dict(state)
    new["combatants"] = dict(state["combatants"])
    for _kind, _data, changes in events:
        for path, _value in changes:
            if path[0] == "combatants" and len(path) > 2:
                cid = path[1]
                if cid in state["combatants"] and new["combatants"][cid] is state["combatants"].get(
                    cid
                ):
                    new["combatants"][cid] = copy.deepcopy(state["combatants"][cid])
            elif len(path) > 1 and path[0] != "combatants" and new[path[0]] is state[path[0]]:
                new[path[0]] = copy.deepcopy(state[path[0]])
    for _kind, _data, changes in events:
        apply_changes(new, changes)
    return new


def over_events(state: dict, events: list[Event]) -> list[Event]:
    """A "fight_over" event when ``events`` leave one side with no one able to act.

    Only on the change: a fight the GM continued is not ended again until it has two sides
    able to act and loses one again.
    """
    if not events or state["phase"] == "over":
        return []
    after = _after(state, events)
    if not is_over(after) or is_over(state):
        return []
    sides = sides_able(after)
    standing = [side for side, ok in sides.items() if ok]
    winner = standing[0] if standing else None
    over = {"winner": winner, "phase": after["phase"], "round": after["round"]}
    changes = [[["phase"], "over"], [["over"], over]]
    return [("fight_over", {"winner": winner, "sides": sides}, changes)]


def continue_fight(state, command, role, seat, roll) -> list[Event]:
    """The GM goes on with a fight that is over (the phase it was in comes back)."""
    tools.gm_only(role, "continue the fight")
    tools.in_phase(state, "over")
    back = state["over"]["phase"]
    return [("fight_continued", {"phase": back}, [[["phase"], back], [["over"], None]])]


def end_scene(state, command, role, seat, roll) -> list[Event]:
    """The end of a Scene (``fight_rules.rest_events``); a fight, over or not, closes with it."""
    tools.gm_only(role, "call a rest or the end of a Scene")
    if state["phase"] == "chase":
        raise ValueError("type: a chase is under way; end the chase before the Scene ends")
    events = fight_rules.rest_events(state, "end_scene")
    if state["phase"] not in ("over", "declare", "resolve"):
        return events
    # The Scene ends the fight with it, whether it was over or still going (issue 32 item 8):
    # Flustered "until the Scene ends" (000) lifts only when the fight stops too.
    changes = [
        [["phase"], "setup"],
        [["over"], None],
        [["up"], None],
        [["order"], []],
        [["pending"], None],
    ]
    for cid in state["ids"]:
        changes += fight_rules.round_cleared(cid, {})
    return [*events, ("fight_closed", {"round": state["round"]}, changes)]


def _over(r: Reader, d: dict) -> str:
    winner = d["winner"]
    if winner is None or not any(
        c["side"] == winner and r.visible(c["id"]) for c in r.state["combatants"].values()
    ):
        return "The fight is over: no side is left able to act."
    return f"The fight is over: {winner} win."


COMMANDS = (
    Command(
        "continue",
        continue_fight,
        words={
            "fight_over": _over,  # made by ``over_events`` after the command that ends it
            "fight_continued": lambda r, d: "The GM goes on with the fight.",
        },
    ),
    Command(
        "end_scene",
        end_scene,
        words={
            "end scene": lambda r, d: "The Scene ends.",
            "fight_closed": lambda r, d: "The fight ends with the Scene.",
        },
    ),
)


# -- the summary -------------------------------------------------------------------------------


def _blank() -> dict:
    return {
        "dealt": dict.fromkeys(VITALS, 0),
        "took": dict.fromkeys(VITALS, 0),
        "spent": {"ki": 0, "fate": 0},
    }


def tally(events: list[dict]) -> dict[str, dict]:
    """What each combatant dealt, took (levels per track) and spent (Ki, Fate) in the fight.

    From the last "started" event in force to the end of ``events``; undone commands are
    skipped. Dealt and took come from "attack_resolved" (a Sanity level lost at the bottom of
    Poise counts as dealt by the attacker); Ki and Fate spent are every drop of the two values
    in the changes, less the Ki a re-declaration refunds.
    """
    skip = undone_commands(events)
    live = [e for e in events if e["cmd"] not in skip]
    start = max((i for i, e in enumerate(live) if e["type"] == "started"), default=None)
    if start is None:
        return {}
    value: dict[tuple[str, str], int] = {}
    for r in live[0]["data"]["combatants"]:
        value[r["id"], "ki"], value[r["id"], "fate"] = r["ki"], r["fate"]
    out: dict[str, dict] = {}
    for i, e in enumerate(live):
        counting = i > start
        d = e["data"]
        if counting and e["type"] == "attack_resolved":
            hit = (d["vital"], d["taken"]), ("sanity", d.get("sanity_lost", 0))
            for vital, n in hit:
                out.setdefault(d["attacker"], _blank())["dealt"][vital] += n
                out.setdefault(d["target"], _blank())["took"][vital] += n
        for path, new in e["changes"]:
            if path[0] != "combatants":
                continue
            if len(path) == 2 and isinstance(new, dict):
                value[path[1], "ki"], value[path[1], "fate"] = new["ki"], new["fate"]
            elif len(path) == 3 and path[2] in ("ki", "fate"):
                old = value.get((path[1], path[2]), new)
                value[path[1], path[2]] = new
                drop = old - new
                if counting and (drop > 0 or e["type"] == "declared"):
                    out.setdefault(path[1], _blank())["spent"][path[2]] += drop
    return out


def summary(state: dict, events: list[dict], numbers_for) -> list[dict]:
    """One row per combatant in table order: dealt, took, spent (``tally``).

    ``numbers_for(c)`` says whether this viewer may see ``c``'s numbers; the rows of those
    they may not see carry None for the three. The caller leaves out hidden combatants.
    """
    counts = tally(events)
    rows = []
    for cid in state["ids"]:
        c = state["combatants"][cid]
        row = {"id": cid, "name": c["name"], "side": c["side"], "able": able(c)}
        mine = counts.get(cid, _blank())
        shown = numbers_for(c)
        for key in ("dealt", "took", "spent"):
            row[key] = dict(mine[key]) if shown else None
        rows.append(row)
    return rows
