"""Commands: what a person asks the table to do, checked, and turned into events.

``decide(state, command, role, seat, roll)`` returns the events a command makes and never changes
``state``; a bad command raises ``ValueError``, a role or seat that may not send it
``PermissionError``. Rule: RULES.md, Combat round and Vitals. Roles, commands and readings:
docs/notes/0008-table.md.
"""

from __future__ import annotations

from tb_playground.engine import ATTACK_KINDS, take_attack
from tb_playground.engine.damage import critical_split
from tb_playground.engine.roll_reading import dice_needed, read_core_roll
from tb_playground.engine.round_budget import distracted_fallback
from tb_playground.engine.validation import require_bool, require_choice, require_int
from tb_playground.formatting import plural
from tb_playground.models.combatants import combatant_record, joiner_name, slug
from tb_playground.models.encounter import Combatant
from tb_playground.models.files import KINDS, from_dict, validate_document

from . import (
    armor_at_table,
    attack_options,
    chase_phase,
    distracted,
    fate_commands,
    fight_end,
    gifts,
    grab,
    movement,
    round_actions,
    rules,
    scars,
    skill_rolls,
)
from . import command_tools as tools
from . import help as helping
from .attack_options import attack_pending
from .command_tools import Event, Roller
from .state import BRACKETS, combatant_path, combatant_state

#: Who may send commands.
ROLES = ("gm", "player", "spectator")

# -- setting up and the round ------------------------------------------------------------------


@tools.takes("surprised", "initiative")
def _start(state, command, role, seat, roll) -> list[Event]:
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
    order = rules.initiative_order(state, faces)
    changes = [[["phase"], "declare"], [["round"], 1], [["initiative_order"], order]]
    for cid in ids:
        total = faces[cid] + state["combatants"][cid]["initiative_stat"]
        changes.append([combatant_path(cid, "initiative"), {"face": faces[cid], "total": total}])
    for cid in surprised:
        changes.append(
            [combatant_path(cid, "conditions", "Surprised"), rules.condition("Surprised", 1)]
        )
    data = {"order": order, "faces": faces, "surprised": surprised}
    return [("started", data, changes)]


@tools.takes("combatant", "bracket", "bumps")
def _declare(state, command, role, seat, roll) -> list[Event]:
    tools.in_phase(state, "declare")
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "declare a bracket")
    if role != "gm" and c["kind"] != "character":
        raise PermissionError("only the GM declares for creatures")
    bracket = require_choice("bracket", command.get("bracket"), BRACKETS)
    bumps = require_int("bumps", command.get("bumps", 0), 0, 2)
    problem = rules.declare_problem(c, bracket, bumps)
    if problem:
        raise ValueError(problem)
    refund = rules.declare_cost(c, c["bumps"]) if c["bracket"] else 0
    cost = rules.declare_cost(c, bumps)
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
        for x in rules.active(state)
        if x["id"] != c["id"] and x["bracket"] is None and rules.can_act(x)
    ]
    if not waiting:
        events += _reveal_events(state, {c["id"]: (bracket, bumps)})
    return events


def _reveal_events(state: dict, also: dict | None = None) -> list[Event]:
    brackets = {
        x["id"]: (x["bracket"], x["bumps"]) for x in state["combatants"].values() if x["bracket"]
    }
    brackets.update(also or {})
    order, bands, defaulted = rules.turn_order(state, brackets)
    changes = [[["phase"], "resolve"], [["order"], order], [["up"], order[0] if order else None]]
    for cid, band in bands.items():
        changes.append([combatant_path(cid, "band"), band])
    for cid in defaulted:
        changes.append([combatant_path(cid, "bracket"), "normal"])
    revealed = {cid: brackets.get(cid, ("normal", 0))[0] for cid in bands}
    data = {"brackets": revealed, "bands": bands, "order": order, "defaulted": defaulted}
    events = [("revealed", data, changes)]
    if not order:
        events += rules.end_round_events(state)
    return events


@tools.takes()
def _reveal(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "reveal the brackets")
    tools.in_phase(state, "declare")
    return _reveal_events(state)


