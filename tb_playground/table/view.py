"""What each person at the table may see: ``view_for(state, events, role, seat)``.

The GM sees everything but the seed; players and spectators see no hidden combatant, no other
seat's bracket before the reveal, foes' numbers only as labels unless shared. Plain text that
every page escapes. Notes: docs/notes/0008-table.md.
"""

from __future__ import annotations

from bisect import bisect_left

from tb_playground.engine import FATE_SPENDS
from tb_playground.engine.character_stats import vital_conditions
from tb_playground.formatting import dice_text, plural

from . import chase_phase, fight_end, gifts, log_words, results, scars
from .attack_options import attack_log_text, attack_view
from .odds import pending_odds
from .rules import SETTABLE_WORDS, can_act, declare_cost, distracted, ki_cost, movement_rate
from .state import undo_stack

#: How many log entries a view carries (newest last).
LOG_LENGTH = 200

#: Keys of an event's data that name combatants (lists under ``members`` and ``pursuers``).
_ID_KEYS = (
    "attacker", "target", "combatant", "a", "b", "next", "leader", "ally",
    "actor", "resister", "holder", "card", "surprised", "pursuer", "quarry",
)  # fmt: skip

#: Foe labels from Health (rules/004: a label instead of numbers).
LABELS = ("unhurt", "hurt", "bloodied", "down")


def label(c: dict) -> str:
    """unhurt, hurt, bloodied (at or under half Health) or down (0 or below, or out)."""
    now, top = c["now"]["health"], c["max"]["health"]
    if c["out"] or now <= 0:
        return "down"
    if now >= top:
        return "unhurt"
    return "hurt" if 2 * now > top else "bloodied"


def _sees_all(role: str) -> bool:
    return role == "gm"


def _visible(state: dict, cid: str, role: str) -> bool:
    """Whether ``role`` sees ``cid``; one no longer at the table (undone) only the GM."""
    if _sees_all(role):
        return True
    c = state["combatants"].get(cid)
    return c is not None and not c["hidden"]


def _unseen(state: dict, value: object, role: str) -> bool:
    """Whether ``value`` is the id of a combatant ``role`` may not see."""
    return (
        isinstance(value, str) and value in state["combatants"] and not _visible(state, value, role)
    )


def _foe(state: dict, c: dict) -> bool:
    return c["side"] != state["party_side"]


def _states(c: dict) -> list[str]:
    dead = c["now"]["health"] <= c["dead_at"]
    now = c["now"]
    found = vital_conditions(now["health"], now["poise"], now["sanity"], dead)
    if c["out"] and "Out of the fight" not in found:
        found.append("Out of the fight")
    if c["exhausted"]:
        found.append(f"Exhausted {c['exhausted']}")
    return found


def _combatant(state: dict, c: dict, role: str, seat: str | None) -> dict:
    numbers = _sees_all(role) or state["share_foes"] or not _foe(state, c)
    revealed = state["phase"] == "resolve" and c["band"] is not None
    mine = role == "player" and seat == c["id"]
    led = c["carried"].get("led_by")
    sees_bracket = _sees_all(role) or mine or revealed
    out = {
        "id": c["id"],
        "name": _name(state, c["id"], role),
        "side": c["side"],
        "kind": c["kind"],
        "foe": _foe(state, c),
        "you": mine,
        "initiative": c["initiative"]["total"] if c["initiative"] else None,
        "declared": c["bracket"] is not None,
        "bracket": c["bracket"] if sees_bracket else None,
        "bumps": c["bumps"] if sees_bracket else None,
        "band": c["band"] if revealed or _sees_all(role) else None,
        "acted": c["acted"],
        "up": state["up"] == c["id"] and state["phase"] != "over",  # no one is up once over
        "can_act": can_act(c),
        "out": c["out"],
        "label": label(c),
        "conditions": [
            {"name": k, "until": v["until"], "to_roll": k == "Distracted" and not v.get("rolled")}
            for k, v in c["conditions"].items()
        ],
        "states": _states(c) if numbers else [],
        "distracted": _distracted(c),
        "led_by": None if _unseen(state, led, role) else led,
        "vitals": None,
        "ki": None,
        "fate": None,
        "defense": None,
        "wall": None,
        "attacks": None,
    }
    if numbers:
        out["vitals"] = {v: {"now": c["now"][v], "max": c["max"][v]} for v in c["now"]}
        ki = c["ki"]
        if c["bracket"] and c["bumps"] and not sees_bracket:  # paid now, told at the reveal
            ki += declare_cost(c, c["bumps"])
        out["ki"] = {"now": ki, "pool": c["ki_pool"]}
        out["fate"] = {"tokens": c["fate"], "cap": c["fate_cap"]}
        out["defense"] = dict(c["defense"])
        out["wall"] = dict(c["wall"])
        out["movement_rate"] = movement_rate(c)
    if _sees_all(role) or mine:
        out["attacks"] = [
            {"index": i, "name": a["name"], "kind": a["kind"], "dice": a["dice"]}
            for i, a in enumerate(c["attacks"])
        ]
        out["actions"] = list(c["actions"])
        out["metres"] = c["metres"]
        out["carried"] = {  # "resume": whose turn a Ready broke into, maybe a hidden one's
            k: v for k, v in c["carried"].items() if not _unseen(state, v, role)
        }
        out["fate_claim"] = c.get("fate_claim") or None
        out["gifts"] = gifts.card(state, c)
    if _sees_all(role):
        out["hidden"] = c["hidden"]
    out["scars"] = scars.card(c)
    return out


