"""Two tabs of one phone's browser on one seat: the one left open sits back down (note 0021).

Ronan's seat is open in a tab; the same browser opens it again in a second tab (as a reload does
while the old page is still reconnecting): the second tab has the seat, the first says so and
only watches. When the second tab closes, its session ends (5 s after its websocket, the README
setup's setting) and the first tab sits back down by itself: "· you" on its card, its controls
back, no question. Screenshots of the first tab's note at 390 and 1280 px, light and dark.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_combat_ui import FIRST_RONAN, KEY, card, fight, serve_combat_pages

from tb_playground.service import CombatService, set_service
from tb_playground.views.combat.seat_session import COOKIE

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture
def served(tmp_path):
    """(base URL, service) of /table served in-process with the setup's session settings."""
    service = CombatService(tmp_path / "tables.sqlite", gm_key=KEY)
    set_service(service)
    base, server = serve_combat_pages(
        unused_session_lifetime_milliseconds=5000, check_unused_sessions_milliseconds=1000
    )
    yield base, service
    server.stop()
    set_service(None)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_tab_left_open_sits_back_down(served, browser, theme):
    base, service = served
    table = service.create("Tabs", fight())
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    code = table.view_for("gm")["join_code"]
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    first = phone.new_page()
    first.goto(f"{base}/table?code={code}&seat=ronan&theme={theme}")
    expect(card(first, "ronan")).to_contain_text("· you")
    # The page keeps the seat's token in the browser's cookie once its script ran.
    first.wait_for_function(f"document.cookie.includes('{COOKIE}=')")

    second = phone.new_page()  # the same browser: its cookie holds the seat's token
    second.goto(f"{base}/table?code={code}&seat=ronan&theme={theme}")
    expect(card(second, "ronan")).to_contain_text("· you")
    note = first.locator(".tp-seat-note")
    expect(note).to_contain_text("Your seat (Ronan) is now open on another page of this browser")
    expect(note).to_contain_text("sits back down by itself when that one closes. Until then")
    expect(card(first, "ronan")).not_to_contain_text("· you")
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        first.set_viewport_size({"width": width, "height": 844})
        assert first.evaluate("document.documentElement.scrollWidth <= innerWidth")
        first.screenshot(path=str(SHOTS / f"seat-elsewhere-{width}-{theme}.png"))
    first.set_viewport_size({"width": 390, "height": 844})

    second.close()  # its session ends 5 s after its websocket closed
    expect(card(first, "ronan")).to_contain_text("· you", timeout=30_000)
    expect(note).to_be_hidden()
    expect(first.locator(".tp-banner")).to_be_visible()
    assert service.seats.claims("Tabs")["ronan"].connected
    phone.close()
