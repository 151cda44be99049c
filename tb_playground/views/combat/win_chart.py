"""The chance to win from here and the momentum chart, on /gm and (when shared) on /table.

Issue 23, items 1-3. The numbers come from the table's one ``lab.momentum.Momentum`` (worked
out off the event loop; one run per table version however many pages show it); this view
only shows them. A page binds it to its table (``bind``) and lets go (``unbind``); each result
reaches this page's document on its next tick, never while the page waits. The chart is one
HoloViews figure per page, made once; each update sets its Bokeh data sources' data only
(``WinChart._make_figure`` says why not a ``Pipe``).

The players' chart (the GM's switch "Share the chance with the players", the table option
``share_chance``) is worked out from what the players see: without hidden combatants, whose
markers it leaves out too (``lab.momentum``, module docstring).
"""

from __future__ import annotations

import math
import os
import threading
import weakref
from bisect import bisect_right
from collections.abc import Callable

import holoviews as hv
import holoviews.plotting.bokeh  # noqa: F401 - registers the backend: the options apply at once
import panel as pn
import param
from bokeh.models import Span
from panel.io.document import hold
from panel.io.state import set_curdoc

from tb_playground.formatting import escape, percent
from tb_playground.lab.momentum import MARKER_WORDS, SHARE_OPTION, Momentum, momentum_for

from ..kit import (
    COMBAT_CSS,
    READABLE_BUTTONS,
    TABLE_CSS,
    WIN_CSS,
    ActionToggle,
    LiveHTML,
    next_tick,
    row,
    update,
)

#: How each run is made (the server's: 20,000 fights in one worker process; tests make less).
#: ``TB_WIN_FIGHTS`` sets the fights; 0 turns the chance off (no runs, nothing shown).
RUN_OPTIONS = {"fights": int(os.environ.get("TB_WIN_FIGHTS", "20000")), "seed": 0,
               "process": True}  # fmt: skip

#: The markers' colours and shapes by kind (readable on the light and the dark background).
MARKER_STYLE = {
    "critical": ("#2e8b57", "triangle"),
    "catastrophe": ("#c92a2a", "inverted_triangle"),
    "down": ("#d6336c", "x"),
    "fate": ("#e0a100", "diamond"),
}

#: The legend's sign for each kind: the shape of its mark (``MARKER_STYLE``), in its colour.
MARKER_SIGNS = {"critical": "▲", "catastrophe": "▼", "down": "✕", "fate": "◆"}

_LINE_COLOR = "#1c7ed6"

#: The replay's cursor: a dashed line at the event replayed (readable on both themes).
CURSOR_COLOR = "#7048e8"


def _pane(css_class: str) -> LiveHTML:
    return LiveHTML(
        "", css_classes=[css_class], stylesheets=[COMBAT_CSS, TABLE_CSS, WIN_CSS],
        sizing_mode="stretch_width",
    )  # fmt: skip


def _pct(p: float | None) -> str:
    """A chance in words: whole percents, "over 99%" / "under 1%" near the ends."""
    return percent(p, 0, words=True)


def _whole_events(plot, _element) -> None:
    """Ticks on whole event numbers only (no "1.5")."""
    ticker = plot.state.xaxis[0].ticker
    if getattr(ticker, "min_interval", 1) < 1:
        ticker.min_interval = 1


def _line(data: dict, hooks=()) -> hv.Overlay:
    band = hv.Area(data, "event", [hv.Dimension("low", label="Chance to win (%)"), "high"]).opts(
        color=_LINE_COLOR, alpha=0.18, line_alpha=0, hooks=list(hooks[:1])
    )
    event = hv.Dimension("event", label="Event")
    chance = hv.Dimension("chance", label="Chance to win (%)")
    curve = hv.Curve(data, event, [chance, hv.Dimension("how", label="Worked out")]).opts(
        color=_LINE_COLOR, line_width=2, tools=["hover"], hooks=list(hooks[1:2]),
        hover_tooltips=[("Event", "@event"), ("Chance to win", "@chance{0}%"), ("", "@how")],
    )  # fmt: skip
    return band * curve


