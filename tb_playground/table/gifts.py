"""Gifts at the table: their Ki cost, their Gift Check, a Gift used as an action ("use_gift").

Rule: RULES.md, Core Roll (Gift Check); rules/000 "Ki"; rules/002 "How Do I Use a Gift?".
Readings where the texts are silent: docs/notes/0015-table-rules.md, "Gifts and scars".
"""

from __future__ import annotations

from functools import lru_cache

from tb_playground.engine.gift_check import gift_check_odds, gift_check_target
from tb_playground.engine.roll_reading import read_core_roll
from tb_playground.engine.validation import require_bool

from . import command_tools as tools
from . import fight_rules
from .command_record import Command, Reader
from .state import combatant_path

#: Fields a "use_gift" command may carry.
USE_GIFT_FIELDS = ("type", "combatant", "gift", "target", "effect", "free", "faces")

#: The round's action a Gift's use takes (rules/000 ~383: one action, unless the Gift says
#: otherwise; the engine's generic one-action entry, allowed in every bracket).
GIFT_ACTION = "small action"

#: Highest Target Number ``read_core_roll`` takes; any TN of 20 or more reads the same.
_READ_TN = 40


def gift_of_attack(c: dict, index: int) -> dict | None:
    """The Gift whose attack is ``c``'s attack ``index``, or None."""
    return next((g for g in c.get("gifts", []) if g["attack"] == index), None)


def cost(c: dict, gift: dict) -> int:
    """Ki a use of ``gift`` costs ``c`` now (Exhausted 4: one more; engine ``ki_spend_cost``)."""
    return fight_rules.ki_cost(gift["ki_cost"], c["exhausted"])


def _cost_words(c: dict, gift: dict) -> str:
    paid = cost(c, gift)
    extra = " (1 more for Exhausted 4)" if paid > gift["ki_cost"] else ""
    return f"{gift['name']} costs {paid}{extra}"


def check_target(state: dict, c: dict, ki: int | None = None) -> int:
    """The Gift Check's TN: current Ki, or Ki + Stamina under the 002 switch (engine)."""
    ki = c["ki"] if ki is None else ki
    plus = bool(state["ruleset"].get("gift_check_ki_plus_stamina"))
    return gift_check_target(max(ki, 0), min(max(c["stamina"], 0), 10), plus)


@lru_cache(maxsize=1024)
def _odds(ki: int, stamina: int, plus: bool) -> dict:
    odds = gift_check_odds(ki, stamina, plus)
    return {
        "tn": gift_check_target(ki, stamina, plus),
        "p_success": odds.p_success,
        "p_critical": odds.p_critical,
        "p_failure": odds.p_failure,
        "p_catastrophe": odds.p_catastrophe,
    }


def check_odds(state: dict, c: dict, ki: int | None = None) -> dict:
    """Exact odds of ``c``'s Gift Check at ``ki`` (default: current Ki): engine ``gift_check``."""
    ki = c["ki"] if ki is None else ki
    plus = bool(state["ruleset"].get("gift_check_ki_plus_stamina"))
    return dict(_odds(max(ki, 0), min(max(c["stamina"], 0), 10), plus))


def _check(state: dict, c: dict, ki: int, command: dict, roll) -> tuple[dict, list, int]:
    """Roll ``c``'s Gift Check at ``ki``: what the log keeps, the changes, Ki afterwards.

    No Advantage or Disadvantage (rules/000 ~229). A kept 20 in a fight also leaves Off
    Balance (rules/000 ~31). A failure loses 1 Ki only under the 002 switch of the Gift Check
    (``gift_check_ki_plus_stamina``): rules/002 line 131 "Fail, and you lose 1 Ki" is that
    text's reading, and 000 line 229 prices no failure (issue 32 item 10); the effect happens
    either way.
    """
    faces, by = tools.faces(command, "faces", 2, roll)
    tn = check_target(state, c, ki)
    reading = read_core_roll(faces, min(tn, _READ_TN), 0)
    costs = bool(state["ruleset"].get("gift_check_ki_plus_stamina"))
    lost = 0 if reading.success or ki <= 0 or not costs else 1
    data = {
        "faces": list(reading.faces),
        "total": reading.total,
        "tn": tn,
        "outcome": reading.outcome,
        "rolled_by": by,
        "ki_lost": lost,
    }
    changes = []
    if reading.outcome == "catastrophe" and state["phase"] != "setup":
        info = fight_rules.condition(
            "Off Balance", state["round"], "next_turn_end", state["up"] == c["id"]
        )
        changes.append([combatant_path(c["id"], "conditions", "Off Balance"), info])
    return data, changes, ki - lost


