"""HTML for the combat pages, written from a table view (``Table.view_for``). No maths here.

Every piece of text from the view (names, attacks, notes, log lines) goes through ``escape``:
names and notes are typed by people, and nothing one of them types may reach another page as
HTML. Numbers are formatted with ``format.percent``. The panes' stylesheet is
``views/css/combat.css`` (``kit.COMBAT_CSS``).
"""

from __future__ import annotations

import re

from tb_playground.formatting import advantage_words, empowered_words, escape, percent, plural
from tb_playground.table.errors import ConflictError

UNTIL_WORDS = {
    "round": "this round",
    "next_turn_end": "to the end of their next turn",
    "scene": "this Scene",
    "rest": "until a rest",
    "manual": "until cleared",
}

PHASE_WORDS = {
    "setup": "setting up",
    "declare": "declaring brackets",
    "resolve": "resolving the round",
    "over": "the fight is over",
    "chase": "a chase",
}


def counter(view: dict) -> str:
    """The line every page shows: "round N · event M" (M: the events this reader has seen)."""
    return f"round {view['round']} · event {view.get('events_seen', view['version'])}"


def names(view: dict) -> dict[str, str]:
    """Combatant id to name, for what this view shows."""
    return {c["id"]: c["name"] for c in view["combatants"]}


def track(label: str, now: int, top: int) -> str:
    """A vital as a row of boxes: full, lost, and each level below 0 shaded."""
    boxes = [
        f'<span class="box {"full" if i <= now else "lost"}"></span>' for i in range(1, top + 1)
    ]
    boxes += ['<span class="box neg"></span>'] * max(-now, 0)
    return (
        f'<div class="track"><span class="lbl">{escape(label)}</span>{"".join(boxes)}'
        f'<span class="num">{now}/{top}</span></div>'
    )


def ki_pips(ki: dict) -> str:
    """Ki as pips: filled for what is left."""
    top = max(ki["pool"], ki["now"])
    pips = "".join(f'<span class="pip{" on" if i < ki["now"] else ""}"></span>' for i in range(top))
    return (
        f'<div class="track"><span class="lbl">Ki</span>{pips}'
        f'<span class="num">{ki["now"]}/{ki["pool"]}</span></div>'
    )


def chips(c: dict) -> str:
    """Conditions with their durations, and the states the tracks put on."""
    out = []
    for cond in c["conditions"]:
        until = UNTIL_WORDS.get(cond["until"], cond["until"])
        out.append(f'<span class="chip">{escape(cond["name"])} · {escape(until)}</span>')
    out += [f'<span class="chip state">{escape(s)}</span>' for s in c.get("states") or []]
    return "".join(out)


#: What each declared bracket gives, in words (RULES.md "Combat round").
BRACKET_ACTIONS = {"fast": "1 action", "normal": "2 actions", "slow": "1 empowered action"}


def bracket_chip(c: dict, phase: str) -> str:
    """What a card says of the bracket: the bracket, "declared" or "waiting".

    A bumped bracket says what the bump does (issue 31): it acts in the band it was bumped
    to and keeps the actions of the bracket declared ("A bumped action keeps everything it
    was", 000:379): "Normal +1 bump: acts in the Fast band with Normal's 2 actions".
    """
    if c["bracket"]:
        band = c.get("band")
        bumps = c.get("bumps") or 0
        bracket = c["bracket"]
        text = bracket.capitalize()
        if bumps:
            text += f" +{bumps} bump{'s' if bumps > 1 else ''}"
        if band and band != bracket:
            actions = BRACKET_ACTIONS.get(bracket)
            keeps = f" with {bracket.capitalize()}'s {actions}" if actions else ""
            text += f": acts in the {band.capitalize()} band{keeps}"
        return f'<span class="chip bracket">{escape(text)}</span>'
    if phase == "declare":
        word = "declared" if c["declared"] else "not declared yet"
        return f'<span class="chip bracket">{word}</span>'
    return ""


