"""The night's numbers from the event log (issue 23, item 4).

What each combatant dealt, took, rolled and spent, the luck of every roll, and how long each
turn took.

Rule: RULES.md, Core Roll and Attacks. The luck of a roll is its mid-percentile in the engine's
exact distribution for that roll as it was made: a to-hit roll's kept total in the 2d10 (or 3d10
with Advantage or Disadvantage, as rolled) distribution, lower being luckier (roll-under); a
damage roll's levels before any boost chosen after the dice (``damage_distribution`` of its
pool, wall, critical and Klotho, and the "before" boosts of variant 002), higher being
luckier. ``luck = P(worse) + P(the same) / 2``: 0.5 is an average roll, 1 the best there is.

Counted from the events in force (an undone command counts for nothing). Turn times come from
the events' ``time`` stamps (when each command was committed): a turn runs from the event that
makes a combatant the one up to the event that hands the turn on. Role-aware: a player or a
spectator counts only the events whose log line they may read, and sees a foe's dealt, took and
spent only when the GM shares the foes' numbers (privacy.py's rule).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np

from tb_playground.engine import damage_distribution
from tb_playground.engine.dice import KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, advantage_sign
from tb_playground.formatting import csv_text, percent

from . import privacy, table_log
from .fight_end import VITALS
from .state import apply_changes, fold, initial_state, undone_commands

#: The resources whose drops count as spent.
SPENDS = ("ki", "fate")

#: How many rolls the luckiest and unluckiest lists hold.
EXTREMES = 3

#: The columns of the combatants' CSV, in order.
COMBATANT_COLUMNS = (
    "id", "name", "side",
    *(f"dealt_{v}" for v in VITALS), *(f"took_{v}" for v in VITALS),
    "ki_spent", "fate_spent", "hits", "misses", "criticals", "catastrophes",
    "rounds_acted", "turns", "turn_seconds", "longest_turn_seconds", "rolls", "average_luck",
)  # fmt: skip

#: The columns of the rolls' CSV, in order.
ROLL_COLUMNS = ("seq", "round", "kind", "who", "name", "side", "target", "faces", "result", "luck")


def to_hit_luck(total: int, advantage: int) -> float:
    """The luck of a to-hit (Core Roll) kept ``total``: P(a higher total) + P(the same) / 2.

    Exact in the kept-total counts of ``engine.dice`` for the roll as made (``advantage``: net
    sources, only the sign counts).
    """
    sign = advantage_sign(advantage)
    counts = KEPT_TOTAL_COUNTS[sign]
    at = total - 2
    worse, same = int(counts[at + 1 :].sum()), int(counts[at])
    return float(Fraction(2 * worse + same, 2 * KEPT_TOTAL_DENOMINATOR[sign]))


def levels_luck(levels: int, distribution: np.ndarray) -> float:
    """The luck of ``levels`` in ``distribution`` (P(levels == k)): P(fewer) + P(as many) / 2."""
    return float(distribution[:levels].sum() + distribution[levels] / 2)


def damage_luck(p: dict, levels: int) -> float:
    """The luck of a damage roll of the pending attack ``p`` that made ``levels``.

    The levels before the boosts chosen after the dice (``damage_rolled``'s "levels").
    """
    boosts = p.get("boosts_before", 0) if p["timing"] == "before" else 0
    distribution = damage_distribution(
        p["dice"],
        p["wall"],
        boosts,
        p["bonus"],
        p["timing"],
        p["critical"],
        p["klotho"] if p["critical"] else 0,
    )
    return levels_luck(levels, distribution)


def _blank(c: dict) -> dict:
    return {
        "id": c["id"],
        "name": c["name"],
        "side": c["side"],
        "dealt": dict.fromkeys(VITALS, 0),
        "took": dict.fromkeys(VITALS, 0),
        "spent": dict.fromkeys(SPENDS, 0),
        "hits": 0,
        "misses": 0,
        "criticals": 0,
        "catastrophes": 0,
        "rounds_acted": set(),
        "turn_times": [],
        "lucks": [],
    }


def _touched(event: dict) -> set[str]:
    """The combatants whose Ki or Fate an event's changes set."""
    return {
        path[1]
        for path, _ in event["changes"]
        if path[0] == "combatants" and len(path) == 3 and path[2] in SPENDS
    }


def night_numbers(
    events: list[dict], role: str = "gm", seat: str | None = None, since: str = "night"
) -> dict:
    """The night's numbers of a table's log, as ``role`` (and ``seat``) may see them.

    Parameters
    ----------
    events : list of dict
        The whole log, from its "created" event.
    role, seat : str
        Who reads them (privacy.py's roles).
    since : {"night", "fight"}
        The whole log, or from the last fight's start ("started" event in force).

    Returns
    -------
    dict
        "table", "role", "seat", "since", "events", "rounds"; "combatants" (one row per
        combatant this reader sees, in table order: "dealt" and "took" per track, "spent" Ki
        and Fate, None for a foe whose numbers are not shared; "hits", "misses",
        "criticals", "catastrophes", "rounds_acted", "turns", "turn_seconds",
        "longest_turn_seconds", "rolls", "average_luck"); "rolls" (each to-hit and damage
        roll: "seq", "round", "kind", "who", "name", "side", "target", "faces", "result" (the
        kept total, or the levels), "luck"); "luckiest" and "unluckiest" (``EXTREMES`` rolls
        each); "sides" ({side: {"rolls", "average_luck"}}); "turn_times_from".
    """
    if since not in ("night", "fight"):
        raise ValueError(f"since must be 'night' or 'fight', got {since!r}")
    final = fold(events)
    skip = undone_commands(events)
    live = [e for e in events if e["cmd"] not in skip and e["type"] not in ("undone", "redone")]
    start = 0
    if since == "fight":
        start = max((i for i, e in enumerate(live) if e["type"] == "started"), default=len(live))

    seen = None if role == "gm" else table_log.readable_seqs(final, events, role, seat)

    def readable(event: dict) -> bool:
        return seen is None or event["seq"] in seen

    state = initial_state(live[0]["data"])
    rows: dict[str, dict] = {cid: _blank(c) for cid, c in state["combatants"].items()}
    rolls: list[dict] = []
    turn: tuple[str, float] | None = None  # who is up, since when
    for i, event in enumerate(live[1:], 1):
        cs = state["combatants"]
        before = {cid: {k: cs[cid][k] for k in SPENDS} for cid in _touched(event) if cid in cs}
        pending = state["pending"]
        apply_changes(state, event["changes"])
        if len(rows) < len(state["combatants"]):  # someone joined
            for cid, c in state["combatants"].items():
                rows.setdefault(cid, _blank(c))
        if i < start:
            continue
        now = event.get("time", 0.0)
        up = state["up"]
        if turn is not None and turn[0] != up:  # turns count whoever reads the log
            rows[turn[0]]["turn_times"].append(max(now - turn[1], 0.0))
            turn = None
        if up is not None and turn is None:
            rows[up]["rounds_acted"].add(state["round"])
            turn = (up, now)
        if readable(event):
            _count(event, state, pending, before, rows, rolls, final)
    return _report(final, role, seat, since, events, rows, rolls, seen)


def _count(event, state, pending, before, rows, rolls, final) -> None:
    """Add what one event readable by this reader did to ``rows`` and ``rolls``."""
    d, kind = event["data"], event["type"]
    for cid, was in before.items():
        for what in SPENDS:
            drop = was[what] - state["combatants"][cid][what]
            if drop > 0 or kind == "declared":  # a re-declaration refunds Ki
                rows[cid]["spent"][what] += drop
    if kind == "attack_resolved":
        for vital, n in ((d["vital"], d["taken"]), ("sanity", d.get("sanity_lost", 0))):
            rows[d["attacker"]]["dealt"][vital] += n
            rows[d["target"]]["took"][vital] += n
        if pending is not None and pending.get("automatic"):  # no to-hit roll, yet a hit
            rows[d["attacker"]]["hits"] += 1  # (rules/000: the Nightmare's Cry; issue 31)
    elif kind == "to_hit_rolled" and pending is not None:
        row = rows[d["attacker"]]
        row["hits" if d["outcome"] in ("critical", "success") else "misses"] += 1
        row["criticals"] += d["outcome"] == "critical"
        row["catastrophes"] += d["outcome"] == "catastrophe"
        luck = to_hit_luck(d["total"], pending["advantage"])
        rolls.append(_roll(event, "to-hit", row, final, d["target"], d["total"], luck))
    elif kind == "damage_rolled" and pending is not None:
        luck = damage_luck(pending, d["levels"])
        row = rows[d["attacker"]]
        rolls.append(_roll(event, "damage", row, final, d["target"], d["levels"], luck))


def _roll(event, kind, row, state, target, result, luck) -> dict:
    return {
        "seq": event["seq"],
        "round": event["round"],
        "kind": kind,
        "who": row["id"],
        "name": row["name"],
        "side": row["side"],
        "target": privacy.card_name(state, target),
        "faces": list(event["data"]["faces"]),
        "result": result,
        "luck": round(luck, 12),
    }


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 12) if values else None


