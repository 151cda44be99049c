"""Winning back what a fight took: Ki spent on Poise or Sanity, shaking off Flustered, rests.

Rule: RULES.md "Vitals" (Ki restores Poise or Sanity) and "Rest"; rules/000 "Flustered"
(to the end of the Scene), rules/002 "Rolling Presence can end Flustered early" (a switch).
The rests' numbers are ``fight_rules.rest_events``'s; readings:
docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine.roll_reading import dice_needed, read_core_roll
from tb_playground.engine.validation import require_choice, require_int

from . import command_tools as tools
from . import fight_rules
from .attack_options import ROLL_OPTIONS, roll_options
from .command_record import Command, Event, Reader
from .log_words import dice_line
from .state import combatant_path

#: Phases in which a fight or a chase is under way: no rest then (issue 32 item 8).
FIGHTING = ("declare", "resolve", "chase")


def spend_ki(state, command, role, seat, roll) -> list[Event]:
    """Spend Ki to restore Poise or Sanity (RULES.md, Vitals)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "spend Ki")
    purpose = require_choice("purpose", command.get("purpose"), fight_rules.KI_PURPOSES)
    changes, text = fight_rules.ki_spend(state, c, purpose)
    return [("ki_spent", {"combatant": c["id"], "purpose": purpose, "effect": text}, changes)]


def shake_off(state, command, role, seat, roll) -> list[Event]:
    """Variant 002: an action rolling Presence + Difficulty ends Flustered early."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "shake off Flustered")
    if not state["ruleset"].get("flustered_shaken_off"):
        raise ValueError(
            "type: under this ruleset Flustered lasts to the end of the Scene (rules/000); "
            "the rules/002 switch 'Rolling Presence can end Flustered early' is off"
        )
    if "Flustered" not in c["conditions"]:
        raise ValueError(f"combatant: {c['name']} is not Flustered")
    changes: list = []
    if state["phase"] == "resolve":
        if state["up"] != c["id"]:
            raise ValueError(f"combatant: it is not {c['name']}'s turn")
        problem = fight_rules.next_action_problem(state, c, "skill")
        if problem:
            raise ValueError(problem)
        changes += fight_rules.spend_action(c, "skill")
    difficulty = require_int("difficulty", command.get("difficulty", 5), 0, 10)
    options = roll_options(state, c, command, role, None)  # issue 32, items 1 and 7
    distracted_now = fight_rules.distracted_states(c, None)
    mods = fight_rules.roll_advantage(c, "social", distracted_now, **options["modifiers"])
    faces, by = tools.faces(command, "faces", dice_needed(mods), roll)
    reading = read_core_roll(faces, c["wall"]["social"] + difficulty, mods)
    changes += fight_rules.distracted_spent(c) + options["changes"]
    if reading.outcome == "catastrophe" and state["phase"] in ("declare", "resolve"):
        changes += fight_rules.caught_in_catastrophe(state, options["record"]["helpers"])
    if reading.success:
        changes.append([combatant_path(c["id"], "conditions", "Flustered"), None])
    changes += fight_rules.off_balance_after(state, c, reading)  # a kept 20 (rules/000 line ~31)
    data = {**fight_rules.roll_data(c, reading, by), **options["record"]}
    return [("shake_off_rolled", data, changes)]


def rest(state, command, role, seat, roll) -> list[Event]:
    """GM: a short rest or a full night for everyone."""
    tools.gm_only(role, "call a rest or the end of a Scene")
    kind = command["type"]
    if state["phase"] in FIGHTING:
        what = (
            "a Short Rest, an hour of downtime (rules/000 line 295),"
            if kind == "short_rest"
            else "a Full Night's Rest (rules/000 line 296)"
        )
        raise ValueError(
            f"type: {what} can't be taken while the fight goes on; "
            "end the Scene first, or rest once the fight is over"
        )
    return fight_rules.rest_events(state, kind)


# -- the log's words ----------------------------------------------------------------------------


def _ki_spent(r: Reader, d: dict) -> str:
    if not r.numbers(d["combatant"]):
        return f"{r.name(d['combatant'])} spends Ki to {d['purpose']}."
    return f"{r.name(d['combatant'])} spends Ki to {d['purpose']}: {d['effect']}."


def _rested(r: Reader, d: dict, kind: str) -> str:
    fixed = " ".join(d.get("clamped", [])) if r.sees_all else ""  # the GM's numbers
    line = f"Everyone takes a {kind.capitalize()}." + (f" {fixed}" if fixed else "")
    flustered = r.shown(d.get("flustered", []))
    if flustered:  # the GM's call: did the night end the Scene? (rules/000 "Poise")
        line += (
            f" Still Flustered until the Scene ends: {flustered}. Did the night end the "
            "Scene? The GM ends it to clear Flustered, or it goes on."
        )
    return line


COMMANDS = (
    Command(
        "spend_ki",
        spend_ki,
        ("combatant", "purpose"),
        words={"ki_spent": _ki_spent},
        called={"ki_spent": "a Ki spend"},
    ),
    Command(
        "shake_off",
        shake_off,
        ("combatant", "difficulty", "faces", *ROLL_OPTIONS),
        words={"shake_off_rolled": lambda r, d: dice_line(r, d, "Presence to shake off Flustered")},
    ),
    Command("short_rest", rest, words={"short rest": lambda r, d: _rested(r, d, "short rest")}),
    Command("full_night", rest, words={"full night": lambda r, d: _rested(r, d, "full night")}),
)
