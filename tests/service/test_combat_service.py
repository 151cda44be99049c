"""The combat service, the session binding and the pages' HTML (issue 9), without a browser."""

from __future__ import annotations

import os
import re
import threading

import panel as pn
import pytest
from table_helpers import encounter, roster, run_to_turn, start_and_declare

from tb_playground.models import Creature
from tb_playground.models.creature import CreatureAttack
from tb_playground.service import CombatService, _server_address
from tb_playground.table.previews import attack_previews
from tb_playground.views.combat import combat_render as render
from tb_playground.views.combat.combat_session import TableSession, parse_faces
from tb_playground.views.kit import CardBoard

EVIL = '<img src=x onerror="alert(1)">'


@pytest.fixture
def service(tmp_path):
    return CombatService(tmp_path / "t.sqlite", gm_key="secret-key")


def evil_fight():
    foe = Creature(name=EVIL, health=6, attacks=[CreatureAttack(name=EVIL, element=5, dice=3)])
    return encounter(roster("ronan.json"), foes=[foe])


def test_gm_key(service, tmp_path, monkeypatch):
    assert service.gm_key_ok("secret-key")
    for wrong in ("secret-ke", "", None, 7, "secret-key "):
        assert not service.gm_key_ok(wrong)
    assert service.gm_link("h:1") == "http://h:1/gm?key=secret-key"
    monkeypatch.delenv("TB_GM_KEY", raising=False)
    made = CombatService(tmp_path / "u.sqlite")
    assert len(made._gm_key) >= 20 and made._gm_key != CombatService(tmp_path / "v.sqlite")._gm_key
    monkeypatch.setenv("TB_GM_KEY", "from-env-16-chars")
    assert CombatService(tmp_path / "w.sqlite").gm_key_ok("from-env-16-chars")
    monkeypatch.setenv("TB_GM_KEY", "from-env")  # too short: refused at start (issue 21)
    with pytest.raises(ValueError, match="TB_GM_KEY is 8 characters long: use at least 16"):
        CombatService(tmp_path / "w.sqlite")


def test_server_address_from_the_command_line():
    assert _server_address(["panel", "serve", "a.py"]) == "localhost:5006"
    argv = ["panel", "serve", "a.py", "--port", "7000", "--address=10.0.0.2"]
    assert _server_address(argv) == "10.0.0.2:7000"
    assert _server_address(["x", "--port=8", "--address", "0.0.0.0"]) == "localhost:8"


def test_find_by_code(service):
    a = service.create("A", evil_fight())
    b = service.create("B", evil_fight())
    code_b = b.view_for("gm")["join_code"]
    assert service.find_by_code(code_b) is b
    assert service.find_by_code(code_b, "B") is b
    assert service.find_by_code("", "B") is None and service.find_by_code(None) is None
    b.apply({"type": "rotate_code"})
    found = service.find_by_code(code_b)
    assert found is None or (found is a and a.code_matches(code_b))


def test_session_refreshes_once_per_burst_and_stops_after_close(service):
    table = service.create("S", evil_fight())
    calls = []
    scheduled = []

    class Doc:  # a stand-in for a Bokeh document: collects next-tick callbacks
        session_context = None

        def add_next_tick_callback(self, cb):
            scheduled.append(cb)

    s = TableSession(table, "player", "ronan", lambda: calls.append(1), doc=Doc())
    table.apply({"type": "note", "text": "one"})
    table.apply({"type": "note", "text": "two"})
    assert len(scheduled) == 1 and calls == []  # nothing drawn on the applying thread
    scheduled.pop()()
    assert calls == [1]
    problem = s.send({"type": "declare", "combatant": EVIL, "bracket": "fast"})
    assert "declare" in problem or "combatant" in problem
    assert s.send({"type": "hide", "combatant": "ronan"}).startswith("Not allowed")
    s.close()
    assert table.subscriber_count == 0
    table.apply({"type": "note", "text": "three"})
    assert scheduled == [] and s.send({"type": "note", "text": "x"}) != ""


