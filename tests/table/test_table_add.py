"""The GM adds a character or creature from its file mid-fight (issue 9, "add creatures").

The joiner's record is the one the table would have made at creation (``combatant_record``);
once the fight has started it rolls Initiative (rules/000 "Combat Order") and takes its place.
"""

from __future__ import annotations

import copy

import pytest
from table_helpers import ROSTER, encounter, new_table, roster, start_and_declare

from tb_playground.models.combatants import combatant_record
from tb_playground.models.encounter import Combatant
from tb_playground.models.files import parse
from tb_playground.table import TableStore
from tb_playground.table.fight_rules import initiative_order


def document(name: str) -> dict:
    return parse((ROSTER / name).read_text(), None, name)


@pytest.fixture
def table(tmp_path):
    store, table = new_table(
        tmp_path, encounter(roster("ronan.json"), foes=[roster("guard_dog.yaml")])
    )
    yield table
    store.close()


def test_in_setup_the_joiner_is_the_record_the_table_would_have_made(table):
    table.apply({"type": "add", "document": document("grizzly_bear.yaml"), "side": "Foes"})
    state = table.state
    assert state["ids"] == ["ronan", "guard-dog", "grizzly-bear"]
    bear = state["combatants"]["grizzly-bear"]
    expected = combatant_record(
        Combatant(side="Foes", who=roster("grizzly_bear.yaml")), "grizzly-bear"
    )
    for key, value in expected.items():
        if key != "conditions":
            assert bear[key] == value, key
    assert bear["initiative"] is None and bear["hidden"] is False
    # A second one gets its own id; a new side is added to the sides.
    table.apply({"type": "add", "document": document("grizzly_bear.yaml"), "side": "Wild"})
    assert table.state["ids"][-1] == "grizzly-bear-2"
    assert table.state["sides"][-1] == "Wild"


def test_after_the_start_it_rolls_initiative_and_takes_its_place(tmp_path, table):
    start_and_declare(table, {}, initiative={"ronan": 5, "guard-dog": 5})
    before = copy.deepcopy(table.state)
    table.apply(
        {"type": "add", "document": document("grizzly_bear.yaml"), "side": "Foes", "initiative": 10}
    )
    state = table.state
    bear = state["combatants"]["grizzly-bear"]
    assert bear["initiative"] == {"face": 10, "total": 10 + bear["initiative_stat"]}
    faces = {"ronan": 5, "guard-dog": 5, "grizzly-bear": 10}
    assert state["initiative_order"] == initiative_order(state, faces)
    assert state["initiative_order"][0] == "grizzly-bear"  # 10 + its Initiative beats 5 + any
    gm_log = table.view_for("gm")["log"]
    assert any("Grizzly bear joins the fight (Foes, Initiative" in e["text"] for e in gm_log)
    # The log is the state: a second store over the same file folds to the same thing.
    again = TableStore(tmp_path / "tables.sqlite").open(table.name)
    assert again.state["combatants"]["grizzly-bear"] == bear
    assert again.state["initiative_order"] == state["initiative_order"]
    # Undo takes it out again, exactly.
    table.apply({"type": "undo"})
    assert table.state["ids"] == before["ids"]
    assert "grizzly-bear" not in table.state["combatants"]
    assert table.state["initiative_order"] == before["initiative_order"]


def test_a_hidden_joiner_never_reaches_a_player(table):
    table.apply(
        {"type": "add", "document": document("nightmare.yaml"), "side": "Foes", "hidden": True}
    )
    gm = table.view_for("gm")
    player = table.view_for("player", "ronan")
    assert "Nightmare" in str(gm)
    assert "Nightmare" not in str(player) and "nightmare" not in str(player)


def test_refusals_write_nothing(table):
    version = table.state["version"]
    with pytest.raises(PermissionError, match="only the GM"):
        table.apply(
            {"type": "add", "document": document("guard_dog.yaml"), "side": "Foes"},
            role="player",
            seat="ronan",
        )
    with pytest.raises(ValueError, match="document: .*encounter, not a character or creature"):
        table.apply(
            {"type": "add", "document": document("warehouse.encounter.yaml"), "side": "Foes"}
        )
    bad = document("guard_dog.yaml")
    bad["data"]["health"] = -3
    with pytest.raises(ValueError, match="document: .*health"):
        table.apply({"type": "add", "document": bad, "side": "Foes"})
    with pytest.raises(ValueError, match="side"):
        table.apply({"type": "add", "document": document("guard_dog.yaml"), "side": ""})
    start_and_declare(table, {})
    version = table.state["version"]
    with pytest.raises(ValueError, match="initiative.*1.*10"):
        table.apply(
            {
                "type": "add",
                "document": document("guard_dog.yaml"),
                "side": "Foes",
                "initiative": 11,
            }
        )
    assert table.state["version"] == version


def test_the_gm_pages_control_adds_from_a_roster_file_or_an_upload(tmp_path, table):
    """The view reads the file and sends the command; refusals show as plain sentences."""
    from tb_playground.service import CombatService
    from tb_playground.views.combat.add_combatant import AddCombatant

    sent = []

    def send(command, then=None):
        try:
            table.apply(command)
        except (ValueError, PermissionError):
            return
        sent.append(command)
        if then is not None:
            then()

    files = CombatService(tmp_path / "other.sqlite", gm_key="k").creature_files()
    adder = AddCombatant(send, files)
    assert "Grizzly bear" in adder.pick.groups["Creatures"]  # names, not files (issue 31)
    assert adder.add() is False  # nothing picked yet
    assert "Pick a roster file" in adder.message.object
    adder.pick.value = adder.pick.groups["Creatures"]["Grizzly bear"]
    adder.side.value = "Wild"
    adder.hidden.value = True
    assert adder.add() is True
    assert table.state["combatants"]["hidden-1"]["hidden"] is True
    assert table.state["combatants"]["hidden-1"]["side"] == "Wild"
    # An upload wins over the picked file; a bad one is a sentence, and nothing is added.
    adder.upload.filename = "oops.yaml"
    adder.upload.value = b"kind: creature\nschema_version: 1\ndata: {name: <b>x</b>, health: -1}\n"
    version = table.state["version"]
    adder.add()  # sent; the table refuses it (the page says why)
    assert table.state["version"] == version and "Added" not in adder.message.object
    adder.upload.value = b"{not json"
    assert adder.add() is False
    assert "<b>" not in adder.message.object and "Traceback" not in adder.message.object
    assert "oops.yaml" in adder.message.object
