"""The GM's group roll and chase controls on /gm (issue 20), in Debian's Chromium.

From the GM page only (table/gm_tools.py through the action panel): a group roll with two of
the party, a chase started against a foe, sight ruled broken, the Stealth roll, the chase's end.
Each lands in the table's log; screenshots at 1280 and 390 px into ``screenshots/``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_combat_ui import KEY, ROSTER, click, served  # noqa: F401 - the fixture

from tb_playground.models import Encounter, load

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def fight() -> Encounter:
    enc = Encounter(name="Calls")
    enc.add(load(ROSTER / "ronan.json"), "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    return enc


def sent(table, before: int, kind: str, timeout: float = 10.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if table.version != before and any(e["type"] == kind for e in table.events[-3:]):
            return next(e for e in reversed(table.events) if e["type"] == kind)
        time.sleep(0.05)
    raise AssertionError(f"no {kind} event")


def pick(page, group: str, text: str) -> None:
    page.locator(f".gm-calls-actions-{group} button", has_text=text).first.click()
    expect(page.locator(".gm-calls-go button")).to_have_text(text)


def go(table, page, kind: str) -> dict:
    before = table.version
    click(page, "gm-calls-go")
    return sent(table, before, kind)


@pytest.mark.parametrize("width", [1280, 390])
def test_group_roll_and_a_chase_from_the_gm_page(served, browser, width):  # noqa: F811
    base, service, _ = served
    table = service.create("Calls", fight())
    gm = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Calls")
    head = gm.locator(".gm-calls-ap-head")
    expect(head).to_contain_text("Group rolls and chases")

    # A group roll: Ronan and the Brick, Stealth, Difficulty 4.
    pick(gm, "together", "Group roll")
    expect(gm.locator(".gm-calls-actions-together")).to_contain_text("the group succeeds")
    gm.locator(".gm-calls-f-group_skill select").select_option(label="Stealth")
    gm.locator(".gm-calls-f-difficulty input").fill("4")
    gm.locator(".gm-calls-f-difficulty input").press("Tab")
    expect(gm.locator(".gm-calls-ap-detail")).to_contain_text("no one's action")
    event = go(table, gm, "group_rolled")
    assert event["data"]["skill"] == "Stealth" and event["data"]["difficulty"] == 4
    assert event["data"]["members"] == ["ronan", "the-brick"]
    assert gm.evaluate("document.documentElement.scrollWidth <= innerWidth")

    # A chase: the bear flees Ronan and the Brick, 30 m.
    pick(gm, "chase", "Start a chase")
    gm.locator(".gm-calls-metres input").fill("30")
    gm.locator(".gm-calls-metres input").press("Tab")
    expect(gm.locator(".gm-calls-f-quarry select")).to_have_value("Grizzly bear")
    gm.screenshot(path=str(SHOTS / f"gm-calls-chase-start-{width}.png"), full_page=False)
    event = go(table, gm, "chase_started")
    assert event["data"]["quarry"] == "grizzly-bear" and event["data"]["metres"] == 30
    assert table.state["phase"] == "chase"

    # Sight broken now, then the Stealth roll, then the chase ends.
    pick(gm, "chase", "Rule on the chase")
    gm.locator(".gm-calls-f-broken input").check()
    go(table, gm, "chase_ruled")
    assert table.state["chase"]["searching"]
    pick(gm, "chase", "Stealth roll")
    expect(gm.locator(".gm-calls-actions-chase")).to_contain_text("the quarry slips away")
    gm.screenshot(path=str(SHOTS / f"gm-calls-search-{width}.png"), full_page=False)
    go(table, gm, "chase_searched")
    if table.state["phase"] == "chase":
        pick(gm, "chase", "End the chase")
        go(table, gm, "chase_ended")
    assert table.state["phase"] == "setup"
    expect(head).to_contain_text("Group rolls and chases")  # back to the Scene's calls
