"""HoloViews elements drawn from engine results. Shaping data for display only, no maths.

Colours are chosen to read on both the light and the dark theme (each line, bar and marker
keeps at least 3:1 against both a white and a #181818 background), and every chart carries
explicit axis ranges taken from its data plus ``framewise=True``, so a DynamicMap's axes
follow each update instead of keeping the first frame's range.
"""

from __future__ import annotations

import holoviews as hv
import numpy as np

from tb_playground.engine import OUTCOMES, TOTALS, Odds, success_curve

#: One colour per Core Roll outcome, used by every view.
OUTCOME_COLORS = {
    "critical": "#e0a100",
    "success": "#2e8b57",
    "failure": "#868e96",
    "catastrophe": "#e03131",
}

#: Labels for the net Advantage sign.
ADVANTAGE_LABELS = {-1: "Disadvantage", 0: "Normal", 1: "Advantage"}

#: Line colour per net Advantage sign.
ADVANTAGE_COLORS = {-1: "#e64980", 0: "#1c7ed6", 1: "#2e8b57"}

#: The Target Number line and the "You are here" dot: visible on both themes.
MARKER_COLOR = "#e8590c"
HERE_COLOR = "#ae3ec9"

#: Options every chart shares: it fills its container's width, never gets squashed below a
#: readable height, and keeps its fonts readable on a phone.
CHART_OPTS = {
    "responsive": True,
    "min_height": 360,
    "toolbar": None,
    "fontsize": {"title": "11pt", "labels": "10pt", "xticks": "9pt", "yticks": "9pt"},
    "framewise": True,
}

#: A legend above the frame (outside the data), on one line where it fits.
LEGEND_ABOVE = {
    "legend_position": "top",
    "legend_opts": {
        "label_text_font_size": "9pt",
        "padding": 2,
        "spacing": 10,
        "margin": 2,
        "label_height": 14,
        "glyph_height": 12,
        "glyph_width": 14,
        "label_standoff": 3,
        "border_line_alpha": 0,
        "background_fill_alpha": 0,
    },
}

#: The width of the band that marks the current roll's curve (its lines are 2 wide).
CURRENT_BAND_WIDTH = 9

#: Target Numbers drawn on the odds-over-TN chart.
CURVE_TARGETS = np.arange(0, 23)


def _tn_boundary(target: int) -> float:
    """X of the line between the last succeeding and the first failing kept total."""
    return float(min(max(target, 1), 19)) + 0.5


def distribution_plot(odds: Odds) -> hv.Overlay:
    """Stacked bars of P(kept total) coloured by outcome, with the TN marked.

    One ``Rectangles`` element (a bar per total and outcome, stacked where a total has two
    outcomes, as a Master's rerolled 20 does) keeps each update to one glyph's data.
    """
    stacked = np.cumsum(odds.by_total * 100, axis=1)
    bottoms = np.concatenate([np.zeros((len(TOTALS), 1)), stacked[:, :-1]], axis=1)
    rows = [
        (total - 0.42, bottoms[i, j], total + 0.42, stacked[i, j], OUTCOMES[j].title())
        for i, total in enumerate(TOTALS)
        for j in range(len(OUTCOMES))
        if stacked[i, j] > bottoms[i, j]
    ]
    bars = hv.Rectangles(rows, vdims=["Outcome"]).opts(
        color="Outcome",
        cmap={name.title(): colour for name, colour in OUTCOME_COLORS.items()},
        line_color=None,
        show_legend=True,
    )
    marker = hv.VLine(_tn_boundary(odds.target)).opts(
        color=MARKER_COLOR, line_dash="dashed", line_width=2
    )
    top = float(stacked[:, -1].max()) if len(rows) else 15.0
    return (bars * marker).opts(
        xlabel="Total of the two dice you keep (low is good)",
        ylabel="Chance (%)",
        xlim=(1.4, 20.6),
        ylim=(0, max(15.0, 1.1 * top)),
        xticks=list(TOTALS[::2]),
        title=f"{ADVANTAGE_LABELS[odds.advantage]} roll, TN {odds.target} (dashed)",
        legend_cols=2,
        **LEGEND_ABOVE,
        **CHART_OPTS,
    )


def curve_family(odds: Odds) -> tuple[int, bool, int]:
    """What the three curves depend on: (crit_max, reroll_catastrophe, advantage shown bold)."""
    return (odds.crit_max, odds.reroll_catastrophe, odds.advantage)


def curves_plot(family: tuple[int, bool, int]) -> hv.Overlay:
    """P(success) over TN for Disadvantage, Normal and Advantage, the current roll highlighted.

    Drawn only when the critical band, the Master's reroll or the roll type changes, not on
    every Element or Difficulty move: ``curve_marker`` follows those. Every line keeps one
    style for good; the current roll is a wide band ("Your roll") under its curve, whose data
    moves. A glyph's style changed inside a DynamicMap comes back from BokehJS in a notebook
    in a form Bokeh refuses (``failed to validate Line.line_width``, issue 22).
    """
    crit_max, reroll, current = family
    odds = {
        sign: 100 * success_curve(CURVE_TARGETS, sign, crit_max, reroll)
        for sign in ADVANTAGE_LABELS
    }
    band = hv.Curve(
        (CURVE_TARGETS, odds[current]), "Target Number", "Success (%)", label="Your roll"
    ).opts(color=HERE_COLOR, line_width=CURRENT_BAND_WIDTH, alpha=0.3)
    curves = [
        hv.Curve((CURVE_TARGETS, odds[sign]), "Target Number", "Success (%)", label=label).opts(
            color=ADVANTAGE_COLORS[sign], line_width=2
        )
        for sign, label in ADVANTAGE_LABELS.items()
    ]
    return hv.Overlay([band, *curves])


def curve_marker(odds: Odds) -> hv.Overlay:
    """The current TN and its odds on the curves chart."""
    shown_tn = int(np.clip(odds.target, CURVE_TARGETS[0], CURVE_TARGETS[-1]))
    here = hv.Points([(shown_tn, 100 * odds.p_success)], label="You are here").opts(
        size=12, color=HERE_COLOR, line_color="white", line_width=1.5
    )
    return hv.VLine(shown_tn).opts(color=MARKER_COLOR, line_dash="dotted", line_width=2) * here


def curves_chart(family_dmap: hv.DynamicMap, marker_dmap: hv.DynamicMap) -> hv.Overlay:
    """The curves and the marker overlaid, with the chart's options."""
    return (family_dmap * marker_dmap).opts(
        xlim=(CURVE_TARGETS[0] - 0.5, CURVE_TARGETS[-1] + 0.5),
        ylim=(0, 102),
        legend_cols=2,
        title="Success by Target Number",
        **LEGEND_ABOVE,
        **CHART_OPTS,
    )
