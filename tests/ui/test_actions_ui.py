"""Every action of the round from the pages (issue 20): the action panel on /gm and /table.

A GM and one phone (Ronan) in Debian's Chromium, on one in-process server (the helpers of
tests/ui/test_combat_ui.py). The table's setup (Initiative, brackets, range bands) is applied on
the server; every action below is sent from a page's action panel and lands in the log: a
Slow Aim and a Slow Called Shot (the odds before -> after on the button), a Normal move and
attack that changes the range band, a Help, a Gift with its Ki cost, a Grab and an Escape.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from test_combat_ui import KEY, ROSTER, click, join, served  # noqa: F401 - the fixture

from tb_playground.models import Encounter, load
from tb_playground.models.character import Gift

pytestmark = pytest.mark.ui

ORDER = {"ronan": 1, "the-brick": 10, "grizzly-bear": 5}


def fight() -> Encounter:
    """Ronan (with a Gift that makes no attack) and the Brick against a grizzly bear."""
    enc = Encounter(name="Actions")
    ronan = load(ROSTER / "ronan.json")
    ronan.armor = []
    ronan.gifts = [*ronan.gifts, Gift(name="Iron Skin", level=2, dice=0, ki_cost=2)]
    enc.add(ronan, "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    return enc


def declare(table, brackets: dict) -> None:
    for cid, bracket in brackets.items():
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": bracket})
    assert table.state["phase"] == "resolve"


def wait_version(table, before: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while table.version == before and time.monotonic() < end:
        time.sleep(0.05)
    assert table.version != before, "the page sent nothing"


def finish_attack(table, gm, ronan) -> None:
    """Roll, keep the dice and take the damage, each from the page whose step it is."""
    for _ in range(10):
        p = table.state["pending"]
        if p is None:
            return
        page, prefix = (ronan, "tp") if p["attacker"] == "ronan" else (gm, "gm")
        before = table.version
        if p["step"] in ("to_hit", "damage"):
            click(page, f"{prefix}-roll")
        elif p["step"] == "boost":
            click(page, f"{prefix}-keep")  # the explicit "no": keep the dice as rolled
        elif p["step"] == "prevent":
            page, prefix = (ronan, "tp") if p["target"] == "ronan" else (gm, "gm")
            click(page, f"{prefix}-take")  # take the damage
        else:
            raise AssertionError(p["step"])
        wait_version(table, before)
    raise AssertionError("the attack did not end")


def pick(page, prefix: str, group: str, text: str) -> None:
    """Press the action button of ``group`` whose label starts with ``text``."""
    page.locator(f".{prefix}-actions-{group} button", has_text=text).first.click()
    expect(page.locator(f".{prefix}-go button")).to_have_text(text)


def go(table, page, prefix: str) -> None:
    before = table.version
    click(page, f"{prefix}-go")
    wait_version(table, before)


def until(table, gm, cid: str) -> None:
    """The GM ends the others' turns until ``cid`` is up."""
    while table.state["up"] != cid:
        end_turn(table, gm, "gm")


def end_turn(table, page, prefix: str) -> None:
    before = table.version
    click(page, f"{prefix}-end-turn")
    wait_version(table, before)


