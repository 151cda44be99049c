"""Skill, opposed and group rolls and stabilising, at the table, each with its exact odds.

Rule: RULES.md, Core Roll; rules/000 "Opposed Rolls", "Group Rolls", "Getting back up"; rules/004
"Conditions". Readings: docs/notes/0015-table-rules.md, "Actions of the round".
"""

from __future__ import annotations

from tb_playground.engine import ELEMENTS
from tb_playground.engine.core_roll import check_target
from tb_playground.engine.group import group_odds
from tb_playground.engine.opposed import contest
from tb_playground.engine.rest import stabilise as engine_stabilise
from tb_playground.engine.validation import require_bool, require_choice

from . import command_tools as tools
from . import fight_rules
from .attack_options import ROLL_OPTIONS, label_sources, roll_options
from .command_record import Command, Reader
from .log_words import mine, roll_words
from .state import combatant_path

SKILL_FIELDS = (
    "combatant",
    "skill",
    "difficulty",
    "element",
    "faces",
    "reroll_faces",
    *ROLL_OPTIONS,
)
OPPOSED_FIELDS = (
    "actor",
    "resister",
    "actor_skill",
    "resister_skill",
    "difficulty",
    "actor_faces",
    "resister_faces",
    "actor_reroll_faces",
    "resister_reroll_faces",
    "surprise",
    "static",
    *(f"{side}_{option}" for side in ("actor", "resister") for option in ROLL_OPTIONS),
)
GROUP_FIELDS = ("members", "skill", "difficulty", "faces", "reroll_faces")
STABILISE_FIELDS = (
    "combatant",
    "target",
    "how",
    "difficulty",
    "faces",
    "reroll_faces",
    "gift",
    *ROLL_OPTIONS,
)

#: Ways to stabilise the Dying (rules/000 "Getting back up": "First Aid, a trauma kit, a Gift
#: that says so"), with the action each takes (rules/001 "Actions").
STABILISE_HOW = {"first aid": "skill", "trauma kit": "small action", "gift": "skill"}


def _character(c: dict, what: str) -> None:
    if c["kind"] != "character":
        raise ValueError(
            f"{c['name']} is a creature: its card gives numbers instead of rolling {what} "
            '(rules/000 "Opposed Rolls": "A creature doesn\'t roll its side").'
        )


def _setup(state: dict, c: dict, skill_name: object, element: object = None) -> tuple[dict, int]:
    """The Skill row, refusing Swimming untrained, and the Element used (a Descriptor's)."""
    skill = tools.skill_of(c, skill_name)
    if skill["tier"] == 0 and not skill["usable_untrained"]:
        raise ValueError(
            f'{c["name"]} cannot roll {skill["name"]} untrained (rules/000 "Swimming": it can\'t '
            "be done untrained). Choose another way."
        )
    name = skill["element"] if element is None else require_choice("element", element, ELEMENTS)
    return {**skill, "element": name}, c["elements"].get(name, 0)


def _one_roll(state, command, c, skill, score, difficulty, field, roll, leads=False, role=None):
    """One character's Skill roll: conditions, tier, dice, odds; returns data and changes.

    With ``role`` the command's ``ROLL_OPTIONS`` reach the roll (``field``'s prefix names the
    side of an opposed roll): the GM's situational sources, the off hand, Taking Your Time and
    the Help waiting on the roller, spent on it (issue 32, items 1 and 7).
    """
    options = None
    if role is not None:
        prefix = field.removesuffix("faces")
        options = roll_options(state, c, command, role, skill["name"], prefix)
    more = options["modifiers"] if options else {}
    mods = tools.modifiers(state, c, skill["kind"], skill["tier"], leads=leads, **more)
    tools.refuse_roll(c, mods)
    target = check_target(score, difficulty, skill["tier"])
    odds = tools.odds(state, target, mods.advantage, skill["tier"])
    reading, by = tools.read(state, command, field, target, mods.advantage, skill["tier"], roll)
    data = tools.roll_record(c, reading, by, odds)
    sources = [[s.label, s.sign] for s in mods.sources]
    data.update(
        skill=skill["name"],
        element=skill["element"],
        tier=skill["tier"],
        difficulty=difficulty,
        sources=label_sources(sources, options["situational"]) if options else sources,
    )
    changes = tools.off_balance(state, c, reading)
    if options:
        data.update(options["record"])
        changes += options["changes"]
        if reading.outcome == "catastrophe" and tools.in_fight(state):
            changes += fight_rules.caught_in_catastrophe(state, options["record"]["helpers"])
    return data, changes, reading, odds