def _distracted(c: dict) -> dict | None:
    """The Distracted roll's state (asked, held, failed) and Difficulty, or None."""
    info = distracted(c)
    if info is None:
        return None
    return {
        "state": info["state"],
        "difficulty": info.get("difficulty"),
        "slow": bool(info.get("slow")),
        "spent": bool(info.get("spent")),
    }


def _combatant_for(state: dict, c: dict, role: str, seat: str | None, shared: dict | None) -> dict:
    """``_combatant``, shared between the non-GM views in which ``c`` is not the seat."""
    if shared is None or _sees_all(role) or (role == "player" and seat == c["id"]):
        return _combatant(state, c, role, seat)
    made = shared.get(c["id"])
    if made is None:
        made = shared[c["id"]] = _combatant(state, c, "spectator", None)
    return made


def _ids_in(data: dict) -> list[str]:
    found = [data[k] for k in _ID_KEYS if isinstance(data.get(k), str)]
    for key in ("members", "pursuers"):  # a group roll's members; a chase's pursuers
        if isinstance(data.get(key), list):
            found += [m for m in data[key] if isinstance(m, str)]
    return found


def _numbers(state: dict, cid: str | None, role: str) -> bool:
    """Whether ``role`` may read ``cid``'s numbers (the cards' rule: a foe's only if shared)."""
    c = state["combatants"].get(cid) if cid else None
    return _sees_all(role) or state["share_foes"] or c is None or not _foe(state, c)


def _name(state: dict, cid: str, role: str = "gm") -> str:
    """``cid``'s name as its card shows it: two of one name (an old table) take their number.

    A table numbers combatants of the same name when it makes them ("Guard dog 2"); one made
    before that may hold two "Guard dog"s: each then takes the number at the end of its id
    ("guard-dog-2" -> "Guard dog 2", else 1), as the pages' selects do. Only the combatants
    ``role`` sees count, so a hidden namesake changes no name.
    """
    c = state["combatants"].get(cid)
    if c is None:
        return cid
    same = 0
    for other in state["combatants"].values():
        if other["name"] == c["name"] and _visible(state, other["id"], role):
            same += 1
    if same < 2:
        return c["name"]
    tail = cid.rsplit("-", 1)[-1]
    return f"{c['name']} {tail if tail.isdigit() else 1}"


class _Look:
    """One reader's eye on the log: who reads, who was hidden when, how they number events.

    ``after[i]`` holds the ids hidden right after ``events[i]`` (``_timeline``): an event that
    named a combatant hidden then stays out of the log once it is shown (issue 20). ``seen``
    holds the seqs of the events this reader sees so far (a non-GM reader numbers them 1, 2,
    ... with no gap where a hidden event was; the GM sees all and numbers them by seq).
    """

    __slots__ = ("state", "role", "seat", "events", "after", "seen", "_names")

    def __init__(self, state, role, seat, events, after, seen):
        self.state, self.role, self.seat = state, role, seat
        self.events, self.after, self.seen = events, after, seen
        self._names: dict[str, str] = {}

    def visible(self, cid: str, event: dict) -> bool:
        """Whether this reader sees ``cid`` now and saw it when ``event`` happened."""
        if _sees_all(self.role):
            return True
        if not _visible(self.state, cid, self.role):
            return False
        i = event["seq"] - 1
        return i >= len(self.after) or cid not in self.after[i]

    def name(self, cid: str) -> str:
        found = self._names.get(cid)
        if found is None:
            found = self._names[cid] = _name(self.state, cid, self.role)
        return found

    def number(self, seq: int) -> int | None:
        """The number this reader knows the event ``seq`` by (None if they never saw it)."""
        if _sees_all(self.role):
            return seq
        i = bisect_left(self.seen, seq)
        return i + 1 if i < len(self.seen) and self.seen[i] == seq else None


