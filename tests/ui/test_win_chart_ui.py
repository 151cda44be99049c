"""The chance to win from here in Debian's Chromium (issue 23): /gm's chart, shared on /table.

The runs are held at a gate the test opens, so the test knows when a result is on its way:
after a GM action the players' pages show the new event while the GM's chart still says
"working"; once the gate opens, the chart's line gains the new event's point (the figure's
data, not a new figure). The GM's switch then shows the chart on the players' page, worked
out without the hidden foe (its name nowhere in the players' chart). Screenshots of /gm with
the chart at 390 and 1280 px go to ``screenshots/``.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_combat_ui import KEY, click, fight, join, served  # noqa: F401

from tb_playground.views.combat import win_chart

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"

#: The chart's line: how many points its data source holds, and the figures it draws.
LINE_POINTS_JS = """() => {
  let n = -1, figures = 0;
  for (const doc of Bokeh.documents) {
    for (const m of doc.all_models) {
      if (m.type === 'Figure' || (m.constructor && m.constructor.name === 'Figure')) figures++;
      let data = m.data;
      if (data instanceof Map) data = Object.fromEntries(data);
      if (data && data.chance !== undefined && data.event !== undefined
          && data.what === undefined) {
        n = Math.max(n, data.chance.length);
      }
    }
  }
  return [n, figures];
}"""


@pytest.fixture
def gate(monkeypatch):
    """Runs wait here until the test sets the event (then run at once, small)."""
    module = sys.modules["tb_playground.lab.worker_pool"]
    real = module.win_from_here
    opened = threading.Event()

    def held(state, fights, seed, cancel=None, **kw):
        while not opened.wait(0.02):
            if cancel is not None and (cancel.is_set() if hasattr(cancel, "is_set") else cancel()):
                break
        return real(state, fights, seed, cancel=cancel, **kw)

    monkeypatch.setattr(module, "win_from_here", held)
    monkeypatch.setitem(win_chart.RUN_OPTIONS, "fights", 400)
    monkeypatch.setitem(win_chart.RUN_OPTIONS, "process", False)
    return opened


def _points(page) -> int:
    return page.evaluate(LINE_POINTS_JS)[0]


def test_the_chart_follows_the_gm_and_the_players_never_wait(served, browser, gate):  # noqa: F811
    base, service, _ = served
    table = service.create("Story", fight())
    code = table.view_for("gm")["join_code"]
    gm = browser.new_context(viewport={"width": 1280, "height": 1600}).new_page()
    ronan = browser.new_context().new_page()

    gm.goto(f"{base}/gm?key={KEY}&table=Story")
    expect(gm.locator(".win-now")).to_contain_text("Working out the chance")
    gate.set()
    expect(gm.locator(".win-now")).to_contain_text("chance to win from here")
    expect(gm.locator(".win-now")).to_contain_text("after event 1")
    assert _points(gm) == 1
    figures = gm.evaluate(LINE_POINTS_JS)[1]

    join(ronan, base, code, "Ronan")
    expect(ronan.locator(".win-now")).to_have_count(0)  # not shared: nothing of it

    # Hold the next run: the GM hides the Nightmare; the player's page drops its card (an
    # event the player does not see numbered: issue 20) while the GM's chart still works on it.
    gate.clear()
    expect(ronan.locator('.tp-board [data-id="nightmare"]')).to_have_count(1)
    gm.locator(".gm-tool-who select").select_option(label="Nightmare")
    click(gm, "gm-hide")
    expect(ronan.locator('.tp-board [data-id="nightmare"]')).to_have_count(0)
    expect(ronan.locator(".tp-header .counter")).to_have_text("round 0 · event 1")
    expect(gm.locator(".win-now")).to_contain_text("working")
    expect(gm.locator(".win-now")).to_contain_text("after event 1")
    gate.set()
    expect(gm.locator(".win-now")).to_contain_text("after event 2")
    expect(gm.locator(".win-now")).not_to_contain_text("working")
    assert _points(gm) == 2
    assert gm.evaluate(LINE_POINTS_JS)[1] == figures  # the same figure, new data

    # Start the fight: its point arrives too.
    gm.locator(".gm-init-faces input").fill("10 10 1 1")
    click(gm, "gm-start")
    expect(gm.locator(".win-now")).to_contain_text("after event 3")
    expect(gm.locator(".win-chances")).to_contain_text("Down by the end of round 1")
    expect(gm.locator(".win-chances")).to_contain_text("Nightmare")

    # Shared: the players' page shows the chart, worked out without the hidden Nightmare.
    gm.locator(".win-share button").click()
    expect(ronan.locator(".win-now")).to_contain_text("chance to win from here")
    expect(ronan.locator(".win-chances")).to_contain_text("Guard dog")
    expect(ronan.locator(".win-chances")).not_to_contain_text("Nightmare")
    expect(gm.locator(".win-chances")).to_contain_text("Nightmare")

    SHOTS.mkdir(exist_ok=True)
    ronan.set_viewport_size({"width": 390, "height": 900})
    ronan.locator(".win-chart").scroll_into_view_if_needed()
    ronan.wait_for_timeout(400)
    assert ronan.evaluate("document.documentElement.scrollWidth <= innerWidth")
    ronan.locator(".win-chart").screenshot(path=str(SHOTS / "table-chance-390-light.png"))
    for width in (390, 1280):
        for theme in ("light", "dark"):
            gm.set_viewport_size({"width": width, "height": 900})
            gm.goto(f"{base}/gm?key={KEY}&table=Story&theme={theme}")
            expect(gm.locator(".win-now")).to_contain_text("after event")
            chart = gm.locator(".win-chart")
            chart.scroll_into_view_if_needed()
            gm.wait_for_timeout(400)
            wide = gm.evaluate("document.documentElement.scrollWidth <= innerWidth")
            assert wide, f"sideways scroll at {width} px"
            chart.screenshot(path=str(SHOTS / f"gm-chance-{width}-{theme}.png"))


#: The replay's cursors on the page: [location, visible] of each.
CURSOR_JS = """() => {
  const found = [];
  for (const doc of Bokeh.documents) {
    for (const m of doc.all_models) {
      if (m.name === 'replay-cursor') found.push([m.location, m.visible]);
    }
  }
  return found;
}"""


def _cursor_at(page, n) -> bool:
    return any(visible and at == n for at, visible in page.evaluate(CURSOR_JS))


def test_scrubbing_moves_the_charts_cursor(served, browser, gate):  # noqa: F811
    from test_replay_ui import _play_a_little

    gate.set()
    base, service, _ = served
    table = service.create("Scrub", fight())
    count = _play_a_little(table)  # events before the page: the past fills in
    gm = browser.new_context(viewport={"width": 1280, "height": 1600}).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Scrub")
    expect(gm.locator(".win-now")).to_contain_text(f"after event {count}")
    gm.wait_for_function(f"({LINE_POINTS_JS})()[0] >= 4")  # the past points arrive
    assert not any(visible for _, visible in gm.evaluate(CURSOR_JS))

    click(gm, "gm-replay-open")
    expect(gm.locator(".gm-replay-banner")).to_contain_text(f"Replaying event {count}")
    expect(gm.locator(".win-at")).to_contain_text(f"Replaying event {count}:")
    gm.wait_for_function(f"({CURSOR_JS})().some(c => c[1] && c[0] === {count})")
    for back in (1, 2):  # one step at a time: a second click while the first redraws is lost
        click(gm, "gm-replay-back")
        expect(gm.locator(".win-at")).to_contain_text(f"Replaying event {count - back}:")
    gm.wait_for_function(f"({CURSOR_JS})().some(c => c[1] && c[0] === {count - 2})", timeout=60_000)
    assert not _cursor_at(gm, count)
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        gm.set_viewport_size({"width": width, "height": 900})
        gm.locator(".win-chart").scroll_into_view_if_needed()
        gm.wait_for_timeout(400)
        assert gm.evaluate("document.documentElement.scrollWidth <= innerWidth")
        gm.screenshot(path=str(SHOTS / f"gm-replay-cursor-{width}.png"), full_page=True)

    click(gm, "gm-replay-live")
    expect(gm.locator(".gm-replay-banner")).to_have_count(0)
    expect(gm.locator(".win-now")).to_contain_text(f"after event {count}")
    gm.wait_for_function(f"!({CURSOR_JS})().some(c => c[1])", timeout=60_000)
    expect(gm.locator(".win-at")).to_have_text("")


def test_a_players_cursor_stands_at_the_tables_event(served, browser, gate):  # noqa: F811
    from test_replay_ui import _play_a_little

    from tb_playground.table.table_log import readable_seqs

    gate.set()
    base, service, _ = served
    table = service.create("Shared", fight())
    _play_a_little(table)
    for cid in ("nightmare", "guard-dog"):
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": 0})
    table.apply({"type": "table_option", "option": "share_chance", "on": True})
    seqs = sorted(readable_seqs(table.state, table.events, "player", "ronan"))
    assert seqs[4] > 5  # the hidden Nightmare's event is not the player's: numbers differ
    code = table.view_for("gm")["join_code"]
    ronan = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    ronan.goto(f"{base}/table?code={code}&seat=ronan&at=5&theme=dark")
    expect(ronan.locator(".tp-replay-banner")).to_contain_text("Replaying event 5 of")
    expect(ronan.locator(".win-at")).to_contain_text("Replaying event 5:")  # their numbering
    expect(ronan.locator(".win-at")).not_to_contain_text("table's event")  # issue 31
    ronan.wait_for_function(f"({CURSOR_JS})().some(c => c[1] && c[0] === 5)")  # their x axis
    ronan.locator(".win-chart").scroll_into_view_if_needed()
    ronan.wait_for_timeout(400)
    assert ronan.evaluate("document.documentElement.scrollWidth <= innerWidth")
    ronan.locator(".win-chart").screenshot(path=str(SHOTS / "table-replay-cursor-390-dark.png"))
