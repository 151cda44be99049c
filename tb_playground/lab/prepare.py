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

Sources: RULES.md "Attacks", "Vitals", "Combat round"; rules/000 "Making an Attack", "Critical
Success in Combat", "Spending Ki on the Dice".
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
    attack_elements,
    damage_distribution,
    damage_sweep,
    roll_modifiers,
    to_hit_odds,
)
from tb_playground.engine.conditions import CONDITIONS, split_states

#: Conditions the fight itself puts on and takes off, as bits of a condition code: Off Balance
#: (a catastrophe), Overwhelmed (Sanity at 0) and Flustered (Poise at 0 or below, for the Scene).
DYNAMIC_CONDITIONS = ("Off Balance", "Overwhelmed", "Flustered")

#: Empowered choices of an attack: none, Aim, Called Shot (rules/000 "Action Brackets").
EMPOWERED = ("none", "aim", "called shot")

#: Ruleset switches the simulator reads (``models.Ruleset``).
RULESET_SWITCHES = ("vitals_002", "never_moira", "boosts_before_roll", "slow_called_shot_advantage")


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
    sign: np.ndarray  # (n*n, 8, 3) Advantage sign by condition code and empowered choice
    allowed: np.ndarray  # (n*n, 8, 3) bool
    # damage sampling: block b = 2 * pair + critical
    block_cum: np.ndarray  # global cumulative, block b's entries in (b, b + 1]
    block_over: np.ndarray
    block_lift: np.ndarray
    danger: np.ndarray  # (n, n): expected levels j deals a round to attacker a's side (max)
    # 002 "boosts chosen before the roll" (only filled when the switch is on)
    boosts_before: bool = False
    boost_useful: np.ndarray | None = None  # (n*n,) a boost lifts some face (hit or critical)
    before_start: np.ndarray | None = None  # (2*n*n,) block of (pair, critical) with 0 boosts
    before_rolled: np.ndarray | None = None  # (2*n*n,) dice rolled: most boosts that count
    before_cum: np.ndarray | None = None  # global cumulative, block k's entries in (k, k + 1]
    before_levels: np.ndarray | None = None  # levels of each entry (outright dice included)


def _records(encounter, ruleset):
    from tb_playground.models import Encounter
    from tb_playground.models.combatants import encounter_records

    if isinstance(encounter, Encounter):
        records = encounter_records(encounter)
        switches = {k: bool(getattr(encounter.ruleset, k, False)) for k in RULESET_SWITCHES}
        sides = list(encounter.sides)
    elif isinstance(encounter, list | tuple) and all(isinstance(r, dict) for r in encounter):
        records = [dict(r) for r in encounter]
        switches = dict.fromkeys(RULESET_SWITCHES, False)
        sides = list(dict.fromkeys(r["side"] for r in records))
    elif isinstance(encounter, dict) and "combatants" in encounter:
        # a live table's state (combatants by id, in "ids" order) or ``plain_encounter``'s form
        found = encounter["combatants"]
        if isinstance(found, dict):
            found = [found[cid] for cid in encounter.get("ids", list(found))]
        records = [dict(r) for r in found]
        given = encounter.get("ruleset") or {}
        switches = {k: bool(given.get(k, False)) for k in RULESET_SWITCHES}
        sides = list(encounter.get("sides") or dict.fromkeys(r["side"] for r in records))
    else:
        raise TypeError(
            "encounter must be an Encounter, a list of combatant records "
            "(models.combatants.encounter_records) or a table's state, "
            f"got {type(encounter).__name__}"
        )
    if ruleset:
        unknown = set(ruleset) - set(RULESET_SWITCHES)
        if unknown:
            raise ValueError(f"ruleset switches must be among {RULESET_SWITCHES}, got {unknown}")
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
    records, switches, sides = _records(encounter, ruleset)
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