def card(c: dict, phase: str) -> str:
    """One combatant: name, side, bracket, vitals, Ki, Fate, conditions."""
    classes = ["card"]
    if c["up"]:
        classes.append("up")
    if c["out"]:
        classes.append("out")
    if c.get("hidden"):
        classes.append("hidden-c")
    meta = [escape(c["side"])]
    if c["initiative"] is not None:
        meta.append(f"Initiative {c['initiative']}")
    if c.get("hidden"):
        meta.append("hidden from the players")
    if c["you"]:
        meta.append("you")
    head = (
        f'<div class="name">{"▶ " if c["up"] else ""}{escape(c["name"])}</div>'
        f'<div class="meta">{" · ".join(meta)}</div>'
    )
    body = [bracket_chip(c, phase)]
    if c["vitals"] is not None:
        for vital, v in c["vitals"].items():
            body.append(track(vital.capitalize(), v["now"], v["max"]))
        if c["ki"] and c["ki"]["pool"]:
            body.append(ki_pips(c["ki"]))
        if c["fate"] and (c["fate"]["tokens"] or c["fate"]["cap"]):
            body.append(
                f'<div class="meta">Fate Tokens: {"★" * c["fate"]["tokens"] or "none"}</div>'
            )
    else:
        body.append(f'<div class="label-foe">{escape(c["label"].capitalize())}</div>')
    body.append(f"<div>{chips(c)}</div>")
    return (
        f'<div class="{" ".join(classes)}" data-id="{escape(c["id"])}">{head}{"".join(body)}</div>'
    )


def order_line(view: dict) -> str:
    """The band order with who is up (or the Initiative order before the reveal)."""
    who = names(view)
    acted = {c["id"] for c in view["combatants"] if c["acted"]}
    ids = view["order"] or view["initiative_order"]
    if not ids:
        return '<div class="order"><span>no order yet</span></div>'
    title = "Turn order" if view["order"] else "Initiative order"
    bands = {c["id"]: c.get("band") for c in view["combatants"]}
    parts = []
    for cid in ids:
        cls = "up" if cid == view["up"] else ("done" if cid in acted else "")
        band = f" ({bands[cid].capitalize()})" if view["order"] and bands.get(cid) else ""
        parts.append(f'<span class="{cls}">{escape(who.get(cid, cid))}{escape(band)}</span>')
    return f'<div class="status">{title}:</div><div class="order">{"".join(parts)}</div>'


def declaration_status(view: dict) -> str:
    """Who has declared (never what), during the declare phase.

    With no one in sight left to declare it waits for the GM: to reveal, or for a combatant
    this reader may not see (never "nobody", which would tell one is there: issue 20).
    """
    if view["phase"] != "declare":
        return ""
    done = [c["name"] for c in view["combatants"] if c["declared"]]
    waiting = [c["name"] for c in view["combatants"] if not c["declared"] and c["can_act"]]
    wait = f"Waiting for: {escape(', '.join(waiting))}." if waiting else "Waiting for the GM."
    return f'<div class="status">Declared: {escape(", ".join(done) or "nobody yet")}. {wait}</div>'


def log(view: dict, last: int = 60) -> str:
    """The event log, newest first; a line the GM undid is struck through (and says so)."""
    rows = []
    for e in reversed(view["log"][-last:]):
        text = escape(e["text"])
        if e.get("undone"):
            rows.append(
                f'<div class="undone"><span class="seq">{e["seq"]}</span><del>{text}</del>'
                '<span class="tag">undone</span></div>'
            )
        else:
            rows.append(f'<div><span class="seq">{e["seq"]}</span>{text}</div>')
    return f'<div class="log">{"".join(rows)}</div>'


def _short_percent(p: float) -> str:
    """A bar's percentage, whole above 1% ("27%"), else "<1%" or "0"."""
    return "0" if p <= 0 else percent(p, 0)


def _spent(row: dict) -> str:
    parts = []
    for key, word in (("ki", "Ki"), ("fate", "Fate")):
        if row["spent"][key]:
            parts.append(f"{word} {row['spent'][key]}")
    return ", ".join(parts) or "nothing"


def _levels(by_vital: dict) -> str:
    parts = [f"{k.capitalize()} {v}" for k, v in by_vital.items() if v]
    return ", ".join(parts) or "none"


def fight_over(view: dict) -> str:
    """The "Fight over" card: who won, in which round, and what each one dealt, took and spent.

    From the view's ``fight_over`` (``table/fight_end.py``'s summary, hidden combatants left
    out; a row whose numbers this reader may not see says so instead of numbers).
    """
    over = view.get("fight_over")
    if not over:
        return ""
    winner = over["winner"]
    said = f"{escape(winner)} win" if winner else "No side is left able to act"
    rows = []
    for r in over["summary"]:
        status = "" if r["able"] else ' <span class="meta">(down)</span>'
        if r["dealt"] is None:
            cells = '<td colspan="3" class="meta">their numbers stay with the GM</td>'
        else:
            cells = (
                f"<td>{escape(_levels(r['dealt']))}</td><td>{escape(_levels(r['took']))}</td>"
                f"<td>{escape(_spent(r))}</td>"
            )
        rows.append(f"<tr><td><b>{escape(r['name'])}</b>{status}</td>{cells}</tr>")
    table = (
        '<table class="att fo-table"><tr><th>Who</th><th>Dealt</th><th>Took</th>'
        f"<th>Spent</th></tr>{''.join(rows)}</table>"
        if rows
        else ""
    )
    return (
        '<div class="fight-over"><div class="fo-head">Fight over</div>'
        f"<div>{said} (round {over['round']}).</div>{table}</div>"
    )


