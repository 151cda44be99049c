"""Benchmarks of the encounter simulator (issue 11, section 4).

Run: python benchmarks/bench_encounter.py [--quick]. Prints, for 100,000 fights of four characters
against four creatures: the wall time and the attack resolutions per second, on one process
and on two (``workers=2``, the same result); the CPU seconds the one-process run used (what an
idle machine's wall time would be); the exact duel (``engine.fight_odds``, Ronan against the
grizzly bear) beside them; a sweep of 1,000 small encounters (``lab.sweep``) in one process
and on a local Dask cluster of 2 worker processes; and the load average, since the machine may
be shared; the same 100,000 fights under the 002 switch "boosts chosen before the roll" (one
process). ``--quick`` leaves out the sweep (minutes). Targets: >= 2,000,000 attacks/s on 2
cores, 100,000 4-against-4 fights in <= 5 s.
"""

from __future__ import annotations

import copy
import os
import sys
import time
from pathlib import Path

import numpy as np

from tb_playground.engine import AttackProfile, fight_odds, to_hit_odds
from tb_playground.lab import simulate, sweep
from tb_playground.models import Encounter
from tb_playground.models.combatants import encounter_records
from tb_playground.models.files import load

ROSTER = Path(__file__).resolve().parents[1] / "examples" / "roster"


def four_against_four() -> Encounter:
    """Ronan, the Brick, the Nerdy Hacker and a second Ronan; a bear, two dogs, Captain Vance."""
    enc = Encounter(name="Four against four")
    for name in ("ronan.json", "the_brick.json", "nerdy_hacker.yaml", "ronan.json"):
        enc.add(load(ROSTER / name), "Party")
    for name in ("grizzly_bear.yaml", "guard_dog.yaml", "guard_dog.yaml", "guard_captain.yaml"):
        enc.add(load(ROSTER / name), "Foes")
    return enc


def run(
    enc: Encounter, fights: int, workers: int, ruleset: dict | None = None
) -> tuple[float, float, object]:
    cpu = time.process_time()
    start = time.perf_counter()
    result = simulate(enc, fights=fights, seed=1, workers=workers, ruleset=ruleset)
    return time.perf_counter() - start, time.process_time() - cpu, result


def exact_duel() -> tuple[float, float]:
    enc = Encounter()
    enc.add(load(ROSTER / "ronan.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    ronan, bear = encounter_records(enc)
    hit = to_hit_odds(ronan["elements"]["Earth"], bear["defense"]["physical"])
    profile = AttackProfile.from_to_hit(
        hit, 7, bear["wall"]["physical"], boosts=7, bonus=4, klotho=ronan["klotho"]
    )
    start = time.perf_counter()
    odds = fight_odds(profile, bear["max"]["health"], 30, attacker_ki=ronan["ki"])
    return time.perf_counter() - start, odds.mean_rounds_to_down


SWEEP_FILES = (
    "ronan.json", "the_brick.json", "nerdy_hacker.yaml", "grizzly_bear.yaml", "guard_dog.yaml",
    "guard_captain.yaml", "nightmare.yaml", "river_serpent.json",
)  # fmt: skip


def small_encounters(count: int = 1_000, seed: int = 0) -> list[dict]:
    """``count`` small fights: 1-2 characters against 1-3 creatures, drawn from the roster."""
    enc = Encounter()
    for name in SWEEP_FILES:
        enc.add(load(ROSTER / name), "Party")
    records = encounter_records(enc)
    characters = [r for r in records if r["kind"] == "character"]
    creatures = [r for r in records if r["kind"] == "creature"]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        party = rng.choice(len(characters), rng.integers(1, 3), replace=False)
        foes = rng.choice(len(creatures), rng.integers(1, 4))
        combatants = []
        for side, picks, pool in (("Party", party, characters), ("Foes", foes, creatures)):
            for k, i in enumerate(picks):
                record = copy.deepcopy(pool[i])
                record.update(side=side, id=f"{record['id']}-{side}-{k}")
                combatants.append(record)
        out.append({"combatants": combatants, "sides": ["Party", "Foes"]})
    return out


def sweep_figures(count: int = 1_000, fights: int = 200) -> None:
    items = small_encounters(count)
    cpu = time.process_time()
    start = time.perf_counter()
    one = sweep(items, fights, seed=1, scheduler="inline")
    wall1, cpu1 = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    dask = sweep(items, fights, seed=1, workers=2, processes=True)
    wall2 = time.perf_counter() - start
    for a, b in zip(one.results, dask.results, strict=True):
        assert (a.winner == b.winner).all() and (a.final == b.final).all()
    attacks = sum(r.attacks for r in one.results)
    print(f"sweep of {count:,} encounters (1-2 characters vs 1-3 creatures), {fights} fights each,")
    print(f"  {attacks:,} attacks in all:")
    print(f"  1 process          : {wall1:6.2f} s wall, {cpu1:6.2f} s CPU")
    print(f"  local Dask cluster : {wall2:6.2f} s wall (2 worker processes, start-up included)")
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(lambda: __import__("tb_playground.lab"))  # workers warm
            start = time.perf_counter()
            again = sweep(items, fights, seed=1, scheduler=client)
            wall3 = time.perf_counter() - start
    assert all(
        (a.winner == b.winner).all() for a, b in zip(one.results, again.results, strict=True)
    )
    print(f"  cluster already up : {wall3:6.2f} s wall (same results in all three)")


def main(quick: bool = False) -> None:
    enc = four_against_four()
    simulate(enc, fights=2_000, seed=0)  # warm up (imports, tables)
    load_before = os.getloadavg()[0]
    fights = 100_000
    wall1, cpu1, result = run(enc, fights, 1)
    wall2, _, result2 = run(enc, fights, 2)
    assert (result.winner == result2.winner).all()
    duel, mean = exact_duel()
    print(f"load average before: {load_before:.1f} (2 cores)")
    print(f"{fights:,} fights, 4 against 4: {result.attacks:,} attacks resolved")
    print(f"  1 process : {wall1:6.2f} s wall, {result.attacks / wall1:12,.0f} attacks/s")
    print(f"              {cpu1:6.2f} s CPU,  {result.attacks / cpu1:12,.0f} attacks per CPU-s")
    print(f"  2 workers : {wall2:6.2f} s wall, {result.attacks / wall2:12,.0f} attacks/s")
    print(f"  P(win) {result.p_win}, rounds {result.rounds.mean:.2f}")
    print(f"exact duel (fight_odds, Ronan vs the bear, 30 rounds): {duel * 1000:.1f} ms, ")
    print(f"  mean rounds to down {mean:.3f}")
    wall3, cpu3, before = run(enc, fights, 1, {"boosts_before_roll": True})
    print(f"the same under boosts chosen before the roll: {before.attacks:,} attacks")
    print(f"  1 process : {wall3:6.2f} s wall, {cpu3:6.2f} s CPU,")
    print(f"              {before.attacks / cpu3:12,.0f} attacks per CPU-s; P(win) {before.p_win}")
    if not quick:
        sweep_figures()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
