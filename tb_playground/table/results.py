"""What the last roll did, for the line every page shows at the top for a few seconds.

Rule: RULES.md, Attacks (the to-hit roll's outcome, the damage dice's levels) and Vitals (what
the target loses). Who sees what follows the log's rule (``table_log``, ``privacy``): an event
naming someone hidden is not shown, a foe's TN only with its numbers; the one exception is the
target of a hidden attacker, who is hit by "someone unseen" (issue 20) and sees what it costs
them.
"""

from __future__ import annotations

from collections.abc import Callable

from tb_playground.formatting import plural

from .armor_at_table import beat_words, hit_words, worn_name

#: The events of a roll, and the words of a to-hit outcome.
ROLLS = (
    "to_hit_rolled",
    "damage_rolled",
    "boosted",
    "armor_hit",
    "attack_resolved",
    "distracted_rolled",
)
OUTCOMES = {
    "critical": "Hit, critical!",
    "success": "Hit",
    "failure": "Miss",
    "catastrophe": "Catastrophe",
}

#: How a hidden attacker is named to the one it hits.
UNSEEN = "someone unseen"


def _ids(d: dict) -> list[str]:
    return [d[k] for k in ("attacker", "target", "combatant") if isinstance(d.get(k), str)]


def unseen_target(state: dict, event: dict, role: str, seat: str | None, visible) -> bool:
    """Whether ``event`` is a hit on the seat by a combatant hidden from it."""
    d = event["data"]
    return (
        role == "player"
        and seat is not None
        and d.get("target") == seat
        and isinstance(d.get("attacker"), str)
        and not visible(d["attacker"])
    )


def unseen_line(state: dict, event: dict, role: str, seat: str | None, visible) -> str | None:
    """The seat's log line for a hit by someone hidden from it, or None for any other event."""
    if not unseen_target(state, event, role, seat, visible):
        return None
    d = event["data"]
    if event["type"] == "awaiting_prevention":
        return (
            f"{UNSEEN.capitalize()} hits you: you may spend Ki to prevent up to "
            f"{plural(d['levels'], 'level')}."
        )
    if event["type"] == "attack_resolved":
        return f"{UNSEEN.capitalize()} hits you: {loses(d, 'you', True)}"
    return None


def loses(d: dict, who: str, numbers: bool) -> str:
    """What an "attack_resolved" event ``d`` did to ``who`` ("you": the target's own line).

    Its numbers (before and after) only when ``numbers``; never "loses 0".
    """
    vital = d["vital"].capitalize()
    you = who == "you"
    if not d["taken"]:
        if d["prevented"]:
            return f"{who} {'prevent' if you else 'prevents'} it all with Ki."
        return f"{who} {'take' if you else 'takes'} no damage."
    verb = "lose" if you else "loses"
    kept = ""
    if d["prevented"]:
        kept = f" ({d['prevented']} prevented with Ki)" if numbers else " (some prevented with Ki)"
    now = f": {d['before']} -> {d['after']}" if numbers else ""
    return f"{who} {verb} {d['taken']} {vital}{kept}{now}."


def _line(state: dict, event: dict, name: Callable, tn_ok: Callable, numbers: Callable) -> dict:
    """One roll event as {"dice", "text"} (names already visible)."""
    d, kind = event["data"], event["type"]
    if kind == "to_hit_rolled":
        vs = f" vs TN {d['tn']}" if d["tn"] is not None and tn_ok(d) else ""
        return {
            "dice": list(d["faces"]),
            "text": f"{name(d['attacker'])} rolls to hit, kept {d['total']}{vs}: "
            f"{OUTCOMES.get(d['outcome'], d['outcome'])}",
            "outcome": OUTCOMES.get(d["outcome"], d["outcome"]),
        }
    if kind == "damage_rolled" and d.get("armor"):  # against armor (issue 31: name it)
        hit = "Hit, critical!" if d.get("critical") else "Hit"
        worn = worn_name(state, d["target"], d["armor"])
        beat = f": {beat_words(d['levels'])}" if numbers(d["target"]) else ""
        return {
            "dice": list(d["faces"]),
            "text": f"{name(d['attacker'])} rolls damage: {hit}, against "
            f"{name(d['target'])}'s {worn}{beat}",
            "outcome": "",
        }
    if kind == "armor_hit":
        return {
            "dice": [],
            "text": hit_words(name(d["target"]), d, numbers(d["target"])).rstrip("."),
            "outcome": "",
        }
    if kind == "damage_rolled":
        hit = "Hit, critical!" if d.get("critical") else "Hit,"
        auto = f" ({d['automatic']} outright)" if d["automatic"] else ""
        levels = plural(d["levels"], "level")
        return {
            "dice": list(d["faces"]),
            "text": f"{name(d['attacker'])} rolls damage{auto}: {hit} {levels}",
            "outcome": f"{hit} {levels}",
        }
    if kind == "boosted":
        levels = plural(d["levels"], "level")
        dice = plural(len(d["dice"]), "die", "dice")
        did = f"boosts {dice}" if d["dice"] else "keeps the dice as rolled"
        return {
            "dice": [],
            "text": f"{name(d['attacker'])} {did}: {levels}",
            "outcome": levels,
        }
    if kind == "attack_resolved":
        text = loses(d, name(d["target"]), numbers(d["target"]))
        return {"dice": [], "text": text.rstrip("."), "outcome": ""}
    held = d["outcome"] in ("critical", "success")
    return {
        "dice": list(d["faces"]),
        "text": f"{name(d['combatant'])} rolls to hold focus (Distracted): "
        f"{'holds' if held else 'loses focus'}",
        "outcome": "Holds" if held else "Loses focus",
    }


def last_result(
    state: dict,
    events: list[dict],
    role: str,
    seat: str | None,
    visible: Callable[[str], bool],
    numbers: Callable[[str | None], bool],
) -> dict | None:
    """The rolls of the last command, as this reader may see them, or None.

    Returns
    -------
    dict or None
        "seq" (the command's first event: a new result, a new number), "lines" (each with
        its "dice", its "text" and its "outcome" words).
    """
    if not events:
        return None
    cmd = events[-1]["cmd"]
    mine = []
    for event in reversed(events):
        if event["cmd"] != cmd:
            break
        mine.append(event)
    mine.reverse()
    lines = []

    def name(cid: str) -> str:
        c = state["combatants"].get(cid)
        return c["name"] if c else cid

    def tn_ok(d: dict) -> bool:
        return numbers(d.get("target")) or seat in (d.get("attacker"), d.get("target"))

    for event in mine:
        if event["type"] not in ROLLS:
            continue
        if all(visible(cid) for cid in _ids(event["data"])):
            lines.append(_line(state, event, name, tn_ok, numbers))
        elif event["type"] == "attack_resolved" and unseen_target(
            state, event, role, seat, visible
        ):
            text = unseen_line(state, event, role, seat, visible)
            lines.append({"dice": [], "text": text.rstrip("."), "outcome": ""})
    if not lines:
        return None
    return {"seq": mine[0]["seq"], "lines": lines}