def skill_roll(state, command, role, seat, roll) -> list:
    """Any Skill at its tier against the GM's Difficulty (rules/000 "The Core Roll")."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "roll a Skill")
    _character(c, "Skills")
    if "element" in command:
        tools.gm_only(role, "confirm a Descriptor's Element for a Skill (rules/002)")
    from tb_playground.models.skills import LEADING_SKILLS

    skill, score = _setup(state, c, command.get("skill"), command.get("element"))
    difficulty = tools.difficulty(command)
    changes: list = []
    if state["phase"] == "resolve":
        tools.on_turn(state, c, "use a Skill")
        changes = tools.budget(state, c, "skill")
    leads = skill["name"] in LEADING_SKILLS
    data, more, _, _ = _one_roll(
        state, command, c, skill, score, difficulty, "faces", roll, leads, role
    )
    return [("skill_rolled", data, changes + more)]


def opposed_roll(state, command, role, seat, roll) -> list:
    """Both sides roll against one Difficulty; the GM calls it (rules/000 lines 71-75)."""
    tools.gm_only(role, "call an opposed roll")
    a = tools.combatant(state, command, "actor")
    r = tools.combatant(state, command, "resister")
    if a["id"] == r["id"]:
        raise ValueError("resister must be another combatant than the actor")
    surprise = require_bool("surprise", command.get("surprise", False))
    if surprise and state["phase"] != "setup":
        raise ValueError(
            'Surprised is for a threat not noticed before the fight begins (rules/002 "What Is '
            'Surprised?"): roll it before the GM starts the fight.'
        )
    if state["phase"] == "resolve" and state["up"] == a["id"]:
        changes = tools.budget(state, a, "skill")
    elif state["phase"] == "resolve":
        raise ValueError(
            f"In a fight the actor rolls on their turn: wait for {a['name']}'s turn "
            '(rules/000 "Combat Order"), or roll it between rounds.'
        )
    else:
        changes = []
    difficulty = tools.difficulty(command)
    outrank = bool(state["ruleset"].get("criticals_outrank"))
    a_skill = command.get("actor_skill")
    r_skill = command.get("resister_skill")
    data = {"actor": a["id"], "resister": r["id"], "difficulty": difficulty}
    if a["kind"] != "character" and r["kind"] != "character":
        raise ValueError("Two creatures' cards give numbers, not rolls: the GM decides.")
    if a["kind"] != "character" or r["kind"] != "character":
        roller, card = (a, r) if a["kind"] == "character" else (r, a)
        mine = a_skill if roller is a else r_skill
        theirs = r_skill if roller is a else a_skill
        number = card.get("static_numbers", {}).get(mine) if "static" not in command else None
        if number is None:
            if "static" not in command:
                raise ValueError(
                    f"{card['name']}'s card gives no number against {mine or 'that Skill'}: the "
                    'GM types the card\'s number, 0 to 10 (rules/000 "Opposed Rolls": '
                    '"Its card gives you the number").'
                )
            number = tools.difficulty(command, field="static")
        skill, score = _setup(state, roller, mine)
        field = "actor_faces" if roller is a else "resister_faces"
        rolled, more, reading, odds = _one_roll(
            state, command, roller, skill, score, number, field, roll, role=role
        )
        changes += more
        won = reading.success  # any success beats the card (engine ``versus_static``)
        winner = roller["id"] if won else card["id"]
        if roller is r:  # the resister rolls; the card's side is the actor
            winner = r["id"] if won else a["id"]
        data.update(static=number, card=card["id"], card_skill=theirs, roll=rolled)
        data["p_actor_wins"] = odds.p_success if roller is a else 1.0 - odds.p_success
    else:
        a_row, a_score = _setup(state, a, a_skill)
        r_row, r_score = _setup(state, r, r_skill)
        a_data, more_a, ra, a_odds = _one_roll(
            state, command, a, a_row, a_score, difficulty, "actor_faces", roll, role=role
        )
        r_data, more_r, rr, r_odds = _one_roll(
            state, command, r, r_row, r_score, difficulty, "resister_faces", roll, role=role
        )
        changes += more_a + more_r
        winner = a["id"] if tools.opposed_winner(ra, rr, outrank) == "actor" else r["id"]
        data.update(actor_roll=a_data, resister_roll=r_data)
        data["p_actor_wins"] = contest(a_odds, r_odds, criticals_outrank=outrank)
    data["winner"] = winner
    if surprise and winner == a["id"]:
        info = fight_rules.condition("Surprised", 1, "round")
        changes.append([combatant_path(r["id"], "conditions", "Surprised"), info])
        data["surprised"] = r["id"]
    return [("opposed_rolled", data, changes)]


def group_roll(state, command, role, seat, roll) -> list:
    """Everyone rolls; at least half succeed and nobody rolls a 20 (rules/000 line 89)."""
    tools.gm_only(role, "call a group roll")
    if state["phase"] == "resolve":
        raise ValueError(
            'A group roll is everyone together, outside the turn order (rules/000 "Group '
            'Rolls"): call it before the fight or between rounds.'
        )
    members = command.get("members")
    if not isinstance(members, list) or not members or len(set(map(str, members))) != len(members):
        raise ValueError(f"members must be a list of distinct combatant ids, got {members!r}")
    typed = command.get("faces", {})
    again = command.get("reroll_faces", {})
    if not isinstance(typed, dict) or not isinstance(again, dict):
        raise ValueError("faces must map a member's id to the faces they threw")
    for key in [*typed, *again]:
        if key not in members:
            raise ValueError("faces: dice were typed for someone who is not in the group")
    difficulty = tools.difficulty(command)
    rolls, changes, odds, readings = [], [], [], []
    for cid in members:
        c = tools.combatant(state, {"m": cid}, "m")
        _character(c, "a group roll")
        skill, score = _setup(state, c, command.get("skill"))
        one = {"faces": typed.get(cid), "reroll_faces": again.get(cid)}
        one = {k: v for k, v in one.items() if v is not None}
        data, more, reading, o = _one_roll(state, one, c, skill, score, difficulty, "faces", roll)
        rolls.append(data)
        changes += more
        odds.append(o)
        readings.append(reading)
    successes = sum(r.success for r in readings)
    spoiled = any(r.outcome == "catastrophe" for r in readings)
    made = 2 * successes >= len(readings) and not spoiled
    data = {
        "members": list(members),
        "skill": command.get("skill"),
        "difficulty": difficulty,
        "rolls": rolls,
        "successes": successes,
        "catastrophe": spoiled,
        "success": made,
        "p_success": group_odds(odds),
    }
    return [("group_rolled", data, changes)]


def stabilise(state, command, role, seat, roll) -> list:
    """First Aid, a trauma kit or a Gift: the Dying go to 0 Health (rules/000 line 287)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "stabilise someone")
    t = tools.combatant(state, command, "target")
    how = require_choice("how", command.get("how", "first aid"), tuple(STABILISE_HOW))
    if how == "gift":
        tools.gm_only(role, "confirm that a Gift stabilises (rules/000: 'a Gift that says so')")
    health = t["now"]["health"]
    result = engine_stabilise(max(health, -t["max"]["health"]), t["max"]["health"])
    if health <= t["dead_at"]:
        result = result.__class__(False, "Dead: too late to stabilise.", health, ())
    if not result.allowed:
        raise ValueError(
            f'{t["name"]} cannot be stabilised: {result.reason} (rules/000 "Getting back up").'
        )
    changes: list = []
    if state["phase"] == "resolve":
        tools.on_turn(state, c, "stabilise someone")
        where = state["ranges"].get("|".join(sorted((c["id"], t["id"]))))
        if where not in (None, "melee") and c["id"] != t["id"]:
            raise ValueError(
                f"{c['name']} must reach {t['name']} to stabilise them: they are at "
                f"{where.capitalize()} range. Move to Melee first."
            )
        changes = tools.budget(state, c, STABILISE_HOW[how])
    data = {"combatant": c["id"], "target": t["id"], "how": how}
    done = True
    if how == "first aid":
        _character(c, "First Aid")
        skill, score = _setup(state, c, "First Aid")
        rolled, more, reading, _ = _one_roll(
            state, command, c, skill, score, tools.difficulty(command), "faces", roll, role=role
        )
        data["roll"] = rolled
        changes += more
        done = reading.success
    elif how == "gift":
        data["gift"] = command.get("gift", "")
    data["stabilised"] = done
    if done:
        changes.append([combatant_path(t["id"], "now", "health"), result.health])
        data["effect"] = "; ".join(result.changes)
    return [("stabilised" if done else "stabilise_failed", data, changes)]


