"""The fight's momentum: the party's chance to win after every event of a live table (issue 23).

``momentum_for(table)`` is the one ``Momentum`` of a live table in this process (however many
pages show it): it listens to the table, works the chance out from here (``win_from_here``) off
the caller's thread after each event (``WinChanceRuns``: a newer event cancels the run in
progress), and keeps the series of points, one per table version it finished, with the
markers of what happened between two points: a critical, a catastrophe, a combatant down, a
Fate Token spent (RULES.md "Core Roll"; rules/000 "Recovering from Vitals Loss"; rules/004
"Fate Tokens"). Watchers (the pages) hear "working" and "result"; each schedules its own
update on its own loop.

The players' series (the table option ``SHARE_OPTION``): the simulator counts every combatant,
so a chance worked out with a hidden foe would tell the players it exists. When someone is
hidden, the players' point is worked out again from the state without the hidden combatants
(``visible_state``: what the players' views hold), after the GM's; otherwise it is the GM's.
Markers naming a hidden combatant are left out of the players' series.

The past (``Momentum.filling``): a table that already has events when the first page watches it
gets its earlier points too, after the live one, from ``table.replay(n)`` for each event ``n``
that changes something the fight reads (``_fight_key``; the players' from ``visible_state``
when someone was hidden then and the chance is shared), coarse to fine (every 2**k-th event,
then the ones between) so the chart's shape shows at once, each with ``past_fights`` fights
(fewer than a live point's; the chart's hover says how many). A newer event goes first: it
cancels the past run in progress, whose event is worked out again after the new live point.

The lab reads no table module: the table is used through ``subscribe``, ``unsubscribe``,
``state``, ``version``, ``events`` and ``replay`` only. No Panel import. Notes:
docs/notes/0010-lab.md, "Momentum".
"""

from __future__ import annotations

import json
import threading
import time
import weakref
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tb_playground.engine import FATE_SPENDS

from .win_chance import WinChance
from .win_from_here import win_from_here
from .worker_pool import WinChanceRuns

#: The table option that shows the chart on the players' pages (``table_option`` command).
SHARE_OPTION = "share_chance"

#: Who a series is for.
AUDIENCES = ("gm", "players")

#: Markers kept, in plain words: what each kind means on the chart.
MARKER_WORDS = {
    "critical": "a critical",
    "catastrophe": "a catastrophe",
    "down": "down",
    "fate": "a Fate Token spent",
}

#: Parts of a state that never change the fight (a new version with only these changed takes
#: the previous version's chance without a run).
NOT_THE_FIGHT = frozenset({"version", "join_code", "name", "options", "share_foes", "seed"})

#: The phases ``win_from_here`` works a chance out in (a fight's, before it or over): a past
#: event in any other (a chase's, say) is skipped without a run, as it would only be refused.
FIGHT_PHASES = frozenset({"setup", "declare", "resolve", "over"})

#: Seconds an event waits before its run is asked for: the pages' fan-out goes first (and the
#: events of one command come as one run).
SETTLE = 0.08

#: Points kept per series (the oldest go first).
MAX_POINTS = 5_000

#: A past point's fights, as a share of a live point's (``Momentum.past_fights``).
PAST_SHARE = 4

#: Seconds between two looks at the table while a past point is worked out.
PAST_POLL = 0.02


def coarse_to_fine(last: int) -> list[int]:
    """1..``last``, every 2**k-th first (the largest k), then the ones between, each once.

    The chart of the past fills its whole width at once and sharpens as points arrive.
    """
    if last < 1:
        return []
    order, seen = [], set()
    step = 1 << (last.bit_length() - 1)
    while step >= 1:
        for n in range(step, last + 1, step):
            if n not in seen:
                seen.add(n)
                order.append(n)
        step //= 2
    return [last, *[n for n in order if n != last]]


@dataclass(frozen=True)
class Marker:
    """Something that turned the fight, at one table version.

    Attributes
    ----------
    version : int
        The table's version just after it (the event number).
    kind : str
        A key of ``MARKER_WORDS``.
    text : str
        What happened, in plain words ("Ronan scores a critical against the guard dog").
    who : tuple of str
        The combatants it names (a players' series leaves out a marker naming a hidden one).
    """

    version: int
    kind: str
    text: str
    who: tuple = ()


