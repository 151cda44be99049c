"""A live table's fight as the simulator's starting point (issue 23, item 1).

``opening(state)`` turns a table's state, as it is after its last event, into ``simulate``'s
encounter and ``opening``: the Vitals, Ki, Fate, conditions, armor, Exhausted, the Initiative
order, the round's phase and what is already declared (brackets and bumps, paid), the round's
order once revealed, who has acted, whose turn it is and how many attacks that turn has left
(RULES.md "Combat round"; rules/000 "Action Brackets", "Combat Order"). ``starting_state`` reads
the simulator's starting point back as plain data, so a test can hold it against the table's
state field by field.

Readings where the table knows more than the simulator plays (docs/notes/0010-lab.md):

- Conditions set on a combatant hold for the whole simulated fight, except Off Balance (to the
  end of its owner's next turn, as the table reads it: ``rules.condition``'s ``own_turn``),
  Flustered (the Scene) and Overwhelmed (Sanity at 0). The table's Distracted record (a roll to
  hold focus) is left out: it touches one roll at most.
- An attack under way (a roll pending) is played again from its start; its Gift's Ki, already
  paid, is not paid again.
- Fate Tokens are carried as they stand; the simulated play spends none.
"""

from __future__ import annotations

import copy

import numpy as np

from tb_playground.engine import VITALS
from tb_playground.engine.armor import ZONES
from tb_playground.engine.conditions import CONDITIONS
from tb_playground.engine.round_budget import ACTIONS, BRACKETS

from .fight_options import BRACKET_POLICIES, TARGET_POLICIES, FightOptions
from .prepare import DYNAMIC_CONDITIONS, prepare, resolve_policy
from .vector_rules import Fights

#: Attacks a declared bracket holds (rules/000 "Action Brackets").
BRACKET_ATTACKS = {"fast": 1, "normal": 2, "slow": 1}

#: Off Balance that never ends by itself (set by hand for longer than a turn).
_FOREVER = 1 << 30


def state_of(table_or_state) -> dict:
    """The state of a live table, or the state itself; a TypeError for anything else."""
    state = getattr(table_or_state, "state", table_or_state)
    if not isinstance(state, dict) or "combatants" not in state or "ids" not in state:
        raise TypeError(
            f"win_from_here takes a Table or its state, got {type(table_or_state).__name__}"
        )
    return state


def able_now(c: dict) -> bool:
    """Whether a table's combatant can act now (Health above 0, Sanity 0 or more, not out...)."""
    now = c["now"]
    return not c.get("out") and now["health"] > 0 and now["sanity"] >= 0 and c["exhausted"] < 5


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


def _policy_opts(encounter: dict, start: dict | None, **policies) -> FightOptions:
    """``simulate``'s per-combatant options, for building one batch by hand."""
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
    return FightOptions(
        bracket=brackets,
        target_code=np.array([TARGET_POLICIES.index(t) for t in targets]),
        spread="spread" in targets,
        ki_policy=kis,
        boost_cap=np.full(len(records), 1000, dtype=np.int64),
        end=policies.get("end", "down"),
        max_rounds=1,
        off_balance=True,
        opening=start,
    )


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
    state = state_of(table_or_state)
    encounter, start = opening(state, policies.get("bracket_policy", "normal"))
    prep = prepare(encounter, None, policies.get("attack_policy", "best"))
    opts = _policy_opts(encounter, start, **policies)
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
