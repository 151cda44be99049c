"""Log lines of the rolls outside an attack, in plain words (issue 20, "The log").

Skill, opposed and group rolls, stabilising, Grab, Disarm, Escape, a Ready action firing, a
distance set.
Rules: rules/000 "Opposed Rolls", "Group Rolls", "Grappling"; rules/001 "Ready". A roll's TN
comes from its roller's numbers (or, for a Grab or Disarm, the target's Defense): it shows only
to a reader who may see them (``view.py``'s rule for the cards, issue 21 "Leaks closed").
"""

from __future__ import annotations

from collections.abc import Callable

#: A Core Roll's outcome as a log line says it.
OUTCOME_WORDS = {
    "critical": "a critical",
    "success": "a success",
    "failure": "a failure",
    "catastrophe": "a catastrophic failure",
}


def roll_words(roll: dict | None, tn: bool) -> str:
    """'2, 9, 3, kept 5 vs TN 11: a success' (the TN only if ``tn``)."""
    if not roll:
        return "no roll"
    faces = ", ".join(map(str, roll.get("faces", []))) or "no dice"
    vs = f" vs TN {roll['tn']}" if tn and roll.get("tn") is not None else ""
    out = OUTCOME_WORDS.get(roll.get("outcome"), "rolled")
    return f"{faces}, kept {roll.get('total')}{vs}: {out}"


def _mine(roll: dict | None, numbers: Callable[[str], bool]) -> bool:
    return bool(roll) and numbers(roll.get("combatant"))


def log_text(kind: str, d: dict, n, shown, numbers, attack: bool) -> str | None:  # noqa: C901
    """The line of ``kind``, or None when it is not one of this module's.

    ``n(id)`` names a combatant, ``shown(ids)`` names those this reader sees, ``numbers(id)``
    says whether they may read its numbers, ``attack`` whether they may read the TN of a Grab
    or Disarm (the attacker, the target, the GM, or numbers shared).
    """
    if kind == "distance_set":
        band = d.get("band")
        return f"{n(d['a'])} and {n(d['b'])} are {d['metres']} m apart" + (
            f" ({band.capitalize()} range)." if band else "."
        )
    if kind == "skill_rolled":
        skill = d.get("skill") or "a Skill"
        return f"{n(d['combatant'])} rolls {skill}: {roll_words(d, numbers(d['combatant']))}."
    if kind == "opposed_rolled":
        actor, resister = n(d["actor"]), n(d["resister"])
        roll = d.get("roll") or d.get("actor_roll")
        static = d.get("static") is not None and d.get("card")
        tn = _mine(roll, numbers) and (not static or numbers(d["card"]))
        line = f"{actor} against {resister} ({(roll or {}).get('skill', 'opposed')}): "
        line += roll_words(roll, tn)
        other = d.get("resister_roll")
        if other:
            line += f"; {resister}: {roll_words(other, _mine(other, numbers))}"
        winner = d.get("winner")
        return line + (f"; {n(winner)} wins." if winner else ".")
    if kind == "group_rolled":
        rolls = "; ".join(
            f"{n(r['combatant'])} {roll_words(r, numbers(r['combatant']))}"
            for r in d.get("rolls", [])
        )
        result = "the group succeeds" if d.get("success") else "the group fails"
        return (
            f"{shown(d['members'])} roll {d.get('skill', 'together')} together: {rolls}: {result}."
        )
    if kind in ("stabilised", "stabilise_failed"):
        roll = d.get("roll")
        how = d.get("how") or "first aid"
        line = f"{n(d['combatant'])} tries {how} on {n(d['target'])}: "
        line += roll_words(roll, _mine(roll, numbers))
        if kind == "stabilised":
            effect = f" ({d['effect']})" if d.get("effect") and numbers(d["target"]) else ""
            return f"{line}; {n(d['target'])} is stabilised{effect}."
        return f"{line}; {n(d['target'])} is not stabilised."
    if kind == "grab_rolled":
        line = (
            f"{n(d['attacker'])} grabs at {n(d['target'])}: {roll_words(d.get('to_hit'), attack)}"
        )
        held = f"{n(d['target'])} is held" if d.get("grabbed") else "no hold"
        return f"{line}; {held}."
    if kind == "disarm_rolled":
        line = f"{n(d['attacker'])} tries to disarm {n(d['target'])}: "
        line += roll_words(d.get("to_hit"), attack)
        item = d.get("item") or "what they hold"
        if d.get("knocked_loose"):
            return f"{line}; {item} is knocked loose."
        return f"{line}; {n(d['target'])} keeps hold of {item}."
    if kind == "escape_rolled":
        roll = d.get("roll")
        if d.get("holder") is None:  # the GM set Grabbed by hand: nobody holds on
            return f"{n(d['combatant'])} is free: nobody was holding on."
        if roll is None:  # the holder is down (grab.escape)
            return (
                f"{n(d['combatant'])} breaks free of {n(d['holder'])}'s hold: the holder is down."
            )
        line = f"{n(d['combatant'])} tries to break {n(d['holder'])}'s hold: "
        line += roll_words(roll, _mine(roll, numbers))
        return f"{line}; " + ("breaks free." if d.get("escaped") else "still held.")
    if kind == "ready_fired":
        return f"{n(d['combatant'])}'s Ready action fires ({d.get('trigger') or 'its trigger'})."
    return None
