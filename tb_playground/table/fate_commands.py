"""Fate Tokens at the table: one function per rule, each through the engine's ``fate`` module.

rules/004 "Fate Tokens" (lines ~135-154: the gains, the spends, the caps, Kotodama's cost);
rules/000 "Getting back up", line ~31 (Off Balance); rules/002 "How Does Fate Work?". The
commands: "spend_fate" (every spend), "fate_gain" (a gain: the GM's at once, a player's claim
waits for the GM) and "fate_confirm" (the GM's nod). Readings: docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine import fate
from tb_playground.engine.kotodama import PLAUSIBILITY, kotodama_cost
from tb_playground.engine.validation import require_bool, require_choice, require_int

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Event, Reader
from .state import combatant_path

#: Conditions a Shrug Off clears for good: those of rules/004's table that are set on a
#: character (rules/000 line ~31: "A Fate Token clears" Off Balance).
SHRUG_SET = ("Off Balance", "Surprised", "Distracted", "Flustered")

#: Conditions that follow from a track below 0: a Shrug Off lifts them for the round ("for a
#: moment", rules/004); the track itself stays where it is.
SHRUG_TRACK = ("Humiliated", "Overwhelmed", "Shattered")

#: Why a player may claim a Fate Token (rules/004 lines ~137-143); the GM confirms.
CLAIMS = ("nature", "flaw", "disadvantage")

#: Every gain the GM may give (rules/004): the claims, a Milestone (every PC), the GM's own.
GAINS = (*CLAIMS, "milestone", "gm")

#: Each gain in words (rules/004 "You gain one from").
GAIN_WORDS = {
    "nature": "playing to their Nature when it cost them something",
    "flaw": "a Flaw invoked in the Scene",
    "disadvantage": "taking Disadvantage on a roll by choice",
    "milestone": "a Milestone",
    "gm": "good play",
}


def _spent(c: dict, spent: fate.FateSpend) -> list:
    """The changes every allowed spend makes: tokens and counted spends."""
    if not spent.allowed:
        raise ValueError(f"spend: {spent.reason}")
    return [
        [combatant_path(c["id"], "fate"), spent.tokens_after],
        [combatant_path(c["id"], "fate_counted"), spent.counted_after],
    ]


def _engine(state: dict, c: dict, kind: str, **kwargs) -> fate.FateSpend:
    return fate.fate_spend(
        kind,
        c["fate"],
        c["fate_counted"],
        min(c["stamina"], 10),
        stamina_only=bool(state["ruleset"].get("fate_spends_stamina_only")),
        **kwargs,
    )


def automatic_success(state: dict, c: dict, command: dict) -> tuple[list, dict]:
    """One roll waiting for its dice succeeds outright, no dice (rules/004 line ~147).

    The roll is ``c``'s pending to-hit roll (it goes on to damage, not a critical) or the
    Distracted roll it was asked for (held). ``command["roll"]`` picks one when both wait.
    """
    p = state["pending"]
    waiting = []
    if p is not None and p["step"] == "to_hit" and p["attacker"] == c["id"]:
        waiting.append("to_hit")
    asked = fight_rules.distracted(c)
    if asked is not None and asked["state"] == "asked":
        waiting.append("distracted")
    if not waiting:
        raise ValueError(
            f"spend: no roll of {c['name']}'s waits for its dice; Automatic Success makes "
            "such a roll succeed with no dice (rules/004)"
        )
    which = require_choice("roll", command.get("roll", waiting[0]), tuple(waiting))
    changes = _spent(c, _engine(state, c, "automatic success"))
    if which == "to_hit":
        changes.append([["pending"], {**p, "step": "damage", "critical": False}])
        changes += fight_rules.distracted_spent(c)
        words = "the to-hit roll succeeds, no dice"
    else:
        info = {**asked, "state": "held", "rolled": True, "slow": fight_rules.in_slow_action(c)}
        changes.append([combatant_path(c["id"], "conditions", "Distracted"), info])
        words = "the roll to hold focus succeeds, no dice"
    return changes, {"roll": which, "effect": words}


def shrug_off(state: dict, c: dict, command: dict) -> tuple[list, dict]:
    """Clear a condition for a moment (rules/004 line ~148; rules/002 names Exhausted).

    A set condition of rules/004's table is cleared; a track's condition is lifted for the
    rest of the round; Exhausted loses one level.
    """
    name = command.get("condition")
    states = fight_rules.states(c)
    can = [n for n in SHRUG_SET if n in c["conditions"]]
    can += [n for n in SHRUG_TRACK if n in states]
    if c["exhausted"]:
        can.append("Exhausted")
    if name not in can:
        raise ValueError(
            f"condition: {c['name']} can shrug off {', '.join(can) or 'nothing now'}; a Shrug "
            f"Off clears a condition of rules/004's table (Dying takes Get Back Up; Prone, "
            f"Grabbed and the like end by an action), got {name!r}"
        )
    changes = _spent(c, _engine(state, c, "shrug off", condition=name))
    if name == "Exhausted":
        changes.append([combatant_path(c["id"], "exhausted"), c["exhausted"] - 1])
        words = f"Exhausted {c['exhausted']} -> {c['exhausted'] - 1}"
    elif name in SHRUG_TRACK:
        shrugged = [*c["carried"].get("shrugged", []), name]
        changes.append([combatant_path(c["id"], "carried", "shrugged"), shrugged])
        words = f"{name} is lifted for the rest of the round"
    else:
        changes.append([combatant_path(c["id"], "conditions", name), None])
        words = f"{name} is cleared"
    return changes, {"condition": name, "effect": words}


def kotodama(state: dict, c: dict, command: dict) -> tuple[list, dict]:
    """Assert a fact: Magnitude + Range beyond yourself + Plausibility tokens (rules/004 ~154)."""
    fact = tools.text(command, "fact")
    magnitude = require_int("magnitude", command.get("magnitude"), 0, 20)
    reach = require_int("range", command.get("range", 0), 0, 20)
    plausibility = require_choice(
        "plausibility", command.get("plausibility", "whisper"), tuple(PLAUSIBILITY)
    )
    permanent = require_bool("permanent", command.get("permanent", False))
    cost = kotodama_cost(magnitude, reach, plausibility)
    spent = _engine(state, c, "kotodama", cost=cost)
    changes = _spent(c, spent)
    data = {
        "fact": fact,
        "cost": cost,
        "magnitude": magnitude,
        "range": reach,
        "plausibility": plausibility,
        "permanent": permanent,
        "effect": "; ".join(spent.changes),
    }
    return changes, data


#: The spends with their own rule here; the others go through ``fight_rules.fate_spend``.
SPENDS = {
    "automatic success": automatic_success,
    "shrug off": shrug_off,
    "kotodama": kotodama,
}


def spend_fate(state, command, role, seat, roll) -> list[Event]:
    """Spend Fate Tokens on one thing rules/004 or rules/000 names (``fate.FATE_SPENDS``)."""
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "spend a Fate Token")
    kind = require_choice("spend", command.get("spend"), fight_rules.FATE_SPEND_KINDS)
    data = {"combatant": c["id"], "spend": kind}
    if kind in SPENDS:
        changes, more = SPENDS[kind](state, c, command)
        data.update(more)
    else:
        changes, text = fight_rules.fate_spend(state, c, kind, command.get("condition"))
        data["effect"] = text
    return [("fate_spent", data, changes)]


def _gain(c: dict, n: int = 1) -> tuple[list, fate.FateGain]:
    if c["kind"] != "character" or c["fate_cap"] < 1:
        raise ValueError(f"combatant: {c['name']} holds no Fate Tokens (only characters do)")
    gained = fate.fate_gain(c["fate"], c["fate_cap"], n)
    return [[combatant_path(c["id"], "fate"), gained.tokens_after]], gained


def _voluntary_disadvantage(state: dict, c: dict) -> list:
    """One more Disadvantage source on ``c``'s to-hit roll waiting for its dice (rules/004)."""
    p = state["pending"]
    if p is None or p["step"] != "to_hit" or p["attacker"] != c["id"]:
        raise ValueError(
            "reason: a Disadvantage is taken on a roll waiting for its dice, and no to-hit "
            f"roll of {c['name']}'s waits now"
        )
    label = "Disadvantage taken by choice"
    pending = {
        **p,
        "advantage": p["advantage"] - 1,
        "sources": [*p["sources"], [label, -1]],
    }
    return [[["pending"], pending]]


