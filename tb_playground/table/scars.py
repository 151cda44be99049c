"""Marks and scars at the table: read once per command's Vital changes (``with_scars``).

Rule: rules/000 "Scars"; rules/002 (the ``scars_as_flaws`` reading). Marks, scars, flaws, the
temporary Mental scar and the GM's "name_scar" / "heal_scar": docs/notes/0015-table-rules.md,
"Gifts and scars".
"""

from __future__ import annotations

from tb_playground.engine.validation import require_bool
from tb_playground.models.character import SCAR_KINDS

from .command_record import Command, Reader
from .state import combatant_path

#: The table's option for 002's reading of a Health scar (a key of the state's "ruleset").
FLAW_OPTION = "scars_as_flaws"

#: Longest scar text.
MAX_EFFECT = 500


def _final_vitals(state: dict, events: list) -> tuple[dict, dict]:
    """What a command's changes leave on existing combatants' Vitals, and where.

    Returns ((combatant id, vital) -> the last value set, combatant id -> the index of the
    last event that set one of its Vitals).
    """
    found: dict[tuple[str, str], int] = {}
    where: dict[str, int] = {}
    cs = state["combatants"]
    for i, (_, _, changes) in enumerate(events):
        for path, value in changes:
            if len(path) < 3 or path[0] != "combatants" or path[2] != "now" or path[1] not in cs:
                continue
            if len(path) == 4:
                found[(path[1], path[3])] = value
            elif len(path) == 3 and isinstance(value, dict):
                for vital, v in value.items():
                    found[(path[1], vital)] = v
            where[path[1]] = i
    return found, where


def _entry(vital: str, form: str, depth: int = 0) -> dict:
    return {
        "effect": "",
        "vital": vital,
        "form": form,
        "depth": depth,
        "open": form in ("scar", "flaw"),
    }


def scar_steps(state: dict, c: dict, vital: str, before: int, after: int, kind: str):
    """(scars after, added, ended) when ``c``'s ``vital`` goes from ``before`` to ``after``."""
    scars = [dict(s) for s in c.get("scars", [])]
    added, ended = [], []
    top = c["max"][vital]
    if before > 0 >= after:
        added.append(_entry(vital, "mark"))
    if before >= 0 > after:
        flaw = vital == "health" and state["ruleset"].get(FLAW_OPTION)
        added.append(_entry(vital, "flaw" if flaw else "scar", -after))
    elif before < 0:
        open_ = [s for s in scars if s["vital"] == vital and s.get("open")]
        bottom = after == 0 and vital != "health" and kind != "value_set"
        depth = top if bottom else -after
        for s in open_[-1:]:
            s["depth"] = max(s["depth"], min(depth, top))
        if after >= 0:  # back at 0: this fall is over; 002's flaw ends with it
            for s in open_:
                s["open"] = False
                if s["form"] == "flaw":
                    ended.append(s)
    if vital == "sanity" and before == 0 and after != 0:
        ended += [s for s in scars if s["form"] == "temporary"]
    if vital == "sanity" and after == 0 and before != 0:
        ended += [s for s in scars if s["form"] == "temporary"]
        added.append(_entry(vital, "temporary"))
    kept = [s for s in scars if not any(s is e for e in ended)]
    return kept + added, added, ended


def with_scars(state: dict, events: list, kind: str) -> list:
    """``events``, with the marks and scars their changes to the Vitals leave.

    The event that moved a combatant's Vitals last also sets its scars and says so in its data
    ("scars": a list of {"combatant", "added", "ended"}).
    """
    moved, where = _final_vitals(state, events)
    if not moved:
        return events
    events = list(events)
    for cid, i in where.items():
        c = state["combatants"][cid]
        now = c["now"]
        scars, added, ended = c.get("scars", []), [], []
        for vital in SCAR_KINDS:
            after = moved.get((cid, vital), now[vital])
            if after == now[vital]:
                continue
            scars, more, gone = scar_steps(
                state, {**c, "scars": scars}, vital, now[vital], after, kind
            )
            added += more
            ended += gone
        if added or ended or scars != c.get("scars", []):
            said = {
                "combatant": cid,
                "added": [[s["form"], s["vital"]] for s in added],
                "ended": [[s["form"], s["vital"], s["effect"]] for s in ended],
            }
            etype, data, changes = events[i]
            notes = [*data.get("scars", []), said]
            events[i] = (
                etype,
                {**data, "scars": notes},
                [*changes, [combatant_path(cid, "scars"), scars]],
            )
    return events