def _hidden_changes(event: dict) -> list[tuple[str, bool]]:
    """(id, hidden) for each combatant ``event`` hides, shows or adds."""
    out = []
    for path, value in event["changes"]:
        if path and path[0] == "combatants":
            if len(path) == 3 and path[2] == "hidden":
                out.append((path[1], bool(value)))
            elif len(path) == 2 and isinstance(value, dict):
                out.append((path[1], bool(value.get("hidden"))))
    return out


def _timeline(events: list[dict], cache: dict | None) -> tuple[list, frozenset]:
    """(the ids hidden right after each event, the commands undone now).

    Hiding, showing and adding are folded as they happened, an undo or redo of one of them
    taken into account from that moment on. ``cache["hidden timeline"]`` keeps the fold so far
    (the log only grows); a later call adds the new events only.
    """
    made = None
    if cache is not None:
        try:
            made = cache["hidden timeline"]
        except KeyError:
            pass
    if made is None or made[0] > len(events):
        made = (0, [], (), frozenset(), frozenset(), frozenset())
    count, after, marks, first, now, undone = made
    if count == len(events):
        return after, undone
    after = list(after)
    for event in events[count:]:
        kind = event["type"]
        if kind == "created":
            first = now = frozenset(r["id"] for r in event["data"]["combatants"] if r.get("hidden"))
        elif kind in ("undone", "redone"):
            cmd = event["data"]["command"]
            undone = undone | {cmd} if kind == "undone" else undone - {cmd}
            if any(m[0] == cmd for m in marks):
                hidden = set(first)
                for mcmd, changes in marks:
                    if mcmd not in undone:
                        for cid, on in changes:
                            (hidden.add if on else hidden.discard)(cid)
                now = frozenset(hidden)
        else:
            changes = _hidden_changes(event)
            if changes:
                marks = (*marks, (event["cmd"], tuple(changes)))
                hidden = set(now)
                for cid, on in changes:
                    (hidden.add if on else hidden.discard)(cid)
                now = frozenset(hidden)
        after.append(now)
    if cache is not None:
        cache["hidden timeline"] = (len(events), after, marks, first, now, undone)
    return after, undone


def _attack_numbers(state: dict, d: dict, role: str, seat: str | None) -> bool:
    """Whether ``role`` may read the TN and odds of the attack of ``d`` (attacker, target).

    The GM, the attacker and the target always; everyone when the GM shares the foes' numbers
    or when no foe is in it. A foe's attack on another player shows without them (issue 20).
    """
    if _sees_all(role) or state["share_foes"] or seat in (d.get("attacker"), d.get("target")):
        return True
    for key in ("attacker", "target"):
        c = state["combatants"].get(d.get(key)) if d.get(key) else None
        if c is not None and _foe(state, c):
            return False
    return True


#: What an undo or redo line calls the event it names (plain words; else the type's words).
EVENT_WORDS = {
    "attack_declared": "an attack",
    "to_hit_rolled": "a to-hit roll",
    "damage_rolled": "a damage roll",
    "attack_resolved": "the damage taken",
    "declared": "a declaration",
    "value_set": "a change of values",
    "added": "a combatant joining",
    "ki_spent": "a Ki spend",
    "fate_spent": "a Fate Token spent",
    "turn_ended": "the end of a turn",
    "round_ended": "the end of a round",
    "revealed": "the reveal",
    "shared": "the foes' numbers shared or hidden",
    "hidden": "a combatant hidden",
    "shown": "a combatant shown",
    "condition_set": "a condition set",
    "condition_cleared": "a condition cleared",
}


