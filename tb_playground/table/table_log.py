"""The table's log, read by one person: each event's line in plain words, or none.

An event's words come from the command that declares them (``commands.EVENT_WORDS``); this
module decides who reads which line (``privacy``): an event that names someone this reader does
not see is left out, a TN that tells a foe's Defense is taken out, and a non-GM reader numbers
the events they see 1, 2, ... with no gap (issue 20). Rule: RULES.md "The table". Readings:
docs/notes/0008-table.md.
"""

from __future__ import annotations

from bisect import bisect_left

from . import results, scars
from .commands import EVENT_CALLED, EVENT_WORDS
from .privacy import attack_numbers, card_name, foe_odds, may_read_numbers, sees_all, visible

#: How many log entries a view carries (newest last).
LOG_LENGTH = 200


#: Keys of an event's data that name combatants (lists under ``members`` and ``pursuers``).
_ID_KEYS = (
    "attacker", "target", "combatant", "a", "b", "next", "leader", "ally",
    "actor", "resister", "holder", "card", "surprised", "pursuer", "quarry",
)  # fmt: skip


def ids_in(data: dict) -> list[str]:
    """The ids of the combatants an event's data names."""
    found = [data[k] for k in _ID_KEYS if isinstance(data.get(k), str)]
    for key in ("members", "pursuers"):  # a group roll's members; a chase's pursuers
        if isinstance(data.get(key), list):
            found += [m for m in data[key] if isinstance(m, str)]
    return found


class LogReader:
    """One reader's eye on the log: who reads, who was hidden when, how they number events.

    ``after[i]`` holds the ids hidden right after ``events[i]`` (``timeline``): an event that
    named a combatant hidden then stays out of the log once it is shown (issue 20). ``seen``
    holds the seqs of the events this reader sees so far (a non-GM reader numbers them 1, 2,
    ... with no gap where a hidden event was; the GM sees all and numbers them by seq).
    ``event`` is the event being read: the commands' words ask about it
    (``command_record.Reader``).
    """

    __slots__ = ("state", "role", "seat", "sees_all", "events", "after", "seen", "event", "_names")

    def __init__(self, state, role, seat, events, after, seen):
        self.state, self.role, self.seat = state, role, seat
        self.sees_all = sees_all(role)
        self.events, self.after, self.seen = events, after, seen
        self.event: dict = {}
        self._names: dict[str, str] = {}

    def visible_at(self, cid: str, event: dict) -> bool:
        """Whether this reader sees ``cid`` now and saw it when ``event`` happened."""
        if self.sees_all:
            return True
        if not visible(self.state, cid, self.role):
            return False
        i = event["seq"] - 1
        return i >= len(self.after) or cid not in self.after[i]

    def visible(self, cid: str) -> bool:
        """Whether this reader sees ``cid`` now and saw it when the event read happened."""
        return self.visible_at(cid, self.event)

    def name(self, cid: str) -> str:
        """``cid``'s name as this reader's cards show it."""
        found = self._names.get(cid)
        if found is None:
            found = self._names[cid] = card_name(self.state, cid, self.role)
        return found

    def shown(self, ids) -> str:
        """The names of those of ``ids`` this reader sees, comma separated."""
        return ", ".join(self.name(i) for i in ids if self.visible(i))

    def numbers(self, cid: str | None) -> bool:
        """Whether this reader may read ``cid``'s numbers."""
        return may_read_numbers(self.state, cid, self.role)

    def attack_numbers(self, data: dict) -> bool:
        """Whether this reader may read the TN of the attack (or Grab) of ``data``."""
        return attack_numbers(self.state, data, self.role, self.seat)

    def number(self, seq: int) -> int | None:
        """The number this reader knows the event ``seq`` by (None if they never saw it)."""
        if self.sees_all:
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


def timeline(events: list[dict], cache: dict | None) -> tuple[list, frozenset]:
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