def bars(levels: list[float]) -> str:
    """P(levels == k) as a row of bars: each with its percentage above its count of levels."""
    top = max(levels) if levels and max(levels) > 0 else 1.0
    cols = "".join(
        f'<div class="bar" title="{plural(k, "level")}: {percent(p)}" '
        f'style="height:{max(100 * p / top, 0.5):.1f}%"></div>'
        for k, p in enumerate(levels)
    )
    pcts = "".join(f"<span>{_short_percent(p)}</span>" for p in levels)
    labels = "".join(f"<span>{k}</span>" for k in range(len(levels)))
    return (
        f'<div class="barpct">{pcts}</div><div class="bars">{cols}</div>'
        f'<div class="barlbl">{labels}</div><div class="axis">levels dealt (chance above)</div>'
    )


def dice_row(odds: dict) -> str:
    """The damage dice against the wall; each die a boost lifts over is flagged."""
    dice = odds.get("dice") or []
    if not dice:
        return ""
    cells = []
    for i, d in enumerate(dice):
        lift = '<span class="lift">a boost lifts it over</span>' if d["boost_lifts"] else ""
        if d.get("boosted"):
            lift = '<span class="boosted">boosted</span>'
        cls = "over" if d["over"] else "under"
        cells.append(f'<div class="die {cls}" title="die {i + 1}">{d["face"]}{lift}</div>')
    wall = f"the wall of {odds['wall']}" if odds.get("wall") is not None else "the target's wall"
    return f'<div>Against {wall}:</div><div class="dice">{"".join(cells)}</div>'


#: Each step of an attack under way in words (issue 31: never a code name such as
#: "gift_check"); a step without words here reads as ``STEP_UNKNOWN``.
STEP_WORDS = {
    "approach": "the GM confirms the attack's approach",
    "gift_check": "the Gift Check next",
    "to_hit": "to-hit roll next",
    "damage": "damage roll next",
    "boost": "the attacker may boost dice with Ki",
    "prevent": "the target may prevent levels with Ki",
    "settle": "the GM settles the hit",
}
STEP_UNKNOWN = "the attack goes on"


def armor_html(p: dict, who: dict[str, str]) -> str:
    """The armor in the way of a pending attack, before the roll (issue 31; rules/002 155).

    The item and its Zone always (it is worn in plain sight); its Hardness and levels when the
    reader may read the target's numbers (the odds carry them then).
    """
    armor = p.get("armor")
    if not armor:
        return ""
    target = escape(who.get(p["target"], "the target"))
    item = f"{target}'s {escape(armor['name'])} ({escape(armor['zone'])})"
    known = (p.get("odds") or {}).get("armor")
    if known:
        rule = (
            f"each die must beat its Hardness {known['hardness']}; it loses at most one level "
            f"an attack ({plural(known['levels'], 'level')} left)"
        )
    else:
        rule = "each die must beat its Hardness; it loses at most one level an attack"
    return (
        f'<div class="meta armor">Armor in the way: {item}: {rule}. '
        f"{target} takes nothing while it holds.</div>"
    )


def down_words(vital: str | None) -> str:
    """What "down" means for the attacked track, in words ("Target's Sanity at 0 or below").

    An attack's odds give the chance its track (Health, Poise or Sanity) ends at 0 or below
    (``table.odds``; RULES.md "Vitals"): the words name the track, so a Sanity hit does not
    read as the target dropping (issue 31).
    """
    return f"Target's {vital.capitalize()} at 0 or below" if vital else "Target down"


