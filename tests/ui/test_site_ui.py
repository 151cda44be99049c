"""The site as a user finds it (issue 10): a landing page at `/`, navigation on every page.

Served from a checkout's ``apps/`` (``panel serve apps/*.py --index index``, which runs the same
pages as the README's ``tb-playground serve``; that command is tests/test_reconnect_ui.py's and
tests/test_wheel.py's).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http

from tb_playground.views.kit import PAGES, PROJECT, VIEWPORT

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
ROUTES = [info.route for info in PAGES]


@pytest.fixture(scope="module")
def site():
    """Every app in apps/, served with the setup, with the landing page at /."""
    port = free_port()
    apps = sorted(str(p) for p in (ROOT / "apps").glob("*.py"))
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve", *apps, "--index", "index",
            "--setup", "tb_playground/serve_setup.py",
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        cwd=ROOT,
        # Every page's tests open it again: more than a person's burst from one address.
        env={**os.environ, "TB_PAGE_BURST": "1000"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base}/", timeout=120)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_every_page_is_an_app_in_apps():
    assert {p.stem for p in (ROOT / "apps").glob("*.py")} == {"index", *ROUTES}


def test_the_landing_page_names_the_project_and_links_every_page(page, site):
    page.goto(f"{site}/")
    expect(page.locator("a.card-odds")).to_be_visible(timeout=30_000)
    expect(page.locator("#header .title").first).to_have_text(PROJECT)
    expect(page).to_have_title(PROJECT)
    for info in PAGES:
        card = page.locator(f"a.card-{info.route}")
        expect(card).to_have_attribute("href", f"./{info.route}")
        expect(card.locator("h2")).to_have_text(info.title)
        expect(card.locator("p")).to_have_text(info.summary)
        # its picture is there and was drawn (a real image, not a broken one)
        width = card.locator("img").evaluate("img => img.complete ? img.naturalWidth : 0")
        assert width >= 640
    viewport = page.locator('meta[name="viewport"]')
    expect(viewport).to_have_attribute("content", VIEWPORT)
    # A card takes you to its page.
    page.locator("a.card-odds").click()
    expect(page).to_have_url(f"{site}/odds")
    expect(page.locator(".odds-headline .pct").first).to_have_text("55.0%", timeout=30_000)


@pytest.mark.parametrize("route", ROUTES)
def test_every_page_has_the_navigation_and_the_viewport(page, site, route):
    page.goto(f"{site}/{route}")
    nav = page.locator('.site-nav nav[aria-label="Pages"]')
    expect(nav).to_be_visible(timeout=30_000)  # a page takes a while on a busy machine
    expect(nav.locator("a.home")).to_have_attribute("href", "./")
    for info in PAGES:
        link = nav.locator(f"a.nav-{info.route}")
        expect(link).to_have_attribute("href", f"./{info.route}")
        expect(link).to_have_text(info.title)
    expect(nav.locator('a[aria-current="page"]')).to_have_text(
        next(info.title for info in PAGES if info.route == route)
    )
    expect(page.locator('meta[name="viewport"]')).to_have_attribute("content", VIEWPORT)
    # Home is one click away.
    nav.locator("a.home").click()
    expect(page).to_have_url(f"{site}/")
    expect(page.locator("a.card-rules")).to_be_visible(timeout=30_000)


def test_the_rules_page_shows_the_digest_and_every_text_escaped(page, site):
    page.goto(f"{site}/rules")
    expect(page.locator(".rules-digest h1")).to_contain_text(
        "20 Below: the rules the engine implements", timeout=30_000
    )
    for number in ("000", "001", "002", "003", "004"):
        expect(page.locator(f".rules-source:has(.rules-{number})")).to_have_count(1)
    page.get_by_text("rules/004:").click()  # open the quick reference
    expect(page.locator(".rules-004 pre")).to_contain_text("Four pages, meant to be printed")


#: Where the test run leaves a picture of each page at each width (the README names it).
SCREENSHOTS = ROOT / "screenshots"


@pytest.mark.parametrize("route", ["", *ROUTES])
def test_no_page_scrolls_sideways_on_a_phone_a_tablet_or_a_laptop(page, site, route):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site}/{route}")
    expect(page.locator('.site-nav nav[aria-label="Pages"]')).to_be_visible(timeout=30_000)
    SCREENSHOTS.mkdir(exist_ok=True)
    for width in (390, 768, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(1500)  # plots redraw at the new width
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        page.screenshot(path=str(SCREENSHOTS / f"{route or 'index'}-{width}.png"))
        assert scroll <= inner, f"/{route} is {scroll} px wide at {width} px"
        # the navigation stays inside the screen, every link of it visible
        for info in PAGES:
            box = page.locator(f".site-nav a.nav-{info.route}").bounding_box()
            assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= inner


#: The first answer of each playground page (issue 34): what a new player must see first.
FIRST_ANSWER = {
    "odds": ".odds-headline",
    "damage": ".dmg-answer-line",
    "character": ".sheet-answer",
    "encounter": ".enc-wins",
}


def test_a_phone_shows_each_pages_first_answer_and_the_rule_in_its_first_screen(browser, site):
    """Issue 34: on a 390 x 844 phone the answer (and on /odds the rule) is in the first screen.

    It was at 2,237 px on /damage, 1,770 px on /encounter and 1,308 px on /character. The busy
    icon is drawn whole inside the screen on each page (it was cut at 390 px).
    """
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for route, selector in FIRST_ANSWER.items():
        page.goto(f"{site}/{route}")
        answer = page.locator(selector).first
        expect(answer).to_be_visible(timeout=30_000)
        box = answer.bounding_box()
        assert box is not None and box["y"] + 24 <= 844, f"/{route}: answer at {box}"
        if route == "odds":
            rule = page.locator(".odds-rule").first
            expect(rule).to_contain_text("at or under")
            box = rule.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, f"the rule at {box}"
        busy = page.locator("#header .pn-busy-container .loader").bounding_box()
        assert busy is not None and busy["x"] >= 0 and busy["x"] + busy["width"] <= 390
