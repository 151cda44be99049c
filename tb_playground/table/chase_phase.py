"""A chase as its own phase: Chase rolls round after round, the gaps, caught or broken away.

Sources: rules/001 "Chases" lines 105-119 and rules/000 "Chases" lines 477-485 (RULES.md).
Each round everyone declares a move, a Dash or a Sprint (``chase_declare``), then makes a
Chase roll at Difficulty 6 (``chase_roll``); when the last roll is in, every pursuer's gap to
the quarry moves through the engine's ``chase_round``. At 1 m or less the quarry is caught
(Melee); past where sight breaks the GM calls the Stealth roll (``chase_search``). The GM
starts the chase (``chase_start``), rules on the route and sight (``chase_ruling``) and may
end it (``chase_end``). Readings: docs/notes/0015-table-rules.md "The chase".
"""

from __future__ import annotations

import math
from fractions import Fraction

from tb_playground.engine.chase import (
    CHASE_DIFFICULTY,
    CHASE_RESULTS,
    chase_result_odds,
    chase_round,
)
from tb_playground.engine.core_roll import check_target, tier_rules
from tb_playground.engine.validation import require_bool, require_choice, require_int

from . import command_tools as tools
from . import fight_rules, movement, skill_rolls
from .command_record import Command, Reader
from .state import combatant_path

Event = tuple[str, dict, list]

START_FIELDS = ("quarry", "pursuers", "metres", "skill", "harder", "sight_m", "scores")
DECLARE_FIELDS = ("combatant", "how", "skill", "gear", "sprint_faces", "sprint_reroll_faces")
ROLL_FIELDS = ("combatant", "faces", "reroll_faces")
RULING_FIELDS = ("harder", "sight_m", "broken")
SEARCH_FIELDS = (
    "pursuer",
    "skill",
    "difficulty",
    "static",
    "actor_faces",
    "resister_faces",
    "actor_reroll_faces",
    "resister_reroll_faces",
    "lost",
)

#: Each move of a chase and its multiple of the Movement Rate (rules/001 line 109; 000 line 413).
HOWS = {"move": 1, "dash": 2, "sprint": 5}

#: The Skills a Chase roll is made with (rules/001 line 110: "Athletics on foot, Driving, or
#: Piloting").
CHASE_SKILLS = ("Athletics", "Driving", "Piloting")

#: The Skills a character pursuer may search with (rules/001 line 114: "Perception or Tracking").
SEARCH_SKILLS = ("Perception", "Tracking")

#: The phases a chase may start from, and that it goes back to.
FROM_PHASES = ("setup", "declare", "resolve")


def _chase(state: dict) -> dict:
    """The chase under way, or a refusal saying there is none."""
    if state["phase"] != "chase" or not state.get("chase"):
        raise ValueError(
            'There is no chase under way: the GM starts one first (rules/001 "Chases").'
        )
    return state["chase"]


def _from_fight(chase: dict) -> bool:
    return chase["back"] in ("declare", "resolve")


def participants(state: dict) -> list[str]:
    """The quarry and the pursuers still in the chase, quarry first."""
    chase = state["chase"]
    return [chase["quarry"], *chase["pursuers"]]


def _able(state: dict) -> list[str]:
    return [cid for cid in participants(state) if fight_rules.can_act(state["combatants"][cid])]


def due(state: dict) -> dict:
    """Who must do what next: the GM's searches, then declarations, then Chase rolls."""
    chase = state["chase"]
    if chase["searching"]:
        return {"search": sorted(chase["searching"]), "declare": [], "roll": []}
    able = _able(state)
    declare = [cid for cid in able if cid not in chase["moves"]]
    roll = [] if declare else [cid for cid in able if cid not in chase["results"]]
    return {"search": [], "declare": declare, "roll": roll}


# -- one roller's Chase roll ---------------------------------------------------------------------


