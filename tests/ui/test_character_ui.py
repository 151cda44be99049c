"""The character sheet in Debian's Chromium: stats move the derived values, files go both ways."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http

from tb_playground.engine import check_odds
from tb_playground.formatting import percent
from tb_playground.models import load
from tb_playground.views import character_page

pytestmark = pytest.mark.ui

# The sheet takes seconds to build and a file is read on a worker thread: on a busy machine the
# default 5 s of Playwright's expect is too short for its first values (this lengthens it only).

ROOT = Path(__file__).resolve().parents[2]
RONAN = ROOT / "examples" / "roster" / "ronan.json"


def set_stat(page, stat: str, value: int) -> None:
    """Type into a sheet's IntInput and commit it."""
    box = page.locator(f".stat-{stat} input")
    box.fill(str(value))
    box.press("Enter")


def odds_cell(page, skill: str, difficulty: int):
    return page.locator(f'.skill-odds tr[data-skill="{skill}"] td.p').nth(difficulty)


def test_panel_serve_apps_character_air_and_atropos(page, tmp_path):
    """`panel serve apps/character.py` as a user runs it: load Ronan, move Air and Atropos."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "character.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/character"
        wait_for_http(url, timeout=60)
        page.goto(url)
        movement = page.locator(".sheet-movement .d-movement .v")
        expect(movement).to_have_text("8", timeout=30_000)  # a new character: Air 3

        # Upload Ronan's file: his Perception is Trained, rolled off Air 3.
        page.locator(".upload input[type=file]").set_input_files(str(RONAN))
        expect(page.locator(".file-message")).to_contain_text("Loaded Ronan")
        expect(page.locator(".sheet-ki .d-ki-pool .v")).to_have_text("14")  # Earth 6 + 8
        expect(odds_cell(page, "Perception", 5)).to_have_text(percent(check_odds(3, 5).p_success))

        set_stat(page, "air", 7)
        expect(movement).to_have_text("12")  # 5 + Air
        expect(page.locator(".sheet-movement .d-sprint .v")).to_have_text("60")
        expect(odds_cell(page, "Perception", 5)).to_have_text(percent(check_odds(7, 5).p_success))
        # Research is Adept: Advantage on the new Air too.
        expect(odds_cell(page, "Research", 2)).to_have_text(percent(check_odds(7, 2, 2).p_success))

        defense = page.locator(".sheet-defenses .d-defense-physical .v")
        expect(defense).to_have_text("7")  # 10 - Atropos 3
        set_stat(page, "atropos", 6)
        expect(defense).to_have_text("4")

        # Train Stealth to Expert in the Skills table: its row of odds follows.
        row = page.locator('.rows-skills .tabulator-row:has-text("Stealth")')
        cell = row.locator('.tabulator-cell[tabulator-field="tier"]')
        # Scroll first: Tabulator closes a list editor that opens while the page scrolls.
        cell.scroll_into_view_if_needed()
        expect(cell).to_be_in_viewport()
        cell.click()
        page.locator(".tabulator-edit-list .tabulator-edit-list-item").get_by_text(
            "Expert", exact=True
        ).click()
        expect(odds_cell(page, "Stealth", 4)).to_have_text(percent(check_odds(7, 4, 3).p_success))

        # Off Balance (rules/004 "Conditions": everything at Disadvantage): the odds follow and
        # the sheet says why.
        page.get_by_role("button", name="Off Balance", exact=True).click()
        expect(page.locator(".skill-conditions")).to_contain_text(
            "Physical Skills: Disadvantage: Off Balance"
        )
        expect(odds_cell(page, "Perception", 5)).to_have_text(
            percent(check_odds(7, 5, 1, -1).p_success)
        )

        # Download: the file holds what the sheet shows, and loads back.
        with page.expect_download() as info:
            page.get_by_role("button", name="Download JSON").click()
        download = info.value
        assert download.suggested_filename == "ronan.json"
        saved = tmp_path / "saved.json"
        download.save_as(saved)
        data = json.loads(saved.read_text())
        assert (data["kind"], data["schema_version"]) == ("character", 1)
        again = load(saved)
        assert (again.name, again.air, again.atropos, again.movement_rate) == ("Ronan", 7, 6, 12)
        assert again.skill("Stealth").tier == 3
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_bad_upload_reports_every_field_and_changes_nothing(page, serve, tmp_path):
    page.set_viewport_size({"width": 390, "height": 900})  # a phone
    page.goto(serve(lambda: character_page(character=load(RONAN)), "character"))
    defense = page.locator(".sheet-defenses .d-defense-physical .v")
    expect(defense).to_have_text("7")
    doc = json.loads(RONAN.read_text())
    doc["data"].update(atropos=0, air=12, name="<b>Mallory</b>")
    doc["data"]["skills"][0]["tier"] = 9
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    page.locator(".upload input[type=file]").set_input_files(str(bad))
    message = page.locator(".file-message")
    expect(message).to_contain_text("bad.json: nothing loaded")
    expect(message).to_contain_text("data.air: a whole number from 0 to 10, got 12")
    expect(message).to_contain_text("data.skills[0].tier: a whole number from 0 to 4, got 9")
    expect(defense).to_have_text("7")  # Atropos 0 was valid, but nothing partial is loaded
    expect(page.locator(".sheet-name input")).to_have_value("Ronan")
    # Usable at phone width: nothing but the odds table (which scrolls) is wider than the page.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # A good file with a name full of markup shows the markup as text.
    doc["data"].update(air=9, atropos=1)
    doc["data"]["skills"][0]["tier"] = 1
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc))
    page.locator(".upload input[type=file]").set_input_files(str(good))
    expect(message).to_contain_text("Loaded <b>Mallory</b>")
    expect(defense).to_have_text("9")
    expect(page.locator(".sheet-movement .d-movement .v")).to_have_text("14")


def test_roster_picker_grouped_odds_and_a_closed_ruleset_card(page, serve):
    """Issue 10: Ronan without an upload, a new sheet's odds grouped, closed cards that say so."""
    page.goto(serve(character_page, "character"))
    # A new sheet: every Untrained Skill on one row; Swimming says why it has no odds.
    group = page.locator(".skill-odds tr.skill-group")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("Untrained (any Skill)")
    expect(group).to_contain_text("Perception")
    expect(group.locator("td.p").nth(5)).to_have_text(percent(check_odds(3, 5, 0).p_success))
    swimming = page.locator('.skill-odds tr[data-skill="Swimming"]')
    expect(swimming).to_contain_text("Can't be done Untrained")
    expect(page.locator(".skill-odds tr.skill-row")).to_have_count(2)

    # The Ruleset card is closed and its header says so; a click opens it.
    ruleset = page.locator(".card-ruleset")
    expect(ruleset).to_contain_text("Ruleset: 20 Below (roll under), no switches on")
    expect(ruleset).to_contain_text("closed: click to show")
    switch = page.get_by_text("Moira never attacks", exact=True).first  # the checkbox
    expect(switch).to_be_hidden()
    ruleset.get_by_text("closed: click to show").click()
    expect(switch).to_be_visible()
    expect(ruleset).not_to_contain_text("closed: click to show")

    # Pick Ronan from the roster: his values, as if his file had been uploaded.
    page.locator(".roster-pick select").select_option("Ronan")
    expect(page.locator(".file-message")).to_contain_text("Loaded Ronan")
    expect(page.locator(".sheet-name input")).to_have_value("Ronan")
    expect(page.locator(".sheet-ki .d-ki-pool .v")).to_have_text("14")  # Earth 6 + 8
    expect(page.locator(".sheet-defenses .d-defense-physical .v")).to_have_text("7")
    expect(odds_cell(page, "Perception", 5)).to_have_text(percent(check_odds(3, 5).p_success))
    expect(page.locator(".sheet-attacks")).to_contain_text("Physical")
    expect(page.locator(".sheet-attacks")).not_to_contain_text("physical")