def _marks(data: dict, hooks=()) -> hv.Points:
    return hv.Points(data, ["event", "chance"], ["what", "color", "marker"]).opts(
        color="color", marker="marker", size=14, line_width=2,  # color: fill and line
        tools=["hover"],
        hooks=list(hooks),
        hover_tooltips=[("", "@what")],
    )  # fmt: skip


#: The chart's options (the page's figure and ``momentum_plot``).
FIGURE_OPTS = {
    "responsive": True, "min_height": 240, "toolbar": None, "ylim": (-3, 103),
    "show_legend": False, "xlabel": "Event", "padding": (0.03, 0), "ylabel": "Chance to win (%)",
    "fontsize": {"labels": "10pt", "xticks": "9pt", "yticks": "9pt"}, "hooks": [_whole_events],
}  # fmt: skip


def momentum_plot(points: list, title: str = "") -> hv.Overlay:
    """The momentum chart of ``points`` as one HoloViews figure (a notebook's; no updates)."""
    line, marks = series_data(points)
    return (_line(line) * _marks(marks)).opts(**FIGURE_OPTS, title=title)


#: The lines of ``down_plot``, one a combatant in table order (readable on both themes).
DOWN_COLORS = ("#1c7ed6", "#c92a2a", "#2e8b57", "#e0a100", "#7048e8", "#0c8599", "#d6336c")


def down_plot(points: list, title: str = "") -> hv.Overlay:
    """Each combatant's chance to be down by the end of the next round, over the events."""
    events = [p.version for p in points]
    names = {cid: name for p in points for cid, name in p.names.items()}
    curves = [
        hv.Curve(
            (events, [100 * p.chance.down_next_round.get(cid, 0.0) for p in points]),
            "Event", "Down by the next round's end (%)", label=name,
        ).opts(color=DOWN_COLORS[i % len(DOWN_COLORS)], line_width=2)
        for i, (cid, name) in enumerate(names.items())
    ]  # fmt: skip
    opts = {**FIGURE_OPTS, "show_legend": True, "ylabel": "Down by the next round's end (%)"}
    return hv.Overlay(curves).opts(**opts, legend_position="top_left", title=title)


def _same(version: int) -> int:
    """The table's own numbering (the GM's): an event's number is its count."""
    return version


def reader_numbering(seqs: list[int] | None) -> Callable[[int], int]:
    """The reader's number of the table's event count ``version`` (issue 31).

    ``seqs``: the table's events this reader sees, in order (``table_log.readable_seqs``);
    None: the GM, who sees every event and numbers them as the table does. A player numbers
    the events they see 1, 2, ... with no gap where an event they may not see was (their log
    and header's rule, issue 20): the table's count ``version`` is, to them, the number of the
    last event they saw at or before it.
    """
    if seqs is None:
        return _same
    return lambda version: bisect_right(seqs, version)


def series_data(points: list, number: Callable[[int], int] = _same) -> tuple[dict, dict]:
    """The line's and the markers' columns for ``points`` (``Momentum.series``).

    ``number``: the reader's number of a table's event count (``reader_numbering``): the x
    axis counts the events as the reader's log does.
    """
    line = {"event": [], "chance": [], "low": [], "high": [], "how": []}
    marks = {"event": [], "chance": [], "what": [], "color": [], "marker": []}
    for p in points:
        c = p.chance
        line["event"].append(number(p.version))
        line["chance"].append(100 * c.p_win)
        line["low"].append(100 * c.p_win_interval[0])
        line["high"].append(100 * c.p_win_interval[1])
        line["how"].append(how_worked_out(c))
        for m in p.markers:
            color, marker = MARKER_STYLE[m.kind]
            marks["event"].append(number(m.version))
            marks["chance"].append(100 * c.p_win)
            marks["what"].append(m.text)
            marks["color"].append(color)
            marks["marker"].append(marker)
    return line, marks


def how_worked_out(chance) -> str:
    """How a point was worked out, for its hover: exactly, or over how many fights.

    The points before the first page watched the table play fewer fights (``lab.momentum``).
    """
    if chance.exact:
        return "exactly"
    return f"over {chance.fights:,} simulated fights"


