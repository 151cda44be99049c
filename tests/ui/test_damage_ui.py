"""The damage page in Debian's Chromium: controls move, the numbers follow the engine."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tb_playground.engine import attack_to_hit, expected_levels
from tb_playground.formatting import percent
from tb_playground.models import Attack
from tb_playground.views import damage_page

pytestmark = pytest.mark.ui

# A page takes 2-8 s to render on a machine shared by several test runs: wait up to 20 s.


def test_damage_page_follows_the_controls(page, serve):
    page.goto(serve(damage_page, "damage"))
    hit = page.locator(".dmg-headline .dmg-hit .v")
    expect(hit).to_have_text(percent(Attack().to_hit.p_hit))  # 64.0%: TN 12
    expect(page.locator(".dmg-headline .dmg-dice .v")).to_have_text("3")
    # rules/000's example is on the page, computed: 4 outright + 1 rolled.
    expect(page.locator(".dmg-ronan .ronan-levels")).to_have_text("5 levels")

    # Element slider (the first slider in the sidebar) one step right: TN 13.
    page.locator(".noUi-handle").nth(0).press("ArrowRight")
    expect(hit).to_have_text(percent(attack_to_hit("physical", 6, 3).p_hit))

    # Switch to a Social attack: dice come from the Skill tier (Trained: 3), wall is Presence.
    page.get_by_role("button", name="Social", exact=True).click()
    expect(page.locator(".dmg-headline .dmg-summary")).to_contain_text("wall: Presence")
    page.get_by_role("button", name="Mental", exact=True).click()
    expect(page.locator(".dmg-headline .dmg-dice .v")).to_have_text("7")  # a Gift's dice

    # Aim (Slow action) gives Advantage: the headline follows the engine.
    page.get_by_role("button", name="Aim", exact=True).click()
    aimed = Attack(kind="mental", element=6, slow_action="aim")
    expect(hit).to_have_text(percent(aimed.to_hit.p_hit))
    expect(page.locator(".dmg-headline .dmg-expected .v")).to_have_text(
        f"{float(expected_levels(aimed.per_attack)):.2f}"
    )

    # The attacker is Off Balance (rules/004 "Conditions"): one Disadvantage source, which
    # cancels the Aim; the page names both.
    choice = page.locator(".attacker-conditions input").first
    choice.click()
    choice.fill("Off Balance")
    choice.press("Enter")
    expect(page.locator(".dmg-headline .dmg-why")).to_have_text(
        "Normal roll: Aim cancels Off Balance"
    )
    expect(hit).to_have_text(percent(attack_to_hit("mental", 6, 3).p_hit))


def test_armor_and_called_shot_on_the_damage_page(page, serve):
    page.goto(serve(damage_page, "damage"))
    armor = page.locator(".dmg-armor")
    expect(armor).to_contain_text("No armor in the way")
    levels = page.locator(".armor-levels .noUi-handle")
    for _ in range(3):
        levels.press("ArrowRight")
    # A knife's 3 dice against Hardness 5: the armor loses a level 1 - 0.5^3 of the time.
    expect(page.locator(".dmg-armor .armor-lost")).to_have_text(percent(1 - 0.5**3))
    page.get_by_role("button", name="Called Shot", exact=True).click()
    expect(armor).to_contain_text("does not cover it")
