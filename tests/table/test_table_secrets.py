"""Issue 31, "Secrets": a foe's numbers stay the GM's unless shared.

A foe's label follows every track in words; the prevention step tells no player a foe's Health
or Ki; the GM chooses what an attacker learns of its odds against a foe (exact, in words,
nothing); each reader numbers the events alike everywhere. Panel-free: the views
(``table/reader_view.py``) and the HTML the pages draw of them.
"""

from __future__ import annotations

import itertools

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.engine import to_hit_odds
from tb_playground.formatting import CHANCE_BANDS, chance_words
from tb_playground.models import Creature
from tb_playground.models.creature import CreatureAttack
from tb_playground.table.menu import menu
from tb_playground.table.odds import pending_odds
from tb_playground.table.previews import attack_previews, previews_as
from tb_playground.table.privacy import label
from tb_playground.views.combat import combat_render as render


def _table(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    _, t = new_table(tmp_path, enc)
    return t


def _foe_card(t, role="player", seat="ronan") -> dict:
    view = t.view_for(role, seat)
    return next(c for c in view["combatants"] if c["id"] == "opponent")


# -- the label follows every track ---------------------------------------------------------------


def test_a_foe_harmed_in_sanity_or_poise_is_no_longer_unhurt(tmp_path):
    t = _table(tmp_path)
    assert _foe_card(t)["label"] == "unhurt"
    for field in ("sanity", "poise"):
        t = _table(tmp_path / field)
        top = t.state["combatants"]["opponent"]["max"][field]
        t.apply({"type": "set", "combatant": "opponent", "field": field, "value": top - 1})
        card = _foe_card(t)
        assert card["label"] == ("hurt" if 2 * (top - 1) > top else "bloodied"), field
        assert card["vitals"] is None  # still no number
        t.apply({"type": "set", "combatant": "opponent", "field": field, "value": top // 2})
        assert _foe_card(t)["label"] == "bloodied", field


def test_the_label_takes_the_worst_track_and_down_is_health_or_out():
    c = {
        "out": False,
        "now": {"health": 10, "poise": 10, "sanity": 3},
        "max": {"health": 10, "poise": 10, "sanity": 10},
    }
    assert label(c) == "bloodied"
    c["now"]["sanity"] = 9
    assert label(c) == "hurt"
    c["now"]["sanity"] = 0  # Sanity at 0 is a condition, not "down"
    assert label(c) == "bloodied"
    c["now"]["health"] = 0
    assert label(c) == "down"


# -- the prevention step ----------------------------------------------------------------------


def _vance_may_prevent(tmp_path):
    """Ronan hits a Ki-holding foe for more levels than its Health left: it may prevent."""
    vance = Creature(
        name="Captain Oriel Vance", soak=1, health=2, ki=3, named=True,
        attacks=[CreatureAttack(name="Sabre", element=3, dice=1)],
    )  # fmt: skip
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[vance])
    _, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 1, "captain-oriel-vance": 1})
    assert t.state["up"] == "ronan"
    t.apply({"type": "attack", "attacker": "ronan", "target": "captain-oriel-vance", "attack": 1})
    while t.state["pending"] and t.state["pending"]["step"] != "prevent":
        step = t.state["pending"]["step"]
        if step == "to_hit":
            t.apply({"type": "roll", "faces": [2, 3]})
        elif step == "damage":
            q = t.state["pending"]
            n = q["dice"] - ((q["dice"] + 1) // 2 if q["critical"] else 0)
            t.apply({"type": "roll", "faces": [10] * n})
        elif step == "boost":
            t.apply({"type": "boost", "dice": []})
        else:
            raise AssertionError(step)
    p = t.state["pending"]
    assert p["step"] == "prevent" and p["would_take"] < p["levels"]
    return t, p


def test_the_prevention_step_tells_no_phone_a_foes_health_or_ki(tmp_path):
    t, p = _vance_may_prevent(tmp_path)
    gm = t.view_for("gm")
    assert gm["pending"]["step"] == "prevent"
    assert "may spend Ki to prevent up to" in gm["log"][-1]["text"]
    for role, seat in (("player", "ronan"), ("player", "the-brick"), ("spectator", None)):
        view = t.view_for(role, seat)
        pending = view["pending"]
        assert pending["step"] == "settle", seat
        assert pending["levels"] == p["levels"]  # the levels rolled, not those it would take
        assert "ki_now" not in pending and pending["odds"] is None and pending["tn"] is None
        assert not any("prevent" in line["text"] for line in view["log"]), seat
        html = render.pending(view)
        assert "Ki" not in html and "settles the hit" in html
    t.apply({"type": "share", "on": True})  # shared: the players read it all
    assert t.view_for("player", "the-brick")["pending"]["step"] == "prevent"


# -- what an attacker sees of its odds against a foe (the GM's switch) ---------------------------


def _ronan_attacks(tmp_path, show: str | None):
    t = _table(tmp_path)
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 2, "opponent": 1})
    if show is not None:
        t.apply({"type": "foe_odds", "show": show})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0})
    return t


