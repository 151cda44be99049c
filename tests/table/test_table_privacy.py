"""Nothing on a phone tells that a hidden combatant exists; the log and the end of a fight.

Issue 20, "Privacy": players see the odds of their own attacks and of attacks on themselves; a
foe's attack on another player shows as it happens, without odds or TN, unless the GM shares
numbers; no gap in the numbers of the events a reader sees; "Waiting for the GM" rather than
"nobody"; a shown foe's past hidden events stay hidden; a Ki bump is paid at declaration but
shown to others only at the reveal. "The log": undone events struck through. "The end of a
fight": a "Fight over" card with who won and the summary, on every page. Panel-free: the views
(``table/privacy.py``, ``table/reader_view.py``) and the HTML the pages draw of them
(``views/combat/combat_render.py``).
"""

from __future__ import annotations

import json

from table_helpers import encounter, new_table, roster, soak7, start_and_declare
from test_table_visibility import assert_no_trace, pages_html

from tb_playground.models import Creature
from tb_playground.models.creature import CreatureAttack
from tb_playground.views.combat import combat_render as render

READERS = (("player", "ronan"), ("player", "the-brick"), ("spectator", None))


def _lurker() -> Creature:
    return Creature(
        name="Lurker", soak=3, health=6, attacks=[CreatureAttack(name="Bite", element=3, dice=1)]
    )


def _table(tmp_path, hidden: bool = True):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7(), _lurker()])
    _, t = new_table(tmp_path, enc)
    if hidden:
        t.apply({"type": "hide", "combatant": "lurker"})
    return t


def _texts(view: dict) -> list[str]:
    return [line["text"] for line in view["log"]]


def test_a_foes_attack_on_another_player_shows_without_odds_or_tn(tmp_path):
    t = _table(tmp_path, hidden=False)
    start_and_declare(t, {}, {"ronan": 1, "the-brick": 2, "opponent": 10, "lurker": 3})
    assert t.state["up"] == "opponent"
    t.apply({"type": "attack", "attacker": "opponent", "target": "the-brick", "attack": 0})
    ronan, brick, gm = t.view_for("player", "ronan"), t.view_for("player", "the-brick"), None
    gm = t.view_for("gm")
    # Ronan sees the attack as it happens, without its odds or TN.
    assert ronan["pending"]["attacker"] == "opponent" and ronan["pending"]["target"] == "the-brick"
    assert ronan["pending"]["odds"] is None and ronan["pending"]["tn"] is None
    html = render.pending(ronan)
    assert "Opponent" in html and "The Brick" in html and "TN" not in html and "Hit <b" not in html
    assert _texts(ronan)[-1] == "Opponent attacks The Brick: Jab."
    # The target and the GM see the odds and the TN.
    for view in (brick, gm):
        assert view["pending"]["odds"]["p_hit"] > 0 and view["pending"]["tn"] is not None
        assert "TN" in render.pending(view) and "TN" in _texts(view)[-1]
    assert_no_trace(t.state, ronan, "ronan")
    t.apply({"type": "roll", "faces": [2, 3]})
    line = _texts(t.view_for("player", "ronan"))[-1]
    assert line.startswith("Opponent rolls to hit The Brick: 2, 3") and "TN" not in line
    assert "vs TN" in _texts(t.view_for("player", "the-brick"))[-1]
    # Shared numbers: everyone sees them.
    t.apply({"type": "share", "on": True})
    texts = _texts(t.view_for("player", "ronan"))
    assert "vs TN" in next(x for x in texts if x.startswith("Opponent rolls to hit"))


def test_players_see_the_odds_of_their_own_attacks(tmp_path):
    t = _table(tmp_path, hidden=False)
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 2, "opponent": 1, "lurker": 3})
    t.apply({"type": "foe_odds", "show": "exact"})  # the GM's switch (issue 31): exact odds
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    mine = t.view_for("player", "ronan")["pending"]
    assert mine["odds"]["p_hit"] > 0 and mine["tn"] is not None
    assert "wall" not in mine["odds"]  # the foe's wall stays the GM's
    other = t.view_for("player", "the-brick")["pending"]
    assert other["odds"] is None and other["tn"] is None  # the foe's Defense stays the GM's


