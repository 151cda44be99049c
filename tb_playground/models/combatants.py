"""Who is in a fight, as plain data: one record per combatant of an Encounter.

The table's "created" event stores these records (its state is a fold of its event log, so a
file edited later does not change a fight under way) and the lab simulates from them. The numbers
each record holds follow RULES.md "Attacks" and "Vitals"; docs/notes/0008-table.md says why.
"""

from __future__ import annotations

import re

from tb_playground.engine import ATTACK_KIND_RULES, ATTACK_KINDS, attack_dice

from .character import Character
from .creature import Creature
from .encounter import Combatant, Encounter

#: The Elements a character may attack with, by name (rules/000 "Which Element").
ELEMENT_NAMES = ("Earth", "Air", "Fire", "Water", "Moira")

#: Sub-stat that a Ki boost adds to a die, by attack kind (RULES.md, Attacks: Ki boost).
BOOST_STAT = {"physical": "ferocity", "social": "presence", "mental": "psyche"}


def slug(name: str) -> str:
    """A short id from a name: lower case letters, digits and dashes ("Grizzly bear" -> ...)."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return text[:24] or "combatant"


def attack_reach(normal_range: int, long_range: int) -> dict:
    """An attack's reach and ranges from its file (rules/004 "Weapon range", rules/000 bands).

    A Normal range of 0 is a Melee attack (out to 1 m); any other is ranged. A Long range under
    the Normal one (a file may hold it) reads as no Long band: the shot stops at Normal range.
    ``reach`` is the furthest metres it reaches (1 for Melee).
    """
    normal, long = int(normal_range), max(int(long_range), int(normal_range))
    ranged = normal > 0
    return {
        "reach": long if ranged else 1,
        "ranged": ranged,
        "normal_range": normal,
        "long_range": long if ranged else 0,
    }


def _armor(c: Character) -> dict:
    """The armor worn on each zone (one item a zone, rules/002 "What Does Armor Do?")."""
    return {
        zone: {
            "name": str(item.name),
            "hardness": int(item.hardness),
            "levels": int(item.levels),
            "start_levels": int(item.levels),
        }
        for zone, item in c.worn_armor.items()
    }


def _character(c: Character) -> dict:
    elements = {e: int(getattr(c, e.lower())) for e in ELEMENT_NAMES}
    attacks = []
    for source in c.attacks:
        attacks.append(
            {
                "name": source.label,
                "kind": source.kind,
                "dice": attack_dice(source.kind, source.source, source.rating),
                "element": source.element,
                "score": None,
                "automatic": False,
                "skill": source.skill,
                **attack_reach(source.normal_range, source.long_range),
            }
        )
    return {
        "kind": "character",
        "named": True,
        "elements": elements,
        "initiative_stat": int(c.initiative),
        "defense": {k: int(getattr(c, f"defense_{k}")) for k in ATTACK_KINDS},
        "wall": {k: int(getattr(c, ATTACK_KIND_RULES[k].wall_stat.lower())) for k in ATTACK_KINDS},
        "boost": {k: int(getattr(c, BOOST_STAT[k])) for k in ATTACK_KINDS},
        "klotho": int(c.klotho),
        "atropos": int(c.atropos),
        "rest_stats": {"health": int(c.health), "poise": int(c.presence), "sanity": int(c.psyche)},
        "stamina": int(c.stamina),
        "max": {
            "health": int(c.health_max),
            "poise": int(c.poise_max),
            "sanity": int(c.sanity_max),
        },
        "now": {
            "health": int(c.health_now),
            "poise": int(c.poise_now),
            "sanity": int(c.sanity_now),
        },
        "dead_at": int(c.dead_at),
        "ki_pool": int(c.ki_pool),
        "ki": int(c.ki_now),
        "fate": int(c.fate_tokens),
        "fate_cap": int(c.fate_cap),
        "fate_counted": int(c.fate_spent_this_scene),
        "fate_per_scene": int(c.fate_spends_per_scene),
        "movement_rate": int(c.movement_rate),
        "exhausted": int(c.exhausted),
        "conditions": list(c.conditions),
        "attacks": attacks,
        "armor": _armor(c),
        **_gifts_and_scars(c),
    }


def _card_reach(reach: int) -> dict:
    """A card's "reach or range in metres" read as an attack's reach and ranges.

    Up to 1 m it is Melee; past it a ranged attack whose Normal range is the card's number,
    with no Long band (the card gives none).
    """
    return attack_reach(0, 0) if reach <= 1 else attack_reach(reach, reach)


# -- Gifts and scars (issue 19, items 3 and 7): one block, so merges stay small -----------------


def _gifts_and_scars(c: Character) -> dict:
    """A character record's Gifts, scars and file (rules/000 "Ki" ~227-229, "Scars" ~311-333).

    Each Gift: name, level, Ki cost, whether it attacks (and at which index of ``attacks``:
    the character's Gifts with dice follow its weapons, ``Character._update_attacks``) and
    whether it asks a Gift Check. ``document`` is the character file's data, which the table's
    export writes back with the fight's vitals, conditions and scars.
    """
    places = iter(i for i, s in enumerate(c.attacks) if s.source == "gift")
    gifts = []
    for g in c.gifts:
        attacks = int(g.dice) > 0
        gifts.append(
            {
                "name": str(g.name),
                "level": int(g.level),
                "ki_cost": int(g.ki_cost),
                "attacks": attacks,
                "attack": next(places) if attacks else None,
                "gift_check": bool(g.gift_check),
            }
        )
    scars = [
        {"effect": s.effect, "vital": s.vital, "form": s.form, "depth": int(s.depth)}
        for s in c.scars
    ]
    from .files import to_dict  # here, so the block stays one piece (no import cycle)

    return {"gifts": gifts, "scars": scars, "document": to_dict(c)}


def no_gifts_or_scars() -> dict:
    """What a creature's record (or one stored before issue 19) holds for Gifts and scars."""
    return {"gifts": [], "scars": []}


# -- end of the Gifts and scars block -----------------------------------------------------------


def _creature(c: Creature) -> dict:
    attacks = [
        {
            "name": a.name,
            "kind": a.kind,
            "dice": int(a.dice),
            "element": None,
            "score": int(a.element),
            "automatic": bool(a.automatic),
            "skill": None,
            **_card_reach(int(a.reach)),
        }
        for a in c.attacks
    ]
    maxima = {"health": int(c.health), "poise": int(c.poise), "sanity": int(c.sanity)}
    rates = c.movement_rates
    return {
        "kind": "creature",
        "named": bool(c.named),
        "elements": {},
        "initiative_stat": int(c.initiative),
        "defense": {k: int(c.defense_for(k)) for k in ATTACK_KINDS},
        "wall": {k: int(c.wall_for(k)) for k in ATTACK_KINDS},
        "boost": dict.fromkeys(ATTACK_KINDS, 0),
        "klotho": 0,
        "atropos": 0,
        "rest_stats": dict(maxima),
        "stamina": 0,
        "max": maxima,
        "now": {"health": int(c.health_now), "poise": maxima["poise"], "sanity": maxima["sanity"]},
        "dead_at": -maxima["health"],
        "ki_pool": int(c.ki),
        "ki": int(c.ki),
        "fate": 0,
        "fate_cap": 0,
        "fate_counted": 0,
        "fate_per_scene": 0,
        "movement_rate": max(rates.values()) if rates else 0,
        "exhausted": 0,
        "conditions": [],
        "attacks": attacks,
        "armor": {},
        **no_gifts_or_scars(),
    }


# -- issue 19, actions of the round: the numbers Grab, Disarm, Escape, Skill rolls and movement
# by medium read (docs/notes/0015-table-rules.md "Actions of the round"). Old logs lack these
# keys; the table reads them with defaults.
def _action_fields(who: Character | Creature) -> dict:
    if isinstance(who, Character):
        return {
            "potence": int(who.potence),
            "skills": {s.name: {"element": s.element, "tier": int(s.tier)} for s in who.skills},
            "static_numbers": {},
            "movement_modes": {"walk": int(who.movement_rate)},
        }
    return {
        "potence": None,
        "skills": {},
        "static_numbers": {s.versus: int(s.value) for s in who.static_numbers},
        "movement_modes": dict(who.movement_rates),
    }


# -- end of the issue 19 block


def combatant_record(combatant: Combatant, cid: str) -> dict:
    """The plain record of one combatant, as the "created" event stores it.

    Parameters
    ----------
    combatant : Combatant
        A combatant of an Encounter.
    cid : str
        Its id in the table.

    Returns
    -------
    dict
        JSON-ready: id, name, side and the numbers the fight uses.
    """
    who = combatant.who
    body = _character(who) if isinstance(who, Character) else _creature(who)
    body.update(_action_fields(who))  # issue 19 block above
    return {"id": cid, "name": str(who.name), "side": str(combatant.side), **body}


def encounter_records(encounter: Encounter) -> list[dict]:
    """One record per combatant, with unique ids and names made from their names.

    Combatants that share a name are numbered once, here, in the order of the encounter
    ("Guard dog 1", "Guard dog 2"): every card, select and log line shows that one name.
    """
    if not isinstance(encounter, Encounter):
        raise TypeError(f"encounter must be an Encounter, got {type(encounter).__name__}")
    names = [str(c.who.name) for c in encounter.combatants]
    shared = {name for name in names if names.count(name) > 1}
    taken, last = set(names), dict.fromkeys(shared, 0)
    records, used = [], set()
    for combatant, name in zip(encounter.combatants, names, strict=True):
        base = slug(name)
        cid, n = base, 2
        while cid in used:
            cid, n = f"{base}-{n}", n + 1
        used.add(cid)
        record = combatant_record(combatant, cid)
        if name in shared:
            record["name"] = numbered_name(name, taken, last[name] + 1)
            last[name] = int(record["name"].rsplit(" ", 1)[1])
            taken.add(record["name"])
        records.append(record)
    return records


def numbered_name(name: str, taken: set[str] | list[str], start: int = 1) -> str:
    """``name`` with the first number from ``start`` on that no name in ``taken`` holds.

    ("Guard dog", {"Guard dog 1", "Guard dog 2"}) -> "Guard dog 3".
    """
    n = start
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"


def joiner_name(name: str, taken: set[str] | list[str]) -> str:
    """The name a combatant called ``name`` takes when it joins combatants named ``taken``.

    Its own name when nobody holds it or a numbered one ("Guard dog 2"); else the next number
    after the highest one of that name ("Guard dog" joining "Guard dog 1" and "Guard dog 2" is
    "Guard dog 3"; joining an unnumbered "Guard dog" it is "Guard dog 2").
    """
    pattern = re.compile(re.escape(name) + r" (\d+)")
    numbers = [int(m.group(1)) for t in taken if (m := pattern.fullmatch(t))]
    if name in taken:
        numbers.append(1)
    if not numbers:
        return name
    return numbered_name(name, taken, max(numbers) + 1)