# -- the log's words ----------------------------------------------------------------------------


def _skill_rolled(r: Reader, d: dict) -> str:
    skill = d.get("skill") or "a Skill"
    return f"{r.name(d['combatant'])} rolls {skill}: {roll_words(d, r.numbers(d['combatant']))}."


def _opposed_rolled(r: Reader, d: dict) -> str:
    actor, resister = r.name(d["actor"]), r.name(d["resister"])
    roll = d.get("roll") or d.get("actor_roll")
    static = d.get("static") is not None and d.get("card")
    tn = mine(roll, r) and (not static or r.numbers(d["card"]))
    line = f"{actor} against {resister} ({(roll or {}).get('skill', 'opposed')}): "
    line += roll_words(roll, tn)
    other = d.get("resister_roll")
    if other:
        line += f"; {resister}: {roll_words(other, mine(other, r))}"
    winner = d.get("winner")
    return line + (f"; {r.name(winner)} wins." if winner else ".")


def _group_rolled(r: Reader, d: dict) -> str:
    rolls = "; ".join(
        f"{r.name(x['combatant'])} {roll_words(x, r.numbers(x['combatant']))}"
        for x in d.get("rolls", [])
    )
    result = "the group succeeds" if d.get("success") else "the group fails"
    return f"{r.shown(d['members'])} roll {d.get('skill', 'together')} together: {rolls}: {result}."


