"""HoloViews elements for the damage explorer, drawn from engine results. No maths here.

Every chart sets its axis ranges from its own data and ``framewise=True`` (``CHART_OPTS``),
so inside a DynamicMap the axes follow each update: 8 dice show levels 0..8, not the first
frame's 0..3.
"""

from __future__ import annotations

import holoviews as hv
import numpy as np

from tb_playground.engine import FightOdds, KiValue

from .plots import CHART_OPTS, LEGEND_ABOVE

#: Colours of the three damage cases (readable on the light and the dark theme).
CASE_COLORS = {"Ordinary hit": "#2e8b57", "Critical hit": "#e0a100", "Per attack": "#1c7ed6"}

#: The heatmap's title: per hit (a miss is not counted), unlike the headline's per attack.
GRID_TITLE = "Levels per hit (misses not counted)"

#: The colour bar's title by statistic.
GRID_UNITS = {"expected": "expected levels", "any": "% at least one"}


def _bars(cases, offsets=(-0.28, 0.0, 0.28), half=0.13) -> list[tuple]:
    """Rectangles for grouped bars: one per case and level with a non-zero chance."""
    rows = []
    for offset, (case, dist) in zip(offsets, cases, strict=False):
        for k, p in enumerate(dist):
            if p > 0:
                rows.append((k + offset - half, 0.0, k + offset + half, 100 * float(p), case))
    return rows


def _bar_chart(rows: list[tuple], levels: int, **opts) -> hv.Rectangles:
    bars = hv.Rectangles(rows, vdims=["Case"]).opts(
        color="Case", cmap=CASE_COLORS, line_color=None, show_legend=True
    )
    top = max((r[3] for r in rows), default=100.0)
    return bars.opts(
        ylabel="Chance (%)",
        xlim=(-0.6, levels - 0.4),
        ylim=(0, min(105.0, 1.12 * top)),
        xticks=list(range(levels)) if levels <= 13 else list(range(0, levels, 2)),
        **LEGEND_ABOVE,
        **CHART_OPTS,
        **opts,
    )


def levels_plot(
    on_hit: np.ndarray, on_critical: np.ndarray, per_attack: np.ndarray
) -> hv.Rectangles:
    """Grouped bars of P(levels == k) for an ordinary hit, a critical hit and per attack.

    The x axis runs over every level the pool can deal, the y axis to the tallest bar.
    """
    cases = (("Ordinary hit", on_hit), ("Critical hit", on_critical), ("Per attack", per_attack))
    levels = max(len(on_hit), len(on_critical), len(per_attack))
    return _bar_chart(
        _bars(cases), levels, xlabel="Levels that get over the wall", title="Levels dealt"
    )


def armor_plot(hit: np.ndarray, critical: np.ndarray, zone: str) -> hv.Rectangles:
    """Bars of P(the armor loses 0 or 1 level) on an ordinary and a critical hit.

    rules/002 "What Does Armor Do?": while armor covers the attack the wearer takes nothing
    and the armor loses at most one level an attack.
    """
    cases = (("Ordinary hit", hit), ("Critical hit", critical))
    return _bar_chart(
        _bars(cases, offsets=(-0.15, 0.15)),
        2,
        xlabel=f"Levels the {zone} armor loses (the wearer takes none)",
        title="While the armor holds",
    )


def _cell_text(value: float, statistic: str) -> str:
    """A heatmap cell in at most three characters; never "-0", never a false 0 or 100."""
    if statistic == "any":
        pct = 100 * value
        if pct <= 0:
            return "0"
        if pct < 1:
            return "<1"
        if pct >= 100:
            return "100"
        if pct > 99:
            return ">99"
        return f"{pct:.0f}"
    if value <= 0:
        return "0"
    if value < 0.05:
        return "<.1"
    return f"{value:.1f}" if value < 9.95 else f"{value:.0f}"


def grid_plot(grid: np.ndarray, statistic: str) -> hv.Overlay:
    """Heatmap over wall 0..10 x dice 1..n with the cell values written in.

    Cells are written in at most three characters, dark on the light cells and light on
    the dark ones; a colour bar names the scale.
    """
    walls = np.arange(grid.shape[1])
    dice = np.arange(1, grid.shape[0] + 1)
    shown = np.clip(grid, 0, None) * (100 if statistic == "any" else 1)
    top = 100.0 if statistic == "any" else max(float(shown.max()), 1.0)
    heat = hv.Image(
        (walls, dice, shown),
        ["Wall", "Dice"],
        hv.Dimension("value", label=GRID_UNITS[statistic]),
    ).opts(
        cmap="viridis",
        clim=(0, top),
        colorbar=True,
        colorbar_position="bottom",
        colorbar_opts={"title": GRID_UNITS[statistic], "height": 12, "padding": 4},
        tools=["hover"],
        toolbar=None,
    )
    w, d = np.meshgrid(walls, dice)
    text = np.array([_cell_text(v, statistic) for v in grid.ravel()])
    light = shown.ravel() > 0.55 * top
    labels = [
        hv.Labels((w.ravel()[mask], d.ravel()[mask], text[mask]), ["Wall", "Dice"], "text").opts(
            text_font_size="8pt", text_color=colour
        )
        for mask, colour in ((light, "black"), (~light, "white"))
    ]
    return (heat * labels[0] * labels[1]).opts(
        xlim=(walls[0] - 0.5, walls[-1] + 0.5),
        ylim=(dice[0] - 0.5, dice[-1] + 0.5),
        xticks=list(walls),
        yticks=list(dice),
        framewise=True,
    )


def grid_chart(grid_dmap: hv.DynamicMap, marker_dmap: hv.DynamicMap) -> hv.Overlay:
    """The heatmap and the current pool's marker overlaid, with the chart's options.

    The title and sizing sit on this outer overlay: options set inside a DynamicMap's
    overlay are lost once it is overlaid again.
    """
    return (grid_dmap * marker_dmap).opts(
        title=GRID_TITLE,
        xlabel="Wall (Soak / Presence / Psyche)",
        ylabel="Damage dice",
        **{**CHART_OPTS, "min_height": 480},
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
    extra = np.asarray(worth.extra_levels, dtype=float)
    top = float(extra.max()) if extra.size else 1.0
    return hv.Bars((k, extra), "Boost (k-th Ki)", "Extra levels").opts(
        color="#ae3ec9",
        ylim=(0, max(0.1, 1.12 * top)),
        title="What each Ki point is worth",
        **{**CHART_OPTS, "min_height": 300},
    )


def rounds_plot(fight: FightOdds) -> hv.Overlay:
    """P(at 0 or below) and P(dead / bottom) by the end of each round."""
    r = np.arange(1, fight.rounds + 1)
    down = hv.Curve((r, 100 * fight.p_down_by), "Round", "Chance (%)", label="Down (0 or below)")
    dead = hv.Curve((r, 100 * fight.p_dead_by), "Round", "Chance (%)", label="Dead / bottom")
    return (down.opts(color="#e03131") * dead.opts(color="#1c7ed6", line_dash="dashed")).opts(
        xlim=(0.5, max(fight.rounds, 1) + 0.5),
        ylim=(0, 102),
        title="Rounds until the target goes down",
        legend_cols=2,
        **LEGEND_ABOVE,
        **CHART_OPTS,
    )
