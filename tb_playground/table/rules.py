"""The rules of a live fight, as the table applies them to its state.

Every number comes from the engine (to-hit reading, vitals, Ki recovery); this module decides
*when* each rule applies in the round and writes the result down as state changes for an event.
Functions here read the state and return ``changes`` lists or ``(type, data, changes)`` events;
none of them changes the state.

Sources: RULES.md "Combat round", "Vitals" and "Where two texts disagree (decided)"; rules/000
"Combat Order", "Action Brackets", "Moving in a Round", "Harm and Recovery"; rules/001
"Actions"; rules/004 "Conditions", "Fate Tokens", "Resting".
"""

from __future__ import annotations

from tb_playground.engine import ki_recovery, take_attack
from tb_playground.engine.damage import roll_levels
from tb_playground.engine.roll_reading import RollReading

from .state import BRACKETS

#: Range bands (rules/000 "Map or No Map").
RANGE_BANDS = ("melee", "close", "near", "far")

#: Empowered actions a Slow bracket buys (rules/000 "Action Brackets"; rules/001 "Actions").
EMPOWERED = ("aim", "called shot", "study")

#: Actions other than an attack or a move (rules/001 "Combat Actions").
OTHER_ACTIONS = (
    "study a target",
    "skill",
    "help",
    "ready",
    "reload",
    "small action",
    "stand up",
    "recover from prone",
    "full defense",
)

#: How long a condition lasts.
UNTIL = ("round", "next_turn_end", "scene", "rest", "manual")

#: Conditions the GM sets by hand (the Vitals' own follow from the tracks).
SETTABLE_CONDITIONS = (
    "Off Balance",
    "Surprised",
    "Flustered",
    "Distracted",
    "Prone",
    "Belly Down",
    "Grabbed",
    "Squeezed",
    "Full Defense",
)

#: Each settable condition's usual duration (rules/004 "Conditions"; rules/000, 001).
DEFAULT_UNTIL = {
    "Off Balance": "next_turn_end",
    "Surprised": "round",
    "Flustered": "scene",
    "Distracted": "round",
    "Prone": "manual",
    "Belly Down": "manual",
    "Grabbed": "manual",
    "Squeezed": "manual",
    "Full Defense": "round",
}

#: What Ki can be spent on outside an attack (rules/000 "Recovering from Vitals Loss").
KI_PURPOSES = ("restore poise", "restore sanity")

#: Fate Token spends the table tracks (rules/004 "Fate Tokens"; rules/000 "Getting back up").
FATE_SPENDS = (
    "get back up",
    "refill ki",
    "shrug off",
    "clear off balance",
    "automatic success",
    "overcome a flaw",
)


def _p(cid: str, *keys: str) -> list:
    return ["combatants", cid, *keys]


def condition(name: str, since: int, until: str | None = None, own_turn: bool = False) -> dict:
    """A condition record: how long it lasts, the round it began, and whether on its owner's turn.

    ``own_turn`` matters for Off Balance: put on during its owner's turn, it lasts through the
    end of their *next* turn (rules/000 "Rolling the Dice").
    """
    return {
        "until": until or DEFAULT_UNTIL.get(name, "manual"),
        "since": since,
        "own_turn": own_turn,
    }


def ki_cost(n: int, exhausted: int) -> int:
    """Ki a spend of ``n`` points costs: Exhausted 4 adds 1 per spend (rules/004 "Conditions")."""
    return n + (1 if n > 0 and exhausted >= 4 else 0)


def can_act(c: dict) -> bool:
    """Whether a combatant can take a turn: up, conscious, not out cold (rules/000, 004)."""
    return not c["out"] and c["now"]["health"] > 0 and c["exhausted"] < 5


def active(state: dict) -> list[dict]:
    """Combatants still in the fight, in table order."""
    return [state["combatants"][i] for i in state["ids"] if not state["combatants"][i]["out"]]


