"""The actions of the round that are not a roll (``act``, ``ready_fired``): each a command.

Study a Target, Reckless, Full Defense, Belly Down, Stand up, Recover, Reload, Ready, Help...,
each through the round's budget (``engine/round_budget.py``). Rule: rules/000 "Action Brackets";
rules/001 "Actions". Readings: docs/notes/0015-table-rules.md, "Actions of the round".
"""

from __future__ import annotations

from tb_playground.engine import ACTIONS
from tb_playground.engine.validation import require_choice

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Reader
from .help_action import help_command
from .state import combatant_path

#: The actions ``act`` takes (engine keys), with the fields each one reads.
ACT_FIELDS = {
    "study": ("target",),
    "reckless": (),
    "full defense": (),
    "belly down": (),
    "stand up": (),
    "recover from prone": (),
    "reload": ("reload",),
    "reload tube": (),
    "small action": ("what",),
    "ready": ("trigger", "what"),
    "help": ("ally", "target"),
}

#: How a weapon reloads (rules/001 "Combat Actions", Reload): the action it costs.
RELOADS = {"magazine": "reload", "tube": "reload tube", "quiver": None}

#: Actions that are rolls now, with the command that makes them.
ROLLED = {
    "skill": "skill_roll (name the Skill and the Difficulty)",
    "escape": "escape (an opposed roll against the one holding you)",
}

_EFFECTS = {
    "study": "next round's Called Shot at {target} rolls with Advantage",
    "reckless": "Advantage on {name}'s attacks this round; attacks against {name} gain it too",
    "full defense": "{name} can't attack this round; attacks against {name} at Disadvantage "
    "and {name}'s Defense drops by 4",
    "belly down": "ranged attacks against {name} at Disadvantage; Melee by and against as "
    "rules/001 says",
    "stand up": "{name} is up from Belly Down",
    "recover from prone": "{name} is no longer Prone",
    "reload": "{name} reloads",
    "reload tube": "{name} reloads the tube",
    "small action": "{name}: {what}",
    "ready": "{name} holds an action until: {trigger}",
}


#: Actions that hold for the rest of the round once taken (rules/001 "Combat Actions": Reckless
#: gives Advantage "this round", Full Defense lasts the round and leaves "your other action" for
#: a move): a second in the same round changes nothing, so the table refuses it in these words.
ONCE_A_ROUND = {
    "reckless": (
        "{name} is already Reckless this round: the Advantage on their attacks (and on attacks "
        "against them) lasts to the end of the round, so a second changes nothing (rules/001 "
        '"Combat Actions"). Attack, or take another action.'
    ),
    "full defense": (
        "{name} is already on Full Defense this round: it lasts to the end of the round, so a "
        'second would spend the other action for nothing (rules/001 "Combat Actions": your '
        "other action can still be a move). Move, or end the turn."
    ),
}


