"""The replay and the night's numbers in Debian's Chromium (issue 23, items 3 and 4).

On /gm: scrub back to an earlier event and see that board (the dog's Health as it was), step by
round and with the slider's keys, go back to live; a link with ``?at=N`` opens there. After the
fight ends a player's page shows its numbers and the replay, and downloads the CSV. Screenshots
at 390 and 1280 px, light and dark, into ``screenshots/``. The server and helpers are
tests/ui/test_combat_ui.py's.
"""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import expect
from test_combat_ui import FIRST_RONAN, KEY, card, click, fight, served  # noqa: F401
from test_seats_ui import SHOTS, no_sideways_scroll
from ui_helpers import JS_HELPERS, check_layout

pytestmark = pytest.mark.ui


def _shots(page, name: str) -> None:
    """Screenshots at 390 and 1280 px (no sideways scroll on the phone)."""
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        if width == 390:
            no_sideways_scroll(page)
        page.screenshot(path=str(SHOTS / f"replay-{name}-{width}.png"), full_page=True)


def _play_a_little(table) -> int:
    """Hide the Nightmare, start, declare; Ronan hits the dog (Health 6 -> 5). The events."""
    table.apply({"type": "hide", "combatant": "nightmare"})
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid, b in [("ronan", "fast"), ("the-brick", "normal"), ("guard-dog", "slow")]:
        table.apply({"type": "declare", "combatant": cid, "bracket": b})
    table.apply({"type": "declare", "combatant": "nightmare", "bracket": "normal"})
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog"})
    table.apply({"type": "roll", "faces": [3, 4]})
    table.apply({"type": "roll", "faces": [9]})
    return table.version


def test_the_gm_scrubs_back_steps_by_round_and_goes_back_to_live(served, browser):  # noqa: F811
    base, service, _ = served
    table = service.create("Friday", fight())
    count = _play_a_little(table)
    gm = browser.new_context().new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Friday")
    expect(card(gm, "guard-dog")).to_contain_text("5/6")

    click(gm, "gm-replay-open")
    banner = gm.locator(".gm-replay-banner")
    expect(banner).to_contain_text(f"Replaying event {count} of {count}")
    expect(gm.locator(".gm-undo")).to_have_count(0)  # no live control while replaying
    expect(gm.locator(".gm-attack-go")).to_have_count(0)
    click(gm, "gm-replay-back")
    click(gm, "gm-replay-back")  # before the damage roll
    expect(banner).to_contain_text(f"Replaying event {count - 2} of {count}")
    expect(card(gm, "guard-dog")).to_contain_text("6/6")
    expect(gm.locator(".gm-replay-header .counter")).to_have_text(f"round 1 · event {count - 2}")
    assert f"at={count - 2}" in gm.url
    _shots(gm, "gm")

    # by round: back to round 1's start, then the slider's keys one event on
    start = table.round_starts()[-1][1]
    click(gm, "gm-replay-round-back")
    expect(banner).to_contain_text(f"Replaying event {start} of {count}")
    gm.locator(".gm-replay-slider .noUi-handle").press("ArrowRight")
    expect(banner).to_contain_text(f"Replaying event {start + 1} of {count}")

    # the table goes on while the GM replays: the end follows, the replay stays put
    table.apply({"type": "note", "text": "Meanwhile"})
    expect(banner).to_contain_text(f"Replaying event {start + 1} of {count + 1}")

    click(gm, "gm-replay-live")
    expect(gm.locator(".gm-header .counter")).to_have_text(f"round 1 · event {count + 1}")
    expect(card(gm, "guard-dog")).to_contain_text("5/6")
    expect(gm.locator(".gm-replay-banner")).to_have_count(0)
    assert "at=" not in gm.url

    # a link opens the table at an event
    linked = browser.new_context().new_page()
    linked.goto(f"{base}/gm?key={KEY}&table=Friday&at=4")
    expect(linked.locator(".gm-replay-banner")).to_contain_text(f"Replaying event 4 of {count + 1}")
    expect(linked.locator(".gm-replay-header .counter")).to_have_text("round 1 · event 4")


def test_after_the_fight_a_player_sees_the_numbers_replays_and_downloads(served, browser):  # noqa: F811
    base, service, _ = served
    table = service.create("Friday", fight())
    _play_a_little(table)
    code = table.view_for("gm")["join_code"]
    ronan = browser.new_context().new_page()
    ronan.goto(f"{base}/table?code={code}&seat=ronan")
    expect(ronan.locator(".tp-header")).to_contain_text("playing Ronan")
    expect(ronan.locator(".tp-replay-open")).to_have_count(0)  # not before the fight is over

    for cid in ("nightmare", "guard-dog"):
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": 0})
    numbers = ronan.locator(".tp-night")
    expect(numbers).to_contain_text("This fight's numbers")
    expect(numbers.locator('.night-card[data-id="ronan"]')).to_contain_text("1 Health")
    expect(numbers).to_contain_text("better than")
    assert "Nightmare" not in numbers.inner_html()  # hidden: not counted for a player
    _shots(ronan, "player-numbers")
    with ronan.expect_download() as download:
        ronan.locator(".tp-night-csv button").click()
    assert download.value.suggested_filename == "friday-fight.csv"
    rows = list(csv.DictReader(io.StringIO(download.value.path().read_text())))
    assert [r["name"] for r in rows] == ["Ronan", "The Brick", "Guard dog"]
    assert rows[0]["dealt_health"] == "1" and rows[0]["hits"] == "1"

    click(ronan, "tp-replay-open")
    banner = ronan.locator(".tp-replay-banner")
    expect(banner).to_contain_text("Replaying event")
    ronan.goto(f"{base}/table?code={code}&seat=ronan&at=5")  # a link to an event, reloaded
    expect(ronan.locator(".tp-replay-banner")).to_contain_text("Replaying event 5 of")
    expect(ronan.locator(".tp-replay-header .counter")).to_have_text("round 1 · event 5")
    _shots(ronan, "player-replay")
    click(ronan, "tp-replay-live")
    expect(ronan.locator(".tp-night")).to_contain_text("This fight's numbers")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_replay_and_numbers_keep_the_layout_rules(served, browser, theme):  # noqa: F811
    """No sideways scroll, no overlapping controls, dark text >= 4.5:1 (ui_helpers)."""
    base, service, _ = served
    table = service.create("Friday", fight())
    count = _play_a_little(table)
    for cid in ("nightmare", "guard-dog"):
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": 0})
    gm = browser.new_context(color_scheme=theme).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Friday&theme={theme}")
    expect(gm.locator(".gm-night")).to_contain_text("This fight's numbers")
    gm.evaluate(JS_HELPERS)
    for width in (390, 1280):
        check_layout(gm, "replay-gm-numbers", width, theme, ".night-card dd, .night-luck li")
    gm.goto(f"{base}/gm?key={KEY}&table=Friday&theme={theme}&at={count - 2}")
    expect(card(gm, "guard-dog")).to_contain_text("6/6")
    gm.evaluate(JS_HELPERS)
    for width in (390, 1280):
        check_layout(gm, "replay-gm-at", width, theme, ".replay-banner, .card, .log div")
