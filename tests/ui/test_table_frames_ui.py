"""What the phones receive over their websockets in a long random game (issue 20, "Tests").

Three phones are open on one served table (Ronan's, the Brick's and a spectator's) while a
seeded random game is driven on the server: the commands of tests/table/test_table_visibility.py's
random game, tests/table/test_table_leaks.py's leaky ones (hidden joiners added, hide and show, undo
and redo, Ki spends by foes), and foes' attacks on the players (the hidden ones' too) played
out. Every websocket frame each phone receives is kept (Playwright's ``framereceived``) and
searched for what that phone may not learn: a hidden combatant's name or id, "Waiting for:
nobody", the
odds or TN of an attack that does not involve its seat, a foe's numbers (never shared here);
the event numbers each log it was sent shows run without a gap, and so do the ones it shows at
the end, where its counter says the last of them.
"""

from __future__ import annotations

import html
import json
import random
import re
import time

import pytest
import test_combat_ui
from playwright.sync_api import expect
from table_helpers import encounter, roster, soak7
from test_table_leaks import DRAGON, _captain, _foe_numbers, _leaky_command
from test_table_visibility import SECRET, _random_command

from tb_playground.models.files import document
from tb_playground.table.fight_rules import can_act

pytestmark = pytest.mark.ui

#: The combat pages' in-process server.
served = test_combat_ui.served

PHONE = {"width": 390, "height": 844}
FOES = ("opponent", "captain-oriel-vance")  # the foes in sight, hidden and shown at random
PLAYERS = ("ronan", "the-brick")
NAMES = {"ronan": "Ronan", "the-brick": "The Brick"}
STEPS = 300


def _strings(payload) -> list[str]:
    """Every string a frame carries (its JSON decoded; raw text if it is not JSON)."""
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    try:
        data = json.loads(text)
    except ValueError:
        return [text]
    out: list[str] = []
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(html.unescape(item))  # a pane's HTML travels escaped
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return out


ATTACK = re.compile(r"<b>(?P<a>[^<]*)</b> attacks <b>(?P<t>[^<]*)</b>")
SEQ = re.compile(r'<span class="seq">(\d+)</span>')
ROW = re.compile(r'<span class="seq">\d+</span>(?:<del>)?([^<]*)')
LOG_TN = re.compile(r"^(?P<a>.+?) (?:attacks|rolls to hit) (?P<t>.+?): .*TN \d")


def _problems(strings: list[str], seat: str | None, secrets: set[str], state: dict) -> list:
    """What in ``strings`` (one phone's frames) that phone may not learn."""
    mine = NAMES.get(seat)
    found = []
    for s in strings:
        low = s.lower()
        for secret in secrets:
            if secret in low:
                found.append(("a hidden one", secret, s[:200]))
        if re.search(r"waiting for:? nobody", low):  # "Declared: nobody yet." tells nothing
            found.append(("nobody", s[:200]))
        for m in ATTACK.finditer(s):  # the pending attack: odds and TN to attacker and target
            if mine not in (m["a"], m["t"]) and ('class="odds"' in s or re.search(r"TN \d", s)):
                found.append(("odds of another's attack", s[:300]))
        if 'class="log"' in s:
            seqs = [int(x) for x in SEQ.findall(s)]
            if seqs != list(range(seqs[0], seqs[0] - len(seqs), -1)) if seqs else False:
                found.append(("a gap in the numbers", seqs))
            for line in ROW.findall(s):
                m = LOG_TN.match(line)
                if m and mine not in (m["a"], m["t"]):
                    found.append(("TN of another's attack", line))
                if _foe_numbers(state, line, seat):
                    found.append(("a foe's numbers", line))
        for foe in FOES:
            at = s.find(f'data-id="{foe}"')
            if at >= 0:
                card = s[at : s.find('class="card"', at + 1) if 'class="card"' in s[at:] else None]
                if 'class="num"' in card or "Ki " in card:
                    found.append(("a foe's card numbers", card[:300]))
    return found


def _drive(rng: random.Random, t) -> dict | None:
    """One GM command that moves the random game on, or None (a random command then).

    Brackets are declared and revealed, attacks played out (foes, the unseen too, on the
    players; the players on the foes in sight), leaky commands sent now and then.
    """
    state = t.state
    p, up, phase, cs = state["pending"], state["up"], state["phase"], state["combatants"]
    if rng.random() < 0.15:
        cmd = _leaky_command(rng, t, set())
        if cmd["type"] in ("hide", "show"):
            cmd["combatant"] = rng.choice(FOES)  # the unseen stay unseen all game
        return cmd
    if rng.random() < 0.25:
        return None
    if phase == "declare":
        left = [c for c in state["ids"] if cs[c]["bracket"] is None and can_act(cs[c])]
        if left:
            return {"type": "declare", "combatant": rng.choice(left), "bracket": "normal"}
        return {"type": "reveal"}
    if phase != "resolve":
        return {"type": "start"} if phase not in ("chase", "over") else None
    if p is not None:  # play the attack under way out
        return {
            "to_hit": {"type": "roll"},
            "damage": {"type": "roll"},
            "boost": {"type": "boost", "dice": []},
            "prevent": {"type": "prevent", "ki": rng.choice([0, 1])},
        }.get(p["step"])
    if up is None or rng.random() < 0.3:
        return {"type": "end_turn"}
    if cs[up]["side"] == "Foes":
        return {"type": "attack", "attacker": up, "target": rng.choice(PLAYERS)}
    foes = [f for f in FOES if f in cs and not cs[f]["hidden"] and not cs[f]["out"]]
    if not foes:
        return {"type": "end_turn"}
    return {"type": "attack", "attacker": up, "target": rng.choice(foes)}


