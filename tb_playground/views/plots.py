"""HoloViews elements drawn from engine results. Shaping data for display only, no maths."""

from __future__ import annotations

import holoviews as hv
import numpy as np

from tb_playground.engine import OUTCOMES, TOTALS, Odds, success_curve

#: One colour per Core Roll outcome, used by every view.
OUTCOME_COLORS = {
    "critical": "#e0a100",
    "success": "#2e8b57",
    "failure": "#9aa5b1",
    "catastrophe": "#c0392b",
}

#: Labels for the net Advantage sign.
ADVANTAGE_LABELS = {-1: "Disadvantage", 0: "Normal", 1: "Advantage"}

#: Line colour per net Advantage sign.
ADVANTAGE_COLORS = {-1: "#c0392b", 0: "#34495e", 1: "#2e8b57"}

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
        legend_position="top",
        legend_cols=2,
    )
    marker = hv.VLine(_tn_boundary(odds.target)).opts(color="black", line_dash="dashed")
    return (bars * marker).opts(
        xlabel="Kept total of 2d10",
        ylabel="Chance (%)",
        xlim=(1.4, 20.6),
        ylim=(0, 15),
        xticks=list(TOTALS),
        responsive=True,
        height=300,
        toolbar=None,
        title=f"{ADVANTAGE_LABELS[odds.advantage]} roll, TN {odds.target} (dashed line)",
    )


def curve_family(odds: Odds) -> tuple[int, bool, int]:
    """What the three curves depend on: (crit_max, reroll_catastrophe, advantage shown bold)."""
    return (odds.crit_max, odds.reroll_catastrophe, odds.advantage)


def curves_plot(family: tuple[int, bool, int]) -> hv.Overlay:
    """P(success) over TN for Disadvantage, Normal and Advantage (the current roll in bold).

    Drawn only when the critical band, the Master's reroll or the roll type changes, not on
    every Element or Difficulty move: ``curve_marker`` follows those.
    """
    crit_max, reroll, current = family
    curves = [
        hv.Curve(
            (CURVE_TARGETS, 100 * success_curve(CURVE_TARGETS, sign, crit_max, reroll)),
            "Target Number",
            "Success (%)",
            label=label,
        ).opts(color=ADVANTAGE_COLORS[sign], line_width=2.5 if sign == current else 1.5)
        for sign, label in ADVANTAGE_LABELS.items()
    ]
    return hv.Overlay(curves)


def curve_marker(odds: Odds) -> hv.Overlay:
    """The current TN and its odds on the curves chart."""
    shown_tn = int(np.clip(odds.target, CURVE_TARGETS[0], CURVE_TARGETS[-1]))
    here = hv.Points([(shown_tn, 100 * odds.p_success)], label="You are here").opts(
        size=10, color="black"
    )
    return hv.VLine(shown_tn).opts(color="gray", line_dash="dotted") * here


def curves_chart(family_dmap: hv.DynamicMap, marker_dmap: hv.DynamicMap) -> hv.Overlay:
    """The curves and the marker overlaid, with the chart's options."""
    return (family_dmap * marker_dmap).opts(
        ylim=(0, 101),
        legend_position="top",
        legend_cols=2,
        responsive=True,
        height=300,
        toolbar=None,
        title="Odds over the Target Number",
    )
