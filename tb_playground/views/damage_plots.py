"""HoloViews elements for the damage explorer, drawn from engine results. No maths here."""

from __future__ import annotations

import holoviews as hv
import numpy as np

from tb_playground.engine import FightOdds, KiValue

#: Colours of the three damage cases.
CASE_COLORS = {"Ordinary hit": "#2e8b57", "Critical hit": "#e0a100", "Per attack": "#34495e"}

#: Heatmap titles by statistic.
GRID_TITLES = {"expected": "Expected levels on a hit", "any": "P(at least one level) on a hit"}


def levels_plot(on_hit: np.ndarray, on_critical: np.ndarray, per_attack: np.ndarray) -> hv.Overlay:
    """Grouped bars of P(levels == k) for an ordinary hit, a critical hit and per attack."""
    rows = []
    cases = (("Ordinary hit", on_hit), ("Critical hit", on_critical), ("Per attack", per_attack))
    for offset, (case, dist) in zip((-0.28, 0.0, 0.28), cases, strict=True):
        for k, p in enumerate(dist):
            if p > 0:
                rows.append((k + offset - 0.13, 0.0, k + offset + 0.13, 100 * p, case))
    bars = hv.Rectangles(rows, vdims=["Case"]).opts(
        color="Case",
        cmap=CASE_COLORS,
        line_color=None,
        show_legend=True,
        legend_position="top_right",
    )
    return bars.opts(
        xlabel="Levels dealt",
        ylabel="Chance (%)",
        xlim=(-0.6, len(on_hit) - 0.4),
        ylim=(0, min(100.0, 1.15 * max(r[3] for r in rows)) if rows else 100.0),
        xticks=list(range(len(on_hit))),
        responsive=True,
        height=300,
        toolbar=None,
        title="Levels that get over the wall",
    )


def grid_plot(grid: np.ndarray, statistic: str) -> hv.Overlay:
    """Heatmap over wall 0..10 x dice 1..n with the cell values written in."""
    walls = np.arange(grid.shape[1])
    dice = np.arange(1, grid.shape[0] + 1)
    heat = hv.Image((walls, dice, grid), ["Wall", "Dice"], "value").opts(
        cmap="viridis", colorbar=False, tools=["hover"], toolbar=None
    )
    w, d = np.meshgrid(walls, dice)
    fmt = "{:.1f}" if statistic == "expected" else "{:.0%}"
    labels = hv.Labels(
        (w.ravel(), d.ravel(), [fmt.format(v) for v in grid.ravel()]), ["Wall", "Dice"], "text"
    ).opts(text_font_size="7pt", text_color="white")
    return (heat * labels).opts(
        responsive=True,
        height=380,
        title=GRID_TITLES[statistic],
        xticks=list(walls),
        yticks=list(dice),
    )


def grid_marker(dice: int, wall: int, max_dice: int) -> hv.Points:
    """The current pool and wall on the heatmap (hidden when the pool is off the grid)."""
    points = [(wall, dice)] if 1 <= dice <= max_dice else []
    return hv.Points(points, ["Wall", "Dice"]).opts(
        marker="square", size=22, fill_alpha=0, line_color="red", line_width=3
    )


def ki_plot(worth: KiValue) -> hv.Bars:
    """Expected extra levels from the 1st, 2nd, ... Ki boost."""
    k = [str(i) for i in range(1, len(worth.extra_levels) + 1)]
    return hv.Bars((k, worth.extra_levels), "Boost (k-th Ki)", "Extra levels").opts(
        color="#8e44ad",
        responsive=True,
        height=260,
        toolbar=None,
        title="What each Ki point is worth",
    )


def rounds_plot(fight: FightOdds) -> hv.Overlay:
    """P(at 0 or below) and P(dead / bottom) by the end of each round."""
    r = np.arange(1, fight.rounds + 1)
    down = hv.Curve((r, 100 * fight.p_down_by), "Round", "Chance (%)", label="Down (0 or below)")
    dead = hv.Curve((r, 100 * fight.p_dead_by), "Round", "Chance (%)", label="Dead / bottom")
    return (down.opts(color="#c0392b") * dead.opts(color="black", line_dash="dashed")).opts(
        ylim=(0, 101),
        responsive=True,
        height=280,
        legend_position="top",
        legend_cols=2,
        toolbar=None,
        title="Rounds until the target goes down",
    )