def _scar_index(c: dict, command: dict) -> int:
    index = command.get("scar")
    scars = c.get("scars", [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(scars):
        raise ValueError(
            f"scar must be the index of one of {c['name']}'s {len(scars)} mark(s) and scar(s), "
            f"got {index!r}"
        )
    return index


def _gm_combatant(state: dict, command: dict, role: str, what: str) -> dict:
    if role != "gm":
        raise PermissionError(f"only the GM may {what} (rules/000 'Scars': the GM picks it)")
    cid = command.get("combatant")
    if not isinstance(cid, str) or cid not in state["combatants"]:
        raise ValueError(f"combatant must be the id of a combatant at this table, got {cid!r}")
    return state["combatants"][cid]


def name_scar(state, command, role, seat, roll) -> list:
    """GM: what a mark or scar is ("effect"); the same scar is never taken twice (000 ~319)."""
    c = _gm_combatant(state, command, role, "name a scar")
    i = _scar_index(c, command)
    effect = command.get("effect")
    if not isinstance(effect, str) or not effect.strip() or len(effect) > MAX_EFFECT:
        raise ValueError(f"effect must be text (1..{MAX_EFFECT} characters), got {effect!r}")
    effect = effect.strip()
    scars = [dict(s) for s in c["scars"]]
    same = [
        j
        for j, s in enumerate(scars)
        if j != i
        and s["form"] == scars[i]["form"] == "scar"
        and s["vital"] == scars[i]["vital"]
        and s["effect"].casefold() == effect.casefold()
    ]
    if same:
        raise ValueError(
            f'effect: {c["name"]} already has the scar "{effect}"; you can\'t take the same one '
            "twice (rules/000 'Scars')"
        )
    scars[i]["effect"] = effect
    data = {"combatant": c["id"], "scar": i, "form": scars[i]["form"], "effect": effect}
    return [("scar_named", data, [[combatant_path(c["id"], "scars"), scars]])]


def heal_scar(state, command, role, seat, roll) -> list:
    """GM: something healed a mark or scar (000 ~321-325), or a Gift spared it (000 ~315)."""
    c = _gm_combatant(state, command, role, "heal a scar")
    i = _scar_index(c, command)
    scars = [dict(s) for s in c["scars"]]
    gone = scars.pop(i)
    data = {"combatant": c["id"], "form": gone["form"], "vital": gone["vital"]}
    data["effect"] = gone["effect"]
    return [("scar_healed", data, [[combatant_path(c["id"], "scars"), scars]])]


def scar_reading(state, command, role, seat, roll) -> list:
    """GM: 002's reading of a Health scar (a Flaw until healed back to 0) on or off."""
    if role != "gm":
        raise PermissionError("only the GM may change how the table reads scars")
    on = require_bool("flaw_until_healed", command.get("flaw_until_healed"))
    return [("scar_reading_set", {"on": on}, [[["ruleset", FLAW_OPTION], on]])]


def card(c: dict) -> list[dict]:
    """``c``'s marks and scars as the card shows them, in the order they came."""
    return [
        {
            "index": i,
            "form": s["form"],
            "vital": s["vital"],
            "kind": SCAR_KINDS[s["vital"]],
            "effect": s["effect"],
            "depth": s["depth"],
        }
        for i, s in enumerate(c.get("scars", []))
    ]


_FORM_WORDS = {
    "mark": "a mark, only for show",
    "scar": "a lasting {kind} scar",
    "flaw": "a Flaw until Health is back at 0 (rules/002)",
    "temporary": "a temporary Mental scar effect while Sanity stays at 0",
}


def scars_said(d: dict, name, visible) -> str:
    """What the "scars" notes of an event's data add to its log line.

    Only the notes of combatants ``visible(id)`` lets this person see.
    """
    return " ".join(_scarred_text(note, name) for note in d["scars"] if visible(note["combatant"]))


def _scarred_text(d: dict, name) -> str:
    who = name(d["combatant"])
    parts = [
        f"{vital.capitalize()} leaves {_FORM_WORDS[form].format(kind=SCAR_KINDS[vital])}"
        for form, vital in d["added"]
    ]
    parts += [
        f"the {form} from {vital.capitalize()}{f' ({effect})' if effect else ''} ends"
        for form, vital, effect in d["ended"]
    ]
    return f"{who}: " + "; ".join(parts) + "." if parts else f"{who}'s scars deepen."


def _named_text(r: Reader, d: dict) -> str:
    return f"The GM names {r.name(d['combatant'])}'s {d['form']}: {d['effect']}."


def _healed_text(r: Reader, d: dict) -> str:
    what = f" ({d['effect']})" if d["effect"] else ""
    return f"{r.name(d['combatant'])}'s {d['form']} from {d['vital'].capitalize()}{what} is gone."


def _reading_text(r: Reader, d: dict) -> str:
    if d["on"]:
        return "Scars: below 0 Health leaves a Flaw until healed back to 0 (rules/002)."
    return "Scars: below 0 Health leaves a lasting Physical scar (rules/000)."


COMMANDS = (
    Command(
        "name_scar", name_scar, ("combatant", "scar", "effect"), words={"scar_named": _named_text}
    ),
    Command("heal_scar", heal_scar, ("combatant", "scar"), words={"scar_healed": _healed_text}),
    Command(
        "scar_reading",
        scar_reading,
        ("flaw_until_healed",),
        words={"scar_reading_set": _reading_text},
    ),
)