def _text(look: _Look, event: dict) -> str | None:
    """One log line, or None when this person may not see the event.

    An undo or redo shows only when each event of the command it names does.
    """
    text = _event_text(look, event)
    if text is None:  # hit by someone hidden: the target still sees what it cost them
        text = results.unseen_line(
            look.state, event, look.role, look.seat, lambda c: look.visible(c, event)
        )
    if text is not None and event["type"] in ("undone", "redone") and not _sees_all(look.role):
        cmd, events = event["data"]["command"], look.events
        j = cmd - 1  # a command's events follow one another from the seq of its first
        while 0 <= j < len(events) and events[j]["cmd"] == cmd:
            if events[j]["type"] not in ("undone", "redone"):
                if _event_text(look, events[j]) is None:
                    return None
            j += 1
    if text is not None and event["data"].get("scars"):  # marks and scars it left (scars.py)
        said = scars.scars_said(event["data"], look.name, lambda cid: look.visible(cid, event))
        text = f"{text} {said}" if said else text
    return text


def _event_text(look: _Look, event: dict) -> str | None:  # noqa: C901
    """One event's own log line, or None when this person may not see the event."""
    state, role, seat = look.state, look.role, look.seat
    d, kind = event["data"], event["type"]
    for cid in _ids_in(d):
        if not look.visible(cid, event):
            return None
    n = look.name
    shown = lambda ids: ", ".join(n(i) for i in ids if look.visible(i, event))  # noqa: E731
    if kind in ("attack_declared", "to_hit_rolled", "attack_ruled") and (
        not _attack_numbers(state, d, role, seat)
    ):
        d = {**d, "tn": None}  # the TN tells the foe's Defense or Element: the cards' rule
    if "tn" in d and not (
        _numbers(state, d.get("target"), role) or seat in (d.get("attacker"), d.get("target"))
    ):
        d = {**d, "tn": None}  # a foe's TN tells its Defense: the cards' rule
    if kind == "gift_check_rolled" and not _numbers(state, d["combatant"], role):
        d = {**d, "tn": None}  # from the foe's Ki and Stamina
    mine = attack_log_text(d, kind, n, shown)
    if mine is not None:
        return mine
    if kind == "created":
        return f"Table {d['name']} set up for {d['encounter']}."
    if kind == "started":
        return f"The fight starts. Initiative order: {shown(d['order'])}."
    if kind == "declared":
        if _sees_all(role) or seat == d["combatant"]:
            bumps = f", bumped {d['bumps']}" if d["bumps"] else ""
            return f"{n(d['combatant'])} declared {d['bracket'].capitalize()}{bumps}."
        return f"{n(d['combatant'])} declared."
    if kind == "revealed":
        parts = [
            f"{n(c)} {b.capitalize()}" for c, b in d["bands"].items() if look.visible(c, event)
        ]
        return "Brackets revealed: " + "; ".join(parts) + "."
    if kind == "turn_ended":
        nxt = d["next"]
        return f"{n(d['combatant'])} ends their turn." + (f" {n(nxt)} is up." if nxt else "")
    if kind == "round_ended":
        return f"Round {d['round']} ends."
    if kind == "attack_declared":
        el = f" with {d['element']}" if d["element"] else ""
        line = f"{n(d['attacker'])} attacks {n(d['target'])}: {d['attack']}{el}{_tn(d)}."
        if d.get("dropped"):
            line += f" Distracted: the {d['dropped'].title()} drops to a plain attack."
        return line
    if kind in ("to_hit_rolled", "distracted_rolled", "shake_off_rolled"):
        who = n(d.get("attacker") or d.get("combatant"))
        what = {
            "to_hit_rolled": f"to hit {n(d['target'])}" if d.get("target") else "to hit",
            "distracted_rolled": "to hold focus (Distracted)",
            "shake_off_rolled": "Presence to shake off Flustered",
        }[kind]
        faces = ", ".join(map(str, d["faces"]))
        words = {"critical": "a critical", "success": "a success", "failure": "a failure"}
        out = words.get(d["outcome"], "a catastrophic failure")
        by = "" if d["rolled_by"] == "table" else " (physical dice)"
        vs = f" vs TN {d['tn']}" if d["tn"] is not None else ""
        return f"{who} rolls {what}: {faces}, kept {d['total']}{vs}: {out}{by}."
    if kind == "damage_rolled":
        faces = ", ".join(map(str, d["faces"])) or "none"
        auto = f" ({d['automatic']} connect outright)" if d["automatic"] else ""
        levels = plural(d["levels"], "level")
        return f"{n(d['attacker'])} rolls damage: {faces}{auto}: {levels} so far."
    if kind == "boosted":
        if not d["dice"]:  # "Keep the dice as rolled" (issue 20), never "boosts 0 dice"
            return f"{n(d['attacker'])} keeps the dice as rolled: {plural(d['levels'], 'level')}."
        ki = f"for {d['ki']} Ki" if _numbers(state, d["attacker"], role) else "with Ki"
        boosted = f"{dice_text(len(d['dice']))} {ki}"
        return f"{n(d['attacker'])} boosts {boosted}: {plural(d['levels'], 'level')}."
    if kind == "awaiting_prevention":
        return f"{n(d['target'])} may spend Ki to prevent up to {plural(d['levels'], 'level')}."
    if kind == "attack_resolved":
        return results.loses(d, n(d["target"]), _numbers(state, d["target"], role))
    if kind == "moved":
        return f"{n(d['combatant'])} moves {d['metres']} m."
    if kind == "acted":
        target = f" ({n(d['target'])})" if d.get("target") else ""
        return f"{n(d['combatant'])}: {d['action'].capitalize()}{target}."
    if kind == "ki_spent":
        if not _numbers(state, d["combatant"], role):
            return f"{n(d['combatant'])} spends Ki to {d['purpose']}."
        return f"{n(d['combatant'])} spends Ki to {d['purpose']}: {d['effect']}."
    if kind == "fate_spent":
        spend = FATE_SPENDS[d["spend"]].label if d["spend"] in FATE_SPENDS else d["spend"]
        if not _numbers(state, d["combatant"], role) or not d.get("effect"):
            return f"{n(d['combatant'])} spends a Fate Token: {spend}."
        return f"{n(d['combatant'])} spends a Fate Token: {spend} ({d['effect']})."
    if kind == "led":
        return f"{n(d['leader'])} leads {n(d['combatant'])} this round."
    if kind == "fate_claimed":
        return f"{n(d['combatant'])} claims a Fate Token ({d['reason']}); the GM decides."
    if kind == "fate_gained":
        lost = " (lost: already at the most)" if d.get("lost") else ""
        return f"{n(d['combatant'])} gains a Fate Token ({d['reason']}){lost}."
    if kind == "fate_claim_refused":
        return f"The GM refuses {n(d['combatant'])}'s Fate Token claim ({d['reason']})."
    if kind == "milestone":
        return "A Milestone: every character gains a Fate Token."
    if kind == "fight_over":
        winner = d["winner"]
        if winner is None or not any(
            c["side"] == winner and look.visible(c["id"], event)
            for c in state["combatants"].values()
        ):
            return "The fight is over: no side is left able to act."
        return f"The fight is over: {winner} win."
    if kind == "fight_continued":
        return "The GM goes on with the fight."
    if kind == "fight_closed":
        return "The fight ends with the Scene."
    if kind == "condition_set":
        return f"{n(d['combatant'])} is {d['condition']}."
    if kind == "condition_cleared":
        return f"{n(d['combatant'])} is no longer {d['condition']}."
    if kind == "value_set":
        if not _sees_all(role) and _foe(state, state["combatants"][d["combatant"]]):
            if not state["share_foes"]:
                return f"The GM adjusts {n(d['combatant'])}."
        field = SETTABLE_WORDS.get(d["field"], d["field"])
        return f"The GM sets {n(d['combatant'])}'s {field} to {d['value']}."
    if kind == "added":
        init = f", Initiative {d['initiative']}" if "initiative" in d else ""
        text = f"{n(d['combatant'])} joins the fight ({d['side']}{init})."
        if d.get("renamed") and _sees_all(role):  # a hidden namesake gave its name up
            text += f" The hidden {d['renamed']['was']} is now {d['renamed']['name']}."
        return text
    if kind == "hidden":
        return f"{n(d['combatant'])} is hidden."
    if kind == "shown":
        return f"{n(d['combatant'])} appears."
    if kind == "shared":
        return "The GM shares the foes' numbers." if d["on"] else "The foes' numbers are hidden."
    if kind == "range_set":
        return f"{n(d['a'])} and {n(d['b'])} are at {d['band'].capitalize()} range."
    if kind == "note":
        return f"Note: {d['text']}"
    if kind in ("short rest", "full night"):
        fixed = " ".join(d.get("clamped", [])) if _sees_all(role) else ""  # the GM's numbers
        return f"Everyone takes a {kind.capitalize()}." + (f" {fixed}" if fixed else "")
    if kind == "end scene":
        return "The Scene ends."
    if kind in ("undone", "redone"):
        verb = "undoes" if kind == "undone" else "redoes"
        what = EVENT_WORDS.get(d["what"], d["what"].replace("_", " "))
        number = look.number(d["command"])
        which = f"event {number}" if number is not None else "an earlier event"
        return f"The GM {verb} {which} ({what})."
    if kind == "code_rotated":
        return "The GM changes the join code." if _sees_all(role) else None
    if kind == "gift_used" and not _numbers(state, d["combatant"], role):
        d = {**d, "ki": "some", "effect": None}  # a foe's Ki and what it did stay the GM's
        if d.get("check"):
            d["check"] = {**d["check"], "tn": None}
    if kind in _MORE_TEXTS:
        return _MORE_TEXTS[kind](state, d, n)
    numbers = lambda cid: _numbers(state, cid, role)  # noqa: E731
    more = log_words.log_text(kind, d, n, shown, numbers, _attack_numbers(state, d, role, seat))
    if more is not None:
        return more
    return kind.replace("_", " ").capitalize() + "."