@tools.takes()
def _end_turn(state, command, role, seat, roll) -> list[Event]:
    tools.in_phase(state, "resolve")
    up = state["up"]
    c = state["combatants"][up]
    tools.own(role, seat, c, "end a turn")
    if state["pending"] is not None:
        raise ValueError("type: finish the attack under way before ending the turn")
    if c["carried"].get("resume"):  # a fired Ready action gives the turn back
        return round_actions.resume_events(state, c)
    return rules.end_turn_events(state, up)


# -- an attack, step by step -------------------------------------------------------------------


def _attack(state, command, role, seat, roll) -> list[Event]:
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
    key = "attack" if empowered is None else rules.EMPOWERED[empowered]
    problem = rules.next_action_problem(state, a, key)
    if problem:
        raise ValueError(problem)
    pending = attack_pending(state, a, t, index, command, role)
    if pending["dropped"]:
        key = distracted_fallback(key) or key  # the plain action it became (engine)
    changes = [[["pending"], pending]]
    changes += rules.spend_action(a, key)
    changes += rules.distracted_spent(a)
    changes += helping.use_help(pending["helpers"])
    data = {k: pending[k] for k in ("attacker", "target", "attack", "kind", "element", "tn")}
    data["sources"] = pending["sources"]
    for k in ("helpers", "situational", "off_hand", "zone", "weapon_range", "armor", "step"):
        data[k] = pending[k]
    if pending["dropped"]:
        data["dropped"] = pending["dropped"]
    return [("attack_declared", data, changes), *gifts.attack_events(state, a, index, pending)]


@tools.takes("faces")
def _roll(state, command, role, seat, roll) -> list[Event]:
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
        faces, by = tools.typed_faces(command, count, roll)
        reading = read_core_roll(faces, p["tn"], p["advantage"])
        return rules.to_hit_events(state, p, reading, by)
    critical = p["critical"]
    automatic, rolled = critical_split(p["dice"]) if critical else (0, p["dice"])
    faces, by = tools.typed_faces(command, rolled, roll)
    return rules.damage_events(state, p, faces, automatic, by)


@tools.takes("dice")
def _boost(state, command, role, seat, roll) -> list[Event]:
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
    cost = rules.ki_cost(len(picked), a["exhausted"])
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
    return events + rules.after_damage_events(state, after, levels, extra_changes=changes)


@tools.takes("ki", "sanity_ki")
def _prevent(state, command, role, seat, roll) -> list[Event]:
    p = state["pending"]
    if p is None or p["step"] != "prevent":
        raise ValueError("type: there is no hit waiting for prevention now")
    t = state["combatants"][p["target"]]
    tools.own(role, seat, t, "prevent damage")
    ki = require_int("ki", command.get("ki", 0), 0, p["would_take"])
    sanity_ki = require_bool("sanity_ki", command.get("sanity_ki", False))
    cost = rules.ki_cost(ki, t["exhausted"])
    if cost > t["ki"]:
        levels = plural(ki, "level")
        raise ValueError(f"ki: preventing {levels} costs {cost} Ki; {t['name']} has {t['ki']}")
    if ki and not rules.may_prevent(state, p["vital"]):
        raise ValueError("ki: under this ruleset Ki cannot prevent a Poise hit (rules/002)")
    return rules.resolve_events(state, p, p["levels"], ki, sanity_ki)


# -- movement, other actions -------------------------------------------------------------------


# Moving and the other actions of the round are in movement.py, round_actions.py, grab.py and
# skill_rolls.py (issue 19), registered in HANDLERS below.


# -- Ki, Fate, conditions, overrides -----------------------------------------------------------


@tools.takes("combatant", "purpose")
def _spend_ki(state, command, role, seat, roll) -> list[Event]:
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "spend Ki")
    purpose = require_choice("purpose", command.get("purpose"), rules.KI_PURPOSES)
    changes, text = rules.ki_spend(state, c, purpose)
    return [("ki_spent", {"combatant": c["id"], "purpose": purpose, "effect": text}, changes)]


