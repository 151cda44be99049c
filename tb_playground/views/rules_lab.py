"""The rules lab page: what each rules reading changes, side by side.

Lays out ``tb_playground.lab``'s numbers (curves, heatmap, Advantage as a TN modifier, 004's
tables, P(win) under each reading); settings live in the URL (``kit.sync_url``). Notes:
docs/notes/0014-rules-lab.md.
"""

from __future__ import annotations

import io
import textwrap
import threading

import holoviews as hv
import holoviews.plotting.bokeh  # noqa: F401 (registers the backend: options apply at once)
import numpy as np
import panel as pn
import param

from tb_playground.formatting import escape, percent
from tb_playground.lab.reference_tables import TABLES, records_csv
from tb_playground.lab.rules_lab import (
    LAB_SWITCHES,
    ROLL_OVER,
    SUGGESTED_FIGHTS,
    SWITCH_INPUTS,
    AdvantageFit,
    Cancelled,
    SwitchReport,
    WinComparison,
    advantage_as_tn,
    example_encounter,
    picker_options,
    switch_report,
    win_comparison,
)
from tb_playground.models.names import name, options_for
from tb_playground.models.roster import example_roster

from .kit import (
    LAB_CSS,
    MARKDOWN_TABLE_CSS,
    PHONE_CSS,
    READABLE_BUTTONS,
    TABLE_CSS,
    TextMultiChoice,
    after_load,
    flex_box,
    html_box,
    next_tick,
    page,
    sync_url,
)
from .plots import CHART_OPTS, LEGEND_ABOVE

#: The settings a link keeps (``kit.sync_url``), each under its own name.
URL_SETTINGS = ("switch", "element", "stat", "dice", "system", "level", "party", "foes", "fights")

#: Line colours of the two readings (each >= 3:1 on white and on #181818).
DEFAULT_COLOR = "#1c7ed6"
SWITCH_COLOR = "#e8590c"

#: How many fights each reading plays, the choices offered.
FIGHT_CHOICES = (500, 1000, 2000, 5000, 10000, 20000)


def _box(*objects, flex: str = "1 1 340px", **kwargs) -> pn.Column:
    """A flex item of the lab (``kit.flex_box``), a little wider than the other pages'."""
    return flex_box(*objects, flex=flex, **kwargs)


def _pane(css_class: str, **kwargs) -> pn.pane.HTML:
    return html_box(css_class, LAB_CSS, **kwargs)


def _number(value: float, unit: str) -> str:
    """A value for a sentence: percents for chances, else up to two decimals."""
    if unit == "chance":
        return percent(value)
    if np.isnan(value):
        return "-"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


#: Characters per line of a chart title: a title wraps instead of running off a phone's chart.
TITLE_WIDTH = 34


def _title(text: str) -> str:
    """A chart title on lines of at most ``TITLE_WIDTH`` characters (Bokeh draws each line)."""
    return "\n".join(textwrap.wrap(text, TITLE_WIDTH)) or text


def _is_chance(label: str) -> bool:
    return label.lower().startswith("chance")


def curve_plot(curve, default_label: str, switched_label: str) -> hv.Overlay:
    """The default and the switched reading over one axis (shaping only)."""
    chance = _is_chance(curve.y_label)
    scale = 100.0 if chance else 1.0
    ylabel = f"{curve.y_label} (%)" if chance else curve.y_label
    x = np.asarray(curve.x, dtype=float)
    default = np.asarray(curve.default, dtype=float) * scale
    switched = np.asarray(curve.switched, dtype=float) * scale
    lines = [
        hv.Curve((x, default), curve.x_label, ylabel, label=default_label).opts(
            color=DEFAULT_COLOR, line_width=3
        ),
        hv.Curve((x, switched), curve.x_label, ylabel, label=switched_label).opts(
            color=SWITCH_COLOR, line_width=2.5, line_dash="dashed"
        ),
        hv.Scatter((x, switched), curve.x_label, ylabel).opts(color=SWITCH_COLOR, size=5),
    ]
    values = np.concatenate([default, switched])
    values = values[np.isfinite(values)]
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    pad = max(0.05 * (high - low), 0.5 if not chance else 2.0)
    return hv.Overlay(lines).opts(
        title=_title(curve.title),
        xlim=(x.min() - 0.5, x.max() + 0.5),
        ylim=(low - pad, high + pad),
        legend_cols=2,
        **LEGEND_ABOVE,
        **CHART_OPTS,
    )