#: Log text of the events of the rule modules that keep their own (Gifts, scars).
_MORE_TEXTS = {**gifts.LOG_TEXTS, **scars.LOG_TEXTS, **chase_phase.LOG_TEXTS}


def _tn(d: dict) -> str:
    """The text ', TN 7', or nothing when the TN is not this reader's to see."""
    return f", TN {d['tn']}" if d.get("tn") is not None else ""


def log_lines(
    state: dict, events: list[dict], role: str, seat: str | None, since: int = 0
) -> list[str]:
    """The log text of ``events[since:]`` that ``role`` may see (``events``: the whole log)."""
    after, _undone = _timeline(events, None)
    look = _Look(state, role, seat, events, after, [])
    lines = []
    for i, event in enumerate(events):
        text = _text(look, event)
        if text is not None:
            look.seen.append(event["seq"])
            if i >= since:
                lines.append(text)
    return lines


def view_for(
    state: dict,
    events: list[dict],
    role: str,
    seat: str | None = None,
    undo: tuple[bool, bool] | None = None,
    cache: dict | None = None,
    shared: dict | None = None,
) -> dict:
    """The table as ``role`` may see it (module docstring); JSON-ready.

    ``undo`` is (can undo, can redo) when the caller keeps the stacks; ``cache`` a dict in
    which the log is kept (see ``_log``; it may outlive the state); ``shared`` a dict for this
    state only, in which every player's and spectator's view shares one dict per combatant
    not their own (the same for all of them: treat it as read-only).
    """
    ids = [cid for cid in state["ids"] if _visible(state, cid, role)]
    log, seen = _log(state, events, role, seat, cache)
    combatants = [
        _combatant_for(state, state["combatants"][cid], role, seat, shared) for cid in ids
    ]
    up = state["up"] if state["up"] and _visible(state, state["up"], role) else None
    if state["phase"] == "over":
        up = None  # the fight is over: no one's turn (the GM's "continue" brings it back)
    view = {
        "table": state["name"],
        "version": state["version"],
        "round": state["round"],
        "phase": state["phase"],
        "up": up,
        "order": [cid for cid in state["order"] if _visible(state, cid, role)],
        "initiative_order": [
            cid for cid in state.get("initiative_order", []) if _visible(state, cid, role)
        ],
        "share_foes": state["share_foes"],
        "ruleset": dict(state["ruleset"]),
        "role": role,
        "seat": seat,
        "combatants": combatants,
        "pending": _pending(state, role, seat),
        "result": results.last_result(
            state,
            events,
            role,
            seat,
            lambda cid: _visible(state, cid, role),
            lambda cid: _numbers(state, cid, role),
        ),
        "ranges": [
            {"a": a, "b": b, "band": band}
            for a, b, band in (key.split("|") + [band] for key, band in state["ranges"].items())
            if _visible(state, a, role) and _visible(state, b, role)
        ],
        "log": log,
        "events_seen": seen,
        "fight_over": _fight_over(state, events, role, shared),
        "chase": chase_phase.view(
            state,
            lambda cid: _visible(state, cid, role),
            lambda cid: _numbers(state, cid, role),
        ),
    }
    if _sees_all(role):
        if undo is None:
            in_force, redo = undo_stack(events)
            undo = (bool(in_force), bool(redo))
        view["join_code"] = state["join_code"]
        view["can_undo"], view["can_redo"] = undo
    return view


