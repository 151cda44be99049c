"""What an "attack" command may say, checked, and the pending attack it starts.

Approach, Empowered action, off hand, helpers, the GM's sources, cover, the weapon's reach and
range band. Rule: RULES.md, Attacks and "Where two texts disagree (decided)"; rules/000
"Advantage and Disadvantage". Readings: docs/notes/0015-table-rules.md, "Attacks and armor".
"""

from __future__ import annotations

from tb_playground.engine import ATTACK_KIND_RULES, attack_elements
from tb_playground.engine.armor import ZONES
from tb_playground.engine.conditions import COVERS, WEAPON_RANGES, weapon_range_band
from tb_playground.engine.validation import require_bool, require_choice, require_int
from tb_playground.models.skills import LEADING_SKILLS

from . import fight_rules, help_action
from .command_record import Command, Reader

#: Every field of the "attack" command; any other is refused, by name.
ATTACK_FIELDS = (
    "type",
    "attacker",
    "target",
    "attack",
    "approach",
    "empowered",
    "zone",
    "off_hand",
    "helpers",
    "situational",
    "cover",
    "distance",
    "weapon_range",
    "boosts",
)

#: The fields of the GM's ruling on a declared attack, before its to-hit roll.
RULING_FIELDS = ("type", "approach", "situational", "cover")

#: The table options the GM may switch (none is a rule of the texts: how the table runs).
TABLE_OPTIONS = {
    "approach_nod": "a player's chosen approach waits for the GM's nod before the to-hit roll "
    "(RULES.md: the GM confirms or changes it); off: accepted as declared",
    "share_chance": "the players' pages show the chance to win from here and its chart, worked "
    "out from what they see (issue 23; lab/momentum.py)",
}

#: What the log says when the GM turns an option on or off (plain words).
TABLE_OPTION_WORDS = {
    ("share_chance", True): "The GM shares the chance to win with the players.",
    ("share_chance", False): "The GM stops sharing the chance to win.",
}

#: Empowered attacks the command may name (rules/000 "Action Brackets"); None or "none": plain.
EMPOWERED_CHOICES = ("none", "aim", "called shot")

#: Most situational sources of each sign (the engine counts 0..20 "other" sources).
MAX_SITUATIONAL = 20

#: Longest name of a situational source.
MAX_NAME = 80

#: Longest reason.
MAX_REASON = 500

#: Metres each range band spans (rules/000 line 409: Melee out to about 1 m, Close 1-10,
#: Near 10-50, Far past 50), as (nearest, furthest) whole metres.
BAND_METRES = {"melee": (0, 1), "close": (2, 10), "near": (11, 50), "far": (51, 100_000)}


