"""The table as it stood after any event of its log: ``Replay.state_at(n)`` (issue 23, item 3).

The state after the first ``n`` events is ``fold(events[:n])``: the commands undone within those
``n`` events are skipped, an undo that came later is not. Scrubbing a long log is fast because
the fold is kept at every ``SNAPSHOT_EVERY``-th event (as JSON text: copied when it is kept,
and again when it is read): the state at ``n`` is the nearest snapshot at or before ``n`` whose
undone commands agree with those of ``n``, plus the events after it. The event shape and the
undo rule: docs/notes/0008-table.md.
"""

from __future__ import annotations

import json
from bisect import bisect_right

from . import reader_view
from .state import apply_changes, fold, undo_step

#: Events between two snapshots of the fold.
SNAPSHOT_EVERY = 256


def _undone_after(undone: frozenset[int], events: list[dict]) -> frozenset[int]:
    """``undone`` updated by the undo and redo events of ``events``."""
    changed = set(undone)
    for event in events:
        if event["type"] == "undone":
            changed.add(event["data"]["command"])
        elif event["type"] == "redone":
            changed.discard(event["data"]["command"])
    return frozenset(changed)


class Replay:
    """Snapshots of one log's fold, and the state after any of its events.

    Parameters
    ----------
    events : list of dict
        The table's log (the list itself: it is read, never changed; the snapshots follow it
        as it grows, and are dropped if it is cut back).
    every : int
        Events between two snapshots.
    """

    def __init__(self, events: list[dict], every: int = SNAPSHOT_EVERY):
        if every < 1:
            raise ValueError(f"every must be 1 or more, got {every}")
        self._events = events
        self._every = every
        # (n, the fold of events[:n] as JSON, the commands undone within those n events, the
        # undo and redo stacks after them); n ascending
        self._snaps: list[tuple[int, str, frozenset[int], tuple[list, list]]] = []
        # table_log.py's log cache, per reader: {event count at a snapshot: the log's lines}
        self._logs: dict[object, dict[int, tuple]] = {}
        self._primed: set[tuple] = set()

    def check(self, n: object, name: str = "n") -> int:
        """``n`` if it is an event count of the log (1..len(events)), else a ValueError."""
        count = len(self._events)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count:
            shown = repr(n)[:40]
            raise ValueError(
                f"{name} must be a whole number of events from 1 to {count}, got {shown}"
            )
        return n

    def forget_after(self, count: int) -> None:
        """Drop the snapshots past ``count`` events (the log was cut back to ``count``)."""
        self._snaps = [s for s in self._snaps if s[0] <= count]
        self._logs.clear()
        self._primed.clear()

    def _undone_at(self, n: int) -> frozenset[int]:
        """The commands undone within the first ``n`` events."""
        at = bisect_right([s[0] for s in self._snaps], n) - 1
        if at < 0:
            return _undone_after(frozenset(), self._events[:n])
        start, _, undone, _ = self._snaps[at]
        return _undone_after(undone, self._events[start:n])

    def _extend(self, n: int) -> None:
        """Keep the snapshots at every ``every``-th event up to ``n``."""
        last = self._snaps[-1][0] if self._snaps else 0
        for at in range(last + self._every, n + 1, self._every):
            state, undone = self._fold_to(at)
            stacks = self._stacks_at(at)
            self._snaps.append((at, json.dumps(state), undone, stacks))

    def _fold_to(self, n: int) -> tuple[dict, frozenset[int]]:
        """(the fold of the first ``n`` events, a new dict; the commands undone within them)."""
        events = self._events
        undone = self._undone_at(n)
        base = None
        for start, state, had, _ in reversed(self._snaps):
            if start > n:
                continue
            # Valid when no command of its events changed its undone status since.
            last_cmd = events[start - 1]["cmd"]
            if all(c > last_cmd for c in had ^ undone):
                base = (start, state)
                break
        if base is None:
            return fold(events[:n]), undone
        start, text = base
        state = json.loads(text)
        for event in events[start:n]:
            if event["cmd"] not in undone:
                apply_changes(state, event["changes"])
        state["version"] = n
        return state, undone

    def state_at(self, n: int) -> dict:
        """The state after the first ``n`` events (1..len(events)): a new dict, the caller's."""
        n = self.check(n)
        self._extend(n)
        return self._fold_to(n)[0]

    def _stacks_at(self, n: int) -> tuple[list[int], list[int]]:
        """``state.undo_stack`` of the first ``n`` events, from the nearest snapshot."""
        at = bisect_right([s[0] for s in self._snaps], n) - 1
        start, in_force, redo = 0, [], []
        if at >= 0:
            start, _, _, (kept_in_force, kept_redo) = self._snaps[at]
            in_force, redo = list(kept_in_force), list(kept_redo)
        for event in self._events[start:n]:
            undo_step(in_force, redo, event)
        return in_force, redo

    def undo_at(self, n: int) -> tuple[bool, bool]:
        """(whether the GM could undo, could redo) after the first ``n`` events."""
        n = self.check(n)
        self._extend(n)
        in_force, redo = self._stacks_at(n)
        return bool(in_force), bool(redo)

    def view_at(
        self, n: int, role: str, seat: str | None = None, state: dict | None = None
    ) -> dict:
        """``view.view_for`` of the state after the first ``n`` events, for ``role``/``seat``.

        The log's lines are reused from the nearest snapshot (table_log.py's ``cache``, filled
        once per reader and snapshot), so a view far into a long log costs the events since
        that snapshot, not the log's window. ``state``: ``state_at(n)`` if the caller has it.
        """
        n = self.check(n)
        state = self.state_at(n) if state is None else state
        start = n - n % self._every
        if start >= 1 and (role, seat, start) not in self._primed:
            self._primed.add((role, seat, start))
            at_start = self.state_at(start)
            reader_view.view_for(at_start, self._events[:start], role, seat, (False, False),
                           cache=_LogMemo(self._logs, start, self._every))  # fmt: skip
        return reader_view.view_for(
            state,
            self._events[:n],
            role,
            seat,
            undo=self.undo_at(n),
            cache=_LogMemo(self._logs, n, self._every),
        )