def test_the_page_that_acted_refreshes_after_the_others(service):
    """Each tick runs the callbacks queued before it (as Bokeh's event loop does): the GM's
    own page, first to subscribe, refreshes after both players' pages."""
    table = service.create("Order", two_characters())
    ticks: list[list] = [[]]
    drawn = []

    class Doc:
        session_context = None

        def add_next_tick_callback(self, cb):
            ticks[-1].append(cb)

    gm = TableSession(table, "gm", None, lambda: drawn.append("gm"), doc=Doc())
    for seat in ("ronan", "the-brick"):
        TableSession(table, "player", seat, lambda seat=seat: drawn.append(seat), doc=Doc())
    assert gm.send({"type": "share", "on": True}) == ""
    while ticks[-1]:
        now = ticks[-1]
        ticks.append([])
        for cb in now:
            cb()
    assert drawn == ["ronan", "the-brick", "gm"]
    table.apply({"type": "note", "text": "from elsewhere"})  # no page acted: subscription order
    drawn.clear()
    for cb in ticks[-1]:
        cb()
    assert drawn == ["gm", "ronan", "the-brick"]


def test_commands_from_many_threads_reach_every_session(service):
    table = service.create("T", evil_fight())
    seen = []
    sessions = [TableSession(table, "gm", None, lambda: seen.append(1), doc=None) for _ in range(8)]
    threads = [
        threading.Thread(target=lambda: table.apply({"type": "note", "text": "n"}))
        for _ in range(10)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 80
    for s in sessions:
        s.close()


def test_previews_are_cached_on_what_they_read(service):
    table = service.create("P", evil_fight())
    foes = [c["id"] for c in table.view_for("player", "ronan")["combatants"] if c["foe"]]
    first = service.previews(table, "ronan", foes)
    table.apply({"type": "note", "text": "x"})  # changes nothing the odds read
    table.apply({"type": "share", "on": True})
    assert service.previews(table, "ronan", foes) is first
    table.apply({"type": "set_condition", "combatant": foes[0], "condition": "Prone"})
    second = service.previews(table, "ronan", foes)
    assert second is not first
    assert second[0]["targets"][0]["p_hit"] > first[0]["targets"][0]["p_hit"]  # Advantage
    assert second == attack_previews(table.state, "ronan", foes)


def test_drawings_of_tables_no_page_shows_are_dropped(service):
    """What was drawn for a table goes when its last page closes; a watched table keeps it."""
    table = service.create("C", two_characters())
    other = service.create("D", two_characters())
    foes = [c["id"] for c in table.view_for("player", "ronan")["combatants"] if c["foe"]]
    watching = TableSession(table, "player", "ronan", lambda: None, doc=None)
    left = TableSession(other, "player", "ronan", lambda: None, doc=None)
    service.sessions.update({watching, left})
    for seat in ("ronan", "the-brick"):
        service.drawn(table, "player", seat, lambda view: {"view": view})
    service.drawn(other, "gm", None, lambda view: {"view": view})
    kept = service.previews(table, "ronan", foes)
    service.previews(other, "ronan", foes)
    assert service.cache.part("D", other.version, "log lines")  # the other table's log lines
    left.close()
    service.forget_unwatched()
    assert service.cache.tables() == {"C": table.version}
    assert service.drawing(table, table.version, "page", ("player", "ronan"))["view"]
    assert service.previews(table, "ronan", foes, compute=False) is kept
    assert service.cache.part("C", table.version, "log lines")
    assert service.previews(other, "ronan", foes, compute=False) is None
    drawn = service.drawn(other, "gm", None, lambda view: {"view": view})  # drawn again
    assert drawn["view"] == other.view_for("gm")
    watching.close()
    service.forget_unwatched()
    assert service.cache.tables() == {}


def test_a_table_keeps_the_drawings_of_its_newest_version_only(service):
    """One rule: a newer version drops the older one's drawings; what is keyed on what it
    reads (log lines, attack previews) passes to the newer version when asked for there."""
    table = service.create("V", two_characters())
    foes = [c["id"] for c in table.view_for("player", "ronan")["combatants"] if c["foe"]]
    v = table.version
    page = service.drawn(table, "player", "ronan", lambda view: {"view": view})
    assert service.drawn(table, "player", "ronan", lambda view: {"view": view}) is page
    previews = service.previews(table, "ronan", foes)
    table.apply({"type": "note", "text": "x"})
    again = service.drawn(table, "player", "ronan", lambda view: {"view": view})
    assert again is not page and again["view"]["version"] == v + 1
    assert service.drawing(table, v, "page", ("player", "ronan")) is None  # v's: gone
    assert service.cache.tables() == {"V": v + 1}
    lines, more = page["view"]["log"], again["view"]["log"]
    assert len(more) == len(lines) + 1  # the note's line added, the others not made again:
    assert all(a is b for a, b in zip(lines, more[:-1], strict=True))
    assert more == table.view_for("player", "ronan")["log"]
    assert service.previews(table, "ronan", foes, compute=False) is previews
    assert service.cache.part("V", v, "previews") == {}  # an older version: a fresh dict


def test_card_board_sends_only_the_cards_that_changed():
    """Each card is its own pane: a change sets the text of the changed cards alone."""
    from bokeh.document import Document

    board = CardBoard("x-board")
    board.show(["<p>a</p>", "<p>b</p>", "<p>c</p>"])
    root = board.__panel__().get_root(Document())

    def children():
        return list(root.children)

    models = children()
    assert [m.text for m in models] == [
        "&lt;p&gt;a&lt;/p&gt;",
        "&lt;p&gt;b&lt;/p&gt;",
        "&lt;p&gt;c&lt;/p&gt;",
    ]
    changed = []
    for i, m in enumerate(models):
        m.on_change("text", lambda _attr, _old, _new, i=i: changed.append(i))
    board.show(["<p>a</p>", "<p>B</p>", "<p>c</p>", "<p>d</p>"])
    assert changed == [1] and len(children()) == 4 and children()[:3] == models
    board.show(["<p>a</p>"])
    assert changed == [1] and children() == models[:1]


def test_parse_faces():
    assert parse_faces(" 3 7 ") == [3, 7] and parse_faces("1,10,4") == [1, 10, 4]
    assert parse_faces("   ") is None
    with pytest.raises(ValueError, match="dice"):
        parse_faces("3 x")


def test_every_text_is_escaped(service):
    table = service.create("E", evil_fight())
    table.apply({"type": "note", "text": EVIL})
    foe = table.view_for("gm")["combatants"][1]["id"]
    table.apply({"type": "set_condition", "combatant": foe, "condition": "Flustered"})
    start_and_declare(table, {}, {"ronan": 1, foe: 10})
    table.apply({"type": "attack", "attacker": foe, "target": "ronan"})
    for role, seat in (("gm", None), ("player", "ronan"), ("spectator", None)):
        v = table.view_for(role, seat)
        cards = "".join(render.card(c, v["phase"]) for c in v["combatants"])
        html = cards + render.log(v) + render.pending(v) + render.order_line(v)
        html += render.declaration_status(v) + render.counter(v)
        assert "<img" not in html and "&lt;img src=x" in html
    previews = service.previews(table, "ronan", [foe])
    assert "<img" not in render.attack_table(previews, render.names(table.view_for("gm")))


def test_tracks_shade_the_levels_below_zero():
    html = render.track("Health", -2, 5)
    assert html.count('class="box full"') == 0 and html.count('class="box lost"') == 5
    assert html.count('class="box neg"') == 2 and "-2/5" in html
    assert render.track("Poise", 3, 4).count('class="box full"') == 3
    pips = render.ki_pips({"now": 2, "pool": 5})
    assert pips.count('class="pip on"') == 2 and pips.count('class="pip"') == 3


def test_pending_odds_drawn_for_a_player_without_the_foes_wall(service):
    table = service.create("W", encounter(roster("ronan.json"), foes=[roster("guard_dog.yaml")]))
    table.apply({"type": "foe_odds", "show": "exact"})  # the GM lets attackers see the odds
    start_and_declare(table, {}, {"ronan": 10, "guard-dog": 1})
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    table.apply({"type": "roll", "faces": [3, 4]})
    table.apply({"type": "roll", "faces": [1, 2, 3, 3, 3, 3, 9]})
    html = render.pending(table.view_for("player", "ronan"))
    assert "the target's wall" in html and html.count("a boost lifts it over") == 6
    gm = render.pending(table.view_for("gm"))
    assert "the wall of 3" in gm
    assert re.search(r'class="die over"[^>]*>9<', gm)


def test_unique_labels():
    # The table numbers same-named combatants at creation: the selects show those names.
    cs = [
        {"id": "dog", "name": "Dog 1"},
        {"id": "dog-2", "name": "Dog 2"},
        {"id": "c", "name": "Cat"},
    ]
    assert render.unique_labels(cs) == {"Dog 1": "dog", "Dog 2": "dog-2", "Cat": "c"}
    # A table made before that: the number comes from the id and stays put.
    old = [{"id": "dog", "name": "Dog"}, {"id": "dog-2", "name": "Dog"}]
    assert render.unique_labels(old) == {"Dog 1": "dog", "Dog 2": "dog-2"}
    declared = render.unique_labels(old, lambda c: " (declared)" if c["id"] == "dog" else "")
    assert declared == {"Dog 1 (declared)": "dog", "Dog 2": "dog-2"}


def test_closed_sessions_unsubscribe(service):
    """Bokeh client sessions join, close, and the server's sessions let go of the table."""
    import sys
    import time
    from pathlib import Path

    import panel as pn
    from serving import free_port, wait_for_http

    from tb_playground.service import set_service
    from tb_playground.views.combat.table_page import table_page

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_combat import Client

    table = service.create("Sessions", evil_fight())
    code = table.view_for("gm")["join_code"]
    set_service(service)
    port = free_port()
    server = pn.serve(
        {"table": table_page}, port=port, address="127.0.0.1", threaded=True, show=False,
        websocket_origin=[f"127.0.0.1:{port}"], check_unused_sessions_milliseconds=300,
        unused_session_lifetime_milliseconds=300,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/table"
        wait_for_http(url)
        # One live page per seat (issue 20): a player and two spectators.
        clients = [
            Client(url, {"code": code, "seat": seat}, "tp-header")
            for seat in ("ronan", "__watch__", "__watch__")
        ]
        for c in clients:
            c.start()
            assert c.ready.wait(60) and c.error is None
        # three pages and the table's one Momentum (lab/momentum.py: the chance to win)
        assert table.subscriber_count == 4 and len(service.sessions) == 3
        table.apply({"type": "note", "text": "hello"})
        deadline = time.monotonic() + 30
        while any(not c.seen for c in clients) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all("event 2" in c.seen[-1][1] for c in clients)
        for c in clients:
            c.close()
            c.join(30)
        deadline = time.monotonic() + 30
        while table.subscriber_count and time.monotonic() < deadline:
            time.sleep(0.1)
        assert table.subscriber_count == 0
    finally:
        server.stop()
        set_service(None)


def two_characters():
    party = roster("ronan.json"), roster("the_brick.json")
    return encounter(*party, foes=[roster("guard_dog.yaml")])


def test_spends_and_overrides_through_the_pages_sessions(service, tmp_path):
    """A player spends only for their own seat; an override out of range names the field and
    its range and writes nothing (the reopened file holds the same events)."""
    table = service.create("Spend", two_characters())
    ronan = TableSession(table, "player", "ronan", lambda: None, doc=None)
    gm = TableSession(table, "gm", None, lambda: None, doc=None)
    assert gm.send({"type": "set", "combatant": "the-brick", "field": "poise", "value": 0}) == ""
    before = table.version
    # Ronan's page forging a spend for the Brick: refused by the table, nothing written.
    for forged in (
        {"type": "spend_ki", "combatant": "the-brick", "purpose": "restore poise"},
        {"type": "spend_fate", "combatant": "the-brick", "spend": "refill ki"},
        {"type": "distracted", "combatant": "the-brick"},
        {"type": "set", "combatant": "ronan", "field": "health", "value": 1},
    ):
        assert ronan.send(forged).startswith("Not allowed"), forged
    assert table.version == before
    brick = next(c for c in table.view_for("gm")["combatants"] if c["id"] == "the-brick")
    top = brick["vitals"]["health"]["max"]
    problem = gm.send({"type": "set", "combatant": "the-brick", "field": "health", "value": 99})
    assert f"Health of The Brick must be a whole number from {-top} to {top}." in problem
    assert "Fate Tokens" in gm.send(
        {"type": "set", "combatant": "ronan", "field": "fate", "value": -1}
    )
    assert table.version == before
    store_events = [e["type"] for e in table.events]
    reopened = CombatService(service.store.path, gm_key="k").open("Spend")
    assert [e["type"] for e in reopened.events] == store_events
    # The Brick's own player restores Poise with Ki; the log says it in words.
    brick_page = TableSession(table, "player", "the-brick", lambda: None, doc=None)
    assert (
        brick_page.send({"type": "spend_ki", "combatant": "the-brick", "purpose": "restore poise"})
        == ""
    )
    assert (
        "spends Ki to restore poise: Poise 0 -> 1"
        in table.view_for("player", "ronan")["log"][-1]["text"]
    )
    for s in (ronan, gm, brick_page):
        s.close()


def test_a_player_rolls_distracted_once_when_asked(service):
    table = service.create("Distracted", two_characters())
    ronan = TableSession(table, "player", "ronan", lambda: None, doc=None)
    gm = TableSession(table, "gm", None, lambda: None, doc=None)
    roll = {"type": "distracted", "combatant": "ronan", "faces": [3, 4]}
    refused = "Not allowed: a player rolls Distracted only when the GM asks for it."
    assert ronan.send(roll) == refused
    ask = {"type": "set_condition", "combatant": "ronan", "condition": "Distracted",
           "until": "round", "difficulty": 2}  # fmt: skip
    assert gm.send(ask) == ""
    me = next(c for c in table.view_for("player", "ronan")["combatants"] if c["you"])
    assert me["conditions"] == [{"name": "Distracted", "until": "round", "to_roll": True}]
    assert ronan.send({**roll, "difficulty": 10}) == ""  # the GM's Difficulty, not the page's
    event = table.events[-1]
    atropos = table.state["combatants"]["ronan"]["atropos"]
    assert event["type"] == "distracted_rolled" and event["data"]["tn"] == atropos + 2
    me = next(c for c in table.view_for("player", "ronan")["combatants"] if c["you"])
    assert me["conditions"][0]["to_roll"] is False
    assert ronan.send(roll).startswith("Not allowed")  # once
    assert gm.send({**roll, "difficulty": 7}) == ""  # the GM may call it again
    for s in (ronan, gm):
        s.close()


def test_pages_offer_the_new_controls_in_words(service):
    """The pages outside a server: spends, overrides, Distracted, range bands, moves."""
    from tb_playground.views.combat.gm_page import GMPage
    from tb_playground.views.combat.table_page import TablePage

    table = service.create("Pages", two_characters())
    gm = GMPage(service, key="secret-key")
    gm.open_table("Pages")
    gm.tools.tool_who.value = "the-brick"
    gm.tools.set_field.value = "health"
    gm.tools.set_value.value = 99
    gm.tools._set_value()
    assert "Health of The Brick must be a whole number from" in gm.message.object
    gm.tools.set_value.value = 3
    gm.tools._set_value()
    assert gm.message.object == "" and "Brick&#x27;s Health to 3" in gm.board.log.object
    tools = gm.tools
    tools.range_a.value, tools.range_b.value, tools.range_band.value = "ronan", "guard-dog", "near"
    gm.tools._set_range()
    assert "Guard dog – Ronan: Near" in gm.tools.ranges.object
    gm.tools.tool_who.value = "ronan"
    gm.tools.distracted_difficulty.value = 4
    gm.tools._ask_distracted()
    page = TablePage(service)
    page.code_input.value = table.view_for("gm")["join_code"]
    page.find()
    page.join("ronan")
    steps = page.steps
    assert steps.distracted_row.visible and "Distracted roll" in steps.distracted_ask.object
    steps.distracted_faces.value = "2 3"
    steps._distracted(typed=True)
    assert page.message.object == "" and not steps.distracted_row.visible
    assert page.spend.row.visible and "Refill Ki" in page.spend.fate_kind.options
    assert not page.rows.built("turn")  # not Ronan's turn: the row was never needed
    page.rows.show("turn", True)
    page.turn.refresh()  # not Ronan's turn: the action panel's menu says to wait (issue 20)
    assert not page.turn.menu["open"] and page.turn.menu["why"] == "Wait for your turn."
    page.spend.fate_kind.value = "refill ki"
    page.spend.fate_button.clicks += 1
    assert page.message.object == '<p class="err">Ki is already full.</p>'  # plain words
    gm.tools.set_field.value = "ki"
    gm.tools.set_value.value = 0
    gm.tools._set_value()
    page.spend.fate_button.clicks += 1
    assert page.message.object == ""
    assert "Ronan spends a Fate Token: Refill Ki" in page.log.object
    gm.close()
    page.close()


def test_rows_are_built_when_first_shown_and_in_their_place(service):
    """A spectator's page never builds a control row; a player's builds each at its moment,
    in its place on the page, and hides it again after."""
    from tb_playground.views.combat.table_page import WATCH, TablePage

    table = service.create("Rows", two_characters())
    code = table.view_for("gm")["join_code"]
    lazy = ("declare", "turn", "spend")
    steps = ("roll", "boost", "prevent", "distracted")  # views/combat/steps.py, on both pages
    pages = {}
    for seat in (WATCH, "ronan"):
        page = pages[seat] = TablePage(service)
        page.code_input.value = code
        page.find()
        assert page.join(seat)
    watcher, ronan = pages[WATCH], pages["ronan"]
    assert [n for n in lazy if watcher.rows.built(n)] == []
    assert [n for n in steps if watcher.steps.rows.built(n)] == []
    assert [n for n in lazy if ronan.rows.built(n)] == ["spend"]  # Ronan has Ki

    table.apply({"type": "start", "initiative": {"ronan": 10, "the-brick": 5, "guard-dog": 1}})
    objects = ronan.table_view.objects
    assert objects.index(ronan.steps.result) == objects.index(ronan.message) + 1
    assert objects.index(ronan.declare_row) == objects.index(ronan.steps.result) + 1
    assert ronan.declare_row.visible and "Declare" in ronan.banner.object
    for cid in table.state["ids"]:
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal", "bumps": 0})
    run_to_turn(table, "ronan")
    assert not ronan.declare_row.visible and ronan.turn.row.visible
    objects = ronan.table_view.objects
    assert objects.index(ronan.turn.row) == objects.index(ronan.declare_row) + 1
    assert objects.index(ronan.steps.whose) == objects.index(ronan.turn.row) + 1
    assert objects.index(ronan.pending) == objects.index(ronan.steps.whose) + 1
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog", "attack": 1})
    assert ronan.steps.rows.built("roll") and not ronan.turn.row.visible
    assert ronan.steps.roll_button.label == "Roll to hit (table dice)"
    assert objects.index(ronan.pending) + 1 == objects.index(ronan.steps.controls)
    assert "Your move: roll to hit." in ronan.steps.whose.object
    assert "Waiting for Ronan to roll to hit." in watcher.steps.whose.object
    assert [n for n in lazy if watcher.rows.built(n)] == []
    assert [n for n in steps if watcher.steps.rows.built(n)] == []
    for page in pages.values():
        page.close()


def test_the_share_toggle_reaches_the_server_without_panels_wait(service):
    """Panel handles a browser-side value change 50 ms late (its ``_debounce``); the GM's
    "Share foes' numbers" is one press that every page waits for, so it is handled at once.
    Also guards the private Panel attribute: if Panel stops reading it, this fails."""
    from panel.io.state import state

    from tb_playground.views.kit import ActionToggle

    delays = []

    class Doc:  # the document methods Panel's server-change path calls
        session_context = object()

        def add_timeout_callback(self, callback, timeout):
            delays.append(timeout)

    for widget, wait in ((pn.widgets.Toggle(), 50), (ActionToggle(), 0)):
        doc = Doc()
        delays.clear()
        widget._server_change(doc, "ref", None, "active", False, True)
        state._change_callbacks.pop(doc, None)
        assert delays == [wait]
    from tb_playground.views.combat.gm_page import GMPage

    service.create("Share", two_characters())
    gm = GMPage(service, key="secret-key")
    gm.open_table("Share")
    assert isinstance(gm.controls.share_toggle, ActionToggle)


@pytest.mark.server
def test_serve_setup_imports_the_pages_and_freezes_only_the_libraries(tmp_path):
    """``--setup tb_playground/serve_setup.py``: every page module imported, the GM link
    printed, the libraries' objects frozen; a page made afterwards is collected as usual."""
    import subprocess
    import sys

    script = """
import gc, sys, weakref
from tb_playground.serve_setup import warm
frozen = warm()
from tb_playground.views.combat.table_page import TablePage
page = TablePage()
gone = weakref.ref(page)
del page
gc.collect()
print(frozen, "tb_playground.views.combat.gm_page" in sys.modules, gone() is None)
"""
    env = {**os.environ, "TB_TABLE_DB": str(tmp_path / "t.sqlite"), "TB_GM_KEY": "k" * 16}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    link, frozen = out.stdout.splitlines()[0], out.stdout.split()[-3:]
    assert link.startswith("tb_playground: GM page at http://localhost:5006/gm?key=")
    assert int(frozen[0]) > 100_000 and frozen[1:] == ["True", "True"]


@pytest.mark.own_thread
def test_one_packet_corks_each_socket_of_the_page_while_it_writes():
    """A page's update leaves in one packet: its websocket is corked inside the block (Linux)
    and uncorked after. Guards the private Bokeh and tornado attributes it reaches for."""
    import socket

    from bokeh.client import pull_session
    from serving import free_port, wait_for_http

    from tb_playground.views.combat.combat_session import one_packet

    docs = []

    def app():
        docs.append(pn.state.curdoc)
        return pn.pane.HTML("x")

    port = free_port()
    server = pn.serve(
        {"app": app}, port=port, address="127.0.0.1", threaded=True, show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )  # fmt: skip
    try:
        wait_for_http(f"http://127.0.0.1:{port}/app")
        client = pull_session(url=f"http://127.0.0.1:{port}/app")
        doc = docs[-1]
        conns = list(doc.session_context._session._subscribed_connections)
        socks = [c._socket.ws_connection.stream.socket for c in conns]
        corked = lambda: [s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CORK) for s in socks]  # noqa: E731
        assert len(socks) == 1 and corked() == [0]
        with one_packet(doc):
            inside = corked()
        assert inside == [1] and corked() == [0]
        client.close()
    finally:
        server.stop()


def test_cards_the_seats_share_are_drawn_once_per_version(service, monkeypatch):
    from functools import partial

    from tb_playground.views.combat.table_page import draw_table

    table = service.create("Memo", two_characters())
    drawn = []
    card = render.card
    monkeypatch.setattr(render, "card", lambda c, phase: drawn.append(c["id"]) or card(c, phase))
    v = table.version
    cards = partial(service.drawing, table, v, "card")
    ronan = draw_table(table.view_for("player", "ronan"), "ronan", cards)
    brick = draw_table(table.view_for("player", "the-brick"), "the-brick", cards)
    assert drawn.count("guard-dog") == 1  # the Brick's page reused Ronan's
    assert ronan["cards"][-1] == brick["cards"][-1] and "Guard dog" in ronan["cards"][-1]
    key = ("guard-dog", table.view_for("gm")["phase"])
    assert service.drawing(table, v - 1, "card", key) is None  # an older version's: not kept
    assert service.drawing(table, v, "card", key) == ronan["cards"][-1]
    service.forget_unwatched()  # no page shows the table: dropped
    assert service.drawing(table, v, "card", key) is None


def test_a_pane_outside_a_refresh_is_set_the_panel_way():
    """``LiveHTML.show`` takes its short way only inside a held, served document; elsewhere
    (here a document with no session: a notebook or a script) Panel's own update runs."""
    from bokeh.document import Document

    from tb_playground.views.kit import html_pane

    pane = html_pane("x")
    seen = []
    pane.param.watch(lambda e: seen.append(e.new), "object")
    model = pane.get_root(Document())
    pane.show("<b>one</b>")
    assert seen == ["<b>one</b>"] and "one" in model.text
    pane.show("<b>one</b>")  # unchanged: nothing
    assert seen == ["<b>one</b>"]
