"""The night's numbers (issue 23, item 4): a small fight counted by hand, the luck of every
roll against brute force over its d10 faces, role-aware numbers, exports that parse back.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import time

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare
from test_table_visibility import SECRET, _game

from tb_playground.engine.damage import roll_levels
from tb_playground.engine.roll_reading import read_core_roll
from tb_playground.table import night


@pytest.fixture
def clock(monkeypatch):
    """The time the table stamps on the next command's events (set by the test)."""
    now = [0.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def _hand_fight(tmp_path, clock):
    enc = encounter(roster("ronan.json"), foes=[soak7()])
    store, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {"ronan": 9, "opponent": 2})  # Ronan first, up at 0 s

    def do(when, command, role="gm", seat=None):
        clock[0] = float(when)
        t.apply(command, role=role, seat=seat)

    ronan = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    theirs = {"type": "attack", "attacker": "opponent", "target": "ronan"}
    # round 1: Ronan's critical (1 die: it connects outright); the opponent's catastrophe
    for when, command in enumerate(
        [ronan, {"type": "roll", "faces": [1, 1]}, {"type": "roll", "faces": []},
         {"type": "end_turn"}, theirs, {"type": "roll", "faces": [10, 10]}, {"type": "end_turn"}],
        start=1,
    ):  # fmt: skip
        do(10 * when, command)
    # round 2: Ronan hits and boosts a 5 over Soak 7 (1 Ki); the opponent (Off Balance:
    # Disadvantage) hits, and the 1 level over Hardness 3 goes to Ronan's leather jacket
    do(80, {"type": "declare", "combatant": "ronan", "bracket": "normal"})
    do(90, {"type": "declare", "combatant": "opponent", "bracket": "normal"})
    assert t.state["up"] == "ronan" and t.state["round"] == 2
    for when, command in [
        (100, ronan), (110, {"type": "roll", "faces": [2, 3]}),
        (120, {"type": "roll", "faces": [5]}), (130, {"type": "boost", "dice": [0]}),
        (140, {"type": "end_turn"}), (150, theirs),
    ]:  # fmt: skip
        do(when, command)
    assert t.state["pending"]["advantage"] < 0
    do(160, {"type": "roll", "faces": [1, 2, 3]})
    do(170, {"type": "roll", "faces": [6, 3]})
    do(190, {"type": "end_turn"})
    # round 3: Ronan misses with 9, 9; the opponent passes
    do(200, {"type": "declare", "combatant": "ronan", "bracket": "normal"})
    do(210, {"type": "declare", "combatant": "opponent", "bracket": "normal"})
    do(220, ronan)
    do(230, {"type": "roll", "faces": [9, 9]})
    do(240, {"type": "end_turn"})
    do(250, {"type": "end_turn"})
    return t


