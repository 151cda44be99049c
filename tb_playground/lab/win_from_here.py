"""The party's chance to win a fight from where it stands (issue 23, item 1).

``win_from_here(table_or_state)`` plays the rest of a live table's fight many times with the
simulator (``simulate``), starting from the table's state as it is after its last event: the
Vitals, Ki, Fate, conditions, armor, Exhausted, the Initiative order, the round's phase and what
is already declared (brackets and bumps, paid), the round's order once revealed, who has acted,
whose turn it is and how many attacks that turn has left (RULES.md "Combat round"; rules/000
"Action Brackets", "Combat Order"). When the fight is one against one at the start of a round
and nothing couples the two attackers (see ``exact_duel``), the chance is exact, from two
``engine.fight_odds`` chains. ``starting_state`` shows the simulator's starting point as plain
data, so a test can hold it against the table's state field by field.

Readings where the table knows more than the simulator plays (docs/notes/0010-lab.md):

- Conditions set on a combatant hold for the whole simulated fight, except Off Balance (to the
  end of its owner's next turn, as the table reads it: ``rules.condition``'s ``own_turn``),
  Flustered (the Scene) and Overwhelmed (Sanity at 0). The table's Distracted record (a roll to
  hold focus) is left out: it touches one roll at most.
- An attack under way (a roll pending) is played again from its start; its Gift's Ki, already
  paid, is not paid again.
- Fate Tokens are carried as they stand; the simulated play spends none.

No Panel import: a page calls ``WinChanceRuns`` from a worker thread.
"""

from __future__ import annotations

import copy
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tb_playground.engine import ATTACK_KINDS, VITALS, AttackProfile, fight_odds, to_hit_odds
from tb_playground.engine.armor import ZONES
from tb_playground.engine.conditions import CONDITIONS
from tb_playground.engine.round_budget import ACTIONS, BRACKETS

from .prepare import DYNAMIC_CONDITIONS, prepare, resolve_policy
from .runs import RunCancelledError
from .simulate import BRACKET_POLICIES, Fights, simulate

#: The phases a win chance is worked out in: before the fight, a round's declarations, its turns,
#: and a fight that is over (its winner is known).
PHASES = ("setup", "declare", "resolve", "over")

#: Attacks a declared bracket holds (rules/000 "Action Brackets").
BRACKET_ATTACKS = {"fast": 1, "normal": 2, "slow": 1}

#: Off Balance that never ends by itself (set by hand for longer than a turn).
_FOREVER = 1 << 30


@dataclass(frozen=True)
class WinChance:
    """The party's chance to win from here, and how the rest of the fight may go.

    Attributes
    ----------
    p_win : float
        P(the party's side wins). A fight still undecided after ``max_rounds`` more rounds is a
        draw, in no side's chance.
    p_win_interval : tuple of float
        Its 95% Wilson interval; collapsed to ``(p_win, p_win)`` when ``exact``.
    rounds_left : float
        Expected rounds until one side is out, counting the round in play as one (the fights
        that end; nan if none did; 0 for a fight already over).
    rounds_left_interval : tuple of float
        Its 95% interval (collapsed when ``exact``).
    down_next_round : dict
        Combatant id -> P(unable to act by the end of round ``next_round``): 1 for one down now.
    next_round : int
        The table's round those chances run to: the round being declared (round 1 before the
        fight), or the one after the round whose turns are under way.
    party_side : str
        The side ``p_win`` is for (the table's party side).
    p_draw : float
        P(no side wins within ``max_rounds`` more rounds).
    fights : int
        Fights simulated (0 when ``exact`` or the fight is over).
    exact : bool
        Worked out exactly by ``engine.fight_odds`` (one against one), not simulated.
    version : int
        The table's version the chance is for.
    """

    p_win: float
    p_win_interval: tuple[float, float]
    rounds_left: float
    rounds_left_interval: tuple[float, float]
    down_next_round: dict = field(default_factory=dict)
    next_round: int = 1
    party_side: str = "Party"
    p_draw: float = 0.0
    fights: int = 0
    exact: bool = False
    version: int = 0


