"""Grab, Disarm and Escape a hold, at the table.

Rule: rules/001 "Combat Actions" (Grab, Disarm; Escape says only "see Grabbed"); rules/000
"Opposed Rolls" for a creature holder. Readings (Escape as an opposed Potence roll, the GM's
dice for a creature's Grab): docs/notes/0015-table-rules.md, "Actions of the round".
"""

from __future__ import annotations

from tb_playground.engine import attack_elements, damage_distribution
from tb_playground.engine.opposed import contest
from tb_playground.engine.roll_reading import read_damage_faces
from tb_playground.engine.validation import require_bool, require_choice, require_int

from . import command_tools as tools
from . import fight_rules
from .attack_options import ROLL_OPTIONS, label_sources, roll_options
from .command_record import Command, Reader
from .log_words import mine, roll_words
from .state import combatant_path

GRAB_FIELDS = (
    "attacker",
    "target",
    "approach",
    "faces",
    "reroll_faces",
    "potence",
    "potence_faces",
    *ROLL_OPTIONS,
)
DISARM_FIELDS = (
    "attacker",
    "target",
    "approach",
    "item",
    "faces",
    "reroll_faces",
    "potence",
    "difficulty",
    "gauntlets",
    "attacker_faces",
    "defender_faces",
    "static",
    *ROLL_OPTIONS,
)
ESCAPE_FIELDS = (
    "combatant",
    "faces",
    "reroll_faces",
    "holder_faces",
    "difficulty",
    "potence",
    *ROLL_OPTIONS,
)


def band(state: dict, a: str, b: str) -> str | None:
    """The range band between two combatants, if the table knows it."""
    return state["ranges"].get("|".join(sorted((a, b))))


def _potence(c: dict, command: dict, role: str, field: str = "potence") -> int:
    """A character's Potence, or the one the GM gives for a creature (its card has none)."""
    if c.get("potence") is not None and field not in command:
        return c["potence"]
    if field not in command:
        raise ValueError(
            f"{c['name']}'s card gives no Potence: the GM gives its dice as {field} (0..10)."
        )
    tools.gm_only(role, f"give {c['name']}'s Potence")
    return require_int(field, command[field], 0, 10)


def _score(state: dict, a: dict, command: dict) -> tuple[str | None, int]:
    """The attacking Element: the approach for a character, the card's attack for a creature."""
    if a["kind"] != "character":
        if "approach" in command:
            raise ValueError("approach: a creature attacks with its card's number, not an Element")
        physical = [x["score"] for x in a["attacks"] if x["kind"] == "physical"]
        scores = physical or [x["score"] for x in a["attacks"]] or [0]
        return None, max(s or 0 for s in scores)
    allowed = attack_elements("physical", bool(state["ruleset"].get("never_moira")))
    default = max(allowed, key=lambda e: a["elements"][e])
    element = require_choice("approach", command.get("approach", default), allowed)
    return element, a["elements"][element]


def _attack_roll(state, command, role, seat, roll, key: str) -> tuple[dict, dict, list, dict]:
    """The attack roll of a Grab or a Disarm: checks, budget, dice, odds (rules/000 line 105)."""
    tools.on_turn(state, tools.combatant(state, command, "attacker"), key)
    if state["pending"] is not None:
        raise ValueError("An attack is under way: finish it before this one.")
    a = tools.combatant(state, command, "attacker")
    tools.own(role, seat, a, key)
    t = tools.combatant(state, command, "target")
    if t["id"] == a["id"] or t["out"]:
        raise ValueError("target must be another combatant still in the fight")
    where = band(state, a["id"], t["id"])
    if where not in (None, "melee"):
        raise ValueError(
            f"{a['name']} cannot {key} {t['name']}: they are at {where.capitalize()} range, and a "
            f'{key.capitalize()} is made from Melee (rules/001 "Combat Actions"). Move in first.'
        )
    changes = tools.budget(state, a, key)
    element, score = _score(state, a, command)
    # Bare hands (a Grab) or a Called Shot at an item: no Skill, so any helper able to act
    # counts (help_action.trained); the GM's sources, off hand, Taking Your Time as for any
    # roll (issue 32, items 1 and 7).
    options = roll_options(state, a, command, role, None)
    mods = fight_rules.attack_modifiers(
        state,
        a,
        t,
        "physical",
        "called shot" if key == "disarm" else key,
        "none",
        "melee",
        "normal",
        **options["modifiers"],
    )
    if not mods["allowed"]:
        raise ValueError(
            f"{a['name']} cannot {key} now: {mods['reason'].split(': ', 1)[-1]} (rules/001 "
            '"Getting Low"; rules/000 "Getting Low and Taking Cover"). Choose another action.'
        )
    defense = max(t["defense"]["physical"] + mods["defense_change"], 0)
    tn = score + defense
    odds = tools.odds(state, tn, mods["advantage"], 1)
    reading, by = tools.read(state, command, "faces", tn, mods["advantage"], 1, roll)
    data = {
        "attacker": a["id"],
        "target": t["id"],
        "element": element,
        "tn": tn,
        "sources": label_sources(mods["sources"], options["situational"]),
        "to_hit": tools.roll_record(a, reading, by, odds),
        "p_hit": odds.p_success,
        **options["record"],
    }
    changes += tools.off_balance(state, a, reading) + options["changes"]
    if reading.outcome == "catastrophe":
        changes += fight_rules.caught_in_catastrophe(state, options["record"]["helpers"])
    return a, t, changes, {"data": data, "reading": reading}


