"""The end-to-end proof of issue 20: a GM on a laptop and three phones play one fight.

One in-process server (``test_combat_ui.served``), Debian's Chromium: the GM at 1280 px, three
phones at 390 px (Ronan, the Brick, and a third that watches, then takes Ronan's seat over).
Ronan and the Brick against a grizzly bear, the Nightmare hidden. Every action is clicked on
the page whose move it is, with typed dice (the rolls are the texts' numbers, not the seed's):

- round 1: the Brick moves 5 m toward the bear (Close -> Melee) and attacks from his phone;
  Ronan's Slow Aim with its odds on the button, his first boost step (starts empty, one die
  costs 1 Ki); the hidden Nightmare's Cry on Ronan, prevented or taken on Ronan's phone only;
- between rounds: the third phone picks Ronan's seat, is asked, takes it over; the first phone
  watches from then on;
- round 2: the Brick's Help, Ronan's Slow Called Shot at the Head with the help, his second
  boost step in a row (empty again: "Keep the dice as rolled"); the GM's new join code keeps
  both seats seated, and they act on;
- round 3: Ronan's Gift with its Ki cost and a Grab; round 4: held, he Escapes.

Applied on the server, because their pages' way is tested elsewhere: Initiative and the
starting distances (tests/ui/test_combat_ui.py starts a fight from /gm), the GM's hiding of the
Nightmare (test_combat_ui.py), the bear's brackets (test_combat_ui.py declares a foe on /gm)
and the "Grabbed" condition before the Escape (tests/ui/test_actions_ui.py does the same).
Screenshots of every step at 390 px (the phone) and 1280 px (the GM, and the phone once per
round) go to ``screenshots/e2e-*.png``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import test_combat_ui
from playwright.sync_api import expect
from test_combat_ui import ALL_TEXT_JS, KEY, ROSTER, card, click, join

from tb_playground.engine.damage import critical_split
from tb_playground.engine.roll_reading import dice_needed
from tb_playground.models import Encounter, load
from tb_playground.models.character import Gift

pytestmark = pytest.mark.ui

#: The combat pages' in-process server.
served = test_combat_ui.served

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
ORDER = {"the-brick": 10, "ronan": 8, "grizzly-bear": 5, "nightmare": 1}


def fight() -> Encounter:
    """Ronan (with a Gift that makes no attack) and the Brick; a bear, the Nightmare."""
    enc = Encounter(name="End to end")
    ronan = load(ROSTER / "ronan.json")
    ronan.armor = []
    ronan.gifts = [*ronan.gifts, Gift(name="Iron Skin", level=2, dice=0, ki_cost=2)]
    enc.add(ronan, "Party")
    enc.add(load(ROSTER / "the_brick.json"), "Party")
    enc.add(load(ROSTER / "grizzly_bear.yaml"), "Foes")
    enc.add(load(ROSTER / "nightmare.yaml"), "Foes")
    return enc


class Round:
    """The table, the GM's page and the phones, with the small moves every step makes."""

    def __init__(self, table, gm):
        self.table, self.gm = table, gm
        self.shots = 0

    def wait(self, before: int, timeout: float = 15.0) -> None:
        """Until the table moved past version ``before`` (a page sent its command)."""
        end = time.monotonic() + timeout
        while self.table.version == before and time.monotonic() < end:
            time.sleep(0.05)
        assert self.table.version != before, "the page sent nothing"

    def press(self, page, css: str) -> None:
        """Press ``css`` on ``page``; wait until the table moved and the page drew it.

        A page's command carries the version it last drew (issue 33, item 4): a second press
        before the page drew the first one's event is refused as made on an old table.
        """
        before = self.table.version
        counter = page.locator(".gm-header .counter, .tp-header .counter").first
        shown = counter.inner_text()
        click(page, css)
        try:
            self.wait(before)
        except AssertionError:
            said = page.locator(".tp-message, .gm-message").all_inner_texts()
            raise AssertionError(f"{css}: nothing sent; {said}") from None
        expect(counter).not_to_have_text(shown)

    def pick(self, page, prefix: str, group: str, text: str) -> None:
        """Press the action button of ``group`` whose label starts with ``text``."""
        page.locator(f".{prefix}-actions-{group} button", has_text=text).first.click()
        expect(page.locator(f".{prefix}-go button")).to_have_text(text)

    def roll(self, page, prefix: str, faces: list[int]) -> None:
        """Type the dice of the roll under way (to-hit or damage) and send them."""
        p = self.table.state["pending"]
        if p["step"] == "to_hit":
            count = dice_needed(p["advantage"])
        else:
            count = critical_split(p["dice"])[1] if p["critical"] else p["dice"]
        typed = " ".join(map(str, (faces * 10)[:count]))
        box = page.locator(f".{prefix}-faces input")
        expect(box).to_be_visible()
        before = self.table.version
        for _ in range(2):  # the box may be redrawn as the step arrives: type again once
            box.fill(typed)
            click(page, f"{prefix}-faces-go")
            try:
                return self.wait(before, timeout=4.0)
            except AssertionError:
                pass
        raise AssertionError(
            f"{typed} not sent: {page.locator(f'.{prefix}-message').all_inner_texts()}"
        )

    def end_turn(self, page, prefix: str) -> None:
        self.press(page, f"{prefix}-end-turn")

    def until(self, cid: str) -> None:
        """The GM ends the others' turns until ``cid`` is up."""
        while self.table.state["up"] != cid:
            self.end_turn(self.gm, "gm")

    def shoot(self, name: str, phone, locator=None, wide: bool = False) -> None:
        """``phone`` at 390 px (and at 1280 px when ``wide``), the GM at 1280 px."""
        SHOTS.mkdir(exist_ok=True)
        self.shots += 1
        stem = f"e2e-{self.shots:02d}-{name}"
        width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (name, width)  # no sideways scroll on a phone
        if locator is not None:
            locator.scroll_into_view_if_needed()
        phone.screenshot(path=str(SHOTS / f"{stem}-390.png"))
        if wide:
            phone.set_viewport_size(LAPTOP)
            phone.screenshot(path=str(SHOTS / f"{stem}-phone-1280.png"))
            phone.set_viewport_size(PHONE)
        self.gm.screenshot(path=str(SHOTS / f"{stem}-gm-1280.png"))

    def no_nightmare(self, *pages) -> None:
        for page in pages:
            text = page.evaluate(ALL_TEXT_JS)
            assert "Nightmare" not in text and "nightmare" not in text

    def declare(self, page, bracket: str) -> None:
        """A phone declares its bracket in secret."""
        page.locator(".tp-bracket button", has_text=bracket).click()
        self.press(page, "tp-declare")

    def gm_declares(self, cid_name: str, bracket: str) -> None:
        """The GM declares a foe's bracket on /gm."""
        self.gm.locator(".gm-declare-who select").select_option(label=cid_name)
        self.gm.locator(".gm-bracket button", has_text=bracket).click()
        self.press(self.gm, "gm-declare")


