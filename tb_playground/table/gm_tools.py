"""The GM's rolls outside a turn and the chase's controls, as an action menu (issue 20).

The GM calls a group roll (rules/000 "Group Rolls": everyone rolls, at least half succeed and
nobody rolls a 20), starts a chase (rules/001 "Chases": who flees, who pursues, the gap, the
Skill and the route), rules on the route and on where sight breaks, calls the Stealth roll when
sight is broken, and ends a chase. Each entry has the shape of ``menu.menu``'s actions, so the
GM page shows them with the same action panel; each command is tried on the table's own
``decide`` (nothing is changed), so the panel offers exactly what ``Table.apply`` takes and a
refusal is the table's sentence. Readings: docs/notes/0015-table-rules.md, "The chase" and
"Actions of the round".
"""

from __future__ import annotations

from tb_playground.formatting import percent
from tb_playground.models.skills import SKILL_CATALOGUE

from . import chase_phase, fight_rules
from .menu import combatant_option, menu_entry, menu_field, pick_value, try_command

#: The GM panel's groups, in order: (key, heading).
GM_GROUPS = (
    ("together", "Everyone together: a group roll"),
    ("chase", "The chase"),
)

#: Why the group roll is not offered while a round resolves (skill_rolls.group_roll).
GROUP_WAIT = "A group roll waits for the end of the round (before the fight or between rounds)."


def _int(value, default: int, low: int, high: int) -> int:
    """``value`` when it is a whole number (bounded to ``low``..``high``), else ``default``."""
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return min(max(value, low), high)


def _ids(value, options: list, default: list) -> list[str]:
    """The ids of ``value`` still among ``options``, else ``default``."""
    ids = [v for _, v in options]
    if isinstance(value, list | tuple):
        kept = [v for v in value if v in ids]
        if kept or value == []:
            return kept
    return [v for v in default if v in ids]


def _group_roll(state: dict, choices: dict) -> dict:
    cs = state["combatants"]
    able = [
        cs[i] for i in state["ids"] if cs[i]["kind"] == "character" and fight_rules.can_act(cs[i])
    ]
    options = [combatant_option(c) for c in able]
    members = _ids(choices.get("members"), options, [c["id"] for c in able])
    names = sorted({s.name for s in SKILL_CATALOGUE} | {n for c in able for n in c["skills"]})
    skills = [(n, n) for n in names]
    skill = pick_value(choices.get("group_skill"), skills, "Athletics")
    difficulty = _int(choices.get("difficulty"), 5, 0, 10)
    command = {"type": "group_roll", "members": members, "skill": skill}
    command["difficulty"] = difficulty
    tried = try_command(state, command, "gm", None)
    odds, p = "", {}
    if tried[1] is None:
        p = {"p_success": tried[0][0][1]["p_success"]}
        odds = f"the group succeeds {percent(p['p_success'], 0)}"
    fields = [
        menu_field("members", "Who rolls", "multi", members, options),
        menu_field("group_skill", "Skill", "select", skill, skills),
        menu_field(
            "difficulty", "Difficulty (0 hard .. 10 easy)", "int", difficulty, start=0, end=10
        ),
    ]
    shown = "together" if state["phase"] not in ("resolve", "chase") else None
    cost = "no one's action: at least half must succeed, and nobody roll a 20"
    return menu_entry("group roll", "Group roll", shown, cost, fields, command, tried, odds, p)


def _chase_start(state: dict, choices: dict) -> dict:
    cs = state["combatants"]
    able = [cs[i] for i in state["ids"] if fight_rules.can_act(cs[i])]
    options = [combatant_option(c) for c in able]
    foe = next((c["id"] for c in able if c["kind"] != "character"), None)
    quarry = pick_value(choices.get("quarry"), options, foe)
    q_side = cs[quarry]["side"] if quarry else None
    others = [(n, i) for n, i in options if i != quarry]
    chasers = [i for _, i in others if cs[i]["side"] != q_side]
    pursuers = _ids(choices.get("pursuers"), others, chasers)
    metres = _int(choices.get("metres"), 20, 2, 100_000)
    skills = [(s, s) for s in chase_phase.CHASE_SKILLS]
    skill = pick_value(choices.get("chase_skill"), skills, "Athletics")
    harder = _int(choices.get("harder"), 0, 0, 2)
    sight = _int(choices.get("sight_m"), 0, 0, 100_000)
    command = {"type": "chase_start", "quarry": quarry, "pursuers": pursuers, "metres": metres}
    command.update(skill=skill, harder=harder)
    if sight:
        command["sight_m"] = sight
    fields = [
        menu_field("quarry", "Who flees", "select", quarry, options),
        menu_field("pursuers", "Who gives chase", "multi", pursuers, others),
        menu_field("metres", "Gap in metres", "int", metres, start=2, end=100_000),
        menu_field("chase_skill", "Skill they run with", "select", skill, skills),
        menu_field("harder", "Route: steps harder (0..2)", "int", harder, start=0, end=2),
        menu_field(
            "sight_m", "Sight breaks past (m; 0: I'll say)", "int", sight, start=0, end=100_000
        ),
    ]
    tried = try_command(state, command, "gm", None)
    shown = "chase" if state["phase"] in chase_phase.FROM_PHASES and not state["pending"] else None
    cost = "no one's action: the fight waits while everyone runs, round by round"
    return menu_entry("chase start", "Start a chase", shown, cost, fields, command, tried)


