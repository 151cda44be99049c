"""One step at a time in the views (issue 20): a hidden attacker is "someone unseen" to the one
it hits, and nobody else learns of it; each roll's result is in the view of who may see it."""

from __future__ import annotations

import json

from table_helpers import encounter, new_table, roster, start_and_declare

SECRET = "Zyxwv the Unseen"


def _hidden_bear_hits_ronan(tmp_path):
    ronan = roster("ronan.json")
    ronan.armor = []
    bear = roster("grizzly_bear.yaml")
    bear.name = SECRET
    enc = encounter(ronan, roster("the_brick.json"), foes=[bear])
    _, t = new_table(tmp_path, enc)
    bear_id = next(cid for cid in t.state["ids"] if t.state["combatants"][cid]["name"] == SECRET)
    start_and_declare(t, {}, {"ronan": 1, "the-brick": 2, bear_id: 10})
    t.apply({"type": "hide", "combatant": bear_id})
    assert t.state["up"] == bear_id
    t.apply({"type": "attack", "attacker": bear_id, "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    t.apply({"type": "roll", "faces": [10, 10, 10, 1, 1, 1, 1, 1, 1, 1]})
    return t, bear_id


def _leaks(view: dict, bear_id: str) -> list[str]:
    text = json.dumps(view)
    bear = SECRET.split()[0]
    return [w for w in (SECRET, bear, bear_id, "Grizzly", "grizzly", "Claw", "Bite") if w in text]


def test_the_target_prevents_a_hidden_attack_without_learning_who(tmp_path):
    t, bear_id = _hidden_bear_hits_ronan(tmp_path)
    assert t.state["pending"]["step"] == "prevent"
    mine = t.view_for("player", "ronan")
    p = mine["pending"]
    assert p["step"] == "prevent" and p["unseen"] and p["attacker"] is None
    assert p["target"] == "ronan" and p["levels"] == 3
    assert p["ki_costs"] == [0, 1, 2, 3] and p["ki_now"] == 14
    assert p["odds"] is None and p["tn"] is None and p["attack"] is None
    assert _leaks(mine, bear_id) == []
    assert mine["log"][-1]["text"] == "Ronan may spend Ki to prevent up to 3 levels."
    # Nobody else sees the attack, the step or its result.
    for role, seat in (("player", "the-brick"), ("spectator", None)):
        other = t.view_for(role, seat)
        assert other["pending"] is None and other["result"] is None
        assert _leaks(other, bear_id) == []
        assert not any("unseen" in e["text"] for e in other["log"])
    # "Take the damage": nothing prevented; the hit leaves a line on Ronan's phone.
    t.apply({"type": "prevent", "ki": 0}, role="player", seat="ronan")
    mine = t.view_for("player", "ronan")
    assert mine["pending"] is None and _leaks(mine, bear_id) == []
    line = mine["result"]["lines"][-1]["text"]
    assert line == "Someone unseen hits you: you lose 3 Health: 10 -> 7"
    assert mine["log"][-1]["text"] == "Someone unseen hits you: you lose 3 Health: 10 -> 7."
    assert t.view_for("player", "the-brick")["result"] is None


def test_the_gm_sees_the_attacker_and_what_each_step_costs(tmp_path):
    t, bear_id = _hidden_bear_hits_ronan(tmp_path)
    p = t.view_for("gm")["pending"]
    assert p["attacker"] == bear_id and "unseen" not in p
    assert p["ki_costs"] == [0, 1, 2, 3] and p["opened"] is not None


def test_results_name_the_outcome_and_the_levels(tmp_path):
    from table_helpers import soak7

    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [1, 1]})
    result = t.view_for("player", "ronan")["result"]
    assert result["lines"][0]["outcome"] == "Hit, critical!"
    assert result["lines"][0]["dice"] == [1, 1]
    t.apply({"type": "roll", "faces": [2, 1, 6]})  # 4 outright + 6 + Klotho 4 over Soak 7
    line = t.view_for("spectator")["result"]["lines"][0]
    assert line["outcome"] == "Hit, critical! 5 levels" and line["dice"] == [2, 1, 6]
    pending = t.view_for("player", "ronan")["pending"]
    assert pending["step"] == "boost" and pending["ki_costs"][:3] == [0, 1, 2]
    t.apply({"type": "boost", "dice": [0]})
    result = t.view_for("gm")["result"]
    assert [x["text"] for x in result["lines"]][0] == "Ronan boosts 1 die: 6 levels"
    assert "loses 6 Health" in result["lines"][-1]["text"]
    dice = [e["text"] for e in t.view_for("gm")["log"]]
    assert not any("level(s)" in x or "loses 0" in x for x in dice)