def initiative_order(state: dict, faces: dict[str, int]) -> list[str]:
    """Highest 1d10 + Initiative first (rules/000 "Combat Order").

    Ties (the texts are silent): the higher Initiative sub-stat first, then characters before
    creatures, then the order the encounter lists them.
    """
    ids = state["ids"]
    cs = state["combatants"]

    def key(cid: str) -> tuple:
        c = cs[cid]
        total = faces[cid] + c["initiative_stat"]
        return (-total, -c["initiative_stat"], c["kind"] != "character", ids.index(cid))

    return sorted(ids, key=key)


def band_after_bumps(bracket: str, bumps: int) -> str:
    """The band a bracket resolves in after ``bumps`` Ki bumps (rules/000 "Action Brackets")."""
    return BRACKETS[BRACKETS.index(bracket) - bumps]


def declare_problem(c: dict, bracket: str, bumps: int) -> str:
    """Why ``c`` may not declare ``bracket`` with ``bumps``, or "" (rules/000, 004)."""
    if not can_act(c):
        return f"combatant: {c['name']} cannot act this round"
    if bumps > BRACKETS.index(bracket):
        steps = BRACKETS.index(bracket)
        return f"bumps: a {bracket.capitalize()} bracket can be bumped at most {steps} step(s)"
    if c["exhausted"] >= 3 and band_after_bumps(bracket, bumps) == "fast":
        return "bracket: Exhausted 3 or worse cannot act in the Fast band (rules/004)"
    return ""


def turn_order(state: dict, brackets: dict) -> tuple[list[str], dict[str, str], list[str]]:
    """The round's order: band by band, Initiative order inside a band (rules/000).

    Returns the order, each combatant's band, and who took Normal because they had not declared
    when the GM revealed (our reading: an undeclared combatant acts Normal, with no bumps).
    """
    bands, defaulted = {}, []
    for cid in state["initiative_order"]:
        c = state["combatants"][cid]
        if not can_act(c):
            continue
        if cid not in brackets:
            defaulted.append(cid)
        bracket, bumps = brackets.get(cid, ("normal", 0))
        bands[cid] = band_after_bumps(bracket, bumps)
    rank = {cid: i for i, cid in enumerate(state["initiative_order"])}
    order = sorted(bands, key=lambda cid: (BRACKETS.index(bands[cid]), rank[cid]))
    return order, bands, defaulted


def _expire(c: dict, round_no: int, moment: str) -> list:
    changes = []
    for name, info in c["conditions"].items():
        if moment == "turn_end" and info["until"] == "next_turn_end":
            if not (info["own_turn"] and info["since"] == round_no):
                changes.append([_p(c["id"], "conditions", name), None])
        elif moment == "round_end" and info["until"] == "round":
            changes.append([_p(c["id"], "conditions", name), None])
    return changes


def end_round_events(state: dict) -> list:
    """End of round: brackets, actions and round conditions clear; Study carries over."""
    changes: list = []
    for c in state["combatants"].values():
        cid = c["id"]
        studying = c["carried"].get("studying")
        changes += [
            [_p(cid, "bracket"), None],
            [_p(cid, "bumps"), 0],
            [_p(cid, "band"), None],
            [_p(cid, "actions"), []],
            [_p(cid, "metres"), 0],
            [_p(cid, "acted"), False],
            [_p(cid, "carried"), {"studied": studying} if studying else {}],
        ]
        changes += _expire(c, state["round"], "round_end")
    changes += [
        [["round"], state["round"] + 1],
        [["phase"], "declare"],
        [["up"], None],
        [["order"], []],
    ]
    return [("round_ended", {"round": state["round"]}, changes)]


def end_turn_events(state: dict, cid: str) -> list:
    """End of a turn: Off Balance that has run its course clears; the next one is up."""
    c = state["combatants"][cid]
    changes = [[_p(cid, "acted"), True]] + _expire(c, state["round"], "turn_end")
    order = state["order"]
    after = order[order.index(cid) + 1 :]
    nxt = next((x for x in after if can_act(state["combatants"][x])), None)
    changes.append([["up"], nxt])
    events = [("turn_ended", {"combatant": cid, "next": nxt}, changes)]
    if nxt is None:
        events += end_round_events(state)
    return events


# -- the round's budget ------------------------------------------------------------------------


