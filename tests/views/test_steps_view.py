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
    state = t.state  # one copy: each read of ``t.state`` deep-copies the table
    bear_id = next(cid for cid in state["ids"] if state["combatants"][cid]["name"] == SECRET)
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
    assert mine["log"][-1]["text"] == (
        "Someone unseen hits you: you may spend Ki to prevent up to 3 levels."
    )
    # Nobody else sees the attack, the step or its result.
    for role, seat in (("player", "the-brick"), ("spectator", None)):
        other = t.view_for(role, seat)
        assert other["pending"] is None and other["result"] is None
        assert _leaks(other, bear_id) == []
        assert not any("unseen" in e["text"] for e in other["log"])
        assert not any("prevent" in e["text"] for e in other["log"])  # no hit from nowhere
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


def test_a_hidden_actor_is_the_gm_to_players():
    from tb_playground.views.combat.steps import whose

    view = {
        "role": "player",
        "combatants": [{"id": "ronan", "name": "Ronan", "kind": "character"}],
        "pending": {"step": "prevent", "attacker": "ronan", "target": "shade"},
    }
    assert whose(view, "ronan") == ("Waiting for the GM to prevent levels with Ki or take the "
                                    "damage.", False)  # fmt: skip
    view["pending"] = {"step": "damage", "attacker": "ronan", "target": "shade"}
    assert whose(view, "ronan") == ("Your move: roll damage.", True)
    assert whose({**view, "role": "spectator"}, None)[0] == "Waiting for Ronan to roll damage."
    gm = {**view, "role": "gm"}
    assert whose(gm, None)[0] == "Waiting for Ronan to roll damage (or do it here for them)."


def test_boost_and_prevent_buttons_state_what_they_cost():
    from tb_playground.views.combat.steps import boost_label, prevent_label

    p = {"ki_costs": [0, 2, 4, 6], "ki_now": 4}  # Exhausted 4: one more Ki a spend
    assert boost_label(p, 0) == ("Boost: pick dice", False)
    assert boost_label(p, 1) == ("Boost 1 die (2 Ki)", True)
    assert boost_label(p, 3) == ("Not enough Ki (6 needed)", False)
    assert prevent_label(p, 0) == ("Prevent: choose levels", False)
    assert prevent_label(p, 2) == ("Prevent 2 levels (4 Ki)", True)


def test_the_gm_page_resets_bumps_and_target_for_the_next_combatant(tmp_path):
    from tb_playground.service import CombatService
    from tb_playground.views.combat.gm_page import GMPage

    service = CombatService(tmp_path / "t.sqlite", gm_key="secret-key-16-chars")
    dogs = [roster("guard_dog.yaml"), roster("guard_dog.yaml")]
    table = service.create("Dogs", encounter(roster("ronan.json"), foes=dogs))
    ids = table.state["ids"]
    gm = GMPage(service, key="secret-key-16-chars")
    gm.open_table("Dogs")
    table.apply({"type": "start", "initiative": dict(zip(ids, [10, 1, 5], strict=True))})
    gm.refresh()
    gm.controls.declare_who.value = ids[1]
    gm.controls.declare_bumps.value = 2
    gm.controls.declare_who.value = ids[2]
    assert gm.controls.declare_bumps.value == 0  # not the last one's bumps
    for cid in ids:
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    gm.refresh()
    assert table.state["up"] == "ronan"
    gm.turn.fields["target"].value = ids[1]  # Ronan at the first dog
    table.apply({"type": "end_turn"})
    gm.refresh()
    assert table.state["up"] == ids[2]
    assert gm.turn.fields["target"].value == "ronan"  # the second dog does not default to the first
    gm.close()


