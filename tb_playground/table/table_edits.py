"""The GM's edits of the table, and everyone's notes.

Conditions, numbers, who is hidden, range bands, who joins, the join code, the foes' numbers
shared.

Rule: RULES.md "The table" (the GM rules; players see foes' numbers only when shared) and
"Conditions"; rules/004 (a label instead of numbers). Readings (hidden joiners, names numbered
once): docs/notes/0008-table.md, docs/notes/0009 "Names numbered once".
"""

from __future__ import annotations

from tb_playground.engine.validation import require_bool, require_choice, require_int
from tb_playground.models.combatants import combatant_record, joiner_name, slug
from tb_playground.models.encounter import Combatant
from tb_playground.models.files import KINDS, from_dict, validate_document

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Event, Reader
from .privacy import FOE_ODDS
from .state import combatant_path, combatant_state


def set_condition(state, command, role, seat, roll) -> list[Event]:
    """GM: set a condition (and until when it lasts; Distracted asks for its roll)."""
    tools.gm_only(role, "set conditions")
    c = tools.combatant(state, command)
    name = require_choice("condition", command.get("condition"), fight_rules.SETTABLE_CONDITIONS)
    until = require_choice(
        "until", command.get("until", fight_rules.DEFAULT_UNTIL[name]), fight_rules.UNTIL
    )
    info = fight_rules.condition(name, state["round"], until=until, own_turn=state["up"] == c["id"])
    if name == "Distracted":  # asked: no effect until rolled (RULES.md; rules/004)
        difficulty = require_int("difficulty", command.get("difficulty", 5), 0, 10)
        info = {**fight_rules.distracted_asked(state, c, difficulty), "until": until}
    changes = [[combatant_path(c["id"], "conditions", name), info]]
    return [("condition_set", {"combatant": c["id"], "condition": name, "until": until}, changes)]


def clear_condition(state, command, role, seat, roll) -> list[Event]:
    """GM: clear a condition the combatant has."""
    tools.gm_only(role, "clear conditions")
    c = tools.combatant(state, command)
    name = command.get("condition")
    if not isinstance(name, str) or name not in c["conditions"]:
        raise ValueError(
            f"condition must be one {c['name']} has ({', '.join(c['conditions']) or 'none'})"
        )
    changes = [[combatant_path(c["id"], "conditions", name), None]]
    return [("condition_cleared", {"combatant": c["id"], "condition": name}, changes)]


def set_value(state, command, role, seat, roll) -> list[Event]:
    """GM: override a number on a card, with what follows from it (a track at 0)."""
    tools.gm_only(role, "override a value")
    c = tools.combatant(state, command)
    field = require_choice("field", command.get("field"), tuple(fight_rules.SETTABLE))
    low, high = fight_rules.SETTABLE[field](c)
    value = command.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"value: {fight_rules.SETTABLE_WORDS[field]} of {c['name']} must be a whole number "
            f"from {low} to {high}, got {value!r}"
        )
    path = combatant_path(c["id"], *fight_rules.SETTABLE_PATH.get(field, (field,)))
    changes = [[path, value]] + fight_rules.track_consequences(state, c, field, value)
    return [("value_set", {"combatant": c["id"], "field": field, "value": value}, changes)]


def hide(state, command, role, seat, roll) -> list[Event]:
    """GM: hide or show a combatant (players see no trace of a hidden one)."""
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


def share(state, command, role, seat, roll) -> list[Event]:
    """GM: share the foes' numbers with the players, or hide them again."""
    tools.gm_only(role, "share the foes' numbers")
    on = require_bool("on", command.get("on"))
    return [("shared", {"on": on}, [[["share_foes"], on]])]


def foe_odds_command(state, command, role, seat, roll) -> list[Event]:
    """GM: what an attacker sees of its odds against a foe (issue 31; the texts are silent).

    "exact" (the odds and the TN, which tell the foe's Defense), "words" (the chance to hit in
    words, ``formatting.CHANCE_BANDS``) or "none"; sharing the foes' numbers shows it all.
    """
    tools.gm_only(role, "choose what attackers see of their odds")
    show = require_choice("show", command.get("show"), FOE_ODDS)
    return [("foe_odds_set", {"show": show}, [[["foe_odds"], show]])]


def set_range(state, command, role, seat, roll) -> list[Event]:
    """GM: set the range band between two combatants."""
    tools.gm_only(role, "set range bands")
    a = tools.combatant(state, command, "a")
    b = tools.combatant(state, command, "b")
    if a["id"] == b["id"]:
        raise ValueError("b must be another combatant than a")
    band = require_choice("band", command.get("band"), fight_rules.RANGE_BANDS)
    key = "|".join(sorted((a["id"], b["id"])))
    data = {"a": a["id"], "b": b["id"], "band": band}
    return [("range_set", data, [[["ranges", key], band]])]


