"""Armor at the table: the worn item that intercepts a hit, the level it loses, its repair.

Rule: RULES.md, Attacks (Armor); rules/002 "What Does Armor Do?", "How Do Called Shots Work?";
the maths is ``engine/armor.py``. Readings (a Physical matter; no rest mends it, the GM's
"repair_armor" does): docs/notes/0015-table-rules.md, "Attacks and armor".
"""

from __future__ import annotations

import numpy as np

from tb_playground.engine.armor import MAX_ARMOR_LEVELS, ZONES, Armor, armor_distribution
from tb_playground.engine.validation import require_choice, require_int
from tb_playground.formatting import plural

from .command_record import Command, Reader
from .state import combatant_path

#: The fields of the GM's "repair_armor" command.
REPAIR_FIELDS = ("type", "combatant", "zone", "levels")


def covering(t: dict, kind: str, zone: str) -> dict | None:
    """The pending attack's armor: the item worn on ``zone`` while it has levels, or None."""
    item = t.get("armor", {}).get(zone)
    if kind != "physical" or item is None or item["levels"] <= 0:
        return None
    return {
        "zone": zone,
        "name": item["name"],
        "hardness": item["hardness"],
        "levels": item["levels"],
        "soak": t["wall"][kind],
    }


def faced_wall(t: dict, kind: str, zone: str) -> int:
    """What each damage die must beat: the armor's Hardness while it covers, else the wall."""
    armor = covering(t, kind, zone)
    return armor["hardness"] if armor else t["wall"][kind]


def boost_useful(p: dict, levels: int) -> bool:
    """Whether a Ki boost can still change the result.

    Against armor, not once a die beat it (one level is all the armor can lose, rules/002
    line 155).
    """
    return not (p.get("armor") and levels > 0)


def boost_problem(p: dict, picked: list[int]) -> str:
    """Why these boosts are refused, or "": against armor one boost is all that can count."""
    if p.get("armor") and len(picked) > 1:
        return (
            "dice: against armor one boost is all that can matter: it loses at most one level "
            "an attack (rules/002 'What Does Armor Do?')"
        )
    return ""


def armor_hit_events(state: dict, p: dict, levels: int) -> list | None:
    """The armor takes the hit (``levels``: dice over its Hardness), or None with no armor.

    Returns the "armor_hit" event; the caller resolves the attack with 0 levels to the wearer.
    """
    armor = p.get("armor")
    if not armor:
        return None
    t = state["combatants"][p["target"]]
    item = t["armor"][armor["zone"]]
    lost = 1 if levels > 0 else 0
    after = item["levels"] - lost
    data = {
        "attacker": p["attacker"],
        "target": t["id"],
        "zone": armor["zone"],
        "armor": item["name"],
        "hardness": item["hardness"],
        "lost": lost,
        "before": item["levels"],
        "after": after,
        "broken": after == 0,
    }
    changes = [[combatant_path(t["id"], "armor", armor["zone"], "levels"), after]] if lost else []
    return [("armor_hit", data, changes)]


def armor_odds(p: dict, boosts: int, critical: bool) -> tuple[np.ndarray, float]:
    """(P(wearer loses k levels), P(the armor loses its level)) for one hit, from the engine."""
    armor = p["armor"]
    joint = armor_distribution(
        p["dice"],
        armor["soak"],
        Armor(armor["hardness"], armor["levels"], armor["zone"]),
        called_shot=armor["zone"] == "head",
        boosts=boosts,
        bonus=p["bonus"],
        timing=p["timing"],
        critical=critical,
        klotho=p["klotho"] if critical else 0,
    )
    return joint.sum(axis=0), float(joint[1].sum())


def repair_command(state, command, role, seat, roll) -> list:
    """GM: an armor item is repaired (rules/002 line 157: broken "until it's repaired")."""
    if role != "gm":
        raise PermissionError("only the GM may repair armor")
    cid = command.get("combatant")
    if not isinstance(cid, str) or cid not in state["combatants"]:
        raise ValueError(f"combatant must be the id of a combatant at this table, got {cid!r}")
    c = state["combatants"][cid]
    zone = require_choice("zone", command.get("zone", "body"), ZONES)
    item = c.get("armor", {}).get(zone)
    if item is None:
        raise ValueError(f"zone: {c['name']} wears no armor on the {zone}")
    levels = require_int("levels", command.get("levels", item["start_levels"]), 0, MAX_ARMOR_LEVELS)
    data = {"combatant": cid, "zone": zone, "armor": item["name"], "levels": levels}
    return [("armor_repaired", data, [[combatant_path(cid, "armor", zone, "levels"), levels]])]


def worn_name(state: dict, cid: str, zone: str) -> str:
    """The name of the armor ``cid`` wears on ``zone`` ("armor" if none is known)."""
    item = state["combatants"].get(cid, {}).get("armor", {}).get(zone)
    return item["name"] if item else "armor"


def hit_words(who: str, d: dict, numbers: bool) -> str:
    """What an "armor_hit" event ``d`` did to ``who``'s armor, on the log and the phones.

    rules/002 line 155: the armor takes the hit, it loses at most one level an attack, and the
    wearer takes nothing while it holds (issue 31: say which armor took what). Its levels
    before and after only when ``numbers`` (a foe's armor is the GM's unless shared).
    """
    item = f"{who}'s {d['armor']}"
    if d["lost"]:
        broke = " and breaks" if d["broken"] else ""
        counts = f" ({d['before']} -> {d['after']})" if numbers else ""
        return f"{item} takes the hit: it loses a level{counts}{broke}."
    left = f" ({plural(d['after'], 'level')} left)" if numbers else ""
    return f"{item} takes the hit and holds{left}."


def beat_words(beat: int) -> str:
    """The dice of a damage roll over the armor's Hardness (rules/002 line 155)."""
    if not beat:
        return "no die beats its Hardness"
    return f"{plural(beat, 'die', 'dice')} {'beats' if beat == 1 else 'beat'} its Hardness"


def _hit(r: Reader, d: dict) -> str:
    return hit_words(r.name(d["target"]), d, r.numbers(d["target"]))


def _repaired(r: Reader, d: dict) -> str:
    levels = plural(d["levels"], "level")
    return f"{r.name(d['combatant'])}'s {d['armor']} is repaired ({levels})."


COMMANDS = (
    Command(
        "repair_armor",
        repair_command,
        REPAIR_FIELDS[1:],
        # an armor hit is made by an attack's damage (``armor_hit_events``): its words live here
        words={"armor_repaired": _repaired, "armor_hit": _hit},
    ),
)
