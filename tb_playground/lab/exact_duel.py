"""The chance to win one against one, exactly, from two ``engine.fight_odds`` chains.

When a live table's fight is one combatant against one at the start of a round and nothing
couples the two attackers (``exact_duel`` lists the conditions), each attacker's rounds to put
the other down is ``engine.fight_odds`` (RULES.md "Attacks", "Vitals": one attack never carries
a track past 0; Off Balance after a kept 20, rules/000 "Rolling the Dice"), the two chains are
independent, and the one who acts first in a round (its band, then Initiative: RULES.md "Combat
round"; rules/000 "Action Brackets", "Combat Order") wins a round where both would fall. The
chance is then exact, and ``win_from_here`` gives it instead of a simulated one.
"""

from __future__ import annotations

import math

import numpy as np

from tb_playground.engine import ATTACK_KINDS, VITALS, AttackProfile, fight_odds, to_hit_odds
from tb_playground.engine.round_budget import BRACKETS

from .from_table import able_now, opening
from .prepare import prepare, resolve_policy
from .win_chance import WinChance

#: Bracket policies that fix a bracket for the whole fight: the fight_odds bracket and whether
#: its attack is empowered (1 Aim, 2 Called Shot).
_FIXED_BRACKETS = {"fast": ("fast", 0), "normal": ("normal", 0), "aim": ("slow", 1),
                   "called_shot": ("slow", 2)}  # fmt: skip


def exact_duel(state: dict, *, max_rounds: int = 50, **policies) -> WinChance | None:
    """The exact chance when the fight is one against one, or None when it cannot be had.

    Exact when: two combatants, one a side, both able to act and in the fight; at the start of
    a round (before the fight, or a round's declarations with nothing declared yet); no Off
    Balance on either; fixed brackets ("fast", "normal", "aim", "called_shot"); each attacks
    the other's Health with one attack whatever its Ki (no Gift cost or Gift Check), and no
    armor meets it; ``end`` "down"; and nothing couples the two chains: a combatant's Ki is
    spent on its own boosts or on preventing the other's levels, never both (zero Ki, no
    useful boost, or Ki policy "none"). Then each attacker's rounds to put the other down is
    ``engine.fight_odds`` (Off Balance after a kept 20 included), the two are independent, and
    the one who acts first in a round (its band, then Initiative, rolled exactly before the
    fight) wins a round where both would fall.
    """
    if state.get("phase") not in ("setup", "declare") or len(state["ids"]) != 2:
        return None
    if policies.get("end", "down") != "down" or set(policies) - {
        "bracket_policy", "target_policy", "ki_policy", "boost_policy", "attack_policy", "end",
        "workers",
    }:  # fmt: skip
        return None
    cs = state["combatants"]
    ids = list(state["ids"])
    if any(not able_now(cs[c]) or cs[c].get("bracket") for c in ids):
        return None
    if any("Off Balance" in cs[c]["conditions"] for c in ids):
        return None
    if cs[ids[0]]["side"] == cs[ids[1]]["side"]:
        return None
    encounter, _ = opening(state, policies.get("bracket_policy", "normal"))
    records = encounter["combatants"]
    prep = prepare(encounter, None, policies.get("attack_policy", "best"))
    n = 2
    get = {
        key: resolve_policy(key, policies.get(key, default), records, None, default)
        for key, default in (
            ("bracket_policy", "normal"), ("ki_policy", "stay_up"), ("boost_policy", "lift"),
        )
    }  # fmt: skip
    chains, bands = [], []
    for a in range(2):
        t = 1 - a
        g = a * n + t
        bracket = get["bracket_policy"][a]
        if bracket not in _FIXED_BRACKETS or not prep.has_attack[g]:
            return None
        if prep.choice_top and (prep.choice[a, t] != g).any():
            return None
        if prep.ki_cost[g] or prep.gift_check[g] or prep.armor_on[g].any():
            return None
        if VITALS[prep.vital[g]] != "health":
            return None
        fo_bracket, emp = _FIXED_BRACKETS[bracket]
        boost = get["boost_policy"][a]
        cap = 1000 if boost == "lift" else 0 if boost == "none" else int(boost)
        boosts = min(cap, int(prep.dice[g])) if prep.boost_useful[g] else 0
        # no coupling: this attacker's Ki goes to its boosts or to preventing, not both
        prevents = get["ki_policy"][a] != "none" and prep.ki[a] > 0
        if boosts and prevents:
            return None
        bands.append(BRACKETS.index(fo_bracket))
        flustered = "Flustered" in cs[ids[a]]["conditions"]
        chains.append(
            _chain(prep, records, a, t, g, emp, fo_bracket, boosts, get, max_rounds, flustered)
        )
        if chains[-1] is None:
            return None
    first = _first_chance(prep, state, bands)
    down_b = chains[0]  # P(1 is down by the end of round r) from 0's attacks, r = 1..max_rounds
    down_a = chains[1]
    return _duel_result(state, ids, prep, down_a, down_b, first, max_rounds)