def at_event(points: list, n: int | None, label: int | None = None) -> str:
    """The chance as it stood at the table's event ``n`` (the replay's), in words; "" live.

    ``label``: the event as the reader numbers it (a player's log skips what they may not
    see), when it is not the table's ``n``: the only number said (issue 31: each reader's
    numbering is the one on every part of their page).
    """
    if n is None:
        return ""
    label = n if label is None else label
    before = [p for p in points if p.version <= n]
    if not before:
        return f'<p class="status win-then">Replaying event {label}: no chance worked out yet.</p>'
    p = before[-1]
    since = "" if p.version == n else " (the chance last worked out before it)"
    return (
        f'<p class="status win-then">Replaying event {label}: {_pct(p.chance.p_win)} chance '
        f"to win then{since} · the dashed line on the chart.</p>"
    )


def headline(momentum: Momentum | None, audience: str, number: Callable[[int], int] = _same) -> str:
    """The chance, its interval and the rounds left, in words (and "working..." meanwhile).

    ``number``: the reader's number of a table's event count (``reader_numbering``).
    """
    if momentum is None:
        return ""
    point = momentum.latest(audience)
    working = momentum.working(audience)
    if point is None:
        return '<p class="status win-working">Working out the chance to win…</p>'
    c = point.chance
    low, high = c.p_win_interval
    side = escape(c.party_side)
    how = "exactly" if c.exact else f"95%: {_pct(low)} to {_pct(high)}"
    rounds = (
        "the fight is over"
        if c.rounds_left == 0
        else f"about {c.rounds_left:.1f} rounds left"
        if not math.isnan(c.rounds_left)
        else "no end in sight"
    )
    note = ' · <span class="win-working">working…</span>' if working else ""
    error = momentum.error if audience == "gm" else ""
    if error:
        note = f' · <span class="err">{escape(error)}</span>'
    return (
        f'<p class="status win-head"><b>{side}: {_pct(c.p_win)}</b> chance to win from here '
        f"({how}) · {rounds} · after event {number(point.version)}{note}</p>"
    )


def down_table(momentum: Momentum | None, audience: str) -> str:
    """Each combatant's chance to be down by the end of the next round (a small table)."""
    point = momentum.latest(audience) if momentum is not None else None
    if point is None or not point.chance.down_next_round:
        return ""
    c = point.chance
    rows = "".join(
        f"<tr><td>{escape(point.names.get(cid, cid))}</td><td>{_pct(p)}</td></tr>"
        for cid, p in c.down_next_round.items()
        if cid in point.names
    )
    legend = " ".join(
        f'<span class="win-key {k}">{MARKER_SIGNS[k]}</span> {escape(words)}'
        for k, words in MARKER_WORDS.items()
    )
    return (
        f'<table class="tb win-down"><tr><th>Down by the end of round {c.next_round}</th>'
        f"<th>Chance</th></tr>{rows}</table>"
        f'<p class="win-legend">On the chart: {legend}. Point at a mark to read it.</p>'
    )


