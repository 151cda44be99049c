"""One clear step at a time, on real pages (issue 20): a GM on a laptop, two players on phones.

Ronan's boost step opens twice in a row: it starts empty both times and charges exactly the
dice picked. The hidden Nightmare hits Ronan: the prevention comes to his phone, naming it
"someone unseen"; "Take the damage" works and leaves a line there. Each roll's result shows
on another phone. Screenshots of each step at 390 and 1280 px go to ``screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_combat_ui
from playwright.sync_api import expect
from table_helpers import run_to_turn
from test_combat_ui import ALL_TEXT_JS, FIRST_RONAN, KEY, card, click, fight

pytestmark = pytest.mark.ui

#: The combat pages' in-process server (``test_combat_ui.served``).
served = test_combat_ui.served

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _shoot(name: str, phone, gm) -> None:
    """The phone at 390 px and at 1280 px, the GM at 1280 px; no sideways scroll on the phone."""
    SHOTS.mkdir(exist_ok=True)
    width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], (name, width)
    phone.screenshot(path=str(SHOTS / f"steps-{name}-390.png"))
    phone.set_viewport_size(LAPTOP)
    phone.screenshot(path=str(SHOTS / f"steps-{name}-1280.png"))
    phone.set_viewport_size(PHONE)
    gm.screenshot(path=str(SHOTS / f"steps-{name}-gm-1280.png"))


def _declare_all(table) -> None:
    for cid in table.state["ids"]:
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})


def _boost_step(ronan, gm, brick, table, name: str) -> None:
    """Ronan attacks the dog and rolls on his phone; every damage die is under the wall."""
    run_to_turn(table, "ronan")
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: roll to hit.")
    expect(brick.locator(".tp-whose")).to_contain_text("Waiting for Ronan to roll to hit.")
    expect(gm.locator(".gm-whose")).to_contain_text("Waiting for Ronan to roll to hit")
    ronan.locator(".tp-faces input").fill("3 4")
    click(ronan, "tp-faces-go")
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: roll damage.")
    expect(brick.locator(".tp-result")).to_contain_text("Ronan rolls to hit")
    expect(brick.locator(".tp-result .outcome")).to_have_text("Hit")
    if name == "first":
        _shoot("1-roll-damage", ronan, gm)
        # At 390 px the "Roll damage" button stays clear of the typed-dice box.
        roll = ronan.locator(".tp-roll button").bounding_box()
        box = ronan.locator(".tp-faces").bounding_box()
        apart_x = roll["x"] + roll["width"] <= box["x"] or box["x"] + box["width"] <= roll["x"]
        apart_y = roll["y"] + roll["height"] <= box["y"] or box["y"] + box["height"] <= roll["y"]
        assert apart_x or apart_y, (roll, box)
    ronan.locator(".tp-faces input").fill("1 2 3 3 3 3 3")
    click(ronan, "tp-faces-go")
    expect(ronan.locator(".tp-boost-dice button")).to_have_count(7)
    expect(brick.locator(".tp-whose")).to_contain_text("Waiting for Ronan to boost dice")
    expect(brick.locator(".tp-result .outcome")).to_have_text("Hit, 0 levels")


def test_one_step_at_a_time(served, browser):
    base, service, _ = served
    table = service.create("Steps", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "hide", "combatant": "nightmare"})
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    _declare_all(table)

    gm = browser.new_context(viewport=LAPTOP).new_page()
    ronan = browser.new_context(viewport=PHONE).new_page()
    brick = browser.new_context(viewport=PHONE).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Steps")
    ronan.goto(f"{base}/table?code={code}&seat=ronan")
    brick.goto(f"{base}/table?code={code}&seat=the-brick")
    expect(ronan.locator(".tp-banner")).to_have_text("Your turn!")

    # The first boost step: nothing picked; two dice cost exactly 2 Ki.
    _boost_step(ronan, gm, brick, table, "first")
    pressed = ronan.locator(".tp-boost-dice button.bk-active")
    expect(pressed).to_have_count(0)
    expect(ronan.locator(".tp-boost button")).to_be_disabled()
    expect(ronan.locator(".tp-keep button")).to_have_text("Keep the dice as rolled")
    ronan.locator(".tp-boost-dice button").nth(0).click()
    ronan.locator(".tp-boost-dice button").nth(1).click()
    expect(ronan.locator(".tp-boost button")).to_have_text("Boost 2 dice (2 Ki)")
    _shoot("2-boost", ronan, gm)
    ki = table.state["combatants"]["ronan"]["ki"]  # after Onslaught's own Ki
    click(ronan, "tp-boost")
    expect(brick.locator(".tp-result")).to_contain_text("Ronan boosts 2 dice: 2 levels")
    expect(brick.locator(".tp-result")).to_contain_text("Guard dog loses 2 Health")
    expect(brick.locator(".tp-log")).to_contain_text("Ronan boosts 2 dice for 2 Ki: 2 levels.")
    assert table.state["combatants"]["ronan"]["ki"] == ki - 2
    expect(card(gm, "ronan")).to_contain_text(f"{ki - 2}/14")
    _shoot("3-result", brick, gm)

    # The hidden Nightmare's Cry on Ronan: his phone prevents, naming "someone unseen".
    run_to_turn(table, "nightmare")
    table.apply({"type": "attack", "attacker": "nightmare", "target": "ronan"})
    p = table.state["pending"]
    assert p["step"] == "damage"  # the Cry needs no to-hit roll (rules/000)
    table.apply({"type": "roll", "faces": [10] + [1] * (p["dice"] - 1)})  # one level
    assert table.state["pending"]["step"] == "prevent"
    expect(ronan.locator(".tp-pending")).to_contain_text("Someone unseen hits you")
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: prevent levels with Ki")
    expect(ronan.locator(".tp-take button")).to_have_text("Take the damage")
    # Issue 31: the prevention starts at 0 levels; its button asks for a choice, no hasty Ki.
    expect(ronan.locator(".tp-prevent button")).to_contain_text("Prevent: choose levels")
    expect(ronan.locator(".tp-prevent button")).to_be_disabled()
    expect(gm.locator(".gm-whose")).to_contain_text("Waiting for Ronan to prevent")
    _shoot("4-prevent-unseen", ronan, gm)
    for page in (ronan, brick):
        assert "Nightmare" not in page.evaluate(ALL_TEXT_JS)
    sanity = table.state["combatants"]["ronan"]["now"]["sanity"]
    ki = table.state["combatants"]["ronan"]["ki"]
    click(ronan, "tp-take")
    expect(ronan.locator(".tp-result")).to_contain_text("Someone unseen hits you: you lose")
    expect(ronan.locator(".tp-log")).to_contain_text("Someone unseen hits you: you lose")
    assert table.state["combatants"]["ronan"]["ki"] == ki  # nothing prevented
    assert table.state["combatants"]["ronan"]["now"]["sanity"] < sanity
    _shoot("5-taken", ronan, gm)
    for page in (ronan, brick):
        assert "Nightmare" not in page.evaluate(ALL_TEXT_JS)
    assert "unseen" not in brick.evaluate(ALL_TEXT_JS)

    # Round 2: the second boost step in a row for Ronan starts empty again; one die, 1 Ki.
    while table.state["phase"] == "resolve":
        table.apply({"type": "end_turn"})
    _declare_all(table)
    _boost_step(ronan, gm, brick, table, "second")
    expect(pressed).to_have_count(0)
    expect(ronan.locator(".tp-boost button")).to_have_text("Boost: pick dice")
    ronan.locator(".tp-boost-dice button").nth(3).click()
    expect(ronan.locator(".tp-boost button")).to_have_text("Boost 1 die (1 Ki)")
    _shoot("6-boost-again", ronan, gm)
    ki = table.state["combatants"]["ronan"]["ki"]
    click(ronan, "tp-boost")
    expect(brick.locator(".tp-result")).to_contain_text("Ronan boosts 1 die: 1 level")
    assert table.state["combatants"]["ronan"]["ki"] == ki - 1
    expect(card(ronan, "ronan")).to_contain_text(f"{ki - 1}/14")