def _actions_allowed(c: dict) -> int:
    return {"fast": 1, "normal": 2, "slow": 1}[c["bracket"] or "normal"]


def movement_rate(c: dict) -> int:
    """Movement Rate: 5 + Air metres; Exhausted 3 halves it; Grabbed 0 (rules/001)."""
    if "Grabbed" in c["conditions"]:
        return 0
    base = 5 + c["elements"]["Air"] if c["kind"] == "character" else c["movement_rate"]
    return base // 2 if c["exhausted"] >= 3 else base


def action_problem(state: dict, c: dict, action: str, empowered: str | None = None) -> str:
    """Why ``c`` may not take ``action`` now under its bracket's budget, or "" (rules/000)."""
    used = [a for a in c["actions"] if a != "step"]
    if "sprint" in used:
        return "action: a Sprint is the only thing you do that round"
    if len(used) >= _actions_allowed(c):
        bracket = (c["bracket"] or "normal").capitalize()
        return f"action: a {bracket} round has no action left for {c['name']}"
    if empowered is not None and c["bracket"] != "slow":
        return f"empowered: {empowered} is a Slow action; {c['name']} declared {c['bracket']}"
    if empowered is not None and c["carried"].get("lost_empowerment"):
        return "empowered: Distracted: the action dropped to a Normal one and lost its empowerment"
    if action == "attack" and "Full Defense" in c["conditions"]:
        return "action: under Full Defense you can't attack (rules/001)"
    return ""


def move_problem(c: dict, metres: int) -> str:
    """Why ``c`` may not move ``metres`` now, or "" (rules/000 "Moving in a Round")."""
    rate = movement_rate(c)
    if rate == 0:
        return "metres: Grabbed: no moving until you escape the hold (rules/001)"
    used = [a for a in c["actions"] if a != "step"]
    moved = c["metres"] + metres
    bracket = c["bracket"] or "normal"
    if bracket == "slow":
        if used:
            return "metres: a Slow round's action is taken; only its 1 m step is left"
        if moved > 5 * rate:
            return f"metres: a Sprint reaches at most {5 * rate} m (5 x Movement Rate)"
        return ""
    if bracket == "fast":
        if used or moved > rate:
            return f"metres: a Fast round is one action: one move of at most {rate} m"
        return ""
    others = [a for a in used if a != "move"]
    limit = rate if others else 2 * rate
    if moved > limit or len(used) >= 2 and "move" not in used:
        return f"metres: a Normal round allows {limit} m now (a Dash is 2 x {rate} m, nothing else)"
    return ""


def spend_action(c: dict, action: str, empowered: str | None, metres: int = 0) -> list:
    """The change that records an action taken this round."""
    if action == "move":
        bracket = c["bracket"] or "normal"
        used = [a for a in c["actions"] if a != "step"]
        if bracket == "slow":
            label = "step" if c["metres"] + metres <= 1 and not used else "sprint"
        elif bracket == "normal" and "move" in used:
            return []  # a split move or a Dash: the second half of the same movement
        else:
            label = "move"
        return [[_p(c["id"], "actions"), [*c["actions"], label]]]
    return [[_p(c["id"], "actions"), [*c["actions"], empowered or action]]]


def action_effects(c: dict, action: str) -> list:
    """Conditions an action starts or ends (rules/001 "Getting Low", "Combat Actions")."""
    cid = c["id"]
    if action == "stand up":
        return [[_p(cid, "conditions", "Belly Down"), None]]
    if action == "recover from prone":
        return [[_p(cid, "conditions", "Prone"), None]]
    if action == "full defense":
        return [[_p(cid, "conditions", "Full Defense"), condition("Full Defense", 0, "round")]]
    return []


# -- attacks -----------------------------------------------------------------------------------

#: Conditions on the roller that put every roll at Disadvantage (RULES.md, decided).
_ALL_ROLLS = ("Off Balance", "Surprised", "Overwhelmed")


