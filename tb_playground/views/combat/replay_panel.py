"""The replay on the combat pages: the board as it stood after any event (issue 23, item 3).

``ReplayCursor`` is the state machine (live, or at event ``at`` of ``count``; stepping by event
or by round, the round starts of ``Table.round_starts``); ``ReplayPanel`` is its slider, step
buttons and "Replaying event N of M" banner, and draws the table as the page's role saw it then
(``Table.view_for(role, seat, at=n)``) through the page's own draw function, so a replayed board
is the live board of that moment. While replaying the page shows this panel instead of its live
controls: nothing sent from it can act. The event is kept in the URL (``?at=N``). Notes:
docs/notes/0017-replay-night-odds.md.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

import panel as pn
import param
from panel.io.document import hold

from tb_playground.table.table_log import readable_seqs

from ..kit import CardBoard, LiveHTML, button, html_pane, row, set_query, update
from ..kit.css import COMBAT_CSS, STORY_CSS


def story_pane(css_class: str) -> LiveHTML:
    """``html_pane`` with the story's stylesheet after the combat one."""
    return LiveHTML(
        "", css_classes=[css_class], stylesheets=[COMBAT_CSS, STORY_CSS],
        sizing_mode="stretch_width",
    )  # fmt: skip


def reader_seqs(service, table, role: str, seat: str | None) -> list[int] | None:
    """The table's events ``role`` (at ``seat``) sees, in order; None for the GM (every one).

    A player or spectator numbers the events they see 1, 2, ... with no gap where an event
    they may not see was (their log's rule, issue 20): the replay and the chance's chart count
    them so (issue 31). Read once per table version and reader (``service.drawing``).
    """
    if table is None or role == "gm":
        return None
    return service.drawing(
        table, table.version, "reader seqs", (role, seat),
        lambda: sorted(readable_seqs(table.state, table.events, role, seat)),
    )  # fmt: skip


class ReplayCursor(param.Parameterized):
    """Live, or replaying event ``at`` of the ``count`` events so far (no Panel objects).

    ``follow(count)`` as the table grows (the bounds follow; a replay stays where it is),
    ``go(n)``, ``step(by, direction, starts)`` and ``back_to_live()``.
    """

    count = param.Integer(default=1, bounds=(1, None), doc="How many events the table holds.")
    at = param.Integer(
        default=None,
        allow_None=True,
        bounds=(1, None),
        doc="The event replayed (the board after the first ``at`` events); None: live.",
    )

    @property
    def replaying(self) -> bool:
        """Whether a past moment is shown (``at`` is set)."""
        return self.at is not None

    def follow(self, count: int) -> None:
        """The table now holds ``count`` events: the bounds follow, a replay stays at its event.

        A log cut back (a damaged file read again) brings a later ``at`` back to its end.
        """
        count = max(int(count), 1)
        with param.parameterized.batch_call_watchers(self):
            self.count = count
            if self.at is not None and self.at > count:
                self.at = count

    def go(self, n: int) -> int:
        """Replay event ``n`` (clamped to 1..count); the event shown."""
        self.at = min(max(int(n), 1), self.count)
        return self.at

    def step(self, by: str, direction: int, starts: list[tuple[int, int]] = ()) -> int:
        """One event or one round (``by``) forward (``direction`` 1) or back (-1).

        ``starts``: (round, the event count it starts at), as ``Table.round_starts`` gives
        them. From live, a step starts at the last event. ``table.replay.step_to``'s rule: the
        start of the next round (or the last event), of the previous one (or the first event).
        """
        if by not in ("event", "round"):
            raise ValueError(f"by must be 'event' or 'round', got {by!r}")
        if direction not in (1, -1):
            raise ValueError(f"direction must be 1 or -1, got {direction!r}")
        n = self.count if self.at is None else self.at
        if by == "event":
            return self.go(n + direction)
        ats = [at for _, at in starts]
        if direction == 1:
            return self.go(next((at for at in ats if at > n), self.count))
        return self.go(next((at for at in reversed(ats) if at < n), 1))

    def back_to_live(self) -> None:
        """Show the table as it is now."""
        self.at = None

    def round_of(self, starts: list[tuple[int, int]]) -> int:
        """The round under way at the event shown (0 before the fight)."""
        n = self.count if self.at is None else self.at
        return max((r for r, at in starts if at <= n), default=0)


