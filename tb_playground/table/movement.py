"""Moving in metres: range bands, Leaving Melee, bad ground, footing, Sprints, creatures' media.

Rule: rules/000 "Moving in a Round", "Leaving Melee", "Bad Ground"; rules/001 "Terrain and
Footing"; the budget and rolls are ``engine/round_budget.py``. Readings:
docs/notes/0015-table-rules.md, "Actions of the round".
"""

from __future__ import annotations

from tb_playground.engine.core_roll import check_target
from tb_playground.engine.round_budget import (
    FOOTING_MOVES,
    footing_odds,
    ground_cost,
    sprint_difficulty,
)
from tb_playground.engine.validation import require_bool, require_choice, require_int

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Reader
from .state import combatant_path

MOVE_FIELDS = (
    "combatant",
    "metres",
    "how",
    "toward",
    "away_from",
    "ground",
    "athletics_faces",
    "footing",
    "footing_faces",
    "mode",
    "sprint_faces",
    "start",
)

#: Where a move toward or away from someone starts when the table knows no distance between
#: the two (issue 31: a sensible start, not a refusal): toward a foe from Near, away from one
#: out of Melee. The command's "start" names another band. Our reading: rules/001 "Two Ways to
#: Play" ("close enough is fine; nobody measures"); docs/notes/0015-table-rules.md.
START_BANDS = {"toward": "near", "away_from": "melee"}

#: The metres a band stands for when only the band is known (its far edge; rules/000 line 409).
BAND_START_METRES = {"melee": 1, "close": 10, "near": 50, "far": 51}

#: Media a combatant moves in, by the mode that moves in it (rules/001 line 101).
MODES = ("walk", "swim", "fly", "climb", "burrow")

#: Band edges in metres (rules/000 line 409; rules/004 "Getting Around").
BAND_EDGES = ((1, "melee"), (10, "close"), (50, "near"))

#: Difficulty of the Athletics rolls of bad ground and footing (rules/000 "Bad Ground").
ATHLETICS_DIFFICULTY = 6


def band_for(metres: int) -> str:
    """The range band a distance falls in (rules/000 line 409)."""
    for edge, name in BAND_EDGES:
        if metres <= edge:
            return name
    return "far"


def pair(a: str, b: str) -> str:
    """The key of a pair of combatants in ``ranges`` and ``distances``."""
    return "|".join(sorted((a, b)))


def distance_changes(a: str, b: str, metres: int) -> list:
    """Set the distance between two combatants and the band that follows from it."""
    key = pair(a, b)
    return [[["distances", key], metres], [["ranges", key], band_for(metres)]]


def distance_known(state: dict, a: str, b: str) -> bool:
    """Whether the table knows how far apart ``a`` and ``b`` are (metres or a band)."""
    key = pair(a, b)
    return state["distances"].get(key) is not None or bool(state["ranges"].get(key))


def set_distance(state, command, role, seat, roll) -> list:
    """GM: the metres between two combatants (rules/001 "Two Ways to Play": the GM keeps them)."""
    tools.gm_only(role, "set distances")
    a = tools.combatant(state, command, "a")
    b = tools.combatant(state, command, "b")
    if a["id"] == b["id"]:
        raise ValueError("b must be another combatant than a")
    metres = require_int("metres", command.get("metres"), 1, 100_000)
    data = {"a": a["id"], "b": b["id"], "metres": metres, "band": band_for(metres)}
    return [("distance_set", data, distance_changes(a["id"], b["id"], metres))]


def _rate_for_mode(state: dict, c: dict, mode: str) -> dict:
    """``c`` with the Movement Rate of the medium it moves in (rules/001 line 101)."""
    modes = c.get("movement_modes") or {"walk": c["movement_rate"]}
    if c["kind"] == "character":
        if mode == "swim":
            swim = c.get("skills", {}).get("Swimming", {"tier": 0})
            if swim["tier"] < 1:
                raise ValueError(
                    f"{c['name']} cannot swim untrained: the No-air clock starts in deep water "
                    '(rules/000 "Swimming"). Hold on to something that floats, or get out.'
                )
            return c  # a swimmer moves at their Movement Rate (rules/001 line 95)
        if mode != "walk":
            raise ValueError(f"mode: a character walks or swims here, got {mode!r}")
        return c
    if mode not in modes:
        listed = ", ".join(f"{k} {v} m" for k, v in modes.items()) or "none"
        raise ValueError(
            f"{c['name']}'s card lists no {mode} mode ({listed}): a creature moves at the rate of "
            f'the medium it is in, not its fastest (rules/000 "Creatures that move '
            f'differently"). The GM rules how it gets through.'
        )
    return {**c, "movement_rate": modes[mode]}


