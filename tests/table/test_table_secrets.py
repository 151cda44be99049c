"""Issue 31, "Secrets": a foe's numbers stay the GM's unless shared.

A foe's label follows every track in words; the prevention step tells no player a foe's Health
or Ki; the GM chooses what an attacker learns of its odds against a foe (exact, in words,
nothing); each reader numbers the events alike everywhere. Panel-free: the views
(``table/reader_view.py``) and the HTML the pages draw of them.
"""

from __future__ import annotations

from table_helpers import encounter, new_table, roster, soak7

from tb_playground.table.privacy import label


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
