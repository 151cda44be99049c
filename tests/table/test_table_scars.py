"""Marks and scars at the table (issue 19, item 7), through ``Table.apply`` only.

rules/000 "Scars" (lines ~311-333): "At 0, whichever Vital it was leaves a mark that's only for
show" (~315); "Below 0, you take a scar ... Health leaves a Physical scar, Poise a Social one,
Sanity a Mental one. Your GM picks it" (~317); "One scar per crossing. Go below 0, heal back up,
go below again, and that's a second scar. Going deeper in one fall doesn't add another, and you
can't take the same one twice" (~319); "Healing a scar always counts how far below 0 you went"
(~323). Sanity (~274, ~276): at 0 "a temporary Mental scar effect for as long as it lasts"; at
the bottom "a temporary Mental scar effect and your Sanity resets to 0". rules/002 line ~93:
"dropping below 0 can instead impose a real Flaw until you're fully healed back to 0".
"""

from __future__ import annotations

import json

import pytest
from table_helpers import ROSTER, encounter, new_table, roster, soak7, start_and_declare

from tb_playground.models import Character
from tb_playground.models.files import loads


def _set(t, field, value, who="ronan"):
    return t.apply({"type": "set", "combatant": who, "field": field, "value": value})


def _forms(t, who="ronan"):
    return [(s["form"], s["vital"], s["depth"]) for s in t.state["combatants"][who]["scars"]]


@pytest.fixture
def table(tmp_path):
    # The Opponent (rules/000's Soak 7 foe, a Jab of 2 dice at Element 3) goes first.
    ronan = roster("ronan.json")
    ronan.armor = []  # his jacket would take the Jabs (rules/002 "What Does Armor Do?")
    _, t = new_table(tmp_path, encounter(ronan, foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 1, "opponent": 10})
    assert t.state["up"] == "opponent"
    return t


@pytest.fixture
def table_with_brick(tmp_path):
    # The Brick stands beside Ronan, so the fight goes on while Ronan is at 0 (RULES.md: a
    # fight is over when one side has no one able to act).
    ronan = roster("ronan.json")
    ronan.armor = []
    _, t = new_table(tmp_path, encounter(ronan, roster("the_brick.json"), foes=[soak7()]))
    start_and_declare(t, {}, {"ronan": 1, "the-brick": 1, "opponent": 10})
    assert t.state["up"] == "opponent"
    return t


def _jab(t, damage):
    """The Opponent's Jab at Ronan: TN 3 + Ronan's Physical Defense 7; a kept 7 hits."""
    t.apply({"type": "attack", "attacker": "opponent", "target": "ronan"})
    t.apply({"type": "roll", "faces": [3, 4]})
    return t.apply({"type": "roll", "faces": damage})


def test_a_scar_when_health_crosses_below_0_one_per_crossing(table_with_brick):
    t = table_with_brick
    _set(t, "ki", 0)  # no prevention step
    _set(t, "health", 1)
    events = _jab(t, [10, 10])  # two dice over Soak 5; one attack stops at 0 (000 ~281)
    assert t.state["combatants"]["ronan"]["now"]["health"] == 0
    assert _forms(t) == [("mark", "health", 0)]  # 000 ~315: at 0, a mark only for show
    assert events[-1]["data"]["scars"][0]["added"] == [["mark", "health"]]
    events = _jab(
        t, [10, 1]
    )  # at 0 an attack takes one level (000 ~283): -1, a crossing (000 ~317)
    assert t.state["combatants"]["ronan"]["now"]["health"] == -1
    assert _forms(t) == [("mark", "health", 0), ("scar", "health", 1)]
    line = t.view_for("player", "ronan")["log"][-1]["text"]
    assert line.endswith("Ronan: Health leaves a lasting Physical scar.")
    # Deeper in the same fall: no second scar, but it counts deeper (000 ~319, ~323).
    _set(t, "health", -3)
    assert _forms(t) == [("mark", "health", 0), ("scar", "health", 3)]
    # Heal back up to 0 and go below again: a second scar.
    _set(t, "health", 0)
    _set(t, "health", -2)
    assert _forms(t) == [("mark", "health", 0), ("scar", "health", 3), ("scar", "health", 2)]


def test_the_gm_names_a_scar_never_the_same_twice_and_heals_it(table):
    t = table
    _set(t, "health", -1)
    _set(t, "health", 0)
    _set(t, "health", -1)
    scars = t.view_for("player", "ronan")["combatants"][0]["scars"]
    assert [(s["index"], s["form"], s["kind"]) for s in scars] == [
        (0, "mark", "Physical"),  # a GM override from 5 to -1 passes 0: a mark too
        (1, "scar", "Physical"),
        (2, "scar", "Physical"),
    ]
    name = {"type": "name_scar", "combatant": "ronan", "scar": 1, "effect": "a limp"}
    with pytest.raises(PermissionError):  # 000 ~317: "Your GM picks it"
        t.apply(name, role="player", seat="ronan")
    t.apply(name)
    before = json.dumps(t.state, sort_keys=True)
    with pytest.raises(ValueError, match="can't take the same one twice"):
        t.apply({**name, "scar": 2, "effect": "A limp"})
    assert json.dumps(t.state, sort_keys=True) == before
    assert t.view_for("gm")["log"][-1]["text"] == "The GM names Ronan's scar: a limp."
    t.apply({"type": "heal_scar", "combatant": "ronan", "scar": 1})
    assert _forms(t) == [("mark", "health", 0), ("scar", "health", 1)]
    assert t.view_for("gm")["log"][-1]["text"] == "Ronan's scar from Health (a limp) is gone."