# -- the table's state as the simulator's starting point -----------------------------------------


def _state_of(table_or_state) -> dict:
    state = getattr(table_or_state, "state", table_or_state)
    if not isinstance(state, dict) or "combatants" not in state or "ids" not in state:
        raise TypeError(
            f"win_from_here takes a Table or its state, got {type(table_or_state).__name__}"
        )
    return state


def _static_conditions(c: dict) -> list[str]:
    """The conditions the simulator holds all fight (the rest it plays itself)."""
    return [
        name
        for name in c.get("conditions", {})
        if name in CONDITIONS and name not in DYNAMIC_CONDITIONS and name != "Distracted"
    ]


def _record(c: dict) -> dict:
    record = copy.deepcopy(c)
    record["conditions"] = _static_conditions(c)
    record["armor"] = {z: item for z, item in (c.get("armor") or {}).items() if item is not None}
    return record


def _off_balance(info: dict | None, round_now: int) -> int:
    """Off Balance as the simulator's ``ob_since`` (round 1 = the table's ``round_now``).

    The simulator ends it at its owner's turn end in a round after ``ob_since``: put on during
    the owner's own turn in round s, that is the owner's next turn (``s`` in the simulator's
    rounds); put on at another moment, the owner's very next turn end (0).
    """
    if info is None:
        return -1
    if info.get("until") != "next_turn_end":
        return _FOREVER
    if info.get("own_turn"):
        return max(int(info.get("since", 0)) - round_now + 1, 0)
    return 0


def _attacks_left(state: dict, c: dict) -> int:
    """Attacks the combatant whose turn it is has left this round (its bracket's budget)."""
    budget = BRACKET_ATTACKS[c.get("bracket") or "normal"]
    used = sum(ACTIONS[k].cost for k in c.get("actions", []) if k in ACTIONS)
    pending = state.get("pending") or {}
    if pending.get("attacker") == c["id"]:
        used -= 1  # the attack under way is played again from its start
    return max(budget - used, 0)


def opening(state: dict, bracket_policy="normal") -> tuple[dict, dict | None]:
    """The table's fight as ``simulate``'s encounter and ``opening`` (round 1 = the round in play).

    Parameters
    ----------
    state : dict
        A live table's state (``Table.state``), in the phase "setup", "declare" or "resolve".
    bracket_policy : str or dict
        ``simulate``'s; here only to read which empowered choice a declared Slow bracket makes
        (a Called Shot for "called_shot", else Aim).

    Returns
    -------
    (dict, dict or None)
        The combatants as plain records with the sides and switches, and the opening: None
        before the fight starts (the simulator rolls Initiative and declares, as the planner).
    """
    phase = state.get("phase")
    if phase not in ("setup", "declare", "resolve"):
        raise ValueError(
            "the chance to win is worked out before a fight or during its rounds, "
            f"not in the {phase} phase"
        )
    ids = list(state["ids"])
    cs = state["combatants"]
    records = [_record(cs[cid]) for cid in ids]
    encounter = {
        "combatants": records,
        "sides": [s for s in state["sides"] if any(r["side"] == s for r in records)],
        "ruleset": dict(state.get("ruleset") or {}),
    }
    round_now = max(int(state.get("round", 0)), 1)
    n = len(ids)
    start = {
        "round": round_now,
        "phase": phase,
        "ob_since": [
            _off_balance(cs[cid]["conditions"].get("Off Balance"), round_now) for cid in ids
        ],
        "flustered": ["Flustered" in cs[cid]["conditions"] for cid in ids],
        "out": [bool(cs[cid].get("out")) for cid in ids],
        "fate": [int(cs[cid].get("fate", 0)) for cid in ids],
        "rank": None,
        "first": None,
    }
    if phase == "setup":
        return encounter, start
    known = [cid for cid in state.get("initiative_order", []) if cid in cs]
    ranked = known + [cid for cid in ids if cid not in known]
    start["rank"] = [ranked.index(cid) for cid in ids]
    policies = resolve_policy("bracket_policy", bracket_policy, records, BRACKET_POLICIES, "normal")
    bracket = np.full(n, -1, dtype=np.int64)
    band = np.ones(n, dtype=np.int64)
    attacks = np.zeros(n, dtype=np.int64)
    emp = np.zeros(n, dtype=np.int64)
    for i, cid in enumerate(ids):
        c = cs[cid]
        if c.get("bracket") is None:
            continue
        bracket[i] = BRACKETS.index(c["bracket"])
        band[i] = bracket[i] - int(c.get("bumps", 0))
        attacks[i] = BRACKET_ATTACKS[c["bracket"]]
        if c["bracket"] == "slow":
            emp[i] = 2 if policies[i] == "called_shot" else 1
    first = {
        "fixed": bracket >= 0,
        "bracket": bracket,
        "band": band,
        "attacks": attacks,
        "emp": emp,
        "order": None,
        "turn": np.ones(n, dtype=bool),
        "in_order": np.zeros(n, dtype=bool),
    }
    if phase == "resolve":
        order = [cid for cid in state.get("order", []) if cid in cs]
        up = state.get("up")
        later = order[order.index(up) :] if up in order else []
        first["fixed"] = np.ones(n, dtype=bool)
        first["in_order"] = np.array([cid in order for cid in ids])
        first["turn"] = np.array([cid in later and not cs[cid].get("acted") for cid in ids])
        if up in cs:
            attacks[ids.index(up)] = _attacks_left(state, cs[up])
        attacks[~first["turn"]] = 0
        first["order"] = [ids.index(cid) for cid in order] + [
            i for i, cid in enumerate(ids) if cid not in order
        ]
    start["first"] = first
    return encounter, start