def pending(view: dict) -> str:
    """The attack under way: who, what, the step, and the exact odds of what is still to come."""
    p = view["pending"]
    if p is None:
        return ""
    if p.get("unseen"):  # hit by someone hidden from this reader (table/reader_view.py)
        return (
            f"<div><b>Someone unseen</b> hits you: {plural(p['levels'] or 0, 'level')} of "
            f"{escape(p['vital'].capitalize())} coming.</div>"
        )
    who = names(view)
    critical = " <b>Critical hit!</b>" if p["critical"] else ""
    slow = empowered_words(p.get("empowered"), p.get("zone"))  # the Called Shot named (issue 31)
    slow = f", {escape(slow)}" if slow else ""
    head = (
        f"<div><b>{escape(who.get(p['attacker'], '?'))}</b> attacks "
        f"<b>{escape(who.get(p['target'], '?'))}</b> with {escape(p['attack'])}{slow} "
        f"({escape(p['kind'])}, against {escape(p['vital'].capitalize())}).{critical}</div>"
        f'<div class="status">Step: {escape(STEP_WORDS.get(p["step"], STEP_UNKNOWN))}.</div>'
    )
    extra = []
    if p["tn"] is not None:
        extra.append(f"TN {p['tn']}")
    if p.get("chance"):  # the chance in words only (the GM's switch, issue 31)
        extra.append(f"chance to hit: {escape(p['chance'])}")
    advantage = advantage_words(p["advantage"], p["sources"])  # binary (issue 31)
    if advantage:
        extra.append(escape(advantage))
    if p["faces"]:
        extra.append("dice " + ", ".join(map(str, p["faces"])))
    if p["step"] == "prevent" and p.get("levels") is not None:
        extra.append(f"{plural(p['levels'], 'level')} coming")
    parts = [head, f'<div class="meta">{" · ".join(extra)}</div>' if extra else ""]
    parts.append(armor_html(p, who))
    odds = p.get("odds")
    if odds and "levels" in odds:
        items = []
        if "p_hit" in odds:
            items.append(f"<span>Hit <b class='p-hit'>{percent(odds['p_hit'])}</b></span>")
            items.append(f"<span>Critical <b>{percent(odds['p_critical'])}</b></span>")
        armor = p.get("armor")
        if armor:  # the wearer loses nothing while it holds: the armor's odds instead
            if "p_armor_loses" in odds:
                items.append(
                    f"<span>{escape(armor['name'])} loses a level "
                    f"<b class='p-armor'>{percent(odds['p_armor_loses'])}</b></span>"
                )
        else:
            items.append(f"<span>Expected levels <b>{odds['expected_levels']:.2f}</b></span>")
        items.append(
            f"<span>{escape(down_words(p['vital']))} after this attack "
            f"<b class='p-down'>{percent(odds['p_down'])}</b></span>"
        )
        parts.append(f'<div class="odds">{"".join(items)}</div>')
        if p["step"] in ("to_hit", "damage") and not p.get("armor"):
            parts.append("<div class='meta'>Levels this attack deals:</div>" + bars(odds["levels"]))
        parts.append(dice_row(odds))
    return "".join(parts)


def attack_table(previews: list[dict], who: dict[str, str]) -> str:
    """The seat's attacks with their odds against each visible target."""
    rows = []
    for a in previews:
        for t in a["targets"]:
            name = escape(who.get(t["target"], t["target"]))
            if "refused" in t:
                cells = f'<td colspan="3">{escape(t["refused"])}</td>'
            elif "chance" in t:  # in words only (the GM's switch, issue 31)
                cells = f'<td colspan="3">{escape(t["chance"])}</td>'
            else:
                cells = (
                    f"<td>{percent(t['p_hit'])}</td><td>{t['expected_levels']:.1f}</td>"
                    f"<td>{percent(t['p_down'])}</td>"
                )
            rows.append(f"<tr><td>{escape(a['name'])}</td><td>{name}</td>{cells}</tr>")
    if not rows:
        return ""
    return (
        '<table class="att"><tr><th>Attack</th><th>Target</th><th>Hit</th><th>Levels</th>'
        f"<th>Down</th></tr>{''.join(rows)}</table>"
    )


def ranges(view: dict) -> str:
    """The range bands the GM has set between pairs (rules/000 "Map or No Map")."""
    who = names(view)
    items = [
        f"<span>{escape(who.get(r['a'], '?'))} – {escape(who.get(r['b'], '?'))}: "
        f"{escape(r['band'].capitalize())}</span>"
        for r in view.get("ranges") or []
    ]
    if not items:
        return ""
    return f'<div class="status">Ranges:</div><div class="order">{"".join(items)}</div>'