def fate_gain(state, command, role, seat, roll) -> list[Event]:
    """A Fate Token earned (rules/004 lines ~137-143): the GM's at once, a player's claimed.

    A Milestone gives every character one (GM only). A voluntary Disadvantage is put on the
    pending to-hit roll at once, whoever sends it; a player's token for it, for Nature or for
    a Flaw waits for the GM's "fate_confirm". A Token earned at the cap is lost (engine).
    """
    reason = require_choice("reason", command.get("reason"), GAINS)
    note = tools.text(command, "note", required=False)
    if reason == "milestone":
        tools.gm_only(role, "call a Milestone")
        changes, gains, lost = [], {}, {}
        for cid in state["ids"]:
            c = state["combatants"][cid]
            if c["kind"] == "character" and c["fate_cap"] >= 1:
                more, gained = _gain(c)
                changes += more
                gains[cid], lost[cid] = gained.gained, gained.lost
        data = {"reason": reason, "note": note, "gains": gains, "lost": lost}
        return [("milestone", data, changes)]
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "claim a Fate Token")
    if c["kind"] != "character":
        raise ValueError(f"combatant: {c['name']} holds no Fate Tokens (only characters do)")
    if role != "gm" and reason not in CLAIMS:
        raise PermissionError("only the GM gives a Fate Token for good play or a Milestone")
    changes = _voluntary_disadvantage(state, c) if reason == "disadvantage" else []
    data = {"combatant": c["id"], "reason": reason, "note": note}
    if role == "gm":
        more, gained = _gain(c)
        data.update(gained=gained.gained, lost=gained.lost, effect="; ".join(gained.changes))
        return [("fate_gained", data, changes + more)]
    if c.get("fate_claim"):
        raise ValueError(f"reason: {c['name']}'s earlier claim still waits for the GM")
    claim = {"reason": reason, "note": note, "round": state["round"]}
    return [("fate_claimed", data, [*changes, [combatant_path(c["id"], "fate_claim"), claim]])]