def difference_plot(heat) -> hv.HeatMap:
    """Switched minus default over two axes, a diverging colour map centred on 0."""
    chance = _is_chance(heat.value_label)
    scale = 100.0 if chance else 1.0
    unit = "percentage points" if chance else heat.value_label
    diff = np.asarray(heat.difference, dtype=float) * scale
    xs, ys = np.meshgrid(np.asarray(heat.x), np.asarray(heat.y))
    keep = np.isfinite(diff)
    top = float(np.abs(diff[keep]).max()) if keep.any() else 0.0
    top = top if top > 1e-9 else 1.0
    data = (xs[keep], ys[keep], diff[keep])
    label = f"Change ({unit})"
    return hv.HeatMap(data, [heat.x_label, heat.y_label], hv.Dimension("change", label=label)).opts(
        title=_title(heat.title),
        cmap="RdBu_r",
        clim=(-top, top),
        colorbar=True,
        colorbar_position="bottom",
        colorbar_opts={"title": label, "height": 12, "padding": 4},
        tools=["hover"],
        xlabel=heat.x_label,
        ylabel=heat.y_label,
        **{**CHART_OPTS, "min_height": 420},
    )


def _csv_download(filename: str, callback, label: str = "Download CSV") -> pn.widgets.FileDownload:
    def make():
        return io.StringIO(callback())

    return pn.widgets.FileDownload(
        callback=make,
        filename=filename,
        label=label,
        color="light",
        width=220,
        margin=(2, 10),
        css_classes=["lab-csv"],
    )


def _help_html(report: SwitchReport) -> str:
    touches = "".join(f"<li>{escape(t)}</li>" for t in report.touches)
    return (
        f"<p><b>{escape(report.sentence)}</b></p>"
        f'<p class="source">Where it comes from: {escape(report.source)}</p>'
        f"<p>What it changes:</p><ul class='lab-touches'>{touches}</ul>"
        f"<p>Leaves alone: {escape(report.unchanged)}</p>"
    )


def _change_html(report: SwitchReport, index: int) -> str:
    """One sentence: where the curve moves most."""
    if index >= len(report.curves):
        return ""
    curve = report.curves[index]
    where = curve.biggest_change()
    if where is None:
        gaps = np.isnan(curve.default) != np.isnan(curve.switched)
        if np.any(gaps):
            return (
                '<p class="lab-note">No change where both readings have a value; where one '
                "line stops, that value cannot happen under that reading.</p>"
            )
        return '<p class="lab-note">No change on this curve at these settings.</p>'
    unit = "chance" if _is_chance(curve.y_label) else "value"
    d, s = float(curve.default[where]), float(curve.switched[where])
    diff = s - d
    size = f"{100 * diff:+.1f} percentage points" if unit == "chance" else f"{diff:+g}"
    return (
        f'<p class="lab-note lab-biggest">Biggest change: {escape(curve.x_label)} '
        f"{int(curve.x[where])}, {escape(_number(d, unit))} &rarr; "
        f"{escape(_number(s, unit))} (<span class='lab-diff'>{escape(size)}</span>).</p>"
    )


def _fit_html(fit: AdvantageFit, level: int) -> str:
    """The Advantage-as-a-flat-modifier table for one level, with the fit errors."""
    i = list(fit.levels).index(level)
    head = "TN" if fit.system == "20 Below" else "DC"
    word = "TN" if fit.system == "20 Below" else "bonus"
    rows = []
    for j, t in enumerate(fit.targets):
        rows.append(
            f"<tr><td>{int(t)}</td><td class='num'>{escape(percent(fit.p_plain[j]))}</td>"
            f"<td class='num'>{escape(percent(fit.p[i, j]))}</td>"
            f"<td class='num'>{int(fit.integer_shift[i, j]):+d}</td>"
            f"<td class='num'>{_points(fit.integer_error[i, j])}</td>"
            f"<td class='num'>{fit.real_shift[i, j]:+.2f}</td>"
            f"<td class='num'>{_points(fit.real_error[i, j])}</td></tr>"
        )
    level_name = _level_name(fit, level)
    summary = (
        f"<p class='lab-note lab-overall'>{escape(level_name)}: one {word} shift for every "
        f"{head}: "
        f"<b>{fit.overall_shift[i]:+.2f}</b>, root mean square error "
        f"{100 * fit.overall_rms[i]:.1f} percentage points.</p>"
    )
    return (
        f"{summary}<div class='lab-scroll'><table class='tb lab-fit'>"
        f"<tr><th rowspan='2'>{head}</th><th class='num' rowspan='2'>Plain</th>"
        "<th class='num' rowspan='2'>With it</th>"
        "<th class='num' colspan='2'>Whole</th>"
        "<th class='num' colspan='2'>Best</th></tr>"
        "<tr><th class='num'>shift</th><th class='num'>error</th>"
        "<th class='num'>shift</th><th class='num'>error</th></tr>"
        f"{''.join(rows)}</table></div>"
        f"<p class='lab-note'>Whole: the nearest whole {word} shift; Best: the real shift that "
        "fits best. A shift s means: the plain roll at "
        + (
            "TN + s succeeds about as often as this roll at TN."
            if fit.system == "20 Below"
            else "DC, with s added to the dice, succeeds about as often as this roll."
        )
        + " The error, in percentage points, is the plain roll's chance at the shift minus this "
        "roll's: 0 when the best shift matches exactly; the plain roll never goes below 1% or "
        "above 99%, so at the ends no shift matches.</p>"
    )