def _fight_over(state: dict, events: list[dict], role: str, shared: dict | None) -> dict | None:
    """The fight's end for this viewer: the winner, what each dealt, took and spent.

    ``fight_end.summary``; hidden combatants are left out, foes' numbers only if shared.
    """
    over = state.get("over")
    if not over:
        return None
    key = ("fight_over", role)  # ``shared`` holds one state's drawings
    if shared is not None and key in shared:
        return shared[key]
    rows = fight_end.summary(
        state,
        events,
        lambda c: _sees_all(role) or state["share_foes"] or not _foe(state, c),
    )
    rows = [
        {**r, "name": _name(state, r["id"], role)} for r in rows if _visible(state, r["id"], role)
    ]
    winner = over["winner"]
    if winner is not None and not any(r["side"] == winner for r in rows):
        winner = None
    made = {"winner": winner, "round": over["round"], "summary": rows}
    if shared is not None:
        shared[key] = made
    return made


def _log(
    state: dict, events: list[dict], role: str, seat: str | None, cache: dict | None
) -> tuple[list, int]:
    """The view's log: the lines of the last ``LOG_LENGTH`` events this person may see.

    Returns the log and how many events this reader has seen in all (the newest one's number).

    Each line: {"seq": its number as this reader counts (1, 2, ... with no gap where an event
    they may not see was: issue 20), "round", "text", "undone": whether the GM undid it}.
    A line depends on its event and on who reads it (role, seat, the hidden combatants, whether
    the foes' numbers are shared). ``cache[that reader]`` keeps (how many events, the log, each
    line's (seq, command), how many events the reader saw or their seqs, the undone commands):
    a later view of the same reader copies that log, drops the events gone out of the window,
    adds the lines of the new events only and strikes what an undo struck. The log of one view
    is never changed after.
    """
    after, undone = _timeline(events, cache)
    hidden = tuple(cid for cid in state["ids"] if state["combatants"][cid]["hidden"])
    reader = (role, seat, tuple(state["ids"]), hidden, state["share_foes"])
    count = len(events)
    gm = _sees_all(role)
    made = None
    if cache is not None:
        try:  # a subscript, not ``get``: the cache may look a miss up elsewhere
            made = cache[reader]
        except KeyError:
            pass
    if made is not None and made[0] <= count:
        known, log, keys, seen, was = made
        if known == count:
            return log, (count if gm else len(seen))
        first = 0
        while first < len(keys) and keys[first][0] <= count - LOG_LENGTH:
            first += 1
        log, keys = log[first:], keys[first:]
    else:
        known, log, keys, seen, was = 0, [], [], ([] if not gm else 0), frozenset()
    look = _Look(state, role, seat, events, after, seen if not gm else [])
    if not gm:
        look.seen = list(seen)
    window = count - LOG_LENGTH
    for event in events[known:]:
        if gm and event["seq"] <= window:
            continue  # the GM sees every event: its number is its seq
        text = _text(look, event)
        if text is None:
            continue
        if gm:
            number = event["seq"]
        else:
            look.seen.append(event["seq"])
            number = len(look.seen)
        if event["seq"] > window:
            struck = event["cmd"] in undone and event["type"] not in ("undone", "redone")
            log.append({"seq": number, "round": event["round"], "text": text, "undone": struck})
            keys.append((event["seq"], event["cmd"], event["type"]))
    if undone != was:  # an undo or redo strikes or restores earlier lines
        log = [
            line
            if line["undone"] == (cmd in undone and kind not in ("undone", "redone"))
            else {**line, "undone": not line["undone"]}
            for line, (_seq, cmd, kind) in zip(log, keys, strict=True)
        ]
    if cache is not None:
        cache[reader] = (count, log, keys, count if gm else look.seen, undone)
    return log, (count if gm else len(look.seen))