def grab(state, command, role, seat, roll) -> list:
    """Grab: an attack roll, then Potence d10s against the target's Soak (rules/001 line 143)."""
    a = tools.combatant(state, command, "attacker")
    potence = _potence(a, command, role)
    a, t, changes, rolled = _attack_roll(state, command, role, seat, roll, "grab")
    data = rolled["data"]
    soak = t["wall"]["physical"]
    p_hold = 1.0 - float(damage_distribution(potence, soak)[0])
    data.update(potence=potence, soak=soak, p_hold=p_hold, p_grab=data["p_hit"] * p_hold)
    held = False
    if rolled["reading"].success:
        typed = command.get("potence_faces")
        faces = roll(potence) if typed is None else list(read_damage_faces(typed, potence))
        data["potence_faces"] = faces
        data["potence_rolled_by"] = "table" if typed is None else "hand"
        held = any(f > soak for f in faces)
    elif "potence_faces" in command:
        raise ValueError("potence_faces: the attack roll missed, so no Potence dice are rolled")
    data["grabbed"] = held
    if held:
        info = fight_rules.condition("Grabbed", state["round"], "manual")
        info.update(by=a["id"], potence=potence)
        changes.append([combatant_path(t["id"], "conditions", "Grabbed"), info])
    return [("grab_rolled", data, changes)]


def disarm(state, command, role, seat, roll) -> list:
    """Disarm: a Called Shot at a held item; on a hit, Potence against Potence (line 144)."""
    a = tools.combatant(state, command, "attacker")
    t = tools.combatant(state, command, "target")
    potence = _potence(a, command, role)
    item = command.get("item", "the weapon in hand")
    if not isinstance(item, str) or not item.strip() or len(item) > 200:
        raise ValueError(f"item must name what is held (1..200 characters), got {item!r}")
    gauntlets = require_bool("gauntlets", command.get("gauntlets", False))
    if gauntlets or "difficulty" in command or "static" in command:
        tools.gm_only(role, "set a Disarm's Difficulty, gauntlets or a card's number")
    difficulty = tools.difficulty(command)
    a, t, changes, rolled = _attack_roll(state, command, role, seat, roll, "disarm")
    data = rolled["data"]
    data.update(item=item.strip(), difficulty=difficulty, gauntlets=gauntlets)
    mine = tools.modifiers(state, a, "physical")
    theirs = tools.modifiers(state, t, "physical", other_advantage=int(gauntlets))
    outrank = bool(state["ruleset"].get("criticals_outrank"))
    static = t.get("potence") is None
    if static:  # a card does not roll its side: its number is the attacker's Difficulty
        number = require_int("static", command.get("static", difficulty), 0, 10)
        a_odds = tools.odds(state, potence + number, mine.advantage, 1)
        p_win = a_odds.p_success
    else:
        a_odds = tools.odds(state, potence + difficulty, mine.advantage, 1)
        t_odds = tools.odds(state, t["potence"] + difficulty, theirs.advantage, 1)
        p_win = contest(a_odds, t_odds, criticals_outrank=outrank)
    data.update(p_knock_loose=p_win, p_disarm=data["p_hit"] * p_win)
    loose = False
    if rolled["reading"].success:
        ra, by = tools.read(
            state, command, "attacker_faces", a_odds.target, mine.advantage, 1, roll
        )
        data["attacker_roll"] = tools.roll_record(a, ra, by, a_odds)
        changes += tools.off_balance(state, a, ra)
        if static:
            loose = ra.success
        else:
            rt, by = tools.read(
                state, command, "defender_faces", t_odds.target, theirs.advantage, 1, roll
            )
            data["defender_roll"] = tools.roll_record(t, rt, by, t_odds)
            changes += tools.off_balance(state, t, rt)
            loose = tools.opposed_winner(ra, rt, outrank) == "actor"
    data["knocked_loose"] = loose
    if loose:
        data["effect"] = f"{t['name']}'s {item.strip()} is knocked loose"
    return [("disarm_rolled", data, changes)]


