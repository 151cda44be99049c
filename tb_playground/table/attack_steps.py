"""An attack, step by step at the table: declare it, roll it, boost its damage, prevent it.

Rule: RULES.md "Attacks" (to hit: 2d10 at or under the TN; damage: dice over the target's wall,
boosts with Ki) and "Vitals" (Ki prevents levels); rules/000 "Attacking", "Damage". The
options of a declared attack (Aim, Called Shot, cover, help, armor) are in ``attack_options``.
Readings: docs/notes/0008-table.md, docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine.damage import critical_split
from tb_playground.engine.roll_reading import dice_needed, read_core_roll
from tb_playground.engine.round_budget import distracted_fallback
from tb_playground.engine.validation import require_bool, require_int
from tb_playground.formatting import advantage_words, dice_text, empowered_words, plural

from . import armor_at_table, attack_options, fight_rules, gifts, help_action, results
from . import command_tools as tools
from .attack_options import attack_pending
from .command_record import Command, Event, Reader
from .log_words import dice_line, tn_words
from .state import combatant_path


def attack(state, command, role, seat, roll) -> list[Event]:
    """Declare an attack: its Target Number, options and odds become the pending attack."""
    tools.in_phase(state, "resolve")
    if state["pending"] is not None:
        raise ValueError("type: an attack is already under way; finish it first")
    a = tools.combatant(state, command, "attacker")
    tools.own(role, seat, a, "attack")
    if state["up"] != a["id"]:
        up = state["combatants"][state["up"]]["name"] if state["up"] else "nobody"
        raise ValueError(f"attacker: it is {up}'s turn, not {a['name']}'s")
    t = tools.combatant(state, command, "target")
    if t["id"] == a["id"]:
        raise ValueError("target must be another combatant, not the attacker")
    if t["out"]:
        raise ValueError(f"target: {t['name']} is out of the fight")
    index = require_int("attack", command.get("attack", 0), 0, max(len(a["attacks"]) - 1, 0))
    if not a["attacks"]:
        raise ValueError(f"attack: {a['name']} has no attacks")
    if role != "gm" and command.get("situational"):
        raise PermissionError(
            "only the GM names situational Advantage or Disadvantage sources (rules/000 "
            "'Advantage and Disadvantage'); ask the GM"
        )
    empowered = attack_options.empowered_choice(command)
    key = "attack" if empowered is None else fight_rules.EMPOWERED[empowered]
    problem = fight_rules.next_action_problem(state, a, key)
    if problem:
        raise ValueError(problem)
    pending = attack_pending(state, a, t, index, command, role)
    if pending["dropped"]:
        key = distracted_fallback(key) or key  # the plain action it became (engine)
    changes = [[["pending"], pending]]
    changes += fight_rules.spend_action(a, key)
    changes += fight_rules.distracted_spent(a)
    changes += help_action.use_help(pending["helpers"])
    data = {k: pending[k] for k in ("attacker", "target", "attack", "kind", "element", "tn")}
    data["sources"] = pending["sources"]
    for k in ("helpers", "situational", "off_hand", "zone", "weapon_range", "armor", "step"):
        data[k] = pending[k]
    data["empowered"] = pending["empowered"]  # the Called Shot named in the log (issue 31)
    data["advantage"] = pending["advantage"]
    if pending["dropped"]:
        data["dropped"] = pending["dropped"]
    return [("attack_declared", data, changes), *gifts.attack_events(state, a, index, pending)]


def roll_dice(state, command, role, seat, roll) -> list[Event]:
    """Roll the pending attack's dice: the Gift Check, to hit, or damage (typed or the table's)."""
    p = state["pending"]
    if p is not None and p["step"] == "approach":
        raise ValueError("type: the GM has yet to confirm the attack's approach")
    if p is None or p["step"] not in ("to_hit", "damage", "gift_check"):
        raise ValueError("type: there is no roll to make now")
    a = state["combatants"][p["attacker"]]
    tools.own(role, seat, a, "roll")
    if p["step"] == "gift_check":
        return gifts.check_events(state, p, command, roll)
    if p["step"] == "to_hit":
        count = dice_needed(p["advantage"])
        faces, by = tools.faces(command, "faces", count, roll)
        reading = read_core_roll(faces, p["tn"], p["advantage"])
        return fight_rules.to_hit_events(state, p, reading, by)
    critical = p["critical"]
    automatic, rolled = critical_split(p["dice"]) if critical else (0, p["dice"])
    faces, by = tools.faces(command, "faces", rolled, roll)
    return fight_rules.damage_events(state, p, faces, automatic, by)


def boost(state, command, role, seat, roll) -> list[Event]:
    """Boost damage dice with Ki (RULES.md, Attacks: each boosted die reads one higher)."""
    p = state["pending"]
    if p is None or p["step"] != "boost":
        raise ValueError("type: there are no damage dice waiting for boosts now")
    a = state["combatants"][p["attacker"]]
    tools.own(role, seat, a, "boost dice")
    dice = command.get("dice", [])
    if not isinstance(dice, list) or len(set(map(repr, dice))) != len(dice):
        raise ValueError("dice must be a list of distinct die positions (0 = the first die)")
    faces = p["faces"]
    picked = sorted(require_int(f"dice[{i}]", d, 0, len(faces) - 1) for i, d in enumerate(dice))
    problem = armor_at_table.boost_problem(p, picked)
    if problem:
        raise ValueError(problem)
    cost = fight_rules.ki_cost(len(picked), a["exhausted"])
    if cost > a["ki"]:
        raise ValueError(f"dice: {len(picked)} boost(s) cost {cost} Ki; {a['name']} has {a['ki']}")
    seen = [faces[i] + p["klotho_added"] for i in range(len(faces))]
    levels = p["automatic_levels"] + sum(
        (v + p["bonus"] if i in picked else v) > p["wall"] for i, v in enumerate(seen)
    )
    changes = [[combatant_path(a["id"], "ki"), a["ki"] - cost]]
    data = {"attacker": a["id"], "dice": picked, "ki": cost, "levels": levels}
    events = [("boosted", data, changes)]
    after = {**p, "boosted": picked}  # the dice read as boosted from now on
    return events + fight_rules.after_damage_events(state, after, levels, extra_changes=changes)


def prevent(state, command, role, seat, roll) -> list[Event]:
    """The target spends Ki to prevent levels of the hit (RULES.md, Vitals)."""
    p = state["pending"]
    if p is None or p["step"] != "prevent":
        raise ValueError("type: there is no hit waiting for prevention now")
    t = state["combatants"][p["target"]]
    tools.own(role, seat, t, "prevent damage")
    ki = require_int("ki", command.get("ki", 0), 0, p["would_take"])
    sanity_ki = require_bool("sanity_ki", command.get("sanity_ki", False))
    cost = fight_rules.ki_cost(ki, t["exhausted"])
    if cost > t["ki"]:
        levels = plural(ki, "level")
        raise ValueError(f"ki: preventing {levels} costs {cost} Ki; {t['name']} has {t['ki']}")
    if ki and not fight_rules.may_prevent(state, p["vital"]):
        raise ValueError("ki: under this ruleset Ki cannot prevent a Poise hit (rules/002)")
    return fight_rules.resolve_events(state, p, p["levels"], ki, sanity_ki)


# -- the log's words ----------------------------------------------------------------------------


def _declared(r: Reader, d: dict) -> str:
    el = f" with {d['element']}" if d["element"] else ""
    slow = empowered_words(d.get("empowered"), d.get("zone"))  # a Called Shot named (issue 31)
    slow = f" ({slow})" if slow else ""
    line = (
        f"{r.name(d['attacker'])} attacks {r.name(d['target'])}: {d['attack']}{slow}{el}"
        f"{tn_words(d)}"
    )
    helped = r.shown(d["helpers"]) if d.get("helpers") else ""
    line += f", helped by {helped}." if helped else "."
    if "advantage" in d:  # the net Advantage as the rule reads it, binary (issue 31)
        advantage = advantage_words(d["advantage"], d.get("sources") or [])
        line += f" {advantage}." if advantage else ""
    if d.get("dropped"):
        line += f" Distracted: the {d['dropped'].title()} drops to a plain attack."
    return line


def _to_hit(r: Reader, d: dict) -> str:
    return dice_line(r, d, f"to hit {r.name(d['target'])}" if d.get("target") else "to hit")


def _damage(r: Reader, d: dict) -> str:
    faces = ", ".join(map(str, d["faces"])) or "none"
    if d.get("armor"):  # the dice against the armor's Hardness (issue 31: name the armor)
        t = d["target"]
        worn = armor_at_table.worn_name(r.state, t, d["armor"])
        beat = f": {armor_at_table.beat_words(d['levels'])}" if r.numbers(t) else ""
        return f"{r.name(d['attacker'])} rolls damage against {r.name(t)}'s {worn}: {faces}{beat}."
    auto = f" ({d['automatic']} connect outright)" if d["automatic"] else ""
    levels = plural(d["levels"], "level")
    return f"{r.name(d['attacker'])} rolls damage: {faces}{auto}: {levels} so far."


def _boosted(r: Reader, d: dict) -> str:
    levels = plural(d["levels"], "level")
    if not d["dice"]:  # "Keep the dice as rolled" (issue 20), never "boosts 0 dice"
        return f"{r.name(d['attacker'])} keeps the dice as rolled: {levels}."
    ki = f"for {d['ki']} Ki" if r.numbers(d["attacker"]) else "with Ki"
    return f"{r.name(d['attacker'])} boosts {dice_text(len(d['dice']))} {ki}: {levels}."


def _awaiting(r: Reader, d: dict) -> str | None:
    """The prevention step's line; none for a reader who may not read the target's numbers.

    The levels it may prevent are capped by the Health left, and the step comes only when the
    target has Ki: both are a foe's numbers, the GM's unless shared (issue 31).
    """
    if not (r.numbers(d["target"]) or r.seat == d["target"]):
        return None
    levels = plural(d["levels"], "level")
    return f"{r.name(d['target'])} may spend Ki to prevent up to {levels}."


def _resolved(r: Reader, d: dict) -> str:
    return results.loses(d, r.name(d["target"]), r.numbers(d["target"]))


COMMANDS = (
    Command(
        "attack",
        attack,
        attack_options.ATTACK_FIELDS[1:],
        words={"attack_declared": _declared},
        called={"attack_declared": "an attack"},
    ),
    Command(
        "roll",
        roll_dice,
        ("faces",),
        words={"to_hit_rolled": _to_hit, "damage_rolled": _damage},
        called={"to_hit_rolled": "a to-hit roll", "damage_rolled": "a damage roll"},
    ),
    Command("boost", boost, ("dice",), words={"boosted": _boosted}),
    Command(
        "prevent",
        prevent,
        ("ki", "sanity_ki"),
        words={"awaiting_prevention": _awaiting, "attack_resolved": _resolved},
        called={"attack_resolved": "the damage taken"},
    ),
)
