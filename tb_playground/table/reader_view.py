"""What each person at the table may see: ``view_for(state, events, role, seat)``.

The GM sees everything but the seed; players and spectators see no hidden combatant, no other
seat's bracket before the reveal, foes' numbers only as labels unless shared. Plain text that
every page escapes. Notes: docs/notes/0008-table.md.
"""

from __future__ import annotations

from tb_playground.engine.character_stats import vital_conditions
from tb_playground.formatting import chance_words

from . import chase_phase, fight_end, gifts, results, scars
from .attack_options import attack_view
from .fight_rules import can_act, declare_cost, distracted, ki_cost, movement_rate
from .odds import pending_odds
from .privacy import (
    attack_numbers,
    attacker_odds,
    card_name,
    foe,
    foe_odds,
    label,
    may_read_numbers,
    sees_all,
    unseen,
    visible,
)
from .state import undo_stack
from .table_log import log_window


def _states(c: dict) -> list[str]:
    dead = c["now"]["health"] <= c["dead_at"]
    now = c["now"]
    found = vital_conditions(now["health"], now["poise"], now["sanity"], dead)
    if c["out"] and "Out of the fight" not in found:
        found.append("Out of the fight")
    if c["exhausted"]:
        found.append(f"Exhausted {c['exhausted']}")
    return found


def _combatant(state: dict, c: dict, role: str, seat: str | None) -> dict:
    numbers = sees_all(role) or state["share_foes"] or not foe(state, c)
    revealed = state["phase"] == "resolve" and c["band"] is not None
    mine = role == "player" and seat == c["id"]
    led = c["carried"].get("led_by")
    sees_bracket = sees_all(role) or mine or revealed
    out = {
        "id": c["id"],
        "name": card_name(state, c["id"], role),
        "side": c["side"],
        "kind": c["kind"],
        "foe": foe(state, c),
        "you": mine,
        "initiative": c["initiative"]["total"] if c["initiative"] else None,
        "declared": c["bracket"] is not None,
        "bracket": c["bracket"] if sees_bracket else None,
        "bumps": c["bumps"] if sees_bracket else None,
        "band": c["band"] if revealed or sees_all(role) else None,
        "acted": c["acted"],
        "up": state["up"] == c["id"] and state["phase"] != "over",  # no one is up once over
        "can_act": can_act(c),
        "out": c["out"],
        "label": label(c),
        "conditions": [
            {"name": k, "until": v["until"], "to_roll": k == "Distracted" and not v.get("rolled")}
            for k, v in c["conditions"].items()
        ],
        "states": _states(c) if numbers else [],
        "distracted": _distracted(c),
        "led_by": None if unseen(state, led, role) else led,
        "vitals": None,
        "ki": None,
        "fate": None,
        "defense": None,
        "wall": None,
        "attacks": None,
    }
    if numbers:
        out["vitals"] = {v: {"now": c["now"][v], "max": c["max"][v]} for v in c["now"]}
        ki = c["ki"]
        if c["bracket"] and c["bumps"] and not sees_bracket:  # paid now, told at the reveal
            ki += declare_cost(c, c["bumps"])
        out["ki"] = {"now": ki, "pool": c["ki_pool"]}
        out["fate"] = {"tokens": c["fate"], "cap": c["fate_cap"]}
        out["defense"] = dict(c["defense"])
        out["wall"] = dict(c["wall"])
        out["movement_rate"] = movement_rate(c)
    if sees_all(role) or mine:
        out["attacks"] = [
            {"index": i, "name": a["name"], "kind": a["kind"], "dice": a["dice"]}
            for i, a in enumerate(c["attacks"])
        ]
        out["actions"] = list(c["actions"])
        out["metres"] = c["metres"]
        out["carried"] = {  # "resume": whose turn a Ready broke into, maybe a hidden one's
            k: v for k, v in c["carried"].items() if not unseen(state, v, role)
        }
        out["fate_claim"] = c.get("fate_claim") or None
        out["gifts"] = gifts.card(state, c)
    if sees_all(role):
        out["hidden"] = c["hidden"]
    out["scars"] = scars.card(c)
    return out


def _distracted(c: dict) -> dict | None:
    """The Distracted roll's state (asked, held, failed) and Difficulty, or None."""
    info = distracted(c)
    if info is None:
        return None
    return {
        "state": info["state"],
        "difficulty": info.get("difficulty"),
        "slow": bool(info.get("slow")),
        "spent": bool(info.get("spent")),
    }