def test_the_prevention_step_spends_nothing_until_the_target_chooses(tmp_path):
    """Issue 31: the prevention's primary button never starts at the most Ki (a hasty tap).

    The levels start at none at each prevention step: the button asks for a choice and cannot
    be pressed; choosing levels says what they cost.
    """
    import panel as pn

    from tb_playground.views.combat.steps import StepControls

    t, _bear = _hidden_bear_hits_ronan(tmp_path)
    sent = []
    steps = StepControls("tp", lambda command, then=None: sent.append(command), pn.pane.HTML())
    steps.show(t.view_for("player", "ronan"), "ronan")
    assert steps.prevent_ki.value == 0 and steps.prevent_ki.end == 3
    assert steps.prevent_button.label == "Prevent: choose levels"
    assert steps.prevent_button.disabled
    assert "Choose how many to prevent, or take the damage." in steps.prevent_ask.object
    steps.prevent_ki.value = 2
    assert steps.prevent_button.label == "Prevent 2 levels (2 Ki)"
    assert not steps.prevent_button.disabled
    steps.show(t.view_for("player", "ronan"), "ronan")  # the same step drawn again: kept
    assert steps.prevent_ki.value == 2
    steps.prevent_button.clicks += 1
    assert sent == [{"type": "prevent", "ki": 2}]


def test_the_chance_to_go_down_names_the_track_hit(tmp_path):
    """Issue 31: a Sanity hit's odds say "Target's Sanity at 0 or below", not "Target down"."""
    from html import unescape

    from table_helpers import fight

    from tb_playground.views.combat import combat_render
    from tb_playground.views.combat.dice_landing import dice_landing_html

    _, t = new_table(tmp_path, fight())
    start_and_declare(t, {}, {"nightmare": 10, "ronan": 1, "the-brick": 1, "guard-dog": 1})
    cry = [a["name"] for a in t.state["combatants"]["nightmare"]["attacks"]].index("Cry")
    t.apply({"type": "attack", "attacker": "nightmare", "target": "ronan", "attack": cry})
    view = t.view_for("gm")
    assert view["pending"]["vital"] == "sanity"
    html = unescape(combat_render.pending(view))
    assert "Target's Sanity at 0 or below after this attack" in html
    assert "Target down" not in html
    odds = {**t.pending_odds("gm", None, [10]), "typed": [10]}
    landing = unescape(dice_landing_html(odds, 12, "sanity"))
    assert "Target's Sanity at 0 or below" in landing
    assert "Target down" not in landing


def test_the_gms_refusal_goes_once_the_table_moves_on(tmp_path):
    """Issue 31: a GM error line does not stay after what it refused is done.

    The GM's "end the turn" is refused while brackets are still declared; once the players
    declare (the table moves on) the line goes. A refusal with no event since stays.
    """
    from tb_playground.service import CombatService
    from tb_playground.views.combat.gm_page import GMPage

    service = CombatService(tmp_path / "t.sqlite", gm_key="secret-key-16-chars")
    table = service.create("Dogs", encounter(roster("ronan.json"), foes=[roster("guard_dog.yaml")]))
    ids = table.state["ids"]
    gm = GMPage(service, key="secret-key-16-chars")
    gm.open_table("Dogs")
    table.apply({"type": "start", "initiative": dict(zip(ids, [10, 1], strict=True))})
    gm.refresh()
    gm.send({"type": "end_turn"})
    assert 'class="err"' in gm.message.object
    gm.refresh()  # the same table: the refusal still holds
    assert 'class="err"' in gm.message.object
    for cid in ids:
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    gm.refresh()
    assert gm.message.object == ""
    gm.close()


def test_a_bumped_bracket_says_what_the_bump_does():
    """Issue 31: "Normal +1 bump" acts in the Fast band with Normal's two actions (000:379)."""
    from html import unescape

    from tb_playground.views.combat.combat_render import bracket_chip

    chip = unescape(bracket_chip({"bracket": "normal", "bumps": 1, "band": "fast"}, "resolve"))
    assert "Normal +1 bump: acts in the Fast band with Normal's 2 actions" in chip
    chip = unescape(bracket_chip({"bracket": "slow", "bumps": 2, "band": "fast"}, "resolve"))
    assert "Slow +2 bumps: acts in the Fast band with Slow's 1 empowered action" in chip
    assert unescape(bracket_chip({"bracket": "fast", "bumps": 0, "band": "fast"}, "resolve")) == (
        '<span class="chip bracket">Fast</span>'
    )