def attack_modifiers(state, a, t, kind, empowered, cover) -> dict:
    """Advantage sources, Defense change and whether the attack is allowed at all."""
    sources: list[list] = []
    if "Prone" in a["conditions"]:
        return {"allowed": False, "reason": "attacker: Prone, you can't attack (rules/001)"}
    if "Squeezed" in a["conditions"]:
        return {"allowed": False, "reason": "attacker: squeezed in a tight space, you can't attack"}
    if cover == "full":
        return {"allowed": False, "reason": "cover: behind full cover the target can't be reached"}
    for name in _ALL_ROLLS:
        if name in a["conditions"] or (name == "Overwhelmed" and a["now"]["sanity"] == 0):
            sources.append([name, -1])
    if a["exhausted"] >= 2 or (a["exhausted"] == 1 and kind == "physical"):
        sources.append([f"Exhausted {a['exhausted']}", -1])
    if kind == "social" and "Flustered" in a["conditions"]:
        sources.append(["Flustered", -1])
    if "Prone" in t["conditions"]:
        sources.append(["Target is Prone", +1])
    if "Full Defense" in t["conditions"]:
        sources.append(["Target is on Full Defense", -1])
    if cover == "partial":
        sources.append(["Partial cover", -1])
    if empowered == "aim":
        sources.append(["Aim", +1])
    if empowered == "called shot":
        if a["carried"].get("studied") == t["id"]:
            sources.append(["Studied the target last round", +1])
        if state["ruleset"].get("slow_called_shot_advantage"):
            sources.append(["Called Shot (rules/002)", +1])
    change = -4 if "Full Defense" in t["conditions"] else 0
    return {
        "allowed": True,
        "reason": "",
        "advantage": sum(s for _, s in sources),
        "sources": sources,
        "defense_change": change,
    }


def to_hit_events(state: dict, p: dict, reading: RollReading, by: str) -> list:
    """The to-hit roll: a hit goes on to damage; a catastrophe leaves the attacker Off Balance."""
    data = {
        "attacker": p["attacker"],
        "target": p["target"],
        "faces": list(reading.faces),
        "total": reading.total,
        "tn": reading.target,
        "outcome": reading.outcome,
        "rolled_by": by,
    }
    if reading.success:
        pending = {**p, "step": "damage", "critical": reading.outcome == "critical"}
        return [("to_hit_rolled", data, [[["pending"], pending]])]
    changes = [[["pending"], None]]
    if reading.outcome == "catastrophe":
        info = condition("Off Balance", state["round"], "next_turn_end", own_turn=True)
        changes.append([_p(p["attacker"], "conditions", "Off Balance"), info])
    return [("to_hit_rolled", data, changes)]


def damage_events(state: dict, p: dict, faces: list[int], automatic: int, by: str) -> list:
    """The damage dice: levels before boosts, then boosts, prevention or the result."""
    a = state["combatants"][p["attacker"]]
    klotho = p["klotho"] if p["critical"] else 0
    data = {
        "attacker": p["attacker"],
        "target": p["target"],
        "faces": faces,
        "automatic": automatic,
        "critical": p["critical"],
        "rolled_by": by,
    }
    extra: list = []
    if p["timing"] == "before":
        levels, used = roll_levels(
            faces, p["wall"], p["boosts_before"], p["bonus"], "before", klotho, automatic
        )
        cost = ki_cost(used, a["exhausted"])
        extra = [[_p(a["id"], "ki"), a["ki"] - cost]] if cost else []
        data["boosted"] = used
    else:
        levels, _ = roll_levels(faces, p["wall"], 0, 0, "after", klotho, automatic)
    data["levels"] = levels
    after = {**p, "faces": faces, "automatic_levels": automatic, "klotho_added": klotho}
    liftable = [f for f in faces if f + klotho <= p["wall"] < f + klotho + p["bonus"]]
    if p["timing"] == "after" and liftable and a["ki"] >= ki_cost(1, a["exhausted"]):
        after["step"] = "boost"
        after["levels"] = levels
        return [("damage_rolled", data, [[["pending"], after]])]
    return [("damage_rolled", data, extra)] + after_damage_events(state, after, levels, extra)


