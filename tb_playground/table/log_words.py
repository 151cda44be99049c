"""The words the log's lines share: a roll's faces, total, TN and outcome in plain words.

Each rule module says its own events' lines (``COMMANDS``' words); these are the pieces they
share. Rule: RULES.md "Core Roll" (kept total at or under the TN; a critical, a catastrophe).
A roll's TN comes from its roller's numbers (or, for a Grab or Disarm, the target's Defense):
it shows only to a reader who may see them (``privacy``).
"""

from __future__ import annotations

from .command_record import Reader

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


def mine(roll: dict | None, r: Reader) -> bool:
    """Whether ``r`` may read the TN of ``roll`` (its roller's numbers)."""
    return bool(roll) and r.numbers(roll.get("combatant"))


def tn_words(d: dict) -> str:
    """The text ', TN 7', or nothing when the TN is not this reader's to see (set to None)."""
    return f", TN {d['tn']}" if d.get("tn") is not None else ""


def dice_line(r: Reader, d: dict, what: str) -> str:
    """A Core Roll in words, e.g. "Ronan rolls to hit Vance: 3, 9, kept 12 vs TN 12: ...".

    A roll of the Core Roll made for an attack, a condition's roll or the like; the TN only if
    the data still holds it (the log takes it out for a reader who may not see it).
    """
    who = r.name(d.get("attacker") or d.get("combatant"))
    faces = ", ".join(map(str, d["faces"]))
    out = OUTCOME_WORDS.get(d["outcome"], "a catastrophic failure")
    by = "" if d["rolled_by"] == "table" else " (physical dice)"
    vs = f" vs TN {d['tn']}" if d["tn"] is not None else ""
    return f"{who} rolls {what}: {faces}, kept {d['total']}{vs}: {out}{by}."
