"""A phone types its own dice for a Skill roll, and after the fight keeps only what it may spend.

Issue 20 in Debian's Chromium: Ronan's phone (390 px, and 1280 px, and the dark theme) picks
"Use a Skill", types the faces of the dice he threw, and the table takes them as thrown by hand;
words instead of numbers are refused on the page, nothing sent. Once the fight is over the phone
no longer offers Ki (nothing at 0) nor the Fate spends the table refuses now.
Screenshots into ``screenshots/``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_combat_ui import FIRST_RONAN, click, fight, join, served  # noqa: F401 - the fixture

from tb_playground.table.commands import decide

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def _dice_needed(state) -> int:
    command = {"type": "skill_roll", "combatant": "ronan", "skill": "Athletics"}
    events = decide(state, command, "player", "ronan", lambda n: [5] * n)
    return len(events[0][1]["faces"])


@pytest.mark.parametrize(
    ("width", "theme"), [(390, "light"), (1280, "light"), (390, "dark")], ids=str
)
def test_typed_dice_on_a_phone_and_the_spends_after_the_fight(served, browser, width, theme):  # noqa: F811
    base, service, _ = served
    table = service.create("Dice", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid in ("ronan", "the-brick", "guard-dog", "nightmare"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    if table.state["phase"] == "declare":
        table.apply({"type": "reveal"})
    assert table.state["up"] == "ronan"
    phone = browser.new_context(viewport={"width": width, "height": 844}).new_page()
    join(phone, base, code, "Ronan")
    if theme == "dark":
        phone.goto(phone.url + ("&" if "?" in phone.url else "?") + "theme=dark")
        expect(phone.locator(".tp-header .counter")).to_be_visible()

    phone.locator(".tp-actions-act button", has_text="Use a Skill").first.click()
    expect(phone.locator(".tp-go button")).to_have_text("Use a Skill")
    box = phone.locator(".tp-f-faces input")
    expect(phone.locator(".tp-f-faces")).to_contain_text("Your dice (blank: the table rolls)")
    box.fill("four nine")
    box.press("Tab")
    version = table.version
    click(phone, "tp-go")
    expect(phone.locator(".tp-ap-detail")).to_contain_text("whole numbers from 1 to 10")
    assert table.version == version
    faces = [4, 9, 2, 7][: _dice_needed(table.state)]
    box.fill(" ".join(map(str, faces)))
    box.press("Tab")
    expect(phone.locator(".tp-ap-detail")).not_to_contain_text("whole numbers")
    phone.screenshot(path=str(SHOTS / f"phone-typed-dice-{width}-{theme}.png"), full_page=False)
    click(phone, "tp-go")
    end = time.monotonic() + 10
    while table.version == version and time.monotonic() < end:
        time.sleep(0.05)
    rolled = table.events[-1]["data"]
    assert table.events[-1]["type"] == "skill_rolled"
    assert rolled["faces"] == faces and rolled["rolled_by"] == "hand"
    expect(box).to_have_value("")  # emptied once taken
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")

    # The fight ends: no Ki to spend (nothing at 0), only the Fate spends the table takes.
    expect(phone.locator(".tp-ki-purpose")).to_be_visible()
    for cid in ("guard-dog", "nightmare"):
        low = -table.state["combatants"][cid]["max"]["health"]
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": low})
    assert table.state["phase"] == "over"
    expect(phone.locator(".tp-ki-purpose")).to_be_hidden()
    options = phone.locator(".tp-fate-kind option")
    expect(options.first).to_be_attached()
    # Retried until the page has drawn the fight's end (the list is redrawn as it comes); then
    # one reading of every option at once (counting, then reading each, raced a redraw).
    expect(phone.locator(".tp-fate-kind")).not_to_contain_text("Automatic Success")
    texts = options.all_inner_texts()
    assert texts and not any("Automatic Success" in t for t in texts)
    phone.screenshot(path=str(SHOTS / f"phone-after-fight-{width}-{theme}.png"), full_page=True)
