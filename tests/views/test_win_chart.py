"""The chance to win's view (views/combat/win_chart.py) outside a server: words, escaping, sharing.

- The headline says the chance, its interval ("exactly" for an exact one), the rounds left and
  the event, in plain words; chances near the ends read "over 99%" / "under 1%".
- Names are escaped in the table of chances to go down.
- A GM's chart shows the table's points; a player's holds nothing until the GM shares the
  chance, then shows the players' series (without a hidden foe); the switch sends the table
  option.
"""

from __future__ import annotations

import re
import time

import pytest
from test_momentum import _warehouse

from tb_playground.lab.momentum import Point
from tb_playground.lab.win_chance import WinChance
from tb_playground.views.combat import win_chart
from tb_playground.views.combat.win_chart import WinChart, _pct, down_table, headline


class _Fixed:
    """A stand-in Momentum with one point."""

    def __init__(self, point, working=False, version=None):
        self.point = point
        self._working = working
        self.version = version if version is not None else point.version
        self.error = ""

    def latest(self, _audience="gm"):
        return self.point

    def working(self, _audience="gm"):
        return self._working


def _chance(**kw) -> WinChance:
    base = {
        "p_win": 0.62,
        "p_win_interval": (0.6, 0.64),
        "rounds_left": 3.14,
        "rounds_left_interval": (3.0, 3.3),
        "down_next_round": {"a": 0.25},
        "next_round": 2,
    }
    return WinChance(**{**base, **kw})  # fmt: skip


def test_the_headline_in_words():
    point = Point(7, _chance(), (), {"a": "Ronan"})
    text = headline(_Fixed(point), "gm")
    assert "<b>Party: 62%</b> chance to win from here (95%: 60% to 64%)" in text
    assert "about 3.1 rounds left · after event 7" in text and "working" not in text
    assert "working…" in headline(_Fixed(point, working=True, version=8), "gm")
    exact = Point(3, _chance(p_win=0.5, p_win_interval=(0.5, 0.5), exact=True), (), {})
    assert "(exactly)" in headline(_Fixed(exact), "gm")
    assert [_pct(p) for p in (0.0, 0.004, 0.5, 0.996, 1.0)] == [
        "0%", "under 1%", "50%", "over 99%", "100%"
    ]  # fmt: skip


def test_names_are_escaped():
    point = Point(2, _chance(down_next_round={"x": 0.5}), (), {"x": "<b>Bad</b> & co"})
    html = down_table(_Fixed(point), "gm")
    assert "&lt;b&gt;Bad&lt;/b&gt; &amp; co" in html and "<b>Bad" not in html
    assert "Down by the end of round 2" in html