def _combatant_for(state: dict, c: dict, role: str, seat: str | None, shared: dict | None) -> dict:
    """``_combatant``, shared between the non-GM views in which ``c`` is not the seat."""
    if shared is None or sees_all(role) or (role == "player" and seat == c["id"]):
        return _combatant(state, c, role, seat)
    made = shared.get(c["id"])
    if made is None:
        made = shared[c["id"]] = _combatant(state, c, "spectator", None)
    return made


def view_for(
    state: dict,
    events: list[dict],
    role: str,
    seat: str | None = None,
    undo: tuple[bool, bool] | None = None,
    cache: dict | None = None,
    shared: dict | None = None,
) -> dict:
    """The table as ``role`` may see it (module docstring); JSON-ready.

    ``undo`` is (can undo, can redo) when the caller keeps the stacks; ``cache`` a dict in
    which the log is kept (see ``log_window``; it may outlive the state); ``shared`` a dict for this
    state only, in which every player's and spectator's view shares one dict per combatant
    not their own (the same for all of them: treat it as read-only).
    """
    ids = [cid for cid in state["ids"] if visible(state, cid, role)]
    log, seen = log_window(state, events, role, seat, cache)
    combatants = [
        _combatant_for(state, state["combatants"][cid], role, seat, shared) for cid in ids
    ]
    up = state["up"] if state["up"] and visible(state, state["up"], role) else None
    if state["phase"] == "over":
        up = None  # the fight is over: no one's turn (the GM's "continue" brings it back)
    view = {
        "table": state["name"],
        "version": state["version"],
        "round": state["round"],
        "phase": state["phase"],
        "up": up,
        "order": [cid for cid in state["order"] if visible(state, cid, role)],
        "initiative_order": [
            cid for cid in state.get("initiative_order", []) if visible(state, cid, role)
        ],
        "share_foes": state["share_foes"],
        "foe_odds": foe_odds(state),
        "ruleset": dict(state["ruleset"]),
        "role": role,
        "seat": seat,
        "combatants": combatants,
        "pending": _pending(state, role, seat),
        "result": results.last_result(
            state,
            events,
            role,
            seat,
            lambda cid: visible(state, cid, role),
            lambda cid: may_read_numbers(state, cid, role),
        ),
        "ranges": [
            {"a": a, "b": b, "band": band}
            for a, b, band in (key.split("|") + [band] for key, band in state["ranges"].items())
            if visible(state, a, role) and visible(state, b, role)
        ],
        "log": log,
        "events_seen": seen,
        "fight_over": _fight_over(state, events, role, shared),
        "chase": chase_phase.view(
            state,
            lambda cid: visible(state, cid, role),
            lambda cid: may_read_numbers(state, cid, role),
        ),
    }
    if sees_all(role):
        if undo is None:
            in_force, redo = undo_stack(events)
            undo = (bool(in_force), bool(redo))
        view["join_code"] = state["join_code"]
        view["can_undo"], view["can_redo"] = undo
    return view


def _fight_over(state: dict, events: list[dict], role: str, shared: dict | None) -> dict | None:
    """The fight's end for this viewer: the winner, what each dealt, took and spent.

    ``fight_end.summary``; hidden combatants are left out, foes' numbers only if shared.
    """
    over = state.get("over")
    if not over:
        return None
    key = ("fight_over", role)  # ``shared`` holds one state's drawings
    if shared is not None and key in shared:
        return shared[key]
    rows = fight_end.summary(
        state,
        events,
        lambda c: sees_all(role) or state["share_foes"] or not foe(state, c),
    )
    rows = [
        {**r, "name": card_name(state, r["id"], role)}
        for r in rows
        if visible(state, r["id"], role)
    ]
    winner = over["winner"]
    if winner is not None and not any(r["side"] == winner for r in rows):
        winner = None
    made = {"winner": winner, "round": over["round"], "summary": rows}
    if shared is not None:
        shared[key] = made
    return made