class _LogMemo:
    """The ``cache`` ``view.view_for`` reads, at ``n`` events.

    A reader's log at the nearest snapshot at or before ``n`` events; it keeps the logs made
    at a snapshot's event count.
    """

    def __init__(self, logs: dict[object, dict[int, tuple]], n: int, every: int):
        self._logs, self._n, self._every = logs, n, every

    def __getitem__(self, reader) -> tuple:
        made = self._logs.get(reader, {})
        known = [count for count in made if count <= self._n]
        if not known:
            raise KeyError(reader)
        return made[max(known)]

    def __setitem__(self, reader, value: tuple) -> None:
        # ``view_for`` keeps (event count, ...) under each key: a reader's log, or the hidden
        # timeline; only those made at a snapshot's event count are kept.
        count = value[0]
        if count % self._every == 0:
            self._logs.setdefault(reader, {})[count] = value


def round_starts(events: list[dict]) -> list[tuple[int, int]]:
    """(round, the event count at which it starts) for each round of the log, in order.

    A round starts after the first event stamped with it: replaying to that count shows its
    first moment (the start of the fight for round 1). A round met again after an undo keeps
    its first start.
    """
    starts: list[tuple[int, int]] = []
    seen: set[int] = set()
    for n, event in enumerate(events, 1):
        rnd = event["round"]
        changes_round = any(path == ["round"] for path, _ in event["changes"])
        if changes_round:
            rnd = next(value for path, value in event["changes"] if path == ["round"])
        if rnd >= 1 and rnd not in seen:
            seen.add(rnd)
            starts.append((rnd, n))
    return starts


def step_to(events: list[dict], n: int, by: str = "event", direction: int = 1) -> int:
    """The event count one step from ``n`` (clamped to 1..len(events)).

    The next (``direction`` 1) or previous (-1) event, or the start of the next or previous
    round (``by="round"``).
    """
    count = len(events)
    if by not in ("event", "round"):
        raise ValueError(f"by must be 'event' or 'round', got {by!r}")
    if direction not in (1, -1):
        raise ValueError(f"direction must be 1 or -1, got {direction!r}")
    if by == "event":
        return min(max(n + direction, 1), count)
    starts = [at for _, at in round_starts(events)]
    if direction == 1:
        later = [at for at in starts if at > n]
        return later[0] if later else count
    earlier = [at for at in starts if at < n]
    return earlier[-1] if earlier else 1
