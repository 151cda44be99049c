"""The combat pages in Debian's Chromium: a GM and two players at one live table (issue 9).

One in-process server serves /gm and /table over a fresh service (a temporary SQLite file and
a known GM key). Several browser contexts play at once. The restart test runs the real
``panel serve apps/gm.py apps/table.py`` twice on the same table file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import panel as pn
import pytest
from playwright.sync_api import expect
from serving import free_port, wait_for_http
from table_helpers import FIRST_RONAN, fight  # noqa: F401 - other tests import them here

from tb_playground.service import CombatService, set_service
from tb_playground.views.combat.gm_page import gm_page
from tb_playground.views.combat.table_page import table_page

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
ROSTER = ROOT / "examples" / "roster"
KEY = "test-gm-key-7-of-16"

#: Every text and HTML of the page, shadow roots included, and every Bokeh model's text.
ALL_TEXT_JS = """() => {
  const out = [];
  const walk = (root) => {
    out.push(root.innerHTML || '');
    root.querySelectorAll('*').forEach((el) => { if (el.shadowRoot) walk(el.shadowRoot); });
  };
  walk(document.documentElement);
  for (const doc of Bokeh.documents) {
    for (const m of doc.all_models) {
      for (const k of ['text', 'value', 'title', 'label', 'name', 'labels', 'options']) {
        try { const v = m[k]; if (v != null) out.push(JSON.stringify(v)); } catch (e) {}
      }
    }
  }
  return out.join('\\n');
}"""


def serve_combat_pages(port: int | None = None, **settings) -> tuple[str, object]:
    """(base URL, server) of /gm and /table served in this process (Bokeh ``settings``)."""
    port = port or free_port()
    server = pn.serve(
        {"gm": gm_page, "table": table_page},
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
        **settings,
    )
    base = f"http://127.0.0.1:{port}"
    wait_for_http(f"{base}/table")
    return base, server


@pytest.fixture
def served(tmp_path):
    """(base URL, service, server) of an in-process server with /gm and /table."""
    service = CombatService(tmp_path / "tables.sqlite", gm_key=KEY)
    set_service(service)
    base, server = serve_combat_pages()
    yield base, service, server
    try:
        server.stop()
    except Exception:  # noqa: BLE001 - the restart test stops it itself
        pass
    set_service(None)


def click(page, css: str) -> None:
    page.locator(f".{css} button").click()


def card(page, cid: str):
    return page.locator(f'.card[data-id="{cid}"]')


def join(page, base: str, code: str, seat_name: str) -> None:
    """Type the join code, find the table, pick the seat, sit down."""
    page.goto(f"{base}/table")
    page.locator(".tp-code input").fill(code)
    click(page, "tp-find")
    page.locator(".tp-seat select").select_option(label=seat_name)
    click(page, "tp-join")
    expect(page.locator(".tp-header .counter")).to_be_visible()


def test_gm_and_two_players_play_a_round(served, browser):
    base, service, _ = served
    table = service.create("Friday", fight())
    code = table.view_for("gm")["join_code"]
    gm, ronan, brick = (browser.new_context().new_page() for _ in range(3))

    gm.goto(f"{base}/gm?key={KEY}&table=Friday")
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 1")
    # Hide the Nightmare, then start with typed Initiative d10s (card order).
    gm.locator(".gm-tool-who select").select_option(label="Nightmare")
    click(gm, "gm-hide")
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 2")
    gm.locator(".gm-init-faces input").fill("10 10 1 1")
    click(gm, "gm-start")
    expect(gm.locator(".gm-header .counter")).to_have_text("round 1 · event 3")

    join(ronan, base, code, "Ronan")
    assert "seat=ronan" in ronan.url and f"code={code}" in ronan.url
    brick.goto(f"{base}/table?code={code}&seat=the-brick")  # the URL alone seats a reload
    expect(brick.locator(".tp-header")).to_contain_text("playing The Brick")
    expect(ronan.locator(".tp-banner")).to_contain_text("Declare your bracket")

    # Ronan declares Fast in secret: the GM sees it, the Brick only that he declared.
    ronan.locator(".tp-bracket button", has_text="Fast").click()
    click(ronan, "tp-declare")
    expect(card(gm, "ronan")).to_contain_text("Fast")
    expect(brick.locator(".tp-log")).to_contain_text("Ronan declared.")
    expect(card(brick, "ronan")).to_contain_text("declared")
    expect(gm.locator(".gm-status")).to_contain_text("Declared: Ronan.")
    brick_text = brick.evaluate(ALL_TEXT_JS)
    assert "Ronan declared." in brick_text and "Ronan declared Fast" not in brick_text
    ronan_card_html = card(brick, "ronan").evaluate("el => el.outerHTML")
    assert not any(b in ronan_card_html for b in ("Fast", "Normal", "Slow"))

    brick.locator(".tp-bracket button", has_text="Normal").click()
    click(brick, "tp-declare")
    gm.locator(".gm-declare-who select").select_option(label="Guard dog")
    gm.locator(".gm-bracket button", has_text="Slow").click()
    click(gm, "gm-declare")
    expect(gm.locator(".gm-status")).to_contain_text("Waiting for: Nightmare")
    click(gm, "gm-reveal")  # the hidden Nightmare never declared: it acts Normal
    expect(card(brick, "ronan")).to_contain_text("Fast")
    expect(ronan.locator(".tp-banner")).to_have_text("Your turn!")

    # Ronan's Onslaught on the dog: the odds before the roll, typed dice, one boost.
    ronan.locator(".tp-target select").select_option(label="Guard dog")
    ronan.locator(".tp-attack select").select_option(label="Onslaught (Gift 5, 7 dice)")
    click(ronan, "tp-attack-go")
    expect(gm.locator(".gm-pending .p-hit")).to_have_text("55.0%")  # TN 6 + 5 = 11 on 2d10
    expect(ronan.locator(".tp-pending .p-hit")).to_have_text("55.0%")
    ronan.locator(".tp-faces input").fill("3 4")
    click(ronan, "tp-faces-go")
    expect(ronan.locator(".tp-pending")).to_contain_text("damage roll next")
    ronan.locator(".tp-faces input").fill("1 2 3 3 3 3 3")
    click(ronan, "tp-faces-go")
    # Every die is at or under the wall of 3 and Ferocity 4 lifts each over it.
    expect(gm.locator(".gm-pending .die .lift")).to_have_count(7)
    ronan.locator(".tp-boost-dice button").first.click()
    click(ronan, "tp-boost")
    expect(card(gm, "guard-dog")).to_contain_text("5/6")
    expect(card(brick, "guard-dog")).to_contain_text("Hurt")  # a foe: a label, no numbers
    assert "5/6" not in card(brick, "guard-dog").inner_text()

    click(ronan, "tp-end-turn")
    expect(brick.locator(".tp-banner")).to_have_text("Your turn!")
    click(brick, "tp-end-turn")
    click(gm, "gm-end-turn")  # the Nightmare's turn
    expect(gm.locator(".gm-board .card.up")).to_contain_text("Guard dog")

    # The dog bites Ronan; Ronan prevents one of the three levels with Ki.
    # Hurt before its Slow action, the dog first rolls to hold its focus (issue 32's rules,
    # RULES.md "Distracted"): the GM rolls it from the tools with typed dice, 1 and 2 hold.
    gm.locator(".gm-tool-who select").select_option(label="Guard dog")
    gm.locator(".gm-distracted-faces input").fill("1 2")
    gm.locator(".gm-distracted-faces input").press("Enter")
    click(gm, "gm-distracted")
    expect(gm.locator(".gm-log")).to_contain_text("(Distracted)")
    gm.locator(".gm-target select").select_option(label="Ronan")
    click(gm, "gm-attack-go")
    gm.locator(".gm-faces input").fill("3 3")
    click(gm, "gm-faces-go")
    expect(gm.locator(".gm-pending")).to_contain_text("damage roll next")
    gm.locator(".gm-faces input").fill("9 9 9")
    click(gm, "gm-faces-go")
    expect(ronan.locator(".tp-banner")).to_contain_text("You are hit")
    ronan.locator(".tp-prevent-ki input").fill("1")
    ronan.locator(".tp-prevent-ki input").press("Enter")
    click(ronan, "tp-prevent")
    line = "Ronan loses 2 Health (1 prevented with Ki): 10 -> 8."
    for page, css in ((gm, "gm-log"), (ronan, "tp-log"), (brick, "tp-log")):
        expect(page.locator(f".{css}")).to_contain_text(line)
    expect(card(gm, "ronan")).to_contain_text("8/10")
    expect(card(ronan, "ronan")).to_contain_text("8/10")
    expect(card(brick, "ronan")).to_contain_text("8/10")

    click(gm, "gm-end-turn")  # the round ends
    expect(gm.locator(".gm-header .counter")).to_contain_text("round 2 ·")
    version = table.version
    expect(gm.locator(".gm-header .counter")).to_have_text(f"round 2 · event {version}")
    # A player counts the events they see: the hidden Nightmare's leave no gap (issue 20).
    seen = table.view_for("player", "ronan")["events_seen"]
    assert seen < version
    for page in (ronan, brick):
        expect(page.locator(".tp-header .counter")).to_have_text(f"round 2 · event {seen}")

    # The hidden Nightmare never reached a player's page, not even in the log.
    for page in (ronan, brick):
        assert "Nightmare" not in page.evaluate(ALL_TEXT_JS)
    assert "Nightmare" in gm.evaluate(ALL_TEXT_JS)

    # A player's page cannot act for another seat: the table refuses what its session sends.
    mine = next(s for s in service.sessions if s.seat == "ronan")
    before = table.version
    declare = {"type": "declare", "combatant": "the-brick", "bracket": "slow"}
    assert mine.send(declare).startswith("Not allowed")
    assert mine.send({"type": "hide", "combatant": "the-brick"}).startswith("Not allowed")
    assert table.version == before

    # New controls, one page load: an override out of range is refused in words; the GM asks
    # Ronan for a Distracted roll, Ronan rolls it with typed dice; Ronan spends a Fate Token.
    gm.locator(".gm-tool-who select").select_option(label="The Brick")
    gm.locator(".gm-set-field select").select_option(label="Health")
    expect(gm.locator(".gm-set-value input")).to_have_value("11")  # pre-filled: Brick's Health
    gm.locator(".gm-set-value input").fill("99")
    gm.locator(".gm-set-value input").press("Enter")
    click(gm, "gm-set")
    expect(gm.locator(".gm-message")).to_contain_text(
        "Health of The Brick must be a whole number from -"
    )
    gm.locator(".gm-tool-who select").select_option(label="Ronan")
    click(gm, "gm-ask-distracted")
    expect(ronan.locator(".tp-distracted-ask")).to_contain_text("Distracted roll")
    expect(brick.locator(".tp-log")).to_contain_text("Ronan is Distracted.")
    ronan.locator(".tp-distracted-faces input").fill("1 2")
    click(ronan, "tp-distracted-faces-go")
    expect(gm.locator(".gm-log")).to_contain_text("(Distracted)")
    expect(ronan.locator(".tp-distracted-ask")).to_be_hidden()
    ronan.locator(".tp-fate-kind select").select_option(label="Get Back Up")
    click(ronan, "tp-spend-fate")
    expect(ronan.locator(".tp-message")).to_contain_text("Get Back Up only works")
    expect(ronan.locator(".tp-message")).not_to_contain_text("spend:")  # plain words (issue 20)
    expect(ronan.locator(".tp-message")).not_to_contain_text("get back up")  # no engine keys

    # The GM changes the join code: the seated players stay seated (issue 20, "Seats"; the
    # rest in tests/ui/test_seats_ui.py).
    click(gm, "gm-rotate")
    expect(gm.locator(".join-code")).not_to_have_text(code)
    assert not table.code_matches(code)
    for page in (ronan, brick):
        expect(page.locator(".tp-header")).to_contain_text("playing")
        assert page.locator(".tp-code").count() == 0
    assert any(s.seat == "ronan" and not s.closed for s in service.sessions)


def test_refusals_and_a_phone(served, browser):
    base, service, _ = served
    table = service.create("Phones", fight())
    code = table.view_for("gm")["join_code"]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()

    # /gm without the key, or with a wrong one: only the prompt.
    page.goto(f"{base}/gm?key=wrong")
    expect(page.locator(".gm-prompt")).to_be_visible()
    assert page.locator(".gm-create").count() == 0
    page.locator(".gm-key input").fill("still wrong")
    click(page, "gm-key-enter")
    expect(page.locator(".gm-key-message")).to_contain_text("not the GM key")
    assert "Phones" not in page.evaluate(ALL_TEXT_JS)
    page.locator(".gm-key input").fill(KEY)
    click(page, "gm-key-enter")
    expect(page.locator(".gm-tables select")).to_contain_text("Phones")

    # A bad join code is refused, in the prompt and in the URL.
    page.goto(f"{base}/table")
    bad = "999999" if code != "999999" else "888888"
    page.locator(".tp-code input").fill(bad)
    click(page, "tp-find")
    expect(page.locator(".tp-join-message")).to_contain_text("No table has that join code")
    page.goto(f"{base}/table?code={bad}&seat=ronan")
    expect(page.locator(".tp-join-message")).to_contain_text("No table has that join code")
    assert page.locator(".tp-header .counter").count() == 0

    # At 390 px the seated page, with its turn controls, has no sideways scroll.
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid in ("ronan", "the-brick", "guard-dog", "nightmare"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    page.goto(f"{base}/table?code={code}&seat=ronan")
    expect(page.locator(".tp-banner")).to_have_text("Your turn!")
    expect(page.locator(".tp-attacks")).to_contain_text("Guard dog")
    html = page.content()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    # Seven damage dice: the four a boost lifts over the wall of 3 are offered, in a row that wraps.
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    table.apply({"type": "roll", "faces": [3, 4]})
    table.apply({"type": "roll", "faces": [1, 2, 5, 9, 3, 3, 10]})
    expect(page.locator(".tp-boost-dice button")).to_have_count(4)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def _serve_apps(port: int, db: Path) -> subprocess.Popen:
    """The command a GM runs, over the table file ``db``."""
    env = {**os.environ, "TB_TABLE_DB": str(db), "TB_GM_KEY": KEY}
    return subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve",
            str(ROOT / "apps" / "gm.py"), str(ROOT / "apps" / "table.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def test_restart_mid_fight_brings_every_page_back(tmp_path, browser):
    """`panel serve apps/gm.py apps/table.py` is killed mid-fight; a new server opens the file."""
    db = tmp_path / "tables.sqlite"
    service = CombatService(db, gm_key=KEY)
    table = service.create("Restart", fight())
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid in ("ronan", "the-brick", "guard-dog", "nightmare"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    code = table.view_for("gm")["join_code"]
    service.store.close()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve_apps(port, db)
    gm, ronan = browser.new_context().new_page(), browser.new_context().new_page()
    server = None
    try:
        wait_for_http(f"{base}/table", timeout=60)
        gm.goto(f"{base}/gm?key={KEY}&table=Restart")
        ronan.goto(f"{base}/table?code={code}&seat=ronan")
        ronan.locator(".tp-faces input").fill("3 4")
        click(ronan, "tp-faces-go")
        # The page clears the box once the roll is in: wait for it before typing the damage.
        expect(ronan.locator(".tp-pending")).to_contain_text("damage roll next")
        ronan.locator(".tp-faces input").fill("9 9 2 2 2 2 2")
        click(ronan, "tp-faces-go")  # 2 over the wall of 3; a boost would lift each 2
        expect(gm.locator(".gm-pending")).to_contain_text("boost")
        expect(ronan.locator(".tp-boost-dice button")).to_have_count(5)
        counter = gm.locator(".gm-header .counter").inner_text()
        expect(ronan.locator(".tp-header .counter")).to_have_text(counter)
        tracks = {p: card(p, "ronan").inner_text() for p in (gm, ronan)}
        dog = card(gm, "guard-dog").inner_text()

        proc.send_signal(signal.SIGKILL)  # a crash, mid-attack
        proc.wait(timeout=10)
        set_service(CombatService(db, gm_key=KEY))
        # The README's setup's session settings (serve_setup.py): the old pages' reconnections,
        # left without a browser by the reloads, end 5 s later (note 0021).
        _, server = serve_combat_pages(
            port, unused_session_lifetime_milliseconds=5000, check_unused_sessions_milliseconds=1000
        )
        for page in (gm, ronan):
            page.reload()
        expect(gm.locator(".gm-header .counter")).to_have_text(counter)
        expect(ronan.locator(".tp-header .counter")).to_have_text(counter)
        expect(gm.locator(".gm-pending")).to_contain_text("boost")
        for page, cid, was in ((gm, "ronan", tracks[gm]), (ronan, "ronan", tracks[ronan]),
                               (gm, "guard-dog", dog)):  # fmt: skip
            wait_until(lambda page=page, cid=cid, was=was: card(page, cid).inner_text() == was)
            said = page.locator(".tp-header, .tp-seat-note").all_inner_texts()
            assert card(page, cid).inner_text() == was, said
        expect(ronan.locator(".tp-boost-dice button")).to_have_count(5)
        ronan.locator(".tp-boost-dice button").last.click()
        click(ronan, "tp-boost")  # the fight goes on after the restart
        expect(gm.locator(".gm-log")).to_contain_text("Guard dog loses")
    finally:
        if proc.poll() is None:
            proc.kill()
        if server is not None:
            server.stop()
        set_service(None)


def wait_until(check, timeout: float = 30.0) -> None:
    """Poll ``check()`` (a page redrawn after a reconnect) until true or ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.2)
