"""The encounter planner in Debian's Chromium (issue 11, sections 3 and 4): one page load.

A link with the settings in its query opens /encounter on a phone-wide (390 px) page and runs at
once (few fights); the P(win) on the page equals ``simulate`` with the same sides, policies and
seed, computed here. Then a new seed typed and Run: the page follows, the address keeps the new
seed (so the link reproduces the view), and the "who wins" CSV downloads with the same numbers.
"""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tb_playground.formatting import percent
from tb_playground.lab import simulate
from tb_playground.models.roster import build_encounter
from tb_playground.service import CombatService
from tb_playground.views.encounter_planner import encounter_page

pytestmark = pytest.mark.ui


PARTY = ["ronan.json"]
FOES = ["grizzly_bear.yaml", "guard_dog.yaml"]
FIGHTS = 400


def expected(seed: int):
    return simulate(
        build_encounter("", PARTY, FOES), FIGHTS, seed,
        bracket_policy={"Party": "slow_aim", "default": "normal"},
        target_policy={"Party": "weakest", "default": "spread"},
    )  # fmt: skip


def shown_p_win(page, index: int) -> float:
    return float(page.locator(f".enc-wins .win-{index} .pct").get_attribute("data-p"))


def test_a_link_reproduces_the_run(page, serve, tmp_path):
    service = CombatService(tmp_path / "tables.sqlite", gm_key="k")
    url = serve(lambda: encounter_page(service), "encounter")
    query = urlencode({
        "party": json.dumps(PARTY), "foes": json.dumps(FOES), "fights": FIGHTS, "seed": 7,
        "party_bracket": "slow_aim", "foes_target": "spread",
    })  # fmt: skip
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{url}?{query}")
    # few fights: the link runs at once
    expect(page.locator(".enc-done")).to_be_visible()
    first = expected(7)
    for i, side in enumerate(first.sides):
        expect(page.locator(f".enc-wins .win-{i} .pct")).to_have_text(percent(first.p_win[side]))
        assert shown_p_win(page, i) == first.p_win[side]
    expect(page.locator(".enc-fights input")).to_have_value(str(FIGHTS))
    expect(page.locator(".enc-party")).to_contain_text("Ronan (character)")
    expect(page.locator(".enc-foes")).to_contain_text("Guard dog")
    # a phone-wide page never scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") == 390

    # another seed, typed and run: the page and the address follow
    seed_box = page.locator(".enc-seed input")
    seed_box.fill("8")
    seed_box.press("Enter")
    page.wait_for_function("window.location.search.includes('seed=8')")
    page.locator(".enc-run button").click()
    second = expected(8)
    side = second.sides[0]
    expect(page.locator(".enc-wins .win-0 .pct")).to_have_attribute(
        "data-p", repr(second.p_win[side])
    )
    assert "party_bracket=slow_aim" in page.url and "seed=8" in page.url

    # the "who wins" table as CSV: the same numbers
    with page.expect_download() as download:
        page.locator(".enc-csv-wins button").click()
    rows = list(csv.reader(io.StringIO(download.value.path().read_text())))
    assert rows[0] == ["side", "p_win", "low_95", "high_95"]
    for row, side in zip(rows[1:], second.sides, strict=False):
        assert (row[0], float(row[1])) == (side, second.p_win[side])
        assert (float(row[2]), float(row[3])) == second.p_win_interval[side]