def escape(state, command, role, seat, roll) -> list:
    """Escape a hold: an opposed roll, Potence against the holder's Potence (our reading)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "escape a hold")
    hold = c["conditions"].get("Grabbed")
    if hold is None:
        raise ValueError(f"{c['name']} is not Grabbed: there is no hold to escape.")
    if tools.in_fight(state):
        tools.on_turn(state, c, "escape a hold")
    if "difficulty" in command:
        tools.gm_only(role, "set the Difficulty of an escape")
    difficulty = tools.difficulty(command)
    potence = _potence(c, command, role)
    changes = tools.budget(state, c, "escape")
    holder = state["combatants"].get(hold.get("by"))
    options = roll_options(state, c, command, role, None)  # issue 32, items 1 and 7
    mine = tools.modifiers(state, c, "physical", **options["modifiers"])
    tools.refuse_roll(c, mine)
    outrank = bool(state["ruleset"].get("criticals_outrank"))
    data = {"combatant": c["id"], "holder": holder["id"] if holder else None}
    data["difficulty"] = difficulty
    data.update(options["record"])
    data["sources"] = label_sources(
        [[x.label, x.sign] for x in mine.sources], options["situational"]
    )
    gone = holder is None or holder["out"] or not fight_rules.can_act(holder)
    if gone:  # nobody holds on: the hold is simply over
        changes.append([combatant_path(c["id"], "conditions", "Grabbed"), None])
        data.update(escaped=True, effect="the holder is down: the hold is over")
        return [("escape_rolled", data, changes)]
    changes += options["changes"]  # the Help goes on the roll, when there is one
    if holder.get("potence") is None:  # a card does not roll: its Grab's Potence is the Difficulty
        number = hold.get("potence", difficulty)
        c_odds = tools.odds(state, potence + number, mine.advantage, 1)
        data["p_escape"] = c_odds.p_success
        rc, by = tools.read(state, command, "faces", c_odds.target, mine.advantage, 1, roll)
        escaped = rc.success
        if "holder_faces" in command:
            raise ValueError("holder_faces: a creature's card does not roll its side")
    else:
        theirs = tools.modifiers(state, holder, "physical")
        c_odds = tools.odds(state, potence + difficulty, mine.advantage, 1)
        h_odds = tools.odds(state, holder["potence"] + difficulty, theirs.advantage, 1)
        data["p_escape"] = contest(c_odds, h_odds, criticals_outrank=outrank)
        rc, by = tools.read(state, command, "faces", c_odds.target, mine.advantage, 1, roll)
        rh, hby = tools.read(
            state, command, "holder_faces", h_odds.target, theirs.advantage, 1, roll
        )
        data["holder_roll"] = tools.roll_record(holder, rh, hby, h_odds)
        changes += tools.off_balance(state, holder, rh)
        escaped = tools.opposed_winner(rc, rh, outrank) == "actor"
    data["roll"] = tools.roll_record(c, rc, by, c_odds)
    changes += tools.off_balance(state, c, rc)
    if rc.outcome == "catastrophe" and tools.in_fight(state):
        changes += fight_rules.caught_in_catastrophe(state, options["record"]["helpers"])
    data["escaped"] = escaped
    if escaped:
        changes.append([combatant_path(c["id"], "conditions", "Grabbed"), None])
    return [("escape_rolled", data, changes)]


# -- the log's words ----------------------------------------------------------------------------


def _grab_rolled(r: Reader, d: dict) -> str:
    to_hit = roll_words(d.get("to_hit"), r.attack_numbers(d))
    line = f"{r.name(d['attacker'])} grabs at {r.name(d['target'])}: {to_hit}"
    held = f"{r.name(d['target'])} is held" if d.get("grabbed") else "no hold"
    return f"{line}; {held}."


def _disarm_rolled(r: Reader, d: dict) -> str:
    line = f"{r.name(d['attacker'])} tries to disarm {r.name(d['target'])}: "
    line += roll_words(d.get("to_hit"), r.attack_numbers(d))
    item = d.get("item") or "what they hold"
    if d.get("knocked_loose"):
        return f"{line}; {item} is knocked loose."
    return f"{line}; {r.name(d['target'])} keeps hold of {item}."


def _escape_rolled(r: Reader, d: dict) -> str:
    who = r.name(d["combatant"])
    roll = d.get("roll")
    if d.get("holder") is None:  # the GM set Grabbed by hand: nobody holds on
        return f"{who} is free: nobody was holding on."
    if roll is None:  # the holder is down (``escape``)
        return f"{who} breaks free of {r.name(d['holder'])}'s hold: the holder is down."
    line = f"{who} tries to break {r.name(d['holder'])}'s hold: " + roll_words(roll, mine(roll, r))
    return f"{line}; " + ("breaks free." if d.get("escaped") else "still held.")


COMMANDS = (
    Command("grab", grab, GRAB_FIELDS, words={"grab_rolled": _grab_rolled}),
    Command("disarm", disarm, DISARM_FIELDS, words={"disarm_rolled": _disarm_rolled}),
    Command("escape", escape, ESCAPE_FIELDS, words={"escape_rolled": _escape_rolled}),
)