def add(state, command, role, seat, roll) -> list[Event]:
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
    cid = new_id(state, who.name, hidden)
    record = combatant_record(Combatant(side=side, who=who), cid)
    name, renamed = joiner_names(state, record["name"], hidden)
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
        order = fight_rules.initiative_order(
            {"ids": ids, "combatants": {**state["combatants"], cid: joined}}, faces
        )
        total = face + joined["initiative_stat"]
        changes += [
            [combatant_path(cid, "initiative"), {"face": face, "total": total}],
            [["initiative_order"], order],
        ]
        data["initiative"] = total
    return [("added", data, changes)]


def joiner_names(state: dict, name: str, hidden: bool) -> tuple[str, tuple[str, str] | None]:
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


def new_id(state: dict, name: str, hidden: bool) -> str:
    """An unused id: the slug of the name, or "hidden-3" for a hidden one (its name is secret)."""
    base, n = ("hidden", 1) if hidden else (slug(name), 2)
    cid = f"{base}-1" if hidden else base
    while cid in state["combatants"]:
        cid, n = f"{base}-{n}", n + 1
    return cid


def note(state, command, role, seat, roll) -> list[Event]:
    """A note in the log, from the GM or a player."""
    if role == "spectator":
        raise PermissionError("a spectator only watches; players and the GM write notes")
    return [("note", {"text": tools.text(command, "text")}, [])]


def rotate_code(state, command, role, seat, roll) -> list[Event]:
    """GM: a new join code (seats already taken keep their claim)."""
    tools.gm_only(role, "change the join code")
    code = "".join(str(d % 10) for d in roll(9))  # 9 digits, as a new table's (store.py)
    return [("code_rotated", {}, [[["join_code"], code]])]


# -- the log's words ----------------------------------------------------------------------------


def _condition_set(r: Reader, d: dict) -> str:
    return f"{r.name(d['combatant'])} is {d['condition']}."


def _condition_cleared(r: Reader, d: dict) -> str:
    return f"{r.name(d['combatant'])} is no longer {d['condition']}."


def _value_set(r: Reader, d: dict) -> str:
    if not r.numbers(d["combatant"]):  # a foe's numbers stay the GM's unless shared
        return f"The GM adjusts {r.name(d['combatant'])}."
    field = fight_rules.SETTABLE_WORDS.get(d["field"], d["field"])
    return f"The GM sets {r.name(d['combatant'])}'s {field} to {d['value']}."


def _added(r: Reader, d: dict) -> str:
    init = f", Initiative {d['initiative']}" if "initiative" in d else ""
    text = f"{r.name(d['combatant'])} joins the fight ({d['side']}{init})."
    if d.get("renamed") and r.sees_all:  # a hidden namesake gave its name up
        text += f" The hidden {d['renamed']['was']} is now {d['renamed']['name']}."
    return text


def _shared(r: Reader, d: dict) -> str:
    return "The GM shares the foes' numbers." if d["on"] else "The foes' numbers are hidden."


def _foe_odds_set(r: Reader, d: dict) -> str:
    return f"Against a foe, an attacker now sees {_FOE_ODDS_SAID[d['show']]}."


#: The log's words for each choice of ``foe_odds_command``.
_FOE_ODDS_SAID = {
    "exact": "the exact odds and the TN",
    "words": "the chance to hit in words only",
    "none": "no odds",
}


def _range_set(r: Reader, d: dict) -> str:
    return f"{r.name(d['a'])} and {r.name(d['b'])} are at {d['band'].capitalize()} range."


COMMANDS = (
    Command(
        "set_condition",
        set_condition,
        ("combatant", "condition", "until", "difficulty"),
        words={"condition_set": _condition_set},
        called={"condition_set": "a condition set"},
    ),
    Command(
        "clear_condition",
        clear_condition,
        ("combatant", "condition"),
        words={"condition_cleared": _condition_cleared},
        called={"condition_cleared": "a condition cleared"},
    ),
    Command(
        "set",
        set_value,
        ("combatant", "field", "value"),
        words={"value_set": _value_set},
        called={"value_set": "a change of values"},
    ),
    Command(
        "hide",
        hide,
        ("combatant",),
        words={"hidden": lambda r, d: f"{r.name(d['combatant'])} is hidden."},
        called={"hidden": "a combatant hidden"},
    ),
    Command(
        "show",
        hide,
        ("combatant",),
        words={"shown": lambda r, d: f"{r.name(d['combatant'])} appears."},
        called={"shown": "a combatant shown"},
    ),
    Command(
        "share",
        share,
        ("on",),
        words={"shared": _shared},
        called={"shared": "the foes' numbers shared or hidden"},
    ),
    Command(
        "foe_odds",
        foe_odds_command,
        ("show",),
        words={"foe_odds_set": _foe_odds_set},
        called={"foe_odds_set": "what attackers see of their odds"},
    ),
    Command("set_range", set_range, ("a", "b", "band"), words={"range_set": _range_set}),
    Command(
        "add",
        add,
        ("document", "side", "hidden", "initiative"),
        words={"added": _added},
        called={"added": "a combatant joining"},
    ),
    Command("note", note, ("text",), words={"note": lambda r, d: f"Note: {d['text']}"}),
    Command(
        "rotate_code",
        rotate_code,
        words={
            "code_rotated": lambda r, d: "The GM changes the join code." if r.sees_all else None
        },
    ),
)