def attack_events(state: dict, a: dict, index: int, pending: dict) -> list:
    """A Gift attack's cost and Gift Check step, after its "attack_declared" (or nothing).

    Raises ValueError when ``a`` is short of Ki: "Ronan has 0 Ki; Onslaught costs 1".
    """
    gift = gift_of_attack(a, index)
    if gift is None:
        return []
    paid = cost(a, gift)
    boosts = 0
    if pending["timing"] == "before":
        boosts = fight_rules.ki_cost(pending["boosts_before"], a["exhausted"])
    if paid + boosts > a["ki"]:
        also = f", and the boosts named before the roll {boosts} more" if boosts else ""
        raise ValueError(f"attack: {a['name']} has {a['ki']} Ki; {_cost_words(a, gift)}{also}")
    ki = a["ki"] - paid
    changes = [[combatant_path(a["id"], "ki"), ki]] if paid else []
    data = {"combatant": a["id"], "gift": gift["name"], "ki": paid, "ki_after": ki}
    data["target"] = pending["target"]
    if gift["gift_check"]:
        check = {"gift": gift["name"], "then": pending["step"]}
        changes += [[["pending", "gift_check"], check], [["pending", "step"], "gift_check"]]
        data["gift_check_due"] = True
    return [("gift_used", data, changes)]


def check_events(state: dict, p: dict, command: dict, roll) -> list:
    """The pending Gift attack's Gift Check: then on to the to-hit roll, whatever it shows."""
    a = state["combatants"][p["attacker"]]
    data, changes, ki = _check(state, a, a["ki"], command, roll)
    data.update(combatant=a["id"], gift=p["gift_check"]["gift"])
    after = {
        **p,
        "step": p["gift_check"]["then"],
        "gift_check": {**p["gift_check"], "outcome": data["outcome"]},
    }
    if after["timing"] == "before":  # a lost Ki may leave fewer boosts payable
        while (
            after["boosts_before"]
            and fight_rules.ki_cost(after["boosts_before"], a["exhausted"]) > ki
        ):
            after["boosts_before"] -= 1
    changes = [[["pending"], after], *changes]
    if data["ki_lost"]:
        changes.append([combatant_path(a["id"], "ki"), ki])
    return [("gift_check_rolled", data, changes)]


def _pick(c: dict, value: object) -> dict:
    gifts = c.get("gifts", [])
    names = ", ".join(g["name"] for g in gifts) or "none"
    for i, g in enumerate(gifts):
        if value == i or value == g["name"]:
            if not isinstance(value, bool):
                return g
    raise ValueError(f"gift must be the name or index of one of {c['name']}'s Gifts ({names})")