def _chase_ruling(state: dict, choices: dict) -> dict:
    chase = state["chase"]
    harder = _int(choices.get("harder"), chase["harder"], 0, 2)
    sight = _int(choices.get("sight_m"), chase["sight_m"] or 0, 0, 100_000)
    broken = bool(choices.get("broken", False))
    command: dict = {"type": "chase_ruling"}
    if harder != chase["harder"]:
        command["harder"] = harder
    if sight != (chase["sight_m"] or 0):
        command["sight_m"] = sight or None
    if broken:
        command["broken"] = True
    fields = [
        menu_field("harder", "Route: steps harder (0..2)", "int", harder, start=0, end=2),
        menu_field(
            "sight_m", "Sight breaks past (m; 0: I'll say)", "int", sight, start=0, end=100_000
        ),
        menu_field("broken", "Sight is broken now", "bool", broken),
    ]
    tried = try_command(state, command, "gm", None)
    cost = "nothing: no one rolls"
    return menu_entry("chase ruling", "Rule on the chase", "chase", cost, fields, command, tried)


def _chase_search(state: dict, choices: dict) -> dict:
    chase = state["chase"]
    cs = state["combatants"]
    searching = [combatant_option(cs[i]) for i in sorted(chase["searching"])]
    pid = pick_value(choices.get("pursuer"), searching)
    q = cs[chase["quarry"]]
    command: dict = {"type": "chase_search", "pursuer": pid}
    fields = [menu_field("pursuer", "Who lost sight", "select", pid, searching)]
    p = cs.get(pid) if pid else None
    if p is not None and p["kind"] != "character" and q["kind"] != "character":
        lost = bool(choices.get("lost", False))
        fields.append(menu_field("lost", "The quarry got away", "bool", lost))
        command["lost"] = lost
    elif p is not None:
        difficulty = _int(choices.get("difficulty"), 5, 0, 10)
        fields.append(
            menu_field("difficulty", "Difficulty (0 hard .. 10 easy)", "int", difficulty, end=10)
        )
        command["difficulty"] = difficulty
        mine = "Stealth"
        if q["kind"] != "character":
            skills = [(s, s) for s in chase_phase.SEARCH_SKILLS]
            mine = pick_value(choices.get("search_skill"), skills, "Perception")
            fields.append(menu_field("search_skill", "They search with", "select", mine, skills))
            command["skill"] = mine
        card = q if q["kind"] != "character" else p
        if card["kind"] != "character":
            numbers = card.get("static_numbers", {})  # its Stealth, or its Perception
            number = numbers.get("Stealth" if card is q else "Perception", numbers.get(mine, 5))
            static = _int(choices.get("static"), number, 0, 10)
            label = f"{card['name']}'s card number"
            fields.append(menu_field("static", label, "int", static, start=0, end=10))
            command["static"] = static
    tried = try_command(state, command, "gm", None)
    odds, pp = "", {}
    if tried[1] is None and "p_actor_wins" in tried[0][0][1]:
        data = tried[0][0][1]
        quarry_wins = data["p_actor_wins"] if data["actor"] == q["id"] else 1 - data["p_actor_wins"]
        pp = {"p_quarry_wins": quarry_wins}
        odds = f"the quarry slips away {percent(quarry_wins, 0)}"
    shown = "chase" if searching else None
    cost = "no one's action: the quarry hides, the pursuer searches"
    return menu_entry("chase search", "Stealth roll", shown, cost, fields, command, tried, odds, pp)


def gm_menu(state: dict, choices: dict | None = None) -> dict:
    """The GM's group roll and chase controls now, in the shape of ``menu.menu``.

    Parameters
    ----------
    state : dict
        The table's full state (the GM sees everyone, hidden ones too).
    choices : dict, optional
        What the GM picked so far, by field name ("members", "group_skill", "difficulty",
        "quarry", "pursuers", "metres", "chase_skill", "harder", "sight_m", "broken",
        "pursuer", "search_skill", "static", "lost").

    Returns
    -------
    dict
        The keys of ``menu.menu`` ("actor" is "gm", "open" whether any control is offered)
        plus "head" (the panel's heading) and "end_turn" (False: no turn ends here).
    """
    choices = dict(choices or {})
    actions = [_group_roll(state, choices)]
    if state["phase"] == "chase" and state.get("chase"):
        actions += [_chase_search(state, choices), _chase_ruling(state, choices)]
        command = {"type": "chase_end"}
        tried = try_command(state, command, "gm", None)
        back = "the fight" if state["chase"]["back"] != "setup" else "the Scene"
        cost = f"nothing: back to {back}"
        actions.append(menu_entry("chase end", "End the chase", "chase", cost, [], command, tried))
    else:
        actions.append(_chase_start(state, choices))
    shown = [a for a in actions if a["group"] is not None]
    return {
        "actor": "gm",
        "name": "GM",
        "head": "Group rolls and chases",
        "end_turn": False,
        "open": bool(shown),
        "why": "" if shown else GROUP_WAIT,
        "bracket": None,
        "words": "The GM calls these; no one's turn is spent.",
        "chips": [],
        "left": None,
        "phase": state["phase"],
        "groups": [list(g) for g in GM_GROUPS],
        "actions": actions,
    }