def _points(p: float) -> str:
    """A difference of chances in percentage points, one decimal; never "-0.0"."""
    text = f"{100 * p:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def _level_name(fit: AdvantageFit, level: int) -> str:
    if fit.system == "20 Below":
        return name("advantage", int(np.sign(level)))
    kind = "Advantage" if level > 0 else "Disadvantage"
    return f"{abs(level)} {kind}{'s' if abs(level) > 1 else ''}"


def _win_html(result: WinComparison, report: SwitchReport) -> str:
    if not result.simulated:
        return f"<p class='lab-note lab-win-note'>{escape(result.note)}</p>"
    rows = []
    for side in result.sides:
        lo0, hi0 = result.default_interval[side]
        lo1, hi1 = result.switched_interval[side]
        change = 100 * (result.switched[side] - result.default[side])
        rows.append(
            f"<tr><td>{escape(side)}</td>"
            f"<td class='num'>{escape(percent(result.default[side]))}<br>"
            f"<small>{escape(percent(lo0))} to {escape(percent(hi0))}</small></td>"
            f"<td class='num'>{escape(percent(result.switched[side]))}<br>"
            f"<small>{escape(percent(lo1))} to {escape(percent(hi1))}</small></td>"
            f"<td class='num'>{change:+.1f}</td></tr>"
        )
    return (
        f"<div class='lab-scroll'><table class='tb lab-win'><tr><th>Side wins</th>"
        f"<th class='num'>{escape(report.default_label)}</th>"
        f"<th class='num'>{escape(report.switched_label)}</th>"
        f"<th class='num'>Change (points)</th></tr>{''.join(rows)}</table></div>"
        f"<p class='lab-note'>{escape(result.note)} "
        f"{result.fights:,} fights under each reading, the same dice for "
        "both; 95% intervals under each chance. Draws (no winner by round 50): "
        f"{escape(percent(result.default_draw))} and {escape(percent(result.switched_draw))}."
        "</p>"
    )


