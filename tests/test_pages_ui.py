"""The character sheet, the GM dashboard and the players' page at 390, 768 and 1280 px, both themes;
and a link to /odds, /damage or /character reproducing the view (issue 11, section 3).

The same checks as tests/test_plots_ui.py makes for /odds and /damage (issue 10, "Tests"): one
page load per page and theme, then at each width the document is exactly as wide as the viewport,
no two controls overlap or leave the screen, the dark theme's tables and headlines keep a text
contrast of at least 4.5:1 (WCAG AA), and a screenshot goes to ``screenshots/`` (the folder the
README names). /gm and /table are served over a fresh service with one table mid-round, so the
cards, the order, the log and the attack odds are on the page.

A link test opens a page with its settings in the query and checks the controls show them and
a headline number is the one the engine gives for them (computed here, not read from the page).
"""

from __future__ import annotations

import re
from pathlib import Path

import panel as pn
import pytest
from conftest import free_port, wait_for_http
from playwright.sync_api import expect
from ui_helpers import JS_HELPERS, WIDTHS, check_layout

from tb_playground.engine import check_odds
from tb_playground.engine.defense import attack_to_hit
from tb_playground.models import Encounter, load
from tb_playground.models.files import dumps
from tb_playground.service import CombatService, set_service
from tb_playground.views import character_page, damage_page, odds_page
from tb_playground.views.format import percent
from tb_playground.views.gm_page import gm_page
from tb_playground.views.share import pack_text
from tb_playground.views.table_page import table_page

pytestmark = pytest.mark.ui

ROSTER = Path(__file__).resolve().parents[1] / "examples" / "roster"
KEY = "layout-gm-key"

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
            "odds": odds_page,
            "damage": damage_page,
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
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{base}/{name}{queries[name]}" + ("theme=dark" if theme == "dark" else ""))
        expect(page.locator(ready).first).not_to_have_text("", timeout=30_000)
        page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
        page.evaluate(JS_HELPERS)
        for width in WIDTHS:
            check_layout(page, name, width, theme, text)
    finally:
        context.close()


def _controls(page) -> dict[str, object]:
    """Every titled control's value, and each button group's chosen label(s) under its type."""
    page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
    page.evaluate(JS_HELPERS)
    values: dict[str, object] = {}
    for c in page.evaluate("window.__tb.controlValues()"):
        values.setdefault(c["title"] or c["type"], []).append(c["value"])
    return values


def test_a_link_reproduces_the_odds_page(page, site):
    base, _ = site
    page.goto(f"{base}/odds?element=7&difficulty=4&tier=3&advantage=1")
    want = check_odds(7, 4, 3, 1)  # Expert, one situational source (and Expert's own)
    expect(page.locator(".odds-success .pct")).to_have_text(percent(want.p_success), timeout=30_000)
    expect(page.locator(".odds-critical .pct")).to_have_text(percent(want.p_critical))
    controls = _controls(page)
    assert controls["Element"] == [7] and controls["Difficulty"] == [4]
    assert controls["Advantage sources (+1 each)"] == [1]
    assert "Expert" in controls["RadioButtonGroup"]
    # A change goes into the address, so the link copied next shows it.
    page.evaluate(
        "Bokeh.documents[0].all_models.forEach(m => { if (m.title === 'Difficulty') "
        "{ m.value = 8; m.value_throttled = 8; } })"
    )
    expect(page).to_have_url(re.compile(r"difficulty=8"), timeout=20_000)
    assert "element=7" in page.url and "tier=3" in page.url


def test_a_link_reproduces_the_damage_page(page, site):
    base, _ = site
    query = (
        "kind=physical&approach=Water&element=8&dice_source=weapon&weapon_rating=6"
        "&target_defense_stat=2&target_wall=5&boosts=2&cells=any&never_moira=true"
    )
    page.goto(f"{base}/damage?{query}")
    want = attack_to_hit("physical", 8, 2, element_name="Water")
    hit = page.locator(".dmg-hit .v")
    expect(hit).to_have_text(percent(want.p_hit), timeout=30_000)
    expect(page.locator(".dmg-dice .v")).to_have_text("6")
    controls = _controls(page)
    assert controls["Water"] == [8] and controls["Weapon rating (dice)"] == [6]
    assert controls["Ki boosts per attack"] == [2]
    assert controls["Wall: Soak / Presence / Psyche"] == [5]
    groups = controls["RadioButtonGroup"]
    assert {"Physical", "Water", "Weapon", "Chance of at least one level"} <= set(groups)
    never_moira = next(k for k in controls if k.startswith("Moira"))
    assert controls[never_moira] == [True]


def test_a_link_reproduces_the_character_sheet(page, site):
    base, _ = site
    ronan = load(ROSTER / "ronan.json")
    ronan.name, ronan.air = "Ronan from a link", 5
    query = f"sheet={pack_text(dumps(ronan, 'json'))}&boosts=2&advantage=1&vs=Nightmare"
    page.goto(f"{base}/character?{query}")
    # Perception is Trained on Air: the link's Air 5, not the file's 3.
    want = check_odds(5, 6, 1).p_success
    cell = page.locator('.skill-odds tr[data-skill="Perception"] td.p').nth(6)
    expect(cell).to_have_text(percent(want), timeout=30_000)
    expect(page.locator(".sheet-name input")).to_have_value("Ronan from a link")
    controls = _controls(page)
    assert controls["Ki boosts"] == [2] and controls["Against"] == ["Nightmare"]
    assert "Advantage" in controls["RadioButtonGroup"]
    assert "sheet=" in page.url and "vs=Nightmare" in page.url