def roller(state: dict, c: dict, skill: str | None = None, gear: bool | None = None) -> dict:
    """What one side's Chase roll is made with: the engine's ``chase_result_odds`` inputs.

    A character rolls the Skill they move with at its tier; a creature's card has no Skills, so
    it rolls Trained at the number the GM gave (else its best Physical attack number, as for a
    Grab). Their own conditions count (``roll_modifiers``), Exhausted through the engine's one
    Chase source (rules/001 line 116), gear that helps as one Advantage (001 line 110).
    """
    chase = state["chase"]
    move = chase["moves"].get(c["id"], {})
    skill = skill or move.get("skill") or chase["skill"]
    gear = move.get("gear", False) if gear is None else gear
    if c["kind"] == "character":
        row = tools.skill_of(c, skill)
        if row["tier"] == 0 and not row["usable_untrained"]:
            raise ValueError(
                f"{c['name']} cannot roll {skill} untrained: it needs training (rules/001 "
                '"Chases": the Skill for how they move). Choose another way to move.'
            )
        element, tier = c["elements"].get(row["element"], 0), row["tier"]
    else:
        element, tier = chase["scores"][c["id"]], 1
    mods = tools.modifiers(state, {**c, "exhausted": 0}, "physical", tier)
    tools.refuse_roll(c, mods)
    advantage = mods.advantage - tier_rules(tier).advantage_sources + (1 if gear else 0)
    return {
        "skill": skill,
        "element": element,
        "tier": tier,
        "advantage": advantage,
        "difficulty": chase["difficulty"],
        "exhausted": c["exhausted"],
        "sources": [[s.label, s.sign] for s in mods.sources] + ([["Gear", 1]] if gear else []),
    }


def result_odds(inputs: dict) -> dict[str, Fraction]:
    """The engine's exact odds of one Chase roll's results."""
    return chase_result_odds(
        inputs["element"],
        inputs["tier"],
        inputs["advantage"],
        inputs["difficulty"],
        inputs["exhausted"],
    )


def _off_balance(state: dict, c: dict, outcome: str) -> list:
    """A kept 20 in a chase out of a fight leaves Off Balance through the next chase round.

    rules/000 line 31: "In a fight it also leaves you Off Balance".
    """
    chase = state["chase"]
    if outcome != "catastrophe" or not _from_fight(chase):
        return []
    info = fight_rules.condition("Off Balance", state["round"], "next_turn_end", own_turn=True)
    info["chase_round"] = chase["round"]
    return [[combatant_path(c["id"], "conditions", "Off Balance"), info]]


# -- commands --------------------------------------------------------------------------------------


def _ids(state: dict, value: object, field: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(v, str) or v not in state["combatants"] for v in value)
        or len(set(value)) != len(value)
    ):
        raise ValueError(f"{field} must be a list of distinct combatant ids, got {value!r}")
    return value


def _best_physical(c: dict) -> int:
    physical = [x["score"] for x in c["attacks"] if x["kind"] == "physical"]
    scores = physical or [x["score"] for x in c["attacks"]] or [0]
    return max(min(s or 0, 10) for s in scores)


def start(state, command, role, seat, roll) -> list[Event]:
    """GM: who flees, who pursues, the gap in metres, the Skill and the route (rules/001 105)."""
    tools.gm_only(role, "start a chase")
    if state["phase"] not in FROM_PHASES:
        raise ValueError(
            f"A chase starts before a fight or during one, not in the {state['phase']} phase."
        )
    if state["pending"] is not None:
        raise ValueError("Finish the attack under way before the chase starts.")
    quarry = tools.combatant(state, command, "quarry")
    pursuers = _ids(state, command.get("pursuers"), "pursuers")
    if quarry["id"] in pursuers:
        raise ValueError("pursuers: the quarry cannot chase itself")
    for cid in [quarry["id"], *pursuers]:
        c = state["combatants"][cid]
        if not fight_rules.can_act(c):
            raise ValueError(f"{c['name']} cannot act, so cannot run or give chase.")
    metres = require_int("metres", command.get("metres"), 2, 100_000)
    skill = require_choice("skill", command.get("skill", "Athletics"), CHASE_SKILLS)
    harder = require_int("harder", command.get("harder", 0), 0, 2)
    sight = command.get("sight_m")
    if sight is not None:
        sight = require_int("sight_m", sight, metres, 100_000)
    given = command.get("scores", {})
    if not isinstance(given, dict):
        raise ValueError("scores must map a creature's id to its Chase number (0..10)")
    scores = {}
    for cid, value in given.items():
        if cid not in [quarry["id"], *pursuers] or state["combatants"][cid]["kind"] == "character":
            raise ValueError(
                "scores: a Chase number was given for someone who is not a creature in this chase"
            )
        scores[cid] = require_int(f"scores[{cid}]", value, 0, 10)
    for cid in [quarry["id"], *pursuers]:
        c = state["combatants"][cid]
        if c["kind"] != "character" and cid not in scores:
            scores[cid] = _best_physical(c)
    chase = {
        "quarry": quarry["id"],
        "pursuers": pursuers,
        "gaps": dict.fromkeys(pursuers, metres),
        "skill": skill,
        "harder": harder,
        "difficulty": CHASE_DIFFICULTY - harder,
        "sight_m": sight,
        "scores": scores,
        "round": 1,
        "back": state["phase"],
        "moves": {},
        "results": {},
        "searching": {},
        "lost": [],
        "sprints": {},
    }
    changes = [[["phase"], "chase"], [["chase"], chase]]
    for cid in pursuers:
        changes += movement.distance_changes(cid, quarry["id"], metres)
    data = {
        "quarry": quarry["id"],
        "pursuers": pursuers,
        "metres": metres,
        "skill": skill,
        "difficulty": chase["difficulty"],
        "sight_m": sight,
    }
    return [("chase_started", data, changes)]