def _policy_opts(encounter: dict, **policies) -> dict:
    """``simulate``'s per-combatant options, for building one batch by hand."""
    from .simulate import TARGET_POLICIES

    records = encounter["combatants"]
    brackets = resolve_policy(
        "bracket_policy", policies.get("bracket_policy", "normal"), records, BRACKET_POLICIES,
        "normal",
    )  # fmt: skip
    targets = resolve_policy(
        "target_policy", policies.get("target_policy", "weakest"), records, TARGET_POLICIES,
        "weakest",
    )  # fmt: skip
    kis = resolve_policy("ki_policy", policies.get("ki_policy", "stay_up"), records, None, "")
    return {
        "bracket": brackets,
        "target_code": np.array([TARGET_POLICIES.index(t) for t in targets]),
        "spread": "spread" in targets,
        "ki_policy": kis,
        "boost_cap": np.full(len(records), 1000, dtype=np.int64),
        "end": policies.get("end", "down"),
        "max_rounds": 1,
        "off_balance": True,
    }


def starting_state(table_or_state, **policies) -> dict:
    """The simulator's starting point for a live table's fight, read back as plain data.

    Builds the simulator's own batch (one fight) from ``opening`` and reads what it holds:
    the tracks, Ki, Fate, conditions (the ones held all fight, and Off Balance, Flustered and
    Overwhelmed from its condition bits), armor levels, Exhausted, the Initiative order, and
    for the round in play each combatant's bracket, bumps and band, attacks left, whether it
    still has a turn, the round's order and whose turn it is.

    Parameters
    ----------
    table_or_state : Table or dict
        A live table or its state.
    **policies
        ``simulate``'s ``bracket_policy``, ``target_policy``, ``ki_policy``, ``end``.

    Returns
    -------
    dict
        ``{"round", "phase", "initiative_order", "order", "up", "combatants": {id: {...}}}``.
    """
    state = _state_of(table_or_state)
    encounter, start = opening(state, policies.get("bracket_policy", "normal"))
    prep = prepare(encounter, None, policies.get("attack_policy", "best"))
    opts = _policy_opts(encounter, **policies)
    opts["opening"] = start
    f = Fights(prep, 1, np.random.default_rng(0), opts)
    first = start["first"]
    ids, n = prep.ids, len(prep.ids)
    combatants = {}
    for i, cid in enumerate(ids):
        code = int(f.code[i, 0])
        conditions = set(encounter["combatants"][i]["conditions"])
        for bit, name in enumerate(DYNAMIC_CONDITIONS):
            if code >> bit & 1:
                conditions.add(name)
        entry = {
            "now": {v: int(f.tracks[k][i, 0]) for k, v in enumerate(VITALS)},
            "ki": int(f.ki[i, 0]),
            "fate": int(f.fate[i]),
            "exhausted": int(encounter["combatants"][i].get("exhausted", 0)),
            "conditions": sorted(conditions),
            "armor": {z: int(f.armor_lv[k * n + i, 0]) for k, z in enumerate(ZONES)},
            "out": bool(f.out[i, 0]),
            "can_act": bool(f.can[i, 0]),
            "bracket": None,
            "bumps": 0,
            "band": None,
            "attacks_left": None,
            "turn": None,
        }
        if first is not None and first["fixed"][i] and first["bracket"][i] >= 0:
            b = int(first["bracket"][i])
            entry.update(
                bracket=BRACKETS[b],
                bumps=b - int(first["band"][i]),
                band=BRACKETS[int(first["band"][i])],
            )
        if first is not None and start["phase"] == "resolve":
            entry["attacks_left"] = int(first["attacks"][i])
            entry["turn"] = bool(first["turn"][i])
        combatants[cid] = entry
    order, up = [], None
    if first is not None and first["order"] is not None:
        row = f.declare(1, first)[0][0]
        order = [ids[k] for k in row if first["in_order"][k]]
        up = next((ids[k] for k in row if first["turn"][k]), None)
    rank = f.rank[0]
    return {
        "round": start["round"] if first is not None else 0,
        "phase": start["phase"],
        "initiative_order": [] if start["rank"] is None else [ids[k] for k in np.argsort(rank)],
        "order": order,
        "up": up,
        "combatants": combatants,
    }