def banner_html(at: int, count: int, rnd: int) -> str:
    """The replay's banner: which event of how many, and that nothing here acts."""
    where = f"round {rnd}, " if rnd else ""
    return (
        f'<div class="replay-banner">Replaying event {at} of {count} ({where}a past moment)'
        '<span class="hint">Nothing here changes the table: go back to live to play on. '
        "The page's address links to this moment.</span></div>"
    )


class ReplayPanel(ReplayCursor, pn.viewable.Viewer):
    """The replay's controls and the board at the event replayed, for one page session.

    Parameters
    ----------
    service : CombatService
        The page's service (its ``DrawCache`` keeps each replayed drawing per table version).
    draw : callable
        ``draw(view)``, the page's own drawing of a view (``draw_gm``, ``draw_table``).
    panes : list of str
        The keys of ``draw``'s dict to show, top to bottom; "cards" is the board.
    prefix : str
        The start of every CSS class ("gm" or "tp": ``gm-replay-slider``, ``tp-replay-live``).
    on_change : callable
        ``on_change(replaying)`` when the panel starts or stops replaying: the page swaps its
        live controls for this panel.
    """

    def __init__(
        self,
        service,
        draw: Callable[[dict], dict],
        panes: list[str],
        prefix: str,
        on_change: Callable[[bool], None],
        **params,
    ):
        super().__init__(**params)
        self.service = service
        self._draw = draw
        self._keys = list(panes)
        self._prefix = prefix
        self._on_change = on_change
        self.table = None
        self.role, self.seat = "gm", None
        self._view: pn.Column | None = None  # built the first time a replay starts
        self.opener = button("Replay", f"{prefix}-replay-open")
        self.opener.on_click(lambda _e: self.go(self.count))
        self._shown: int | None = None  # the event whose board the panes hold
        self.param.watch(self._moved, ["at", "count"])

    def __panel__(self):
        return self.view

    @property
    def view(self) -> pn.Column:
        """The banner, slider, steps and the replayed board (built on first use)."""
        if self._view is None:
            self._build()
        return self._view

    def _build(self) -> None:
        p = self._prefix
        self.banner = story_pane(f"{p}-replay-banner")
        self.live_button = button("Back to live", f"{p}-replay-live", "primary")
        self.live_button.on_click(lambda _e: self.back_to_live())
        self.slider = pn.widgets.IntSlider(
            label="Event", start=1, end=max(self.count, 2), value=self.at or self.count,
            css_classes=[f"{p}-replay-slider"], sizing_mode="stretch_width",
        )  # fmt: skip
        self.slider.param.watch(lambda e: self.go(e.new) if self.replaying else None, "value")
        steps = {
            "round-back": ("◀◀ Round", "round", -1),
            "back": ("◀ Event", "event", -1),
            "next": ("Event ▶", "event", 1),
            "round-next": ("Round ▶▶", "round", 1),
        }
        self.steps = {}
        for name, (label, by, direction) in steps.items():
            b = self.steps[name] = button(label, f"{p}-replay-{name}")
            b.on_click(lambda _e, by=by, d=direction: self.step(by, d, self._starts()))
        self.message = html_pane(f"{p}-replay-message")
        self.panes = {
            key: CardBoard(f"{p}-replay-board")
            if key == "cards"
            else html_pane(f"{p}-replay-{key}")
            for key in self._keys
        }
        self._view = pn.Column(
            self.banner,
            row(self.live_button, *self.steps.values()),
            self.slider,
            self.message,
            *self.panes.values(),
            sizing_mode="stretch_width",
        )

    # -- the table -----------------------------------------------------------------------------

    def bind(self, table, role: str, seat: str | None = None, draw: Callable | None = None) -> None:
        """Replay ``table`` as ``role`` (and ``seat``; drawn by ``draw`` if given); back to live."""
        self.table, self.role, self.seat = table, role, seat
        self._draw = draw or self._draw
        self._shown = None
        self.back_to_live()
        if table is not None:
            self.follow(self.seen())

    def _seqs(self) -> list[int] | None:
        """The events this reader sees, in order (None for the GM, who sees every one).

        A player or spectator replays their own numbering, as their log counts (1, 2, ... with
        no gap where an event they may not see was: issue 20); read once per table version.
        """
        return reader_seqs(self.service, self.table, self.role, self.seat)

    def seen(self) -> int:
        """How many events this reader sees in all (the slider's end)."""
        seqs = self._seqs()
        return self.table.version if seqs is None else len(seqs)

    def _seq(self, n: int) -> int:
        """The table's event count behind this reader's event ``n``."""
        seqs = self._seqs()
        return n if seqs is None else seqs[min(max(n, 1), len(seqs)) - 1]

    def table_event(self) -> int | None:
        """The table's event count behind the event replayed (None: live): the momentum's x."""
        return None if self.at is None or self.table is None else self._seq(self.at)

    def _starts(self) -> list[tuple[int, int]]:
        """The table's round starts (in this reader's numbering), read once per table version."""
        t = self.table
        if t is None:
            return []
        starts = self.service.drawing(t, t.version, "round starts", None, t.round_starts)
        seqs = self._seqs()
        if seqs is None:
            return starts
        return [(r, max(bisect_right(seqs, at), 1)) for r, at in starts]

    def drawn(self, n: int) -> dict:
        """The page's drawing of the table as this role saw it after event ``n`` (cached).

        Raises PermissionError when this seat was not at the table at event ``n``.
        """
        t, role, seat = self.table, self.role, self.seat
        return self.service.drawing(
            t, t.version, "replay", (role, seat, n),
            lambda: self._draw(t.view_for(role, seat, at=self._seq(n))),
        )  # fmt: skip

    def _moved(self, *events) -> None:
        names = {e.name for e in events}
        started = any(e.name == "at" and (e.old is None) != (e.new is None) for e in events)
        if self.at is None and "at" in names:
            set_query(at=None)
        if self.table is None:
            return
        if self.at is None:
            if started:
                self._on_change(False)
            return
        if "at" not in names and self._view is None:
            return
        with hold():  # one message to the browser for the banner, slider, board and log
            self.show()
            if started:
                self._on_change(True)

    def show(self) -> None:
        """Draw the event replayed (the banner, the slider's bounds, the board)."""
        if self.at is None or self.table is None:
            return
        self.view  # noqa: B018 - built, to be drawn
        n, count = self.at, self.count
        update(self.slider, start=1, end=max(count, 2), value=n)
        update(self.banner, object=banner_html(n, count, self.round_of(self._starts())))
        update(self.steps["back"], disabled=n <= 1)
        update(self.steps["round-back"], disabled=n <= 1)
        update(self.steps["next"], disabled=n >= count)
        update(self.steps["round-next"], disabled=n >= count)
        set_query(at=str(n))
        if n == self._shown:  # the past does not change: only the bounds did
            return
        try:
            d = self.drawn(n)
        except (ValueError, PermissionError):  # the seat joined later
            update(self.message, object=(
                f'<p class="err">You were not at the table yet at event {n}: '
                "move the slider later.</p>"
            ))  # fmt: skip
            return
        update(self.message, object="")
        self._shown = n
        for key, pane in self.panes.items():
            if key == "cards":
                pane.show(d["cards"])
            else:
                update(pane, object=d.get(key, ""))


def query_event(text: str | None) -> int | None:
    """The event a link's ``?at=`` names (a whole number from 1), else None."""
    if text is None or not text.strip().isdigit():
        return None
    n = int(text.strip())
    return n if n >= 1 else None
