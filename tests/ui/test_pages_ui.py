"""The character sheet, the GM dashboard and the players' page at 390, 768 and 1280 px, both themes;
and a link to /odds, /damage or /character reproducing the view (issue 11, section 3).

The same checks as tests/ui/test_plots_ui.py makes for /odds and /damage (issue 10, "Tests"): one
page load per page and theme, then at each width the document is exactly as wide as the viewport,
no two controls overlap or leave the screen, the dark theme's tables and headlines keep a text
contrast of at least 4.5:1 (WCAG AA) with no light box behind them (cards, chips, dice follow
the theme), the page itself is dark in the dark theme and light in the light one (opened with
``?theme=light``, which Panel's template alone refused), and a screenshot goes to
``screenshots/`` (the folder the README names). /gm and /table are served over a fresh service
with one table mid-round, so the cards, the order, the log and the attack odds are on the page.

The dark theme's load of /character opens a link with a character and settings in its query
(``ui_helpers.open_link``: the controls show them and a number is the engine's for them).
"""

from __future__ import annotations

from pathlib import Path

import panel as pn
import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http
from ui_helpers import JS_HELPERS, WIDTHS, check_layout, open_link

from tb_playground.models import Encounter, load
from tb_playground.service import CombatService, get_service, set_service
from tb_playground.views import character_page
from tb_playground.views.combat.gm_page import gm_page
from tb_playground.views.combat.table_page import table_page

pytestmark = pytest.mark.ui

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"
KEY = "layout-gm-key-of-16"

#: Per page: what shows once it is drawn, and the text whose dark-theme contrast is measured.
PAGES = {
    "character": (
        ".sheet-movement .d-movement .v",
        ".sheet-stat .v, .sheet-stat .l, table.skill-odds td, table.skill-odds th, "
        "table.attack-odds td, table.attack-odds th, table.versus-card td, table.versus-card th, "
        ".creature-summary, .tabulator-cell, .tabulator-col-title",
    ),
    "gm": (
        ".gm-header .counter",
        ".counter, .join-code, .card .name, .card .meta, .card .num, .card .lbl, .chip, "
        ".order span, .log div, table.att td, table.att th, .odds, .status",
    ),
    "table": (
        ".tp-header .counter",
        ".counter, .card .name, .card .meta, .card .num, .card .lbl, .chip, .order span, "
        ".log div, table.att td, table.att th, .odds, .status, .banner",
    ),
}


def _fight() -> Encounter:
    enc = Encounter(name="Layout fight")
    enc.add(load(ROSTER / "ronan.json"), "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "guard_dog.yaml"), "Foes")
    enc.add(load(ROSTER / "nightmare.yaml"), "Foes")
    return enc


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(base URL, query per page) of one server with the three pages and a table mid-round."""
    service = CombatService(tmp_path_factory.mktemp("tables") / "tables.sqlite", gm_key=KEY)
    set_service(service)
    table = service.create("Layout", _fight())
    ids = table.state["ids"]
    # Ronan first (the players' page then shows his attack controls), the others after.
    table.apply({"type": "start", "initiative": {**dict.fromkeys(ids, 1), ids[0]: 10}})
    for cid in ids:
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal", "bumps": 0})
    code = table.view_for("gm")["join_code"]
    port = free_port()
    server = pn.serve(
        {
            "character": character_page,
            "gm": gm_page,
            "table": table_page,
        },
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    base = f"http://127.0.0.1:{port}"
    wait_for_http(f"{base}/table", timeout=60)
    queries = {
        "character": "?",
        "gm": f"?key={KEY}&table=Layout&",
        "table": f"?code={code}&table=Layout&seat={ids[0]}&",
    }
    yield base, queries
    server.stop()
    set_service(None)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_widths_controls_contrast_and_screenshots(browser, site, name, theme):
    """One load per page and theme, then each width in turn (the layout is fluid)."""
    base, queries = site
    ready, text = PAGES[name]
    if name == "table":  # the seat the other theme's page held waits for it: the GM frees it
        seats = get_service().seats
        for seat in seats.claims("Layout"):
            seats.free("Layout", seat)
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    try:
        if name == "character" and theme == "dark":
            open_link(page, base, name, "theme=dark")  # and check the link's view
        else:
            page.goto(f"{base}/{name}{queries[name]}theme={theme}")  # light: Panel's "default"
        expect(page.locator(ready).first).not_to_have_text("", timeout=30_000)
        page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
        page.evaluate(JS_HELPERS)
        for width in WIDTHS:
            check_layout(page, name, width, theme, text)
    finally:
        context.close()