def test_sanity_at_0_and_at_the_bottom_bring_a_temporary_mental_scar_effect(table):
    t = table
    top = t.state["combatants"]["ronan"]["max"]["sanity"]
    _set(t, "sanity", 0)  # Overwhelmed: a temporary effect "for as long as it lasts" (000 ~274)
    assert _forms(t) == [("mark", "sanity", 0), ("temporary", "sanity", 0)]
    _set(t, "sanity", 2)  # no longer Overwhelmed: the temporary effect ends
    assert _forms(t) == [("mark", "sanity", 0)]
    _set(t, "sanity", -(top - 1))  # Shattered: a lasting Mental scar (000 ~275)
    assert _forms(t)[-1] == ("scar", "sanity", top - 1)


def test_sanity_hitting_the_bottom_through_an_attack(tmp_path):
    # 000 ~276: "Hit the bottom and you pick up a temporary Mental scar effect and your Sanity
    # resets to 0"; the fall went to the bottom, so healing counts its full depth (000 ~323).
    hacker = roster("nerdy_hacker.yaml")
    _, t = new_table(tmp_path, encounter(hacker, roster("ronan.json")))
    start_and_declare(t, {}, {"the-nerdy-hacker": 10, "ronan": 1})
    top = t.state["combatants"]["ronan"]["max"]["sanity"]
    _set(t, "ki", 0)
    _set(t, "sanity", -(top - 1))
    t.apply({"type": "attack", "attacker": "the-nerdy-hacker", "target": "ronan", "attack": 2})
    t.apply({"type": "roll", "faces": [5, 6]})  # the Gift Check
    t.apply({"type": "roll", "faces": [1, 2]})  # to hit
    t.apply({"type": "roll", "faces": [10, 10, 10, 10]})  # damage over Psyche 2
    if t.state["pending"]:
        t.apply({"type": "boost", "dice": []})
    assert t.state["combatants"]["ronan"]["now"]["sanity"] == 0
    assert _forms(t)[-2:] == [("scar", "sanity", top), ("temporary", "sanity", 0)]


def test_the_002_reading_a_flaw_until_healed_back_to_0(table):
    # rules/002 line ~93, as a table option (docs/notes/0015-table-rules.md).
    t = table
    with pytest.raises(PermissionError):
        t.apply({"type": "scar_reading", "flaw_until_healed": True}, "player", "ronan")
    t.apply({"type": "scar_reading", "flaw_until_healed": True})
    _set(t, "health", -2)
    assert _forms(t) == [("mark", "health", 0), ("flaw", "health", 2)]
    t.apply({"type": "full_night"})  # one Health level a night below 0 (000 ~309)
    assert _forms(t) == [("mark", "health", 0), ("flaw", "health", 2)]
    _set(t, "health", 0)
    assert _forms(t) == [("mark", "health", 0)]
    assert "the flaw from Health ends" in t.view_for("gm")["log"][-1]["text"]


def test_a_hidden_combatants_scars_stay_out_of_a_players_view(table):
    t = table
    t.apply({"type": "hide", "combatant": "opponent"})
    _set(t, "health", -1, who="opponent")
    t.apply({"type": "short_rest"})
    player = t.view_for("player", "ronan")
    assert all("Opponent" not in line["text"] for line in player["log"])
    assert [c["id"] for c in player["combatants"]] == ["ronan"]


def test_export_writes_the_scars_back_and_the_file_loads(table, tmp_path):
    t = table
    _set(t, "health", -2)
    t.apply({"type": "name_scar", "combatant": "ronan", "scar": 1, "effect": "a limp"})
    t.apply({"type": "set_condition", "combatant": "ronan", "condition": "Prone"})
    docs = t.export_party()
    assert [d["data"]["name"] for d in docs] == ["Ronan"]
    data = docs[0]["data"]
    assert data["health_lost"] == t.state["combatants"]["ronan"]["max"]["health"] + 2
    assert data["scars"] == [
        {"effect": "", "vital": "health", "form": "mark", "depth": 0},
        {"effect": "a limp", "vital": "health", "form": "scar", "depth": 2},
    ]
    again = loads(json.dumps(docs[0]), kind="character")
    assert isinstance(again, Character)
    assert (again.health_now, again.conditions) == (-2, ["Prone"])
    assert [(s.form, s.effect, s.depth) for s in again.scars] == [
        ("mark", "", 0),
        ("scar", "a limp", 2),
    ]
    # The next fight starts with the scar on the card; an old file with no scars still loads.
    _, t2 = new_table(tmp_path / "next", encounter(again, foes=[soak7()]))
    assert [s["effect"] for s in t2.view_for("gm")["combatants"][0]["scars"]] == ["", "a limp"]
    assert "scars" not in json.loads((ROSTER / "ronan.json").read_text())["data"]
    assert roster("ronan.json").scars == []