def test_every_action_from_the_pages(served, browser):  # noqa: F811 - the fixture
    base, service, _ = served
    table = service.create("Actions", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "start", "initiative": ORDER})
    table.apply({"type": "set_distance", "a": "the-brick", "b": "grizzly-bear", "metres": 6})
    table.apply({"type": "set_range", "a": "ronan", "b": "grizzly-bear", "band": "melee"})
    declare(table, {"ronan": "slow", "the-brick": "normal", "grizzly-bear": "normal"})
    gm = browser.new_context().new_page()
    ronan = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone
    gm.goto(f"{base}/gm?key={KEY}&table=Actions")
    join(ronan, base, code, "Ronan")
    gm_log, tp_log = gm.locator(".gm-log"), ronan.locator(".tp-log")

    until(table, gm, "the-brick")
    # The Brick (Normal): a move toward the bear, Close -> Melee, then an attack.
    expect(gm.locator(".gm-ap-head")).to_contain_text("The Brick's turn")
    expect(gm.locator(".gm-ap-head")).to_contain_text("2 of 2 actions left")
    pick(gm, "gm", "move", "Move")
    expect(gm.locator(".gm-ap-detail")).to_contain_text("up to 6 m")
    gm.locator(".gm-metres input").fill("5")
    gm.locator(".gm-metres input").press("Tab")
    gm.locator(".gm-f-toward select").select_option(label="Grizzly bear")
    expect(gm.locator(".gm-actions-move")).to_contain_text("6 m -> 1 m (Melee)")
    go(table, gm, "gm")
    expect(gm_log).to_contain_text("The Brick moves 5 m.")
    assert table.state["ranges"]["grizzly-bear|the-brick"] == "melee"
    expect(gm.locator(".gm-ap-head")).to_contain_text("1 of 2 actions left")
    pick(gm, "gm", "act", "Attack")
    gm.locator(".gm-target select").select_option(label="Grizzly bear")
    go(table, gm, "gm")
    expect(gm_log).to_contain_text("The Brick attacks Grizzly bear")
    finish_attack(table, gm, ronan)
    until(table, gm, "ronan")  # the bear waits

    # Ronan (Slow): Aim, its odds before -> after on the button; no sideways scroll at 390 px.
    expect(ronan.locator(".tp-ap-head")).to_contain_text("1 of 1 action left")
    assert ronan.evaluate("document.documentElement.scrollWidth <= innerWidth")
    aim = ronan.locator(".tp-actions-empowered button", has_text="Aim")
    expect(aim).to_contain_text("->")
    pick(ronan, "tp", "empowered", "Aim")
    expect(ronan.locator(".tp-ap-detail")).to_contain_text("the Slow round's action")
    go(table, ronan, "tp")
    expect(tp_log).to_contain_text("Ronan attacks Grizzly bear")
    declared = [e for e in table.events if e["type"] == "attack_declared"][-1]["data"]
    assert any("Aim" in label for label, _ in declared["sources"])
    finish_attack(table, gm, ronan)
    end_turn(table, ronan, "tp")  # the round ends

    # Round 2: the Brick helps Ronan; Ronan's Called Shot at the Head.
    declare(table, {"ronan": "slow", "the-brick": "normal", "grizzly-bear": "normal"})
    until(table, gm, "the-brick")
    expect(gm.locator(".gm-ap-head")).to_contain_text("The Brick's turn")
    pick(gm, "gm", "act", "Help")
    gm.locator(".gm-f-ally select").select_option(label="Ronan")
    go(table, gm, "gm")
    expect(tp_log).to_contain_text("The Brick helps Ronan.")
    until(table, gm, "ronan")
    if not table.state["combatants"]["grizzly-bear"]["out"]:
        pick(ronan, "tp", "empowered", "Called Shot")
        expect(ronan.locator(".tp-f-zone select")).to_have_value("Head")
        go(table, ronan, "tp")
        declared = [e for e in table.events if e["type"] == "attack_declared"][-1]["data"]
        assert declared["zone"] == "head" and declared["helpers"] == ["the-brick"]
        expect(tp_log).to_contain_text("Ronan attacks Grizzly bear")
        finish_attack(table, gm, ronan)
    end_turn(table, ronan, "tp")

    # Round 3 (Normal): Ronan uses a Gift (its Ki cost on the page and in the log), then Grabs.
    if table.state["phase"] == "over":
        pytest.skip("the bear went down before the Grab")  # pragma: no cover - seeded fight
    declare(table, {"ronan": "normal", "the-brick": "normal", "grizzly-bear": "normal"})
    until(table, gm, "ronan")
    ki = table.state["combatants"]["ronan"]["ki"]
    pick(ronan, "tp", "act", "Use a Gift")
    expect(ronan.locator(".tp-ap-detail")).to_contain_text("1 action and 2 Ki")
    go(table, ronan, "tp")
    expect(gm_log).to_contain_text("Ronan uses Iron Skin (2 Ki)")
    assert table.state["combatants"]["ronan"]["ki"] == ki - 2
    pick(ronan, "tp", "act", "Grab")
    go(table, ronan, "tp")
    expect(gm_log).to_contain_text("Ronan grabs at Grizzly bear")
    end_turn(table, ronan, "tp")

    # Round 4: Ronan is held (the GM says so); he escapes from his phone.
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Grabbed"})
    declare(table, {"ronan": "fast", "the-brick": "normal", "grizzly-bear": "normal"})
    until(table, gm, "ronan")
    expect(ronan.locator(".tp-ap-head")).to_contain_text("Ronan's turn")
    pick(ronan, "tp", "act", "Escape the hold")
    go(table, ronan, "tp")
    expect(tp_log).to_contain_text("Ronan is free: nobody was holding on.")
    assert "Grabbed" not in table.state["combatants"]["ronan"]["conditions"]

    # A chase (the GM starts it): Ronan declares a Dash from his phone, the GM the bear's
    # run from the GM's page; then Ronan rolls.
    table.apply(
        {"type": "chase_start", "quarry": "grizzly-bear", "pursuers": ["ronan"], "metres": 20}
    )
    expect(ronan.locator(".tp-end-turn")).to_be_hidden()
    pick(ronan, "tp", "chase", "Dash")
    go(table, ronan, "tp")
    expect(tp_log).to_contain_text("Ronan will dash")
    expect(gm.locator(".gm-ap-head")).to_contain_text("Grizzly bear's turn")
    pick(gm, "gm", "chase", "Run")  # the GM declares the bear's run
    go(table, gm, "gm")
    if "ronan" in table.state["chase"]["results"] or table.state["phase"] != "chase":
        return  # pragma: no cover - the chase ended on the bear's side
    pick(ronan, "tp", "chase", "Chase roll")
    go(table, ronan, "tp")
    expect(tp_log).to_contain_text("Ronan rolls to chase")