def unique_labels(combatants: list[dict], suffix=lambda c: "") -> dict[str, str]:
    """Label -> id for a Select: each combatant's name (and ``suffix``), as on its card.

    The table numbers combatants of the same name when it makes them ("Guard dog 2"), so the
    names differ. A table made before that may hold two of one name: those take the number at
    the end of their id ("guard-dog-2" -> "Guard dog 2", else 1), which stays put whoever
    declares or goes down.
    """
    names = [c["name"] for c in combatants]
    out: dict[str, str] = {}
    for c in combatants:
        name = c["name"]
        if names.count(name) > 1:
            tail = c["id"].rsplit("-", 1)[-1]
            name = f"{name} {tail if tail.isdigit() else 1}"
        label, n = name + suffix(c), 1
        while label in out:  # only if ids and names both collide: never drop an option
            n += 1
            label = f"{name} ({n}){suffix(c)}"
        out[label] = c["id"]
    return out


# -- refusals in plain words (issue 20) ---------------------------------------------------------
#
# The table's refusals name the field first, for programmers ("metres: ...", "faces[1] must be
# from 1 to 10, got 12"; issue 21 keeps them so). A page shows them through ``refusal_words``,
# which turns each into a sentence a player understands: what was wrong, the rule's name where
# the table gave it, and what to do instead. No field name, Python value or class name remains.

#: What each field a table command carries is called on a page.
FIELD_WORDS = {
    "a": "the first combatant",
    "b": "the second combatant",
    "actor": "the one acting",
    "resister": "the one resisting",
    "leader": "the leader",
    "ally": "the ally",
    "attacker": "the attacker",
    "target": "the target",
    "combatant": "the combatant",
    "members": "the group",
    "helpers": "the helpers",
    "attack": "the attack",
    "bracket": "the bracket",
    "bumps": "the Ki bumps",
    "ki": "the Ki",
    "dice": "the dice picked",
    "faces": "the dice",
    "metres": "the metres",
    "band": "the range band",
    "field": "what to change",
    "value": "the value",
    "spend": "the Fate spend",
    "reason": "the reason",
    "purpose": "what the Ki is for",
    "condition": "the condition",
    "action": "the action",
    "gift": "the Gift",
    "scar": "the scar",
    "zone": "the armor's place",
    "levels": "the levels",
    "initiative": "the Initiative die",
    "option": "the table option",
    "approach": "the approach",
    "difficulty": "the Difficulty",
    "document": "the file",
    "type": "the command",
}

_PHASES = {
    "setup": "before the fight starts",
    "declare": "while brackets are declared",
    "resolve": "while the round is played out",
    "over": "once the fight is over",
}

_NOW = {
    "setup": "still being set up",
    "declare": "declaring brackets",
    "resolve": "playing out the round",
    "over": "done: the fight is over",
}

_FIELD = r"(?P<field>[a-z][a-z0-9_]*)(?:\[(?P<index>\d+)\])?"


def _field_words(field: str, index: str | None = None) -> str:
    """A field as a page calls it ("faces", "1" -> "die 2 of the dice")."""
    words = FIELD_WORDS.get(field, "the " + field.replace("_", " "))
    if index is not None:
        return f"item {int(index) + 1} of {words}"
    return words


def _choices(text: str) -> str:
    """The quoted choices in ``text`` as words: fast, normal or slow."""
    items = [m.group(1) or m.group(2) for m in re.finditer(r"'([^']*)'|\"([^\"]*)\"", text)]
    items = [i.replace("_", " ") for i in items]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    done = text[-1] in ".!?" or (text[-1] in ')"' and text[-2] in '.!?"')
    return text if done else text + "."


