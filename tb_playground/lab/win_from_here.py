"""The party's chance to win a fight from where it stands (issue 23, item 1).

``win_from_here(table_or_state)`` plays the rest of a live table's fight many times with the
simulator (``simulate``), starting from the table's state as it is after its last event
(``from_table.opening``: the Vitals, Ki, Fate, conditions, armor, the Initiative order, the
round's phase, what is declared, who has acted and whose turn it is; RULES.md "Combat round";
rules/000 "Action Brackets", "Combat Order"). When the fight is one against one at the start of
a round and nothing couples the two attackers, the chance is exact (``exact_duel``); a fight
already over has its winner's chance. The answer is a ``WinChance`` (``win_chance``); runs
after every event, one at a time, are ``worker_pool.WinChanceRuns``'s.

Readings where the table knows more than the simulator plays: ``from_table``
(docs/notes/0010-lab.md).

No Panel import: a page calls ``WinChanceRuns`` from a worker thread.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .exact_duel import exact_duel
from .from_table import able_now, opening, state_of
from .runs import RunCancelledError
from .simulate import simulate
from .win_chance import WinChance


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
        down_next_round={cid: 0.0 if able_now(cs[cid]) else 1.0 for cid in state["ids"]},
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
    state = copy.deepcopy(state_of(table_or_state))
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
