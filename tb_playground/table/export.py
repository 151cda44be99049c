"""The party written back to character files after (or during) a fight (``Table.export_party``).

Each character's file, as the table took it at creation ("document" in its record), comes back
with what the fight changed: the three Vitals, Ki, Fate Tokens, Exhausted, the conditions that
outlast a round, and its marks and scars (rules/000 "Scars"). The documents are what
``models.files`` writes, and load back with it. Readings: docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

import copy

from tb_playground.models.character import MAX_LOST, SET_CONDITIONS
from tb_playground.models.files import SCHEMA_VERSION, validate_document

#: How long a condition lasts for it to be written back (a round's or a turn's are not).
LASTING = ("scene", "rest", "manual")


def character_document(c: dict) -> dict:
    """The character file of one combatant's record and state (ValueError if it has none)."""
    if c["kind"] != "character" or "document" not in c:
        raise ValueError(f"{c['name']} has no character file at this table")
    data = copy.deepcopy(c["document"])
    for vital in ("health", "poise", "sanity"):
        data[f"{vital}_lost"] = min(max(c["max"][vital] - c["now"][vital], 0), MAX_LOST)
    data["ki_spent"] = min(max(c["ki_pool"] - c["ki"], 0), 200)
    data["fate_tokens"] = c["fate"]
    data["fate_spent_this_scene"] = c["fate_counted"]
    data["exhausted"] = c["exhausted"]
    data["conditions"] = [
        name
        for name, info in c["conditions"].items()
        if name in SET_CONDITIONS and info["until"] in LASTING
    ]
    data["flustered_this_scene"] = "Flustered" in c["conditions"] and c["now"]["poise"] > 0
    data["scars"] = [
        {"effect": s["effect"], "vital": s["vital"], "form": s["form"], "depth": s["depth"]}
        for s in c.get("scars", [])
    ]
    doc = {"kind": "character", "schema_version": SCHEMA_VERSION, "data": data}
    errors = validate_document(doc, "character")
    if errors:  # pragma: no cover - every value above is clamped to the file's bounds
        raise ValueError(f"{c['name']}: " + " ".join(errors[:5]))
    return doc


def party_documents(state: dict) -> list[dict]:
    """The party side's characters (those with a file), in table order, as character files."""
    cs = state["combatants"]
    return [
        character_document(cs[cid])
        for cid in state["ids"]
        if cs[cid]["side"] == state["party_side"]
        and cs[cid]["kind"] == "character"
        and "document" in cs[cid]
    ]