@tools.takes("combatant", "condition", "until", "difficulty")
def _set_condition(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "set conditions")
    c = tools.combatant(state, command)
    name = require_choice("condition", command.get("condition"), rules.SETTABLE_CONDITIONS)
    until = require_choice("until", command.get("until", rules.DEFAULT_UNTIL[name]), rules.UNTIL)
    info = rules.condition(name, state["round"], until=until, own_turn=state["up"] == c["id"])
    if name == "Distracted":  # asked: no effect until rolled (RULES.md; rules/004)
        difficulty = require_int("difficulty", command.get("difficulty", 5), 0, 10)
        info = {**rules.distracted_asked(state, c, difficulty), "until": until}
    changes = [[combatant_path(c["id"], "conditions", name), info]]
    return [("condition_set", {"combatant": c["id"], "condition": name, "until": until}, changes)]


@tools.takes("combatant", "condition")
def _clear_condition(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "clear conditions")
    c = tools.combatant(state, command)
    name = command.get("condition")
    if not isinstance(name, str) or name not in c["conditions"]:
        raise ValueError(
            f"condition must be one {c['name']} has ({', '.join(c['conditions']) or 'none'})"
        )
    changes = [[combatant_path(c["id"], "conditions", name), None]]
    return [("condition_cleared", {"combatant": c["id"], "condition": name}, changes)]


@tools.takes("combatant", "field", "value")
def _set(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "override a value")
    c = tools.combatant(state, command)
    field = require_choice("field", command.get("field"), tuple(rules.SETTABLE))
    low, high = rules.SETTABLE[field](c)
    value = command.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"value: {rules.SETTABLE_WORDS[field]} of {c['name']} must be a whole number from "
            f"{low} to {high}, got {value!r}"
        )
    path = combatant_path(c["id"], *rules.SETTABLE_PATH.get(field, (field,)))
    changes = [[path, value]] + rules.track_consequences(state, c, field, value)
    return [("value_set", {"combatant": c["id"], "field": field, "value": value}, changes)]


@tools.takes("combatant")
def _hide(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "hide combatants")
    c = tools.combatant(state, command)
    hidden = command["type"] == "hide"
    return [
        (
            "hidden" if hidden else "shown",
            {"combatant": c["id"]},
            [[combatant_path(c["id"], "hidden"), hidden]],
        )
    ]


@tools.takes("on")
def _share(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "share the foes' numbers")
    on = require_bool("on", command.get("on"))
    return [("shared", {"on": on}, [[["share_foes"], on]])]


@tools.takes("a", "b", "band")
def _set_range(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "set range bands")
    a = tools.combatant(state, command, "a")
    b = tools.combatant(state, command, "b")
    if a["id"] == b["id"]:
        raise ValueError("b must be another combatant than a")
    band = require_choice("band", command.get("band"), rules.RANGE_BANDS)
    key = "|".join(sorted((a["id"], b["id"])))
    data = {"a": a["id"], "b": b["id"], "band": band}
    return [("range_set", data, [[["ranges", key], band]])]


@tools.takes("document", "side", "hidden", "initiative")
def _add(state, command, role, seat, roll) -> list[Event]:
    """GM: a character or creature joins the fight from its file (issue 9: "add creatures").

    In setup it simply joins. Once the fight has started it rolls Initiative (or takes the d10
    typed as ``initiative``) and takes its place in the order; it declares like everyone else
    from the next declaration on (one added while brackets resolve acts from the next round).
    """
    tools.gm_only(role, "add combatants")
    doc = command.get("document")
    errors = validate_document(doc)
    if not errors and doc["kind"] not in ("character", "creature"):
        errors = [f"This file holds a {doc['kind']}, not a character or creature."]
    if errors:
        raise ValueError("document: " + " ".join(errors[:5]))
    side = tools.text(command, "side")
    hidden = require_bool("hidden", command.get("hidden", False))
    who = from_dict(KINDS[doc["kind"]], doc["data"])
    cid = _new_id(state, who.name, hidden)
    record = combatant_record(Combatant(side=side, who=who), cid)
    name, renamed = _joiner_names(state, record["name"], hidden)
    record["name"] = name
    record["hidden"] = hidden
    joined = combatant_state(record)
    ids = [*state["ids"], cid]
    changes = [[["combatants", cid], joined], [["ids"], ids]]
    if side not in state["sides"]:
        changes.append([["sides"], [*state["sides"], side]])
    data = {"combatant": cid, "name": record["name"], "side": side}
    if renamed:  # the GM's log says so; no player saw the hidden one's name
        hid, new = renamed
        changes.append([combatant_path(hid, "name"), new])
        data["renamed"] = {"id": hid, "was": name, "name": new}
    chase = state.get("chase") or {}  # a chase from the Scene: no Initiative yet
    if state["phase"] != "setup" and chase.get("back", "fight") != "setup":
        face = command.get("initiative")
        face = roll(1)[0] if face is None else require_int("initiative", face, 1, 10)
        faces = {k: state["combatants"][k]["initiative"]["face"] for k in state["ids"]}
        faces[cid] = face
        order = rules.initiative_order(
            {"ids": ids, "combatants": {**state["combatants"], cid: joined}}, faces
        )
        total = face + joined["initiative_stat"]
        changes += [
            [combatant_path(cid, "initiative"), {"face": face, "total": total}],
            [["initiative_order"], order],
        ]
        data["initiative"] = total
    return [("added", data, changes)]