def act(state, command, role, seat, roll) -> list:
    """One action of the round that is not a roll or a move (see the module docstring)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "act")
    action = command.get("action")
    if isinstance(action, str) and action in ROLLED:
        raise ValueError(
            f"{ACTIONS[action].label} is a roll now: send {ROLLED[action]} instead of act."
        )
    action = require_choice("action", action, tuple(ACT_FIELDS))
    if action == "help":  # Help names the ally it helps (rules/000 "Helping"): help_action.py
        ally = command.get("ally", command.get("target"))
        asked = {"type": "help", "combatant": c["id"], "ally": ally}
        return help_command(state, asked, role, seat, roll)
    tools.on_turn(state, c, "act")
    if action in ONCE_A_ROUND and action in c["actions"]:
        raise ValueError(ONCE_A_ROUND[action].format(name=c["name"]))
    key = action
    if action == "reload":
        how = require_choice("reload", command.get("reload", "magazine"), tuple(RELOADS))
        key = RELOADS[how]
    changes = [] if key is None else tools.budget(state, c, key)
    data = {"combatant": c["id"], "action": action}
    words = {"name": c["name"]}
    if action == "study":
        t = tools.combatant(state, command, "target")
        if t["id"] == c["id"]:
            raise ValueError("target must be another combatant: Study a Target studies a foe")
        changes.append([combatant_path(c["id"], "carried", "studying"), t["id"]])
        data["target"] = words["target"] = t["id"]
        words["target"] = t["name"]
    if action == "ready":
        trigger = _words(command, "trigger")
        what = _words(command, "what", required=False)
        changes.append(
            [
                combatant_path(c["id"], "carried", "ready"),
                {"trigger": trigger, "what": what, "fired": False},
            ]
        )
        data.update(trigger=trigger, what=what)
        words["trigger"] = trigger
    if action == "small action":
        words["what"] = data["what"] = _words(command, "what", required=False) or "a small action"
    if action == "reload":
        data["reload"] = command.get("reload", "magazine")
    changes += fight_rules.action_effects(c, key or "reload")
    data["effect"] = _EFFECTS[action].format(**words)
    return [("acted", data, changes)]


def _words(command: dict, field: str, required: bool = True) -> str:
    value = command.get(field, "" if not required else None)
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 500:
        raise ValueError(
            f"{field} must be words (1..500 characters), e.g. "
            '"when it comes through the door", got ' + repr(value)
        )
    return value.strip()


def ready_fired(state, command, role, seat, roll) -> list:
    """The trigger of a Ready action happened: its holder acts now (rules/001 "Ready").

    The GM says so (the trigger is in words; the GM judges it). The holder becomes the one
    acting, with room for exactly the one held action; their "end_turn" gives the turn back
    to whoever was acting.
    """
    tools.gm_only(role, "say that a Ready action's trigger happened")
    c = tools.combatant(state, command)
    ready = c["carried"].get("ready")
    if not ready or ready.get("fired"):
        raise ValueError(
            f'{c["name"]} holds no Ready action this round (rules/001 "Ready": one action, '
            "held for a trigger you name). Nothing to resolve."
        )
    if state["phase"] != "resolve" or state["pending"] is not None:
        raise ValueError(
            "A Ready action resolves between actions: finish the attack under way first."
        )
    if state["up"] == c["id"]:
        raise ValueError(f"It is already {c['name']}'s turn: take the action now.")
    actions = list(c["actions"])
    if fight_rules.next_action_problem(state, c, "small action") and "ready" in actions:
        actions.remove("ready")  # the held action's slot is free again, and only it
    changes = [
        [combatant_path(c["id"], "carried", "ready"), {**ready, "fired": True}],
        [combatant_path(c["id"], "carried", "resume"), state["up"]],
        [combatant_path(c["id"], "actions"), actions],
        [["up"], c["id"]],
    ]
    data = {"combatant": c["id"], "trigger": ready["trigger"], "interrupts": state["up"]}
    return [("ready_fired", data, changes)]


def resume_events(state: dict, c: dict) -> list:
    """The end of a fired Ready action: the turn goes back to whoever it interrupted."""
    back = c["carried"]["resume"]
    changes = [[combatant_path(c["id"], "carried", "resume"), None], [["up"], back]]
    return [("turn_ended", {"combatant": c["id"], "next": back, "ready": True}, changes)]


# -- the log's words ----------------------------------------------------------------------------


def _acted(r: Reader, d: dict) -> str:
    target = f" ({r.name(d['target'])})" if d.get("target") else ""
    return f"{r.name(d['combatant'])}: {d['action'].capitalize()}{target}."


def _ready_fired(r: Reader, d: dict) -> str:
    return f"{r.name(d['combatant'])}'s Ready action fires ({d.get('trigger') or 'its trigger'})."


COMMANDS = (
    Command(
        "act",
        act,
        ("combatant", "action", *sorted({f for v in ACT_FIELDS.values() for f in v})),
        words={"acted": _acted},
    ),
    Command("ready_fired", ready_fired, ("combatant",), words={"ready_fired": _ready_fired}),
)
