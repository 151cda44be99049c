"""Issue 31, "Secrets": a foe's numbers stay the GM's unless shared.

A foe's label follows every track in words; the prevention step tells no player a foe's Health
or Ki; the GM chooses what an attacker learns of its odds against a foe (exact, in words,
nothing); each reader numbers the events alike everywhere. Panel-free: the views
(``table/reader_view.py``) and the HTML the pages draw of them.
"""

from __future__ import annotations

from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.models import Creature
from tb_playground.models.creature import CreatureAttack
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