def _joiner_names(state: dict, name: str, hidden: bool) -> tuple[str, tuple[str, str] | None]:
    """A joiner's name, and (id, new name) of a hidden namesake that gives its name up.

    Numbered after the ones of its name already in ("Guard dog 3"); they keep theirs (notes
    0009, "Names numbered once"). A joiner players see is numbered among the ones they see, so
    a hidden namesake leaves no trace ("Secret Dragon 2" with only one in sight told them of
    another, issue 20): should a hidden one hold the name it takes, the hidden one takes the
    next number after every name instead (its name was never shown to a player). A hidden
    joiner is numbered after every name (only the GM sees it).
    """
    everyone = [c for c in state["combatants"].values()]
    if hidden:
        return joiner_name(name, [c["name"] for c in everyone]), None
    chosen = joiner_name(name, [c["name"] for c in everyone if not c["hidden"]])
    holder = next((c for c in everyone if c["hidden"] and c["name"] == chosen), None)
    if holder is None:
        return chosen, None
    taken = [c["name"] for c in everyone] + [chosen]
    return chosen, (holder["id"], joiner_name(name, taken))


def _new_id(state: dict, name: str, hidden: bool) -> str:
    """An unused id: the slug of the name, or "hidden-3" for a hidden one (its name is secret)."""
    base, n = ("hidden", 1) if hidden else (slug(name), 2)
    cid = f"{base}-1" if hidden else base
    while cid in state["combatants"]:
        cid, n = f"{base}-{n}", n + 1
    return cid


@tools.takes("text")
def _note(state, command, role, seat, roll) -> list[Event]:
    if role == "spectator":
        raise PermissionError("a spectator only watches; players and the GM write notes")
    return [("note", {"text": tools.text(command, "text")}, [])]


@tools.takes()
def _rest(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "call a rest or the end of a Scene")
    kind = command["type"]
    return rules.rest_events(state, kind)


@tools.takes("combatant", "difficulty", "faces")
def _shake_off(state, command, role, seat, roll) -> list[Event]:
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
        problem = rules.next_action_problem(state, c, "skill")
        if problem:
            raise ValueError(problem)
        changes += rules.spend_action(c, "skill")
    difficulty = require_int("difficulty", command.get("difficulty", 5), 0, 10)
    mods = rules.roll_advantage(c, "social", rules.distracted_states(c, None))
    faces, by = tools.typed_faces(command, dice_needed(mods), roll)
    reading = read_core_roll(faces, c["wall"]["social"] + difficulty, mods)
    changes += rules.distracted_spent(c)
    if reading.success:
        changes.append([combatant_path(c["id"], "conditions", "Flustered"), None])
    changes += rules.off_balance_after(state, c, reading)  # a kept 20 (rules/000 line ~31)
    return [("shake_off_rolled", rules.roll_data(c, reading, by), changes)]


@tools.takes()
def _rotate(state, command, role, seat, roll) -> list[Event]:
    tools.gm_only(role, "change the join code")
    code = "".join(str(d % 10) for d in roll(9))  # 9 digits, as a new table's (store.py)
    return [("code_rotated", {}, [[["join_code"], code]])]


