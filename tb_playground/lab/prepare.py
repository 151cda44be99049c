"""An encounter turned into flat arrays the simulator and the tactics read.

The live table's plain combatant records (``models.combatants.encounter_records``) give the numbers
of every combatant: Elements, Defenses, walls, boosts, Klotho, tracks, Ki and attacks. Here they
become per-combatant arrays and per-pair (attacker, target) attack specs: the attack chosen, its
to-hit TN, dice, wall, boost bonus, Klotho and track; the Advantage sign of every condition set
(through ``engine.roll_modifiers``, once per set, never per fight); and the exact joint
distribution of (dice over the wall, dice a boost would lift over it) of every damage roll, for
sampling. Under the 002 switch ``boosts_before_roll`` it also holds, per damage roll and per
number of boosts chosen before the roll, the engine's exact law of the levels
(``engine.damage_sweep`` with ``timing="before"``), so the simulator samples the very rule the
engine states.

An attack is an **option** (attacker, target, attack): the first ``n * n`` options are each
pair's choice with Ki to spare, the rest the fallbacks a short Ki leaves (``attack_choice``:
a Gift attack is never chosen when its Ki cost is more than the Ki left). ``Prepared.choice``
gives the option by (attacker, target, Ki now). Per option it also holds the Gift's Ki cost
(``engine.ki_spend_cost``, the table's cost rule) and whether it rolls a Gift Check, and per
(option, armor zone, critical) the engine's odds that the target's armor loses its level
(``engine.armor_distribution``): with no boost and one boost after the roll, and with each
number of boosts chosen before it.

Sources: RULES.md "Attacks" (Armor), "Vitals", "Combat round", "Core Roll: Gift Check";
rules/000 "Making an Attack", "Critical Success in Combat", "Spending Ki on the Dice", "Ki";
rules/002 "What Does Armor Do?", "How Do Called Shots Work?", "How Do I Use a Gift?".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tb_playground.engine import (
    ATTACK_KIND_RULES,
    ATTACK_KINDS,
    KI_POLICIES,
    VITALS,
    armor_distribution,
    attack_elements,
    damage_distribution,
    damage_sweep,
    gift_check_odds,
    ki_spend_cost,
    roll_modifiers,
    to_hit_odds,
)
from tb_playground.engine.armor import ZONES, Armor
from tb_playground.engine.conditions import CONDITIONS, split_states

#: Conditions the fight itself puts on and takes off, as bits of a condition code: Off Balance
#: (a catastrophe), Overwhelmed (Sanity at 0) and Flustered (Poise at 0 or below, for the Scene).
DYNAMIC_CONDITIONS = ("Off Balance", "Overwhelmed", "Flustered")

#: The condition code's fourth bit: Surprised, which lasts the fight's first round only
#: (rules/004 "Conditions": "Everything at Disadvantage for the round"; the table puts it on
#: for round 1). Kept out of ``DYNAMIC_CONDITIONS``: a live table's record still carries it.
SURPRISED_BIT = 8

#: Condition codes: the three dynamic conditions and Surprised.
CODES = 16

#: Empowered choices of an attack: none, Aim, Called Shot (rules/000 "Action Brackets").
EMPOWERED = ("none", "aim", "called shot")

#: Ruleset switches the simulator reads (``models.Ruleset``).
RULESET_SWITCHES = ("vitals_002", "never_moira", "boosts_before_roll", "slow_called_shot_advantage")

#: Switches the simulator also reads (the Gift Check's TN, rules/002), kept out of
#: ``RULESET_SWITCHES``: the rules lab's switch fights do not play them.
GIFT_SWITCHES = ("gift_check_ki_plus_stamina",)

#: Every switch ``prepare`` reads and a ``ruleset`` override may name.
READ_SWITCHES = RULESET_SWITCHES + GIFT_SWITCHES


def _clip10(value: int) -> int:
    return max(0, min(int(value), 10))


def trinomial(dice: int, over: int, lift: int) -> np.ndarray:
    """P(x dice over the wall and y dice a boost lifts over it) for ``dice`` d10s.

    ``over`` and ``lift`` are the faces (out of 10) of each kind; shape (dice + 1, dice + 1),
    zero where x + y > dice. Exact up to float rounding (products of binomial coefficients and
    powers of tenths), as ``engine.damage`` builds its tables.
    """
    po, pl = over / 10, lift / 10
    ph = 1.0 - po - pl
    out = np.zeros((dice + 1, dice + 1))
    for x in range(dice + 1):
        for y in range(dice + 1 - x):
            z = dice - x - y
            out[x, y] = math.comb(dice, x) * math.comb(dice - x, y) * po**x * pl**y * ph**z
    return out


@dataclass
class Prepared:
    """Everything the simulator needs, as arrays (see the module docstring)."""

    names: list[str]
    ids: list[str]
    sides: list[str]
    side: np.ndarray  # (n,) side index
    is_character: np.ndarray  # (n,) bool
    named: np.ndarray  # (n,) bool: follows the player rules at 0 (else out at 0 Health)
    initiative: np.ndarray  # (n,)
    maximum: np.ndarray  # (n, 3) track sizes, VITALS order
    dead_at: np.ndarray  # (n,) Health at or below which each is dead (the record's)
    start: np.ndarray  # (n, 3) tracks now
    ki: np.ndarray  # (n,)
    variant_002: bool
    slow_called_shot_advantage: bool
    # per pair p = attacker * n + target
    has_attack: np.ndarray  # (n*n,) bool
    attack_index: np.ndarray  # (n*n,) the attacker's attack used (-1 none)
    tn: np.ndarray
    dice: np.ndarray
    automatic: np.ndarray  # no to-hit roll
    crit_auto: np.ndarray  # dice that connect outright on a critical
    vital: np.ndarray  # index into VITALS
    kind: np.ndarray  # index into ATTACK_KINDS
    expected: np.ndarray  # exact expected levels of one plain attack (no boosts, no conditions)
    aim_better: np.ndarray  # (n*n,) one aimed attack beats two plain ones (expected levels)
    sign: np.ndarray  # (n*n, CODES, 3) Advantage sign by condition code and empowered choice
    allowed: np.ndarray  # (n*n, CODES, 3) bool
    # damage sampling: block b = 2 * pair + critical
    block_cum: np.ndarray  # global cumulative, block b's entries in (b, b + 1]
    block_over: np.ndarray
    block_lift: np.ndarray
    danger: np.ndarray  # (n, n): expected levels j deals a round to attacker a's side (max)
    exhausted: np.ndarray | None = None  # (n,) Exhausted level 0..5 (rules/004 "Conditions")
    surprised: np.ndarray | None = None  # (n,) bool: Surprised in the first round
    # 002 "boosts chosen before the roll" (only filled when the switch is on)
    boosts_before: bool = False
    boost_useful: np.ndarray | None = None  # (n*n,) a boost lifts some face (hit or critical)
    before_start: np.ndarray | None = None  # (2*n*n,) block of (pair, critical) with 0 boosts
    before_rolled: np.ndarray | None = None  # (2*n*n,) dice rolled: most boosts that count
    before_cum: np.ndarray | None = None  # global cumulative, block k's entries in (k, k + 1]
    before_levels: np.ndarray | None = None  # levels of each entry (outright dice included)
    # options g (the per-pair arrays above run over every option: the first n*n are the pairs')
    option_pair: np.ndarray | None = None  # (G,) the pair a * n + t of option g
    option_attack: np.ndarray | None = None  # (G,) the attacker's attack index
    choice: np.ndarray | None = None  # (n, n, choice_top + 1) option by (a, t, min(Ki, top))
    choice_top: int = 0  # the most Ki any attack costs
    ki_cost: np.ndarray | None = None  # (G,) Ki the attack costs (its Gift's; 0 if none)
    gift_check: np.ndarray | None = None  # (G,) bool: its Gift asks a Gift Check
    check_success: np.ndarray | None = None  # (n, ki + 1) P(Gift Check succeeds) at each Ki
    check_catastrophe: np.ndarray | None = None  # (n, ki + 1) P(it is a kept 20)
    # armor, zones "body" and "head" (engine.armor.ZONES)
    armor_levels: np.ndarray | None = None  # (n, 2) levels at the start (0: none or broken)
    armor_on: np.ndarray | None = None  # (G, 2) bool: option g meets armor on that zone
    armor_break: np.ndarray | None = None  # (G*2*2, 2) P(level lost): no boost, one boost after
    armor_before: np.ndarray | None = None  # (G*2*2, dice + 1) by boosts chosen before the roll
    armor_useful: np.ndarray | None = None  # (G, 2) bool: a boost lifts a face over Hardness


def plain_records(encounter, ruleset):
    from tb_playground.models import Encounter
    from tb_playground.models.combatants import encounter_records

    if isinstance(encounter, Encounter):
        records = encounter_records(encounter)
        switches = {k: bool(getattr(encounter.ruleset, k, False)) for k in READ_SWITCHES}
        sides = list(encounter.sides)
    elif isinstance(encounter, list | tuple) and all(isinstance(r, dict) for r in encounter):
        records = [dict(r) for r in encounter]
        switches = dict.fromkeys(READ_SWITCHES, False)
        sides = list(dict.fromkeys(r["side"] for r in records))
    elif isinstance(encounter, dict) and "combatants" in encounter:
        # a live table's state (combatants by id, in "ids" order) or ``plain_encounter``'s form
        found = encounter["combatants"]
        if isinstance(found, dict):
            found = [found[cid] for cid in encounter.get("ids", list(found))]
        records = [dict(r) for r in found]
        given = encounter.get("ruleset") or {}
        switches = {k: bool(given.get(k, False)) for k in READ_SWITCHES}
        sides = list(encounter.get("sides") or dict.fromkeys(r["side"] for r in records))
    else:
        raise TypeError(
            "encounter must be an Encounter, a list of combatant records "
            "(models.combatants.encounter_records) or a table's state, "
            f"got {type(encounter).__name__}"
        )
    if ruleset:
        unknown = set(ruleset) - set(READ_SWITCHES)
        if unknown:
            raise ValueError(f"ruleset switches must be among {READ_SWITCHES}, got {unknown}")
        switches.update({k: bool(v) for k, v in ruleset.items()})
    sides = [s for s in sides if any(r["side"] == s for r in records)]
    if len(sides) < 2:
        raise ValueError("encounter must have combatants on at least two sides")
    return records, switches, sides


def plain_encounter(encounter, ruleset: dict | None = None) -> dict:
    """``encounter`` as plain data (lists, dicts, numbers): what a Dask task ships.

    Returns ``{"combatants": records, "sides": sides, "ruleset": switches}``, which
    ``simulate`` and ``prepare`` accept and play exactly as the Encounter itself (same
    combatant order, same side order, same switches).
    """
    records, switches, sides = plain_records(encounter, ruleset)
    return {"combatants": records, "sides": sides, "ruleset": switches}


def resolve_policy(name: str, value, records: list[dict], choices, default) -> list:
    """One policy value per combatant from a value or a dict keyed by side, id or name.

    A dict may hold "default"; combatants it does not name take ``default``.
    """

    def check(v):
        if choices is not None and not (isinstance(v, int) and not isinstance(v, bool)):
            if v not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {v!r}")
        return v

    if isinstance(value, dict):
        fallback = check(value.get("default", default))
        keys = set(value) - {"default"}
        known = {r["side"] for r in records} | {r["id"] for r in records}
        known |= {r["name"] for r in records}
        if keys - known:
            raise ValueError(f"{name}: no side, id or name {sorted(keys - known)} in the fight")
        out = []
        for r in records:
            v = fallback
            for key in (r["side"], r["name"], r["id"]):  # the most specific wins
                if key in value:
                    v = check(value[key])
            out.append(v)
        return out
    return [check(value)] * len(records)


def _score(attacker: dict, spec: dict, never_moira: bool) -> int:
    if spec["score"] is not None:
        return _clip10(spec["score"])
    if spec["element"] is not None:
        return _clip10(attacker["elements"][spec["element"]])
    allowed = attack_elements(spec["kind"], never_moira)
    return _clip10(max(attacker["elements"].get(e, 0) for e in allowed))


def _attack_numbers(a: dict, t: dict, spec: dict, never_moira: bool) -> dict:
    kind = spec["kind"]
    score = _score(a, spec, never_moira)
    defense = _clip10(t["defense"][kind])
    dice = int(spec["dice"])
    wall = _clip10(t["wall"][kind])
    hit = to_hit_odds(score, defense)
    automatic = bool(spec["automatic"])
    p_hit = 1.0 if automatic else hit.p_hit
    p_crit = 0.0 if automatic else hit.p_critical
    levels = np.arange(dice + 1)
    plain = damage_distribution(dice, wall) @ levels
    crit = damage_distribution(dice, wall, critical=True, klotho=_clip10(a["klotho"])) @ levels
    expected = (p_hit - p_crit) * plain + p_crit * crit
    return {
        "kind": kind,
        "tn": score + defense,
        "dice": dice,
        "wall": wall,
        "bonus": _clip10(a["boost"][kind]),
        "klotho": _clip10(a["klotho"]),
        "automatic": automatic,
        "reach": "melee" if int(spec.get("reach", 1)) <= 1 else "ranged",
        "expected": float(expected),
        "score": score,
        "defense": defense,
        "plain": float(plain),
        "crit": float(crit),
    }


def _worth(numbers: dict, t: dict) -> float:
    """Expected levels per level the target must lose to stop acting (attack choice "best")."""
    vital = ATTACK_KIND_RULES[numbers["kind"]].vital
    if vital == "health":
        need = max(t["now"]["health"], 1)
    elif vital == "sanity":
        need = max(t["now"]["sanity"], 0) + 1
    else:  # Poise reaches Sanity only at its bottom (rules/000): a Sanity level per 2 x Poise
        need = 2 * t["max"]["poise"] * (max(t["now"]["sanity"], 0) + 1)
    return numbers["expected"] / need


def _before_blocks(numbers: dict, critical: bool, blocks: list, levels: list) -> None:
    """Append the laws of one damage roll with b = 0..rolled boosts chosen before the roll.

    The law is the engine's (``damage_sweep``, ``timing="before"``: rules/002 "How Do I Deal
    Damage?"; the b chosen dice carry the bonus, the outright dice of a critical connect), so
    the simulator never states the rule a second time. A budget above the dice rolled acts as
    all of them, as in the engine.
    """
    dice = numbers["dice"]
    rolled = dice - (dice + 1) // 2 if critical else dice
    table = damage_sweep(
        dice, [numbers["wall"]], range(rolled + 1), [numbers["bonus"]], "before", critical,
        numbers["klotho"] if critical else 0,
    )[dice, 0, :, 0, :]  # fmt: skip
    for b in range(rolled + 1):
        (k,) = np.nonzero(table[b] > 0)
        blocks.append(table[b, k])
        levels.append(k)


def attack_costs(record: dict, exhausted: int = 0) -> list[int]:
    """Ki each of ``record``'s attacks costs now: its Gift's, 0 for an attack of no Gift.

    The cost is the table's rule (``table.gifts.cost``): the Gift's Ki cost through
    ``engine.ki_spend_cost`` (Exhausted 4 adds 1; rules/000 "Ki", rules/004).
    """
    out = [0] * len(record["attacks"])
    for gift in record.get("gifts", []):
        k = gift.get("attack")
        if gift.get("attacks") and isinstance(k, int) and 0 <= k < len(out):
            out[k] = ki_spend_cost(int(gift["ki_cost"]), min(max(int(exhausted), 0), 5))
    return out


def attack_choice(worth, costs, pick, ki: int) -> int:
    """The attack a combatant makes with ``ki`` Ki left: the policy's pick, else a fallback.

    Parameters
    ----------
    worth : sequence of float
        Each attack's worth against the target (``attack_policy`` "best" takes the highest).
    costs : sequence of int
        Each attack's Ki cost (``attack_costs``).
    pick : "best", "first" or int
        The attack policy.
    ki : int
        The attacker's Ki now.

    Returns
    -------
    int
        The pick when its cost is paid; else the attack of highest worth among those the
        attacker can pay for (ties: the first), since the table refuses a Gift attack it
        cannot pay for (rules/000 "Ki"); -1 when it can pay for none.
    """
    payable = [k for k, c in enumerate(costs) if c <= ki]
    if not payable:
        return -1
    want = int(np.argmax(worth)) if pick == "best" else 0 if pick == "first" else int(pick)
    if costs[want] <= ki:
        return want
    return max(payable, key=lambda k: (worth[k], -k))


def attack_option(prep: Prepared, attacker: int, target: int, ki: int) -> int:
    """The option ``attacker`` uses on ``target`` with ``ki`` Ki now (-1: none it can pay for).

    ``attack_choice`` as ``prepare`` tabled it: index the per-option arrays with it
    (``option_attack`` is the attack's index in the attacker's record). The simulator reads
    the same table (vectorized), so a per-fight loop that calls this plays the same policy.
    """
    q = min(max(int(ki), 0), prep.choice_top)
    return int(prep.choice[attacker, target, q])


def _faces_over(threshold: int, bonus: int) -> tuple[int, int]:
    """(faces over ``threshold``, faces over it with the boost ``bonus``), out of 10."""
    over = 10 - max(0, min(threshold, 10))
    boosted = 10 - max(0, min(threshold - bonus, 10))
    return over, boosted


def _armor_odds(numbers: dict, item: dict, zone: str, before: bool) -> tuple:
    """The engine's P(the armor loses its level) for one option's hit on ``item`` (``zone``).

    Returns ((no boost, one boost after the roll) per critical, and per critical the list by
    boosts chosen before the roll, 0..dice rolled, or None). ``engine.armor_distribution``:
    the armor intercepts every die, loses at most one level, a critical's outright dice beat it.
    """
    armor = Armor(int(item["hardness"]), max(int(item["levels"]), 1), zone)
    after, by_before = [], []
    for critical in (False, True):
        kw = dict(
            dice=numbers["dice"], wall=numbers["wall"], armor=armor, called_shot=zone == "head",
            bonus=numbers["bonus"], critical=critical,
            klotho=numbers["klotho"] if critical else 0,
        )  # fmt: skip
        after.append([float(armor_distribution(boosts=b, **kw)[1].sum()) for b in (0, 1)])
        if before:
            rolled = numbers["dice"] - (numbers["dice"] + 1) // 2 if critical else numbers["dice"]
            by_before.append(
                [
                    float(armor_distribution(boosts=b, timing="before", **kw)[1].sum())
                    for b in range(rolled + 1)
                ]
            )
    return after, (by_before if before else None)


#: Cover a side may stand behind all fight (rules/001 "Cover"): "partial" puts every attack
#: against its combatants at Disadvantage. Full cover (no attack reaches) is not a setting: a
#: side no one can reach cannot lose.
COVER_SETTINGS = ("none", "partial")


def prepare(encounter, ruleset: dict | None = None, attack_policy="best", cover="none") -> Prepared:
    """Flatten ``encounter`` for the simulator (see the module docstring).

    Parameters
    ----------
    encounter : Encounter or list of dict
        An Encounter, or the table's plain combatant records.
    ruleset : dict, optional
        Switches to override (``READ_SWITCHES``); an Encounter brings its own.
    attack_policy : "best", "first", int, or dict
        Which of its attacks each combatant uses: "best" (the most expected levels per level the
        target needs to lose, chosen per target), "first", or an index into its attacks; a dict
        keys any of these by side, id or name. An attack whose Ki cost is more than the Ki
        left falls back to the best one the attacker can pay for (``attack_choice``).
    cover : {"none", "partial"} or dict
        The cover each combatant stands behind all fight (``COVER_SETTINGS``; a dict keys
        it by side, id or name): partial cover puts every attack against it at
        Disadvantage (rules/001 "Cover"; engine ``roll_modifiers``).
    """
    records, switches, sides = plain_records(encounter, ruleset)
    before = switches["boosts_before_roll"]
    n = len(records)
    picks = resolve_policy("attack_policy", attack_policy, records, ("best", "first"), "best")
    covers = resolve_policy("cover", cover, records, COVER_SETTINGS, "none")
    side = np.array([sides.index(r["side"]) for r in records])
    nn = n * n
    never_moira = switches["never_moira"]
    states = []
    surprised = np.zeros(n, dtype=bool)
    for i, r in enumerate(records):
        conds, exhausted = split_states([c for c in r.get("conditions", []) if c in CONDITIONS])
        # Surprised is the first round's only (a bit of the condition code), not the fight's
        surprised[i] = "Surprised" in conds
        conds = tuple(c for c in conds if c != "Surprised")
        states.append((conds, min(max(exhausted, int(r.get("exhausted", 0))), 5)))
    costs = [attack_costs(r, states[i][1]) for i, r in enumerate(records)]
    top = max((c for cs in costs for c in cs), default=0)
    # the options: each pair's choice with Ki to spare first, then the fallbacks of short Ki
    options: list = [None] * nn  # (attacker, target, attack index, numbers) or None
    choice = np.full((n, n, top + 1), -1, dtype=np.int64)
    extra: dict = {}
    for a_i, a in enumerate(records):
        for t_i, t in enumerate(records):
            p = a_i * n + t_i
            if side[a_i] == side[t_i] or not a["attacks"]:
                continue
            numbers = [_attack_numbers(a, t, s, never_moira) for s in a["attacks"]]
            worth = [_worth(o, t) for o in numbers]
            pick = picks[a_i]
            if pick not in ("best", "first") and not 0 <= int(pick) < len(numbers):
                raise ValueError(
                    f"attack_policy: {a['name']} has attacks 0..{len(numbers) - 1}, got {pick}"
                )
            ks = [attack_choice(worth, costs[a_i], pick, q) for q in range(top + 1)]
            options[p] = (a_i, t_i, ks[-1], numbers[ks[-1]])
            for q, k in enumerate(ks):
                if k == ks[-1]:
                    choice[a_i, t_i, q] = p
                elif k >= 0:
                    if (p, k) not in extra:
                        extra[p, k] = nn + len(extra)
                        options.append((a_i, t_i, k, numbers[k]))
                    choice[a_i, t_i, q] = extra[p, k]
    count = len(options)
    fields = {
        k: np.zeros(count, dtype=np.int64)
        for k in ("tn", "dice", "crit_auto", "vital", "kind", "ki_cost")
    }
    option_pair = np.arange(count) % max(nn, 1)
    option_attack = np.full(count, -1)
    automatic = np.zeros(count, dtype=bool)
    gift_check = np.zeros(count, dtype=bool)
    expected = np.zeros(count)
    aim_better = np.zeros(count, dtype=bool)
    sign = np.zeros((count, CODES, 3), dtype=np.int64)
    allowed = np.zeros((count, CODES, 3), dtype=bool)
    blocks: list[np.ndarray] = []
    overs: list[np.ndarray] = []
    lifts: list[np.ndarray] = []
    useful = np.zeros(count, dtype=bool)
    before_blocks: list[np.ndarray] = []  # per (option, critical, boosts): P(levels) > 0
    before_levels: list[np.ndarray] = []
    before_start = np.zeros(2 * count, dtype=np.int64)
    before_rolled = np.zeros(2 * count, dtype=np.int64)
    armor_levels = np.zeros((n, 2), dtype=np.int64)
    for i, r in enumerate(records):
        for z, zone in enumerate(ZONES):
            item = (r.get("armor") or {}).get(zone)
            if item is not None:
                armor_levels[i, z] = max(int(item["levels"]), 0)
    most_dice = max([o[3]["dice"] for o in options if o is not None], default=0)
    armor_on = np.zeros((count, 2), dtype=bool)
    armor_break = np.zeros((count * 4, 2))
    armor_before = np.zeros((count * 4, most_dice + 1)) if before else None
    armor_useful = np.zeros((count, 2), dtype=bool)
    for g, option in enumerate(options):
        if option is None:
            blocks += [np.ones(1), np.ones(1)]
            overs += [np.zeros(1, dtype=np.int64)] * 2
            lifts += [np.zeros(1, dtype=np.int64)] * 2
            if before:
                before_start[2 * g : 2 * g + 2] = len(before_blocks) + np.arange(2)
                before_blocks += [np.ones(1), np.ones(1)]
                before_levels += [np.zeros(1, dtype=np.int64)] * 2
            continue
        a_i, t_i, k, numbers = option
        a, t = records[a_i], records[t_i]
        option_pair[g] = a_i * n + t_i
        option_attack[g] = k
        fields["ki_cost"][g] = costs[a_i][k]
        gift_check[g] = any(
            gift.get("attacks") and gift.get("attack") == k and gift.get("gift_check")
            for gift in a.get("gifts", [])
        )
        kind = numbers["kind"]
        dice = numbers["dice"]
        fields["tn"][g] = numbers["tn"]
        fields["dice"][g] = dice
        fields["crit_auto"][g] = (dice + 1) // 2
        fields["vital"][g] = VITALS.index(ATTACK_KIND_RULES[kind].vital)
        fields["kind"][g] = ATTACK_KINDS.index(kind)
        automatic[g] = numbers["automatic"]
        expected[g] = numbers["expected"]
        # one aimed attack against two plain ones (rules/000 "Action Brackets")
        if not numbers["automatic"]:
            aim = to_hit_odds(numbers["score"], numbers["defense"], 1)
            aimed = (aim.p_hit - aim.p_critical) * numbers["plain"]
            aimed += aim.p_critical * numbers["crit"]
            aim_better[g] = aimed > 2 * numbers["expected"]
        conds_a, ex_a = states[a_i]
        conds_t, ex_t = states[t_i]
        for code in range(CODES if surprised[a_i] else 8):
            dyn = tuple(c for bit, c in enumerate(DYNAMIC_CONDITIONS) if code >> bit & 1)
            dyn += ("Surprised",) if code & SURPRISED_BIT else ()
            for e, emp in enumerate(EMPOWERED):
                mods = roll_modifiers(
                    "attack",
                    attack_kind=kind,
                    reach=numbers["reach"],
                    conditions=conds_a + dyn,
                    exhausted=ex_a,
                    target_conditions=conds_t,
                    target_exhausted=ex_t,
                    cover=covers[t_i],
                    aim=emp == "aim",
                    called_shot=emp == "called shot",
                    slow_called_shot_advantage=switches["slow_called_shot_advantage"],
                )
                sign[g, code, e] = mods.sign
                allowed[g, code, e] = mods.allowed
        if not surprised[a_i]:  # the bit is never set on one not Surprised
            sign[g, 8:], allowed[g, 8:] = sign[g, :8], allowed[g, :8]
        for critical in (False, True):
            rolled = dice - (dice + 1) // 2 if critical else dice
            threshold = numbers["wall"] - (numbers["klotho"] if critical else 0)
            over, boosted = _faces_over(threshold, numbers["bonus"])
            joint = trinomial(rolled, over, boosted - over)
            x, y = np.nonzero(joint > 0)
            blocks.append(joint[x, y])
            overs.append(x)
            lifts.append(y)
            useful[g] |= boosted > over
            if before:
                _before_blocks(numbers, critical, before_blocks, before_levels)
                before_start[2 * g + critical] = len(before_blocks) - (rolled + 1)
                before_rolled[2 * g + critical] = rolled
        # armor (a Physical matter, rules/002; the table's ``armor_at_table.covering``)
        for z, zone in enumerate(ZONES):
            item = (t.get("armor") or {}).get(zone)
            if kind != "physical" or item is None or armor_levels[t_i, z] <= 0:
                continue
            armor_on[g, z] = True
            after, by_before = _armor_odds(numbers, item, zone, before)
            for critical in (0, 1):
                row = (g * 2 + z) * 2 + critical
                armor_break[row] = after[critical]
                if before:
                    b = by_before[critical]
                    armor_before[row, : len(b)] = b
                    armor_before[row, len(b) :] = b[-1]
                h = int(item["hardness"]) - (numbers["klotho"] if critical else 0)
                over, boosted = _faces_over(h, numbers["bonus"])
                armor_useful[g, z] |= boosted > over
    cum = [b + np.cumsum(block) / block.sum() for b, block in enumerate(blocks)]
    for b, c in enumerate(cum):
        c[-1] = b + 1.0
    if before:
        before_cum = [k + np.cumsum(block) / block.sum() for k, block in enumerate(before_blocks)]
        for k, c in enumerate(before_cum):
            c[-1] = k + 1.0
    danger = np.zeros((n, n))
    exp2 = expected[:nn].reshape(n, n)
    for a_i in range(n):
        mine = side == side[a_i]
        for j in range(n):
            if side[j] != side[a_i]:
                danger[a_i, j] = 2 * exp2[j, mine].max()
    # Gift Checks (engine.gift_check; 000 ~229, the 002 switch): odds at each Ki the user can have
    ki = np.array([max(int(r["ki"]), 0) for r in records])
    check_success = np.zeros((n, int(ki.max(initial=0)) + 1))
    check_catastrophe = np.zeros_like(check_success)
    plus = bool(switches.get("gift_check_ki_plus_stamina"))
    for i, r in enumerate(records):
        if gift_check[option_pair // n == i].any():
            stamina = min(max(int(r.get("stamina", 0)), 0), 10)
            for q in range(ki[i] + 1):
                odds = gift_check_odds(q, stamina, plus)
                check_success[i, q] = odds.p_success
                check_catastrophe[i, q] = odds.p_catastrophe
    attack_index = option_attack[:nn].copy()
    return Prepared(
        names=[r["name"] for r in records],
        ids=[r["id"] for r in records],
        sides=sides,
        side=side,
        is_character=np.array([r["kind"] == "character" for r in records]),
        named=np.array([bool(r["named"]) for r in records]),
        initiative=np.array([int(r["initiative_stat"]) for r in records]),
        maximum=np.array([[int(r["max"][v]) for v in VITALS] for r in records]),
        dead_at=np.array([int(r.get("dead_at", -int(r["max"]["health"]))) for r in records]),
        start=np.array([[int(r["now"][v]) for v in VITALS] for r in records]),
        ki=np.array([int(r["ki"]) for r in records]),
        variant_002=switches["vitals_002"],
        slow_called_shot_advantage=switches["slow_called_shot_advantage"],
        has_attack=attack_index >= 0,
        attack_index=attack_index,
        tn=fields["tn"],
        dice=fields["dice"],
        automatic=automatic,
        crit_auto=fields["crit_auto"],
        vital=fields["vital"],
        kind=fields["kind"],
        expected=expected,
        aim_better=aim_better,
        sign=sign,
        allowed=allowed,
        block_cum=np.concatenate(cum),
        block_over=np.concatenate(overs),
        block_lift=np.concatenate(lifts),
        danger=danger,
        exhausted=np.array([st[1] for st in states], dtype=np.int64),
        surprised=surprised,
        boosts_before=before,
        boost_useful=useful,
        before_start=before_start if before else None,
        before_rolled=before_rolled if before else None,
        before_cum=np.concatenate(before_cum) if before else None,
        before_levels=np.concatenate(before_levels) if before else None,
        option_pair=option_pair,
        option_attack=option_attack,
        choice=choice,
        choice_top=top,
        ki_cost=fields["ki_cost"],
        gift_check=gift_check,
        check_success=check_success,
        check_catastrophe=check_catastrophe,
        armor_levels=armor_levels,
        armor_on=armor_on,
        armor_break=armor_break,
        armor_before=armor_before,
        armor_useful=armor_useful,
    )


__all__ = [
    "CODES",
    "COVER_SETTINGS",
    "DYNAMIC_CONDITIONS",
    "SURPRISED_BIT",
    "EMPOWERED",
    "KI_POLICIES",
    "Prepared",
    "attack_choice",
    "attack_costs",
    "attack_option",
    "prepare",
    "trinomial",
]
