"""The action menu (table/menu.py) offers exactly what the table takes (issue 20).

For seeded random states of the warehouse fight: every offered action's command is accepted by
``Table.apply`` on a copy of the table, every action not offered is refused; the costs and the
actions left agree with the round's budget (engine ``round_budget``); the odds on the buttons
are the engine's exact odds of the attack the table then holds, to 1e-12.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from tb_playground.engine import ACTIONS, to_hit_odds
from tb_playground.models.files import load
from tb_playground.table import TableStore
from tb_playground.table.menu import actions_left, entry, menu
from tb_playground.table.odds import pending_odds

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"

_names = itertools.count()


def _warehouse(tmp_path, seed: int):
    store = TableStore(tmp_path / "tables.sqlite")
    return store, store.create("W", load(ROSTER / "warehouse.encounter.yaml"), seed=seed)


def _copy(store, table):
    return store.import_events(table.events, name=f"copy {next(_names)}")


def _senders(state: dict) -> list[tuple[str, str | None]]:
    up = state["combatants"][state["up"]]
    out = [("gm", None)]
    if up["kind"] == "character" and not up["hidden"]:
        out.append(("player", up["id"]))
    return out


def _finish_pending(table) -> None:
    """Roll, keep the dice and take the damage until no attack is under way."""
    for _ in range(10):
        p = table.state["pending"]
        if p is None:
            return
        step = p["step"]
        if step == "approach":
            table.apply({"type": "attack_ruling"})
        elif step == "boost":
            table.apply({"type": "boost", "dice": []})
        elif step == "prevent":
            table.apply({"type": "prevent", "ki": 0})
        else:
            table.apply({"type": "roll"})


def _states(tmp_path, seed: int, steps: int = 7):
    """Yield (store, table) at random moments of a random warehouse fight."""
    rng = random.Random(seed)
    store, table = _warehouse(tmp_path, seed)
    ids = table.state["ids"]
    table.apply({"type": "start", "initiative": {i: rng.randint(1, 10) for i in ids}})
    for _ in range(steps):
        state = table.state
        if state["phase"] == "declare":
            for cid in ids:
                if table.state["phase"] != "declare":
                    break
                c = table.state["combatants"][cid]
                if c["bracket"] is None and not c["out"]:
                    try:
                        table.apply(
                            {"type": "declare", "combatant": cid,
                             "bracket": rng.choice(("fast", "normal", "slow"))}
                        )  # fmt: skip
                    except ValueError:
                        pass
            if table.state["phase"] == "declare":
                table.apply({"type": "reveal"})
            continue
        if state["phase"] != "resolve" or state["up"] is None:
            return
        yield store, table
        m = menu(table.state, "gm")
        offered = [a for a in m["actions"] if a["allowed"]]
        if offered and rng.random() < 0.7:
            table.apply(rng.choice(offered)["command"])
            _finish_pending(table)
        elif table.state["phase"] == "resolve" and table.state["pending"] is None:
            table.apply({"type": "end_turn"})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_offered_exactly_what_the_table_takes(tmp_path, seed):
    seen = 0
    for store, table in _states(tmp_path, seed):
        state = table.state
        for role, seat in _senders(state):
            m = menu(state, role, seat)
            assert m["open"], m["why"]
            for a in m["actions"]:
                copy = _copy(store, table)
                try:
                    copy.apply(a["command"], role=role, seat=seat)
                    taken = ""
                except (ValueError, PermissionError) as err:
                    taken = str(err)
                assert a["allowed"] == (taken == ""), (a["key"], a["reason"], taken)
                if not a["allowed"]:
                    assert a["reason"] == taken  # the table's own words
                seen += 1
    assert seen > 50


@pytest.mark.parametrize("seed", [4, 5])
def test_costs_and_actions_left_follow_the_budget(tmp_path, seed):
    checked = 0
    for store, table in _states(tmp_path, seed):
        state = table.state
        up = state["combatants"][state["up"]]
        m = menu(state, "gm")
        left = m["left"]
        assert left == actions_left(state, up)
        assert m["chips"][0].startswith(f"{left['left']} of {left['allowed']} action")
        for a in m["actions"]:
            if not a["allowed"] or a["key"] not in ACTIONS or ACTIONS[a["key"]].moves:
                continue
            cost = ACTIONS[a["key"]].cost
            assert ("free" in a["cost"]) == (cost == 0)
            copy = _copy(store, table)
            copy.apply(a["command"])
            _finish_pending(copy)
            after = copy.state
            if after["up"] != up["id"]:
                continue
            now = actions_left(after, after["combatants"][up["id"]])
            assert now["used"] == left["used"] + cost, a["key"]
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_odds_on_buttons_are_the_engines(tmp_path, seed):
    checked = 0
    for store, table in _states(tmp_path, seed, steps=14):
        state = table.state
        m = menu(state, "gm")
        for key in ("attack", "aim", "called shot"):
            a = entry(m, key)
            if not a["allowed"]:
                continue
            copy = _copy(store, table)
            copy.apply(a["command"])
            p = copy.state["pending"]
            exact = to_hit_odds(p["score"], p["defense"], p["advantage"]).p_hit
            assert abs(a["p"]["p_hit"] - exact) < 1e-12
            assert abs(pending_odds(copy.state, p)["p_hit"] - exact) < 1e-12
            assert f"{100 * exact:.0f}%" in a["odds"]
            checked += 1
    assert checked >= 3


def test_slow_round_offers_its_empowered_actions(tmp_path):
    store, table = _warehouse(tmp_path, 11)
    ids = table.state["ids"]
    table.apply({"type": "start", "initiative": {i: 10 if i == "ronan" else 1 for i in ids}})
    for cid in ids:
        if table.state["phase"] == "declare":
            bracket = "slow" if cid == "ronan" else "normal"
            table.apply({"type": "declare", "combatant": cid, "bracket": bracket})
    while table.state["up"] != "ronan":
        table.apply({"type": "end_turn"})
    m = menu(table.state, "player", "ronan")
    shown = {a["key"] for a in m["actions"] if a["group"] == "empowered"}
    assert {"aim", "called shot", "study", "sprint"} <= shown
    aim = entry(m, "aim")
    assert aim["allowed"] and "->" in aim["odds"]
    assert aim["p"]["p_hit"] > aim["p"]["p_hit_before"]
    called = entry(m, "called shot")
    assert [f["value"] for f in called["fields"] if f["name"] == "zone"] == ["head"]
    assert m["chips"][0] == "1 of 1 action left"
    # A player's menu names no hidden combatant.
    table.apply({"type": "hide", "combatant": "guard-dog-2"})
    m = menu(table.state, "player", "ronan")
    assert "guard-dog-2" not in repr(m) and "Guard dog 2" not in repr(m)


def test_closed_when_not_the_actors_turn(tmp_path):
    store, table = _warehouse(tmp_path, 12)
    m = menu(table.state, "player", "ronan")
    assert not m["open"] and m["why"] == "Wait for your turn."
    assert m["actions"] == []


def _check_all(store, table, role, seat, actor) -> list[dict]:
    """Each action of ``actor``'s menu: offered exactly when a copy of the table takes it."""
    m = menu(table.state, role, seat, actor)
    for a in m["actions"]:
        copy = _copy(store, table)
        try:
            copy.apply(a["command"], role=role, seat=seat)
            taken = ""
        except (ValueError, PermissionError) as err:
            taken = str(err)
        assert a["allowed"] == (taken == ""), (a["key"], a["reason"], taken)
    return [a for a in m["actions"] if a["group"] is not None and a["allowed"]]