class RulesLab(pn.viewable.Viewer):
    """Every rules reading side by side: curves, heatmap, Advantage as a TN, 004's tables."""

    switch = param.Selector(
        default="slow_called_shot_advantage",
        objects=list(LAB_SWITCHES),
        doc="The reading compared with the default (a Ruleset switch or the roll-over draft).",
    )
    element = param.Integer(default=5, bounds=(0, 10), doc="The Element the switch reads.")
    stat = param.Integer(default=3, bounds=(0, 10), doc="The sub-stat the switch reads.")
    dice = param.Integer(default=5, bounds=(1, 12), doc="Damage dice (draft: weapon rating).")
    system = param.Selector(
        default="20 Below",
        objects=["20 Below", "roll-over draft"],
        doc="The dice system of the Advantage table.",
    )
    level = param.Selector(
        default=1,
        objects=[-3, -2, -1, 1, 2, 3],
        doc="The Advantage level of the table (negative: Disadvantage).",
    )
    party = param.List(default=["The Brick"], item_type=str, doc="The party's fighters.")
    foes = param.List(default=["Nightmare"], item_type=str, doc="Their foes.")
    fights = param.Selector(default=2000, objects=list(FIGHT_CHOICES), doc="Fights per reading.")

    def __init__(self, **params):
        super().__init__(**params)
        roster = example_roster()
        characters = [c.name for c in roster.characters]
        creatures = [c.name for c in roster.creatures]
        width = {"sizing_mode": "stretch_width"}
        self._switch = pn.widgets.Select.from_param(
            self.param.switch,
            name="Rule to compare",
            options=picker_options(),
            description=None,
            css_classes=["lab-switch"],
            **width,
        )
        self._help = _pane("lab-help", margin=(0, 10))
        self._element = pn.widgets.IntSlider.from_param(self.param.element, **width)
        self._stat = pn.widgets.IntSlider.from_param(self.param.stat, **width)
        self._dice = pn.widgets.IntSlider.from_param(self.param.dice, **width)
        self._no_inputs = _pane("lab-no-inputs", margin=(0, 10))
        self._curves = [
            pn.pane.HoloViews(sizing_mode="stretch_width", css_classes=[f"lab-curve-{i}"])
            for i in range(2)
        ]
        self._changes = [_pane(f"lab-change-{i}", margin=(0, 10)) for i in range(2)]
        self._curve_csv = [
            _csv_download(f"curve-{i + 1}.csv", lambda i=i: self._curve_csv_text(i))
            for i in range(2)
        ]
        self._curve_boxes = [
            # The plots are drawn once the page has loaded: a plain GET never pays for them.
            _box(after_load(self._curves[i], min_height=360), self._changes[i], self._curve_csv[i])
            for i in range(2)
        ]
        self._heatmap = pn.pane.HoloViews(sizing_mode="stretch_width", css_classes=["lab-heatmap"])
        self._heatmap_note = _pane("lab-heatmap-note", margin=(0, 10))
        self._heatmap_csv = _csv_download("difference.csv", self._heatmap_csv_text)
        # Advantage as a flat modifier
        self._system = pn.widgets.RadioButtonGroup.from_param(
            self.param.system,
            name="Dice system",
            options=options_for("system", ["20 Below", "roll-over draft"]),
            description=None,
            color="success",
            variant="outline",
            css_classes=["lab-system"],
            **width,
        )
        self._level = pn.widgets.Select(label="Advantage level", css_classes=["lab-level"], **width)
        self._fit = _pane("lab-fit-table", margin=(0, 10))
        self._fit_csv = _csv_download("advantage-as-tn.csv", self._fit_csv_text)
        # 004's tables
        self._tables = [
            (
                title,
                pn.pane.Markdown(
                    make("markdown"),
                    css_classes=[f"lab-table-{i}"],
                    stylesheets=[TABLE_CSS, MARKDOWN_TABLE_CSS],
                    sizing_mode="stretch_width",
                ),
                _csv_download(f"004-{i + 1}.csv", lambda make=make: make("csv")),
            )
            for i, (title, make) in enumerate(TABLES.items())
        ]
        # P(win)
        self._party = TextMultiChoice.from_param(
            self.param.party, name="Party", options=characters, description=None, **width
        )
        self._foes = TextMultiChoice.from_param(
            self.param.foes, name="Foes", options=creatures, description=None, **width
        )
        self._fights = pn.widgets.Select.from_param(
            self.param.fights, name="Fights under each reading", description=None, **width
        )
        self._run = pn.widgets.Button(
            label="Play the fights", color="primary", css_classes=["lab-run"]
        )
        self._cancel = pn.widgets.Button(
            label="Cancel",
            color="warning",
            disabled=True,
            css_classes=["lab-cancel"],
            stylesheets=[READABLE_BUTTONS],
        )
        self._progress = pn.indicators.Progress(
            value=0, max=100, visible=False, sizing_mode="stretch_width", css_classes=["lab-bar"]
        )
        self._win = _pane("lab-win", margin=(0, 10))
        self._win_csv = _csv_download("p-win.csv", self._win_csv_text)
        self._win_csv.visible = False
        self._run.on_click(self._start)
        self._cancel.on_click(self._stop)
        self._stop_event = threading.Event()
        self._running = False
        self._win_result: WinComparison | None = None
        self._report: SwitchReport | None = None
        self._fit_result: AdvantageFit | None = None
        sync_url(self, {name: name for name in URL_SETTINGS})
        self._refresh_report()
        self._refresh_fit()
        self.param.watch(self._on_inputs, ["switch", "element", "stat", "dice"])
        self.param.watch(self._on_fit, ["system", "level"])
        self.param.watch(self._on_fight_inputs, ["switch", "party", "foes", "fights"])

    # -- the switch ------------------------------------------------------------------------------

    def _on_inputs(self, *events) -> None:
        self._refresh_report()

    def _refresh_report(self) -> None:
        report = switch_report(self.switch, self.element, self.stat, self.dice)
        self._report = report
        inputs = SWITCH_INPUTS[self.switch]
        with pn.io.hold():
            self._help.object = _help_html(report)
            for key, widget in (
                ("element", self._element),
                ("stat", self._stat),
                ("dice", self._dice),
            ):
                label = inputs[key]
                widget.visible = label is not None
                if label is not None:
                    widget.name = label
            unused = all(v is None for v in inputs.values())
            self._no_inputs.object = (
                "<p class='lab-note'>This rule reads nothing else: its curves run over every "
                "value of what it reads.</p>"
                if unused
                else ""
            )
            self._no_inputs.visible = unused
            for i, pane in enumerate(self._curves):
                shown = i < len(report.curves)
                self._curve_boxes[i].visible = shown
                if shown:
                    pane.object = curve_plot(
                        report.curves[i], report.default_label, report.switched_label
                    )
                    self._changes[i].object = _change_html(report, i)
            if report.heatmap is None:
                self._heatmap.visible = False
                self._heatmap_csv.visible = False
                self._heatmap_note.object = (
                    "<p class='lab-note'>This rule has one input, so there is no heatmap: the "
                    "curve above shows all of it.</p>"
                )
            else:
                self._heatmap.visible = True
                self._heatmap_csv.visible = True
                self._heatmap.object = difference_plot(report.heatmap)
                self._heatmap_note.object = (
                    "<p class='lab-note'>Red: the switch gives more, blue: less, white: no change."
                    " Blank cells cannot happen under the rules.</p>"
                )

    def _curve_csv_text(self, i: int) -> str:
        return records_csv(self._report.curves[i].rows()) if i < len(self._report.curves) else ""

    def _heatmap_csv_text(self) -> str:
        heat = self._report.heatmap
        return records_csv(heat.rows()) if heat is not None else ""

    # -- Advantage as a flat modifier --------------------------------------------------------------

    def _on_fit(self, *events) -> None:
        self._refresh_fit()

    def _refresh_fit(self) -> None:
        if type(self.level) is not int:  # a link's "-3" arrives as -3.0
            with param.discard_events(self):
                self.level = int(self.level)
        fit = advantage_as_tn(self.system)
        self._fit_result = fit
        levels = [int(v) for v in fit.levels]
        options = {_level_name(fit, v): v for v in levels}
        level = self.shown_level(levels)
        with pn.io.hold():
            self._level.param.update(options=options, value=level)
            self._fit.object = _fit_html(fit, level)
        if not getattr(self, "_level_linked", False):
            self._level.link(self, value="level")
            self._level_linked = True

    def shown_level(self, levels: list[int]) -> int:
        """The level the table shows: ``level`` if the system has it, else the nearest one.

        Of the same sign (20 Below counts only the sign); Advantage for 0.
        """
        wanted = int(self.level)
        if wanted in levels:
            return wanted
        sign = 1 if wanted >= 0 else -1
        return min((v for v in levels if v * sign > 0), key=lambda v: abs(v - wanted))

    def _fit_csv_text(self) -> str:
        return records_csv(self._fit_result.rows())

    # -- P(win) ------------------------------------------------------------------------------------

    def _on_fight_inputs(self, *events) -> None:
        picked = [e for e in events if e.name == "switch"]
        if picked and self.switch in SUGGESTED_FIGHTS and not self._running:
            party, foes = SUGGESTED_FIGHTS[self.switch]
            self.param.update(party=list(party), foes=list(foes))  # comes back here
            return
        if not self._running:
            self._show_win_intro()

    def _show_win_intro(self) -> None:
        self._win_result = None
        self._win_csv.visible = False
        note = self._report.simulator_note if self._report else ""
        self._run.disabled = bool(note) or not self.party or not self.foes
        if note:
            self._win.object = f"<p class='lab-note lab-win-note'>{escape(note)}</p>"
        elif not self.party or not self.foes:
            self._win.object = "<p class='lab-note'>Pick at least one fighter on each side.</p>"
        else:
            self._win.object = (
                "<p class='lab-note'>Press the button to play the same fight under the default "
                "and under the switch (a few seconds). Picking a rule starts from a fight close "
                "enough for a change to show.</p>"
            )

    def _start(self, event=None) -> None:
        if self._running:
            return
        try:
            encounter = example_encounter(tuple(self.party), tuple(self.foes))
        except ValueError as exc:
            self._win.object = f"<p class='lab-note'>{escape(exc)}</p>"
            return
        self._running = True
        self._stop_event.clear()
        self._run.disabled = True
        self._cancel.disabled = False
        self._progress.param.update(value=0, visible=True)
        self._win.object = "<p class='lab-note'>Playing the fights...</p>"
        doc = pn.state.curdoc
        switch, fights = self.switch, int(self.fights)

        def on_ui(fn, *args):
            if doc is not None and doc.session_context is not None:
                next_tick(doc, lambda: fn(*args))  # from the worker thread
            else:
                fn(*args)

        def work():
            try:
                result = win_comparison(
                    encounter,
                    switch,
                    fights=fights,
                    seed=1,
                    chunk=max(100, fights // 20),
                    progress=lambda f: on_ui(self._set_progress, f),
                    cancelled=self._stop_event.is_set,
                )
            except Cancelled:
                on_ui(self._finish, None, "Cancelled: nothing was kept.")
            except Exception as exc:  # shown on the page, not lost in a thread
                on_ui(self._finish, None, f"The fights could not be played: {exc}")
            else:
                on_ui(self._finish, result, "")

        threading.Thread(target=work, daemon=True, name="rules-lab-fights").start()

    def _set_progress(self, fraction: float) -> None:
        self._progress.value = int(round(100 * fraction))

    def _stop(self, event=None) -> None:
        self._stop_event.set()

    def _finish(self, result: WinComparison | None, message: str) -> None:
        self._running = False
        with pn.io.hold():
            self._cancel.disabled = True
            self._run.disabled = False
            self._progress.visible = False
            if result is None:
                self._win.object = f"<p class='lab-note'>{escape(message)}</p>"
                self._win_csv.visible = False
            else:
                self._win_result = result
                self._win.object = _win_html(result, self._report)
                self._win_csv.visible = result.simulated

    def _win_csv_text(self) -> str:
        return records_csv(self._win_result.rows()) if self._win_result else ""

    # -- layout ------------------------------------------------------------------------------------

    def __panel__(self) -> pn.viewable.Viewable:
        box = _box
        self._show_win_intro()
        controls = box(
            pn.pane.Markdown("### Which rule", margin=(0, 10)),
            self._switch,
            self._help,
            self._element,
            self._stat,
            self._dice,
            self._no_inputs,
            flex="0 1 420px",
        )
        curves = self._curve_boxes
        tables = [
            box(pn.pane.Markdown(f"#### {escape(title)}", margin=(0, 10)), md, csv)
            for title, md, csv in self._tables
        ]
        return pn.Column(
            pn.FlexBox(controls, *curves, sizing_mode="stretch_width"),
            pn.pane.Markdown("### The difference over two inputs", margin=(0, 10)),
            after_load(self._heatmap, sizing_mode="stretch_width"),
            self._heatmap_note,
            self._heatmap_csv,
            pn.FlexBox(
                box(
                    pn.pane.Markdown("### What Advantage is worth as a flat TN", margin=(0, 10)),
                    self._system,
                    self._level,
                    flex="0 1 420px",
                ),
                box(self._fit, self._fit_csv, flex="1 1 340px"),
                sizing_mode="stretch_width",
            ),
            pn.pane.Markdown("### Who wins the same fight under each reading", margin=(0, 10)),
            pn.FlexBox(
                box(self._party, self._foes, self._fights, flex="0 1 420px"),
                box(
                    pn.Row(self._run, self._cancel, sizing_mode="stretch_width"),
                    self._progress,
                    self._win,
                    self._win_csv,
                ),
                sizing_mode="stretch_width",
            ),
            pn.pane.Markdown(
                "### The quick-reference tables (rules/004), from the engine", margin=(0, 10)
            ),
            pn.FlexBox(*tables, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )


def lab_page() -> pn.template.BaseTemplate:
    """The whole "Rules lab" page, one per session."""
    return page("Rules lab", [RulesLab()], current="lab", raw_css=[PHONE_CSS])


__all__ = ["ROLL_OVER", "RulesLab", "curve_plot", "difference_plot", "lab_page"]