def test_the_gm_alone_chooses_and_a_bad_choice_is_named(tmp_path):
    t = _table(tmp_path)
    assert t.view_for("player", "ronan")["foe_odds"] == "exact"  # until the GM chooses
    with pytest.raises(PermissionError):
        t.apply({"type": "foe_odds", "show": "exact"}, role="player", seat="ronan")
    with pytest.raises(ValueError, match="show"):
        t.apply({"type": "foe_odds", "show": "all"})
    t.apply({"type": "foe_odds", "show": "none"})
    assert t.view_for("spectator")["foe_odds"] == "none"
    assert "an attacker now sees no odds" in t.view_for("player", "ronan")["log"][-1]["text"]


@pytest.mark.parametrize("show", ["exact", "words", "none"])
def test_the_attacker_sees_its_odds_against_a_foe_as_the_gm_chose(tmp_path, show):
    t = _ronan_attacks(tmp_path, show)
    tn = t.state["pending"]["tn"]
    mine = t.view_for("player", "ronan")
    p = mine["pending"]
    said = " ".join(line["text"] for line in mine["log"])
    html = render.pending(mine)
    if show == "exact":
        assert p["tn"] == tn and p["odds"]["p_hit"] > 0 and p["chance"] is None
        assert f"TN {tn}" in said and f"TN {tn}" in html
    else:
        assert p["tn"] is None and p["odds"] is None
        assert "TN" not in said and "TN" not in html and "%" not in html
        word = chance_words(pending_odds(t.state, t.state["pending"])["p_hit"])
        assert p["chance"] == (word if show == "words" else None)
        assert (f"chance to hit: {word}" in html) == (show == "words")
    # The attack table before an attack and the turn menu's words follow the same switch.
    t2 = _table(tmp_path / "menu")
    start_and_declare(t2, {}, {"ronan": 10, "the-brick": 2, "opponent": 1})
    t2.apply({"type": "foe_odds", "show": show})
    entry = next(
        e
        for e in menu(t2.state, "player", "ronan", None, {"target": "opponent"})["actions"]
        if e["key"] == "attack"
    )
    previews = previews_as(attack_previews(t2.state, "ronan", ["opponent"]), show)
    if show == "exact":
        assert "%" in entry["odds"] and entry["p"]["p_hit"] > 0
        assert previews[0]["targets"][0]["p_hit"] > 0
    elif show == "words":
        assert entry["odds"].startswith("hit: ") and "%" not in entry["odds"] and not entry["p"]
        assert set(previews[0]["targets"][0]) == {"target", "chance"}
    else:
        assert entry["odds"] == "" and not entry["p"] and previews == []
    # The GM's menu keeps the exact odds.
    gm_entry = next(
        e
        for e in menu(t2.state, "gm", None, "ronan", {"target": "opponent"})["actions"]
        if e["key"] == "attack"
    )
    assert "%" in gm_entry["odds"]


def test_the_switch_changes_no_other_phone_and_sharing_shows_it_all(tmp_path):
    others = {}
    for show in ("exact", "words", "none"):
        t = _ronan_attacks(tmp_path / show, show)
        for role, seat in (("player", "the-brick"), ("spectator", None)):
            view = t.view_for(role, seat)
            others.setdefault(seat, []).append((view["pending"], [x["text"] for x in view["log"]]))
        assert t.view_for("gm")["pending"]["tn"] is not None
        t.apply({"type": "share", "on": True})
        shared = t.view_for("player", "ronan")["pending"]
        assert shared["tn"] is not None and shared["odds"]["p_hit"] > 0
    for seat, seen in others.items():
        pendings = [p for p, _log in seen]
        assert pendings[0] == pendings[1] == pendings[2], seat
        assert pendings[0]["tn"] is None
        logs = [log[:-2] + log[-1:] for _p, log in seen]  # all but the switch's own line
        assert logs[0] == logs[1] == logs[2], seat


def test_every_chance_band_covers_at_least_4_tns():
    for advantage in (-1, 0, 1):
        for crit_max in (2, 3):
            words = [
                chance_words(to_hit_odds(min(tn, 10), tn - min(tn, 10), advantage, crit_max).p_hit)
                for tn in range(21)
            ]
            runs = [len(list(g)) for _w, g in itertools.groupby(words)]
            assert len(runs) == len(CHANCE_BANDS) and min(runs) >= 4, (advantage, crit_max, runs)
