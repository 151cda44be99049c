"""Benchmark of the replay (issue 23, "Bench"): scrubbing to any event of a 10,000-event table.

Run: python benchmarks/bench_replay.py [events] [scrubs]. A seeded fight of six (attacks with
table-rolled dice, boosts, prevention, GM overrides that keep it going, undo and redo) is played
to 10,000 events; the table is reopened (no snapshot kept), then ``table.replay(n)`` and the
GM's ``table.view_for("gm", at=n)`` are timed at random events. Prints p50, p95 and the worst
(target: p95 <= 100 ms), and the first scrub, which makes the snapshots.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tb_playground.models import Creature, Encounter
from tb_playground.models.creature import CreatureAttack
from tb_playground.models.files import load
from tb_playground.table import TableStore

ROSTER = Path(__file__).resolve().parents[1] / "examples" / "roster"


def six() -> Encounter:
    enc = Encounter(name="Six")
    for name in ("ronan.json", "the_brick.json", "nerdy_hacker.yaml"):
        enc.add(load(ROSTER / name), "Party")
    for i in range(3):
        foe = Creature(name=f"Ghoul {i}", health=8, attacks=[CreatureAttack(name="Claw", dice=3)])
        enc.add(foe, "Foes")
    return enc


def next_command(rng: random.Random, state: dict) -> dict:
    """A plausible next command for the fight as it stands."""
    cs, ids = state["combatants"], state["ids"]
    if rng.random() < 0.03:
        return {"type": rng.choice(["undo", "undo", "redo"])}
    down = [i for i in ids if cs[i]["out"] or cs[i]["now"]["health"] <= 0]
    if down and rng.random() < 0.3:  # the GM keeps the fight going
        cid = rng.choice(down)
        return {
            "type": "set",
            "combatant": cid,
            "field": "health",
            "value": cs[cid]["max"]["health"],
        }
    phase = state["phase"]
    if phase == "setup":
        return {"type": "start"}
    if phase == "over":
        return {"type": "continue"}
    if phase == "declare":
        waiting = [i for i in ids if cs[i]["bracket"] is None and not cs[i]["out"]]
        if not waiting:
            return {"type": "reveal"}
        return {
            "type": "declare",
            "combatant": waiting[0],
            "bracket": rng.choice(["fast", "normal", "slow"]),
        }
    p = state["pending"]
    if p is not None:
        if p["step"] == "boost":
            return {"type": "boost", "dice": [0]}
        if p["step"] == "prevent":
            return {"type": "prevent", "ki": rng.choice([0, 0, 1])}
        if p["step"] == "approach":
            return {"type": "attack_ruling", "approach": "Earth"}
        return {"type": "roll"}
    up = state["up"]
    if up and not cs[up]["actions"] and rng.random() < 0.8:
        foes = [i for i in ids if cs[i]["side"] != cs[up]["side"] and not cs[i]["out"]]
        if foes:
            return {"type": "attack", "attacker": up, "target": rng.choice(foes)}
    return {"type": "end_turn"}


def play(store: TableStore, events: int, seed: int = 0):
    rng = random.Random(seed)
    table = store.create("bench", six(), seed=seed)
    refused = 0
    while table.version < events:
        try:
            table.apply(next_command(rng, table.state))
        except (ValueError, PermissionError):
            refused += 1
            if refused % 50 == 0:  # a stuck attack: let the GM undo it
                table.apply({"type": "note", "text": "stuck"})
    return table


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    scrubs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    with tempfile.TemporaryDirectory() as tmp:
        store = TableStore(Path(tmp) / "bench.sqlite")
        start = time.perf_counter()
        table = play(store, events)
        kinds = {e["type"] for e in table.events}
        print(f"played {table.version} events in {time.perf_counter() - start:.1f} s "
              f"({len(kinds)} kinds, {len(table.round_starts())} rounds)")  # fmt: skip
        store.close()
        table = TableStore(Path(tmp) / "bench.sqlite").open("bench")  # no snapshots yet
        count = table.version
        rng = random.Random(1)
        start = time.perf_counter()
        table.replay(count)
        print(f"first scrub (makes {count // 256} snapshots): "
              f"{1000 * (time.perf_counter() - start):.0f} ms")  # fmt: skip
        for what, call in (
            ("replay(n)", lambda n: table.replay(n)),
            ('view_for("gm", at=n)', lambda n: table.view_for("gm", at=n)),
            (
                'view_for("player", "ronan", at=n)',
                lambda n: table.view_for("player", "ronan", at=n),
            ),
        ):
            times = []
            for _ in range(scrubs):
                n = rng.randint(1, count)
                t0 = time.perf_counter()
                call(n)
                times.append(1000 * (time.perf_counter() - t0))
            times.sort()
            p95 = times[int(0.95 * len(times)) - 1]
            print(f"{what:36s} p50 {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms  "
                  f"worst {times[-1]:6.1f} ms  (target p95 <= 100 ms)")  # fmt: skip


if __name__ == "__main__":
    main()