def _pending(state: dict, role: str, seat: str | None) -> dict | None:
    p = state["pending"]
    if p is None:
        return None
    if not visible(state, p["target"], role):
        return None
    if not visible(state, p["attacker"], role):
        if p["step"] == "prevent" and role == "player" and seat == p["target"]:
            return _unseen_pending(state, p)  # the target prevents, the attacker unnamed
        return None
    out = {
        k: p[k]
        for k in ("attacker", "target", "attack", "kind", "vital", "element", "step", "critical")
    }
    out["advantage"] = p["advantage"]
    out["sources"] = [list(s) for s in p["sources"]]
    out["faces"] = list(p.get("faces", []))
    out["levels"] = p.get("would_take", p.get("levels"))
    out.update(attack_view(p))
    out["opened"] = p.get("opened")
    out.update(_ki_costs(state, p, role, seat))
    if "gift_check" in p:
        out["gift_check"] = {k: v for k, v in p["gift_check"].items() if k != "then"}
    out["odds"] = pending_odds_for(state, role, seat)
    out["tn"] = p["tn"] if out["odds"] is not None else None
    out["chance"] = None
    if attacker_odds(state, p, role, seat) == "words" and p["step"] in ("approach", "to_hit"):
        hit = pending_odds(state, p).get("p_hit")  # in words only: the GM's switch (issue 31)
        out["chance"] = chance_words(hit) if hit is not None else None
    if p["step"] == "prevent" and not (
        may_read_numbers(state, p["target"], role) or seat == p["target"]
    ):
        # How many levels it may prevent (capped by the Health left) and that it has Ki to
        # spend are a foe's numbers (issue 31): the rolled levels, the GM settles the hit.
        out.update(step="settle", levels=p["levels"], odds=None, tn=None)
    return out


def pending_odds_for(
    state: dict, role: str, seat: str | None, typed: list[int] | None = None
) -> dict | None:
    """The pending attack's odds as ``role`` (at ``seat``) may see them, or None.

    The GM, the attacker and the target see them; others too when the GM shares the foes'
    numbers or no foe is in it (a foe's attack on another player shows without odds or TN:
    issue 20). The wall and armor of a foe's target stay the GM's unless shared. ``typed``:
    the dice typed so far (``odds.pending_odds``; issue 23, the odds as the dice land).
    """
    p = state["pending"]
    if p is None or not (visible(state, p["attacker"], role) and visible(state, p["target"], role)):
        return None
    if not attack_numbers(state, p, role, seat):
        if p["step"] == "gift_check" and seat == p["attacker"]:
            # The attacker's own Gift Check (TN their Ki) tells nothing of the foe (issue 31).
            return {"gift_check": pending_odds(state, p, typed)["gift_check"]}
        return None
    odds = pending_odds(state, p, typed)
    target_foe = foe(state, state["combatants"][p["target"]])
    if not (sees_all(role) or state["share_foes"] or not target_foe):
        odds.pop("wall")  # the foe's wall stays the GM's unless shared
        odds.pop("armor", None)
    return odds


def _ki_costs(state: dict, p: dict, role: str, seat: str | None) -> dict:
    """At a boost or prevention step, for whoever makes it: Ki now and what n levels cost.

    "ki_costs"[n] is the Ki that boosting n dice (or preventing n levels) costs the one who
    spends it (Exhausted 4 adds one per spend: ``fight_rules.ki_cost``).
    """
    who = {"boost": p["attacker"], "prevent": p["target"]}.get(p["step"])
    if who is None or not (sees_all(role) or (role == "player" and seat == who)):
        return {}
    c = state["combatants"][who]
    top = len(p.get("faces", [])) if p["step"] == "boost" else p.get("would_take", 0)
    return {"ki_now": c["ki"], "ki_costs": [ki_cost(n, c["exhausted"]) for n in range(top + 1)]}


def _unseen_pending(state: dict, p: dict) -> dict:
    """The prevention step as the target of a hidden attacker sees it.

    No name, id or number of the attacker, nor its attack (which could tell who it is); only
    what the hit costs.
    """
    out = {
        "attacker": None,
        "unseen": True,
        "target": p["target"],
        "attack": None,
        "kind": None,
        "vital": p["vital"],
        "element": None,
        "step": "prevent",
        "critical": False,
        "advantage": 0,
        "sources": [],
        "faces": [],
        "levels": p.get("would_take", p.get("levels")),
        "tn": None,
        "odds": None,
        "opened": p.get("opened"),
    }
    out.update(_ki_costs(state, p, "player", p["target"]))
    return out