def _athletics(state, command, c, field, roll):
    """Athletics at Difficulty 6 (Earth by default), with the roller's conditions."""
    skill = tools.skill_of(c, "Athletics")
    score = c["elements"].get(skill["element"], 0)
    mods = tools.modifiers(state, c, "physical", skill["tier"])
    target = check_target(score, ATHLETICS_DIFFICULTY, skill["tier"])
    odds = tools.odds(state, target, mods.advantage, skill["tier"])
    reading, by = tools.read(state, command, field, target, mods.advantage, skill["tier"], roll)
    data = tools.roll_record(c, reading, by, odds)
    engine = footing_odds(
        score, skill["tier"], mods.advantage - tools.tier_of(state, skill["tier"]).advantage_sources
    )
    data["p_engine"] = engine.p_success
    return reading, data, tools.off_balance(state, c, reading)


def move(state, command, role, seat, roll) -> list:
    """Move ``metres`` on the turn (see the module docstring)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "move")
    tools.on_turn(state, c, "move")
    metres = require_int("metres", command.get("metres"), 1, 10_000)
    how = command.get("how")
    if how is not None:
        how = require_choice("how", how, fight_rules.MOVES)
    mode = require_choice("mode", command.get("mode", "walk"), MODES)
    moving = _rate_for_mode(state, c, mode)
    ground = require_choice("ground", command.get("ground", "clear"), ("clear", "rough", "wild"))
    footing = require_bool("footing", command.get("footing", False))
    changes: list = []
    data: dict = {"combatant": c["id"], "metres": metres, "mode": mode, "ground": ground}
    crawling = how == "crawl" or (how is None and "Belly Down" in c["conditions"])
    spent = metres
    creature_free = c["kind"] != "character"  # a listed mode: no extra cost, no roll
    if ground != "clear" and not creature_free:
        success = None
        rolled = c["carried"].get("ground_roll")
        if crawling:
            pass  # a Crawl pays Rough as Clear and Wild Land 3, with no roll (rules/001 line 51)
        elif rolled is not None:
            success = rolled  # once a turn (rules/000 line 447)
        else:
            reading, rdata, more = _athletics(state, command, c, "athletics_faces", roll)
            success = reading.success
            data["athletics"] = rdata
            changes += more + [[combatant_path(c["id"], "carried", "ground_roll"), success]]
        spent = ground_cost(metres, ground, success, crawling)
    elif "athletics_faces" in command:
        raise ValueError("athletics_faces: clear ground needs no Athletics roll")
    if crawling and ground == "clear":
        spent = ground_cost(metres, "clear", None, True)
    data["spent"] = spent
    how, actions, problem = fight_rules.move_plan(state, tools.start_of_round(moving), how, spent)
    if problem:
        raise ValueError(tools.plain_refusal(c, how, problem))
    data["how"] = how
    changes += [
        [combatant_path(c["id"], "metres"), c["metres"] + spent],
        [combatant_path(c["id"], "actions"), actions],
    ]
    events: list = []
    if footing and how in FOOTING_MOVES and c["kind"] == "character":
        reading, rdata, more = _athletics(state, command, c, "footing_faces", roll)
        data["footing"] = rdata
        changes += more
        if not reading.success:
            prone = fight_rules.condition("Prone", state["round"], "manual")
            changes.append([combatant_path(c["id"], "conditions", "Prone"), prone])
            data["prone"] = True
    elif "footing_faces" in command:
        raise ValueError("footing_faces: only a Dash or Sprint across bad footing rolls")
    if how == "sprint":
        changes += _sprint(state, command, c, data, roll)
    elif "sprint_faces" in command:
        raise ValueError("sprint_faces: only a Sprint rolls for exhaustion")
    changes += _distances(state, command, c, metres, data)
    events.append(("moved", data, changes))
    return events


def _sprint(state, command, c, data, roll) -> list:
    """A Sprint in a round: the run goes on from last round's, then its endurance roll."""
    if c["kind"] != "character":
        return []  # a card has no Stamina: the GM tracks a creature's wind
    run = c.get("sprint_run", 0) + 1 if c.get("sprint_round") == state["round"] - 1 else 1
    changes = [
        [combatant_path(c["id"], "sprint_run"), run],
        [combatant_path(c["id"], "sprint_round"), state["round"]],
    ]
    return changes + sprint_endurance(state, command, c, run, data, roll)