class WinChart(pn.viewable.Viewer):
    """The chance to win from here: a headline, the momentum chart, the chances to go down.

    Parameters
    ----------
    audience : str
        "gm" (the whole table, and the switch that shares it) or "players" (shown only while
        the GM shares it; worked out from what the players see).
    send : callable, optional
        The GM page's ``send(command)``, for the switch.

    The replay's cursor (``follow(replay)``): while the page replays event N, a dashed line
    stands at event N (as the reader numbers it, like the x axis) and the headline says the
    chance then; back at live it goes.
    """

    cursor = param.Integer(
        default=None,
        allow_None=True,
        doc="The table's event the page replays (its event count), a line on the chart; "
        "None: live, no line.",
    )

    def __init__(self, audience: str = "gm", send=None, **params):
        super().__init__(**params)
        self.audience = audience
        self._send = send
        self.momentum: Momentum | None = None
        self._handle: int | None = None
        self._doc = None
        self._lock = threading.Lock()
        self._scheduled = False
        self._shown_points = -1
        self._figure: pn.pane.HoloViews | None = None
        self._data = series_data([])
        self._handles: dict = {}  # this page's Bokeh data sources and figure (``_keep``)
        self.span: Span | None = None  # the replay's cursor on the drawn figure
        self._replay = None
        self._label: int | None = None  # the event replayed as the reader numbers it
        self._seqs: Callable[[], list[int] | None] | None = None  # the reader's events (bind)
        self.head = _pane("win-now")
        self.at = _pane("win-at")
        self.down = _pane("win-chances")
        items = [self.head]
        if audience == "gm":
            self.share = ActionToggle(
                label="Share the chance with the players", css_classes=["win-share"], width=280,
                stylesheets=[READABLE_BUTTONS],
            )  # fmt: skip
            self.share.param.watch(self._share, "value")
            items.append(self.share)
        self._items = [pn.pane.Markdown("### The chance to win from here"), row(*items), self.at]
        # A player's page holds nothing of it until the GM shares it (note 0009: memory).
        self._layout = pn.Column(
            *(self._items if audience == "gm" else []),
            sizing_mode="stretch_width",
            css_classes=["win-chart"],
            visible=audience == "gm",
        )

    def __panel__(self):
        return self._layout

    # -- the chart, made the first time it shows ----------------------------------------------

    def _make_figure(self) -> None:
        """The figure, made once by HoloViews; its updates go to its data sources alone.

        A ``Pipe`` into a ``DynamicMap`` re-renders the elements on every update: 40-150 ms
        of the server's loop per page at load 10 (the fan-out's budget is 150 ms). The hooks
        keep this page's Bokeh data sources and x range instead, and ``_show`` sets their
        data (about a millisecond), so the figure is never rebuilt nor re-rendered.
        """
        line, marks = self._data
        keep = self._keep
        figure = (_line(line, (keep("band"), keep("line"))) * _marks(marks, (keep("marks"),))).opts(
            **{**FIGURE_OPTS, "hooks": [_whole_events, keep("figure")]}
        )
        self._figure = pn.pane.HoloViews(
            figure, sizing_mode="stretch_width", min_height=240, css_classes=["win-figure"]
        )
        self._layout.extend([self._figure, self.down])

    def _keep(self, what: str):
        """A hook that keeps this page's Bokeh handle of ``what`` and shows the newest data.

        HoloViews keeps an element's hooks in its process-wide option tree until the element
        is collected, so the hook holds this chart weakly: a strong reference would keep the
        element, the chart and its whole page alive after the page closed.
        """
        chart = weakref.ref(self)

        def hook(plot, _element) -> None:
            self = chart()
            if self is None:
                return
            self._handles[what] = plot.state if what == "figure" else plot.handles["source"]
            if what == "figure" and (self.span is None or self.span not in plot.state.center):
                self.span = Span(
                    location=0, dimension="height", line_color=CURSOR_COLOR, line_width=2,
                    line_dash="dashed", visible=False, name="replay-cursor",
                )  # fmt: skip
                plot.state.add_layout(self.span)
            if len(self._handles) == 4:
                self._show()

        return hook

    def _show(self) -> None:
        """Put ``self._data`` into the figure's data sources (once it is drawn)."""
        if len(self._handles) < 4:
            return
        line, marks = self._data
        events = line["event"]
        self._handles["band"].data = {
            "x": events + events[::-1], "y": line["high"] + line["low"][::-1]
        }  # fmt: skip
        self._handles["line"].data = {"event": events, "chance": line["chance"], "how": line["how"]}
        self._handles["marks"].data = marks
        self._show_cursor()

    def _show_cursor(self) -> None:
        """The dashed line at ``cursor`` (hidden when live), the x range holding it too."""
        n = self._cursor_x()
        if self.span is not None:
            if n is not None:
                self.span.location = n
            self.span.visible = n is not None
        events = self._data[0]["event"]
        ends = [*events, *([] if n is None else [n])]
        if ends and "figure" in self._handles:
            x = self._handles["figure"].x_range
            start, end = min(ends), max(ends)
            pad = max(1.0, 0.03 * (end - start))  # a mark at either end stays whole
            if (x.start, x.end) != (start - pad, end + pad):
                x.start, x.end = start - pad, end + pad

    def _number(self) -> Callable[[int], int]:
        """The reader's number of a table's event count (``reader_numbering``, ``bind``)."""
        return reader_numbering(self._seqs() if self._seqs is not None else None)

    def _cursor_x(self) -> int | None:
        """Where the replay's line stands: the event replayed, as the reader counts."""
        if self.cursor is None:
            return None
        return self._label if self._label is not None else self._number()(self.cursor)

    @param.depends("cursor", watch=True)
    def _cursor_moved(self) -> None:
        self._show_cursor()
        if self.audience == "gm":  # nothing on a replayed page changes the table
            update(self.share, disabled=self.cursor is not None)
        m = self.momentum
        text = at_event(m.series(self.audience), self.cursor, self._label) if m else ""
        update(self.at, object=text)

    def follow(self, replay) -> None:
        """Put the cursor where ``replay`` (a ``ReplayPanel``) is: its ``at``.

        A player replays their own numbering, the one of the chart's x axis (``bind``);
        ``replay.table_event()`` maps it to the table's event count, whose point it shows.
        """
        if self._replay is not None:
            return
        self._replay = replay

        def moved(*_events) -> None:
            self._label = replay.at
            self.cursor = replay.table_event()

        replay.param.watch(moved, ["at"])
        moved()

    # -- binding to a table ---------------------------------------------------------------------

    def bind(self, table, doc=None, seqs: Callable[[], list[int] | None] | None = None) -> None:
        """Show ``table``'s chance (its one ``Momentum``), updated on this page's loop.

        ``seqs()``: the table's events this page's reader sees, in order, or None for the GM
        (``replay_panel.reader_seqs``): the headline, x axis and replay's words number the
        events as the reader's log and header do (issue 31). None: the table's numbering.
        """
        self.unbind()
        self._seqs = seqs
        if RUN_OPTIONS["fights"] <= 0:  # turned off for this server
            self._layout.visible = False
            return
        self._doc = doc if doc is not None else pn.state.curdoc
        self.momentum = momentum_for(table, **RUN_OPTIONS)
        self._shown_points = -1
        self._handle = self.momentum.watch(self._heard, self.audience)
        self.refresh()

    def unbind(self) -> None:
        """Stop listening (the page closed or opened another table)."""
        if self.momentum is not None and self._handle is not None:
            self.momentum.unwatch(self._handle)
        self.momentum = None
        self._handle = None

    def _heard(self, what: str) -> None:
        """From the momentum's threads: one refresh on this page's next tick."""
        if self.audience != "gm" and what == "working":
            return  # the players' pages wait for results only
        with self._lock:
            if self._scheduled:
                return
            self._scheduled = True
        doc = self._doc
        if doc is None or getattr(doc, "session_context", None) is None:
            self._refresh_now()
            return
        next_tick(doc, self._refresh_now, gone=self.unbind)  # from the momentum's thread

    def _refresh_now(self) -> None:
        with self._lock:
            self._scheduled = False
        doc = self._doc
        if doc is None or getattr(doc, "session_context", None) is None:
            self.refresh()
            return
        with set_curdoc(doc), hold(doc):
            self.refresh()

    def refresh(self) -> None:
        """Show the momentum's newest numbers (in this page's document)."""
        m = self.momentum
        if m is None:
            return
        shown = self.audience == "gm" or m.shared
        self._layout.visible = shown
        if self.audience == "gm":
            update(self.share, value=m.shared)
        if not shown:
            return
        if self._figure is None:
            if self.audience != "gm":
                self._layout.extend(self._items)
            self._make_figure()
        number = self._number()
        update(self.head, object=headline(m, self.audience, number))
        points = m.series(self.audience)
        key = (len(points), points[-1].version if points else -1)
        if key != self._shown_points:
            self._shown_points = key
            self._data = series_data(points, number)
            self._show()
            update(self.down, object=down_table(m, self.audience))
            if self.cursor is not None:  # a past point came in under the replay's cursor
                update(self.at, object=at_event(points, self.cursor, self._label))

    def _share(self, event) -> None:
        m = self.momentum
        if self._send is not None and m is not None and bool(event.new) != m.shared:
            self._send({"type": "table_option", "option": SHARE_OPTION, "on": bool(event.new)})


__all__ = [
    "RUN_OPTIONS",
    "WinChart",
    "down_plot",
    "at_event",
    "down_table",
    "headline",
    "how_worked_out",
    "momentum_plot",
    "reader_numbering",
    "series_data",
]