def use_gift(state, command, role, seat, roll) -> list:
    """A Gift that makes no attack, used as an action (rules/000 ~227-229, ~383).

    Fields: "combatant", "gift" (name or index), optional "target", "effect" (what it does, in
    words, for the log), "free" (the Gift's own text says it takes no action) and "faces" (the
    Gift Check's two d10, when typed). Out of a fight (setup) it takes no action; in a fight it
    is the combatant's turn and takes one action unless "free". It pays the Gift's Ki cost and,
    when the Gift asks, rolls the Gift Check at the Ki left.
    """
    c = command.get("combatant")
    if not isinstance(c, str) or c not in state["combatants"]:
        raise ValueError(f"combatant must be the id of a combatant at this table, got {c!r}")
    c = state["combatants"][c]
    if role != "gm" and (role != "player" or seat != c["id"]):
        raise PermissionError("a player may use a Gift only for their own seat")
    gift = _pick(c, command.get("gift"))
    if gift["attacks"]:
        raise ValueError(
            f"gift: {gift['name']} makes an attack: send an attack with attack {gift['attack']}"
        )
    target = command.get("target")
    if target is not None and (not isinstance(target, str) or target not in state["combatants"]):
        raise ValueError(f"target must be the id of a combatant at this table, got {target!r}")
    effect = command.get("effect", "")
    if not isinstance(effect, str) or len(effect) > 500:
        raise ValueError(f"effect must be text of at most 500 characters, got {effect!r}")
    free = require_bool("free", command.get("free", False))
    changes: list = []
    if state["phase"] == "declare":
        raise ValueError("type: in a fight a Gift is used on its user's turn; wait for the reveal")
    if state["phase"] == "resolve":
        if state["up"] != c["id"]:
            raise ValueError(f"combatant: it is not {c['name']}'s turn")
        if state["pending"] is not None:
            raise ValueError("type: finish the attack under way first")
        if not free:
            problem = fight_rules.next_action_problem(state, c, GIFT_ACTION)
            if problem:
                raise ValueError(problem)
            changes += fight_rules.spend_action(c, GIFT_ACTION)
    paid = cost(c, gift)
    if paid > c["ki"]:
        raise ValueError(f"gift: {c['name']} has {c['ki']} Ki; {_cost_words(c, gift)}")
    ki = c["ki"] - paid
    data = {"combatant": c["id"], "gift": gift["name"], "ki": paid, "ki_after": ki}
    data.update(target=target, effect=effect.strip(), free=free)
    if gift["gift_check"]:
        check, more, ki = _check(state, c, ki, command, roll)
        data["check"] = check
        data["ki_after"] = ki
        changes += more
    elif command.get("faces") is not None:
        raise ValueError(f"faces: {gift['name']} asks no Gift Check")
    if ki != c["ki"]:
        changes.append([combatant_path(c["id"], "ki"), ki])
    return [("gift_used", data, changes)]


def card(state: dict, c: dict) -> list[dict]:
    """``c``'s Gifts for its owner's and the GM's view: cost now, affordable, check odds."""
    out = []
    for i, g in enumerate(c.get("gifts", [])):
        paid = cost(c, g)
        entry = {
            "index": i,
            "name": g["name"],
            "level": g["level"],
            "ki_cost": paid,
            "attacks": g["attacks"],
            "attack": g["attack"],
            "gift_check": g["gift_check"],
            "affordable": paid <= c["ki"],
        }
        if g["gift_check"] and paid <= c["ki"]:
            entry["check_odds"] = check_odds(state, c, c["ki"] - paid)
        out.append(entry)
    return out


def _outcome(d: dict) -> str:
    words = {"critical": "a critical", "success": "a success", "failure": "a failure"}
    out = words.get(d["outcome"], "a catastrophic failure")
    by = "" if d["rolled_by"] == "table" else " (physical dice)"
    lost = ", 1 Ki lost" if d["ki_lost"] else ""
    faces = ", ".join(map(str, d["faces"]))
    vs = f" vs TN {d['tn']}" if d.get("tn") is not None else ""
    return f"{faces}, kept {d['total']}{vs}: {out}{lost}{by}"


def _used_text(r: Reader, d: dict) -> str:
    who = r.name(d["combatant"])
    on = f" on {r.name(d['target'])}" if d.get("target") else ""
    text = f"{who} uses {d['gift']}{on} ({d['ki']} Ki)"
    if d.get("check"):
        text += f"; Gift Check: {_outcome(d['check'])}"
    if d.get("gift_check_due"):
        text += "; its Gift Check comes next"
    return text + (f": {d['effect']}." if d.get("effect") else ".")


def _check_text(r: Reader, d: dict) -> str:
    return f"{r.name(d['combatant'])} rolls the Gift Check for {d['gift']}: {_outcome(d)}."


COMMANDS = (
    Command(
        "use_gift",
        use_gift,
        USE_GIFT_FIELDS[1:],
        words={"gift_used": _used_text, "gift_check_rolled": _check_text},
    ),
)