def _report(final, role, seat, since, events, rows, rolls, seen=None) -> dict:
    """The numbers; ``seen``: the seqs a non-GM reader may read (None: the GM, every one).

    A reader counts the events and numbers the rolls as their log does (1, 2, ... with no
    gap where an event they may not see was: issue 31), the table's own numbers for the GM.
    """
    shown_rolls = [r for r in rolls if privacy.visible(final, r["who"], role)]
    if seen is not None:
        number = {seq: i for i, seq in enumerate(sorted(seen), 1)}
        shown_rolls = [{**r, "seq": number[r["seq"]]} for r in shown_rolls]
    combatants = []
    for cid in final["ids"]:
        if not privacy.visible(final, cid, role):
            continue
        row = rows[cid]
        numbers = privacy.may_read_numbers(final, cid, role)
        lucks = [r["luck"] for r in shown_rolls if r["who"] == cid]
        times = row["turn_times"]
        combatants.append(
            {
                "id": cid,
                "name": row["name"],
                "side": row["side"],
                "dealt": dict(row["dealt"]) if numbers else None,
                "took": dict(row["took"]) if numbers else None,
                "spent": dict(row["spent"]) if numbers else None,
                "hits": row["hits"],
                "misses": row["misses"],
                "criticals": row["criticals"],
                "catastrophes": row["catastrophes"],
                "rounds_acted": len(row["rounds_acted"]),
                "turns": len(times),
                "turn_seconds": round(sum(times), 3),
                "longest_turn_seconds": round(max(times), 3) if times else None,
                "rolls": len(lucks),
                "average_luck": _mean(lucks),
            }
        )
    sides: dict[str, dict] = {}
    for side in final["sides"]:
        lucks = [r["luck"] for r in shown_rolls if r["side"] == side]
        sides[side] = {"rolls": len(lucks), "average_luck": _mean(lucks)}
    ranked = sorted(shown_rolls, key=lambda r: (-r["luck"], r["seq"]))
    return {
        "table": final["name"],
        "role": role,
        "seat": seat,
        "since": since,
        "events": len(events) if seen is None else len(seen),
        "rounds": final["round"],
        "combatants": combatants,
        "rolls": shown_rolls,
        "luckiest": ranked[:EXTREMES],
        "unluckiest": sorted(shown_rolls, key=lambda r: (r["luck"], r["seq"]))[:EXTREMES],
        "sides": sides,
        "turn_times_from": "the time each command was written to the table (event stamps)",
    }


