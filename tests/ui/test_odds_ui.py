"""The roll-under playground in Debian's Chromium: sliders move, percentages follow the engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http

from tb_playground.engine import check_odds
from tb_playground.formatting import percent
from tb_playground.views import odds_page

pytestmark = pytest.mark.ui

# A page takes 2-8 s to render on a machine shared by several test runs: wait up to 20 s.

ROOT = Path(__file__).resolve().parents[2]
SLIDERS = {"element": 0, "difficulty": 1, "advantage": 2, "disadvantage": 3}


def expect_odds(page, odds) -> None:
    """The four headline percentages equal the engine's, in order."""
    shown = page.locator(".odds-headline .pct")
    expect(shown).to_have_text(
        [
            percent(odds.p_success),
            percent(odds.p_critical),
            percent(odds.p_failure),
            percent(odds.p_catastrophe),
        ]
    )


def test_every_slider_moves_the_odds(page, serve):
    page.goto(serve(odds_page, "odds"))
    # Default: Element 5 + Difficulty 6 = TN 11, rules/004's "55%".
    expect(page.locator(".odds-headline .pct").first).to_have_text("55.0%")
    expect_odds(page, check_odds(5, 6))
    expect(page.locator(".odds-summary")).to_contain_text("TN 11")

    state = {"element": 5, "difficulty": 6, "advantage": 0, "disadvantage": 0}
    moves = [
        ("element", "ArrowRight", +1),
        ("difficulty", "ArrowLeft", -1),
        ("difficulty", "ArrowLeft", -1),
        ("advantage", "ArrowRight", +1),
        ("disadvantage", "ArrowRight", +1),
        ("disadvantage", "ArrowRight", +1),
        ("element", "ArrowLeft", -1),
    ]
    for slider, key, step in moves:
        page.locator(".noUi-handle").nth(SLIDERS[slider]).press(key)
        state[slider] += step
        odds = check_odds(
            state["element"], state["difficulty"], 1, state["advantage"] - state["disadvantage"]
        )
        expect_odds(page, odds)
        expect(page.locator(".odds-summary")).to_contain_text(f"TN {odds.target}")
    # Difficulty is now 4: the ladder highlights rules/004's "Challenging".
    expect(page.locator(".odds-ladder tr.current")).to_contain_text("Challenging")


def wait_until_idle(page) -> None:
    """Wait until Bokeh has laid out and connected the whole page (a click before that can
    land while the button group's stylesheet still moves the buttons)."""
    page.wait_for_function(
        "window.Bokeh && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle",
        timeout=30_000,
    )


def test_tiers_change_target_crit_band_and_reroll(page, serve):
    page.goto(serve(odds_page, "odds"))
    expect_odds(page, check_odds(5, 6))
    wait_until_idle(page)
    for tier, name in enumerate(["Untrained", "Trained", "Adept", "Expert", "Master"]):
        page.get_by_role("button", name=name, exact=True).click()
        expect_odds(page, check_odds(5, 6, tier))
    # Master: TN 11 at Advantage, criticals on 2 or 3, a 20 rerolled once.
    expect(page.locator(".odds-summary")).to_contain_text("critical on 2 to 3")
    expect(page.locator(".odds-summary")).to_contain_text("rerolled once")
    page.get_by_role("button", name="Untrained", exact=True).click()
    # Untrained: Difficulty alone, TN 6 -> 15%.
    expect(page.locator(".odds-headline .pct").first).to_have_text("15.0%")


def test_panel_serve_apps_odds_as_a_user_runs_it(page):
    """`panel serve apps/odds.py`, the README's way, serves a working page at /odds."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "panel",
            "serve",
            str(ROOT / "apps" / "odds.py"),
            "--port",
            str(port),
            "--address",
            "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/odds"
        wait_for_http(url, timeout=60)
        page.goto(url)
        expect(page.locator(".odds-headline .pct").first).to_have_text("55.0%")
        page.locator(".noUi-handle").nth(SLIDERS["element"]).press("ArrowRight")
        expect_odds(page, check_odds(6, 6))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
