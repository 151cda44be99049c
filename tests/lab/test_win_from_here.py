"""The chance to win from here (issue 23, item 1): ``lab.win_from_here``.

- Before the warehouse fight starts, the chance is the planner's (``simulate`` of the same
  encounter, read from its file), within both intervals; with the same seed it is the very same
  sample.
- One against one, the simulator started from the table's state agrees with the exact duel
  (two ``engine.fight_odds`` chains) at 100,000 fights, z <= 4: before the fight, once
  Initiative is rolled, and in a later round with hurt tracks, spent Ki and a Flustered duelist.
- After each of the first 50 events of a seeded random fight (driven through ``Table.apply``,
  refusals skipped), the simulator's starting point (``starting_state``) equals the table's
  state field by field: Vitals, Ki, Fate, Exhausted, conditions, armor, who is out, the
  Initiative order, the round's order, whose turn it is, who has acted, declared brackets.
- A cancelled run stops at once; a newer state cancels the run in progress.
"""

from __future__ import annotations

import math
import random
import threading

import numpy as np
import pytest
from table_helpers import new_table, roster

from tb_playground.engine import damage_distribution, to_hit_odds
from tb_playground.engine.conditions import CONDITIONS
from tb_playground.lab import WinChanceRuns, simulate, starting_state, win_from_here
from tb_playground.lab.exact_duel import exact_duel
from tb_playground.lab.runs import RunCancelledError, plain_from_files
from tb_playground.models import Creature, Encounter
from tb_playground.models.character import Weapon
from tb_playground.models.creature import CreatureAttack
from tb_playground.models.roster import build_encounter
from tb_playground.table import fold

WAREHOUSE = "warehouse.encounter.yaml"

#: z of the comparisons with the exact duel.
Z = 4.0


def _warehouse(tmp_path, seed: int = 7):
    return new_table(tmp_path, build_encounter(WAREHOUSE, [], []), "Night shift", seed)[1]


# -- the planner ---------------------------------------------------------------------------------


def test_before_the_warehouse_fight_the_chance_is_the_planners(tmp_path):
    table = _warehouse(tmp_path)
    chance = win_from_here(table, fights=20_000, seed=0)
    planner = simulate(plain_from_files(WAREHOUSE, [], []), 20_000, seed=1)
    low, high = planner.p_win_interval["Party"]
    assert low <= chance.p_win <= high
    assert chance.p_win_interval[0] <= planner.p_win["Party"] <= chance.p_win_interval[1]
    # rounds and each one's fall: two samples of one law (z over both samples' errors)
    se = (chance.rounds_left_interval[1] - chance.rounds_left_interval[0]) / (2 * 1.96)
    se_p = (planner.rounds.mean_interval[1] - planner.rounds.mean_interval[0]) / (2 * 1.96)
    assert abs(chance.rounds_left - planner.rounds.mean) <= 4 * math.hypot(se, se_p)
    for i, cid in enumerate(planner.ids):
        p = float(np.mean((planner.out_round[:, i] >= 0) & (planner.out_round[:, i] <= 1)))
        q = chance.down_next_round[cid]
        pooled = (p + q) / 2
        assert abs(p - q) <= 4 * math.sqrt(max(pooled * (1 - pooled), 1e-9) * 2 / 20_000), cid
    assert chance.next_round == 1 and not chance.exact and chance.fights == 20_000


def test_before_the_fight_the_same_seed_gives_the_planners_very_sample(tmp_path):
    table = _warehouse(tmp_path)
    planner = simulate(table.state, 3_000, seed=5)
    chance = win_from_here(table.state, fights=3_000, seed=5)
    assert chance.p_win == planner.p_win["Party"]
    assert chance.rounds_left == planner.rounds.mean
    assert chance.version == table.version


# -- one against one: the exact duel -----------------------------------------------------------

#: Ronan spends his Ki on boosts only, the duelist on preventing only: the chains are independent.
DUEL_POLICIES = {
    "ki_policy": {"ronan": "none"},
    "boost_policy": {"duelist": "none"},
    "attack_policy": {"ronan": 0},
}


def _duel(tmp_path):
    ronan = roster("ronan.json")
    ronan.gifts, ronan.armor = [], []
    ronan.weapons = [Weapon(name="Sabre", dice=4)]
    duelist = Creature(
        name="Duelist",
        named=True,
        soak=5,
        health=6,
        defense_physical=6,
        ki=4,
        attacks=[CreatureAttack(name="Sabre", element=6, dice=4)],
    )
    enc = Encounter(name="Duel")
    enc.add(ronan, "Party")
    enc.add(duelist, "Foes")
    return new_table(tmp_path, enc, "Duel", 3)[1]