def _chain(
    prep, records, a, t, g, emp, bracket, boosts, get, max_rounds, flustered
) -> np.ndarray | None:
    """P(``t`` down by the end of round r) under ``a``'s attacks alone, r = 1..max_rounds.

    The roll's Advantage is the simulator's (``prepare``'s sign for ``a``'s conditions now,
    and with Off Balance); the attack, wall, boost and Klotho are the prepared option's.
    """
    code = _initial_code(prep, a, flustered)
    if prep.automatic[g] or not (prep.allowed[g, code, emp] and prep.allowed[g, code | 1, emp]):
        return None
    tn = int(prep.tn[g])
    element, defense = min(tn, 10), tn - min(tn, 10)
    hit = to_hit_odds(element, defense, int(prep.sign[g, code, emp]))
    hit_ob = to_hit_odds(element, defense, int(prep.sign[g, code | 1, emp]))
    kind = ATTACK_KINDS[int(prep.kind[g])]
    profile = AttackProfile.from_to_hit(
        hit,
        int(prep.dice[g]),
        min(max(int(records[t]["wall"][kind]), 0), 10),
        boosts=boosts,
        bonus=min(max(int(records[a]["boost"][kind]), 0), 10),
        klotho=min(max(int(records[a]["klotho"]), 0), 10),
        timing="before" if prep.boosts_before else "after",
        off_balance_to_hit=hit_ob,
    )
    odds = fight_odds(
        profile,
        int(prep.maximum[t, 0]),
        max_rounds,
        start=int(prep.start[t, 0]),
        attacker_ki=int(prep.ki[a]),
        defender_ki=int(prep.ki[t]),
        ki_policy=get["ki_policy"][t],
        variant_002=bool(prep.variant_002),
        bracket=bracket,
    )
    return np.asarray(odds.p_down_by, dtype=float)


def _initial_code(prep, a: int, flustered: bool) -> int:
    """The simulator's condition code of ``a`` at the start, Off Balance aside.

    Overwhelmed at Sanity 0; Flustered at Poise 0 or below, or set for the Scene.
    """
    flustered = flustered or prep.start[a, 1] <= 0
    return (2 if prep.start[a, 2] == 0 else 0) | (4 if flustered else 0)


def _first_chance(prep, state: dict, bands: list[int]) -> float:
    """P(combatant 0 acts before combatant 1 in every round): band, then Initiative."""
    if bands[0] != bands[1]:
        return 1.0 if bands[0] < bands[1] else 0.0
    order = state.get("initiative_order") or []
    ids = list(state["ids"])
    if state["phase"] != "setup" and len(order) >= 2:
        return 1.0 if order.index(ids[0]) < order.index(ids[1]) else 0.0
    # before the fight: 1d10 + Initiative each, ties as the table breaks them
    init = prep.initiative
    key0 = (int(init[0]), bool(prep.is_character[0]), 1)  # the encounter lists 0 first
    key1 = (int(init[1]), bool(prep.is_character[1]), 0)
    wins = 0
    for f0 in range(1, 11):
        for f1 in range(1, 11):
            if (f0 + init[0], *key0) > (f1 + init[1], *key1):
                wins += 1
    return wins / 100


def _duel_result(state, ids, prep, down_a, down_b, first, max_rounds) -> WinChance:
    """Combine the two chains: 0 wins when 1 falls first, or in the same round acting first."""
    r = np.arange(1, max_rounds + 1)
    fall_b = np.diff(np.concatenate([[0.0], down_b]))  # P(1 falls in round r)
    fall_a = np.diff(np.concatenate([[0.0], down_a]))
    up_a_before = 1.0 - np.concatenate([[0.0], down_a[:-1]])  # P(0 still up at round r's start)
    up_b_before = 1.0 - np.concatenate([[0.0], down_b[:-1]])
    up_a_after, up_b_after = 1.0 - down_a, 1.0 - down_b
    # 0 first: 0 wins round r if 1 falls in r and 0 was up at its start; 1 wins if 0 falls in r
    # and 1 is still up after 0's turn of round r.
    win0 = first * (fall_b * up_a_before) + (1 - first) * (fall_b * up_a_after)
    win1 = first * (fall_a * up_b_after) + (1 - first) * (fall_a * up_b_before)
    p0, p1 = float(win0.sum()), float(win1.sum())
    ends = win0 + win1
    ended = float(ends.sum())
    mean = float((r * ends).sum() / ended) if ended > 0 else math.nan
    party = state.get("party_side") or state["sides"][0]
    sides = [prep.sides[int(s)] for s in prep.side]
    p = p0 if sides[0] == party else p1 if sides[1] == party else 0.0
    # down by the end of round 1: falls in round 1 while the other is still up to strike
    down0 = float(win1[0])
    down1 = float(win0[0])
    return WinChance(
        p_win=p,
        p_win_interval=(p, p),
        rounds_left=mean,
        rounds_left_interval=(mean, mean),
        down_next_round={ids[0]: down0, ids[1]: down1},
        next_round=1 if state["phase"] == "setup" else int(state["round"]),
        party_side=party,
        p_draw=max(0.0, 1.0 - p0 - p1),
        exact=True,
        version=int(state.get("version", 0)),
    )