def line_for(look: LogReader, event: dict) -> str | None:
    """One log line, or None when this person may not see the event.

    An undo or redo shows only when each event of the command it names does.
    """
    text = _event_line(look, event)
    if text is None:  # hit by someone hidden: the target still sees what it cost them
        text = results.unseen_line(
            look.state, event, look.role, look.seat, lambda c: look.visible_at(c, event)
        )
    if text is not None and event["type"] in ("undone", "redone") and not sees_all(look.role):
        cmd, events = event["data"]["command"], look.events
        j = cmd - 1  # a command's events follow one another from the seq of its first
        while 0 <= j < len(events) and events[j]["cmd"] == cmd:
            if events[j]["type"] not in ("undone", "redone"):
                if _event_line(look, events[j]) is None:
                    return None
            j += 1
    if text is not None and event["data"].get("scars"):  # marks and scars it left (scars.py)
        said = scars.scars_said(event["data"], look.name, lambda cid: look.visible_at(cid, event))
        text = f"{text} {said}" if said else text
    return text


def _event_line(look: LogReader, event: dict) -> str | None:
    """One event's own log line, or None when this person may not see the event.

    The words are the declaring command's (``commands.EVENT_WORDS``), read with the numbers
    this reader may not see taken out first (``privacy``).
    """
    d, kind = event["data"], event["type"]
    look.event = event
    for cid in ids_in(d):
        if not look.visible_at(cid, event):
            return None
    if "tn" in d and not _tn_readable(look, kind, d):
        d = {**d, "tn": None}  # the TN tells the foe's Defense or Element: the cards' rule
    if kind == "gift_used" and not look.numbers(d["combatant"]):
        d = {**d, "ki": "some", "effect": None}  # a foe's Ki and what it did stay the GM's
        if d.get("check"):
            d["check"] = {**d["check"], "tn": None}
    words = EVENT_WORDS.get(kind)
    if words is not None:
        return words(look, d)
    if kind == "created":
        return f"Table {d['name']} set up for {d['encounter']}."
    if kind in ("undone", "redone"):
        verb = "undoes" if kind == "undone" else "redoes"
        what = EVENT_CALLED.get(d["what"], d["what"].replace("_", " "))
        number = look.number(d["command"])
        which = f"event {number}" if number is not None else "an earlier event"
        return f"The GM {verb} {which} ({what})."
    return kind.replace("_", " ").capitalize() + "."


def _tn_readable(look: LogReader, kind: str, d: dict) -> bool:
    """Whether this reader may read the TN in ``d`` (it tells a foe's Defense, Element or Ki)."""
    if kind in ("attack_declared", "to_hit_rolled", "attack_ruled") and not look.attack_numbers(d):
        return False
    mine = look.seat == d.get("target") or (
        look.seat == d.get("attacker") and look.attack_numbers(d)  # the GM's switch (issue 31)
    )
    if not (look.numbers(d.get("target")) or mine):
        return False
    return kind != "gift_check_rolled" or look.numbers(d["combatant"])


def log_lines(
    state: dict, events: list[dict], role: str, seat: str | None, since: int = 0
) -> list[str]:
    """The log text of ``events[since:]`` that ``role`` may see (``events``: the whole log)."""
    after, _undone = timeline(events, None)
    look = LogReader(state, role, seat, events, after, [])
    lines = []
    for i, event in enumerate(events):
        text = line_for(look, event)
        if text is not None:
            look.seen.append(event["seq"])
            if i >= since:
                lines.append(text)
    return lines


def log_window(
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
    after, undone = timeline(events, cache)
    hidden = tuple(cid for cid in state["ids"] if state["combatants"][cid]["hidden"])
    reader = (role, seat, tuple(state["ids"]), hidden, state["share_foes"], foe_odds(state))
    count = len(events)
    gm = sees_all(role)
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
    look = LogReader(state, role, seat, events, after, seen if not gm else [])
    if not gm:
        look.seen = list(seen)
    window = count - LOG_LENGTH
    for event in events[known:]:
        if gm and event["seq"] <= window:
            continue  # the GM sees every event: its number is its seq
        text = line_for(look, event)
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

    The same rule as the view's log (``line_for``), over the whole log with no window: the
    night's numbers count only these (``night.py``).
    """
    after, _undone = timeline(events, None)
    look = LogReader(state, role, seat, events, after, [])
    seen = set()
    for event in events:
        if line_for(look, event) is not None:
            seen.add(event["seq"])
            if not sees_all(role):
                look.seen.append(event["seq"])
    return seen
