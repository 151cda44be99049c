"""The replay and the night's numbers on the combat pages, without a browser (issue 23, 3-4).

The replay's state machine (``ReplayCursor``: bounds that follow new events, back to live,
stepping by round exactly as ``table.replay.step_to``), the numbers' text from the hand-counted
fight of tests/table/test_table_night.py, and both pages built outside a server: a replayed board is
the page's own drawing of ``view_for(..., at=n)``, the live controls are gone while replaying,
a player's page offers the story only once the fight is over.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_helpers import FIRST_RONAN, fight
from test_table_add import document
from test_table_night import _hand_fight, clock  # noqa: F401 - the fixture
from test_table_replay import _play

from tb_playground.service import CombatService
from tb_playground.table.replay import step_to
from tb_playground.table.table_log import readable_seqs
from tb_playground.views.combat import fight_story
from tb_playground.views.combat.gm_board import draw_gm
from tb_playground.views.combat.gm_page import GMPage
from tb_playground.views.combat.night_panel import file_stem, luck_words, night_html
from tb_playground.views.combat.replay_panel import ReplayCursor, banner_html, query_event
from tb_playground.views.combat.table_page import TablePage, draw_table

# -- the replay's state machine --------------------------------------------------------------


def test_the_bounds_follow_new_events_and_a_replay_stays_put():
    c = ReplayCursor()
    c.follow(10)
    assert (c.count, c.at, c.replaying) == (10, None, False)
    c.follow(12)  # live stays live
    assert c.at is None
    assert c.go(5) == 5 and c.replaying
    c.follow(20)  # a new event: the replay stays at its event, the end moves
    assert (c.count, c.at) == (20, 5)
    assert c.go(0) == 1 and c.go(-4) == 1 and c.go(99) == 20
    c.follow(7)  # a log cut back (a damaged file read again)
    assert c.at == 7
    c.back_to_live()
    assert c.at is None and not c.replaying


def test_stepping_from_live_and_at_the_ends():
    c = ReplayCursor(count=30)
    starts = [(1, 2), (2, 11), (3, 25)]
    assert c.step("event", -1) == 29  # from live: back from the last event
    c.back_to_live()
    assert c.step("round", -1, starts) == 25
    assert c.step("round", -1, starts) == 11
    assert c.round_of(starts) == 2
    assert c.step("round", -1, starts) == 2
    assert c.step("round", -1, starts) == 1  # before the first round: the first event
    assert c.round_of(starts) == 0
    assert c.step("event", -1) == 1  # clamped
    assert c.step("round", 1, starts) == 2
    c.go(26)
    assert c.step("round", 1, starts) == 30  # no later round: the last event
    assert c.step("event", 1) == 30
    with pytest.raises(ValueError, match="by must be"):
        c.step("turn", 1)
    with pytest.raises(ValueError, match="direction must be"):
        c.step("event", 2)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    table, _ = _play(tmp_path_factory.mktemp("story"), seed=5)
    return table


def test_stepping_by_round_equals_the_tables_round_starts(game):
    events, starts = game.events, game.round_starts()
    assert len(starts) >= 3
    c = ReplayCursor()
    c.follow(len(events))
    visited = []
    while c.at != 1:  # back through every round from live
        visited.append(c.step("round", -1, starts))
    # From live (the last event) a round back is the start before it: a round that starts at
    # the last event (its first event is the last so far) is where live already is.
    earlier = [at for _, at in starts if 1 < at < len(events)]
    assert earlier[::-1] == visited[: len(visited) - 1]
    for n in random.Random(0).sample(range(1, len(events) + 1), 60):
        for by in ("event", "round"):
            for d in (1, -1):
                c.go(n)
                assert c.step(by, d, starts) == step_to(events, n, by, d), (n, by, d)


@given(st.lists(st.tuples(st.sampled_from(["follow", "go", "step", "live"]), st.integers(-5, 60))))
def test_the_cursor_never_leaves_its_bounds(moves):
    c = ReplayCursor()
    starts = [(1, 3), (2, 9), (3, 20)]
    for kind, n in moves:
        if kind == "follow":
            c.follow(max(n, 1))
        elif kind == "go":
            c.go(n)
        elif kind == "step":
            c.step("round" if n % 2 else "event", 1 if n > 20 else -1, starts)
        else:
            c.back_to_live()
        assert c.at is None or 1 <= c.at <= c.count


def test_a_links_event_and_the_banner():
    assert query_event("12") == 12 and query_event(" 3 ") == 3
    assert query_event(None) is query_event("") is query_event("0") is None
    assert query_event("-2") is query_event("1e3") is query_event("x") is None
    html = banner_html(12, 40, 3)
    assert "Replaying event 12 of 40 (round 3" in html and "go back to live" in html


# -- the night's numbers as text -------------------------------------------------------------


def test_the_numbers_of_the_hand_counted_fight_in_words(tmp_path, clock):  # noqa: F811
    t = _hand_fight(tmp_path, clock)
    html = night_html(t.night())
    assert html.startswith("<h3>The night's numbers</h3>")
    assert '<div class="night-card" data-id="ronan">' in html
    assert "<dt>Dealt</dt><dd>2 Health</dd>" in html
    assert "<dt>Took</dt><dd>none</dd>" in html  # the jacket took it
    assert "<dt>Hits</dt><dd>2 (criticals 1)</dd>" in html
    assert "<dt>Misses</dt><dd>1 (catastrophes 1)</dd>" in html  # the opponent's
    assert "<dt>Ki spent</dt><dd>1</dd>" in html
    assert "3 turn(s), 2 min 0 s in all, longest 50 s" in html  # Ronan: 120 s
    # Ronan's average luck 2.81 / 5 = 56.2%; the luckiest roll 99.5% rounds to 100
    assert "luck 56%: better than 56 of 100 rolls (5 roll(s))" in html
    assert "Party: luck 56%: better than 56 of 100 rolls on average (5 roll(s))" in html
    assert "<b>Ronan</b>, round 1, to-hit roll against Opponent: 1, 1 (kept 2), luck 100%" in html
    assert "<b>Opponent</b>, round 1, to-hit roll against Ronan: 10, 10 (kept 20), luck 0%" in html
    assert "<b>Luckiest rolls</b>" in html and "<b>Unluckiest rolls</b>" in html
    mine = night_html(t.night("player", "ronan"))
    assert "<dt>Dealt</dt><dd>not shared</dd>" in mine  # the opponent's, for a player
    assert "<dt>Ki spent</dt><dd>not shared</dd>" in mine


def test_names_are_escaped_and_words_are_plain():
    numbers = {
        "since": "fight", "events": 3, "rounds": 1, "luckiest": [], "unluckiest": [],
        "sides": {"<i>Foes</i>": {"rolls": 0, "average_luck": None}},
        "combatants": [{
            "id": "x", "name": "<script>alert(1)</script>", "side": "<i>Foes</i>",
            "dealt": None, "took": None, "spent": None, "hits": 0, "misses": 0,
            "criticals": 0, "catastrophes": 0, "rounds_acted": 0, "turns": 0,
            "turn_seconds": 0.0, "longest_turn_seconds": None, "rolls": 0, "average_luck": None,
        }],
    }  # fmt: skip
    html = night_html(numbers)
    assert "<script>" not in html and "<i>" not in html and "&lt;script&gt;" in html
    assert html.startswith("<h3>This fight's numbers</h3>")
    assert "no rolls counted" in html and "none timed" in html
    assert "Luckiest" not in html and "luckiest first" not in html  # no rolls: no list
    roll = {"seq": 4, "round": 1, "kind": "damage", "who": "x", "name": "A & B", "side": "Foes",
            "target": "<b>", "faces": [9], "result": 1, "luck": 0.65}  # fmt: skip
    few = night_html({**numbers, "rolls": [roll], "luckiest": [roll], "unluckiest": [roll]})
    assert few.count("A &amp; B</b>, round 1") == 1 and "The rolls, luckiest first" in few
    assert "damage roll against &lt;b&gt;: 9 (1 level(s)), luck 65%" in few
    assert luck_words(0.921) == "luck 92%: better than 92 of 100 rolls"
    assert luck_words(None) == "no rolls counted"
    assert file_stem("Friday <night>!", "fight") == "friday-night-fight"
    assert file_stem("!!!", "night") == "table-night"


# -- the pages, without a server ---------------------------------------------------------------


@pytest.fixture
def world(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    table = service.create("Story", fight())
    table.apply({"type": "hide", "combatant": "nightmare"})
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid, b in [("ronan", "fast"), ("the-brick", "normal"), ("guard-dog", "slow")]:
        table.apply({"type": "declare", "combatant": cid, "bracket": b})
    table.apply({"type": "declare", "combatant": "nightmare", "bracket": "normal"})
    table.apply({"type": "attack", "attacker": "ronan", "target": "guard-dog"})
    table.apply({"type": "roll", "faces": [3, 4]})
    table.apply({"type": "roll", "faces": [9]})  # the dog: Health 6 -> 5
    yield service, table, table.view_for("gm")["join_code"]
    service.store.close()


def end_the_fight(table) -> None:
    for cid in ("nightmare", "guard-dog"):
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": 0})
    assert table.state["phase"] == "over"


def test_the_gm_replays_through_the_live_drawing_and_cannot_act(world):
    service, table, _ = world
    gm = GMPage(service, key="k" * 16)
    gm.open_table("Story")
    story = gm.story
    assert gm._layout.objects == [gm.table_view] and not story.night.is_open
    assert story.at is None and story.replay.count == table.version
    story.replay.opener.clicks += 1
    assert story.at == table.version
    assert gm._layout.objects == [story.replay.view, gm.chance._layout]
    before = next(c for c in table.view_for("gm")["combatants"] if c["id"] == "guard-dog")
    assert before["vitals"]["health"]["now"] == 5
    story.replay.steps["back"].clicks += 1
    n = table.version - 2  # before the damage roll: the dog at full Health
    story.replay.steps["back"].clicks += 1
    assert story.at == n
    want = draw_gm(table.view_for("gm", at=n))
    board = [p.object for p in story.replay.panes["cards"]._panes]
    assert board == want["cards"] and 'data-id="guard-dog"' in board[2]
    assert "6/6" in board[2]
    assert story.replay.panes["header"].object == want["header"]
    assert "Replaying event" in story.replay.banner.object
    # the table goes on meanwhile: the end follows, the replay stays
    table.apply({"type": "note", "text": "meanwhile"})
    assert story.replay.count == table.version and story.at == n
    assert f"of {table.version}" in story.replay.banner.object
    assert story.replay.slider.end == table.version
    story.replay.slider.value = 3
    assert story.at == 3
    story.replay.steps["round-next"].clicks += 1
    assert story.at == table.version  # one round only: the last event
    story.replay.steps["round-back"].clicks += 1
    assert story.at == table.round_starts()[-1][1]
    # nothing on the replay acts: the live controls are not on the page
    assert all(gm.controls.undo_button is not x for x in story.replay.view.objects)
    story.replay.live_button.clicks += 1
    assert story.at is None and gm._layout.objects == [gm.table_view]


def test_a_link_opens_at_an_event_and_the_numbers_open_when_the_fight_ends(world, monkeypatch):
    service, table, _ = world
    monkeypatch.setattr(fight_story, "query_arg", lambda name: "4" if name == "at" else None)
    gm = GMPage(service, key="k" * 16)
    gm.open_table("Story")
    assert gm.story.at == 4 and gm._layout.objects == [gm.story.replay.view, gm.chance._layout]
    gm.story.replay.back_to_live()
    assert not gm.story.night.is_open
    end_the_fight(table)
    night = gm.story.night
    assert night.is_open and "This fight's numbers" in night.body.object
    assert 'data-id="nightmare"' in night.body.object  # the GM counts the hidden too
    night.since.value = "night"
    assert "The night's numbers" in night.body.object
    assert [w.filename for w in night.downloads.objects] == [
        "story-night.md",
        "story-night.csv",
        "story-night-rolls.csv",
        "story-night.json",
    ]
    text = night.downloads.objects[1].callback().getvalue()
    assert text.startswith("id,name,side,dealt_health") and "guard-dog" in text
    night.close_button.clicks += 1
    assert not night.is_open and night._layout.objects == []
    night.opener.clicks += 1
    assert night.is_open


def test_a_player_gets_the_story_only_after_the_fight(world):
    service, table, code = world
    page = TablePage(service)
    page._found, page.code = table, code
    assert page.join("ronan")
    assert not page.rows.built("story")
    end_the_fight(table)
    story = page.story
    assert story.night.is_open
    mine = story.night.body.object
    assert mine == night_html(table.night("player", "ronan", "fight"))
    assert "Nightmare" not in mine  # hidden: never counted for a player
    story.replay.go(5)  # Ronan's fifth event: the table's count behind it
    at = sorted(readable_seqs(table.state, table.events, "player", "ronan"))[4]
    want = draw_table(table.view_for("player", "ronan", at=at), "ronan")
    assert story.replay.panes["me"].object == want["me"]
    assert [p.object for p in story.replay.panes["cards"]._panes][: len(want["cards"])] == want[
        "cards"
    ]
    assert page._layout.objects == [story.replay.view, page.chance._layout]
    table.apply({"type": "continue"})  # the GM goes on: back to the live table
    assert story.at is None and page._layout.objects == [page.table_view]
    assert not page.rows._built["story"].visible


def test_a_seat_that_joined_later_is_told_so_before_it_came(world):
    service, table, code = world
    table.apply({"type": "add", "document": document("nerdy_hacker.yaml"), "side": "Party"})
    joined = table.version
    hacker = table.state["ids"][-1]  # the one just added
    end_the_fight(table)
    page = TablePage(service)
    page._found, page.code = table, code
    assert page.join(hacker)
    replay = page.story.replay
    # A player replays in their own numbering (no gap where a hidden event was: issue 20).
    seqs = sorted(readable_seqs(table.state, table.events, "player", hacker))
    mine = seqs.index(joined) + 1
    assert replay.count == len(seqs) < table.version  # the hidden Nightmare's events
    replay.go(mine - 1)
    assert "You were not at the table yet at event" in replay.message.object
    replay.go(mine)
    assert replay.message.object == ""
    assert f"event {mine}" in replay.panes["header"].object