def fate_confirm(state, command, role, seat, roll) -> list[Event]:
    """The GM grants or refuses a player's claimed Fate Token (rules/004: gains)."""
    tools.gm_only(role, "confirm a Fate Token")
    c = tools.combatant(state, command)
    claim = c.get("fate_claim")
    if not claim:
        raise ValueError(f"combatant: {c['name']} has no claim waiting")
    accept = require_bool("accept", command.get("accept"))
    data = {"combatant": c["id"], "reason": claim["reason"], "accepted": accept}
    changes = [[combatant_path(c["id"], "fate_claim"), None]]
    if not accept:
        return [("fate_claim_refused", data, changes)]
    more, gained = _gain(c)
    data.update(gained=gained.gained, lost=gained.lost, effect="; ".join(gained.changes))
    return [("fate_gained", data, changes + more)]


# -- the log's words ----------------------------------------------------------------------------


def _spent_words(r: Reader, d: dict) -> str:
    spend = fate.FATE_SPENDS[d["spend"]].label if d["spend"] in fate.FATE_SPENDS else d["spend"]
    if not r.numbers(d["combatant"]) or not d.get("effect"):
        return f"{r.name(d['combatant'])} spends a Fate Token: {spend}."
    return f"{r.name(d['combatant'])} spends a Fate Token: {spend} ({d['effect']})."


def _gained_words(r: Reader, d: dict) -> str:
    lost = " (lost: already at the most)" if d.get("lost") else ""
    return f"{r.name(d['combatant'])} gains a Fate Token ({d['reason']}){lost}."


COMMANDS = (
    Command(
        "spend_fate",
        spend_fate,
        (
            "combatant",
            "spend",
            "condition",
            "roll",
            "fact",
            "magnitude",
            "range",
            "plausibility",
            "permanent",
        ),
        words={"fate_spent": _spent_words},
        called={"fate_spent": "a Fate Token spent"},
    ),
    Command(
        "fate_gain",
        fate_gain,
        ("combatant", "reason", "note"),
        words={
            "fate_claimed": lambda r, d: (
                f"{r.name(d['combatant'])} claims a Fate Token ({d['reason']}); the GM decides."
            ),
            "fate_gained": _gained_words,
            "milestone": lambda r, d: "A Milestone: every character gains a Fate Token.",
        },
    ),
    Command(
        "fate_confirm",
        fate_confirm,
        ("combatant", "accept"),
        words={
            "fate_claim_refused": lambda r, d: (
                f"The GM refuses {r.name(d['combatant'])}'s Fate Token claim ({d['reason']})."
            )
        },
    ),
)
