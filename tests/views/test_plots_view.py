"""The charts and words of the odds and damage pages, without a browser (issue 10).

Axis ranges cover the data they are drawn from; heatmap cells are short and never "-0";
the armour chart agrees with the armour sentence (rules/002 "What Does Armor Do?": "you take
nothing while the armor holds"); no code names reach the damage page's controls.
"""

from __future__ import annotations

import re

import holoviews as hv
import numpy as np
import pytest

from tb_playground.engine import (
    armor_distribution,
    check_odds,
    damage_distribution,
    success_curve,
)
from tb_playground.models import Check
from tb_playground.views import OddsPlayground
from tb_playground.views.damage_explorer import DamageExplorer
from tb_playground.views.damage_plots import _cell_text, grid_plot, levels_plot
from tb_playground.views.odds_playground import HEADLINE, _headline_html, _worth_html, rule_html
from tb_playground.views.plots import curves_plot, distribution_plot

hv.extension("bokeh")


def _opts(element) -> dict:
    """The element's plot, norm and style options in one dict."""
    out = {}
    for group in ("plot", "norm", "style"):
        out.update(hv.Store.lookup_options("bokeh", element, group).kwargs)
    return out


@pytest.mark.parametrize("dice", [1, 3, 8, 12, 20])
def test_levels_axis_covers_every_level_the_pool_can_deal(dice):
    """8 dice deal up to 8 levels: the x axis reaches 8, the y axis the tallest bar."""
    hit = damage_distribution(dice, 0)
    crit = damage_distribution(dice, 0, critical=True, klotho=4)
    chart = levels_plot(hit, crit, hit)
    opts = _opts(chart)
    assert opts["framewise"] is True
    lo, hi = opts["xlim"]
    assert lo < 0 and hi > dice
    tallest = 100 * max(hit.max(), crit.max())
    assert opts["ylim"][1] >= tallest
    assert chart.data["x1"].max() <= hi and chart.data["x0"].min() >= lo


@pytest.mark.parametrize("tier", range(5))
def test_distribution_axis_covers_the_bars(tier):
    odds = Check(tier=tier, advantage_sources=3).odds
    chart = distribution_plot(odds)
    bars = chart.get(0)
    opts = _opts(chart)
    assert opts["ylim"][1] >= bars.data["y1"].max()
    assert opts["xlim"][0] <= bars.data["x0"].min() and bars.data["x1"].max() <= opts["xlim"][1]


@pytest.mark.parametrize("value", [-1e-17, -0.0, 0.0, 1e-9, 0.004, 0.005, 0.4, 0.996, 1.0])
def test_chance_cells_never_read_minus_zero_and_fit(value):
    text = _cell_text(value, "any")
    assert not text.startswith("-") and len(text) <= 3
    if value > 0:
        assert text != "0"  # possible is never written as impossible
    if value < 1:
        assert text != "100"


@pytest.mark.parametrize("value", [-1e-15, 0.0, 0.01, 0.96, 9.94, 9.96, 12.0, 19.6])
def test_expected_cells_fit_in_three_characters(value):
    text = _cell_text(value, "expected")
    assert not text.startswith("-") and len(text) <= 3


def test_heatmap_has_a_colour_bar_and_every_cell_written():
    grid = DamageExplorer().attack.grid("any", 12)
    overlay = grid_plot(grid, "any")
    image = overlay.get(0)
    assert _opts(image)["colorbar"] is True
    cells = sum(len(layer) for layer in overlay.values()[1:])
    assert cells == grid.size


def test_armor_chart_and_sentence_agree():
    """Head armour and a called shot: the wearer takes nothing, the armour loses a level."""
    view = DamageExplorer()
    a = view.attack
    a.param.update(target_armor_levels=3, target_armor_zone="head", slow_action="called_shot")
    assert "takes nothing while it holds" in view._armor.object
    chart = view._levels_chart(view.plotted_levels)
    assert "wearer takes none" in _opts(chart)["xlabel"]
    # Bars only at 0 or 1 armour level lost; the ordinary hit's 1 equals the sentence's share.
    assert chart.data["x1"].max() < 1.5
    joint = armor_distribution(a.dice, a.target_wall, a.armor(), True)
    lost = chart.data[(chart.data["Case"] == "Ordinary hit") & (chart.data["x0"] > 0.5)]
    assert lost["y1"].iloc[0] == pytest.approx(100 * joint[1].sum())
    assert f"{100 * joint[1].sum():.1f}%" in view._armor.object
    # Without the called shot the head armour stands aside: the chart is levels over the wall.
    a.slow_action = "none"
    assert "does not cover" in view._armor.object
    chart = view._levels_chart(view.plotted_levels)
    assert _opts(chart)["xlabel"] == "Levels that get over the wall"