def declare(state, command, role, seat, roll) -> list[Event]:
    """A move, a Dash or a Sprint for this chase round (rules/001 line 109)."""
    chase = _chase(state)
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "declare a chase move")
    if c["id"] not in participants(state):
        raise ValueError(f"{c['name']} is not in the chase.")
    if chase["searching"]:
        raise ValueError(
            "Sight is broken: the Stealth roll comes first (rules/001 line 114); the GM "
            "calls for it."
        )
    if not fight_rules.can_act(c):
        raise ValueError(f"{c['name']} cannot act, so cannot run this round.")
    if c["id"] in chase["moves"]:
        raise ValueError(
            f"{c['name']} has declared this round's move already; the Chase rolls come next "
            '(rules/001 "Chases", steps 1-2).'
        )
    how = require_choice("how", command.get("how", "move"), tuple(HOWS))
    skill = command.get("skill", chase["skill"])
    skill = require_choice("skill", skill, CHASE_SKILLS)
    gear = require_bool("gear", command.get("gear", False))
    if gear:
        tools.gm_only(role, "count gear that helps (rules/001 line 110: the GM's call)")
    roller(state, c, skill, gear)  # refuses a roll the roller cannot make, before anything
    metres = fight_rules.movement_rate(c) * HOWS[how]
    move = {"how": how, "metres": metres, "skill": skill, "gear": gear}
    changes = [[["chase", "moves", c["id"]], move]]
    data = {"combatant": c["id"], "how": how, "metres": metres}
    changes += _sprint(state, command, c, how, data, roll)
    return [("chase_declared", data, changes)]


def _sprint(state, command, c, how, data, roll) -> list:
    """A chase round's move: a Sprint runs on and rolls for exhaustion (``sprint_endurance``)."""
    chase = state["chase"]
    if how != "sprint":
        if "sprint_faces" in command:
            raise ValueError("sprint_faces: only a Sprint rolls for exhaustion")
        return [[["chase", "sprints", c["id"]], 0]]
    run = chase["sprints"].get(c["id"], 0) + 1
    changes = [[["chase", "sprints", c["id"]], run]]
    if c["kind"] != "character":  # a card has no Stamina: the GM tracks a creature's wind
        data["sprint_round_of_run"] = run
        if "sprint_faces" in command:
            raise ValueError("sprint_faces: this Sprint needs no endurance roll")
        return changes
    return changes + movement.sprint_endurance(
        state,
        command,
        c,
        run,
        data,
        roll,
        lambda state, c, reading: _off_balance(state, c, reading.outcome),
    )