#: What the command's "reach" used to set: now the attack's file says it.
def _text(value: object, field: str, longest: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        raise ValueError(f"{field} must be text of 1..{longest} characters, got {value!r}")
    return value.strip()


def situational_sources(value: object) -> list[dict]:
    """The GM's situational sources, checked.

    rules/000 line 45: "an event, gift, ally, environmental effect, etc.". A list of {"name",
    "effect": "advantage" | "disadvantage", "reason"}; at most 20 of each sign.
    """
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError("situational must be a list of {name, effect, reason} sources")
    out = []
    for i, item in enumerate(value):
        where = f"situational[{i}]"
        if not isinstance(item, dict) or set(item) != {"name", "effect", "reason"}:
            raise ValueError(f"{where} must be {{name, effect, reason}}, got {item!r}")
        out.append(
            {
                "name": _text(item["name"], f"{where}.name", MAX_NAME),
                "effect": require_choice(
                    f"{where}.effect", item["effect"], ("advantage", "disadvantage")
                ),
                "reason": _text(item["reason"], f"{where}.reason", MAX_REASON),
            }
        )
    for effect in ("advantage", "disadvantage"):
        if sum(s["effect"] == effect for s in out) > MAX_SITUATIONAL:
            raise ValueError(f"situational: at most {MAX_SITUATIONAL} {effect} sources")
    return out


def situational_counts(sources: list[dict]) -> tuple[int, int]:
    """(Advantage sources, Disadvantage sources) of the situational list."""
    plus = sum(s["effect"] == "advantage" for s in sources)
    return plus, len(sources) - plus


def label_sources(engine_sources: list, situational: list[dict]) -> list:
    """The engine's sources with its "Other ..." ones named as the GM named them."""
    plus = iter(s for s in situational if s["effect"] == "advantage")
    minus = iter(s for s in situational if s["effect"] == "disadvantage")
    out = []
    for label, sign in engine_sources:
        if label in ("Other Advantage", "Other Disadvantage"):
            s = next(plus if sign > 0 else minus)
            label = f"{s['name']} (GM: {s['reason']})"
        out.append([label, sign])
    return out


#: The options every roll takes besides its own fields (issue 32, items 1 and 7): the GM's
#: situational sources and the off hand as an attack's (rules/000 lines 43-61), Taking Your
#: Time (rules/000 lines 91-93) and the helpers whose Help waits on the roller (rules/001
#: "Help": "an ally's next roll has Advantage"). ``prefix`` names one side of an opposed roll.
ROLL_OPTIONS = ("situational", "off_hand", "taking_time", "helpers")

#: Phases in which something is coming and someone is watching: no Taking Your Time.
_HURRIED = ("declare", "resolve", "chase")


def roll_options(
    state: dict, c: dict, command: dict, role: str, need: object, prefix: str = ""
) -> dict:
    """The ``ROLL_OPTIONS`` of one roll by ``c``, checked: engine inputs, record, changes.

    Parameters
    ----------
    state, c, command, role
        The table, the roller, the command and its sender's role.
    need : str, dict or None
        What a helper must be Trained in (``help_action.trained``): the Skill rolled, an
        attack's need, or None (a roll with no Skill: Potence, bare hands).
    prefix : str
        "actor_" or "resister_" for a side of an opposed roll; "" otherwise.

    Returns
    -------
    dict
        "modifiers": keyword arguments for ``roll_modifiers``; "record": what the event keeps
        (situational, off_hand, taking_time, helpers); "situational": the checked sources;
        "changes": the helpers' Help spent.

    Raises
    ------
    PermissionError
        A player naming situational sources (the GM names them, rules/000 line 45).
    ValueError
        A bad field, named; Taking Your Time in a fight ("If nothing is coming and nobody is
        watching", rules/000 line 93).
    """
    situational = situational_sources(command.get(prefix + "situational"))
    if situational and role != "gm":
        raise PermissionError(
            "only the GM names situational Advantage or Disadvantage sources (rules/000 "
            "'Advantage and Disadvantage'); ask the GM"
        )
    off_hand = require_bool(prefix + "off_hand", command.get(prefix + "off_hand", False))
    taking_time = require_bool(prefix + "taking_time", command.get(prefix + "taking_time", False))
    if taking_time and state["phase"] in _HURRIED:
        raise ValueError(
            f"{prefix}taking_time: Taking Your Time is for when nothing is coming and nobody "
            "is watching (rules/000 'Taking Your Time'), not during a fight or a chase"
        )
    helpers = help_action.helpers_for(state, c, need, command.get(prefix + "helpers"))
    plus, minus = situational_counts(situational)
    return {
        "modifiers": {
            "off_hand": off_hand,
            "helpers": min(len(helpers), 10),
            "other_advantage": plus,
            "other_disadvantage": minus,
            "taking_time": taking_time,
        },
        "record": {
            "situational": situational,
            "off_hand": off_hand,
            "taking_time": taking_time,
            "helpers": helpers,
        },
        "situational": situational,
        "changes": help_action.use_help(helpers),
    }


def empowered_choice(command: dict) -> str | None:
    """The Empowered attack named: None, "aim" or "called shot" (the events keep these)."""
    value = command.get("empowered")
    if value is None or value == "none":
        return None
    return require_choice("empowered", value, EMPOWERED_CHOICES)


def zone_choice(command: dict, empowered: str | None) -> str:
    """The zone the attack goes to: Body, or Head for a Called Shot (rules/002 line 161).

    Reading: "zone" may only say "head", and only with a Called Shot: the texts name no other
    zone a Called Shot aims at, and a plain attack always goes to the Body.
    """
    if empowered != "called shot":
        if command.get("zone") not in (None, "body"):
            raise ValueError("zone: only a Called Shot aims at the Head zone (rules/002)")
        return "body"
    zone = require_choice("zone", command.get("zone") or "head", ZONES)
    if zone != "head":
        raise ValueError("zone: a Called Shot targets the Head zone (rules/002 'Called Shots')")
    return zone


def spec_reach(spec: dict) -> dict:
    """An attack's reach and ranges.

    A record from before issue 19 holds only ``reach`` metres (1 for every character attack
    then), read as a card's number.
    """
    if "ranged" in spec:
        return {k: spec[k] for k in ("ranged", "normal_range", "long_range")}
    ranged = spec["reach"] > 1
    return {
        "ranged": ranged,
        "normal_range": spec["reach"] if ranged else 0,
        "long_range": spec["reach"] if ranged else 0,
    }


def known_band(state: dict, a: str, b: str) -> str | None:
    """The range band the GM set between two combatants, or None."""
    value = state.get("ranges", {}).get("|".join(sorted((a, b))))
    if isinstance(value, dict):
        value = value.get("band")
    return value if value in BAND_METRES else None


def range_band(state: dict, a: dict, t: dict, spec: dict, kind: str, command: dict):
    """Where the target stands against the attack's ranges: (band, distance or None).

    rules/004 line 50: "no penalty inside Normal, Disadvantage out to Long, no shot past it"
    (engine ``weapon_range_band``). The distance in metres when the command gives it; else the
    band the command names; else the metres the table holds between the two (issue 31: what
    the table knows, never asked again); else the range band it holds, when it decides the
    question; else "normal" (nothing known: the attacker said the target is in
    range). A band that spans both sides of a range needs the metres. Social and Mental attacks
    have no ranges in the texts: always "normal".
    """
    r = spec_reach(spec)
    distance = command.get("distance")
    named = command.get("weapon_range")
    if distance is not None:
        distance = require_int("distance", distance, 0, 100_000)
    if named is not None:
        named = require_choice("weapon_range", named, WEAPON_RANGES)
    if kind != "physical":
        return "normal", distance
    if distance is not None:
        band = weapon_range_band(distance, r["normal_range"], r["long_range"])
        if named is not None and named != band:
            raise ValueError(
                f"weapon_range: at {distance} m the attack is at its {band} range, not {named}"
            )
        return band, distance
    if named is not None:
        return named, None
    known = state.get("distances", {}).get("|".join(sorted((a["id"], t["id"]))))
    if isinstance(known, int) and not isinstance(known, bool):  # the GM's metres (issue 31)
        return weapon_range_band(known, r["normal_range"], r["long_range"]), known
    table_band = known_band(state, a["id"], t["id"])
    if table_band is None:
        return "normal", None
    near, far = BAND_METRES[table_band]
    first = weapon_range_band(near, r["normal_range"], r["long_range"])
    last = weapon_range_band(far, r["normal_range"], r["long_range"])
    if first != last:
        raise ValueError(
            f"distance: the target is at {table_band.capitalize()} range ({near}-{far} m); "
            f"say how many metres (Normal range {r['normal_range']} m, Long {r['long_range']} m)"
        )
    return first, None


def attack_inputs(command: dict) -> dict:
    """The command's options as the pending attack keeps them (to recompute on a ruling)."""
    return {
        "approach": command.get("approach"),
        "empowered": empowered_choice(command),
        "zone": command.get("zone"),
        "off_hand": require_bool("off_hand", command.get("off_hand", False)),
        "situational": situational_sources(command.get("situational")),
        "cover": require_choice("cover", command.get("cover", "none"), COVERS),
        "distance": command.get("distance"),
        "weapon_range": command.get("weapon_range"),
        "boosts": command.get("boosts", 0),
    }


def approach_waits(state: dict, role: str, spec: dict) -> bool:
    """Whether a declared attack waits for the GM's nod on its approach (table option)."""
    return (
        role != "gm"
        and bool(state.get("options", {}).get("approach_nod"))
        and spec["score"] is None
        and spec["element"] is None
    )


def table_option_command(state, command, role, seat, roll) -> list:
    """GM: switch a table option (``TABLE_OPTIONS``) on or off."""
    if role != "gm":
        raise PermissionError("only the GM may change the table's options")
    option = require_choice("option", command.get("option"), tuple(TABLE_OPTIONS))
    on = require_bool("on", command.get("on"))
    options = {**state.get("options", {}), option: on}
    return [("option_set", {"option": option, "on": on}, [[["options"], options]])]


def leads_attack(spec: dict) -> bool:
    """Whether an attack takes the lead, negotiates or speaks for the group (Humiliated can't).

    A Social attack carried by Leadership, Persuasion or Public Speaking (note 0004, reading 5;
    rules/000 "Poise"): its Skill is the record's "skill", else the name before " (".
    """
    if spec["kind"] != "social":
        return False
    skill = spec.get("skill") or spec["name"].split(" (")[0]
    return skill in LEADING_SKILLS


def attack_pending(
    state: dict,
    a: dict,
    t: dict,
    index: int,
    command: dict,
    role: str = "gm",
    helpers: list[str] | None = None,
) -> dict:
    """The pending attack an "attack" command starts: TN, Advantage, dice, wall, armor, step.

    ``command`` gives the options of ``ATTACK_FIELDS``. ``helpers``, when given, are helpers
    already checked (a GM's ruling recomputing a declared attack); otherwise the command's
    "helpers" are checked, or everyone helping the attacker is taken. Raises ValueError when
    the rules forbid the attack (the reason names the field). It does not check whose turn it
    is or the round's budget (``commands._attack`` does), nor the sender's right to name
    situational sources; the pages' previews use it to show the odds before a turn.
    """
    from .armor_at_table import covering

    spec = a["attacks"][index]
    kind = spec["kind"]
    inputs = attack_inputs(command)
    empowered = inputs["empowered"]
    key = "attack" if empowered is None else fight_rules.EMPOWERED[empowered]
    zone = zone_choice(command, empowered)
    if spec["score"] is not None:
        element_name, score, argued = None, spec["score"], False
    else:
        allowed = attack_elements(kind, state["ruleset"].get("never_moira", False))
        default = spec["element"] or max(allowed, key=lambda e: a["elements"][e])
        element_name = inputs["approach"] if inputs["approach"] is not None else default
        element_name = require_choice("approach", element_name, allowed)
        # A Skill attack rolls off its Skill's Element unless a Descriptor argues another
        # (rules/000 line 197 "As with any Skill, you can argue for a different Element ... if
        # you've got a Descriptor that backs it"; rules/002 line 5): the GM's to confirm, so a
        # player's waits for the ruling (issue 32 item 5).
        argued = spec["element"] is not None and element_name != spec["element"]
        score = a["elements"][element_name]
    band, distance = range_band(state, a, t, spec, kind, command)
    reach = "ranged" if spec_reach(spec)["ranged"] else "melee"
    if helpers is None:
        need = help_action.attack_need(a, index)
        helpers = help_action.helpers_for(state, a, need, command.get("helpers"))
    plus, minus = situational_counts(inputs["situational"])
    leads = leads_attack(spec)
    mods = fight_rules.attack_modifiers(
        state,
        a,
        t,
        kind,
        key,
        inputs["cover"],
        reach,
        band,
        leads,
        off_hand=inputs["off_hand"],
        helpers=min(len(helpers), 10),
        other_advantage=plus,
        other_disadvantage=minus,
    )
    if not mods["allowed"]:
        raise ValueError(mods["reason"])
    dropped = None
    if fight_rules.distracted_states(a, key) and key != "attack":
        # Distracted and failed during a Slow action: a Normal action that loses what its
        # empowerment gave, the Called Shot's Head zone included (RULES.md; rules/001 ~131).
        dropped, empowered = empowered, None
        zone = "body"
    defense = max(t["defense"][kind] + mods["defense_change"], 0)
    armor = covering(t, kind, zone)
    waits = approach_waits(state, role, spec) or (argued and role != "gm")
    pending = {
        "attacker": a["id"],
        "target": t["id"],
        "attack": spec["name"],
        "index": index,
        "kind": kind,
        "vital": ATTACK_KIND_RULES[kind].vital,
        "element": element_name,
        "score": score,
        "defense": defense,
        "tn": score + defense,
        "advantage": mods["advantage"],
        "sources": label_sources(mods["sources"], inputs["situational"]),
        "empowered": empowered,
        "dropped": dropped,
        "notes": mods["notes"],
        "leads": leads,
        "zone": zone,
        "off_hand": inputs["off_hand"],
        "helpers": helpers,
        "situational": inputs["situational"],
        "cover": inputs["cover"],
        "reach": reach,
        "weapon_range": band,
        "distance": distance,
        "armor": armor,
        "dice": spec["dice"],
        "wall": armor["hardness"] if armor else t["wall"][kind],
        "bonus": a["boost"][kind],
        "klotho": a["klotho"],
        "automatic": spec["automatic"],
        "timing": "before" if state["ruleset"].get("boosts_before_roll") else "after",
        "step": "approach" if waits else ("damage" if spec["automatic"] else "to_hit"),
        "critical": False,
        "boosts_before": 0,
        "inputs": inputs,
    }
    if pending["timing"] == "before":
        pending["boosts_before"] = require_int("boosts", inputs["boosts"], 0, spec["dice"])
        cost = fight_rules.ki_cost(pending["boosts_before"], a["exhausted"])
        if cost > a["ki"]:
            raise ValueError(f"boosts: {cost} Ki needed, {a['name']} has {a['ki']}")
    return pending


def ruling_command(state, command, role, seat, roll) -> list:
    """GM: confirm or change a declared attack's approach, situational sources or cover.

    Before its to-hit roll (RULES.md: the GM confirms or changes the approach; rules/000 line
    439: "the GM tells you which" cover). The attack is recomputed with the same helpers.
    """
    if role != "gm":
        raise PermissionError("only the GM rules on a declared attack")
    p = state["pending"]
    if p is None or p["step"] not in ("approach", "to_hit") or "inputs" not in p:
        raise ValueError("type: there is no declared attack waiting for its to-hit roll")
    a = state["combatants"][p["attacker"]]
    t = state["combatants"][p["target"]]
    merged = {**p["inputs"], **{k: v for k, v in command.items() if k != "type"}}
    if merged.get("empowered") is None:
        merged.pop("empowered", None)
    again = attack_pending(state, a, t, p["index"], merged, "gm", p["helpers"])
    if p["timing"] == "before":
        again["boosts_before"] = p["boosts_before"]
    changes = [[["pending"], again]]
    data = {
        "attacker": a["id"],
        "target": t["id"],
        "element": again["element"],
        "tn": again["tn"],
        "sources": again["sources"],
        "cover": again["cover"],
    }
    return [("attack_ruled", data, changes)]


def attack_view(p: dict) -> dict:
    """What a pending attack's view adds (issue 19): its options, helpers and armor."""
    armor = p.get("armor")
    return {
        "empowered": p.get("empowered"),
        "zone": p.get("zone", "body"),
        "off_hand": p.get("off_hand", False),
        "helpers": list(p.get("helpers", [])),
        "situational": [dict(s) for s in p.get("situational", [])],
        "cover": p.get("cover", "none"),
        "weapon_range": p.get("weapon_range", "normal"),
        "armor": None if not armor else {"zone": armor["zone"], "name": armor["name"]},
    }


def _ruled(r: Reader, d: dict) -> str:
    tn = f": TN {d['tn']}" if d.get("tn") is not None else ""
    return f"The GM rules on {r.name(d['attacker'])}'s attack{tn}."


def _option_set(r: Reader, d: dict) -> str:
    if (d["option"], d["on"]) in TABLE_OPTION_WORDS:
        return TABLE_OPTION_WORDS[d["option"], d["on"]]
    words = TABLE_OPTIONS.get(d["option"], d["option"].replace("_", " ")).split(" (")[0]
    return f"The GM turns {'on' if d['on'] else 'off'} the table option: {words}."


COMMANDS = (
    Command("attack_ruling", ruling_command, RULING_FIELDS[1:], words={"attack_ruled": _ruled}),
    Command(
        "table_option", table_option_command, ("option", "on"), words={"option_set": _option_set}
    ),
)