# -- exports -----------------------------------------------------------------------------------


def to_json(numbers: dict) -> str:
    """The numbers as JSON: sorted keys, two-space indent (the same text for the same log)."""
    return json.dumps(numbers, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _flat(row: dict) -> dict:
    out = {k: row[k] for k in ("id", "name", "side")}
    for group in ("dealt", "took"):
        for v in VITALS:
            out[f"{group}_{v}"] = None if row[group] is None else row[group][v]
    for what in SPENDS:
        out[f"{what}_spent"] = None if row["spent"] is None else row["spent"][what]
    for k in COMBATANT_COLUMNS[len(out) :]:  # the plain counts after the grouped ones
        out[k] = row[k]
    return out


def to_csv(numbers: dict, what: str = "combatants") -> str:
    """One CSV table: "combatants" (``COMBATANT_COLUMNS``) or "rolls" (``ROLL_COLUMNS``).

    An unknown number (a foe's, not shared) is an empty cell; a roll's faces are one cell,
    the faces joined by spaces.
    """
    if what not in ("combatants", "rolls"):
        raise ValueError(f"what must be 'combatants' or 'rolls', got {what!r}")
    if what == "combatants":
        columns, rows = COMBATANT_COLUMNS, [_flat(r) for r in numbers["combatants"]]
    else:
        columns = ROLL_COLUMNS
        rows = [{**r, "faces": " ".join(map(str, r["faces"]))} for r in numbers["rolls"]]
    return csv_text(
        columns, ([("" if row[k] is None else row[k]) for k in columns] for row in rows)
    )


def _cell(text: object) -> str:
    """Text for a Markdown table cell: pipes and line breaks escaped."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _pct(luck: float | None) -> str:
    return percent(luck, 0)


def _n(value: object) -> str:
    return "-" if value is None else str(value)


def _roll_line(r: dict) -> str:
    faces = ", ".join(map(str, r["faces"])) or "none"
    what = f"kept {r['result']}" if r["kind"] == "to-hit" else f"{r['result']} level(s)"
    return (
        f"- {_cell(r['name'])}, round {r['round']}, {r['kind']} against {_cell(r['target'])}: "
        f"{faces} ({what}), luck {_pct(r['luck'])}"
    )


def to_markdown(numbers: dict) -> str:
    """The numbers as Markdown for campaign notes: a table per combatant, the luck, the rolls."""
    title = "The fight's numbers" if numbers["since"] == "fight" else "The night's numbers"
    lines = [
        f"# {title}: {_cell(numbers['table'])}",
        "",
        f"{numbers['events']} events, {numbers['rounds']} round(s).",
        "",
        "| Combatant | Side | Dealt (H/P/S) | Took (H/P/S) | Ki | Fate | Hits | Misses "
        "| Criticals | Catastrophes | Rounds | Turn time | Luck |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in numbers["combatants"]:
        dealt = "-" if r["dealt"] is None else "/".join(str(r["dealt"][v]) for v in VITALS)
        took = "-" if r["took"] is None else "/".join(str(r["took"][v]) for v in VITALS)
        ki = "-" if r["spent"] is None else str(r["spent"]["ki"])
        fate = "-" if r["spent"] is None else str(r["spent"]["fate"])
        lines.append(
            f"| {_cell(r['name'])} | {_cell(r['side'])} | {dealt} | {took} | {ki} | {fate} "
            f"| {r['hits']} | {r['misses']} | {r['criticals']} | {r['catastrophes']} "
            f"| {r['rounds_acted']} | {r['turn_seconds']:.0f} s | {_pct(r['average_luck'])} |"
        )
    lines += ["", "## Luck", ""]
    lines += [
        f"- {_cell(side)}: {s['rolls']} roll(s), average luck {_pct(s['average_luck'])}"
        for side, s in numbers["sides"].items()
    ]
    if numbers["luckiest"]:
        lines += ["", "Luckiest rolls:", "", *map(_roll_line, numbers["luckiest"])]
        lines += ["", "Unluckiest rolls:", "", *map(_roll_line, numbers["unluckiest"])]
    lines += [
        "",
        "Luck is where a roll falls among every way it could have fallen: 50% is an average "
        "roll, 100% the best there is. Turn times: "
        f"{numbers['turn_times_from']}.",
        "",
    ]
    return "\n".join(lines)