def may_prevent(state: dict, vital: str) -> bool:
    """Whether Ki may prevent a level of ``vital`` (RULES.md, Vitals; variant 002: not Poise)."""
    return not (vital == "poise" and state["ruleset"].get("vitals_002"))


def _would_take(state: dict, p: dict, levels: int) -> int:
    t = state["combatants"][p["target"]]
    vital = p["vital"]
    v002 = bool(state["ruleset"].get("vitals_002"))
    return take_attack(t["now"][vital], levels, t["max"][vital], vital, 0, "none", v002).taken


def after_damage_events(state: dict, p: dict, levels: int, extra_changes: list) -> list:
    """After the dice are read: the target may prevent with Ki, else the hit lands now."""
    t = state["combatants"][p["target"]]
    take = _would_take(state, p, levels)
    if take > 0 and t["ki"] >= ki_cost(1, t["exhausted"]) and may_prevent(state, p["vital"]):
        waiting = {**p, "step": "prevent", "levels": levels, "would_take": take}
        return [
            ("awaiting_prevention", {"target": t["id"], "levels": take}, [[["pending"], waiting]])
        ]
    return resolve_events(state, {**p, "levels": levels}, levels, 0)


def resolve_events(state: dict, p: dict, levels: int, ki: int) -> list:
    """Apply the hit through the engine's vitals rule (RULES.md, Vitals); the attack is over."""
    t = state["combatants"][p["target"]]
    vital = p["vital"]
    v002 = bool(state["ruleset"].get("vitals_002"))
    before = t["now"][vital]
    hit = take_attack(before, levels, t["max"][vital], vital, ki, "all", v002)
    cid = t["id"]
    changes = [[["pending"], None], [_p(cid, "now", vital), hit.current]]
    if hit.prevented:
        changes.append([_p(cid, "ki"), t["ki"] - ki_cost(hit.prevented, t["exhausted"])])
    data = {
        "attacker": p["attacker"],
        "target": cid,
        "vital": vital,
        "levels": levels,
        "taken": hit.taken,
        "prevented": hit.prevented,
        "before": before,
        "after": hit.current,
    }
    sanity = t["now"]["sanity"]
    if hit.sanity_loss:
        after = take_attack(sanity, 1, t["max"]["sanity"], "sanity", 0, "none", v002)
        changes.append([_p(cid, "now", "sanity"), after.current])
        data["sanity_lost"] = after.taken
    changes += track_consequences(state, t, vital, hit.current)
    if vital == "health" and hit.taken and t["band"] == "slow" and not t["acted"]:
        data["distracted_roll_due"] = True
    return [("attack_resolved", data, changes)]


def track_consequences(state: dict, c: dict, field: str, value: int) -> list:
    """What a track's new value sets off: Flustered for the Scene, an unnamed foe out at 0."""
    changes = []
    if field == "poise" and value <= 0 and "Flustered" not in c["conditions"]:
        changes.append(
            [
                _p(c["id"], "conditions", "Flustered"),
                condition("Flustered", state["round"], "scene"),
            ]
        )
    if field == "health" and not c["named"]:
        changes.append([_p(c["id"], "out"), value <= 0])
    return changes


# -- Ki, Fate, overrides -----------------------------------------------------------------------


def ki_spend(state: dict, c: dict, purpose: str) -> tuple[list, str]:
    """Ki back to 1 (or full, 002) for Poise or Sanity at or below 0 (rules/000 "Ki")."""
    vital = purpose.split()[-1]
    v002 = bool(state["ruleset"].get("vitals_002"))
    after, spent = ki_recovery(vital, c["now"][vital], c["max"][vital], v002)
    if not spent:
        raise ValueError(f"purpose: Ki restores {vital.capitalize()} only at or below 0")
    cost = ki_cost(spent, c["exhausted"])
    if cost > c["ki"]:
        raise ValueError(f"purpose: it costs {cost} Ki; {c['name']} has {c['ki']}")
    changes = [[_p(c["id"], "now", vital), after], [_p(c["id"], "ki"), c["ki"] - cost]]
    return changes, f"{vital.capitalize()} {c['now'][vital]} -> {after}"


