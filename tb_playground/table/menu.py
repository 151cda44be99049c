"""What a combatant may do now, as plain data: the action panel's menu (issue 20).

For the bracket the combatant declared (rules/000 "Action Brackets": Slow holds one empowered
action such as Aim, a Called Shot, Study a Target or a Sprint; Normal a move and an action, a
Dash, or two actions; Fast one action) every action of the round (rules/001 "Combat Actions")
with its cost in words, the fields it needs and their options, whether the table would take it
now and, when not, the table's own reason. Nothing is decided here: each action's command is
tried on the table's own ``decide`` (the state is not changed), so the menu never offers what
``Table.apply`` refuses, and the odds on a button are the engine's exact odds of the pending
attack the command would start (``odds.pending_odds``) or the ones the table's events carry.
Notes: docs/notes/0015-table-rules.md, "Actions of the round".
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from tb_playground.engine import ACTIONS, BRACKET_ACTIONS, attack_elements, validate_turn
from tb_playground.engine.armor import ZONES
from tb_playground.engine.conditions import COVERS
from tb_playground.formatting import chance_words, percent

from . import chase_phase, fight_rules, movement
from .attack_options import attack_pending, spec_reach
from .command_tools import start_of_round
from .commands import decide
from .gifts import cost as gift_cost
from .gifts import gift_of_attack
from .odds import pending_odds
from .privacy import attacker_odds
from .state import apply_changes

#: Elements in the order the texts list them (an attack's approach).
_ELEMENT_ORDER = ("Earth", "Air", "Water", "Fire", "Aether", "Moira")

#: The words of each bracket's choices, as the texts name them (rules/000 "Action Brackets").
BRACKET_WORDS = {
    "slow": "Slow: one empowered action (Aim, a Called Shot, Study a Target, a Sprint), "
    "or one plain action",
    "normal": "Normal: move and act, a Dash, or two actions",
    "fast": "Fast: one action",
}

#: The groups of the panel, in order: (key, heading).
GROUPS = (
    ("chase", "The chase: declare a run, a Dash or a Sprint, then roll"),
    ("empowered", "The Slow round's empowered action"),
    ("move", "Move"),
    ("act", "Act"),
    ("free", "Free, on your turn"),
)

#: A default trigger for Ready (the person types their own).
DEFAULT_TRIGGER = "when a foe comes within reach"

#: Cover, in words.
COVER_WORDS = {"none": "No cover", "partial": "Partial cover", "full": "Full cover"}

#: How a weapon reloads, in words (round_actions.RELOADS).
RELOAD_WORDS = {"magazine": "A magazine", "tube": "A tube, shell by shell", "quiver": "A quiver"}


def _dice(role: str, name: str = "faces", whose: str = "") -> dict:
    """A box for the dice thrown by hand, sent as the command's ``name`` (blank: the table rolls).

    The page reads what is typed as the attack's dice box does and adds it to the command;
    the table checks the count and the faces (``command_tools.read``).
    """
    who = f"{whose}'s dice" if whose else ("Your dice" if role == "player" else "Dice thrown")
    return menu_field(name, f"{who} (blank: the table rolls)", "faces", "", clear=True)


def _roller(n: int) -> list[int]:
    return [5] * n


def try_command(state: dict, command: dict, role: str, seat: str | None):
    """(events, None) when the table takes ``command``, else (None, (kind, reason))."""
    try:
        return decide(state, command, role, seat, _roller), None
    except PermissionError as err:
        return None, ("permission", str(err))
    except (ValueError, TypeError) as err:
        return None, ("value", str(err))


def _visible(state: dict, role: str) -> list[dict]:
    cs = state["combatants"]
    return [cs[i] for i in state["ids"] if role == "gm" or not cs[i].get("hidden")]


def combatant_option(c: dict) -> tuple[str, str]:
    """A combatant as a choice: (name shown, id sent)."""
    return (c["name"], c["id"])


def pick_value(value, options: list, default=None):
    """``value`` when it is one of ``options`` (values), else ``default`` or the first."""
    values = [v for _, v in options]
    if value in values:
        return value
    if default in values:
        return default
    return values[0] if values else None


def menu_field(name: str, label: str, kind: str, value, options=None, **more) -> dict:
    """One field of a menu entry: its name, label, kind, value and choices (the panel draws it)."""
    out = {"name": name, "label": label, "kind": kind, "value": value}
    if options is not None:
        out["options"] = [list(o) for o in options]
    out.update(more)
    return out


def _cost_words(key: str, bracket: str, extra: str = "") -> str:
    rule = ACTIONS[key]
    if key == "step":
        words = "free: a 1 m step"
    elif rule.cost == 0:
        words = "free"
    elif key == "dash":
        words = "both actions"
    elif key == "sprint":
        words = "the whole Slow round"
    elif rule.empowered:
        words = "the Slow round's action"
    elif key in ("move", "crawl"):
        words = "1 action (all the round's moves together)"
    else:
        words = "1 action"
    return words + extra


def _reach(bracket: str, key: str, rate: int) -> str:
    """How far a move of ``key`` may go in ``bracket`` (engine), e.g. ", up to 12 m"."""
    if key == "step" or bracket not in ACTIONS[key].brackets:
        return ""
    return f", up to {validate_turn(bracket, [key], movement_rate=rate).metres_allowed} m"


def actions_left(state: dict, c: dict) -> dict:
    """The round's budget for ``c`` now (engine ``validate_turn`` on the actions taken).

    Returns
    -------
    dict
        "allowed" (the bracket's actions), "used", "left", "metres" (moved this round),
        "taken" (the actions' names).
    """
    bracket = c["bracket"] or "normal"
    check = validate_turn(
        bracket,
        start_of_round(c)["actions"],
        movement_rate=min(fight_rules.base_rate(c), 1000),
        metres=c["metres"],
        bumps=c["bumps"],
        exhausted=c["exhausted"],
        conditions=fight_rules.states(start_of_round(c)),
    )
    allowed = BRACKET_ACTIONS[bracket]
    return {
        "allowed": allowed,
        "used": check.actions_used,
        "left": max(allowed - check.actions_used, 0),
        "metres": c["metres"],
        "taken": [ACTIONS[k].label for k in c["actions"]],
    }


def chips(state: dict, c: dict) -> list[str]:
    """The "actions left" chips: actions left, metres moved, the actions taken."""
    left = actions_left(state, c)
    n = left["left"]
    out = [f"{n} of {left['allowed']} action{'s' if left['allowed'] != 1 else ''} left"]
    if left["metres"]:
        out.append(f"moved {left['metres']} m")
    out += [f"done: {t}" for t in left["taken"]]
    if c.get("ki_pool"):
        out.append(f"Ki {c['ki']}")
    return out


def _attack_fields(state, role, a, choices, visible, empowered=None) -> tuple[list, dict]:
    """The fields of an attack (target, attack, approach, cover, off hand, GM's source)."""
    others = [t for t in visible if t["id"] != a["id"] and not t["out"]]
    options = [combatant_option(t) for t in others]
    first_foe = next((t["id"] for t in others if t["side"] != a["side"]), None)
    target = pick_value(choices.get("target"), options, first_foe)
    attacks = [(spec["name"], i) for i, spec in enumerate(a["attacks"])]
    index = pick_value(choices.get("attack"), attacks, 0)
    fields = [
        menu_field("target", "Target", "select", target, options),
        menu_field("attack", "Attack", "select", index, attacks),
    ]
    command = {"target": target, "attack": index}
    if empowered == "called shot":
        zones = [(z.capitalize(), z) for z in ZONES if z == "head"]
        fields.append(menu_field("zone", "Zone", "select", "head", zones))
        command["zone"] = "head"
    if index is not None and a["attacks"]:
        spec = a["attacks"][index]
        if spec["score"] is None and spec["element"] is None:
            allowed = attack_elements(spec["kind"], state["ruleset"].get("never_moira", False))
            els = [e for e in _ELEMENT_ORDER if e in allowed]
            best = max(els, key=lambda e: a["elements"][e])
            els_opts = [(f"{e} {a['elements'][e]}", e) for e in els]
            approach = pick_value(choices.get("approach"), els_opts, best)
            nod = role != "gm" and bool(state.get("options", {}).get("approach_nod"))
            label = "Approach (the GM nods)" if nod else "Approach"
            fields.append(menu_field("approach", label, "select", approach, els_opts))
            if approach != best:
                command["approach"] = approach
        elif spec["score"] is None:  # a Skill attack: its Skill's Element, or a Descriptor's
            allowed = attack_elements(spec["kind"], state["ruleset"].get("never_moira", False))
            els_opts = [(f"{e} {a['elements'][e]}", e) for e in _ELEMENT_ORDER if e in allowed]
            approach = pick_value(choices.get("approach"), els_opts, spec["element"])
            label = "Element (another needs a Descriptor: the GM confirms)"
            fields.append(menu_field("approach", label, "select", approach, els_opts))
            if approach != spec["element"]:
                command["approach"] = approach
    if index is not None and a["attacks"] and spec_reach(a["attacks"][index])["ranged"]:
        distance = choices.get("distance")
        if not isinstance(distance, int) or isinstance(distance, bool) or distance < 0:
            distance = 0
        label = "Metres to the target (0: as the table has it)"
        fields.append(menu_field("distance", label, "int", distance, start=0, end=100_000))
        if distance:
            command["distance"] = distance
    covers = [(COVER_WORDS.get(k, k.capitalize()), k) for k in COVERS]
    cover = pick_value(choices.get("cover"), covers, "none")
    fields.append(menu_field("cover", "Cover", "select", cover, covers))
    command["cover"] = cover
    off_hand = bool(choices.get("off_hand", False))
    fields.append(menu_field("off_hand", "Off hand", "bool", off_hand))
    if off_hand:
        command["off_hand"] = True
    helping = [
        state["combatants"][h]["name"]
        for h in state["ids"]
        if state["combatants"][h]["carried"].get("helping") == a["id"]
        and (role == "gm" or not state["combatants"][h].get("hidden"))
    ]
    if helping:
        fields.append(menu_field("helpers", "Helped by", "info", ", ".join(helping)))
    if role == "gm":
        effect = pick_value(
            choices.get("situational"),
            [("none", "none"), ("advantage", "advantage"), ("disadvantage", "disadvantage")],
            "none",
        )
        fields.append(
            menu_field(
                "situational",
                "GM's source",
                "select",
                effect,
                [("None", "none"), ("Advantage", "advantage"), ("Disadvantage", "disadvantage")],
            )
        )
        reason = str(choices.get("reason") or "").strip()
        fields.append(menu_field("reason", "Its reason", "text", reason))
        if effect != "none":
            command["situational"] = [
                {"name": "The GM", "effect": effect, "reason": reason or "the situation"}
            ]
    return fields, command


def _gift_ki(c: dict, index) -> str:
    """The words " and 1 Ki (Onslaught)" when attack ``index`` is a Gift's (gifts.py)."""
    g = gift_of_attack(c, index) if index is not None else None
    return f" and {gift_cost(c, g)} Ki ({g['name']})" if g and g["ki_cost"] else ""


def _hit(state: dict, role: str, a: dict, command: dict) -> float | None:
    """P(hit) of the attack ``command`` would declare (None when the rules forbid it)."""
    t = state["combatants"].get(command.get("target"))
    if t is None or not a["attacks"] or command.get("attack") is None:
        return None
    try:
        p = attack_pending(state, a, t, command["attack"], command, role)
    except ValueError:
        return None
    return pending_odds(state, p).get("p_hit", 1.0)


def _after(state: dict, events: list) -> dict:
    after = copy.deepcopy(state)
    for _kind, _data, changes in events:
        apply_changes(after, changes)
    return after


def menu_entry(key, label, group, cost, fields, command, tried, odds=None, p=None) -> dict:
    """One action of the menu: its command, fields, cost, odds and the table's answer to it."""
    events, refused = tried
    entry = {
        "key": key,
        "label": label,
        "group": group,
        "cost": cost,
        "fields": fields,
        "command": command,
        "allowed": refused is None,
        "reason": "" if refused is None else refused[1],
        "refusal": None if refused is None else refused[0],
        "odds": odds or "",
        "p": p or {},
    }
    return entry


def _group(key: str, bracket: str) -> str | None:
    """The panel group of action ``key`` in ``bracket`` (None: not this bracket's)."""
    rule = ACTIONS[key]
    if bracket not in rule.brackets:
        return None
    if rule.cost == 0 and key != "step":
        return "free"
    if rule.empowered or key in ("sprint", "step", "reload tube"):
        return "empowered"
    if rule.moves:
        return "move"
    return "act"


@dataclass
class Turn:
    """What every entry of a turn's menu reads: who asks, who acts, what they picked so far."""

    state: dict
    role: str
    seat: str | None
    c: dict
    choices: dict
    bracket: str
    visible: list[dict]
    acts: list[dict]
    targets: list[tuple[str, str]]
    first_foe: str | None
    attack_fields: list[dict]
    plain: dict
    before: float | None

    def parts(self) -> tuple:
        """state, role, seat, c, choices, bracket, visible, acts and the actor's id."""
        return (
            self.state,
            self.role,
            self.seat,
            self.c,
            self.choices,
            self.bracket,
            self.visible,
            self.acts,
            self.c["id"],
        )

    def attempt(self, command: dict):
        """The table's answer to ``command`` from this sender (``try_command``)."""
        return try_command(self.state, command, self.role, self.seat)


def menu(
    state: dict,
    role: str,
    seat: str | None = None,
    actor: str | None = None,
    choices: dict | None = None,
) -> dict:
    """What ``actor`` may do now, for ``role`` (and ``seat``), as plain data.

    Parameters
    ----------
    state : dict
        The table's full state (the menu shows only what ``role`` may see of it).
    role, seat : str
        Who asks: the GM for whoever is up, a player for their own seat.
    actor : str, optional
        The combatant (default: the seat for a player, whoever is up for the GM).
    choices : dict, optional
        What the person picked so far, by field name ("target", "attack", "approach",
        "metres", "toward", "ally", "gift", "skill", "difficulty", ...): each action's
        command and odds are for these.

    Returns
    -------
    dict
        "actor", "name", "phase", "open" (whether it is the actor's turn to act) and "why"
        (when not),
        "bracket", "words" (the bracket's choices in words), "chips", "left"
        (``actions_left``), "groups" ([key, heading] in order) and "actions": one dict each
        with "key", "label", "group" (None: not this bracket's, not shown), "cost" (words),
        "fields", "command" (what the primary button sends), "allowed", "reason" and
        "refusal" (the table's own words and "value" or "permission" when not allowed),
        "odds" (words, e.g. "hit 64% -> 79%") and "p" (the numbers behind them).
    """
    choices = dict(choices or {})
    if actor is None and role != "player" and state["phase"] == "chase":
        due = chase_phase.due(state)
        actor = next(iter(due["declare"] or due["roll"]), None)
    if actor is None:
        actor = seat if role == "player" else state.get("up")
    c = state["combatants"].get(actor) if isinstance(actor, str) else None
    out = {
        "actor": actor,
        "name": c["name"] if c else "",
        "open": False,
        "why": "",
        "bracket": None,
        "words": "",
        "chips": [],
        "left": None,
        "phase": state["phase"],
        "groups": [list(g) for g in GROUPS],
        "actions": [],
    }
    if c is None:
        out["why"] = "Nobody is acting now."
        return out
    if role == "player" and seat != actor:
        out["why"] = "A player acts only for their own seat."
        return out
    if state["phase"] == "chase":
        return _chase_menu(state, role, seat, c, out)
    if state["phase"] != "resolve" or state["up"] != actor:
        out["why"] = "Wait for your turn." if role == "player" else f"It is not {c['name']}'s turn."
        return out
    if state["pending"] is not None:
        out["why"] = "Finish the attack under way first."
        return out
    bracket = c["bracket"] or "normal"
    out.update(open=True, bracket=bracket, words=BRACKET_WORDS[bracket])
    out["left"] = actions_left(state, c)
    out["chips"] = chips(state, c)
    visible = _visible(state, role)
    acts = out["actions"]
    cid = c["id"]

    a_fields, a_cmd = _attack_fields(state, role, c, choices, visible)
    plain = {"type": "attack", "attacker": cid, **a_cmd}
    targets = [combatant_option(t) for t in visible if t["id"] != cid and not t["out"]]
    first_foe = next(
        (t["id"] for t in visible if t["id"] != cid and not t["out"] and t["side"] != c["side"]),
        None,
    )
    t = Turn(
        state=state,
        role=role,
        seat=seat,
        c=c,
        choices=choices,
        bracket=bracket,
        visible=visible,
        acts=acts,
        targets=targets,
        first_foe=first_foe,
        attack_fields=a_fields,
        plain=plain,
        before=_hit(state, role, c, plain),
    )
    for _command, build in MENU:
        build(t)
    _foe_odds_as_allowed(state, role, seat, acts)
    return out


#: The chances of hitting a foe an entry's "p" may hold (its words say them as percentages).
_HIT_CHANCES = ("p_hit", "p_hit_before", "p_grab")


def _foe_odds_as_allowed(state: dict, role: str, seat: str | None, acts: list[dict]) -> None:
    """A player's chances against a foe as the GM's switch allows (issue 31, ``foe_odds``).

    "words": the chance to hit in words (``formatting.chance_words``); "none": no odds.
    """
    for entry in acts:
        d = {"attacker": seat, "target": (entry["command"] or {}).get("target")}
        show = attacker_odds(state, d, role, seat)
        if show == "exact" or not any(k in entry["p"] for k in _HIT_CHANCES):
            continue
        hit = entry["p"].get("p_hit")
        entry["odds"] = f"hit: {chance_words(hit)}" if show == "words" and hit is not None else ""
        entry["p"] = {}


def _attacks(t: Turn) -> None:
    """The attacks: plain, Aim, Called Shot (rules/000 "Action Brackets")."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    tried = t.attempt(t.plain)
    odds = f"hit {percent(t.before, 0)}" if t.before is not None and tried[1] is None else ""
    acts.append(
        menu_entry(
            "attack",
            "Attack",
            _group("attack", bracket),
            _cost_words("attack", bracket, _gift_ki(c, t.plain.get("attack"))),
            t.attack_fields,
            t.plain,
            tried,
            odds,
            {"p_hit": t.before},
        )
    )
    for key, label in (("aim", "Aim"), ("called shot", "Called Shot")):
        fields, cmd = _attack_fields(state, role, c, choices, visible, key)
        command = {"type": "attack", "attacker": cid, **cmd, "empowered": key}
        tried = t.attempt(command)
        was = _hit(state, role, c, {**command, "empowered": None, "zone": None})
        now = _hit(state, role, c, command)
        odds = ""
        if tried[1] is None and was is not None and now is not None:
            same = abs(now - was) < 1e-12  # no "85% -> 85%" (the Advantage is had already)
            odds = (
                f"hit {percent(now, 0)}" if same else f"hit {percent(was, 0)} -> {percent(now, 0)}"
            )
        acts.append(
            menu_entry(
                key,
                label,
                _group(key, bracket),
                _cost_words(key, bracket, _gift_ki(c, cmd.get("attack"))),
                fields,
                command,
                tried,
                odds,
                {"p_hit_before": was, "p_hit": now},
            )
        )


def _study(t: Turn) -> None:
    """Study a Target (``act``): next round's Called Shot at Advantage."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    target = pick_value(choices.get("target"), t.targets, t.first_foe)
    command = {"type": "act", "combatant": cid, "action": "study", "target": target}
    acts.append(
        menu_entry(
            "study",
            "Study a Target",
            _group("study", bracket),
            _cost_words("study", bracket),
            [menu_field("target", "Target", "select", target, t.targets)],
            command,
            t.attempt(command),
            "next round's Called Shot at Advantage",
        )
    )


#: Where a move toward or away from someone may start when the table knows no distance.
START_OPTIONS = [("Melee", "melee"), ("Close", "close"), ("Near", "near"), ("Far", "far")]


def _moves(t: Turn) -> None:
    """Moving (rules/000 "Moving in a Round"; ``movement``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    rate = fight_rules.movement_rate(c)
    metres = choices.get("metres")
    if not isinstance(metres, int) or isinstance(metres, bool) or metres < 1:
        metres = max(rate, 1)
    way = choices.get("way") if choices.get("way") in ("toward", "away_from") else "toward"
    other = pick_value(choices.get("toward"), [("Nobody in particular", ""), *t.targets], "")
    move_fields = [
        menu_field("metres", "Metres", "int", metres, start=1, end=10_000),
        menu_field(
            "way",
            "Which way",
            "select",
            way,
            [("Toward", "toward"), ("Away from", "away_from")],
        ),
        menu_field("toward", "Whom", "select", other, [("Nobody in particular", ""), *t.targets]),
    ]
    start = None
    if other and not movement.distance_known(state, cid, other):
        # Nothing known between the two: offer a start, not a refusal (issue 31).
        start = pick_value(choices.get("start"), START_OPTIONS, movement.START_BANDS[way])
        move_fields.append(menu_field("start", "Starting from", "select", start, START_OPTIONS))
    low = "Belly Down" in c["conditions"]
    moves = [("move", "Move"), ("dash", "Dash"), ("sprint", "Sprint"), ("step", "1 m step")]
    moves.append(("crawl", "Crawl"))
    for key, label in moves:
        group = _group(key, bracket) if (key == "crawl") == low else None
        command = {"type": "move", "combatant": cid, "metres": 1 if key == "step" else metres}
        command["how"] = key
        if other:
            command[way] = other
        if start is not None:
            command["start"] = start
        tried = t.attempt(command)
        odds = ""
        if tried[1] is None:
            data = tried[0][0][1]
            if "distance_after" in data:
                name = state["combatants"][data["other"]]["name"]
                odds = (
                    f"{name}: {data['distance_before']} m -> {data['distance_after']} m "
                    f"({data['band'].capitalize()})"
                )
        fields = move_fields if key != "step" else move_fields[1:]
        reach = _reach(bracket, key, rate)
        acts.append(
            menu_entry(
                key, label, group, _cost_words(key, bracket, reach), fields, command, tried, odds
            )
        )


def _grab_or_disarm(t: Turn, key: str, label: str) -> None:
    """A Grab or a Disarm of the target picked (``grab``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    g_target = pick_value(choices.get("target"), t.targets, t.first_foe)
    command = {"type": key, "attacker": cid, "target": g_target}
    tried = t.attempt(command)
    odds, p = "", {}
    if tried[1] is None:
        data = tried[0][0][1]
        p = {k: data[k] for k in ("p_hit", "p_grab") if k in data}
        if "p_grab" in data:
            odds = f"hit {percent(data['p_hit'], 0)}, hold {percent(data['p_grab'], 0)}"
        elif "p_hit" in data:
            odds = f"hit {percent(data['p_hit'], 0)}"
    acts.append(
        menu_entry(
            key,
            label,
            _group(key, bracket),
            _cost_words(key, bracket),
            [menu_field("target", "Target", "select", g_target, t.targets)]
            + ([_dice(role)] if key == "grab" else []),
            command,
            tried,
            odds,
            p,
        )
    )


def _escape(t: Turn) -> None:
    """Escape the hold (``grab.escape``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    command = {"type": "escape", "combatant": cid}
    tried = t.attempt(command)
    odds, p = "", {}
    if tried[1] is None and "p_escape" in tried[0][0][1]:
        p = {"p_escape": tried[0][0][1]["p_escape"]}
        odds = f"escape {percent(p['p_escape'], 0)}"
    grabbed = "Grabbed" in c["conditions"]
    holder = state["combatants"].get((c["conditions"].get("Grabbed") or {}).get("by"))
    rolls = (
        holder is not None and not holder["out"] and fight_rules.can_act(holder)
    )  # else it's over
    acts.append(
        menu_entry(
            "escape",
            "Escape the hold",
            _group("escape", bracket) if grabbed else None,
            _cost_words("escape", bracket),
            [_dice(role)] if rolls else [],
            command,
            tried,
            odds,
            p,
        )
    )


def _help(t: Turn) -> None:
    """Help an ally (``help_action``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    allies = [
        combatant_option(t)
        for t in visible
        if t["id"] != cid and t["side"] == c["side"] and not t["out"]
    ]
    ally = pick_value(choices.get("ally"), allies)
    command = {"type": "help", "combatant": cid, "ally": ally}
    tried = t.attempt(command)
    odds, p = ("the ally's next roll gains Advantage" if ally else ""), {}
    if tried[1] is None and role == "gm":  # a player sees only their own attacks' odds
        odds, p = _help_change(state, role, visible, ally, tried[0]) or (odds, p)
    acts.append(
        menu_entry(
            "help",
            "Help",
            _group("help", bracket),
            _cost_words("help", bracket),
            [menu_field("ally", "Ally", "select", ally, allies)],
            command,
            tried,
            odds,
            p,
        )
    )


def _gift(t: Turn) -> None:
    """Use a Gift that is not an attack (``gifts``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    gifts = [(g["name"], g["name"]) for g in c.get("gifts", []) if not g["attacks"]]
    gift = pick_value(choices.get("gift"), gifts)
    if gift is not None:
        g = next(x for x in c["gifts"] if x["name"] == gift)
        ki = gift_cost(c, g)
        gift_options = [
            (f"{x['name']} (Ki {gift_cost(c, x)})", x["name"])
            for x in c["gifts"]
            if not x["attacks"]
        ]
        command = {"type": "use_gift", "combatant": cid, "gift": gift}
        effect = str(choices.get("effect") or "").strip()
        if effect:
            command["effect"] = effect
        tried = t.attempt(command)
        odds, p = f"Ki {ki}", {}
        if tried[1] is None and "check" in tried[0][0][1]:
            p = {"p_check": tried[0][0][1]["check"]["p_success"]}
            odds += f", Gift Check {percent(p['p_check'], 0)}"
        acts.append(
            menu_entry(
                "gift",
                "Use a Gift",
                _group("small action", bracket),
                _cost_words("small action", bracket, f" and {ki} Ki"),
                [
                    menu_field("gift", "Gift", "select", gift, gift_options),
                    menu_field("effect", "What it does", "text", effect),
                ],
                command,
                tried,
                odds,
                p,
            )
        )


def _skill(t: Turn) -> None:
    """A Skill roll (``skill_rolls``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    if c["kind"] == "character" and c.get("skills"):
        skills = [(f"{name} (tier {row['tier']})", name) for name, row in c["skills"].items()]
        skill = pick_value(choices.get("skill"), skills)
        difficulty = choices.get("difficulty")
        if not isinstance(difficulty, int) or isinstance(difficulty, bool):
            difficulty = 5
        difficulty = min(max(difficulty, 0), 10)
        command = {"type": "skill_roll", "combatant": cid, "skill": skill}
        command["difficulty"] = difficulty
        tried = t.attempt(command)
        odds, p = "", {}
        if tried[1] is None:
            p = {"p_success": tried[0][0][1]["p_success"]}
            odds = f"success {percent(p['p_success'], 0)}"
        acts.append(
            menu_entry(
                "skill",
                "Use a Skill",
                _group("skill", bracket),
                _cost_words("skill", bracket),
                [
                    menu_field("skill", "Skill", "select", skill, skills),
                    menu_field(
                        "difficulty",
                        "Difficulty (0 hard .. 10 easy)",
                        "int",
                        difficulty,
                        start=0,
                        end=10,
                    ),
                    _dice(role),
                ],
                command,
                tried,
                odds,
                p,
            )
        )


def _opposed_roll(t: Turn) -> None:
    """The GM's opposed roll on this turn (``skill_rolls.opposed_roll``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    if role == "gm" and c["kind"] == "character" and c.get("skills"):
        _opposed(state, role, seat, c, choices, t.targets, t.first_foe, acts, bracket)


def _stabilise(t: Turn) -> None:
    """Stabilise the Dying (``skill_rolls.stabilise``)."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    dying = [
        combatant_option(t)
        for t in visible
        if t["now"]["health"] < 0 and t["now"]["health"] > t["dead_at"] and t["named"]
    ]
    who = pick_value(choices.get("patient"), dying)
    command = {"type": "stabilise", "combatant": cid, "target": who, "how": "first aid"}
    tried = t.attempt(command)
    acts.append(
        menu_entry(
            "stabilise",
            "Stabilise (First Aid)",
            _group("skill", bracket) if who else None,
            _cost_words("skill", bracket),
            [menu_field("patient", "Who", "select", who, dying), _dice(role)],
            command,
            tried,
        )
    )


def _other_acts(t: Turn) -> None:
    """The other actions of ``act``: Reckless, Full Defense, Reload, Ready..."""
    state, role, seat, c, choices, bracket, visible, acts, cid = t.parts()
    conditions = c["conditions"]
    simple = [
        # Taken once, they hold for the round: not offered again (the table refuses a second).
        ("reckless", "Reckless", "reckless" not in c["actions"]),
        ("full defense", "Full Defense", "full defense" not in c["actions"]),
        ("belly down", "Belly Down", "Belly Down" not in conditions),
        ("stand up", "Stand up", "Belly Down" in conditions),
        ("recover from prone", "Recover from Prone", "Prone" in conditions),
    ]
    for key, label, relevant in simple:
        command = {"type": "act", "combatant": cid, "action": key}
        tried = t.attempt(command)
        odds, p = "", {}
        if tried[1] is None and key in ("reckless", "full defense", "belly down", "stand up"):
            odds, p = _own_attack_change(state, role, c, t.plain, t.before, tried[0])
        acts.append(
            menu_entry(
                key,
                label,
                _group(key, bracket) if relevant else None,
                _cost_words(key, bracket),
                [],
                command,
                tried,
                odds,
                p,
            )
        )
    reloads = [(w, k) for k, w in RELOAD_WORDS.items()]
    how = pick_value(choices.get("reload"), reloads, "magazine")
    command = {"type": "act", "combatant": cid, "action": "reload", "reload": how}
    acts.append(
        menu_entry(
            "reload",
            "Reload",
            _group("reload" if how != "tube" else "reload tube", bracket),
            _cost_words("reload" if how != "tube" else "reload tube", bracket),
            [menu_field("reload", "What", "select", how, reloads)],
            command,
            t.attempt(command),
        )
    )
    trigger = str(choices.get("trigger") or "").strip() or DEFAULT_TRIGGER
    what = str(choices.get("what") or "").strip()
    command = {"type": "act", "combatant": cid, "action": "ready", "trigger": trigger}
    if what:
        command["what"] = what
    acts.append(
        menu_entry(
            "ready",
            "Ready",
            _group("ready", bracket),
            _cost_words("ready", bracket),
            [
                menu_field("trigger", "Until", "text", trigger),
                menu_field("what", "To do", "text", what),
            ],
            command,
            t.attempt(command),
        )
    )
    command = {"type": "act", "combatant": cid, "action": "small action"}
    if what:
        command["what"] = what
    acts.append(
        menu_entry(
            "small action",
            "Small action",
            _group("small action", bracket),
            _cost_words("small action", bracket),
            [menu_field("what", "What", "text", what)],
            command,
            t.attempt(command),
        )
    )


#: The menu of a turn: each command's entries, in the order the panel shows them (``menu``).
#: "act" offers Study a Target among the first and its other actions last.
MENU = (
    ("attack", _attacks),
    ("act", _study),
    ("move", _moves),
    ("grab", lambda t: _grab_or_disarm(t, "grab", "Grab")),
    ("disarm", lambda t: _grab_or_disarm(t, "disarm", "Disarm")),
    ("escape", _escape),
    ("help", _help),
    ("use_gift", _gift),
    ("skill_roll", _skill),
    ("opposed_roll", _opposed_roll),
    ("stabilise", _stabilise),
    ("act", _other_acts),
)


def _opposed(state, role, seat, c, choices, targets, first_foe, acts, bracket) -> None:
    """The GM's opposed roll with ``c`` as the actor (rules/000 "Opposed Rolls")."""
    skills = [(f"{name} (tier {row['tier']})", name) for name, row in c["skills"].items()]
    resister = pick_value(choices.get("resister"), targets, first_foe)
    mine = pick_value(choices.get("actor_skill"), skills)
    difficulty = _difficulty(choices)
    command = {"type": "opposed_roll", "actor": c["id"], "resister": resister}
    command.update(actor_skill=mine, difficulty=difficulty)
    fields = [
        menu_field("resister", "Against", "select", resister, targets),
        menu_field("actor_skill", "Skill", "select", mine, skills),
    ]
    r = state["combatants"].get(resister) if resister else None
    if r is not None and r["kind"] == "character":
        theirs_options = [(name, name) for name in r.get("skills", {})] or [(mine, mine)]
        theirs = pick_value(choices.get("resister_skill"), theirs_options, mine)
        fields.append(menu_field("resister_skill", "Their Skill", "select", theirs, theirs_options))
        command["resister_skill"] = theirs
    elif r is not None:
        static = choices.get("static")
        if not isinstance(static, int) or isinstance(static, bool) or not 0 <= static <= 10:
            static = r.get("static_numbers", {}).get(mine, 5)
        fields.append(menu_field("static", "Their card's number", "int", static, start=0, end=10))
        command["resister_skill"] = mine
        command["static"] = static
    fields.append(
        menu_field(
            "difficulty", "Difficulty (0 hard .. 10 easy)", "int", difficulty, start=0, end=10
        )
    )
    fields.append(_dice(role, "actor_faces", c["name"]))
    if r is not None and r["kind"] == "character":
        fields.append(_dice(role, "resister_faces", r["name"]))
    tried = try_command(state, command, role, seat)
    odds, p = "", {}
    if tried[1] is None:
        p = {"p_actor_wins": tried[0][0][1]["p_actor_wins"]}
        odds = f"wins {percent(p['p_actor_wins'], 0)}"
    acts.append(
        menu_entry(
            "opposed",
            "Opposed roll",
            _group("skill", bracket),
            _cost_words("skill", bracket),
            fields,
            command,
            tried,
            odds,
            p,
        )
    )


def _difficulty(choices: dict) -> int:
    """The Difficulty typed (0..10), else 5 "Moderate" (rules/004)."""
    value = choices.get("difficulty")
    if not isinstance(value, int) or isinstance(value, bool):
        return 5
    return min(max(value, 0), 10)


#: A chase's moves, as the buttons say them (chase_phase.HOWS).
CHASE_MOVES = {"move": "Run", "dash": "Dash", "sprint": "Sprint"}

#: Why a chase leaves no move to make now.
CHASE_WAIT = "Wait: the others declare or roll first, or the GM calls the next step."


def _chase_menu(state: dict, role: str, seat: str | None, c: dict, out: dict) -> dict:
    """A chase round for ``c``: a run, a Dash or a Sprint, then the Chase roll (rules/001)."""
    chase = state["chase"]
    if c["id"] not in chase_phase.participants(state):
        out["why"] = f"{c['name']} is not in the chase."
        return out
    due = chase_phase.due(state)
    if c["id"] not in due["declare"] and c["id"] not in due["roll"]:
        out["why"] = CHASE_WAIT
        return out
    out.update(
        open=True,
        phase="chase",
        words='The chase: all declare how they run, then all roll (rules/001 "Chases").',
    )
    chips = [f"chase round {chase['round']}"]
    move = chase["moves"].get(c["id"])
    if move:
        chips.append(f"declared: {CHASE_MOVES[move['how']]} {move['metres']} m")
    if c.get("ki_pool"):
        chips.append(f"Ki {c['ki']}")
    out["chips"] = chips
    rate = fight_rules.movement_rate(c)
    for how, label in CHASE_MOVES.items():
        command = {"type": "chase_declare", "combatant": c["id"], "how": how}
        tried = try_command(state, command, role, seat)
        cost = f"this chase round's move: {rate * chase_phase.HOWS[how]} m"
        if how == "sprint":
            cost += ", with an endurance roll"
        group = "chase" if c["id"] in due["declare"] else None
        out["actions"].append(menu_entry(f"chase {how}", label, group, cost, [], command, tried))
    command = {"type": "chase_roll", "combatant": c["id"]}
    tried = try_command(state, command, role, seat)
    odds, p = "", {}
    if tried[1] is None:
        p = {"p_success": tried[0][0][1]["p_success"]}
        odds = f"success {percent(p['p_success'], 0)}"
    group = "chase" if c["id"] in due["roll"] else None
    out["actions"].append(
        menu_entry(
            "chase roll",
            "Chase roll",
            group,
            "the chase round's roll",
            [_dice(role)],
            command,
            tried,
            odds,
            p,
        )
    )
    return out


def _help_change(state, role, visible, ally_id, events) -> tuple[str, dict] | None:
    """The ally's first attack on their first foe, before -> after the Help (rules/000)."""
    ally = state["combatants"][ally_id]
    foe = next((t["id"] for t in visible if t["side"] != ally["side"] and not t["out"]), None)
    if foe is None or not ally["attacks"]:
        return None
    attack = {"target": foe, "attack": 0}
    before = _hit(state, role, ally, attack)
    after_state = _after(state, events)
    now = _hit(after_state, role, after_state["combatants"][ally_id], attack)
    if before is None or now is None:
        return None
    name = state["combatants"][foe]["name"]
    words = f"{ally['name']}'s attack on {name}: hit {percent(before, 0)} -> {percent(now, 0)}"
    return words, {"p_hit_before": before, "p_hit": now}


def _own_attack_change(state, role, c, plain, before, events) -> tuple[str, dict]:
    """How an action changes the actor's plain attack (Reckless, Full Defense...): odds words."""
    after_state = _after(state, events)
    a = after_state["combatants"][c["id"]]
    now = _hit(after_state, role, a, plain)
    if before is None or now is None or abs(now - before) < 1e-12:
        return "", {}
    return f"your attack: hit {percent(before, 0)} -> {percent(now, 0)}", {
        "p_hit_before": before,
        "p_hit": now,
    }


def entry(m: dict, key: str) -> dict | None:
    """The action ``key`` of menu ``m`` (or None)."""
    return next((x for x in m["actions"] if x["key"] == key), None)


def approach_ruling(state: dict) -> dict | None:
    """The GM's nod on a declared attack's approach, when one waits for it (else None).

    RULES.md, Attacks: the player names the Element, the GM confirms or changes it (the table
    option "approach_nod"; ``attack_options.ruling_command``). Returns "attacker", "target"
    (names), "element" (the one declared), "options" ([label, Element] the attack may roll,
    with the attacker's score) and "command" (the ruling that confirms it).
    """
    p = state.get("pending")
    if p is None or p["step"] != "approach":
        return None
    a = state["combatants"][p["attacker"]]
    spec = a["attacks"][p["index"]]
    allowed = attack_elements(spec["kind"], state["ruleset"].get("never_moira", False))
    options = [[f"{e} {a['elements'][e]}", e] for e in _ELEMENT_ORDER if e in allowed]
    return {
        "attacker": a["name"],
        "target": state["combatants"][p["target"]]["name"],
        "attack": spec["name"],
        "element": p["element"],
        "options": options,
        "command": {"type": "attack_ruling", "approach": p["element"]},
    }


def spends(state: dict, role: str, seat: str | None, cid: str) -> dict:
    """The Ki and Fate spends outside an attack the table takes from ``cid`` now.

    After a fight (phase "over") the phones offer only these (issue 20): Ki back from 0 Poise
    or Sanity and the Fate spends are not bound to a fight (rules/000 "Ki", rules/004 "Fate
    Tokens"), but most need something the table checks (a track at 0, a condition to shrug
    off, a roll waiting for its dice). Each command is tried on ``decide``, as the menu's.

    Returns
    -------
    dict
        "ki": the Ki purposes taken; "fate": {spend: [conditions]} for the Fate spends taken
        (the conditions a "shrug off" takes; empty for the others).
    """
    c = state["combatants"].get(cid)
    if c is None:
        return {"ki": [], "fate": {}}
    ki = [
        purpose
        for purpose in fight_rules.KI_PURPOSES
        if try_command(
            state, {"type": "spend_ki", "combatant": cid, "purpose": purpose}, role, seat
        )[1]
        is None
    ]
    fate: dict[str, list[str]] = {}
    for kind in fight_rules.FATE_SPEND_KINDS:
        command = {"type": "spend_fate", "combatant": cid, "spend": kind}
        if kind == "shrug off":
            taken = [
                name
                for name in c["conditions"]
                if try_command(state, {**command, "condition": name}, role, seat)[1] is None
            ]
            if taken:
                fate[kind] = taken
        elif try_command(state, command, role, seat)[1] is None:
            fate[kind] = []
    return {"ki": ki, "fate": fate}