def sprint_endurance(state, command, c, run, data, roll, off_balance=tools.off_balance) -> list:
    """A character's Sprint endurance roll in round ``run`` of the run, in a round or a chase.

    Rule: rules/000 line 485, rules/001 "Chases" line 116 (``sprint_difficulty``): free for
    Stamina rounds, then Water + Difficulty from 6, one harder a round; a failure is a level of
    Exhausted. The roller's conditions may refuse the roll (``refuse_roll``); the dice are typed
    as ``sprint_faces`` or rolled. ``off_balance(state, c, reading)`` gives a kept 20's changes.
    The roll's record goes into ``data["endurance"]``; returns the changes.
    """
    data["sprint_round_of_run"] = run
    free = min(c["stamina"], 10)
    difficulty = sprint_difficulty(free, run)
    if difficulty is None:
        if "sprint_faces" in command:
            raise ValueError(f"sprint_faces: this Sprint is one of the {free} free rounds")
        return []
    water = c["elements"].get("Water", 0)
    mods = tools.modifiers(state, c, "physical")
    tools.refuse_roll(c, mods)
    target = check_target(water, difficulty, 1)
    odds = tools.odds(state, target, mods.advantage, 1)
    reading, by = tools.read(state, command, "sprint_faces", target, mods.advantage, 1, roll)
    rdata = tools.roll_record(c, reading, by, odds)
    rdata["difficulty"] = difficulty
    data["endurance"] = rdata
    changes = off_balance(state, c, reading)
    if not reading.success:
        rdata["exhausted_after"] = min(c["exhausted"] + 1, 5)
        changes.append([combatant_path(c["id"], "exhausted"), rdata["exhausted_after"]])
    return changes


def _distances(state, command, c, metres, data) -> list:
    """The distance to ``toward`` / ``away_from`` and those left in Melee (Leaving Melee)."""
    toward, away = command.get("toward"), command.get("away_from")
    if toward is not None and away is not None:
        raise ValueError("Give toward or away_from, not both: a move goes one way.")
    other = (
        tools.combatant(state, command, "toward" if toward is not None else "away_from")
        if (toward is not None or away is not None)
        else None
    )
    if other is None:
        return []
    if other["id"] == c["id"]:
        raise ValueError("A combatant cannot move toward or away from itself.")
    key = pair(c["id"], other["id"])
    before = state["distances"].get(key)
    if before is None:
        band = state["ranges"].get(key)
        before = BAND_START_METRES.get(band) if band else None
    start = command.get("start")
    if start is not None:
        start = require_choice("start", start, tuple(BAND_START_METRES))
    if before is None:  # nothing known: the start the mover names, else a sensible one
        way = "toward" if toward is not None else "away_from"
        band = start or START_BANDS[way]
        before = BAND_START_METRES[band]
        data["start_taken"] = band
    after = max(1, before - metres) if toward is not None else before + metres
    data.update(other=other["id"], distance_before=before, distance_after=after)
    data["band"] = band_for(after)
    changes = distance_changes(c["id"], other["id"], after)
    if toward is not None:
        return changes
    # Leaving Melee: everyone in Melee with the mover stood at its side (our reading).
    left = [
        x
        for x in fight_rules.active(state)
        if x["id"] != c["id"] and state["ranges"].get(pair(c["id"], x["id"])) == "melee"
    ]
    if band_for(after) == "melee":
        return changes
    followers = []
    for x in left:
        if x["id"] != other["id"]:
            changes += distance_changes(c["id"], x["id"], after)
        if (
            x["side"] != c["side"]
            and x["bracket"] == "normal"
            and not x["acted"]
            and fight_rules.can_act(x)
            and fight_rules.movement_rate(x) >= after - 1
        ):
            followers.append(x["id"])
        if x["conditions"].get("Grabbed", {}).get("by") == c["id"]:
            changes.append([combatant_path(x["id"], "conditions", "Grabbed"), None])  # hold let go
    data["left_melee"] = [x["id"] for x in left]
    data["may_follow"] = followers
    return changes


# -- the log's words ----------------------------------------------------------------------------


def _distance_set(r: Reader, d: dict) -> str:
    band = d.get("band")
    return f"{r.name(d['a'])} and {r.name(d['b'])} are {d['metres']} m apart" + (
        f" ({band.capitalize()} range)." if band else "."
    )


def _moved(r: Reader, d: dict) -> str:
    line = f"{r.name(d['combatant'])} moves {d['metres']} m."
    if d.get("start_taken") and d.get("other") and r.visible(d["other"]):  # issue 31
        line += (
            f" The table took {r.name(d['other'])} to be at {d['start_taken'].capitalize()} "
            f"range before the move: now {d['distance_after']} m ({d['band'].capitalize()})."
        )
    return line


COMMANDS = (
    Command("move", move, MOVE_FIELDS, words={"moved": _moved}),
    Command(
        "set_distance", set_distance, ("a", "b", "metres"), words={"distance_set": _distance_set}
    ),
)