def test_a_hidden_combatant_leaves_no_gap_no_nobody_and_no_past_once_shown(tmp_path):
    t = _table(tmp_path)
    t.apply(
        {"type": "start", "initiative": {"ronan": 9, "the-brick": 8, "opponent": 7, "lurker": 6}}
    )
    t.apply({"type": "set_condition", "combatant": "lurker", "condition": "Prone"})
    for cid in ("ronan", "the-brick", "opponent"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    assert t.state["phase"] == "declare"  # the Lurker is still to declare
    gm = t.view_for("gm")
    assert "Waiting for: Lurker." in render.declaration_status(gm)
    before = {}
    for role, seat in READERS:
        view = t.view_for(role, seat)
        status = render.declaration_status(view)
        assert "Waiting for the GM." in status and "nobody." not in status
        numbers = [line["seq"] for line in view["log"]]
        assert numbers == list(range(1, len(numbers) + 1))  # 1, 2, 3 ... with no gap
        assert view["events_seen"] == len(numbers) < gm["events_seen"]
        assert render.counter(view).endswith(f"event {len(numbers)}")
        assert_no_trace(t.state, view, seat)
        before[role, seat] = view["log"]
    # Shown: it appears from now on; what it did while hidden stays out of every log.
    t.apply({"type": "show", "combatant": "lurker"})
    t.apply({"type": "declare", "combatant": "lurker", "bracket": "slow"})
    for role, seat in READERS:
        view = t.view_for(role, seat)
        texts = _texts(view)
        assert "Lurker appears." in texts
        assert not any(
            "Prone" in x or "Lurker declared" in x for x in texts[: texts.index("Lurker appears.")]
        )
        assert view["log"][: len(before[role, seat])] == before[role, seat]  # same numbers
        numbers = [line["seq"] for line in view["log"]]
        assert numbers == list(range(1, len(numbers) + 1))
    assert any("Lurker is Prone" in x for x in _texts(t.view_for("gm")))


def test_a_ki_bump_shows_on_other_phones_only_at_the_reveal(tmp_path):
    t = _table(tmp_path)
    t.apply(
        {"type": "start", "initiative": {"ronan": 9, "the-brick": 8, "opponent": 7, "lurker": 6}}
    )
    pool = t.state["combatants"]["ronan"]["ki_pool"]
    t.apply(
        {"type": "declare", "combatant": "ronan", "bracket": "slow", "bumps": 1}, "player", "ronan"
    )
    paid = t.state["combatants"]["ronan"]["ki"]
    assert paid < pool  # paid at declaration
    of = lambda view: next(c for c in view["combatants"] if c["id"] == "ronan")  # noqa: E731
    assert of(t.view_for("player", "ronan"))["ki"]["now"] == paid  # his own phone
    assert of(t.view_for("gm"))["ki"]["now"] == paid
    for role, seat in (("player", "the-brick"), ("spectator", None)):
        view = t.view_for(role, seat)
        assert of(view)["ki"]["now"] == pool
        assert f"{paid}/{pool}" not in render.card(of(view), view["phase"])
        assert "bump" not in json.dumps(view["log"])
    for cid in ("the-brick", "opponent", "lurker"):
        t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    assert t.state["phase"] == "resolve"
    assert of(t.view_for("player", "the-brick"))["ki"]["now"] == paid  # told at the reveal


def test_undone_lines_are_struck_through_and_redone_ones_not(tmp_path):
    t = _table(tmp_path)
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 2})
    t.apply({"type": "undo"})
    for role, seat in (("gm", None), *READERS):
        view = t.view_for(role, seat)
        line = next(x for x in view["log"] if "Poise" in x["text"])
        assert line["undone"] is True
        assert view["log"][-1]["undone"] is False  # the undo line itself
        assert f"undoes event {line['seq']} (a change of values)" in view["log"][-1]["text"]
        html = render.log(view)
        assert '<div class="undone">' in html and "<del>" in html and "undone</span>" in html
    t.apply({"type": "redo"})
    view = t.view_for("player", "ronan")
    assert not next(x for x in view["log"] if "Poise" in x["text"])["undone"]
    assert "<del>" not in render.log(view)


def test_the_fight_over_card_on_every_page(tmp_path):
    enc = encounter(
        roster("ronan.json"), roster("the_brick.json"), foes=[soak7(health=5), _lurker()]
    )
    _, t = new_table(tmp_path, enc)
    t.apply({"type": "hide", "combatant": "lurker"})
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 5, "opponent": 1, "lurker": 1})
    t.apply({"type": "set", "combatant": "lurker", "field": "health", "value": 0})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [1, 1]})
    t.apply({"type": "roll", "faces": [2, 1, 6]})
    assert t.state["phase"] == "over"
    gm = t.view_for("gm")
    card = render.fight_over(gm)
    assert "Fight over" in card and "Party win" in card and "Lurker" in card
    assert "Health 5" in card  # what Ronan dealt
    for role, seat in READERS:
        view = t.view_for(role, seat)
        card = render.fight_over(view)
        assert "Fight over" in card and "Party win (round 1)." in card
        assert "Lurker" not in card and "Lurker" not in pages_html(view)
        assert "their numbers stay with the GM" in card  # the Opponent's, not shared
        assert "Ronan" in card and "Health 5" in card
        assert view["up"] is None and not any(c["up"] for c in view["combatants"])  # no turn
    assert render.fight_over(t.view_for("gm")) != ""
    t.apply({"type": "continue"})
    assert render.fight_over(t.view_for("player", "ronan")) == ""