def test_a_small_fight_counted_by_hand(tmp_path, clock):
    t = _hand_fight(tmp_path, clock)
    numbers = t.night()
    ronan, opp = numbers["combatants"]
    assert ronan["dealt"] == {"health": 2, "poise": 0, "sanity": 0}
    assert ronan["took"] == {"health": 0, "poise": 0, "sanity": 0}  # the armor took it
    assert ronan["spent"] == {"ki": 1, "fate": 0}  # a boost
    assert (ronan["hits"], ronan["misses"], ronan["criticals"], ronan["catastrophes"]) == (
        2,
        1,
        1,
        0,
    )
    assert opp["took"]["health"] == 2 and opp["dealt"]["health"] == 0
    assert (opp["hits"], opp["misses"], opp["criticals"], opp["catastrophes"]) == (1, 1, 0, 1)
    assert ronan["rounds_acted"] == opp["rounds_acted"] == 3
    # turns: Ronan 0-40, 90-140, 210-240 s; the opponent 40-70, 140-190, 240-250 s
    assert (ronan["turns"], ronan["turn_seconds"], ronan["longest_turn_seconds"]) == (3, 120, 50)
    assert (opp["turns"], opp["turn_seconds"], opp["longest_turn_seconds"]) == (3, 90, 50)
    # luck = P(worse) + P(the same) / 2, by hand:
    #   to hit, plain 2d10: kept 2 -> 99/100 + 1/200; kept 5 -> 90/100 + 4/200;
    #   kept 18 -> 3/100 + 3/200; kept 20 -> 0 + 1/200.
    #   Disadvantage (highest two of 3d10), kept 5: 11 ways under 5 and 12 ways of 5 in 1000.
    #   damage: a critical's lone die connects outright (certain: 1/2); a 5 against Soak 7
    #   (levels 0 of 1 die: 7/10 / 2); 6, 3 against the jacket's Hardness 3 (1 level of 2
    #   dice, each over 3 with 7/10: 9/100 + 42/100 / 2).
    assert [(r["name"], r["kind"]) for r in numbers["rolls"]] == [
        ("Ronan", "to-hit"), ("Ronan", "damage"), ("Opponent", "to-hit"),
        ("Ronan", "to-hit"), ("Ronan", "damage"), ("Opponent", "to-hit"), ("Opponent", "damage"),
        ("Ronan", "to-hit"),
    ]  # fmt: skip
    assert [r["luck"] for r in numbers["rolls"]] == pytest.approx(
        [0.995, 0.5, 0.005, 0.92, 0.35, 0.983, 0.3, 0.045], abs=1e-12
    )
    assert ronan["average_luck"] == pytest.approx(2.81 / 5, abs=1e-12)
    assert opp["average_luck"] == pytest.approx(1.288 / 3, abs=1e-12)
    assert numbers["sides"]["Party"] == {"rolls": 5, "average_luck": pytest.approx(0.562)}
    assert [r["luck"] for r in numbers["luckiest"]] == [0.995, 0.983, 0.92]
    assert [r["luck"] for r in numbers["unluckiest"]] == [0.005, 0.045, 0.3]
    # the player sees the opponent's rolls (the log shows them) but not its numbers
    mine = t.night("player", "ronan")
    assert mine["combatants"][1]["dealt"] is None and mine["combatants"][1]["spent"] is None
    assert mine["combatants"][0] == ronan and mine["rolls"] == numbers["rolls"]


def test_exports_parse_back_to_the_same_numbers(tmp_path, clock):
    t = _hand_fight(tmp_path, clock)
    for role, seat in (("gm", None), ("player", "ronan")):
        numbers = t.night(role, seat)
        text = night.to_json(numbers)
        assert json.loads(text) == numbers and text == night.to_json(t.night(role, seat))
        rows = list(csv.DictReader(io.StringIO(night.to_csv(numbers))))
        assert len(rows) == len(numbers["combatants"])
        for row, c in zip(rows, numbers["combatants"], strict=True):
            assert (row["id"], row["name"], row["side"]) == (c["id"], c["name"], c["side"])
            for group in ("dealt", "took"):
                for vital in ("health", "poise", "sanity"):
                    cell = row[f"{group}_{vital}"]
                    assert (None if cell == "" else int(cell)) == (c[group] or {}).get(vital)
            for what in ("ki", "fate"):
                cell = row[f"{what}_spent"]
                assert (None if cell == "" else int(cell)) == (c["spent"] or {}).get(what)
            for key in ("hits", "misses", "criticals", "catastrophes", "rounds_acted", "turns"):
                assert int(row[key]) == c[key]
            assert float(row["turn_seconds"]) == c["turn_seconds"]
            assert float(row["average_luck"]) == c["average_luck"]
        rolls = list(csv.DictReader(io.StringIO(night.to_csv(numbers, "rolls"))))
        assert [float(r["luck"]) for r in rolls] == [r["luck"] for r in numbers["rolls"]]
        assert [list(map(int, r["faces"].split())) for r in rolls] == [
            r["faces"] for r in numbers["rolls"]
        ]
        assert [int(r["result"]) for r in rolls] == [r["result"] for r in numbers["rolls"]]
    md = night.to_markdown(t.night())
    assert "| Ronan | Party | 2/0/0 | 0/0/0 | 1 | 0 | 2 | 1 | 1 | 0 | 3 | 120 s | 56% |" in md
    # luck 0.5%: the worst roll there is, rare but not impossible
    assert "- Opponent, round 1, to-hit against Ronan: 10, 10 (kept 20), luck <1%" in md
    with pytest.raises(ValueError, match="what must be"):
        night.to_csv(t.night(), "turns")