# -- the chance -----------------------------------------------------------------------------------


def _able_now(c: dict) -> bool:
    now = c["now"]
    return not c.get("out") and now["health"] > 0 and now["sanity"] >= 0 and c["exhausted"] < 5


def _over(state: dict) -> WinChance:
    over = state.get("over") or {}
    party = state.get("party_side", state["sides"][0])
    p = 1.0 if over.get("winner") == party else 0.0
    cs = state["combatants"]
    return WinChance(
        p_win=p,
        p_win_interval=(p, p),
        rounds_left=0.0,
        rounds_left_interval=(0.0, 0.0),
        down_next_round={cid: 0.0 if _able_now(cs[cid]) else 1.0 for cid in state["ids"]},
        next_round=int(state.get("round", 0)),
        party_side=party,
        p_draw=1.0 - p if over.get("winner") is None else 0.0,
        exact=True,
        version=int(state.get("version", 0)),
    )


def _stopper(cancel) -> Callable | None:
    if cancel is None:
        return None
    asked = cancel.is_set if hasattr(cancel, "is_set") else cancel

    def progress(_decided: int, _total: int) -> None:
        if asked():
            raise RunCancelledError

    return progress


def win_from_here(
    table_or_state,
    fights: int = 20_000,
    seed: int | None = 0,
    cancel=None,
    *,
    max_rounds: int = 50,
    exact: bool = True,
    **policies,
) -> WinChance:
    """The party's chance to win from the table's state as it stands (module docstring).

    Simulated (``simulate`` with an ``opening``: 95% Wilson interval), except one against one
    at the start of a round with nothing coupling the two attackers (``exact_duel``): then
    exact from ``engine.fight_odds`` and the interval collapses to the value.

    Parameters
    ----------
    table_or_state : Table or dict
        A live table (its ``state`` is read once, here) or a state.
    fights : int
        Fights to simulate.
    seed : int, optional
        The simulator's seed (same state, seed and policies: same chance).
    cancel : threading.Event or callable, optional
        Set (or returning True) to stop a run: ``RunCancelledError`` is raised within one
        acting slot of the simulator.
    max_rounds : int
        More rounds before an undecided fight is a draw.
    exact : bool
        Use the exact duel when it applies (False: always simulate).
    **policies
        ``simulate``'s policies (``bracket_policy``, ``target_policy``, ``ki_policy``,
        ``boost_policy``, ``attack_policy``, ``end``, ``workers``...).

    Returns
    -------
    WinChance
    """
    state = copy.deepcopy(_state_of(table_or_state))
    if state.get("phase") == "over":
        return _over(state)
    encounter, start = opening(state, policies.get("bracket_policy", "normal"))
    party = state.get("party_side") or state["sides"][0]
    next_round = 1 if state["phase"] == "setup" else int(state["round"])
    horizon = 1 if state["phase"] in ("setup", "declare") else 2
    next_round += horizon - 1
    if exact:
        duel = exact_duel(state, max_rounds=max_rounds, **policies)
        if duel is not None:
            return duel
    result = simulate(
        encounter,
        fights,
        seed,
        max_rounds=max_rounds,
        progress=_stopper(cancel),
        opening=start,
        **policies,
    )
    down = (result.out_round >= 0) & (result.out_round <= horizon)
    p = result.p_win.get(party, 0.0)
    rounds = result.rounds
    return WinChance(
        p_win=p,
        p_win_interval=result.p_win_interval.get(party, (0.0, 0.0)),
        rounds_left=float(rounds.mean),
        rounds_left_interval=(float(rounds.mean_interval[0]), float(rounds.mean_interval[1])),
        down_next_round={cid: float(down[:, i].mean()) for i, cid in enumerate(result.ids)},
        next_round=next_round,
        party_side=party,
        p_draw=result.p_draw,
        fights=fights,
        version=int(state.get("version", 0)),
    )


