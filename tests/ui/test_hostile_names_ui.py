"""Hostile names run no script, and the GM key leaves the address (issue 33, item 1).

A roster whose every name and text field carries markup (``<img onerror>``, ``<script>``,
``"><svg onload>``) is played at a table; the GM opens every panel of /gm (the turn's actions
and each one's choices, the GM tools, the chase's "Who gives chase", the replay, the night's
numbers) and a player /table: ``window.__xss`` is never set and the names show as their literal
characters. The GM key: once /gm accepts ``?key=``, the address no longer holds it, and a reload
opens the dashboard from the session's cookie. The server and helpers are
tests/ui/test_combat_ui.py's.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from playwright.sync_api import expect
from test_combat_ui import KEY, click, fight, served  # noqa: F401 - the fixture

from tb_playground.models.files import dumps, loads

pytestmark = pytest.mark.ui


def test_the_gm_key_leaves_the_address_and_a_reload_keeps_the_page(served, browser):  # noqa: F811
    base, service, _ = served
    service.create("Friday", fight())
    gm = browser.new_context().new_page()
    gm.goto(f"{base}/gm?key={KEY}&table=Friday")
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 1")
    gm.wait_for_function("() => !location.search.includes('key=')")
    assert KEY not in gm.url and "table=Friday" in gm.url
    cookies = gm.context.cookies()
    assert [(c["name"], c["path"], c["sameSite"]) for c in cookies] == [("tb_gm", "/gm", "Strict")]
    assert KEY not in cookies[0]["value"]
    # Back in history finds no address with the key either (replaced, not pushed).
    assert KEY not in gm.evaluate("() => history.length + ' ' + location.href")

    gm.reload()  # the cookie, not the key, opens the dashboard
    expect(gm.locator(".gm-header .counter")).to_have_text("round 0 · event 1")
    assert KEY not in gm.url

    # The typed key: accepted, never written into the address; a reload stays unlocked.
    typed = browser.new_context().new_page()
    typed.goto(f"{base}/gm")
    expect(typed.locator(".gm-prompt")).to_contain_text("needs the GM key")
    typed.locator(".gm-key input").fill(KEY)
    click(typed, "gm-key-enter")
    expect(typed.locator(".gm-tables")).to_be_visible()
    assert KEY not in typed.url
    typed.reload()
    expect(typed.locator(".gm-tables")).to_be_visible()

    # Without the cookie the page asks for the key.
    stranger = browser.new_context().new_page()
    stranger.goto(f"{base}/gm?table=Friday")
    expect(stranger.locator(".gm-prompt")).to_contain_text("needs the GM key")


#: The markup each hostile field carries; any of them that ran would set ``window.__xss``.
PAYLOADS = (
    '<img src=x onerror="window.__xss=1">',
    "<script>window.__xss=1</script>",
    '"><svg onload=window.__xss=1>',
)
#: The fields of a roster file that hold words (every name, the player, notes, sides...).
TEXT_FIELDS = {"name", "player", "concept", "notes", "description", "effect", "side", "sides"}
TABLE = f"Night {PAYLOADS[0]}"

#: (window.__xss, elements the payloads would have made, every text of the page incl. shadows).
PAGE_STATE_JS = """() => {
  const texts = [document.body.innerText || ''];
  let made = 0;
  const walk = (root) => {
    made += root.querySelectorAll('img[onerror], svg[onload], [onload], [onerror]').length;
    for (const s of root.querySelectorAll('script')) if (s.text.includes('__xss')) made += 1;
    root.querySelectorAll('*').forEach((el) => {
      if (el.shadowRoot) { texts.push(el.shadowRoot.textContent || ''); walk(el.shadowRoot); }
    });
  };
  walk(document);
  return [window.__xss === undefined ? null : String(window.__xss), made, texts.join('\\n')];
}"""


def hostile_encounter():
    """``fight()`` written to its file, every word field given a payload, read back."""
    doc = json.loads(dumps(fight(), "json"))
    given: dict[str, str] = {}

    def spoil(value, key=None):
        if isinstance(value, dict):
            return {k: spoil(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [spoil(v, key) for v in value]
        if isinstance(value, str) and key in TEXT_FIELDS:  # one text, one payload everywhere
            given.setdefault(value, f"{value} {PAYLOADS[len(given) % len(PAYLOADS)]}")
            return given[value]
        return value

    return loads(json.dumps(spoil(doc)), kind="encounter")


def clean(page, *names: str) -> str:
    """No payload ran or became an element; each of ``names`` shows as its literal text."""
    page.wait_for_timeout(300)  # let an image's error (a payload's trigger) fire
    xss, made, text = page.evaluate(PAGE_STATE_JS)
    assert xss is None and made == 0
    for name in names:
        assert name in text, name
    return text


def test_hostile_names_run_no_script_on_the_gm_and_player_pages(served, browser):  # noqa: F811
    base, service, _ = served
    table = service.create(TABLE, hostile_encounter())
    by_name = {c["name"]: c["id"] for c in table.view_for("gm")["combatants"]}
    ronan, brick, dog, nightmare = (
        next(cid for name, cid in by_name.items() if name.startswith(who))
        for who in ("Ronan ", "The Brick ", "Guard dog ", "Nightmare ")
    )
    names = list(by_name)
    table.apply({"type": "start", "initiative": {ronan: 10, brick: 1, dog: 1, nightmare: 1}})
    for cid in (ronan, brick, dog, nightmare):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    table.apply({"type": "attack", "attacker": ronan, "target": dog})
    table.apply({"type": "roll", "faces": [3, 4]})
    table.apply({"type": "roll", "faces": [9]})
    code = table.view_for("gm")["join_code"]

    gm = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    gm.goto(f"{base}/gm?key={KEY}&table={quote(TABLE)}")
    expect(gm.locator(".gm-log")).to_contain_text(names[0])
    clean(gm, TABLE, *names)

    # Every action of the turn and every GM call, with its choices (Who gives chase...).
    for group in ("gm-actions", "gm-calls-actions"):
        buttons = gm.locator(f".{group} button")
        for i in range(buttons.count()):
            if buttons.nth(i).is_visible() and buttons.nth(i).is_enabled():
                buttons.nth(i).click()
                clean(gm)
    gm.locator(".gm-calls-actions button", has_text="Start a chase").first.click()
    chase = gm.locator(".gm-calls-f-pursuers")
    expect(chase).to_contain_text("Who gives chase")
    chase.locator(".choices").first.click()  # the list open: each label drawn
    clean(gm, *names)
    # The drawn labels (the list and the chosen items) are the names, not an escaped spelling.
    shown = chase.locator(".choices__item").all_inner_texts()
    assert any(names[0] in label for label in shown)
    assert not any("&lt;" in label or "&amp;" in label for label in shown)

    click(gm, "gm-night-open")
    expect(gm.locator(".gm-night")).to_be_visible()
    clean(gm, *names)
    click(gm, "gm-replay-open")
    expect(gm.locator(".gm-replay-banner")).to_be_visible()
    clean(gm, *names)

    player = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    player.goto(f"{base}/table?code={code}&seat={ronan}")
    expect(player.locator(".tp-header")).to_contain_text(names[0])
    clean(player, *names)