# -- a seeded fight with the table's own dice ---------------------------------------------------


def _next(rng: random.Random, state: dict) -> tuple[dict, str, str | None]:
    cs, ids = state["combatants"], state["ids"]
    if rng.random() < 0.04:
        return {"type": rng.choice(["undo", "redo"])}, "gm", None
    down = [i for i in ids if cs[i]["out"] or cs[i]["now"]["health"] <= 0]
    if down and rng.random() < 0.3:
        cid = rng.choice(down)
        value = cs[cid]["max"]["health"]
        return {"type": "set", "combatant": cid, "field": "health", "value": value}, "gm", None
    if state["phase"] == "setup":
        return {"type": "start"}, "gm", None
    if state["phase"] == "over":
        return {"type": "continue"}, "gm", None
    if state["phase"] == "declare":
        waiting = [i for i in ids if cs[i]["bracket"] is None and not cs[i]["out"]]
        if not waiting:
            return {"type": "reveal"}, "gm", None
        return {"type": "declare", "combatant": waiting[0], "bracket": "normal"}, "gm", None
    p = state["pending"]
    if p is not None:
        if p["step"] == "boost":
            return {"type": "boost", "dice": [0]}, "gm", None
        if p["step"] == "prevent":
            return {"type": "prevent", "ki": rng.choice([0, 1])}, "gm", None
        return {"type": "roll"}, "gm", None
    up = state["up"]
    if up and not cs[up]["actions"]:
        foes = [i for i in ids if cs[i]["side"] != cs[up]["side"] and not cs[i]["out"]]
        if foes:
            target = rng.choice(foes)
            return {"type": "attack", "attacker": up, "target": target}, "gm", None
    return {"type": "end_turn"}, "gm", None


@pytest.fixture(scope="module")
def fight(tmp_path_factory):
    """A fight of the visibility test's table (a hidden foe among them) to 400 events."""
    t = _game(tmp_path_factory.mktemp("night"))
    rng = random.Random(5)
    while t.version < 400:
        try:
            t.apply(*_next(rng, t.state))
        except (ValueError, PermissionError):
            p = t.state["pending"] or {}
            fallback = {"boost": {"type": "boost", "dice": []}, "prevent": {"type": "prevent"}}
            t.apply(fallback.get(p.get("step"), {"type": "undo"}))
    return t


def _brute_to_hit(faces, advantage):
    total = read_core_roll(faces, 10, advantage).total
    worse = same = count = 0
    for other in itertools.product(range(1, 11), repeat=len(faces)):
        kept = read_core_roll(list(other), 10, advantage).total
        worse += kept > total
        same += kept == total
        count += 1
    return (worse + same / 2) / count


