"""Hostile names run no script, and the GM key leaves the address (issue 33, item 1).

A roster whose every name and text field carries markup (``<img onerror>``, ``<script>``,
``"><svg onload>``) is played at a table; the GM opens every panel of /gm (the turn's actions
and each one's choices, the GM tools, the chase's "Who gives chase", the replay, the night's
numbers) and a player /table: ``window.__xss`` is never set and the names show as their literal
characters. The GM key: once /gm accepts ``?key=``, the address no longer holds it, and a reload
opens the dashboard from the session's cookie. The server and helpers are
tests/ui/test_combat_ui.py's.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_combat_ui import KEY, click, fight, served  # noqa: F401 - the fixture

pytestmark = pytest.mark.ui


def test_the_gm_key_leaves_the_address_and_a_reload_keeps_the_page(served, browser):  # noqa: F811
    base, service, _ = served
    service.create("Friday", fight())
    gm = browser.new_context().new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Friday")
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 1")
    gm.wait_for_function("() => !location.search.includes('key=')")
    assert KEY not in gm.url and "table=Friday" in gm.url
    cookies = gm.context.cookies()
    assert [(c["name"], c["path"], c["sameSite"]) for c in cookies] == [("tb_gm", "/gm", "Strict")]
    assert KEY not in cookies[0]["value"]
    # Back in history finds no address with the key either (replaced, not pushed).
    assert KEY not in gm.evaluate("() => history.length + ' ' + location.href")

    gm.reload()  # the cookie, not the key, opens the dashboard
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 1")
    assert KEY not in gm.url

    # The typed key: accepted, never written into the address; a reload stays unlocked.
    typed = browser.new_context().new_page()
    typed.goto(f"{base}/gm")
    expect(typed.locator(".gm-prompt")).to_contain_text("needs the GM key")
    typed.locator(".gm-key input").fill(KEY)
    click(typed, "gm-key-enter")
    expect(typed.locator(".gm-tables")).to_be_visible()
    assert KEY not in typed.url
    typed.reload()
    expect(typed.locator(".gm-tables")).to_be_visible()

    # Without the cookie the page asks for the key.
    stranger = browser.new_context().new_page()
    stranger.goto(f"{base}/gm?table=Friday")
    expect(stranger.locator(".gm-prompt")).to_contain_text("needs the GM key")