def roll_command(state, command, role, seat, roll) -> list[Event]:
    """One side's Chase roll (rules/001 line 110); the last one resolves the round."""
    chase = _chase(state)
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "make a Chase roll")
    now = due(state)
    if c["id"] not in participants(state):
        raise ValueError(f"{c['name']} is not in the chase.")
    if c["id"] in chase["results"]:
        raise ValueError(f"{c['name']} has made this round's Chase roll already.")
    if c["id"] not in now["roll"]:
        waiting = now["declare"] or now["search"]
        names = ", ".join(state["combatants"][x]["name"] for x in waiting) or "nobody"
        raise ValueError(
            f"{c['name']} cannot make a Chase roll now: everyone declares their move first, "
            f'then everyone rolls (rules/001 "Chases", steps 1-2). Waiting for: {names}.'
        )
    inputs = roller(state, c)
    total = inputs["advantage"] + tier_rules(inputs["tier"]).advantage_sources
    total -= inputs["exhausted"] >= 1
    target = check_target(inputs["element"], inputs["difficulty"], inputs["tier"])
    odds = tools.odds(state, target, total, inputs["tier"])
    reading, by = tools.read(state, command, "faces", target, total, inputs["tier"], roll)
    result = {"critical": "critical", "success": "success"}.get(reading.outcome, "failure")
    data = tools.roll_record(c, reading, by, odds)
    exact = result_odds(inputs)
    data.update(
        result=result,
        skill=inputs["skill"],
        difficulty=inputs["difficulty"],
        sources=inputs["sources"],
        p_results={k: float(v) for k, v in exact.items()},
    )
    changes = [[["chase", "results", c["id"]], result]]
    changes += _off_balance(state, c, reading.outcome)
    events = [("chase_rolled", data, changes)]
    rolled = {**chase["results"], c["id"]: result}
    if all(cid in rolled for cid in _able(state)):
        events += _resolve(state, rolled, changes)
    return events


def _expire(state: dict, earlier: list) -> list:
    """End of a chase round: conditions to the round's or the next turn's end go.

    A chase round is everyone's turn; an Off Balance from this round's kept 20 lasts through
    the roller's next chase round (rules/000 line 31: "until the end of your next turn").
    """
    chase = state["chase"]
    set_now = {tuple(path) for path, value in earlier if value is not None}
    changes = []
    for cid in participants(state):
        for name, info in state["combatants"][cid]["conditions"].items():
            if info["until"] not in ("round", "next_turn_end"):
                continue
            if ("combatants", cid, "conditions", name) in set_now:
                continue
            if info.get("chase_round") == chase["round"]:
                continue
            changes.append([combatant_path(cid, "conditions", name), None])
    return changes


def _resolve(state: dict, rolled: dict, earlier: list) -> list[Event]:
    """Every pursuer's gap through the engine's ``chase_round``; caught, out of sight, or on."""
    chase = state["chase"]
    q = state["combatants"][chase["quarry"]]
    events: list[Event] = []
    caught, searching = [], {}
    for pid in chase["pursuers"]:
        if pid not in rolled or q["id"] not in rolled:
            continue
        pursuer = state["combatants"][pid]
        outcome = _outcome(state, pursuer, q, rolled)
        after = outcome.gap_after
        data = {
            "pursuer": pid,
            "quarry": q["id"],
            "results": [outcome.pursuer, outcome.quarry],
            "moved": [float(outcome.pursuer_moved), float(outcome.quarry_moved)],
            "gap_before": chase["gaps"][pid],
            "gap_exact": float(after),
            "caught": outcome.caught,
        }
        kept = 1 if outcome.caught else math.ceil(after)
        data["gap_after"] = kept
        if outcome.caught:
            caught.append(pid)
        elif chase["sight_m"] is not None and kept > chase["sight_m"]:
            searching[pid] = chase["sight_m"]
            data["out_of_sight"] = True
        changes = movement.distance_changes(pid, q["id"], kept)
        changes.append([["chase", "gaps", pid], kept])
        events.append(("chase_moved", data, changes))
    if caught:
        data = {"quarry": q["id"], "pursuers": caught, "round": chase["round"]}
        events.append(("chase_caught", data, _end_changes(state)))
        return events
    changes = _expire(state, earlier) + [
        [["chase", "round"], chase["round"] + 1],
        [["chase", "moves"], {}],
        [["chase", "results"], {}],
        [["chase", "searching"], searching],
    ]
    events.append(("chase_round_ended", {"round": chase["round"]}, changes))
    return events


def _outcome(state: dict, pursuer: dict, quarry: dict, rolled: dict):
    """The engine's outcome of this pair's results (``chase_round``)."""
    pair = pair_round(state, pursuer, quarry)
    return next(
        o for o in pair.outcomes if o.pursuer == rolled[pursuer["id"]] and o.quarry == rolled[
            quarry["id"]]
    )  # fmt: skip