def _brute_damage(p, levels):
    automatic, rolled = ((p["dice"] + 1) // 2, p["dice"] // 2) if p["critical"] else (0, p["dice"])
    klotho = p["klotho"] if p["critical"] else 0
    boosts = p["boosts_before"] if p["timing"] == "before" else 0
    fewer = same = count = 0
    for faces in itertools.product(range(1, 11), repeat=rolled):
        got, _ = roll_levels(
            list(faces), p["wall"], boosts, p["bonus"], p["timing"], klotho, automatic
        )
        fewer += got < levels
        same += got == levels
        count += 1
    return (fewer + same / 2) / count


def test_every_rolls_luck_equals_brute_force(fight):
    numbers = fight.night()
    assert len(numbers["rolls"]) > 40
    kinds = {r["kind"] for r in numbers["rolls"]}
    assert kinds == {"to-hit", "damage"}
    for r in numbers["rolls"]:
        p = fight.replay(r["seq"] - 1)["pending"]  # the roll as it was due (the replay)
        if r["kind"] == "to-hit":
            assert len(r["faces"]) in (2, 3)
            expected = _brute_to_hit(r["faces"], p["advantage"])
        else:
            expected = _brute_damage(p, r["result"])
        assert r["luck"] == pytest.approx(expected, abs=1e-12), r


def test_a_players_numbers_hold_nothing_their_view_could_not(fight):
    gm = fight.night()
    assert any(r["who"] == "zyxwv-the-unseen" for r in gm["rolls"])  # the hidden foe fought
    for role, seat in (("player", "ronan"), ("player", "the-brick"), ("spectator", None)):
        theirs = fight.night(role, seat)
        text = json.dumps(theirs) + night.to_markdown(theirs) + night.to_csv(theirs, "rolls")
        assert SECRET not in text and "zyxwv" not in text
        assert str(fight.state["seed"]) not in text
        seqs = [line["seq"] for line in _all_lines(fight, role, seat)]
        # their own numbering (issue 31): the events they read, the rolls by their number,
        # each the roll of the event their log shows under that number
        assert theirs["events"] == len(seqs) < gm["events"]
        for r in theirs["rolls"]:
            assert 1 <= r["seq"] <= len(seqs)
            assert fight.events[seqs[r["seq"] - 1] - 1]["data"]["faces"] == r["faces"]
        for c in theirs["combatants"]:
            if c["side"] != "Party":
                assert c["dealt"] is None and c["took"] is None and c["spent"] is None
            mine = next(g for g in gm["combatants"] if g["id"] == c["id"])
            assert c["hits"] <= mine["hits"] and c["rolls"] <= mine["rolls"]
            if c["dealt"] is not None:
                for vital, n in c["dealt"].items():
                    assert n <= mine["dealt"][vital]  # what the hidden foe took is left out
        assert sum(s["rolls"] for s in theirs["sides"].values()) == len(theirs["rolls"])


def _all_lines(t, role, seat):
    """Every log line ``role`` reads at the end of the log (the view keeps the last 200)."""
    from tb_playground.table import table_log

    return [{"seq": seq} for seq in sorted(table_log.readable_seqs(t.state, t.events, role, seat))]


def test_since_the_fight_and_bad_arguments(fight):
    whole, last = fight.night(), fight.night(since="fight")
    assert last["since"] == "fight" and len(last["rolls"]) <= len(whole["rolls"])
    with pytest.raises(ValueError, match="since must be"):
        fight.night(since="week")
    with pytest.raises(PermissionError):
        fight.night("player", "opponent")


def test_an_automatic_attack_counts_as_a_hit(tmp_path):
    """Issue 31: the Nightmare's Cry needs no to-hit roll (rules/000), yet it hits: it counts.

    Before, the night's numbers counted hits at the to-hit roll only ("Hits 0 / Misses 0"
    after two Cries). Each automatic attack that reaches its damage is one hit, no critical.
    """
    from table_helpers import fight, start_and_declare

    _, t = new_table(tmp_path, fight())
    start_and_declare(t, {}, {"nightmare": 10, "ronan": 1, "the-brick": 1, "guard-dog": 1})
    assert t.state["up"] == "nightmare"
    cry = [a["name"] for a in t.state["combatants"]["nightmare"]["attacks"]].index("Cry")
    for target in ("ronan", "the-brick"):
        t.apply({"type": "attack", "attacker": "nightmare", "target": target, "attack": cry})
        assert t.state["pending"]["step"] == "damage"  # no to-hit roll
        t.apply({"type": "roll", "faces": [1] * 11 + [10]})
        while t.state["pending"] is not None:  # keep the dice, take the damage
            step = t.state["pending"]["step"]
            t.apply(
                {"type": "boost", "dice": []} if step == "boost" else {"type": "prevent", "ki": 0}
            )
    night = {c["id"]: c for c in t.night()["combatants"]}
    assert (night["nightmare"]["hits"], night["nightmare"]["misses"]) == (2, 0)
    assert night["nightmare"]["criticals"] == night["nightmare"]["catastrophes"] == 0
    assert night["ronan"]["hits"] == night["ronan"]["misses"] == 0