HANDLERS = {
    "start": _start,
    "declare": _declare,
    "reveal": _reveal,
    "end_turn": _end_turn,
    "attack": _attack,
    "roll": _roll,
    "boost": _boost,
    "prevent": _prevent,
    "move": movement.move,
    "set_distance": movement.set_distance,
    "act": round_actions.act,
    "ready_fired": round_actions.ready_fired,
    "grab": grab.grab,
    "disarm": grab.disarm,
    "escape": grab.escape,
    "skill_roll": skill_rolls.skill_roll,
    "opposed_roll": skill_rolls.opposed_roll,
    "group_roll": skill_rolls.group_roll,
    "stabilise": skill_rolls.stabilise,
    "spend_ki": _spend_ki,
    "set_condition": _set_condition,
    "clear_condition": _clear_condition,
    "set": _set,
    "hide": _hide,
    "show": _hide,
    "share": _share,
    "set_range": _set_range,
    "note": _note,
    "short_rest": _rest,
    "full_night": _rest,
    "end_scene": _rest,
    "shake_off": _shake_off,
    "rotate_code": _rotate,
    "add": _add,
    "help": helping.help_command,
    "attack_ruling": attack_options.ruling_command,
    "table_option": attack_options.table_option_command,
    "repair_armor": armor_at_table.repair_command,
    "use_gift": gifts.use_gift,
    "name_scar": scars.name_scar,
    "heal_scar": scars.heal_scar,
    "scar_reading": scars.scar_reading,
}

# The rules with a module of their own (docs/notes/0015-table-rules.md).
for _module in (distracted, fate_commands, fight_end, chase_phase):
    HANDLERS.update(_module.HANDLERS)

#: The fields each command may carry besides "type" (issue 19, issue 21): declared next to
#: the handler (``takes``) or by the rule's module; ``decide`` refuses every other field.
FIELDS: dict[str, tuple[str, ...]] = {
    kind: handler.fields for kind, handler in HANDLERS.items() if hasattr(handler, "fields")
}
FIELDS.update(
    {
        "act": (
            "combatant",
            "action",
            *sorted({f for v in round_actions.ACT_FIELDS.values() for f in v}),
        ),
        "ready_fired": ("combatant",),
        "grab": grab.GRAB_FIELDS,
        "disarm": grab.DISARM_FIELDS,
        "escape": grab.ESCAPE_FIELDS,
        "skill_roll": skill_rolls.SKILL_FIELDS,
        "opposed_roll": skill_rolls.OPPOSED_FIELDS,
        "group_roll": skill_rolls.GROUP_FIELDS,
        "stabilise": skill_rolls.STABILISE_FIELDS,
        "move": movement.MOVE_FIELDS,
        "set_distance": ("a", "b", "metres"),
        "attack": attack_options.ATTACK_FIELDS[1:],
        "attack_ruling": attack_options.RULING_FIELDS[1:],
        "table_option": ("option", "on"),
        "help": helping.HELP_FIELDS[1:],
        "repair_armor": armor_at_table.REPAIR_FIELDS[1:],
        "use_gift": gifts.USE_GIFT_FIELDS[1:],
        "name_scar": ("combatant", "scar", "effect"),
        "heal_scar": ("combatant", "scar"),
        "scar_reading": ("flaw_until_healed",),
        # distracted.py, fate_commands.py and fight_end.py: what their handlers read.
        "distracted": ("combatant", "difficulty", "faces"),
        "lead": ("combatant", "leader"),
        "spend_fate": (
            "combatant",
            "spend",
            "condition",
            "roll",
            "fact",
            "magnitude",
            "range",
            "plausibility",
            "permanent",
        ),
        "fate_gain": ("combatant", "reason", "note"),
        "fate_confirm": ("combatant", "accept"),
        "continue": (),
        "end_scene": (),
        **chase_phase.FIELDS,
    }
)

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


def decide(state: dict, command: object, role: str, seat: str | None, roll: Roller) -> list[Event]:
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
    # A field it does not take is refused first, whoever sends it; a command with no field
    # list takes none (``tests/test_table_fuzz.py`` fails for it).
    tools.check_fields(command, FIELDS.get(kind, ()))
    tools.check_kinds(command)  # text, whole numbers, true or false: before any use
    if role == "spectator":
        raise PermissionError("a spectator only watches the table")
    events = scars.with_scars(state, HANDLERS[kind](state, command, role, seat, roll), kind)
    return events + fight_end.over_events(state, events)


__all__ = ["ATTACK_KINDS", "COMMANDS", "ROLES", "check_sender", "decide", "take_attack"]
