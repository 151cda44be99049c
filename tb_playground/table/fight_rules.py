"""The rules of a live fight: *when* each rule applies in the round, as state changes.

Every number comes from the engine; functions here read the state and return ``changes`` or
events, never changing it. Rule: RULES.md, Combat round, Vitals, "Where two texts disagree
(decided)". Readings: docs/notes/0008-table.md, docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine import (
    ACTIONS,
    FATE_SPENDS,
    bump_cost,
    check_next_action,
    full_night,
    ki_recovery,
    ki_spend_cost,
    roll_modifiers,
    short_rest,
    sunrise_fate,
    take_attack,
    validate_turn,
)
from tb_playground.engine import (
    fate_spend as engine_fate_spend,
)
from tb_playground.engine.character_stats import rate_after_conditions, vital_conditions
from tb_playground.engine.conditions import MAX_EXHAUSTED
from tb_playground.engine.damage import roll_levels
from tb_playground.engine.roll_reading import RollReading
from tb_playground.engine.vitals import critical_room, track_range

from .armor_at_table import armor_hit_events
from .boost_offer import boost_offered
from .state import BRACKETS, DEFAULT_UNTIL, combatant_path

#: Range bands (rules/000 "Map or No Map").
RANGE_BANDS = ("melee", "close", "near", "far")

#: The attack an empowered choice makes (rules/000 "Action Brackets"; engine ``ACTIONS``).
EMPOWERED = {"aim": "aim", "called shot": "called shot"}

#: Actions other than an attack or a move, by their engine key (rules/001 "Combat Actions").
OTHER_ACTIONS = tuple(key for key, rule in ACTIONS.items() if not rule.attack and not rule.moves)

#: Ways to move (engine ``ACTIONS``): a move, a Dash, a Sprint, a Slow round's step, a Crawl.
MOVES = tuple(key for key, rule in ACTIONS.items() if rule.moves)

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
)

#: What Ki can be spent on outside an attack (rules/000 "Recovering from Vitals Loss").
KI_PURPOSES = ("restore poise", "restore sanity")

#: Fate Token spends (engine ``FATE_SPENDS``: rules/004 "Fate Tokens"; rules/000).
FATE_SPEND_KINDS = tuple(FATE_SPENDS)


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
    """Ki a spend of ``n`` points costs: Exhausted 4 adds 1 per spend (engine ``ki_spend_cost``)."""
    return ki_spend_cost(n, exhausted)


def states(c: dict) -> list[str]:
    """Every condition on ``c`` now: those set on it and those its tracks impose (rules/004).

    The table's Distracted record (asked, held or failed) is not the engine's "Distracted"
    (a failed roll to hold focus): ``distracted_states`` adds that one to the roll it reaches.
    A track's condition shrugged off with a Fate Token is gone for the rest of the round
    (rules/004 "Clear a condition for a moment"; docs/notes/0015-table-rules.md).
    """
    now = c["now"]
    dead = now["health"] <= c["dead_at"]
    found = [name for name in c["conditions"] if name != "Distracted"]
    shrugged = c["carried"].get("shrugged", ())
    for name in vital_conditions(now["health"], now["poise"], now["sanity"], dead):
        if name not in found and name not in shrugged:
            found.append(name)
    return found


def distracted(c: dict) -> dict | None:
    """``c``'s Distracted record with its state: "asked", "held" or "failed" (or None).

    A record from before the three states were kept reads as asked until rolled, then held.
    """
    info = c["conditions"].get("Distracted")
    if info is None:
        return None
    state = info.get("state") or ("held" if info.get("rolled") else "asked")
    return {**info, "state": state}


def distracted_states(c: dict, key: str | None) -> list[str]:
    """["Distracted"] when a failed roll to hold focus reaches the roll of action ``key``.

    RULES.md "Where two texts disagree (decided)": asked or held, nothing. Failed during a
    Slow action: its empowered action drops to a Normal one (the engine drops Aim's or the
    Called Shot's sources; no Disadvantage), a plain action is untouched. Failed outside a
    Slow action: Disadvantage on the next roll only (``distracted_spent``).
    """
    info = distracted(c)
    if info is None or info["state"] != "failed":
        return []
    if info.get("slow"):
        return ["Distracted"] if key is not None and ACTIONS[key].empowered else []
    return [] if info.get("spent") else ["Distracted"]


def distracted_spent(c: dict) -> list:
    """The change that marks a failed (outside a Slow action) Distracted as used up."""
    info = distracted(c)
    if info is None or info["state"] != "failed" or info.get("slow") or info.get("spent"):
        return []
    return [[combatant_path(c["id"], "conditions", "Distracted", "spent"), True]]


def led(c: dict) -> bool:
    """Whether someone leads ``c`` this round (the ``lead`` command).

    rules/000 "Sanity": "somebody else has to lead you or drag you".
    """
    return bool(c["carried"].get("led_by"))


def shattered_alone(c: dict) -> bool:
    """Shattered and not led: can't act on their own (rules/000 "Sanity", 004)."""
    return "Shattered" in states(c) and not led(c)


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


def base_rate(c: dict) -> int:
    """Movement Rate before conditions: 5 + Air metres, or the card's fastest mode (rules/001)."""
    return 5 + c["elements"]["Air"] if c["kind"] == "character" else c["movement_rate"]


def declare_problem(c: dict, bracket: str, bumps: int) -> str:
    """Why ``c`` may not declare ``bracket`` with ``bumps``, or "" (engine ``validate_turn``)."""
    if not can_act(c):
        return f"combatant: {c['name']} cannot act this round"
    check = validate_turn(
        bracket,
        [],
        movement_rate=min(base_rate(c), 1000),
        bumps=bumps,
        exhausted=c["exhausted"],
        conditions=states(c),
    )
    return "" if check.ok else "bracket: " + " ".join(check.problems)


def declare_cost(c: dict, bumps: int) -> int:
    """Ki the bumps cost (engine ``bump_cost``: 1 a step, one spend)."""
    return bump_cost(bumps, c["exhausted"])


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
                changes.append([combatant_path(c["id"], "conditions", name), None])
        elif moment == "round_end" and info["until"] == "round":
            changes.append([combatant_path(c["id"], "conditions", name), None])
    return changes


def round_cleared(cid: str, carried: dict) -> list:
    """A combatant's round cleared: no bracket, bumps, band, actions, metres; ``carried`` kept."""
    return [
        [combatant_path(cid, "bracket"), None],
        [combatant_path(cid, "bumps"), 0],
        [combatant_path(cid, "band"), None],
        [combatant_path(cid, "actions"), []],
        [combatant_path(cid, "metres"), 0],
        [combatant_path(cid, "acted"), False],
        [combatant_path(cid, "carried"), carried],
    ]


def end_round_events(state: dict) -> list:
    """End of round: brackets, actions and round conditions clear; Study carries over."""
    changes: list = []
    for c in state["combatants"].values():
        cid = c["id"]
        studying = c["carried"].get("studying")
        changes += round_cleared(cid, {"studied": studying} if studying else {})
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
    changes = [[combatant_path(cid, "acted"), True]] + _expire(c, state["round"], "turn_end")
    order = state["order"]
    after = order[order.index(cid) + 1 :]
    nxt = next((x for x in after if can_act(state["combatants"][x])), None)
    changes.append([["up"], nxt])
    events = [("turn_ended", {"combatant": cid, "next": nxt}, changes)]
    if nxt is None:
        events += end_round_events(state)
    return events


# -- the round's budget ------------------------------------------------------------------------


def movement_rate(c: dict) -> int:
    """Movement Rate now (engine ``rate_after_conditions``: Exhausted 3 halves, Grabbed 0)."""
    return rate_after_conditions(
        min(base_rate(c), 1000), c["exhausted"], "Grabbed" in c["conditions"]
    )


#: What each action did to the conditions the round's plan is replayed from.
_UNDO = {"belly down": ("Belly Down", False), "stand up": ("Belly Down", True),
         "recover from prone": ("Prone", True), "escape": ("Grabbed", True)}  # fmt: skip


def start_of_round(c: dict) -> dict:
    """``c`` with the conditions it had before this round's actions.

    The engine replays the round's plan from them, so a Belly Down taken this round is not
    "already on the ground" when the next action is checked, and an Escape taken this round
    still had a hold to escape. The same whatever the actions: applied twice it changes nothing.
    """
    conditions = dict(c["conditions"])
    for action in reversed(c["actions"]):
        if action in _UNDO:
            name, had = _UNDO[action]
            if had:
                conditions[name] = {"until": "manual", "since": 0, "own_turn": False}
            else:
                conditions.pop(name, None)
    return {**c, "conditions": conditions}


def next_action_problem(state: dict, c: dict, key: str, metres: int = 0) -> str:
    """Why ``c`` may not take the action ``key`` now, or "" (engine ``check_next_action``).

    The round's actions so far are replayed from the conditions of the round's start
    (``start_of_round``): every command that spends an action asks here, so an attack after an
    Escape, a Stand up or a Belly Down is checked as the texts read it.
    """
    c = start_of_round(c)
    if shattered_alone(c):
        return (
            f"action: {c['name']} is Shattered: below 0 Sanity you can't act on your own; "
            "someone has to lead you (rules/000 'Sanity')"
        )
    info = distracted(c)
    if info and info["state"] == "asked" and in_slow_action(c) and key not in MOVES:
        return (
            f"action: {c['name']} is asked to roll to hold focus (Distracted) before the Slow "
            "action; roll it first (rules/002 'What Is Distracted?')"
        )
    if info and info["state"] == "failed" and info.get("slow") and key == "study":
        return (
            "action: Distracted: the Slow action dropped to a Normal one and Study a Target "
            "has nothing left to give; take a plain action instead (rules/001 line ~131)"
        )
    problem = check_next_action(
        c["bracket"] or "normal",
        c["actions"],
        key,
        movement_rate=min(base_rate(c), 1000),
        metres=c["metres"] + metres,
        bumps=c["bumps"],
        exhausted=c["exhausted"],
        conditions=states(c),
    )
    return f"action: {problem}" if problem else ""


def move_plan(state: dict, c: dict, how: str | None, metres: int) -> tuple[str, list, str]:
    """Which move ``metres`` is, the round's actions after it, and any problem (rules/000).

    Unsaid ``how`` is read from the bracket: a Slow round's 1 m is its step, more is a Sprint;
    a Normal round's second move with no other action becomes a Dash (2 x Movement Rate).
    """
    bracket = c["bracket"] or "normal"
    if how is None:
        how = (
            ("step" if metres <= 1 and "step" not in c["actions"] else "sprint")
            if (bracket == "slow")
            else "move"
        )
    problem = next_action_problem(state, c, how, metres)
    if problem and how == "move" and c["actions"] == ["move"]:
        if not next_action_problem(state, {**c, "actions": []}, "dash", metres):
            return "dash", ["dash"], ""
    return how, [*c["actions"], how], problem


def spend_action(c: dict, key: str) -> list:
    """The change that records the action ``key`` taken this round."""
    return [[combatant_path(c["id"], "actions"), [*c["actions"], key]]]


def action_effects(c: dict, key: str) -> list:
    """Conditions an action starts or ends (rules/001 "Getting Low", "Combat Actions")."""
    cid = c["id"]
    if key == "stand up":
        return [[combatant_path(cid, "conditions", "Belly Down"), None]]
    if key == "recover from prone":
        return [[combatant_path(cid, "conditions", "Prone"), None]]
    if key == "belly down":
        return [
            [combatant_path(cid, "conditions", "Belly Down"), condition("Belly Down", 0, "manual")]
        ]
    if key == "escape":
        return [[combatant_path(cid, "conditions", "Grabbed"), None]]
    return []


# -- attacks -----------------------------------------------------------------------------------


def roll_check(c: dict, kind: str, extra: list[str] = (), **more):
    """The engine's ``roll_modifiers`` for a plain roll of ``kind`` by ``c``.

    With its own conditions (plus ``extra``, a failed Distracted), Exhausted, and whether it
    is led; ``more`` passes a roll's options on (``attack_options.roll_options``).
    """
    return roll_modifiers(
        kind,
        conditions=states(c) + list(extra),
        exhausted=c["exhausted"],
        alone=not led(c),
        **more,
    )


def roll_advantage(c: dict, kind: str, extra: list[str] = (), **more) -> int:
    """Net Advantage sources of a plain roll of ``kind`` by ``c`` (engine ``roll_modifiers``)."""
    return roll_check(c, kind, extra, **more).advantage


def _refusal(reason: str) -> str:
    """A refused attack's reason, under the command field it concerns."""
    field = "target" if "target" in reason.lower() or "cover" in reason.lower() else "attacker"
    return f"{field}: {reason}"


def attack_modifiers(
    state, a, t, kind, key, cover, reach, weapon_range, leads: bool = False, **more
) -> dict:
    """Advantage sources, Defense change and whether the attack is allowed (engine).

    One call of ``roll_modifiers`` with the attacker's and the target's conditions (those set
    and those their tracks impose, a failed Distracted where it reaches), Exhausted, cover,
    reach, range, Aim / Called Shot / Study, Reckless and Full Defense taken this round, the
    002 Called Shot switch, whether the attack takes the lead (Humiliated can't) and whether
    a Shattered attacker is led; ``more`` passes ``off_hand``, ``helpers``,
    ``other_advantage`` and ``other_disadvantage`` (the GM's situational sources) on
    (``attack_options.attack_pending``).
    """
    mods = roll_modifiers(
        "attack",
        attack_kind=kind,
        reach=reach,
        conditions=states(a) + distracted_states(a, key),
        alone=not led(a),
        leads=leads,
        exhausted=a["exhausted"],
        target_conditions=states(t),
        target_exhausted=t["exhausted"],
        cover=cover,
        weapon_range=weapon_range,
        aim=key == "aim",
        called_shot=key == "called shot",
        studied=a["carried"].get("studied") == t["id"],
        reckless="reckless" in a["actions"],
        full_defense="full defense" in a["actions"],
        target_reckless="reckless" in t["actions"],
        target_full_defense="full defense" in t["actions"],
        slow_called_shot_advantage=bool(state["ruleset"].get("slow_called_shot_advantage")),
        **more,
    )
    return {
        "allowed": mods.allowed,
        "reason": _refusal(mods.reason) if not mods.allowed else "",
        "advantage": mods.advantage,
        "sources": [[s.label, s.sign] for s in mods.sources],
        "defense_change": mods.defense_change,
        "notes": list(mods.notes),
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
        changes.append([combatant_path(p["attacker"], "conditions", "Off Balance"), info])
        changes += caught_in_catastrophe(state, p.get("helpers", []))
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
        extra = [[combatant_path(a["id"], "ki"), a["ki"] - cost]] if cost else []
        data["boosted"] = used
    else:
        levels, _ = roll_levels(faces, p["wall"], 0, 0, "after", klotho, automatic)
    data["levels"] = levels
    if p.get("armor"):
        data["armor"] = p["armor"]["zone"]  # dice over the armor's Hardness, not levels
    after = {**p, "faces": faces, "automatic_levels": automatic, "klotho_added": klotho}
    if boost_offered(state, after, faces, levels):  # only where it can change the result
        after["step"] = "boost"
        after["levels"] = levels
        after["opened"] = state["version"] + 1  # this step's event: a new step, new picks
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


def critical_capped(state: dict, p: dict, levels: int) -> int:
    """The levels a hit may take: a critical never takes Health below 0 (``critical_room``).

    RULES.md, Attacks: "A critical hit alone can't kill: it takes a character to 0 at most"
    (rules/000 line 123); at or below 0 a critical takes no Health level.
    """
    if not p.get("critical"):
        return levels
    t = state["combatants"][p["target"]]
    return critical_room(t["now"][p["vital"]], levels, p["vital"])


def after_damage_events(state: dict, p: dict, levels: int, extra_changes: list) -> list:
    """After the dice are read: armor takes it, or the target may prevent with Ki, or it lands."""
    armor = armor_hit_events(state, p, levels)
    if armor is not None:
        return armor + resolve_events(state, {**p, "levels": 0}, 0, 0)
    levels = critical_capped(state, p, levels)
    t = state["combatants"][p["target"]]
    take = _would_take(state, p, levels)
    if take > 0 and t["ki"] >= ki_cost(1, t["exhausted"]) and may_prevent(state, p["vital"]):
        waiting = {**p, "step": "prevent", "levels": levels, "would_take": take}
        waiting["opened"] = state["version"] + 1
        return [
            # The attacker is named, so no phone that may not see it learns of the hit
            # (its target reads "someone unseen hits you": results.unseen_line).
            (
                "awaiting_prevention",
                {"attacker": p["attacker"], "target": t["id"], "levels": take},
                [[["pending"], waiting]],
            )
        ]
    return resolve_events(state, {**p, "levels": levels}, levels, 0)


def resolve_events(state: dict, p: dict, levels: int, ki: int, sanity_ki: bool = False) -> list:
    """Apply the hit through the engine's vitals rule (RULES.md, Vitals); the attack is over.

    ``ki`` levels are prevented (1 Ki each, while they would be taken). When Poise hits the
    bottom it costs a Sanity level, which ``sanity_ki`` prevents with one more Ki if there is
    any left (rules/000 "Poise": "can be prevented by spending a point of Ki").
    """
    t = state["combatants"][p["target"]]
    vital = p["vital"]
    v002 = bool(state["ruleset"].get("vitals_002"))
    before = t["now"][vital]
    hit = take_attack(before, levels, t["max"][vital], vital, ki, "all", v002)
    cid = t["id"]
    changes = [[["pending"], None], [combatant_path(cid, "now", vital), hit.current]]
    ki_left = t["ki"] - ki_cost(hit.prevented, t["exhausted"])
    if hit.prevented:
        changes.append([combatant_path(cid, "ki"), ki_left])
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
        spend = ki_cost(1, t["exhausted"])
        if sanity_ki and ki_left >= spend:
            changes.append([combatant_path(cid, "ki"), ki_left - spend])
            data["sanity_prevented"] = 1
        else:
            after = take_attack(sanity, 1, t["max"]["sanity"], "sanity", 0, "none", v002)
            changes.append([combatant_path(cid, "now", "sanity"), after.current])
            data["sanity_lost"] = after.taken
    changes += track_consequences(state, t, vital, hit.current)
    if vital == "health" and hit.taken and t["band"] == "slow" and not t["acted"]:
        data["distracted_roll_due"] = True  # rules/002 "What Is Distracted?": roll to hold
        changes.append(
            [combatant_path(cid, "conditions", "Distracted"), distracted_asked(state, t)]
        )
    return [("attack_resolved", data, changes)]


def track_consequences(state: dict, c: dict, field: str, value: int) -> list:
    """What a track's new value sets off: Flustered for the Scene, an unnamed foe out at 0."""
    changes = []
    if field == "poise" and value <= 0 and "Flustered" not in c["conditions"]:
        changes.append(
            [
                combatant_path(c["id"], "conditions", "Flustered"),
                condition("Flustered", state["round"], "scene"),
            ]
        )
    if field == "health" and not c["named"]:
        changes.append([combatant_path(c["id"], "out"), value <= 0])
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
    changes = [
        [combatant_path(c["id"], "now", vital), after],
        [combatant_path(c["id"], "ki"), c["ki"] - cost],
    ]
    return changes, f"{vital.capitalize()} {c['now'][vital]} -> {after}"


def fate_spend(state: dict, c: dict, kind: str, condition_name: str | None) -> tuple[list, str]:
    """One Fate spend through the engine's caps (rules/004 "Fate Tokens"; rules/000)."""
    cid = c["id"]
    if kind in ("shrug off", "clear off balance"):
        name = "Off Balance" if kind == "clear off balance" else condition_name
        if name not in c["conditions"]:
            raise ValueError(f"condition must be one {c['name']} has, got {name!r}")
    if kind == "get back up" and c["now"]["health"] <= c["dead_at"]:
        raise ValueError(f"spend: {c['name']} is dead; Get Back Up is for the Dying")
    spent = engine_fate_spend(
        kind,
        c["fate"],
        c["fate_counted"],
        min(c["stamina"], 10),
        health=c["now"]["health"],
        health_max=c["max"]["health"],
        ki=c["ki"],
        ki_pool=c["ki_pool"],
        stamina_only=bool(state["ruleset"].get("fate_spends_stamina_only")),
    )
    if not spent.allowed:
        raise ValueError(f"spend: {spent.reason}")
    changes = [
        [combatant_path(cid, "fate"), spent.tokens_after],
        [combatant_path(cid, "fate_counted"), spent.counted_after],
    ]
    if spent.health_after is not None:
        changes.append([combatant_path(cid, "now", "health"), spent.health_after])
    if spent.ki_after is not None:
        changes.append([combatant_path(cid, "ki"), spent.ki_after])
    if kind in ("shrug off", "clear off balance"):
        changes.append([combatant_path(cid, "conditions", name), None])
    return changes, "; ".join(spent.changes) or spent.effect


def _track_bounds(vital: str):
    # What the rules let a track hold between hits (engine ``track_range``): Health down to
    # minus its maximum (dead), Poise and Sanity to one above it (they reset at the bottom).
    return lambda c: track_range(vital, c["max"][vital])


#: Values the GM may override, with their bounds (issue 21: no more than a rest can take).
SETTABLE = {
    "health": _track_bounds("health"),
    "poise": _track_bounds("poise"),
    "sanity": _track_bounds("sanity"),
    "ki": lambda c: (0, c["ki_pool"]),
    "fate": lambda c: (0, max(c["fate_cap"], 0)),
    "exhausted": lambda c: (0, 5),
}

#: Each settable value in words, for messages.
SETTABLE_WORDS = {
    "health": "Health",
    "poise": "Poise",
    "sanity": "Sanity",
    "ki": "Ki",
    "fate": "Fate Tokens",
    "exhausted": "Exhausted",
}

#: Where each settable value lives in a combatant's record.
SETTABLE_PATH = {
    "health": ("now", "health"),
    "poise": ("now", "poise"),
    "sanity": ("now", "sanity"),
}


# -- rests and the Scene -----------------------------------------------------------------------


def _rest_values(state: dict, c: dict) -> tuple[dict, list[str]]:
    """The values a rest starts from, each inside what the rules allow.

    With a sentence for each value brought inside (one an older table accepted, e.g. Ki above
    the pool), so a rest never fails the whole table over one combatant's number.
    """
    stops = bool(state["ruleset"].get("vitals_002"))
    bounds = {
        vital: track_range(vital, c["max"][vital], stops and vital == "poise")
        for vital in ("health", "poise", "sanity")
    }
    bounds["ki"] = (0, c["ki_pool"])
    bounds["exhausted"] = (0, MAX_EXHAUSTED)
    held = {v: c["now"][v] for v in ("health", "poise", "sanity")}
    held.update(ki=c["ki"], exhausted=c["exhausted"])
    values, said = {}, []
    for name, (low, high) in bounds.items():
        values[name] = min(max(held[name], low), high)
        if values[name] != held[name]:
            said.append(
                f"{c['name']}'s {SETTABLE_WORDS[name]} {held[name]} is outside {low} to {high}; "
                f"the rest starts from {values[name]}."
            )
    return values, said


def _rest(state: dict, c: dict, kind: str, values: dict):
    rules = state["ruleset"]
    clamp = lambda n: max(0, min(int(n), 10))  # noqa: E731 - creature cards have no sub-stats
    return (short_rest if kind == "short_rest" else full_night)(
        health=values["health"],
        health_max=c["max"]["health"],
        poise=values["poise"],
        poise_max=c["max"]["poise"],
        sanity=values["sanity"],
        sanity_max=c["max"]["sanity"],
        health_stat=clamp(c["rest_stats"]["health"]),
        presence=clamp(c["rest_stats"]["poise"]),
        psyche=clamp(c["rest_stats"]["sanity"]),
        ki=values["ki"],
        ki_pool=c["ki_pool"],
        klotho=clamp(c["klotho"]),
        exhausted=values["exhausted"],
        short_rest_taken=c["short_rest_taken"],
        half_klotho=bool(rules.get("short_rest_half_klotho")),
        below_zero_heals_per_rest=bool(rules.get("below_zero_heals_per_rest")),
        poise_stops_at_zero=bool(rules.get("vitals_002")),
    )


def rest_events(state: dict, kind: str) -> list:
    """Short Rest, Full Night or end of Scene for everyone at the table (engine ``rest``).

    A Full Night brings the day's Fate Token at sunrise too (rules/000 "Above zero"). A
    second Short Rest before a night is refused for whoever already had one, with the reason
    in the event. Dead combatants and creatures out of the fight do not rest.
    """
    changes: list = []
    refused: dict[str, str] = {}
    clamped: list[str] = []
    for c in state["combatants"].values():
        cid = c["id"]
        if kind == "end_scene":
            for name, info in c["conditions"].items():
                if info["until"] in ("scene", "round", "next_turn_end"):
                    changes.append([combatant_path(cid, "conditions", name), None])
            changes.append([combatant_path(cid, "fate_counted"), 0])
            continue
        if c["out"] or c["now"]["health"] <= c["dead_at"]:
            continue
        values, said = _rest_values(state, c)
        rest = _rest(state, c, kind, values)
        if not rest.allowed:
            refused[cid] = rest.reason
            continue
        clamped += said
        for vital in ("health", "poise", "sanity"):
            changes.append([combatant_path(cid, "now", vital), getattr(rest, vital)])
        changes += [
            [combatant_path(cid, "ki"), rest.ki],
            [combatant_path(cid, "exhausted"), rest.exhausted],
            [combatant_path(cid, "short_rest_taken"), rest.short_rest_taken],
        ]
        if kind == "full_night" and c["kind"] == "character":
            changes.append(
                [combatant_path(cid, "fate"), sunrise_fate(c["fate"], c["fate_cap"]).tokens_after]
            )
        for name, info in c["conditions"].items():
            if info["until"] == "rest":
                changes.append([combatant_path(cid, "conditions", name), None])
    data = {"kind": kind, "refused": refused}
    if kind == "full_night":
        # Flustered lasts "until the end of the Scene" (rules/000 "Poise"); whether the night
        # ended it is the GM's call, so the log asks (issue 32 item 11).
        flustered = [
            cid for cid in state["ids"] if "Flustered" in state["combatants"][cid]["conditions"]
        ]
        if flustered:
            data["flustered"] = flustered
    if clamped:
        data["clamped"] = clamped  # the GM's log says them (recovery.py)
    return [(kind.replace("_", " "), data, changes)]


def roll_data(c: dict, reading: RollReading, by: str) -> dict:
    """What the log keeps of one combatant's Core Roll: faces, kept total, TN, outcome, by whom."""
    return {
        "combatant": c["id"],
        "faces": list(reading.faces),
        "total": reading.total,
        "tn": reading.target,
        "outcome": reading.outcome,
        "rolled_by": by,
    }


#: The Difficulty of a roll to hold focus the table asks for itself (004 line 17: 5 "Moderate", "a
#: tense but ordinary check under pressure"); the GM asks again to change it.
DISTRACTED_DIFFICULTY = 5


def distracted_asked(state: dict, c: dict, difficulty: int = DISTRACTED_DIFFICULTY) -> dict:
    """A Distracted record in its first state: asked to roll, no effect by itself (RULES.md)."""
    info = condition("Distracted", state["round"], "round", own_turn=state["up"] == c["id"])
    return {**info, "difficulty": difficulty, "state": "asked", "rolled": False}


def in_slow_action(c: dict) -> bool:
    """Whether ``c`` is in a Slow round whose empowered action is still to come (rules/001)."""
    return c["bracket"] == "slow" and not any(ACTIONS[k].empowered for k in c["actions"])


def off_balance_after(state: dict, c: dict, reading: RollReading) -> list:
    """A kept 20 in a fight leaves the roller Off Balance to the end of their next turn.

    rules/000 line ~31: "In a fight it also leaves you Off Balance".
    """
    if reading.outcome != "catastrophe" or state["phase"] not in ("declare", "resolve"):
        return []
    info = condition("Off Balance", state["round"], "next_turn_end", state["up"] == c["id"])
    return [[combatant_path(c["id"], "conditions", "Off Balance"), info]]


def distracted_events(state, c, reading: RollReading, difficulty: int, by: str) -> list:
    """Atropos + Difficulty to hold focus: held, or failed (RULES.md; rules/001, 002, 004)."""
    slow = in_slow_action(c)
    state_name = "held" if reading.success else "failed"
    data = {**roll_data(c, reading, by), "held": reading.success, "slow": slow}
    asked = c["conditions"].get("Distracted")
    info = dict(asked) if asked else condition("Distracted", state["round"], "round")
    info.update(difficulty=difficulty, state=state_name, rolled=True, slow=slow, spent=False)
    changes = [[combatant_path(c["id"], "conditions", "Distracted"), info]]
    changes += off_balance_after(state, c, reading)
    return [("distracted_rolled", data, changes)]


def caught_in_catastrophe(state: dict, helpers: list[str]) -> list:
    """rules/000 line 81: "On a catastrophic failure, whoever was helping is caught in it too".

    Reading: in a fight a catastrophe leaves its roller Off Balance (rules/000 line 31), so it
    leaves each helper Off Balance too, to the end of their next turn (not their own turn now).
    """
    info = condition("Off Balance", state["round"], "next_turn_end", own_turn=False)
    return [[combatant_path(hid, "conditions", "Off Balance"), info] for hid in helpers]
