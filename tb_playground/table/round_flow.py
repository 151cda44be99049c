"""The round's flow at the table: start the fight, declare brackets, reveal them, end a turn.

Rule: RULES.md "Combat round" (Initiative once, brackets declared each round and revealed
together, Fast before Normal before Slow); rules/000 "Action Brackets". Readings (bumps, a
bracket nobody declared defaults to Normal): docs/notes/0008-table.md.
"""

from __future__ import annotations

from tb_playground.engine.validation import require_choice, require_int

from . import command_tools as tools
from . import fight_rules, round_actions
from .command_record import Command, Event, Reader
from .state import BRACKETS, combatant_path


def start(state, command, role, seat, roll) -> list[Event]:
    """GM: roll Initiative (or take the typed d10s), mark the Surprised, declare."""
    tools.gm_only(role, "start the fight")
    tools.in_phase(state, "setup")
    surprised = command.get("surprised", [])
    if not isinstance(surprised, list) or any(
        not isinstance(s, str) or s not in state["combatants"] for s in surprised
    ):
        raise ValueError(f"surprised must be a list of combatant ids, got {surprised!r}")
    given = command.get("initiative", {})
    if not isinstance(given, dict) or any(k not in state["combatants"] for k in given):
        raise ValueError("initiative must map combatant ids to the d10 each rolled (1..10)")
    ids = state["ids"]
    rolled = roll(len(ids))
    faces = {
        cid: require_int(f"initiative[{cid}]", given[cid], 1, 10) if cid in given else rolled[i]
        for i, cid in enumerate(ids)
    }
    order = fight_rules.initiative_order(state, faces)
    changes = [[["phase"], "declare"], [["round"], 1], [["initiative_order"], order]]
    for cid in ids:
        total = faces[cid] + state["combatants"][cid]["initiative_stat"]
        changes.append([combatant_path(cid, "initiative"), {"face": faces[cid], "total": total}])
    for cid in surprised:
        changes.append(
            [combatant_path(cid, "conditions", "Surprised"), fight_rules.condition("Surprised", 1)]
        )
    data = {"order": order, "faces": faces, "surprised": surprised}
    return [("started", data, changes)]


def declare(state, command, role, seat, roll) -> list[Event]:
    """Declare a bracket (and bumps, paid in Ki); the last one to declare reveals them all."""
    tools.in_phase(state, "declare")
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "declare a bracket")
    if role != "gm" and c["kind"] != "character":
        raise PermissionError("only the GM declares for creatures")
    bracket = require_choice("bracket", command.get("bracket"), BRACKETS)
    bumps = require_int("bumps", command.get("bumps", 0), 0, 2)
    problem = fight_rules.declare_problem(c, bracket, bumps)
    if problem:
        raise ValueError(problem)
    refund = fight_rules.declare_cost(c, c["bumps"]) if c["bracket"] else 0
    cost = fight_rules.declare_cost(c, bumps)
    if cost > c["ki"] + refund:
        raise ValueError(f"bumps: {bumps} bump(s) cost {cost} Ki; {c['name']} has {c['ki']}")
    changes = [
        [combatant_path(c["id"], "bracket"), bracket],
        [combatant_path(c["id"], "bumps"), bumps],
        [combatant_path(c["id"], "ki"), c["ki"] + refund - cost],
    ]
    events = [("declared", {"combatant": c["id"], "bracket": bracket, "bumps": bumps}, changes)]
    waiting = [
        x
        for x in fight_rules.active(state)
        if x["id"] != c["id"] and x["bracket"] is None and fight_rules.can_act(x)
    ]
    if not waiting:
        events += reveal_events(state, {c["id"]: (bracket, bumps)})
    return events


def reveal_events(state: dict, also: dict | None = None) -> list[Event]:
    """The brackets revealed: the order of the round, who is up, defaults to Normal."""
    brackets = {
        x["id"]: (x["bracket"], x["bumps"]) for x in state["combatants"].values() if x["bracket"]
    }
    brackets.update(also or {})
    order, bands, defaulted = fight_rules.turn_order(state, brackets)
    changes = [[["phase"], "resolve"], [["order"], order], [["up"], order[0] if order else None]]
    for cid, band in bands.items():
        changes.append([combatant_path(cid, "band"), band])
    for cid in defaulted:
        changes.append([combatant_path(cid, "bracket"), "normal"])
    revealed = {cid: brackets.get(cid, ("normal", 0))[0] for cid in bands}
    data = {"brackets": revealed, "bands": bands, "order": order, "defaulted": defaulted}
    events = [("revealed", data, changes)]
    if not order:
        events += fight_rules.end_round_events(state)
    return events


def reveal(state, command, role, seat, roll) -> list[Event]:
    """GM: reveal the brackets now (whoever has not declared goes Normal)."""
    tools.gm_only(role, "reveal the brackets")
    tools.in_phase(state, "declare")
    return reveal_events(state)


def end_turn(state, command, role, seat, roll) -> list[Event]:
    """End the turn of whoever is up (a fired Ready action gives the turn back)."""
    tools.in_phase(state, "resolve")
    up = state["up"]
    c = state["combatants"][up]
    tools.own(role, seat, c, "end a turn")
    if state["pending"] is not None:
        raise ValueError("type: finish the attack under way before ending the turn")
    if c["carried"].get("resume"):  # a fired Ready action gives the turn back
        return round_actions.resume_events(state, c)
    return fight_rules.end_turn_events(state, up)


# -- the log's words ----------------------------------------------------------------------------


def _started(r: Reader, d: dict) -> str:
    return f"The fight starts. Initiative order: {r.shown(d['order'])}."


def _declared(r: Reader, d: dict) -> str:
    if r.sees_all or r.seat == d["combatant"]:  # another seat's bracket waits for the reveal
        bumps = f", bumped {d['bumps']}" if d["bumps"] else ""
        return f"{r.name(d['combatant'])} declared {d['bracket'].capitalize()}{bumps}."
    return f"{r.name(d['combatant'])} declared."


def _revealed(r: Reader, d: dict) -> str:
    parts = [f"{r.name(c)} {b.capitalize()}" for c, b in d["bands"].items() if r.visible(c)]
    return "Brackets revealed: " + "; ".join(parts) + "."


def _turn_ended(r: Reader, d: dict) -> str:
    nxt = d["next"]
    return f"{r.name(d['combatant'])} ends their turn." + (f" {r.name(nxt)} is up." if nxt else "")


def _round_ended(r: Reader, d: dict) -> str:
    return f"Round {d['round']} ends."


COMMANDS = (
    Command(
        "start",
        start,
        ("surprised", "initiative"),
        words={"started": _started},
    ),
    Command(
        "declare",
        declare,
        ("combatant", "bracket", "bumps"),
        words={"declared": _declared},
        called={"declared": "a declaration"},
    ),
    Command("reveal", reveal, words={"revealed": _revealed}, called={"revealed": "the reveal"}),
    Command(
        "end_turn",
        end_turn,
        words={"turn_ended": _turn_ended, "round_ended": _round_ended},
        called={"turn_ended": "the end of a turn", "round_ended": "the end of a round"},
    ),
)