def _stabilise_line(r: Reader, d: dict) -> str:
    roll = d.get("roll")
    how = d.get("how") or "first aid"
    return f"{r.name(d['combatant'])} tries {how} on {r.name(d['target'])}: " + roll_words(
        roll, mine(roll, r)
    )


def _stabilised(r: Reader, d: dict) -> str:
    effect = f" ({d['effect']})" if d.get("effect") and r.numbers(d["target"]) else ""
    return f"{_stabilise_line(r, d)}; {r.name(d['target'])} is stabilised{effect}."


def _stabilise_failed(r: Reader, d: dict) -> str:
    return f"{_stabilise_line(r, d)}; {r.name(d['target'])} is not stabilised."


COMMANDS = (
    Command("skill_roll", skill_roll, SKILL_FIELDS, words={"skill_rolled": _skill_rolled}),
    Command(
        "opposed_roll", opposed_roll, OPPOSED_FIELDS, words={"opposed_rolled": _opposed_rolled}
    ),
    Command("group_roll", group_roll, GROUP_FIELDS, words={"group_rolled": _group_rolled}),
    Command(
        "stabilise",
        stabilise,
        STABILISE_FIELDS,
        words={"stabilised": _stabilised, "stabilise_failed": _stabilise_failed},
    ),
)