def fate_spend(state: dict, c: dict, kind: str, condition_name: str | None) -> tuple[list, str]:
    """One Fate Token's spend (rules/004 "Fate Tokens"; rules/000 "Getting back up")."""
    if c["fate"] < 1:
        raise ValueError(f"spend: {c['name']} has no Fate Token")
    cid = c["id"]
    changes = [[_p(cid, "fate"), c["fate"] - 1]]
    if kind == "get back up":
        if c["now"]["health"] > 0 or c["now"]["health"] <= c["dead_at"]:
            raise ValueError("spend: Get Back Up is for a character at 0 Health or Dying")
        changes.append([_p(cid, "now", "health"), 1])
        return changes, "up at 1 Health"
    if kind == "refill ki":
        changes.append([_p(cid, "ki"), c["ki_pool"]])
        return changes, f"Ki {c['ki']} -> {c['ki_pool']}"
    if kind in ("shrug off", "clear off balance"):
        name = "Off Balance" if kind == "clear off balance" else condition_name
        if name not in c["conditions"]:
            raise ValueError(f"condition must be one {c['name']} has, got {name!r}")
        changes.append([_p(cid, "conditions", name), None])
        return changes, f"{name} cleared"
    return changes, kind


def _track_bounds(vital: str):
    return lambda c: (-c["max"][vital], c["max"][vital])


#: Values the GM may override, with their bounds.
SETTABLE = {
    "health": _track_bounds("health"),
    "poise": _track_bounds("poise"),
    "sanity": _track_bounds("sanity"),
    "ki": lambda c: (0, c["ki_pool"] + 100),
    "fate": lambda c: (0, max(c["fate_cap"], 0)),
    "exhausted": lambda c: (0, 5),
}

#: Where each settable value lives in a combatant's record.
SETTABLE_PATH = {
    "health": ("now", "health"),
    "poise": ("now", "poise"),
    "sanity": ("now", "sanity"),
}


# -- rests and the Scene -----------------------------------------------------------------------


def _half_up(n: int) -> int:
    return max(1, -(-n // 2))


def rest_events(state: dict, kind: str) -> list:
    """Short Rest, Full Night or end of Scene for everyone at the table (rules/000, 004)."""
    changes: list = []
    for c in state["combatants"].values():
        cid = c["id"]
        if kind == "end_scene":
            for name, info in c["conditions"].items():
                if info["until"] in ("scene", "round", "next_turn_end"):
                    changes.append([_p(cid, "conditions", name), None])
            changes.append([_p(cid, "fate_counted"), 0])
            continue
        for vital in ("health", "poise", "sanity"):
            now, top = c["now"][vital], c["max"][vital]
            if now <= 0:
                if vital == "health":
                    new = now + 1 if kind == "full_night" and now < 0 else now
                else:
                    new = 1
            elif kind == "full_night":
                new = top
            else:
                new = min(top, now + _half_up(c["rest_stats"][vital]))
            changes.append([_p(cid, "now", vital), new])
        ki = (
            c["ki_pool"]
            if kind == "full_night"
            else min(c["ki_pool"], c["ki"] + max(c["klotho"], 1))
        )
        changes.append([_p(cid, "ki"), ki])
        changes.append(
            [_p(cid, "exhausted"), 0 if kind == "full_night" else max(c["exhausted"] - 1, 0)]
        )
        for name, info in c["conditions"].items():
            if info["until"] == "rest":
                changes.append([_p(cid, "conditions", name), None])
    return [(kind.replace("_", " "), {"kind": kind}, changes)]


def distracted_events(state, c, reading: RollReading, difficulty: int, by: str) -> list:
    """Atropos + Difficulty to hold a Slow action together (rules/004 "Distracted")."""
    data = {
        "combatant": c["id"],
        "faces": list(reading.faces),
        "total": reading.total,
        "tn": reading.target,
        "outcome": reading.outcome,
        "rolled_by": by,
        "held": reading.success,
    }
    changes = []
    if not reading.success and c["bracket"] == "slow":
        changes.append([_p(c["id"], "carried", "lost_empowerment"), True])
    return [("distracted_rolled", data, changes)]
