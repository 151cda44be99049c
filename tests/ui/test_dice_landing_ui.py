"""The odds as the dice land, on real pages (issue 23, item 5).

Ronan types his to-hit dice on his phone one at a time (no Enter): after each die the step
shows the exact chance to hit given the dice so far; "Use my dice" then resolves the roll. The
GM types the guard dog's damage dice on the laptop and sees the chance of each level count
after each die. The Brick's phone shows none of it (only the typist's page: note 0017).
Screenshots at 390 and 1280 px go to ``screenshots/`` (the phone light, the GM dark).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import test_combat_ui
from playwright.sync_api import expect
from table_helpers import run_to_turn
from test_combat_ui import KEY, click, fight

from tb_playground.engine.dice_landing import core_roll_given, damage_given
from tb_playground.engine.roll_reading import dice_needed
from tb_playground.table.odds import _boosts

pytestmark = pytest.mark.ui

#: The combat pages' in-process server (``test_combat_ui.served``).
served = test_combat_ui.served

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _shoot(name: str, page, width: dict) -> None:
    """``page`` at ``width``, then at the other width; no sideways scroll on a phone."""
    SHOTS.mkdir(exist_ok=True)
    for size in (width, LAPTOP if width is PHONE else PHONE):
        page.set_viewport_size(size)
        if size is PHONE:
            try:  # after a viewport change the page lays itself out again: wait for it
                page.wait_for_function(
                    "document.documentElement.scrollWidth <= window.innerWidth", timeout=10_000
                )
            except Exception:  # noqa: BLE001 - the assertion below says what was measured
                pass
            got = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert got[0] <= got[1], (name, got)
        page.screenshot(path=str(SHOTS / f"landing-{name}-{size['width']}.png"), full_page=True)
    page.set_viewport_size(width)


def _exact(page, css: str) -> float:
    return float(page.locator(css).get_attribute("data-p"))


def test_the_odds_as_the_dice_land(served, browser):
    base, service, _ = served
    table = service.create("Landing", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "hide", "combatant": "nightmare"})
    table.apply({"type": "start", "initiative": test_combat_ui.FIRST_RONAN})
    for cid in table.state["ids"]:
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    gm = browser.new_context(viewport=LAPTOP).new_page()
    ronan = browser.new_context(viewport=PHONE).new_page()
    brick = browser.new_context(viewport=PHONE).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Landing&theme=dark")  # the dark theme, too
    ronan.goto(f"{base}/table?code={code}&seat=ronan")
    brick.goto(f"{base}/table?code={code}&seat=the-brick")
    # Both phones sit at the table before the attack, so it reaches them as a live update (an
    # attack racing a phone's first load left its dice row unbuilt twice in full runs).
    for phone in (ronan, brick):
        expect(phone.locator(".tp-header .counter")).to_be_visible(timeout=60_000)
    run_to_turn(table, "ronan")
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    p = table.state["pending"]
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: roll to hit.")

    # Ronan types his dice one at a time; the chance to hit follows each die, exactly.
    faces = [2, 3, 3][: dice_needed(p["advantage"])]
    box = ronan.locator(".tp-faces input")
    expect(box).to_be_visible(timeout=60_000)  # the roll's row is built when it first shows
    box.click(timeout=60_000)
    expect(ronan.locator(".tp-landing")).to_have_text("")
    for k, face in enumerate(faces, start=1):
        box.press_sequentially(f"{face} " if k < len(faces) else f"{face}")
        odds = core_roll_given(faces[:k], p["tn"], p["advantage"])
        expect(ronan.locator(".tp-landing")).to_contain_text(f"({k} of {len(faces)} dice typed)")
        assert _exact(ronan, ".tp-landing .l-hit") == pytest.approx(odds.p_hit, abs=1e-12)
        assert _exact(ronan, ".tp-landing .l-critical") == pytest.approx(odds.p_critical, abs=1e-12)
        if k == 1:
            _shoot("1-first-die", ronan, PHONE)
    # Only the typist's page shows the dice so far.
    expect(brick.locator(".tp-landing")).to_have_count(0)
    assert "dice typed" not in gm.locator(".gm-landing").all_inner_texts()
    hit = core_roll_given(faces, p["tn"], p["advantage"]).p_hit == 1
    assert hit, "the chosen faces hit the dog"
    click(ronan, "tp-faces-go")
    expect(brick.locator(".tp-result")).to_contain_text("Ronan rolls to hit")
    expect(ronan.locator(".tp-faces input")).to_have_value("")
    expect(ronan.locator(".tp-landing")).to_have_text("")
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: roll damage.")

    # Ronan's damage (two levels, kept as rolled); then the dog bites Ronan and hits.
    table.apply({"type": "roll", "faces": [9, 9] + [1] * (table.state["pending"]["dice"] - 2)})
    while table.state["pending"] is not None:
        step = table.state["pending"]["step"]
        table.apply(
            {"type": "boost", "dice": []} if step == "boost" else {"type": "prevent", "ki": 0}
        )
    run_to_turn(table, "guard-dog")
    table.apply({"type": "attack", "attacker": "guard-dog", "target": "ronan"})
    p = table.state["pending"]
    count = dice_needed(p["advantage"])
    hits = (
        list(f)
        for f in itertools.product(range(1, 11), repeat=count)
        if core_roll_given(list(f), p["tn"], p["advantage"]).p_ordinary == 1
    )
    table.apply({"type": "roll", "faces": next(hits)})  # an ordinary hit

    # The GM types the dog's damage dice: the level counts' chances after each die.
    p = table.state["pending"]
    assert p["step"] == "damage"
    a = table.state["combatants"]["guard-dog"]
    boosts = _boosts(a["ki"], a["exhausted"], p["dice"])
    critical, klotho = p["critical"], p["klotho"] if p["critical"] else 0
    rolled = p["dice"] - ((p["dice"] + 1) // 2 if critical else 0)
    damage = [9, 1, 6, 10, 2, 7, 4][: max(rolled - 1, 1)]
    gbox = gm.locator(".gm-faces input")
    expect(gm.locator(".gm-whose")).to_contain_text("Your move for Guard dog: roll damage")
    gbox.click()
    for k, face in enumerate(damage, start=1):
        gbox.press_sequentially(f"{face} ")
        expect(gm.locator(".gm-landing")).to_contain_text(f"({k} of {rolled} dice typed)")
        levels = damage_given(
            damage[:k], p["dice"], p["wall"], boosts, p["bonus"], p["timing"], critical, klotho
        )
        expected = float(sum(i * x for i, x in enumerate(levels)))
        shown = float(gm.locator(".gm-landing .l-expected").get_attribute("data-x"))
        assert shown == pytest.approx(expected, abs=1e-12)
    expect(gm.locator(".gm-landing .bar")).to_have_count(p["dice"] + 1)
    _shoot("2-gm-damage", gm, LAPTOP)
    # A die too many is said in plain words, not sent.
    gbox.press_sequentially("5 5")
    expect(gm.locator(".gm-landing")).to_contain_text(f"This roll takes {rolled} ")
    assert table.state["pending"]["step"] == "damage"  # nothing was sent