def readable_seqs(state: dict, events: list[dict], role: str, seat: str | None) -> set[int]:
    """The seqs of the events whose log line ``role`` (at ``seat``) may read, by the log's rule.

    The same rule as the view's log (``_text``), over the whole log with no window: the
    night's numbers count only these (``night.py``).
    """
    after, _undone = _timeline(events, None)
    look = _Look(state, role, seat, events, after, [])
    seen = set()
    for event in events:
        if _text(look, event) is not None:
            seen.add(event["seq"])
            if not _sees_all(role):
                look.seen.append(event["seq"])
    return seen


def _pending(state: dict, role: str, seat: str | None) -> dict | None:
    p = state["pending"]
    if p is None:
        return None
    if not _visible(state, p["target"], role):
        return None
    if not _visible(state, p["attacker"], role):
        if p["step"] == "prevent" and role == "player" and seat == p["target"]:
            return _unseen_pending(state, p)  # the target prevents, the attacker unnamed
        return None
    out = {
        k: p[k]
        for k in ("attacker", "target", "attack", "kind", "vital", "element", "step", "critical")
    }
    out["advantage"] = p["advantage"]
    out["sources"] = [list(s) for s in p["sources"]]
    out["faces"] = list(p.get("faces", []))
    out["levels"] = p.get("would_take", p.get("levels"))
    out.update(attack_view(p))
    out["opened"] = p.get("opened")
    out.update(_ki_costs(state, p, role, seat))
    if "gift_check" in p:
        out["gift_check"] = {k: v for k, v in p["gift_check"].items() if k != "then"}
    out["odds"] = pending_odds_for(state, role, seat)
    out["tn"] = p["tn"] if out["odds"] is not None else None
    return out