def _to_round_two(table) -> None:
    table.apply({"type": "start", "initiative": {"ronan": 2, "duelist": 9}})
    for cid in ("ronan", "duelist"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    while table.state["round"] == 1:
        table.apply({"type": "end_turn"})
    for field, cid, value in (
        ("health", "ronan", 6),
        ("ki", "ronan", 5),
        ("health", "duelist", 4),
        ("poise", "duelist", 0),
        ("ki", "duelist", 2),
    ):
        table.apply({"type": "set", "combatant": cid, "field": field, "value": value})


@pytest.mark.parametrize("moment", ["setup", "initiative", "round two"])
def test_one_against_one_the_simulator_agrees_with_fight_odds(tmp_path, moment):
    table = _duel(tmp_path)
    if moment == "initiative":
        table.apply({"type": "start", "initiative": {"ronan": 9, "duelist": 1}})
    elif moment == "round two":
        _to_round_two(table)
        assert "Flustered" in table.state["combatants"]["duelist"]["conditions"]
    exact = exact_duel(table.state, **DUEL_POLICIES)
    assert exact is not None and exact.exact
    assert win_from_here(table, **DUEL_POLICIES) == exact  # the exact path is the one taken
    assert exact.p_win_interval == (exact.p_win, exact.p_win)
    sim = win_from_here(table, fights=100_000, seed=17, exact=False, **DUEL_POLICIES)
    assert not sim.exact and sim.fights == 100_000
    p = exact.p_win
    assert 0.05 < p < 0.95
    assert abs(sim.p_win - p) <= Z * math.sqrt(p * (1 - p) / sim.fights), (sim.p_win, p)
    half = (sim.rounds_left_interval[1] - sim.rounds_left_interval[0]) / 2
    assert abs(sim.rounds_left - exact.rounds_left) <= half * Z / 1.96
    for cid, q in exact.down_next_round.items():
        s = sim.down_next_round[cid]
        assert abs(s - q) <= Z * math.sqrt(max(q * (1 - q), 1e-9) / sim.fights), cid


def test_the_exact_duel_steps_aside_when_the_chains_are_coupled(tmp_path):
    table = _duel(tmp_path)
    # Ronan both boosts and prevents with one pool of Ki: no exact duel, the simulator answers
    assert exact_duel(table.state, attack_policy={"ronan": 0}) is None
    chance = win_from_here(table, fights=2_000, attack_policy={"ronan": 0})
    assert not chance.exact and chance.p_win_interval[0] < chance.p_win_interval[1]
    table.apply({"type": "start"})
    table.apply({"type": "declare", "combatant": "ronan", "bracket": "fast"})
    assert exact_duel(table.state, **DUEL_POLICIES) is None  # a bracket already declared


# -- the starting point, event by event ---------------------------------------------------------


def _expected_conditions(c: dict) -> set[str]:
    names = {k for k in c["conditions"] if k in CONDITIONS and k != "Distracted"}
    if c["now"]["sanity"] <= 0:  # Shattered is still Overwhelmed (vital_conditions, issue 32)
        names.add("Overwhelmed")
    if c["now"]["poise"] <= 0:
        names.add("Flustered")
    return names


def _check_starting_point(state: dict) -> None:
    start = starting_state(state)
    phase = state["phase"]
    assert start["phase"] == phase
    if phase == "setup":
        assert start["initiative_order"] == [] and start["round"] == 0
    else:
        assert start["initiative_order"] == state["initiative_order"]
        assert start["round"] == state["round"]
    if phase == "resolve":
        assert start["order"] == state["order"]
        assert start["up"] == state["up"]
    else:
        assert start["order"] == [] and start["up"] is None
    order = state["order"]
    later = order[order.index(state["up"]) :] if state["up"] in order else []
    for cid in state["ids"]:
        c, s = state["combatants"][cid], start["combatants"][cid]
        assert s["now"] == c["now"], cid
        assert s["ki"] == c["ki"], cid
        assert s["fate"] == c["fate"], cid
        assert s["exhausted"] == c["exhausted"], cid
        assert set(s["conditions"]) == _expected_conditions(c), (cid, c["conditions"])
        armor = {z: (c["armor"].get(z) or {}).get("levels", 0) for z in ("body", "head")}
        assert s["armor"] == armor, cid
        assert s["out"] == (c["out"] or (c["now"]["health"] <= 0 and not c["named"])), cid
        if phase in ("declare", "resolve"):
            assert s["bracket"] == c["bracket"], cid
            if c["bracket"] is not None:
                assert s["bumps"] == c["bumps"], cid
        if phase == "resolve":
            assert s["turn"] == (cid in later and not c["acted"]), cid
            if c["band"] is not None and c["bracket"] is not None:
                assert s["band"] == c["band"], cid


def _next_command(rng: random.Random, state: dict) -> dict:
    ids = state["ids"]
    cs = state["combatants"]
    p = state["pending"]
    if p is not None:
        if p["step"] == "boost":
            return {"type": "boost", "dice": rng.choice([[], [0]])}
        if p["step"] == "prevent":
            return {"type": "prevent", "ki": rng.choice([0, 0, 1])}
        if p["step"] == "approach":
            return {"type": "attack_ruling", "accept": True}
        return {"type": "roll"}
    roll = rng.random()
    if roll < 0.12:
        return {
            "type": "set",
            "combatant": rng.choice(ids),
            "field": rng.choice(["health", "poise", "sanity", "ki", "fate", "exhausted"]),
            "value": rng.choice([0, 1, 2, 3, -1]),
        }
    if roll < 0.22:
        return {
            "type": "set_condition",
            "combatant": rng.choice(ids),
            "condition": rng.choice(["Off Balance", "Prone", "Flustered", "Surprised"]),
        }
    phase = state["phase"]
    if phase == "setup":
        return {"type": "start"}
    if phase == "over":
        return {"type": "continue"}
    if phase == "declare":
        waiting = [cid for cid in ids if cs[cid]["bracket"] is None]
        if not waiting or rng.random() < 0.1:
            return {"type": "reveal"}
        return {
            "type": "declare",
            "combatant": rng.choice(waiting),
            "bracket": rng.choice(["fast", "normal", "normal", "slow"]),
            "bumps": rng.choice([0, 0, 1]),
        }
    up = state["up"]
    if up is None or rng.random() < 0.3:
        return {"type": "end_turn"}
    foes = [cid for cid in ids if cs[cid]["side"] != cs[up]["side"] and not cs[cid]["out"]]
    return {
        "type": "attack",
        "attacker": up,
        "target": rng.choice(foes or ids),
        "attack": rng.randrange(max(len(cs[up]["attacks"]), 1)),
    }


def test_the_starting_point_is_the_tables_state_after_each_of_50_events(tmp_path):
    table = _warehouse(tmp_path, seed=11)
    rng = random.Random(23)
    tries = 0
    while table.version < 52 and tries < 2_000:
        tries += 1
        try:
            table.apply(_next_command(rng, table.state))
        except (ValueError, PermissionError):
            continue
    events = table.events
    assert len(events) >= 51
    phases = set()
    for k in range(1, 52):  # the state after each event, from "created" on
        state = fold(events[:k])
        phases.add(state["phase"])
        _check_starting_point(state)
    assert {"setup", "declare", "resolve"} <= phases


# -- runs and cancelling -------------------------------------------------------------------------


def test_a_cancelled_run_stops_at_once(tmp_path):
    table = _warehouse(tmp_path)
    table.apply({"type": "start"})
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return True

    with pytest.raises(RunCancelledError):
        win_from_here(table, fights=1_000_000, cancel=cancel)
    assert len(asked) == 1  # heard at the first acting slot of the first round
    stop = threading.Event()
    stop.set()
    with pytest.raises(RunCancelledError):
        win_from_here(table.state, fights=1_000_000, cancel=stop)


def test_a_newer_state_cancels_the_run_in_progress(tmp_path):
    table = _warehouse(tmp_path)
    table.apply({"type": "start"})
    done = []
    runs = WinChanceRuns(fights=400_000, seed=0, on_result=done.append)
    old = runs.submit(table)
    table.apply({"type": "set", "combatant": "guard-dog", "field": "health", "value": 1})
    runs.fights = 2_000
    new = runs.submit(table)
    assert old.wait(60) and new.wait(60)
    assert old.cancelled and old.result is None
    assert new.result is not None and new.result.version == table.version
    assert done == [new] and runs.latest is new
    assert new.version > old.version


def test_a_fight_that_is_over_is_won_or_lost_for_certain(tmp_path):
    table = _duel(tmp_path)
    table.apply({"type": "start"})
    table.apply({"type": "set", "combatant": "duelist", "field": "health", "value": 0})
    assert table.state["phase"] == "over"
    chance = win_from_here(table)
    assert chance.p_win == 1.0 and chance.p_win_interval == (1.0, 1.0)
    assert chance.rounds_left == 0.0 and chance.down_next_round["duelist"] == 1.0


# -- a round under way, against its exact odds ----------------------------------------------------


def _no_drop(sign: int, state: dict) -> tuple[float, float]:
    """One duelist attack on Ronan at Health 1 (no Ki): (P(no level and no kept 20), P(kept 20))."""
    ronan = state["combatants"]["ronan"]
    hit = to_hit_odds(6, ronan["defense"]["physical"], sign)
    wall = ronan["wall"]["physical"]
    klotho = state["combatants"]["duelist"]["klotho"]
    plain = damage_distribution(4, wall)[0]
    crit = damage_distribution(4, wall, critical=True, klotho=klotho)[0]
    quiet = hit.p_miss - hit.p_catastrophe + hit.p_ordinary * plain + hit.p_critical * crit
    return float(quiet), float(hit.p_catastrophe)


def _drop_chance(state: dict, attacks: int, sign: int) -> float:
    """P(the duelist's ``attacks`` left this round drop Ronan): a kept 20 puts the next at -1."""
    quiet, cat = _no_drop(sign, state)
    if attacks == 1:
        return 1 - (quiet + cat)
    quiet_ob, cat_ob = _no_drop(sign - 1, state)
    return 1 - (quiet * (quiet + cat) + cat * (quiet_ob + cat_ob))


@pytest.mark.parametrize("moment", ["two attacks left", "one left", "one left, Off Balance"])
def test_a_round_under_way_plays_only_the_turns_left(tmp_path, moment):
    """Ronan (Health 1, no Ki) has ended his turn; the duelist's turn is under way. Over one
    round (``max_rounds=1``) the party cannot win and the duelist wins exactly when its attacks
    left this round drop Ronan (``engine`` odds, a kept 20 putting the next attack at -1)."""
    table = _duel(tmp_path)
    table.apply({"type": "start", "initiative": {"ronan": 9, "duelist": 1}})
    for cid in ("ronan", "duelist"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    table.apply({"type": "end_turn"})
    for field, value in (("health", 1), ("ki", 0)):
        table.apply({"type": "set", "combatant": "ronan", "field": field, "value": value})
    attacks, sign = 2, 0
    if moment != "two attacks left":
        table.apply({"type": "attack", "attacker": "duelist", "target": "ronan"})
        table.apply({"type": "roll", "faces": [9, 9]})  # 18: a plain miss
        attacks = 1
    if moment == "one left, Off Balance":
        table.apply({"type": "set_condition", "combatant": "duelist", "condition": "Off Balance"})
        sign = -1
    state = table.state
    assert state["phase"] == "resolve" and state["up"] == "duelist"
    start = starting_state(state, **DUEL_POLICIES)
    assert start["combatants"]["duelist"]["attacks_left"] == attacks
    assert start["combatants"]["ronan"]["turn"] is False
    chance = win_from_here(table, fights=100_000, seed=2, max_rounds=1, **DUEL_POLICIES)
    assert chance.p_win == 0.0
    p = _drop_chance(state, attacks, sign)
    foe = 1 - chance.p_win - chance.p_draw
    assert abs(foe - p) <= Z * math.sqrt(p * (1 - p) / chance.fights), (foe, p)


def test_runs_in_a_worker_process_give_the_threads_answer_and_cancel_too(tmp_path):
    table = _warehouse(tmp_path)
    table.apply({"type": "start"})
    runs = WinChanceRuns(fights=3_000, seed=4, process=True)
    try:
        first = runs.submit(table)
        assert first.wait(120) and first.result is not None, first.error
        assert first.result == win_from_here(table, fights=3_000, seed=4)
        runs.fights = 2_000_000
        old = runs.submit(table)
        table.apply({"type": "set", "combatant": "guard-dog", "field": "health", "value": 2})
        runs.fights = 2_000
        new = runs.submit(table)
        assert old.wait(120) and new.wait(120)
        assert old.cancelled and old.result is None
        assert new.result is not None and new.result.version == table.version
        assert runs.latest is new
    finally:
        runs.close()