def test_a_chase_offers_its_moves_then_its_roll(tmp_path):
    store, table = _warehouse(tmp_path, 13)
    table.apply(
        {"type": "chase_start", "quarry": "guard-dog", "pursuers": ["ronan", "the-brick"],
         "metres": 20}
    )  # fmt: skip
    ids = ["guard-dog", "ronan", "the-brick"]
    rolled = 0
    for _ in range(6):
        if table.state["phase"] != "chase":
            break
        for cid in ids:
            c = table.state["combatants"][cid]
            senders = [("gm", None)] + ([("player", cid)] if c["kind"] == "character" else [])
            for role, seat in senders:
                offered = _check_all(store, table, role, seat, cid)
            if offered and table.state["phase"] == "chase":
                keys = {a["key"] for a in offered}
                assert keys <= {"chase move", "chase dash", "chase sprint", "chase roll"}
                assert keys == {"chase roll"} or "chase roll" not in keys
                if "chase roll" in keys:
                    p = entry(menu(table.state, "gm", None, cid), "chase roll")["p"]
                    assert 0 <= p["p_success"] <= 1
                    rolled += 1
                table.apply(offered[0]["command"])
    assert rolled >= 3


def test_a_ranged_attack_asks_the_metres_when_the_band_spans_its_ranges(tmp_path):
    store, table = _warehouse(tmp_path, 14)
    ids = table.state["ids"]
    captain = "captain-oriel-vance"
    table.apply({"type": "start", "initiative": {i: 10 if i == captain else 1 for i in ids}})
    table.apply({"type": "set_range", "a": captain, "b": "ronan", "band": "near"})
    for cid in ids:
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    assert table.state["up"] == captain
    pistol = {"target": "ronan", "attack": 1}
    shot = entry(menu(table.state, "gm", None, None, pistol), "attack")
    assert not shot["allowed"] and "say how many metres" in shot["reason"]
    assert "distance" in [f["name"] for f in shot["fields"]]
    shot = entry(menu(table.state, "gm", None, None, {**pistol, "distance": 20}), "attack")
    assert shot["allowed"] and shot["command"]["distance"] == 20
    copy = _copy(store, table)
    copy.apply(shot["command"])
    assert copy.state["pending"]["distance"] == 20


@pytest.mark.parametrize("seed", [9, 10])
def test_the_refusals_a_panel_shows_read_in_plain_words(tmp_path, seed):
    """What the action panel says of an action it shows but the table refuses now (issue 20)."""
    from test_refusal_words import shown

    from tb_playground.views.combat.combat_render import refusal_words

    said = set()
    for _store, table in _states(tmp_path, seed, steps=10):
        state = table.state
        for role, seat in _senders(state):
            for a in menu(state, role, seat)["actions"]:
                if a["group"] is None or a["allowed"]:
                    continue
                error = PermissionError if a["refusal"] == "permission" else ValueError
                text = refusal_words(error(a["reason"]))
                assert not shown(text), (a["key"], text)
                said.add(text)
    assert said
