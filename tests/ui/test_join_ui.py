"""Joining from a phone (issue 20): a spaced code, Enter to find the table, a numeric keypad."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_combat_ui import click, fight, served  # noqa: F401 - ``served`` is a fixture

pytestmark = pytest.mark.ui


def test_a_spaced_code_and_enter_find_the_table(served, browser):  # noqa: F811
    base, service, _ = served
    table = service.create("Phones", fight())
    code = table.view_for("gm")["join_code"]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{base}/table")
    box = page.locator(".tp-code input")
    expect(box).to_have_attribute("inputmode", "numeric")
    box.fill(f"{code[:3]} {code[3:]}")
    box.press("Enter")
    expect(page.locator(".tp-join-message")).to_contain_text("Phones")
    page.locator(".tp-seat select").select_option(label="Ronan")
    click(page, "tp-join")
    expect(page.locator(".tp-header .counter")).to_be_visible()
    assert f"code={code}" in page.url  # the link keeps the code without its space

    # A dash works too, with the button.
    other = browser.new_context().new_page()
    other.goto(f"{base}/table")
    other.locator(".tp-code input").fill(f"{code[:3]}-{code[3:]}")
    click(other, "tp-find")
    expect(other.locator(".tp-join-message")).to_contain_text("pick your seat")
