"""The table's rules against the texts (issue 32, items 1-11), through ``Table.apply`` only.

Typed dice everywhere; each test cites the lines it rests on ("000:123" = rules/000, line
123). Readings where the texts are silent: docs/notes/0015-table-rules.md, "Issue 32".
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare


def _ronan_vs(tmp_path, *foes, brackets=None, initiative=None):
    ronan = roster("ronan.json")
    _, t = new_table(tmp_path, encounter(ronan, foes=list(foes)))
    faces = initiative or {"ronan": 10, **{cid: 1 for cid in ["opponent", "opponent-2"]}}
    faces = {cid: faces.get(cid, 1) for cid in t.state["ids"]}
    start_and_declare(t, brackets or {}, faces)
    return t


# -- item 2: a critical hit alone can't kill ----------------------------------------------------


def test_a_critical_on_a_dying_character_does_not_kill(tmp_path):
    # 000:123 "A Critical Hit can't kill on its own ... a single attack can only reduce a
    # character to zero health"; RULES.md, Attacks: "it takes a character to 0 at most".
    t = _ronan_vs(tmp_path, soak7(health=5, named=True), soak7())
    assert t.state["ids"][1] == "opponent"
    t.apply({"type": "set", "combatant": "opponent", "field": "health", "value": -4})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert t.apply({"type": "roll", "faces": [1, 1]})[0]["data"]["outcome"] == "critical"
    events = t.apply({"type": "roll", "faces": [10, 10, 10]})
    assert t.state["pending"] is None
    assert events[-1]["data"]["taken"] == 0
    assert t.state["combatants"]["opponent"]["now"]["health"] == -4


def test_an_ordinary_hit_on_a_dying_character_still_takes_one_level(tmp_path):
    # 000 "Going down, and staying down": at or below 0 an attack takes one level.
    t = _ronan_vs(tmp_path, soak7(health=5, named=True), soak7())
    t.apply({"type": "set", "combatant": "opponent", "field": "health", "value": -4})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    t.apply({"type": "roll", "faces": [3, 3]})
    t.apply({"type": "roll", "faces": [10] * 7})
    assert t.state["combatants"]["opponent"]["now"]["health"] == -5


# -- item 3: Surprised from a character file lapses with the round ------------------------------


def test_surprised_from_a_file_ends_with_the_first_round(tmp_path):
    # 002:176 "It clears automatically once that round ends"; 004:122 "for the round".
    ronan = roster("ronan.json")
    ronan.conditions = ["Surprised"]
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert t.state["pending"]["advantage"] == -1  # round 1: Surprised
    t.apply({"type": "roll", "faces": [9, 9, 9]})
    t.apply({"type": "end_turn"})
    t.apply({"type": "end_turn"})
    assert t.state["round"] == 2
    assert "Surprised" not in t.state["combatants"]["ronan"]["conditions"]
    for cid in t.state["ids"]:
        t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert t.state["pending"]["advantage"] == 0


# -- item 4: the Distracted roll can't be skipped -----------------------------------------------


def test_a_slow_character_hit_before_acting_rolls_before_the_aim(tmp_path):
    # 002:167 "Taking a Health Level ... while you're resolving a Slow Action Bracket action
    # can break your concentration. When that happens, roll to hold focus"; RULES.md
    # (decided): held, "the action resolves exactly as declared, Aim's
    # Advantage included". The Slow action waits for that roll.
    ronan = roster("ronan.json")
    ronan.armor = []
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {"ronan": ("slow", 0)}, {"ronan": 10, "opponent": 1})
    assert t.state["up"] == "opponent"
    t.apply({"type": "attack", "attacker": "opponent", "target": "ronan"})
    t.apply({"type": "roll", "faces": [2, 3]})
    t.apply({"type": "roll", "faces": [10, 10]})
    if t.state["pending"]:
        t.apply({"type": "prevent", "ki": 0})
    assert t.state["combatants"]["ronan"]["conditions"]["Distracted"]["state"] == "asked"
    t.apply({"type": "end_turn"})
    aim = {"type": "attack", "attacker": "ronan", "target": "opponent", "empowered": "aim"}
    with pytest.raises(ValueError, match="hold focus"):
        t.apply(aim, role="player", seat="ronan")
    # Held (Atropos 3 + Difficulty 5 = TN 8; 2 + 3 = 5): the Aim goes ahead with Advantage.
    t.apply({"type": "distracted", "combatant": "ronan", "faces": [2, 3]}, "player", "ronan")
    t.apply(aim, role="player", seat="ronan")
    assert t.state["pending"]["advantage"] == 1


# -- item 8: no rest mid-fight; the end of the Scene ends the fight -----------------------------


def test_a_rest_is_refused_while_the_fight_goes_on(tmp_path):
    # 000:295 "Short Rest: an hour of genuine downtime"; 000:296 "a full, largely
    # uninterrupted night's sleep": neither fits inside a round.
    t = _ronan_vs(tmp_path, soak7())
    t.apply({"type": "set", "combatant": "ronan", "field": "health", "value": 2})
    for kind in ("short_rest", "full_night"):
        with pytest.raises(ValueError, match="while the fight goes on"):
            t.apply({"type": kind})
    assert t.state["combatants"]["ronan"]["now"]["health"] == 2


def test_the_end_of_the_scene_ends_the_fight_with_flustered(tmp_path):
    # 000 "Poise": Flustered lasts "until the end of the Scene" (RULES.md decided): the Scene
    # can't end while its fight goes on, so ending it ends the fight too; then a rest is fine.
    t = _ronan_vs(tmp_path, soak7())
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 3})
    assert "Flustered" in t.state["combatants"]["ronan"]["conditions"]
    events = t.apply({"type": "end_scene"})
    assert [e["type"] for e in events][-1] == "fight_closed"
    assert t.state["phase"] == "setup" and t.state["up"] is None
    assert "Flustered" not in t.state["combatants"]["ronan"]["conditions"]
    t.apply({"type": "short_rest"})


# -- item 9: a helper must be Trained for a weapon's or a Gift's attack too ---------------------


def _ronan_helps_the_brick(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    _, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {"ronan": 10, "the-brick": 5, "opponent": 1})
    t.apply({"type": "help", "combatant": "ronan", "ally": "the-brick"}, "player", "ronan")
    t.apply({"type": "end_turn"})
    assert t.state["up"] == "the-brick"
    return t


def _labels(t) -> list:
    return [s[0] for s in t.state["pending"]["sources"]]


def test_a_helper_without_the_weapon_gives_no_advantage(tmp_path):
    # 000:79 "Somebody who is at least Trained in the Skill you're rolling can help"; RULES.md
    # Core Roll "a helper at least Trained". Ronan has no Crowbar: he can't help swing one.
    t = _ronan_helps_the_brick(tmp_path)
    crowbar = {"type": "attack", "attacker": "the-brick", "target": "opponent", "attack": 1}
    with pytest.raises(ValueError, match="Crowbar"):
        t.apply({**crowbar, "helpers": ["ronan"]})
    t.apply(crowbar)
    assert "Trained helper" not in _labels(t) and t.state["pending"]["helpers"] == []
    t.apply({"type": "roll", "faces": [9, 9]})
    # His help still waits: the Brick's Fists, which Ronan fights with too, take it.
    t.apply({"type": "attack", "attacker": "the-brick", "target": "opponent", "attack": 0})
    assert "Trained helper" in _labels(t) and t.state["pending"]["helpers"] == ["ronan"]


def test_a_gift_attack_is_helped_only_by_someone_with_the_gift(tmp_path):
    # 000:79; the Brick has no Onslaught, so his help can't reach Ronan's Onslaught.
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
    _, t = new_table(tmp_path, enc)
    start_and_declare(t, {}, {"ronan": 5, "the-brick": 10, "opponent": 1})
    t.apply({"type": "help", "combatant": "the-brick", "ally": "ronan"})
    t.apply({"type": "end_turn"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 1})
    assert t.state["pending"]["helpers"] == []


# -- item 1: Help reaches every roll, not only attacks ------------------------------------------


def _helping(t) -> str | None:
    return t.state["combatants"]["ronan"]["carried"].get("helping")


def test_help_reaches_a_skill_roll(tmp_path):
    # 001:145 "Help (one action) - if you're at least Trained in the Skill, an ally's next
    # roll has Advantage"; 000:79. Ronan is Trained in Perception, the Brick is not.
    t = _ronan_helps_the_brick(tmp_path)
    command = {"type": "skill_roll", "combatant": "the-brick", "skill": "Perception"}
    events = t.apply({**command, "difficulty": 5, "faces": [9, 2, 3]})
    data = events[0]["data"]
    assert ["Trained helper", 1] in data["sources"] and data["helpers"] == ["ronan"]
    assert data["total"] == 5 and data["outcome"] == "success"  # lowest two of 9, 2, 3
    assert _helping(t) is None  # one Help, one roll


def test_help_waits_for_a_roll_the_helper_is_trained_for(tmp_path):
    # 000:79: Ronan is Untrained in Charm, so his Help can't reach the Brick's Charm roll.
    t = _ronan_helps_the_brick(tmp_path)
    command = {"type": "skill_roll", "combatant": "the-brick", "skill": "Charm", "faces": [4, 4]}
    events = t.apply(command)
    assert events[0]["data"]["helpers"] == [] and _helping(t) == "the-brick"


def test_help_reaches_a_grab(tmp_path):
    # 001:145 "an ally's next roll has Advantage"; 001:143 Grab is "an attack roll".
    t = _ronan_helps_the_brick(tmp_path)
    command = {"type": "grab", "attacker": "the-brick", "target": "opponent"}
    events = t.apply({**command, "faces": [9, 1, 2], "potence_faces": [1] * 6})
    data = events[0]["data"]
    assert ["Trained helper", 1] in data["sources"] and data["to_hit"]["total"] == 3
    assert _helping(t) is None


def test_helpers_share_a_skill_rolls_catastrophe(tmp_path):
    # 000:81 "On a catastrophic failure, whoever was helping is caught in it too".
    t = _ronan_helps_the_brick(tmp_path)
    command = {"type": "skill_roll", "combatant": "the-brick", "skill": "Perception"}
    t.apply({**command, "faces": [10, 10, 10]})
    assert "Off Balance" in t.state["combatants"]["ronan"]["conditions"]


# -- item 7: every roll takes circumstances, the off hand and Taking Your Time ------------------


def test_a_skill_roll_takes_the_gms_sources_the_off_hand_and_taking_your_time(tmp_path):
    # 000:45 "When an event, gift, ally, environmental effect, etc. would benefit you";
    # 000:61 "Off-hand ... is at Disadvantage"; 000:93 "Take the next Time Band up ... and
    # roll with Advantage". Ronan is Adept at Research (+1, the 000:51 example).
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    dark = {"name": "No power", "effect": "disadvantage", "reason": "the library is dark"}
    command = {"type": "skill_roll", "combatant": "ronan", "skill": "Research"}
    with pytest.raises(PermissionError, match="GM"):
        t.apply({**command, "situational": [dark]}, "player", "ronan")
    events = t.apply(
        {**command, "situational": [dark], "off_hand": True, "taking_time": True, "faces": [5, 5]}
    )
    labels = [s[0] for s in events[0]["data"]["sources"]]
    assert "No power (GM: the library is dark)" in labels
    assert {"Off hand", "Taking your time", "Adept or better"} <= set(labels)
    assert events[0]["data"]["taking_time"] is True
    # +1 Adept +1 time -1 dark -1 off hand = 0: two dice, a plain roll.
    assert events[0]["data"]["faces"] == [5, 5]


def test_no_taking_your_time_in_a_fight(tmp_path):
    # 000:93 "If nothing is coming and nobody is watching".
    t = _ronan_vs(tmp_path, soak7())
    command = {"type": "skill_roll", "combatant": "ronan", "skill": "Research"}
    with pytest.raises(ValueError, match="nobody is watching"):
        t.apply({**command, "taking_time": True, "faces": [5, 5]})


def test_an_escape_takes_the_off_hand(tmp_path):
    # 000:61 "anything where which hand is doing it actually matters - is at Disadvantage".
    t = _ronan_vs(tmp_path, soak7())
    hold = {"type": "set_condition", "combatant": "ronan", "condition": "Grabbed"}
    t.apply(hold)
    command = {"type": "escape", "combatant": "ronan", "off_hand": True, "faces": [1, 2, 3]}
    events = t.apply(command)
    assert ["Off hand", -1] in events[0]["data"]["sources"]


# -- item 10: a failed Gift Check costs no Ki under the default rules ---------------------------


def test_a_failed_gift_check_costs_no_ki_by_default(tmp_path):
    # 000:229 "you roll 2d10 and your current Ki is your target number": no price for a
    # failure. 002:131 "Fail, and you lose 1 Ki" is 002's reading (its switch, test_table_gifts).
    hacker = "the-nerdy-hacker"
    _, t = new_table(tmp_path, encounter(roster("nerdy_hacker.yaml"), foes=[soak7()]))
    start_and_declare(t, {}, {hacker: 10, "opponent": 1})
    t.apply({"type": "attack", "attacker": hacker, "target": "opponent", "attack": 2})
    ki = t.state["combatants"][hacker]["ki"]
    events = t.apply({"type": "roll", "faces": [9, 10]})  # 19 over TN 13: a failure
    assert (events[0]["data"]["outcome"], events[0]["data"]["ki_lost"]) == ("failure", 0)
    assert t.state["combatants"][hacker]["ki"] == ki
    assert t.state["pending"]["step"] == "to_hit"


# -- item 6: the Untrained social attack stays once a social Skill is Trained -------------------


def test_the_untrained_social_attack_stays_beside_a_trained_one(tmp_path):
    # 000:175 "Untrained. One die": Ronan, Trained in Intimidation, may still trade an insult
    # with a Skill he never trained.
    t = _ronan_vs(tmp_path, soak7())
    attacks = [x["name"] for x in t.state["combatants"]["ronan"]["attacks"]]
    assert "Intimidation (Trained)" in attacks and "An insult (Untrained)" in attacks
    index = attacks.index("An insult (Untrained)")
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": index})
    assert (t.state["pending"]["kind"], t.state["pending"]["dice"]) == ("social", 1)


# -- item 5: a Descriptor argues a social attack's Element --------------------------------------


def _intimidation(t) -> int:
    names = [x["name"] for x in t.state["combatants"]["ronan"]["attacks"]]
    return names.index("Intimidation (Trained)")


def test_a_descriptor_argues_a_social_attacks_element_the_gm_confirms(tmp_path):
    # 000:197 "As with any Skill, you can argue for a different Element in the moment if
    # you've got a Descriptor that backs it"; 002:5 (Persuasion played cold, with Earth).
    # Ronan: Fire 5, Earth 6; the opponent's Social Defense 5 (soak7: Psyche 5).
    t = _ronan_vs(tmp_path, soak7())
    attack = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    t.apply({**attack, "attack": _intimidation(t), "approach": "Earth"}, "player", "ronan")
    p = t.state["pending"]
    assert (p["step"], p["element"]) == ("approach", "Earth")  # waits for the GM
    with pytest.raises(ValueError, match="confirm"):
        t.apply({"type": "roll", "faces": [5, 5]}, "player", "ronan")
    t.apply({"type": "attack_ruling", "approach": "Earth"})
    p = t.state["pending"]
    assert (p["step"], p["element"], p["tn"]) == ("to_hit", "Earth", 6 + p["defense"])


def test_the_gm_sets_a_social_attacks_element_at_once(tmp_path):
    # 000:197; RULES.md (decided): "the GM confirms or changes it".
    t = _ronan_vs(tmp_path, soak7())
    attack = {"type": "attack", "attacker": "ronan", "target": "opponent"}
    t.apply({**attack, "attack": _intimidation(t), "approach": "Earth"})
    assert (t.state["pending"]["step"], t.state["pending"]["element"]) == ("to_hit", "Earth")
    t.apply({"type": "attack_ruling", "approach": "Fire"})
    assert t.state["pending"]["element"] == "Fire"


# -- item 11: a Full Night asks about Flustered (the sheet: tests/views/test_sheet_file_words.py)


def test_a_full_night_asks_the_gm_about_flustered(tmp_path):
    # 000 "Poise": Flustered lasts "until the end of the Scene"; whether a night ended the
    # Scene is the GM's call (issue 32 item 11): the log asks instead of saying nothing.
    _, t = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
    t.apply({"type": "full_night"})
    assert "Flustered" in t.state["combatants"]["ronan"]["conditions"]
    line = t.view_for("gm")["log"][-1]["text"]
    assert "Still Flustered until the Scene ends: Ronan." in line
    assert "The GM ends it to clear Flustered" in line


def test_the_gms_sources_and_help_reach_the_roll_to_hold_focus(tmp_path):
    # 000:45 (the GM's circumstances); 001:145 "an ally's next roll has Advantage"; the roll
    # to hold focus is a Core Roll of Atropos + Difficulty (RULES.md, decided).
    t = _ronan_helps_the_brick(tmp_path)
    ask = {"type": "set_condition", "combatant": "the-brick", "condition": "Distracted"}
    t.apply({**ask, "until": "round", "difficulty": 5})
    noise = {"name": "Alarms", "effect": "disadvantage", "reason": "the sirens wail"}
    command = {"type": "distracted", "combatant": "the-brick", "situational": [noise]}
    events = t.apply({**command, "faces": [3, 4]})  # +1 help -1 alarms: two dice
    data = events[0]["data"]
    assert ["Alarms (GM: the sirens wail)", -1] in data["sources"]
    assert ["Trained helper", 1] in data["sources"] and data["helpers"] == ["ronan"]
    assert t.state["combatants"]["ronan"]["carried"].get("helping") is None


def test_taking_your_time_reaches_the_002_shake_off_roll(tmp_path):
    # 000:93 "roll with Advantage"; out of a fight. Flustered puts the Social roll at
    # Disadvantage (RULES.md, decided): -1 +1 = a plain roll of two dice.
    from tb_playground.models import Ruleset

    enc = encounter(roster("ronan.json"), foes=[soak7()])
    enc.ruleset = Ruleset(flustered_shaken_off=True)
    _, t = new_table(tmp_path, enc)
    t.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
    command = {"type": "shake_off", "combatant": "ronan", "taking_time": True}
    events = t.apply({**command, "faces": [2, 3]})
    assert events[0]["data"]["taking_time"] is True and events[0]["data"]["faces"] == [2, 3]
    assert "Flustered" not in t.state["combatants"]["ronan"]["conditions"]