def test_a_whole_round_gm_and_three_phones(served, browser):
    base, service, _ = served
    table = service.create("E2E", fight())
    code = table.view_for("gm")["join_code"]
    table.apply({"type": "hide", "combatant": "nightmare"})
    table.apply({"type": "start", "initiative": ORDER})
    table.apply({"type": "set_distance", "a": "the-brick", "b": "grizzly-bear", "metres": 6})
    table.apply({"type": "set_range", "a": "ronan", "b": "grizzly-bear", "band": "melee"})

    gm = browser.new_context(viewport=LAPTOP).new_page()
    first, brick, third = (browser.new_context(viewport=PHONE).new_page() for _ in range(3))
    gm.goto(f"{base}/gm?key={KEY}&table=E2E")
    join(first, base, code, "Ronan")
    join(brick, base, code, "The Brick")
    join(third, base, code, "Just watch")
    expect(third.locator(".tp-header")).to_contain_text("watching")
    r = Round(table, gm)
    ronan = first

    # Round 1: brackets in secret from the phones; the GM the bear's, then the reveal.
    r.declare(ronan, "Slow")
    r.declare(brick, "Normal")
    expect(card(gm, "ronan")).to_contain_text("Slow")
    expect(card(brick, "ronan")).not_to_contain_text("Slow")
    expect(third.locator(".tp-log")).to_contain_text("Ronan declared.")
    r.gm_declares("Grizzly bear", "Normal")
    # The hidden Nightmare is still to declare: the phones wait for the GM, never "nobody".
    for page in (ronan, brick, third):
        expect(page.locator(".tp-order")).to_contain_text("Waiting for the GM.")
    r.shoot("declared", third, wide=True)
    r.press(gm, "gm-reveal")
    expect(card(third, "ronan")).to_contain_text("Slow")

    # The Brick (Normal), from his phone: 5 m toward the bear (Close -> Melee), then attacks.
    expect(brick.locator(".tp-banner")).to_have_text("Your turn!")
    expect(brick.locator(".tp-ap-head")).to_contain_text("2 of 2 actions left")
    r.pick(brick, "tp", "move", "Move")
    brick.locator(".tp-metres input").fill("5")
    brick.locator(".tp-metres input").press("Tab")
    brick.locator(".tp-f-toward select").select_option(label="Grizzly bear")
    expect(brick.locator(".tp-actions-move")).to_contain_text("6 m -> 1 m (Melee)")
    r.shoot("move", brick, brick.locator(".tp-action-panel"))
    r.press(brick, "tp-go")
    expect(third.locator(".tp-log")).to_contain_text("The Brick moves 5 m.")
    assert table.state["ranges"]["grizzly-bear|the-brick"] == "melee"
    expect(brick.locator(".tp-ap-head")).to_contain_text("1 of 2 actions left")
    r.pick(brick, "tp", "act", "Attack")
    brick.locator(".tp-target select").select_option(label="Grizzly bear")
    r.press(brick, "tp-go")
    expect(gm.locator(".gm-log")).to_contain_text("The Brick attacks Grizzly bear")
    r.roll(brick, "tp", [9])  # a miss: the bear stays up for the rounds to come
    expect(ronan.locator(".tp-result")).to_contain_text("The Brick rolls to hit")
    assert table.state["pending"] is None
    r.shoot("brick-missed", ronan, ronan.locator(".tp-result"))
    r.end_turn(brick, "tp")

    # The hidden Nightmare's Cry on Ronan, from the GM's page: the prevention comes to Ronan's
    # phone, naming "someone unseen"; the others see nothing of it.
    r.until("nightmare")  # the bear waits
    expect(gm.locator(".gm-ap-head")).to_contain_text("Nightmare's turn")
    r.pick(gm, "gm", "act", "Attack")
    gm.locator(".gm-target select").select_option(label="Ronan")
    r.press(gm, "gm-go")
    assert table.state["pending"]["step"] == "damage"  # the Cry needs no to-hit roll
    r.roll(gm, "gm", [10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # one level
    assert table.state["pending"]["step"] == "prevent"
    expect(ronan.locator(".tp-pending")).to_contain_text("Someone unseen hits you")
    expect(ronan.locator(".tp-take button")).to_have_text("Take the damage")
    expect(gm.locator(".gm-whose")).to_contain_text("Waiting for Ronan to prevent")
    r.shoot("prevent-unseen", ronan, ronan.locator(".tp-pending"), wide=True)
    r.no_nightmare(ronan, brick, third)
    r.press(ronan, "tp-take")
    expect(ronan.locator(".tp-log")).to_contain_text("Someone unseen hits you: you lose")
    r.no_nightmare(ronan, brick, third)
    for page in (brick, third):  # the others learn nothing of the unseen hit
        text = page.evaluate(ALL_TEXT_JS)
        assert "unseen" not in text and "prevent up to" not in text
    r.end_turn(gm, "gm")  # Ronan is up: Slow acts last

    # Ronan (Slow): Aim, its odds before -> after on the button, with Onslaught.
    expect(ronan.locator(".tp-ap-head")).to_contain_text("1 of 1 action left")
    ronan.locator(".tp-attack select").select_option(label="Onslaught (Gift 5, 7 dice)")
    aim = ronan.locator(".tp-actions-empowered button", has_text="Aim")
    expect(aim).to_contain_text("->")
    r.pick(ronan, "tp", "empowered", "Aim")
    expect(ronan.locator(".tp-ap-detail")).to_contain_text("the Slow round's action")
    r.shoot("aim", ronan, ronan.locator(".tp-action-panel"), wide=True)
    r.press(ronan, "tp-go")
    declared = [e for e in table.events if e["type"] == "attack_declared"][-1]["data"]
    assert any("Aim" in label for label, _ in declared["sources"])
    expect(gm.locator(".gm-log")).to_contain_text("Ronan attacks Grizzly bear")
    r.roll(ronan, "tp", [3, 4, 5])
    expect(ronan.locator(".tp-whose")).to_contain_text("Your move: roll damage.")
    r.roll(ronan, "tp", [1, 2, 3])  # every die under the bear's wall: a boost step
    # The first boost step: nothing pressed; one die costs exactly 1 Ki.
    expect(ronan.locator(".tp-boost-dice button")).not_to_have_count(0)
    expect(ronan.locator(".tp-boost-dice button.bk-active")).to_have_count(0)
    expect(ronan.locator(".tp-boost button")).to_be_disabled()
    expect(brick.locator(".tp-whose")).to_contain_text("Waiting for Ronan to boost dice")
    ki = table.state["combatants"]["ronan"]["ki"]
    ronan.locator(".tp-boost-dice button").last.click()
    expect(ronan.locator(".tp-boost button")).to_have_text("Boost 1 die (1 Ki)")
    r.shoot("boost-1", ronan, ronan.locator(".tp-pending"))
    r.press(ronan, "tp-boost")
    assert table.state["combatants"]["ronan"]["ki"] == ki - 1
    expect(brick.locator(".tp-result")).to_contain_text("Ronan boosts 1 die")
    expect(gm.locator(".gm-log")).to_contain_text("Ronan boosts 1 die for 1 Ki")
    r.end_turn(ronan, "tp")  # the round ends

    # Between rounds: the third phone picks Ronan's seat, is asked, and takes it over.
    third.goto(f"{base}/table")
    third.locator(".tp-code input").fill(code)
    click(third, "tp-find")
    third.locator(".tp-seat select").select_option(label="Ronan")
    click(third, "tp-join")
    expect(third.locator(".tp-takeover-ask")).to_contain_text("Take it over?")
    r.shoot("takeover-asked", third, third.locator(".tp-takeover"))
    click(third, "tp-take-over")
    expect(third.locator(".tp-header")).to_contain_text("playing Ronan")
    expect(first.locator(".tp-seat-note")).to_contain_text("Another phone took over your seat")
    expect(first.locator(".tp-header")).to_contain_text("watching")
    r.shoot("taken-over", first, first.locator(".tp-seat-note"))
    ronan = third

    # Round 2: the Brick helps; Ronan's Called Shot at the Head, his second boost step.
    r.declare(ronan, "Slow")
    r.declare(brick, "Normal")
    r.gm_declares("Grizzly bear", "Normal")
    r.press(gm, "gm-reveal")
    expect(brick.locator(".tp-banner")).to_have_text("Your turn!")
    r.pick(brick, "tp", "act", "Help")
    brick.locator(".tp-f-ally select").select_option(label="Ronan")
    r.shoot("help", brick, brick.locator(".tp-action-panel"))
    r.press(brick, "tp-go")
    expect(ronan.locator(".tp-log")).to_contain_text("The Brick helps Ronan.")
    r.end_turn(brick, "tp")
    r.until("ronan")
    ronan.locator(".tp-attack select").select_option(label="Onslaught (Gift 5, 7 dice)")
    # Helped, Aim changes nothing: no "85% -> 85%" on any button.
    panel = ronan.locator(".tp-action-panel")
    expect(panel).not_to_contain_text(re.compile(r"(\d+(\.\d)?%) -> \1(?!\d)"))
    r.pick(ronan, "tp", "empowered", "Called Shot")
    expect(ronan.locator(".tp-f-zone select")).to_have_value("Head")
    r.shoot("called-shot", ronan, ronan.locator(".tp-action-panel"), wide=True)
    r.press(ronan, "tp-go")
    declared = [e for e in table.events if e["type"] == "attack_declared"][-1]["data"]
    # The Brick has no Onslaught: his help does not count for this attack (issue 32, a
    # helper needs the attack's weapon, Gift or Skill; RULES.md "Helping").
    assert declared["zone"] == "head" and declared["helpers"] == []
    r.roll(ronan, "tp", [3, 4, 5])
    r.roll(ronan, "tp", [1, 2, 3])
    expect(ronan.locator(".tp-boost-dice button")).not_to_have_count(0)
    expect(ronan.locator(".tp-boost-dice button.bk-active")).to_have_count(0)
    expect(ronan.locator(".tp-boost button")).to_have_text("Boost: pick dice")
    r.shoot("boost-2-empty", ronan, ronan.locator(".tp-pending"))
    ki = table.state["combatants"]["ronan"]["ki"]
    r.press(ronan, "tp-keep")
    assert table.state["combatants"]["ronan"]["ki"] == ki
    expect(brick.locator(".tp-log")).to_contain_text("Ronan keeps the dice as rolled")

    # The GM's new join code, mid-round: both seats stay seated and act on.
    click(gm, "gm-rotate")
    expect(gm.locator(".join-code")).not_to_have_text(code)
    expect(first.locator(".tp-join-message")).to_contain_text("changed the join code")
    for page in (ronan, brick):
        expect(page.locator(".tp-header")).to_contain_text("playing")
    r.shoot("new-code", ronan)
    r.end_turn(ronan, "tp")
    while table.state["phase"] == "resolve":
        r.end_turn(gm, "gm")

    # Round 3 (Normal): a Gift with its Ki cost, then a Grab.
    r.declare(ronan, "Normal")
    r.declare(brick, "Normal")
    r.gm_declares("Grizzly bear", "Normal")
    r.press(gm, "gm-reveal")
    r.until("ronan")
    ki = table.state["combatants"]["ronan"]["ki"]
    r.pick(ronan, "tp", "act", "Use a Gift")
    expect(ronan.locator(".tp-ap-detail")).to_contain_text("1 action and 2 Ki")
    r.shoot("gift", ronan, ronan.locator(".tp-action-panel"), wide=True)
    r.press(ronan, "tp-go")
    expect(gm.locator(".gm-log")).to_contain_text("Ronan uses Iron Skin (2 Ki)")
    assert table.state["combatants"]["ronan"]["ki"] == ki - 2
    r.pick(ronan, "tp", "act", "Grab")
    ronan.locator(".tp-target select").select_option(label="Grizzly bear")
    r.press(ronan, "tp-go")
    expect(brick.locator(".tp-log")).to_contain_text("Ronan grabs at Grizzly bear")
    r.shoot("grab", brick, brick.locator(".tp-log"))
    r.end_turn(ronan, "tp")
    while table.state["phase"] == "resolve":
        r.end_turn(gm, "gm")

    # Round 4: Ronan is held (the GM says so on the server); he escapes from his phone.
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Grabbed"})
    r.declare(ronan, "Fast")
    r.declare(brick, "Normal")
    r.gm_declares("Grizzly bear", "Normal")
    r.press(gm, "gm-reveal")
    r.until("ronan")
    r.pick(ronan, "tp", "act", "Escape the hold")
    r.press(ronan, "tp-go")
    # The GM's "Grabbed" names no holder: no roll, and no "None" in the line.
    expect(brick.locator(".tp-log")).to_contain_text("Ronan is free: nobody was holding on.")
    expect(brick.locator(".tp-log")).not_to_contain_text("None")
    r.shoot("escape", ronan, ronan.locator(".tp-log"), wide=True)

    # Nothing of the Nightmare reached a phone, over the whole fight.
    r.no_nightmare(first, brick, third)