def test_headline_says_what_each_number_counts_and_they_add_up():
    odds = check_odds(5, 6)
    html = _headline_html(odds)
    assert "criticals included" in html and "part of Success" in html
    assert "not catastrophic" in html
    # How they add up is said under the rule beside them (issue 34: the rule fits a phone).
    assert "= 100%" in rule_html(Check(element=5, difficulty=6))
    assert [h[0] for h in HEADLINE][0].startswith("Success (")
    assert odds.p_success + odds.p_failure + odds.p_catastrophe == pytest.approx(1.0, abs=1e-12)


def test_one_more_point_is_said_in_words():
    html = _worth_html()
    assert "pts" not in html
    assert "one more point of Difficulty (or of Element) adds" in html
    assert "percentage points" in html
    # The words and the numbers agree: at the first TN, one more point goes from P(t) to P(t+1).
    found = re.search(
        r"At TN (\d+), .*? adds (\d+) percentage points .*?: ([\d.]+)% becomes ([\d.]+)%", html
    )
    t, step, before, after = int(found[1]), int(found[2]), float(found[3]), float(found[4])
    assert before == pytest.approx(100 * float(success_curve(np.array([t]))[0]), abs=0.05)
    assert after == pytest.approx(100 * float(success_curve(np.array([t + 1]))[0]), abs=0.05)
    assert step == round(after - before)


def test_element_slider_is_off_untrained_with_the_reason():
    view = OddsPlayground()
    assert not view._element.disabled and not view._element_note.visible
    view.check.tier = 0
    assert view._element.disabled and view._element_note.visible
    assert "Difficulty alone" in view._element_note.object
    view.check.tier = 2
    assert not view._element.disabled


def test_damage_controls_speak_plain_words():
    """No code name on any control: button labels, select options, widget names."""
    view = DamageExplorer()
    code = re.compile(r"called_shot|stay_up|stay_alive|^none$|^all$|^physical$|^002:|_")
    shown = []
    for widget in view.controls.select(lambda o: hasattr(o, "options") or hasattr(o, "name")):
        if getattr(widget, "name", None) and not str(widget.name).startswith(type(widget).__name__):
            shown.append(str(widget.name))
        options = getattr(widget, "options", None)
        if isinstance(options, dict):
            shown.extend(options)
    assert shown
    bad = [text for text in shown if code.search(text)]
    assert not bad, bad
    view.attack.approach = "Water"
    assert view._element_slider.name == "Water"
    assert np.all(view.attack.grid("any", 3) >= 0)


def test_a_move_redraws_only_the_charts_it_changes():
    """The Element moves the odds (levels per attack, rounds), not the dice's charts."""
    view = DamageExplorer()
    a = view.attack
    redrawn = []
    view.param.watch(
        lambda *events: redrawn.append(sorted(e.name for e in events)),
        ["plotted_levels", "plotted_fight", "plotted_ki", "plotted_grid", "plotted_marker"],
    )
    a.element += 1
    assert redrawn == [["plotted_fight", "plotted_levels"]]
    redrawn.clear()
    a.weapon_rating += 1  # more dice: every chart but the heatmap's numbers
    assert redrawn == [["plotted_fight", "plotted_ki", "plotted_levels", "plotted_marker"]]
    redrawn.clear()
    a.element -= 1
    a.element += 1  # back and forth: the same (cached) numbers as before
    assert all(names == ["plotted_fight", "plotted_levels"] for names in redrawn)
    levels = view.plotted_levels
    assert levels[2] is a.per_attack and not levels[2].flags.writeable


def test_the_heatmaps_colour_bar_names_the_statistic_after_a_toggle():
    """The colour bar's title is drawn once per chart: a toggle draws a new heatmap."""
    view = DamageExplorer()
    first = view._grid_pane.object
    view.statistic = "any"
    assert view._grid_pane.object is not first
    heat = view._grid_pane.object[()].get(0)  # the heatmap layer of the first frame
    image = heat if isinstance(heat, hv.Image) else heat.get(0)
    assert _opts(image)["colorbar_opts"]["title"] == "% at least one"
    redrawn = view._grid_pane.object
    view.attack.boosts = 1  # numbers change, the statistic not: the same chart
    assert view._grid_pane.object is redrawn


def test_a_refused_attack_says_what_the_charts_show():
    view = DamageExplorer()
    view.attack.attacker_exhausted = 5
    assert "No attack" in view._stats.object and "as it would go" in view._stats.object


def test_the_curves_keep_their_styles_whatever_the_roll():
    """Only data moves when the roll type changes: a style changed inside a DynamicMap comes
    back from BokehJS in a notebook as a value Bokeh refuses (issue 22, line_width)."""
    styles, bands = [], {}
    for current in (-1, 0, 1):
        overlay = curves_plot((2, False, current))
        styles.append([(el.label, _opts(el)) for el in overlay])
        band, *curves = overlay
        bands[current] = band.dimension_values(1)
        shown = {-1: curves[0], 0: curves[1], 1: curves[2]}[current]
        assert np.array_equal(bands[current], shown.dimension_values(1))
    assert styles[0] == styles[1] == styles[2]
    assert not np.array_equal(bands[-1], bands[1])