def pair_round(state: dict, pursuer: dict, quarry: dict):
    """The engine's ``chase_round`` for one pursuer and the quarry as they stand now."""
    chase = state["chase"]
    p_in, q_in = roller(state, pursuer), roller(state, quarry)
    return chase_round(
        gap_m=chase["gaps"][pursuer["id"]],
        pursuer_move_m=chase["moves"][pursuer["id"]]["metres"],
        quarry_move_m=chase["moves"][quarry["id"]]["metres"],
        pursuer_element=p_in["element"],
        quarry_element=q_in["element"],
        pursuer_tier=p_in["tier"],
        quarry_tier=q_in["tier"],
        pursuer_advantage=p_in["advantage"],
        quarry_advantage=q_in["advantage"],
        pursuer_difficulty=p_in["difficulty"],
        quarry_difficulty=q_in["difficulty"],
        pursuer_exhausted=p_in["exhausted"],
        quarry_exhausted=q_in["exhausted"],
    )


def _end_changes(state: dict) -> list:
    """The chase ends: back to the Scene, or to the fight, which goes on with a new round."""
    chase = state["chase"]
    changes = [[["chase"], None], [["phase"], chase["back"]]]
    if _from_fight(chase):
        ended = fight_rules.end_round_events({**state, "phase": chase["back"]})
        changes += [c for _, _, more in ended for c in more]
    return changes


def ruling(state, command, role, seat, roll) -> list[Event]:
    """GM: the route's steps harder, where sight breaks, or sight broken now (001 line 114)."""
    tools.gm_only(role, "rule on the route and where sight breaks")
    chase = _chase(state)
    changes: list = []
    data: dict = {}
    if "harder" in command:
        harder = require_int("harder", command["harder"], 0, 2)
        changes += [
            [["chase", "harder"], harder],
            [["chase", "difficulty"], CHASE_DIFFICULTY - harder],
        ]
        data["difficulty"] = CHASE_DIFFICULTY - harder
    if "sight_m" in command:
        sight = command["sight_m"]
        sight = None if sight is None else require_int("sight_m", sight, 2, 100_000)
        changes.append([["chase", "sight_m"], sight])
        data["sight_m"] = sight
    if require_bool("broken", command.get("broken", False)):
        if chase["moves"] or chase["results"]:
            raise ValueError(
                "broken: call where sight breaks between chase rounds, before anyone declares "
                "(rules/001 line 118: the GM calls where sight breaks)."
            )
        edge = {pid: chase["gaps"][pid] for pid in chase["pursuers"]}
        changes.append([["chase", "searching"], edge])
        data["broken"] = True
    if not changes:
        raise ValueError(
            "Say what the ruling changes: a harder route, where sight breaks, or that sight is "
            "broken now."
        )
    if "harder" in command and (chase["results"]):
        raise ValueError("harder: the route changes between rounds, once no one has rolled.")
    return [("chase_ruled", data, changes)]


def search(state, command, role, seat, roll) -> list[Event]:
    """Out of sight: the quarry's Stealth against the pursuer's Perception (001 line 114)."""
    tools.gm_only(role, "call the Stealth roll")
    chase = _chase(state)
    pid = command.get("pursuer")
    if pid not in chase["searching"]:
        names = ", ".join(chase["searching"]) or "none"
        raise ValueError(f"pursuer must be one who has lost sight of the quarry ({names}).")
    p, q = state["combatants"][pid], state["combatants"][chase["quarry"]]
    edge = chase["searching"][pid]
    if "lost" in command and (p["kind"] == "character" or q["kind"] == "character"):
        raise ValueError("lost: the GM decides only between two creatures; a character rolls.")
    if p["kind"] != "character" and q["kind"] != "character":
        lost = require_bool("lost", command.get("lost"))
        data = {"pursuer": pid, "quarry": q["id"], "lost": lost, "by": "gm"}
        events = [("chase_searched", data, [])]
    else:
        events = _opposed(state, command, p, q, roll)
        lost = events[-1][1]["lost"]
    searching = {k: v for k, v in chase["searching"].items() if k != pid}
    changes = [[["chase", "searching"], searching]]
    if lost:
        pursuers = [x for x in chase["pursuers"] if x != pid]
        changes += [[["chase", "pursuers"], pursuers], [["chase", "lost"], [*chase["lost"], pid]]]
    else:
        changes += [[["chase", "gaps", pid], edge], *movement.distance_changes(pid, q["id"], edge)]
    events[-1][2].extend(changes)
    if lost and len(chase["pursuers"]) == 1:
        events.append(("chase_escaped", {"quarry": q["id"]}, _end_changes(state)))
    return events