def _drawn_own_odds(page, got: list, timeout: float = 10.0) -> bool:
    """Wait until ``page`` (Ronan's) has received its own pending attack with its odds.

    Without the wait, a page under load may skip the few frames where the attack was pending
    (the next command settles it), and the self-test below would find nothing to find.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in (s for payload in got for s in _strings(payload)):
            if any("Ronan" in (m["a"], m["t"]) for m in ATTACK.finditer(s)) and 'class="odds"' in s:
                return True
        page.wait_for_timeout(100)  # the page's events (its frames) are delivered meanwhile
    return False


def test_the_phones_frames_hold_no_trace_of_the_unseen(served, browser):
    base, service, _ = served
    lurker = soak7(health=9)
    lurker.name = SECRET
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7(), _captain()])
    table = service.store.create("Frames", enc, seed=20)  # a seeded game
    code = table.view_for("gm")["join_code"]
    doc = document(lurker)
    table.apply({"type": "add", "document": doc, "side": "Foes", "hidden": True})
    table.apply({"type": "start"})
    table.apply({"type": "set", "combatant": "captain-oriel-vance", "field": "poise", "value": -1})
    for foe in FOES:  # in reach of each other: the attacks land
        for player in PLAYERS:
            table.apply({"type": "set_range", "a": foe, "b": player, "band": "melee"})

    frames: dict[str | None, list] = {}
    pages = {}
    for seat in (*PLAYERS, None):
        page = browser.new_context(viewport=PHONE).new_page()
        got = frames[seat] = []
        page.on("websocket", lambda ws, got=got: ws.on("framereceived", lambda f: got.append(f)))
        page.goto(f"{base}/table?code={code}&seat={seat or '__watch__'}")
        expect(page.locator(".tp-header .counter")).to_be_visible()
        pages[seat] = page

    # A seed whose game plays every kind asserted below (the order of ``COMMANDS`` picks the
    # commands: when it changes, the assertion says so and another seed is chosen).
    rng = random.Random(21)
    accepted, kinds, hidden_ids = 0, set(), set()
    own_odds_seen = False  # Ronan's page drew his own attack's odds once (the check's self-test)
    for _ in range(STEPS):
        cmd = _drive(rng, table)
        role, seat = "gm", None
        if cmd is None:
            cmd, role, seat = _random_command(rng, table)
            if cmd["type"] == "share":
                cmd["on"] = False  # the foes' numbers stay hidden all game
            if cmd["type"] in ("hide", "show"):  # pragma: no cover - not offered by it
                continue
            if cmd["type"] == "rotate_code":  # a new code sends a watcher back to the join box
                continue
        try:
            made = table.apply(cmd, role=role, seat=seat)
        except (ValueError, PermissionError):
            continue
        accepted += 1
        kinds.update(e["type"] for e in made)
        state = table.state  # one copy: each read deep-copies the table
        hidden_ids |= {c for c in state["ids"] if state["combatants"][c]["hidden"]}
        p = state["pending"]
        mine = p and p["step"] == "to_hit" and "ronan" in (p["attacker"], p["target"])
        if mine and not own_odds_seen:
            own_odds_seen = _drawn_own_odds(pages["ronan"], frames["ronan"])
        time.sleep(0.02)  # the pages draw as a table would be played, only faster

    # Each phone catches up: its counter shows the last event it may see, its log no gap.
    for seat, page in pages.items():
        view = table.view_for("player" if seat else "spectator", seat)
        counter = page.locator(".tp-header .counter")
        expect(counter).to_contain_text(f"event {view['events_seen']}", timeout=20_000)
        shown = [int(x) for x in page.locator(".tp-log .seq").all_inner_texts()]
        assert shown == list(range(view["events_seen"], view["events_seen"] - len(shown), -1))

    assert own_odds_seen  # the game played an attack of Ronan's, and his page drew its odds
    assert accepted > 90, accepted
    assert {"added", "undone", "hidden", "shown", "ki_spent", "attack_declared"} <= kinds, kinds
    unseen = hidden_ids - set(FOES)  # the foes were hidden at times, shown at others
    for cid in unseen:  # the lurker and the joiners were never shown (undo drops them)
        assert table.state["combatants"].get(cid, {"hidden": True})["hidden"], cid
    secrets = {SECRET.lower(), "zyxwv", DRAGON.lower()} | {c.lower() for c in unseen}
    total, read = 0, {}
    for seat, got in frames.items():
        total += len(got)
        strings = read[seat] = [s for payload in got for s in _strings(payload)]
        assert sum('class="log"' in s for s in strings) > 20  # the logs were read
        assert any(ATTACK.search(s) for s in strings)  # and attacks under way
        found = _problems(strings, seat, secrets, table.state)
        assert not found, (seat, found[:5])
    # The search finds what it looks for: Ronan's own odds and TNs, read as the Brick's.
    kinds_found = {f[0] for f in _problems(read["ronan"], "the-brick", set(), table.state)}
    assert {"odds of another's attack", "TN of another's attack"} <= kinds_found, kinds_found
    assert total > 300, total
    print(f"{accepted} commands, {total} frames")