def _until(check, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("never")


@pytest.fixture
def small_runs(monkeypatch):
    monkeypatch.setitem(win_chart.RUN_OPTIONS, "fights", 300)
    monkeypatch.setitem(win_chart.RUN_OPTIONS, "process", False)


def test_gm_and_player_charts(tmp_path, small_runs):
    table = _warehouse(tmp_path)
    state = table.state  # one copy: each read deep-copies the table
    foe = next(c for c in state["ids"] if state["combatants"][c]["side"] == "Foes")
    name = table.state["combatants"][foe]["name"]
    table.apply({"type": "hide", "combatant": foe})
    sent = []
    gm = WinChart("gm", send=lambda command: sent.append(command) or table.apply(command))
    player = WinChart("players")
    gm.bind(table)
    player.bind(table)
    try:
        _until(lambda: "after event 2" in gm.head.object)
        assert name in gm.down.object
        assert not player._layout.visible and not player._layout.objects  # nothing built
        gm.share.value = True  # the GM's switch
        assert sent == [{"type": "table_option", "option": "share_chance", "on": True}]
        _until(lambda: "after event 3" in player.head.object)
        assert player._layout.visible and name not in player.down.object
        assert "Down by the end of round 1" in player.down.object
        _until(lambda: gm.share.value)
    finally:
        gm.unbind()
        player.unbind()


class _Service:
    """A stand-in service: every drawing made afresh."""

    def drawing(self, _table, _version, _what, _key, draw=None):
        return draw() if draw is not None else None


def test_the_cursor_follows_the_replay(tmp_path, small_runs):
    from test_momentum import _played

    from tb_playground.table.table_log import readable_seqs
    from tb_playground.views.combat.replay_panel import ReplayPanel

    table = _played(tmp_path, 20)
    chart = WinChart("gm")
    chart.bind(table)
    replay = ReplayPanel(_Service(), lambda _v: {"header": ""}, ["header"], "gm", lambda _on: None)
    try:
        _until(lambda: f"after event {table.version}" in chart.head.object)
        chart._figure.get_root()  # drawn: the hooks keep the figure and put the line on it
        span = chart.span
        assert span is not None and span in chart._handles["figure"].center
        _until(lambda: not chart.momentum.filling)  # the past points too, each column as long
        chart.refresh()
        line = chart._handles["line"].data
        assert len(line["event"]) > 3 and len(line["how"]) == len(line["event"])
        assert line["how"][0] == "over 300 simulated fights"
        # every column a glyph reads is in its data (Bokeh logs E-1001 on a page otherwise)
        from bokeh.core.validation.check import check_integrity

        assert not check_integrity(list(chart._handles["figure"].references())).error
        replay.bind(table, "gm")
        chart.follow(replay)
        assert chart.cursor is None and not span.visible and chart.at.object == ""
        x = chart._handles["figure"].x_range
        for n in (5, 1, table.version - 1):
            replay.go(n)
            assert chart.cursor == n and span.location == n and span.visible
            assert x.start < n < x.end
            assert f"Replaying event {n}:" in chart.at.object
        replay.step("event", -1)
        assert span.location == table.version - 2
        replay.back_to_live()
        assert chart.cursor is None and not span.visible and chart.at.object == ""
        # a player replays their own numbering: the chance is the table's event's behind it,
        # the line stands at their number (their chart counts as they do: issue 31)
        replay.bind(table, "player", "ronan")
        seqs = sorted(readable_seqs(table.state, table.events, "player", "ronan"))
        assert len(seqs) < table.version  # the hidden foe's events are not theirs
        for n in (1, 3, len(seqs)):
            replay.go(n)
            assert chart.cursor == seqs[n - 1] and span.location == n
            assert "table's event" not in chart.at.object
        replay.back_to_live()
        assert not span.visible
    finally:
        chart.unbind()


def test_past_points_say_their_fights(tmp_path):
    from tb_playground.views.combat.win_chart import how_worked_out, series_data

    points = [Point(1, _chance(fights=5000)), Point(2, _chance(exact=True))]
    assert series_data(points)[0]["how"] == ["over 5,000 simulated fights", "exactly"]
    assert how_worked_out(_chance(fights=20_000)) == "over 20,000 simulated fights"


def test_a_players_numbers_agree_on_every_part_of_the_page(tmp_path, small_runs):
    """Issue 31: the chart's "after event N", x axis and replay count as the player's log does.

    The log and header number the events the player sees 1, 2, ... with no gap where a hidden
    foe's event was; the chance's headline, its points and markers, and the replay's words say
    the same numbers (never the table's own, which would hint at the hidden events).
    """
    from test_momentum import _played

    from tb_playground.table.table_log import readable_seqs
    from tb_playground.views.combat.combat_render import counter
    from tb_playground.views.combat.replay_panel import ReplayPanel

    table = _played(tmp_path, 20)
    table.apply({"type": "table_option", "option": "share_chance", "on": True})
    seqs = sorted(readable_seqs(table.state, table.events, "player", "ronan"))
    assert len(seqs) < table.version  # events the player never saw
    view = table.view_for("player", "ronan")
    assert view["events_seen"] == len(seqs) == view["log"][-1]["seq"]
    assert counter(view).endswith(f"event {len(seqs)}")
    chart = WinChart("players")
    chart.bind(table, seqs=lambda: seqs)
    replay = ReplayPanel(_Service(), lambda _v: {"header": ""}, ["header"], "tp", lambda _on: None)
    try:
        _until(lambda: "after event" in chart.head.object and not chart.momentum.filling)
        _until(lambda: chart.momentum.latest("players").version == table.version)
        chart.refresh()
        assert re.findall(r"after event (\d+)", chart.head.object) == [str(len(seqs))]
        line, marks = chart._data
        assert line["event"] and set(line["event"]) <= set(range(1, len(seqs) + 1))
        assert max(line["event"]) == len(seqs)
        assert set(marks["event"]) <= set(range(1, len(seqs) + 1))
        replay.bind(table, "player", "ronan")
        chart.follow(replay)
        replay.go(len(seqs))
        assert f"Replaying event {len(seqs)}:" in chart.at.object
        assert "table's event" not in chart.at.object and chart._cursor_x() == len(seqs)
    finally:
        chart.unbind()