def _opposed(state, command, p, q, roll) -> list[Event]:
    """The Stealth roll through ``skill_rolls.opposed_roll``; a card gives its number."""
    skill = command.get("skill", "Perception")
    if q["kind"] == "character":  # the quarry rolls Stealth against the pursuer's Perception
        if "skill" in command:
            raise ValueError("skill: the quarry rolls Stealth against the pursuer's Perception")
        actor, resister, a_skill, r_skill = q, p, "Stealth", "Perception"
    else:  # "When the characters give chase, they roll Perception or Tracking"
        skill = require_choice("skill", skill, SEARCH_SKILLS)
        actor, resister, a_skill, r_skill = p, q, skill, "Stealth"
    sent = {
        k: command[k]
        for k in ("difficulty", "static", *SEARCH_FIELDS[4:8])
        if k in command
    }  # fmt: skip
    sent.update(actor=actor["id"], resister=resister["id"], actor_skill=a_skill,
                resister_skill=r_skill)  # fmt: skip
    made = skill_rolls.opposed_roll({**state, "phase": "setup"}, sent, "gm", None, roll)
    kind, data, changes = made[-1]
    quarry_won = data["winner"] == q["id"]
    data = {**data, "pursuer": p["id"], "quarry": q["id"], "lost": quarry_won}
    for key in ("roll", "actor_roll", "resister_roll"):
        rolled = data.get(key)
        if rolled and rolled.get("outcome") == "catastrophe":
            changes = changes + _off_balance(state, state["combatants"][rolled["combatant"]],
                                             "catastrophe")  # fmt: skip
    return [("chase_searched", data, list(changes))]


def end(state, command, role, seat, roll) -> list[Event]:
    """GM: the chase ends where it stands (back to the fight or the Scene)."""
    tools.gm_only(role, "end the chase")
    chase = _chase(state)
    return [("chase_ended", {"quarry": chase["quarry"]}, _end_changes(state))]


# -- what everyone sees ----------------------------------------------------------------------------


def _floats(odds: dict[str, Fraction]) -> dict[str, float]:
    return {k: float(odds[k]) for k in CHASE_RESULTS}


def _pair_view(state: dict, pursuer: dict, quarry: dict) -> dict:
    """The pair's gap after this round: the engine's outcomes, given the results rolled."""
    chase = state["chase"]
    pair = pair_round(state, pursuer, quarry)
    known_p = chase["results"].get(pursuer["id"])
    known_q = chase["results"].get(quarry["id"])
    kept = [
        o
        for o in pair.outcomes
        if (known_p is None or o.pursuer == known_p) and (known_q is None or o.quarry == known_q)
    ]
    total = sum((o.probability for o in kept), Fraction(0))
    if not total:
        return {"p_caught": 0.0, "gaps": []}
    dist: dict[Fraction, Fraction] = {}
    for o in kept:
        dist[o.gap_after] = dist.get(o.gap_after, Fraction(0)) + o.probability / total
    caught = sum((o.probability for o in kept if o.caught), Fraction(0)) / total
    return {
        "p_caught": float(caught),
        "gaps": [[float(g), float(pr)] for g, pr in sorted(dist.items()) if pr],
    }