# -- one against one, exactly ---------------------------------------------------------------------

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
    if any(not _able_now(cs[c]) or cs[c].get("bracket") for c in ids):
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


# -- runs in a worker thread; a newer event cancels the run in progress ----------------------------


class WinChanceRun:
    """One ``win_from_here`` in a thread or a worker process (``WinChanceRuns.submit``)."""

    def __init__(self, state: dict, fights: int, seed, **policies):
        self.state = state
        self.version = int(state.get("version", 0))
        self.fights = fights
        self.seed = seed
        self.policies = policies
        self.result: WinChance | None = None
        self.error = ""
        self.cancelled = False
        self.started = time.monotonic()
        self.finished: float | None = None
        self._stop = threading.Event()
        self._settled = threading.Event()
        self._thread: threading.Thread | None = None
        self._stop_hook: Callable | None = None  # a worker process's way to stop

    def play(self, done: Callable | None = None) -> None:
        """Work the chance out in this thread; ``done(run)`` when it finishes (not cancelled)."""
        try:
            self.result = win_from_here(
                self.state, self.fights, self.seed, cancel=self._stop, **self.policies
            )
        except RunCancelledError:
            self.cancelled = True
        except (ValueError, TypeError, KeyError) as err:
            self.error = str(err)
        self._settle(done)

    def _settle(self, done: Callable | None) -> None:
        self.finished = time.monotonic()
        if done is not None and not self.cancelled:
            done(self)
        self._settled.set()

    def _from_worker(self, future, done: Callable | None) -> None:
        try:
            kind, value = future.result()
        except Exception as err:  # the worker died: say so, never hang
            kind, value = "error", f"the worker process stopped: {err}"
        if kind == "result":
            self.result = value
        elif kind == "cancelled":
            self.cancelled = True
        else:
            self.error = value
        self._settle(done)

    def cancel(self) -> None:
        """Stop at the simulator's next acting slot."""
        self._stop.set()
        if self._stop_hook is not None:
            self._stop_hook()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the run has finished (its result, error or cancellation recorded)."""
        return self._settled.wait(timeout)

    @property
    def elapsed(self) -> float:
        """Seconds from the start to the end (or to now)."""
        return (self.finished or time.monotonic()) - self.started


#: In a worker process: the ticket of the newest run asked for (shared memory).
_NEWEST = None


#: How much lower the worker process's CPU priority is than the server's (``os.nice``): on a
#: busy machine the pages' fan-out goes first, the chance a little later.
WORKER_NICE = 10


def _worker_start(newest) -> None:
    global _NEWEST
    _NEWEST = newest
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: the same priority as the server
        pass


def _play_in_worker(state: dict, fights: int, seed, ticket: int, policies: dict):
    """``win_from_here`` in a worker process; it stops when a newer ticket is asked for."""
    try:
        chance = win_from_here(
            state, fights, seed, cancel=lambda: _NEWEST.value != ticket, **policies
        )
    except RunCancelledError:
        return "cancelled", None
    except (ValueError, TypeError, KeyError) as err:
        return "error", str(err)
    return "result", chance


class WinChanceRuns:
    """The chance to win after every event, one run at a time: a newer one cancels the last.

    Parameters
    ----------
    fights, seed : int
        As ``win_from_here``.
    on_result : callable, optional
        ``on_result(run)``, called (in a thread of its own, never the caller's) when the
        newest run finishes (its ``result`` or ``error``); a page schedules its update on its
        own loop from there.
    process : bool
        Play the runs in one worker process (started once, "spawn") instead of a thread, so
        the simulation never competes with the server's own thread for the interpreter (a
        script that makes one needs the ``if __name__ == "__main__":`` guard).
    **policies
        ``win_from_here``'s policies.
    """

    def __init__(
        self,
        fights: int = 20_000,
        seed=0,
        on_result: Callable | None = None,
        *,
        process: bool = False,
        **policies,
    ):
        self.fights = fights
        self.seed = seed
        self.on_result = on_result
        self.policies = policies
        self.current: WinChanceRun | None = None
        self.latest: WinChanceRun | None = None
        self._lock = threading.Lock()
        self._pool = None
        self._newest = None
        if process:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            self._newest = context.Value("q", 0, lock=False)
            self._pool = ProcessPoolExecutor(
                1, mp_context=context, initializer=_worker_start, initargs=(self._newest,)
            )

    def _done(self, run: WinChanceRun) -> None:
        with self._lock:
            if self.latest is None or run.version >= self.latest.version:
                self.latest = run
            current = run is self.current
        if self.on_result is not None and current:  # a newer run's answer is coming
            self.on_result(run)

    def _bump(self) -> int:
        self._newest.value += 1
        return int(self._newest.value)

    def submit(self, table_or_state, fights: int | None = None) -> WinChanceRun:
        """Start a run for the state as it is now (copied here); cancel the one in progress.

        ``fights``: this run's, if not the runs' own (a momentum's past points play fewer).
        """
        state = copy.deepcopy(_state_of(table_or_state))
        fights = self.fights if fights is None else int(fights)
        run = WinChanceRun(state, fights, self.seed, **self.policies)
        with self._lock:
            if self.current is not None:
                self.current.cancel()
            self.current = run
            ticket = self._bump() if self._pool is not None else 0
        if self._pool is not None:
            run._stop_hook = lambda: ticket == self._newest.value and self._bump()
            try:
                future = self._pool.submit(
                    _play_in_worker, state, fights, self.seed, ticket, self.policies
                )
            except RuntimeError as err:  # the worker process could not start or died
                run.error = f"the worker process stopped: {err}"
                run._settle(self._done)
                return run
            future.add_done_callback(lambda f: run._from_worker(f, self._done))
            return run
        run._thread = threading.Thread(
            target=run.play, args=(self._done,), name="win-chance", daemon=True
        )
        run._thread.start()
        return run

    def cancel(self) -> None:
        """Stop the run in progress, if any."""
        with self._lock:
            if self.current is not None:
                self.current.cancel()

    def close(self) -> None:
        """Stop the run in progress and the worker process, if any."""
        self.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = [
    "PHASES",
    "WinChance",
    "WinChanceRun",
    "WinChanceRuns",
    "exact_duel",
    "opening",
    "starting_state",
    "win_from_here",
]
