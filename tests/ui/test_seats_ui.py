"""Seats in Debian's Chromium (issue 20, "Seats"): one live phone per seat.

A second phone on a taken seat is asked and takes it over, the first then only watches; the GM
sees who sits where and frees a seat; a new join code keeps the seated seated (they still act,
after a reload too). Screenshots of the question and of the GM's list at 390 and 1280 px go to
``screenshots/``. The claim rules themselves: tests/table/test_seats.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_combat_ui import FIRST_RONAN, KEY, card, click, fight, join, served  # noqa: F401

from tb_playground.views.combat.seat_session import SeatSession

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page) -> None:
    # After a viewport change the page lays itself out again: wait for it, then check.
    try:
        page.wait_for_function(
            "document.documentElement.scrollWidth <= window.innerWidth", timeout=10_000
        )
    except Exception:  # noqa: BLE001 - the assertion below says what was measured
        pass
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def shoot(page, name: str, locator=None) -> None:
    """Screenshots of ``locator`` (else the viewport) at 390 and 1280 px."""
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        if width == 390:
            no_sideways_scroll(page)
        if locator is not None:
            locator.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"seats-{name}-{width}.png"))
    page.set_viewport_size(PHONE)


def seat(gm, cid: str):
    return gm.locator(f'.gm-seats li[data-seat="{cid}"]')


def test_takeover_free_and_a_new_code_that_keeps_seats(served, browser):  # noqa: F811
    base, service, _ = served
    table = service.create("Seats", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    gm = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    first, second, brick = (browser.new_context(viewport=PHONE).new_page() for _ in range(3))

    gm.goto(f"{base}/gm?key={KEY}&table=Seats")
    expect(seat(gm, "ronan")).to_contain_text("free")

    # Ronan sits down on the first phone; the GM sees the seat taken, the phone connected.
    join(first, base, code, "Ronan")
    expect(seat(gm, "ronan")).to_contain_text("connected")

    # A second phone picks Ronan: it is asked, and nothing changes until it answers.
    second.goto(f"{base}/table")
    second.locator(".tp-code input").fill(code)
    click(second, "tp-find")
    second.locator(".tp-seat select").select_option(label="Ronan")
    click(second, "tp-join")
    ask = second.locator(".tp-takeover-ask")
    expect(ask).to_contain_text("Ronan's seat is open on another phone right now")
    expect(ask).to_contain_text("Take it over?")
    assert second.locator(".tp-header .counter").count() == 0
    shoot(second, "takeover-question", second.locator(".tp-takeover"))
    expect(first.locator(".tp-header")).to_contain_text("playing Ronan")

    # It takes the seat over: the first phone only watches now, and says so.
    click(second, "tp-take-over")
    expect(second.locator(".tp-header")).to_contain_text("playing Ronan")
    expect(first.locator(".tp-seat-note")).to_contain_text("Another phone took over your seat")
    expect(first.locator(".tp-header")).to_contain_text("watching")
    expect(first.locator(".tp-declare")).to_be_hidden()
    no_sideways_scroll(first)
    first.screenshot(path=str(SHOTS / "seats-taken-over-390.png"))
    assert "seat=__watch__" in first.url
    holders = [s for s in service.sessions if isinstance(s, SeatSession) and not s.closed]
    assert [(s.seat, s.holds()) for s in holders] == [("ronan", True)]

    # The Brick sits on a third phone; the GM sees both seats, connected.
    join(brick, base, code, "The Brick")
    expect(seat(gm, "the-brick")).to_contain_text("connected")
    expect(seat(gm, "ronan")).to_contain_text("connected")
    shoot(gm, "gm-list", gm.locator(".gm-seat-list"))

    # The GM frees the Brick's seat: that phone only watches, then sits down again.
    gm.locator(".gm-free-which select").select_option(label="The Brick")
    click(gm, "gm-free-seat")
    expect(gm.locator(".gm-seats-message")).to_contain_text("The Brick's seat is free")
    expect(seat(gm, "the-brick")).to_contain_text("free")
    expect(brick.locator(".tp-seat-note")).to_contain_text("The GM freed your seat (The Brick)")
    expect(brick.locator(".tp-header")).to_contain_text("watching")
    click(brick, "tp-pick-again")
    brick.locator(".tp-seat select").select_option(label="The Brick")
    click(brick, "tp-join")
    expect(brick.locator(".tp-header")).to_contain_text("playing The Brick")
    expect(brick.locator(".tp-seat-note")).to_be_hidden()
    expect(seat(gm, "the-brick")).to_contain_text("connected")

    # A new join code: the seated stay seated and act; the watcher with the old code drops.
    click(gm, "gm-rotate")
    expect(gm.locator(".join-code")).not_to_have_text(code)
    new_code = table.view_for("gm")["join_code"]
    expect(first.locator(".tp-join-message")).to_contain_text(
        "changed the join code", timeout=10_000
    )
    second.locator(".tp-bracket button", has_text="Fast").click()
    click(second, "tp-declare")
    expect(card(gm, "ronan")).to_contain_text("Fast")

    # A reload of a seated phone after the new code: back in its seat, no question, and it acts.
    brick.reload()
    expect(brick.locator(".tp-header")).to_contain_text("playing The Brick")
    assert (
        brick.locator(".tp-takeover-ask").count() == 0
        or not brick.locator(".tp-takeover-ask").is_visible()
    )
    brick.locator(".tp-bracket button", has_text="Slow").click()
    click(brick, "tp-declare")
    expect(card(gm, "the-brick")).to_contain_text("Slow")
    second.reload()
    expect(second.locator(".tp-header")).to_contain_text("playing Ronan")
    expect(seat(gm, "ronan")).to_contain_text("connected")

    # New joins need the new code: the old one is refused; the new one asks for a held seat.
    first.locator(".tp-code input").fill(code)
    click(first, "tp-find")
    expect(first.locator(".tp-join-message")).to_contain_text("No table has that join code")
    first.locator(".tp-code input").fill(new_code)
    click(first, "tp-find")
    first.locator(".tp-seat select").select_option(label="Ronan")
    click(first, "tp-join")
    expect(first.locator(".tp-takeover-ask")).to_contain_text("Ronan's seat")
    click(first, "tp-keep-looking")
    expect(first.locator(".tp-takeover-ask")).to_be_hidden()
    expect(second.locator(".tp-header")).to_contain_text("playing Ronan")
