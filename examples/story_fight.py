"""Play Ronan's fight against a grizzly bear and a guard dog to its end and write it to a file.

The table's own dice (seed 3) and a seeded choice of brackets and targets make the
same fight every time; ``story.ipynb`` loads the result. The file is the table's export
(``python -m tb_playground.table export``): one event a line, JSON.

Run from examples/: ``python story_fight.py`` (writes ``story_fight.jsonl``).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from tb_playground.lab.momentum import able
from tb_playground.models.roster import build_encounter
from tb_playground.table import TableStore

HERE = Path(__file__).resolve().parent
SEED = 3

#: The fight: Ronan alone against a grizzly bear and a guard dog (the example roster).
PARTY, FOES = ["ronan.json"], ["grizzly_bear.yaml", "guard_dog.yaml"]

#: What the script answers when an attack waits on a step.
STEPS = {
    "to_hit": {"type": "roll"},
    "damage": {"type": "roll"},
    "gift_check": {"type": "roll"},
    "boost": {"type": "boost", "dice": []},
    "prevent": {"type": "prevent", "ki": 0},
    "approach": {"type": "attack_ruling", "accept": True},
}


def next_command(state: dict, rng: random.Random) -> dict:
    """The GM's next command: declare, reveal, attack a foe still standing, roll, end turns."""
    cs, pending = state["combatants"], state["pending"]
    if pending is not None:
        return STEPS[pending["step"]]
    if state["phase"] == "setup":
        return {"type": "start"}
    if state["phase"] == "declare":
        waiting = [c for c in state["ids"] if cs[c]["bracket"] is None and able(cs[c])]
        if not waiting:
            return {"type": "reveal"}
        bracket = rng.choice(["fast", "normal", "normal", "normal"])
        return {"type": "declare", "combatant": waiting[0], "bracket": bracket}
    up = state["up"]
    foes = [c for c in state["ids"] if up and cs[c]["side"] != cs[up]["side"] and able(cs[c])]
    if up is None or cs[up]["acted"] or not foes:
        return {"type": "end_turn"}
    attack = 1 if len(cs[up]["attacks"]) > 1 else 0  # Ronan's Onslaught; a creature's one
    return {"type": "attack", "attacker": up, "target": rng.choice(foes), "attack": attack}


def play(path: Path = HERE / "story_fight.jsonl", seed: int = SEED) -> int:
    """Play the fight and write its events to ``path``; the number of events."""
    store = TableStore(Path(tempfile.mkdtemp()) / "story.sqlite")
    encounter = build_encounter("", PARTY, FOES)
    encounter.name = "Ronan in the woods"
    table = store.create("Ronan in the woods", encounter, seed=seed)
    rng = random.Random(seed)
    for _ in range(3_000):
        if table.state["phase"] == "over":
            break
        state = table.state
        command = next_command(state, rng)
        try:
            table.apply(command)
        except (ValueError, PermissionError):  # no Ki for the Gift: fists; else end the turn
            try:
                if command["type"] != "attack" or command["attack"] == 0:
                    raise ValueError
                table.apply({**command, "attack": 0})
            except (ValueError, PermissionError):
                if state["phase"] == "resolve" and state["pending"] is None:
                    table.apply({"type": "end_turn"})
    events = store.export_events(table.name)
    store.close()
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in events))
    return len(events)


if __name__ == "__main__":
    print(f"wrote {play()} events")