def prepare(encounter, ruleset: dict | None = None, attack_policy="best") -> Prepared:
    """Flatten ``encounter`` for the simulator (see the module docstring).

    Parameters
    ----------
    encounter : Encounter or list of dict
        An Encounter, or the table's plain combatant records.
    ruleset : dict, optional
        Switches to override (``RULESET_SWITCHES``); an Encounter brings its own.
    attack_policy : "best", "first", int, or dict
        Which of its attacks each combatant uses: "best" (the most expected levels per level the
        target needs to lose, chosen per target), "first", or an index into its attacks; a dict
        keys any of these by side, id or name.
    """
    records, switches, sides = _records(encounter, ruleset)
    before = switches["boosts_before_roll"]
    n = len(records)
    picks = resolve_policy("attack_policy", attack_policy, records, ("best", "first"), "best")
    side = np.array([sides.index(r["side"]) for r in records])
    nn = n * n
    fields = {k: np.zeros(nn, dtype=np.int64) for k in ("tn", "dice", "crit_auto", "vital", "kind")}
    attack_index = np.full(nn, -1)
    automatic = np.zeros(nn, dtype=bool)
    expected = np.zeros(nn)
    aim_better = np.zeros(nn, dtype=bool)
    sign = np.zeros((nn, 8, 3), dtype=np.int64)
    allowed = np.zeros((nn, 8, 3), dtype=bool)
    blocks: list[np.ndarray] = []
    overs: list[np.ndarray] = []
    lifts: list[np.ndarray] = []
    useful = np.zeros(nn, dtype=bool)
    before_blocks: list[np.ndarray] = []  # per (pair, critical, boosts): P(levels) > 0
    before_levels: list[np.ndarray] = []
    before_start = np.zeros(2 * nn, dtype=np.int64)
    before_rolled = np.zeros(2 * nn, dtype=np.int64)
    never_moira = switches["never_moira"]
    states = []
    for r in records:
        conds, exhausted = split_states([c for c in r.get("conditions", []) if c in CONDITIONS])
        states.append((conds, max(exhausted, int(r.get("exhausted", 0)))))
    for a_i, a in enumerate(records):
        for t_i, t in enumerate(records):
            p = a_i * n + t_i
            numbers = None
            if side[a_i] != side[t_i] and a["attacks"]:
                options = [_attack_numbers(a, t, s, never_moira) for s in a["attacks"]]
                pick = picks[a_i]
                if pick == "best":
                    k = int(np.argmax([_worth(o, t) for o in options]))
                elif pick == "first":
                    k = 0
                else:
                    k = int(pick)
                    if not 0 <= k < len(options):
                        raise ValueError(
                            f"attack_policy: {a['name']} has attacks 0..{len(options) - 1}, got {k}"
                        )
                numbers = options[k]
                attack_index[p] = k
            if numbers is None:
                blocks += [np.ones(1), np.ones(1)]
                overs += [np.zeros(1, dtype=np.int64)] * 2
                lifts += [np.zeros(1, dtype=np.int64)] * 2
                if before:
                    before_start[2 * p : 2 * p + 2] = len(before_blocks) + np.arange(2)
                    before_blocks += [np.ones(1), np.ones(1)]
                    before_levels += [np.zeros(1, dtype=np.int64)] * 2
                continue
            kind = numbers["kind"]
            dice = numbers["dice"]
            fields["tn"][p] = numbers["tn"]
            fields["dice"][p] = dice
            fields["crit_auto"][p] = (dice + 1) // 2
            fields["vital"][p] = VITALS.index(ATTACK_KIND_RULES[kind].vital)
            fields["kind"][p] = ATTACK_KINDS.index(kind)
            automatic[p] = numbers["automatic"]
            expected[p] = numbers["expected"]
            # one aimed attack against two plain ones (rules/000 "Action Brackets")
            if not numbers["automatic"]:
                aim = to_hit_odds(numbers["score"], numbers["defense"], 1)
                aimed = (aim.p_hit - aim.p_critical) * numbers["plain"]
                aimed += aim.p_critical * numbers["crit"]
                aim_better[p] = aimed > 2 * numbers["expected"]
            conds_a, ex_a = states[a_i]
            conds_t, ex_t = states[t_i]
            for code in range(8):
                dyn = tuple(c for bit, c in enumerate(DYNAMIC_CONDITIONS) if code >> bit & 1)
                for e, emp in enumerate(EMPOWERED):
                    mods = roll_modifiers(
                        "attack",
                        attack_kind=kind,
                        reach=numbers["reach"],
                        conditions=conds_a + dyn,
                        exhausted=ex_a,
                        target_conditions=conds_t,
                        target_exhausted=ex_t,
                        aim=emp == "aim",
                        called_shot=emp == "called shot",
                        slow_called_shot_advantage=switches["slow_called_shot_advantage"],
                    )
                    sign[p, code, e] = mods.sign
                    allowed[p, code, e] = mods.allowed
            for critical in (False, True):
                rolled = dice - (dice + 1) // 2 if critical else dice
                threshold = numbers["wall"] - (numbers["klotho"] if critical else 0)
                over = 10 - max(0, min(threshold, 10))
                boosted = 10 - max(0, min(threshold - numbers["bonus"], 10))
                joint = trinomial(rolled, over, boosted - over)
                x, y = np.nonzero(joint > 0)
                blocks.append(joint[x, y])
                overs.append(x)
                lifts.append(y)
                useful[p] |= boosted > over
                if before:
                    _before_blocks(numbers, critical, before_blocks, before_levels)
                    before_start[2 * p + critical] = len(before_blocks) - (rolled + 1)
                    before_rolled[2 * p + critical] = rolled
    cum = [b + np.cumsum(block) / block.sum() for b, block in enumerate(blocks)]
    for b, c in enumerate(cum):
        c[-1] = b + 1.0
    if before:
        before_cum = [k + np.cumsum(block) / block.sum() for k, block in enumerate(before_blocks)]
        for k, c in enumerate(before_cum):
            c[-1] = k + 1.0
    danger = np.zeros((n, n))
    exp2 = expected.reshape(n, n)
    for a_i in range(n):
        mine = side == side[a_i]
        for j in range(n):
            if side[j] != side[a_i]:
                danger[a_i, j] = 2 * exp2[j, mine].max()
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
        boosts_before=before,
        boost_useful=useful,
        before_start=before_start if before else None,
        before_rolled=before_rolled if before else None,
        before_cum=np.concatenate(before_cum) if before else None,
        before_levels=np.concatenate(before_levels) if before else None,
    )


__all__ = ["DYNAMIC_CONDITIONS", "EMPOWERED", "KI_POLICIES", "Prepared", "prepare", "trinomial"]