@dataclass(frozen=True)
class Point:
    """The chance to win after one table version.

    Attributes
    ----------
    version : int
        The table's version (the event number on the chart's x axis).
    chance : WinChance
        ``win_from_here``'s answer for that version.
    markers : tuple of Marker
        What happened since the previous point (each at its own version).
    names : dict
        Combatant id -> name, for ``down_next_round``'s rows.
    """

    version: int
    chance: WinChance
    markers: tuple = ()
    names: dict = field(default_factory=dict)


def able(c: dict) -> bool:
    """Whether a state's combatant can act (not out, Health above 0, Sanity 0 or more, ...)."""
    now = c.get("now") or {}
    return (
        not c.get("out")
        and now.get("health", 1) > 0
        and now.get("sanity", 0) >= 0
        and c.get("exhausted", 0) < 5
    )


def visible_state(state: dict) -> dict:
    """``state`` without its hidden combatants: the fight as the players' views show it.

    The order, the Initiative order and the ranges lose them too; a hidden combatant whose
    turn it is hands it to the next one in the order who has not acted (none: the round's
    turns are over for the simulation).
    """
    cs = state["combatants"]
    hidden = {cid for cid in state["ids"] if cs[cid].get("hidden")}
    if not hidden:
        return state
    out = dict(state)
    out["ids"] = [cid for cid in state["ids"] if cid not in hidden]
    out["combatants"] = {cid: c for cid, c in cs.items() if cid not in hidden}
    order = list(state.get("order") or [])
    out["order"] = [cid for cid in order if cid not in hidden]
    out["initiative_order"] = [
        cid for cid in state.get("initiative_order") or [] if cid not in hidden
    ]
    up = state.get("up")
    if up in hidden:
        later = order[order.index(up) + 1 :] if up in order else []
        out["up"] = next((cid for cid in later if cid not in hidden and not cs[cid].get("acted")),
                         None)  # fmt: skip
        out["pending"] = None
    pending = state.get("pending") or {}
    if pending.get("attacker") in hidden or pending.get("target") in hidden:
        out["pending"] = None
    out["ranges"] = {
        k: v for k, v in (state.get("ranges") or {}).items() if not set(k.split("|")[:2]) & hidden
    }
    return out


def _fight_key(state: dict) -> str:
    return json.dumps({k: v for k, v in state.items() if k not in NOT_THE_FIGHT}, sort_keys=True)


def markers_of(events: list[dict], before: dict, after: dict) -> list[Marker]:
    """The markers of ``events`` (a batch of the log), ``before`` and ``after`` them.

    Criticals and catastrophes of every roll with an outcome (to hit, a Gift Check...), Fate
    Token spends, and each combatant able to act before the batch and not after it (down).
    """
    cs = {**before.get("combatants", {}), **after.get("combatants", {})}

    def name(cid) -> str:
        return cs[cid]["name"] if cid in cs else "someone"

    found: list[Marker] = []
    for e in events:
        d = e.get("data") or {}
        version = int(e.get("seq", after.get("version", 0)))
        who = d.get("attacker") or d.get("combatant")
        target = d.get("target")
        if d.get("outcome") in ("critical", "catastrophe") and who:
            kind = d["outcome"]
            text = f"{name(who)}: {MARKER_WORDS[kind]}"
            if target:
                text += f" against {name(target)}"
            names = (who, target) if target else (who,)
            found.append(Marker(version, kind, text, names))
        elif e.get("type") == "fate_spent" and who:
            spend = FATE_SPENDS[d["spend"]].label if d.get("spend") in FATE_SPENDS else ""
            text = f"{name(who)} spends a Fate Token" + (f": {spend}" if spend else "")
            found.append(Marker(version, "fate", text, (who,)))
    version = int(after.get("version", 0))
    for cid, c in after.get("combatants", {}).items():
        was = before.get("combatants", {}).get(cid)
        if was is not None and able(was) and not able(c):
            found.append(Marker(version, "down", f"{name(cid)} is down", (cid,)))
    return found