def view(state: dict, visible, numbers=lambda cid: True) -> dict | None:
    """The chase as one viewer sees it (``visible(cid)``): gaps, who is due, the engine's odds.

    Hidden combatants stay hidden: a pursuer the viewer cannot see is left out; a hidden
    quarry leaves only the chase's round and the visible pursuers' names. A roller's odds show
    only where the viewer may see its numbers (``numbers(cid)``: not a foe's, unless shared).
    """
    chase = state.get("chase")
    if not chase or state["phase"] != "chase":
        return None
    q = state["combatants"][chase["quarry"]]
    seen_q = visible(q["id"])
    pursuers = [pid for pid in chase["pursuers"] if visible(pid)]
    now = due(state)
    out = {
        "round": chase["round"],
        "quarry": q["id"] if seen_q else None,
        "pursuers": pursuers,
        "skill": chase["skill"],
        "difficulty": chase["difficulty"],
        "sight_m": chase["sight_m"],
        "due": {k: [cid for cid in v if visible(cid)] for k, v in now.items()},
        "moves": {cid: dict(m) for cid, m in chase["moves"].items() if visible(cid)},
        "results": {cid: r for cid, r in chase["results"].items() if visible(cid)},
        "gaps": [],
        "odds": {},
    }
    if not seen_q:
        return out
    for pid in pursuers:
        metres = chase["gaps"][pid]
        row = {
            "pursuer": pid,
            "metres": metres,
            "band": movement.band_for(metres),
            "out_of_sight": pid in chase["searching"],
        }
        ready = all(cid in chase["moves"] for cid in (pid, q["id"]))
        if ready and not chase["searching"]:
            try:
                row.update(_pair_view(state, state["combatants"][pid], q))
            except ValueError:  # a roll its roller cannot make now: no odds to show
                pass
        out["gaps"].append(row)
    for cid in now["roll"] + now["declare"]:
        if visible(cid) and numbers(cid):
            try:
                out["odds"][cid] = _floats(result_odds(roller(state, state["combatants"][cid])))
            except ValueError:
                continue
    return out


def _names(r: Reader, ids) -> str:
    return ", ".join(r.name(i) for i in ids)


#: Log lines of the chase's events.
_WORDS = {
    "chase_started": lambda r, d: (
        f"A chase: {_names(r, d['pursuers'])} after {r.name(d['quarry'])}, {d['metres']} m apart "
        f"(Chase rolls {d['skill']} at Difficulty {d['difficulty']})."
    ),
    "chase_declared": lambda r, d: (
        f"{r.name(d['combatant'])} will {d['how']} ({d['metres']} m) this chase round."
    ),
    "chase_rolled": lambda r, d: (
        f"{r.name(d['combatant'])} rolls to chase: {', '.join(map(str, d['faces']))}, kept "
        f"{d['total']} vs TN {d['tn']}: {d['result']}."
    ),
    "chase_moved": lambda r, d: (
        f"{r.name(d['pursuer'])} is {d['gap_after']} m behind {r.name(d['quarry'])}"
        + (" and has lost sight." if d.get("out_of_sight") else ".")
    ),
    "chase_caught": lambda r, d: (
        f"{_names(r, d['pursuers'])} catch{'es' if len(d['pursuers']) == 1 else ''} "
        f"{r.name(d['quarry'])}: Melee."
    ),
    "chase_round_ended": lambda r, d: f"Chase round {d['round']} ends.",
    "chase_ruled": lambda r, d: (
        "The GM rules on the chase" + (": sight is broken." if d.get("broken") else ".")
    ),
    "chase_searched": lambda r, d: (
        f"{r.name(d['quarry'])} has lost {r.name(d['pursuer'])}."
        if d["lost"]
        else f"{r.name(d['pursuer'])} is back on {r.name(d['quarry'])}'s trail."
    ),
    "chase_escaped": lambda r, d: f"{r.name(d['quarry'])} has broken away.",
    "chase_ended": lambda r, d: "The GM ends the chase.",
}


def _words(*kinds: str) -> dict:
    return {k: _WORDS[k] for k in kinds}


COMMANDS = (
    Command("chase_start", start, START_FIELDS, words=_words("chase_started")),
    Command("chase_declare", declare, DECLARE_FIELDS, words=_words("chase_declared")),
    Command(
        "chase_roll",
        roll_command,
        ROLL_FIELDS,
        words=_words(
            "chase_rolled", "chase_moved", "chase_caught", "chase_round_ended", "chase_escaped"
        ),
    ),
    Command("chase_ruling", ruling, RULING_FIELDS, words=_words("chase_ruled")),
    Command("chase_search", search, SEARCH_FIELDS, words=_words("chase_searched")),
    Command("chase_end", end, words=_words("chase_ended")),
)