def pending_odds_for(
    state: dict, role: str, seat: str | None, typed: list[int] | None = None
) -> dict | None:
    """The pending attack's odds as ``role`` (at ``seat``) may see them, or None.

    The GM, the attacker and the target see them; others too when the GM shares the foes'
    numbers or no foe is in it (a foe's attack on another player shows without odds or TN:
    issue 20). The wall and armor of a foe's target stay the GM's unless shared. ``typed``:
    the dice typed so far (``odds.pending_odds``; issue 23, the odds as the dice land).
    """
    p = state["pending"]
    if p is None or not _attack_numbers(state, p, role, seat):
        return None
    if not (_visible(state, p["attacker"], role) and _visible(state, p["target"], role)):
        return None
    odds = pending_odds(state, p, typed)
    target_foe = _foe(state, state["combatants"][p["target"]])
    if not (_sees_all(role) or state["share_foes"] or not target_foe):
        odds.pop("wall")  # the foe's wall stays the GM's unless shared
        odds.pop("armor", None)
    return odds


def _ki_costs(state: dict, p: dict, role: str, seat: str | None) -> dict:
    """At a boost or prevention step, for whoever makes it: Ki now and what n levels cost.

    "ki_costs"[n] is the Ki that boosting n dice (or preventing n levels) costs the one who
    spends it (Exhausted 4 adds one per spend: ``rules.ki_cost``).
    """
    who = {"boost": p["attacker"], "prevent": p["target"]}.get(p["step"])
    if who is None or not (_sees_all(role) or (role == "player" and seat == who)):
        return {}
    c = state["combatants"][who]
    top = len(p.get("faces", [])) if p["step"] == "boost" else p.get("would_take", 0)
    return {"ki_now": c["ki"], "ki_costs": [ki_cost(n, c["exhausted"]) for n in range(top + 1)]}


def _unseen_pending(state: dict, p: dict) -> dict:
    """The prevention step as the target of a hidden attacker sees it.

    No name, id or number of the attacker, nor its attack (which could tell who it is); only
    what the hit costs.
    """
    out = {
        "attacker": None,
        "unseen": True,
        "target": p["target"],
        "attack": None,
        "kind": None,
        "vital": p["vital"],
        "element": None,
        "step": "prevent",
        "critical": False,
        "advantage": 0,
        "sources": [],
        "faces": [],
        "levels": p.get("would_take", p.get("levels")),
        "tn": None,
        "odds": None,
        "opened": p.get("opened"),
    }
    out.update(_ki_costs(state, p, "player", p["target"]))
    return out
