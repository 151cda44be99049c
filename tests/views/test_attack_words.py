"""The attack's words on screen (issue 31, "Words on screen"): no code names, armor named.

rules/002 "What Does Armor Do?" (lines 149-157): the armor takes the hit, loses at most one
level an attack, and the wearer takes nothing while it holds. The phone and the log say which
armor took what, before the roll (the pending attack) and after it (the result, the log).
"""

from __future__ import annotations

from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.formatting import advantage_words
from tb_playground.views.combat import combat_render as render

HACKER = "the-nerdy-hacker"


def _bear_on_ronan(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("grizzly_bear.yaml")]))
    start_and_declare(t, {}, {"ronan": 1, "grizzly-bear": 10})
    t.apply({"type": "attack", "attacker": "grizzly-bear", "target": "ronan"})
    return t


def test_the_gift_check_step_reads_in_words(tmp_path):
    # Before: "Step: gift_check." (a code name on screen).
    _, t = new_table(tmp_path, encounter(roster("nerdy_hacker.yaml"), foes=[soak7()]))
    start_and_declare(t, {}, {HACKER: 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": HACKER, "target": "opponent", "attack": 2})
    for role, seat in (("gm", None), ("player", HACKER)):
        html = render.pending(t.view_for(role, seat))
        assert "gift_check" not in html and "Step: the Gift Check next." in html
    assert set(render.STEP_WORDS) >= {"approach", "gift_check", "to_hit", "damage", "boost"}


def test_the_armor_in_the_way_is_named_before_the_roll(tmp_path):
    # Before: "Expected levels 0.00" and no word of the jacket. Ronan's Leather jacket:
    # Hardness 3, 2 levels, Body.
    t = _bear_on_ronan(tmp_path)
    html = render.pending(t.view_for("player", "ronan"))
    assert "Armor in the way: Ronan's Leather jacket (body)" in html
    assert "Hardness 3" in html and "2 levels left" in html
    assert "Ronan takes nothing while it holds" in html
    assert "Expected levels" not in html
    assert "Leather jacket loses a level" in html


def test_the_phone_and_the_log_say_which_armor_took_the_hit(tmp_path):
    # Before: "Hit, 3 levels. Ronan takes no damage." with no word of the jacket.
    t = _bear_on_ronan(tmp_path)
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [10, 10, 10, 1, 1, 1, 1, 1, 1, 1]})
    view = t.view_for("player", "ronan")
    texts = [line["text"] for line in view["result"]["lines"]]
    assert texts == [
        "Grizzly bear rolls damage: Hit, against Ronan's Leather jacket: 3 dice beat its Hardness",
        "Ronan's Leather jacket takes the hit: it loses a level (2 -> 1)",
        "Ronan takes no damage",
    ]
    log = [e["text"] for e in view["log"]]
    assert "Ronan's Leather jacket takes the hit: it loses a level (2 -> 1)." in log
    assert any(
        line.startswith("Grizzly bear rolls damage against Ronan's Leather jacket: 10, 10, 10")
        and line.endswith("3 dice beat its Hardness.")
        for line in log
    )


def _ronan_slow(tmp_path):
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[roster("the_brick.json")]))
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "the-brick": 1})
    t.apply({"type": "end_turn"})
    assert t.state["up"] == "ronan"
    return t


def test_a_called_shot_is_named_on_screen_and_in_the_log(tmp_path):
    # RULES.md, Action Brackets: a Slow round's Called Shot; rules/002 line 161: at the Head.
    # Before: neither the pending attack nor the log said "Called Shot".
    t = _ronan_slow(tmp_path)
    command = {"type": "attack", "attacker": "ronan", "target": "the-brick", "attack": 1}
    t.apply({**command, "empowered": "called shot", "zone": "head"}, role="player", seat="ronan")
    for role, seat in (("gm", None), ("player", "ronan"), ("player", "the-brick")):
        view = t.view_for(role, seat)
        assert "a Called Shot at the head" in render.pending(view)
        assert any("(a Called Shot at the head)" in e["text"] for e in view["log"])


def test_the_net_advantage_is_binary_with_its_sources(tmp_path):
    # RULES.md "Core Roll": sources are summed, > 0 is Advantage; binary, never 4d10. Aim and
    # a GM's source are two sources, one Advantage. Before: "Advantage 2".
    t = _ronan_slow(tmp_path)
    wind = {"name": "Tailwind", "effect": "advantage", "reason": "the wind is behind him"}
    t.apply(
        {
            "type": "attack",
            "attacker": "ronan",
            "target": "the-brick",
            "attack": 0,
            "empowered": "aim",
            "situational": [wind],
        }
    )
    assert t.state["pending"]["advantage"] == 2
    view = t.view_for("player", "ronan")
    html = render.pending(view)
    assert "Advantage 2" not in html
    assert "Advantage: Aim, Tailwind (GM: the wind is behind him)" in html
    assert view["log"][-1]["text"].endswith(
        ". Advantage: Aim, Tailwind (GM: the wind is behind him)."
    )
    assert advantage_words(0, [["Aim", 1], ["Off Balance", -1]]) == (
        "Normal roll: Aim cancels Off Balance"
    )
    assert advantage_words(-1, [["Off Balance", -1], ["Aim", 1], ["Prone", -1]]) == (
        "Disadvantage: Off Balance, Prone; for: Aim"
    )
