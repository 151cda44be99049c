"""The Distracted roll and leading a Shattered character: two conditions as written.

RULES.md "Where two texts disagree (decided)" (Distracted); rules/001 line ~131, rules/002
"What Is Distracted?", rules/004 "Conditions"; rules/000 "Sanity" (Shattered: "somebody else has
to lead you or drag you"). Readings: docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine.roll_reading import dice_needed, read_core_roll
from tb_playground.engine.validation import require_int

from . import command_tools as tools
from . import fight_rules
from .attack_options import ROLL_OPTIONS, label_sources, roll_options
from .command_record import Command, Event
from .log_words import dice_line
from .state import combatant_path


def distracted_roll(state, command, role, seat, roll) -> list[Event]:
    """Atropos + Difficulty to hold focus, with the roller's own conditions (RULES.md).

    The GM calls it any time (at the Difficulty sent, else the asked one, else 5); a player
    rolls it once for their own seat when asked, at the asked Difficulty. Held: the action
    goes ahead as declared. Failed: ``fight_rules.distracted_states`` says what it reaches. A kept
    20 in a fight leaves Off Balance (rules/000 line ~31).
    """
    c = tools.combatant(state, command)
    asked = fight_rules.distracted(c)
    if role == "gm":
        default = asked["difficulty"] if asked and "difficulty" in asked else 5
        difficulty = require_int("difficulty", command.get("difficulty", default), 0, 10)
    else:
        tools.own(role, seat, c, "roll Distracted")
        if asked is None or asked["state"] != "asked":
            raise PermissionError("a player rolls Distracted only when the GM asks for it")
        difficulty = asked.get("difficulty", 5)
    options = roll_options(state, c, command, role, None)  # issue 32, items 1 and 7
    mods = fight_rules.roll_check(c, "other", **options["modifiers"])
    if not mods.allowed:
        raise ValueError(f"combatant: {mods.reason}")
    faces, by = tools.faces(command, "faces", dice_needed(mods.advantage), roll)
    reading = read_core_roll(faces, c["atropos"] + difficulty, mods.advantage)
    events = fight_rules.distracted_events(state, c, reading, difficulty, by)
    sources = [[s.label, s.sign] for s in mods.sources]
    events[0][1]["sources"] = label_sources(sources, options["situational"])
    events[0][1].update(options["record"])
    events[0][2].extend(options["changes"])
    if reading.outcome == "catastrophe":
        events[0][2].extend(fight_rules.caught_in_catastrophe(state, options["record"]["helpers"]))
    return events


def lead(state, command, role, seat, roll) -> list[Event]:
    """An ally leads a Shattered character for the rest of the round (rules/000 "Sanity").

    The leader is on the same side, can act on their own and is not Humiliated (who "cannot
    take the lead", rules/000 "Poise"); the GM or the leader's player sends it. It costs no
    action (the texts price none).
    """
    tools.in_phase(state, "declare", "resolve")
    c = tools.combatant(state, command)
    leader = tools.combatant(state, command, "leader")
    tools.own(role, seat, leader, "lead someone")
    if leader["id"] == c["id"]:
        raise ValueError("leader must be someone else: a Shattered character can't lead itself")
    if "Shattered" not in fight_rules.states(c):
        raise ValueError(f"combatant: {c['name']} is not Shattered; only the Shattered are led")
    if leader["side"] != c["side"]:
        raise ValueError(f"leader: {leader['name']} is not on {c['name']}'s side")
    if not fight_rules.can_act(leader) or fight_rules.shattered_alone(leader):
        raise ValueError(f"leader: {leader['name']} can't act on their own to lead anyone")
    if "Humiliated" in fight_rules.states(leader):
        raise ValueError(
            f"leader: {leader['name']} is Humiliated: below 0 Poise you can't take the lead "
            "(rules/000 'Poise')"
        )
    if fight_rules.led(c):
        raise ValueError(f"combatant: {c['name']} is already led this round")
    changes = [[combatant_path(c["id"], "carried", "led_by"), leader["id"]]]
    return [("led", {"combatant": c["id"], "leader": leader["id"]}, changes)]


COMMANDS = (
    Command(
        "distracted",
        distracted_roll,
        ("combatant", "difficulty", "faces", *ROLL_OPTIONS),
        words={"distracted_rolled": lambda r, d: dice_line(r, d, "to hold focus (Distracted)")},
    ),
    Command(
        "lead",
        lead,
        ("combatant", "leader"),
        words={
            "led": lambda r, d: f"{r.name(d['leader'])} leads {r.name(d['combatant'])} this round."
        },
    ),
)