def _plain(message: str) -> str:  # noqa: PLR0911 - one case a return
    """The table's ValueError message as a sentence (see ``refusal_words``)."""
    m = re.fullmatch(
        r"type: this command belongs to the (\w+) phase; the table is in the (\w+) phase", message
    )
    if m:
        can, now = _PHASES.get(m[1], m[1]), _NOW.get(m[2], m[2])
        return f"That can be done only {can}; the table is {now}."
    if re.match(r"type must be one of ", message):
        return "The table does not know that command: reload the page and try again."
    if re.match(_FIELD + r": the table does not know the field", message):
        return (
            "The page sent something the table does not take, so nothing changed: "
            "reload the page and try again."
        )
    m = re.fullmatch(_FIELD + r" must be (?:the|an?) id of (?:a|one) combatant.*", message, re.S)
    if m:
        who = _field_words(m["field"], m["index"])
        return f"Pick {who} from the list: that one is not at this table."
    m = re.fullmatch(_FIELD + r" must be another combatant than (?:the )?(\w+)", message)
    if m:
        return f"Pick two different people: {_field_words(m['field'])} and {_field_words(m[3])}."
    m = re.fullmatch(_FIELD + r" must be a list of distinct combatant ids.*", message, re.S)
    if m:
        return f"Pick {_field_words(m['field'])} from the list, each one once."
    m = re.fullmatch(_FIELD + r" must map a member's id to the faces they threw", message)
    if m:
        return "Type the dice each member of the group threw."
    m = re.fullmatch(_FIELD + r" must be one of (\(.*\)|\[.*\]), got .*", message, re.S)
    if m:
        choices = _choices(m.group(3))
        tail = f": {choices}" if choices else ""
        return f"Pick {_field_words(m['field'], m['index'])} from the choices offered{tail}."
    m = re.fullmatch(_FIELD + r" must be (?:a whole number )?from (-?\d+) to (-?\d+), got .*",
                     message, re.S)  # fmt: skip
    if m:
        low, high = m.group(3), m.group(4)
        what = _field_words(m["field"], m["index"])
        if m["field"] == "faces" and m["index"] is not None:
            what = f"die {int(m['index']) + 1}"
        if low == high:
            return f"{_sentence(what)[:-1]} can only be {low} here."
        return f"{_sentence(what)[:-1]} must be a whole number from {low} to {high}."
    m = re.fullmatch(_FIELD + r" must be a list of (\d+) d10 faces.*", message, re.S)
    if m:
        n = int(m.group(3))
        return f"Type {n} d10 face{'s' if n != 1 else ''}, each a whole number from 1 to 10."
    m = re.fullmatch(r"condition must be one (.+) has \((.*)\)", message, re.S)
    if m:
        if m[2] == "none":
            return f"{m[1]} has no condition to clear."
        return f"Pick one of the conditions {m[1]} has: {m[2]}."
    m = re.fullmatch(r"scar must be the index of one of (.+)'s 0 mark\(s\).*", message, re.S)
    if m:
        return f"{m[1]} has no marks or scars to pick."
    m = re.fullmatch(_FIELD + r" must hold (.*?)(?:, got .*)?", message, re.S)
    if m:
        if m["field"].endswith("faces"):
            return f"Type {m[3]}, each a whole number from 1 to 10."
        return _sentence(f"{_field_words(m['field'])} must hold {m[3]}")
    m = re.fullmatch(_FIELD + r" must be True or False.*", message, re.S)
    if m:
        return f"Choose yes or no for {_field_words(m['field'])}."
    m = re.fullmatch(_FIELD + r" must be (.*?)(?:, got .*)?", message, re.S)
    if m:
        rest = m.group(3).replace("the id of ", "").replace("combatant ids", "combatants")
        rest = re.sub(r"the name or index of (one of)", r"\1", rest)
        rest = re.sub(r"the index of (one of)", r"\1", rest)
        return _sentence(f"{_field_words(m['field'], m['index'])} must be {rest}")
    m = re.fullmatch(_FIELD + r": (.*)", message, re.S)
    if m:
        message = m.group(3)
    return _sentence(re.sub(r", got .*$", "", message, flags=re.S))  # no Python value shown


#: What a page says when the table refused something in a form it cannot read at all.
UNREADABLE = (
    "The table could not read that command, so nothing changed: reload the page and try again."
)


def refusal_words(error: BaseException) -> str:
    """The sentence a page shows for a command the table refused (issue 20, "plain words").

    The table's messages name the field for programmers ("metres: A Fast round holds 1 action;
    this plan takes 2.", "faces[1] must be from 1 to 10, got 12"). This keeps what the table
    says about the rules (their names, "rules/000 ..."; what to do instead) and drops the field
    names, Python values and class names: "A Fast round holds 1 action; this plan takes 2.",
    "Die 2 must be a whole number from 1 to 10."

    Parameters
    ----------
    error : BaseException
        What ``Table.apply`` raised: a ConflictError (the table moved on), a PermissionError
        (not this role's to do), a ValueError (refused by the rules or the form); anything
        else reads as a command the table could not read.

    Returns
    -------
    str
        Plain text (escape it for HTML).
    """
    if isinstance(error, ConflictError):
        told = [t.rstrip(".") for t in error.since[-5:]]
        since = "; ".join(told) if told else "nothing you can see"
        return f"The table moved on while you looked (since then: {since}). Look again and retry."
    if isinstance(error, PermissionError):
        return f"Not allowed: {str(error).rstrip('.')}."
    if isinstance(error, ValueError):
        return _plain(str(error))
    return UNREADABLE
