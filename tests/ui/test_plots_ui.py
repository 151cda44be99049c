"""The odds and damage pages at a phone's, a tablet's and a desktop's width, in both themes.

Checked in Debian's Chromium (issue 10, "Tests"): the document is exactly as wide as the
viewport (no sideways scrolling); no two controls overlap; every chart's data lies inside its
axes after every control is moved to both ends (Bokeh model ranges against the data sources,
read from page JS); the dark theme's tables and headlines keep a text contrast of at least
4.5:1 (WCAG AA, from computed styles). The dark theme's page is opened from a link with
settings in its query, which must show that view (issue 11, section 3). Screenshots of each
page at each width and theme are saved into ``screenshots/`` (the folder the README names).
"""

from __future__ import annotations

import panel as pn
import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http
from ui_helpers import JS_HELPERS, WIDTHS, check_layout, open_link

from tb_playground.views import damage_page, odds_page

pytestmark = pytest.mark.ui

PAGES = {"odds": (odds_page, ".odds-headline .pct"), "damage": (damage_page, ".dmg-hit .v")}

#: The text whose dark-theme contrast is measured, per page (inside shadow roots).
TEXT = {
    "odds": ".odds-stat .pct, .odds-stat .lbl, .odds-sum, table.target-worth td, "
    "table.target-worth th, table.difficulty-ladder td, table.difficulty-ladder th",
    "damage": ".dmg-stat .v, .dmg-stat .l, .dmg-summary, table.ronan td, table.ronan th, "
    ".ronan-levels",
}


@pytest.fixture(scope="module")
def site():
    """Both pages served once for the module (each session still gets fresh objects)."""
    port = free_port()
    server = pn.serve(
        {"odds": odds_page, "damage": damage_page},
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    url = f"http://127.0.0.1:{port}"
    wait_for_http(f"{url}/odds", timeout=60)
    yield url
    server.stop()


def _open(page, url: str, name: str, dark: bool = False) -> None:
    if dark:  # from a link with settings in its query: the view must be the link's
        open_link(page, url, name, "theme=dark")
    else:
        page.goto(f"{url}/{name}?theme=light")  # what a person types for Panel's "default"
    expect(page.locator(PAGES[name][1]).first).not_to_have_text("", timeout=30_000)
    page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
    page.evaluate(JS_HELPERS)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_widths_controls_contrast_and_screenshots(browser, site, name, theme):
    """One load per page and theme, then each width in turn (the layout is fluid)."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    try:
        _open(page, site, name, dark=theme == "dark")
        for width in WIDTHS:
            check_layout(page, name, width, theme, TEXT[name])
    finally:
        context.close()


def _settled_charts(page, previous: list[dict] | None = None) -> list[dict]:
    """The charts once two reads 0.6 s apart agree (the server has answered).

    First wait up to 30 s for charts (the page draws them once loaded) that differ from
    ``previous`` (the charts before a move): on a loaded machine the server may not have drawn
    or answered by the first two reads, which would then agree on no charts or the old ones.
    """
    for _ in range(60):  # the page draws its charts after it has loaded (kit.after_load)
        now = page.evaluate("window.__tb.charts()")
        if now and now != previous:
            break
        page.wait_for_timeout(500)
    before = None
    for _ in range(60):
        page.wait_for_timeout(600)
        now = page.evaluate("window.__tb.charts()")
        if now == before:
            return now
        before = now
    return now


def _outside(chart: dict) -> list[str]:
    wrong = []
    for axis in ("x", "y"):
        rng, data = chart[axis], chart[f"data_{axis}"]
        if rng is None or data is None:
            continue
        lo, hi = min(rng), max(rng)
        if data[0] < lo - 1e-9 or data[1] > hi + 1e-9:
            wrong.append(f"{chart['title']!r}: {axis} data {data} outside {rng}")
    return wrong


@pytest.mark.parametrize("name", list(PAGES))
def test_chart_data_stays_inside_the_axes_at_both_ends(page, site, name):
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, site, name)
    start = _settled_charts(page)
    assert len(start) >= 2 and not [w for c in start for w in _outside(c)]
    seen = {}
    charts = start
    for high in (True, False, True):
        page.evaluate(f"window.__tb.moveAll({'true' if high else 'false'})")
        charts = _settled_charts(page, previous=charts)
        assert len(charts) == len(start)
        assert any(c["data_x"] for c in charts)
        wrong = [w for c in charts for w in _outside(c)]
        assert not wrong, f"{name}, every control at the {'high' if high else 'low'} end: {wrong}"
        seen.setdefault(high, charts)
    # The moves reached the server: the charts at the two ends are not the same charts.
    assert seen[True] != seen[False], f"{name}: moving every control changed no chart"