class Momentum:
    """The chance to win after every event of one live table, and who listens to it.

    Parameters
    ----------
    table : Table
        The live table (``subscribe``, ``unsubscribe``, ``state``, ``version``).
    fights, seed : int
        ``win_from_here``'s, per run.
    process : bool
        Runs in one worker process (``WinChanceRuns``; the server's choice) or a thread.
    past_fights : int, optional
        The fights of each point before the first page watched (default ``fights //
        PAST_SHARE``, at least 500 and at most ``fights``); 0: no past points.
    """

    def __init__(
        self,
        table,
        fights: int = 20_000,
        seed=0,
        *,
        process: bool = True,
        past_fights: int | None = None,
    ):
        # Weakly: the one-per-table map holds this by the table, which must stay collectable.
        self._table = weakref.ref(table)
        self.fights = fights
        self.seed = seed
        self.process = process
        if past_fights is None:
            past_fights = min(fights, max(500, fights // PAST_SHARE))
        self.past_fights = past_fights
        self._past: list[int] = []  # the past events still to chart, the next first
        self._past_keys: dict[int, str] = {}
        self._past_events: list[dict] | None = None
        self._past_state: dict | None = None  # the newest state the past was read against
        self._lock = threading.RLock()
        self._series: dict[str, list[Point]] = {a: [] for a in AUDIENCES}
        self._markers: list[Marker] = []  # since the GM's last point
        self._watchers: dict[int, Callable[[str], None]] = {}
        self._audiences: dict[int, str] = {}
        self._next = 0
        self._runs: WinChanceRuns | None = None
        self._wake = threading.Condition(self._lock)
        self._batches: list[list[dict]] = []
        self._stopped = False
        self._state: dict = table.state
        self._names = {cid: c["name"] for cid, c in self._state["combatants"].items()}
        #: The latest runs asked for, by table version and audience (tests count them).
        self.asked: deque[tuple[int, str]] = deque(maxlen=1_000)
        self._by_key: dict[str, WinChance] = {}
        # Listening to the table (and a thread of its own) only while a page watches.
        self._handle: int | None = None
        self._thread: threading.Thread | None = None

    @property
    def table(self):
        """The live table (None once nothing else holds it)."""
        return self._table()

    # -- what the pages read ---------------------------------------------------------------------

    def series(self, audience: str = "gm") -> list[Point]:
        """The points so far (a copy), oldest first."""
        with self._lock:
            return list(self._series[audience])

    def latest(self, audience: str = "gm") -> Point | None:
        """The newest point, or None."""
        with self._lock:
            points = self._series[audience]
            return points[-1] if points else None

    @property
    def version(self) -> int:
        """The table version last seen."""
        with self._lock:
            return int(self._state.get("version", 0))

    @property
    def shared(self) -> bool:
        """Whether the GM shares the chance with the players (the table option)."""
        with self._lock:
            return bool((self._state.get("options") or {}).get(SHARE_OPTION))

    def working(self, audience: str = "gm") -> bool:
        """Whether the chance for the table's version is still being worked out."""
        point = self.latest(audience)
        return point is None or point.version < self.version

    @property
    def error(self) -> str:
        """Why the newest run gave no chance ("" when it did)."""
        run = self._runs.latest if self._runs is not None else None
        return run.error if run is not None and run.version == self.version else ""

    # -- watchers --------------------------------------------------------------------------------

    def watch(self, callback: Callable[[str], None], audience: str = "gm") -> int:
        """``callback(what)`` ("working", "result" or "shared") from another thread; a handle.

        Runs are made while a GM watches, or a player while the GM shares the chance.
        """
        with self._lock:
            self._next += 1
            self._watchers[self._next] = callback
            self._audiences[self._next] = audience
            if self._handle is None:  # the first page: listen, and read the table as it stands
                self._handle = self.table.subscribe(self._changed)
                self._batches.append([])
                self._plan_past()
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._loop, name="momentum", daemon=True)
                    self._thread.start()
            elif self._wanted() and self.working():  # a GM came: work the version out now
                self._batches.append([])
            self._wake.notify()
            return self._next

    def _wanted(self) -> bool:
        """Whether a page wants the chance (a GM's, or a player's while it is shared)."""
        return "gm" in self._audiences.values() or (bool(self._audiences) and self.shared)

    def unwatch(self, handle: int) -> None:
        """Stop calling the watcher behind ``handle``; the last one stops the runs' worker."""
        with self._lock:
            self._watchers.pop(handle, None)
            self._audiences.pop(handle, None)
            runs = None
            if not self._watchers:  # the last page: stop listening and the runs' worker
                runs, self._runs = self._runs, None
                if self._handle is not None and self.table is not None:
                    self.table.unsubscribe(self._handle)
                self._handle = None
                self._wake.notify()  # the thread ends
        if runs is not None:
            runs.close()

    @property
    def watchers(self) -> int:
        """How many watchers listen."""
        return len(self._watchers)

    def _tell(self, what: str) -> None:
        for callback in list(self._watchers.values()):
            try:
                callback(what)
            except Exception:  # noqa: BLE001 - a closed page; it unwatches itself
                continue

    # -- the table's thread: hand over, never wait ------------------------------------------------

    def _changed(self, version: int, events: list[dict]) -> None:
        with self._lock:
            self._batches.append(list(events))
            self._wake.notify()

    def _loop(self) -> None:
        while True:
            with self._lock:
                while (
                    not self._batches
                    and not self._stopped
                    and self._watchers
                    and not self._past_ready()
                ):
                    self._wake.wait()
                if self._stopped or not self._watchers:
                    self._thread = None  # the next first watcher starts another
                    return
                past = not self._batches
            if past:
                try:
                    self._past_one()
                except Exception:  # noqa: BLE001 - the past is a nicety: stop filling it
                    import logging

                    logging.getLogger(__name__).exception("momentum: the past could not be read")
                    with self._lock:
                        self._past.clear()
                continue
            # The pages' own updates first: this thread's copying holds the interpreter.
            time.sleep(SETTLE)
            with self._lock:
                events = [e for batch in self._batches for e in batch]
                self._batches.clear()
            try:
                self._after(events)
            except Exception:  # noqa: BLE001 - keep listening; the next event tries again
                import logging

                logging.getLogger(__name__).exception("momentum: an event could not be read")

    def _after(self, events: list[dict]) -> None:
        table = self.table
        if table is None:
            return
        state = table.state
        with self._lock:
            before, self._state = self._state, state
            was_shared = bool((before.get("options") or {}).get(SHARE_OPTION))
            self._markers.extend(markers_of(events, before, state))
            self._names.update({cid: c["name"] for cid, c in state["combatants"].items()})
        if was_shared != self.shared:
            self._tell("shared")
        self._ask(state, "gm")

    def _ask(self, state: dict, audience: str) -> None:
        known = self._by_key.get(_fight_key(state))
        version = int(state.get("version", 0))
        if known is not None:  # nothing the fight reads changed: the same chance
            self._settle(audience, state, known)
            return
        with self._lock:
            if self._stopped or not self._wanted():  # no page shows it: a first watcher asks
                return
            if self._runs is None:
                self._runs = WinChanceRuns(
                    self.fights, self.seed, self._result, process=self.process
                )
            self.asked.append((version, audience))
        state = {**state, "momentum_audience": audience}
        self._runs.submit(state)
        if audience == "gm":
            self._tell("working")

    def _result(self, run) -> None:
        state = run.state
        if state.get("momentum_past"):  # ``_past_one`` waits for it itself
            return
        audience = state.pop("momentum_audience", "gm")
        if run.result is None:  # an error: say so to the pages
            self._tell("result")
            return
        with self._lock:
            if int(state.get("version", 0)) < self.version:
                return  # a newer version's run is on its way
            key = _fight_key(state)
            self._by_key = {key: run.result, **{k: v for k, v in self._by_key.items() if k != key}}
            if len(self._by_key) > 8:
                self._by_key.pop(next(iter(self._by_key)))
        self._settle(audience, state, run.result)

    def _settle(self, audience: str, state: dict, chance: WinChance) -> None:
        version = int(state.get("version", 0))
        chance = _at_version(chance, version)
        hidden = {cid for cid, c in self._state["combatants"].items() if c.get("hidden")}
        with self._lock:
            if audience == "gm":
                markers = tuple(self._markers)
                self._markers.clear()
                self._add("gm", Point(version, chance, markers, dict(self._names)))
                for_players = not hidden
                if for_players:
                    self._add("players", Point(version, chance, markers, dict(self._names)))
            else:
                for_players = False
                gm_point = self._series["gm"][-1] if self._series["gm"] else None
                shown = tuple(
                    m
                    for m in (gm_point.markers if gm_point and gm_point.version == version else ())
                    if not set(m.who) & hidden
                )
                names = {k: v for k, v in self._names.items() if k not in hidden}
                self._add("players", Point(version, chance, shown, names))
        if audience == "gm" and hidden and self.shared:
            self._ask(visible_state(state), "players")
        self._tell("result")
        with self._lock:
            self._wake.notify()  # the past's turn, if it waits

    def _add(self, audience: str, point: Point) -> None:
        points = self._series[audience]
        if points and points[-1].version == point.version:
            points[-1] = point
        elif not points or points[-1].version < point.version:
            points.append(point)
        del points[:-MAX_POINTS]

    # -- the past: the points before the first page watched ----------------------------------

    @property
    def filling(self) -> bool:
        """Whether past points are still to be worked out."""
        with self._lock:
            return bool(self._past)

    def _plan_past(self) -> None:
        """The events before the table's version now, coarse to fine (none if already done)."""
        if self.past_fights <= 0 or self._series["gm"] or self._past:
            return
        self._past = coarse_to_fine(int(self.table.version) - 1)

    def _past_ready(self) -> bool:
        """Whether the loop may work a past point out now: the live ones are in, none waits."""
        if not self._past or not self._wanted() or self.working():
            return False
        current = self._runs.current if self._runs is not None else None
        return current is None or current.wait(0)  # the players' run, say, goes first

    def _past_key(self, table, n: int) -> str:
        key = self._past_keys.get(n)
        if key is None:
            key = self._past_keys[n] = _fight_key(table.replay(n)) if n >= 1 else ""
        return key

    def _past_one(self) -> None:
        """Work the next past event out (or skip it: the fight did not change), in this thread.

        Waits for its run, looking at the table every ``PAST_POLL`` s: a new event cancels it
        (its event stays first in line) and the loop goes to the live point. With someone
        hidden at that event and the chance shared, the players' point is a second run, from
        ``visible_state`` (as a live one).
        """
        table = self.table
        with self._lock:
            if table is None or not self._past:
                return
            n = self._past[0]
        state = table.replay(n)
        key = self._past_keys[n] = _fight_key(state)
        if n > 1 and key == self._past_key(table, n - 1):  # nothing the fight reads changed
            self._past_done(n)
            return
        if state.get("phase") not in FIGHT_PHASES:  # a chase, say: no chance, so no run
            self._past_done(n)
            return
        hidden = any(c.get("hidden") for c in state["combatants"].values())
        for audience in ("gm", "players"):
            if audience == "players" and not (hidden and self.shared):
                break
            if any(p.version == n for p in self.series(audience)):
                continue  # worked out before a newer event came
            chance = self._past_run(n, state if audience == "gm" else visible_state(state))
            if chance is None:
                return
            if isinstance(chance, str):  # an error (a chase's phase, say): no point
                break
            self._past_point(table, n, state, chance, audience, hidden)
        self._past_done(n)

    def _past_run(self, n: int, state: dict):
        """``state``'s chance with the past's fights; None when a newer event came first."""
        runs = self._ensure_runs()
        with self._lock:
            self.asked.append((n, "past"))
        run = runs.submit({**state, "momentum_past": True}, self.past_fights)
        while not run.wait(PAST_POLL):
            with self._lock:
                if self._batches or self._stopped or not self._watchers:
                    run.cancel()
                    return None  # a newer event first; this one again later
        if run.result is None:
            return "error" if run.error else None
        return run.result

    def _past_done(self, n: int) -> None:
        with self._lock:
            if self._past and self._past[0] == n:
                self._past.pop(0)
            if not self._past:
                self._past_events = None
                self._past_keys.clear()

    def _past_point(self, table, n, state, chance, audience, hidden) -> None:
        if self._past_events is None:
            self._past_events = table.events
        before = table.replay(n - 1) if n > 1 else state
        markers = markers_of(self._past_events[n - 1 : n], before, state) if n > 1 else []
        names = {cid: c["name"] for cid, c in state["combatants"].items()}
        chance = _at_version(chance, n)
        with self._lock:
            if audience == "gm":
                self._insert("gm", Point(n, chance, tuple(markers), names))
                if not hidden:  # the players' past point is the GM's
                    self._insert("players", Point(n, chance, tuple(markers), names))
            else:  # without the hidden: their names and markers too
                gone = {cid for cid, c in state["combatants"].items() if c.get("hidden")}
                shown = tuple(m for m in markers if not set(m.who) & gone)
                names = {k: v for k, v in names.items() if k not in gone}
                self._insert("players", Point(n, chance, shown, names))
        self._tell("result")

    def _insert(self, audience: str, point: Point) -> None:
        """A past point into its place (a live point at the same event stays)."""
        points = self._series[audience]
        at = bisect_left([p.version for p in points], point.version)
        if at < len(points) and points[at].version == point.version:
            return
        points.insert(at, point)
        del points[:-MAX_POINTS]

    def _ensure_runs(self) -> WinChanceRuns:
        with self._lock:
            if self._runs is None:
                self._runs = WinChanceRuns(
                    self.fights, self.seed, self._result, process=self.process
                )
            return self._runs

    def close(self) -> None:
        """Stop listening to the table and stop the runs (the series are kept)."""
        with self._lock:
            self._stopped = True
            self._wake.notify()
            handle, self._handle = self._handle, None
        if handle is not None and self.table is not None:
            self.table.unsubscribe(handle)
        if self._runs is not None:
            self._runs.close()
            self._runs = None


def momentum_of(steps, fights: int = 2_000, seed=0, **policies) -> list[Point]:
    """The momentum series of a fight already played (a notebook's, a replay's).

    Parameters
    ----------
    steps : iterable of (list, dict)
        A batch of the log's events and the table's state after it (``fold(events[:n])``),
        in order; the first batch's markers are not read (nothing before it to compare).
    fights, seed, **policies
        ``win_from_here``'s, per point.

    Returns
    -------
    list of Point
        One per step whose phase the chance is worked out in (a chase's are skipped; their
        markers go to the next point).
    """
    points: list[Point] = []
    before: dict | None = None
    waiting: list[Marker] = []
    for events, state in steps:
        if before is not None:
            waiting += markers_of(events, before, state)
        before = state
        try:
            chance = win_from_here(state, fights, seed, **policies)
        except ValueError:  # not a phase of rounds (a chase)
            continue
        names = {cid: c["name"] for cid, c in state["combatants"].items()}
        points.append(Point(int(state.get("version", 0)), chance, tuple(waiting), names))
        waiting = []
    return points


def _at_version(chance: WinChance, version: int) -> WinChance:
    if chance.version == version:
        return chance
    from dataclasses import replace

    return replace(chance, version=version)


#: One Momentum per live table object (the service hands every page the same table).
_MOMENTA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MOMENTA_LOCK = threading.Lock()


def momentum_for(table, **options) -> Momentum:
    """The ``Momentum`` of ``table`` (made on first call with ``options``; one per table)."""
    with _MOMENTA_LOCK:
        found = _MOMENTA.get(table)
        if found is None or found._stopped:
            found = _MOMENTA[table] = Momentum(table, **options)
        return found


__all__ = [
    "AUDIENCES",
    "MARKER_WORDS",
    "SHARE_OPTION",
    "Marker",
    "Momentum",
    "Point",
    "able",
    "coarse_to_fine",
    "markers_of",
    "momentum_for",
    "momentum_of",
    "visible_state",
]
