"""Every command from a page carries the version it was made on (issue 33, item 4).

Two GM screens pressing End turn together ended two turns: the GM page sent
``expected_version`` for undo and redo only. A page's command now goes with the version of the
table the page last drew; a command made on a table that moved on since is refused in words.
Pages outside a server redraw at once, so a served page's moment between an event and its
redraw is made here by putting back the view it drew.
"""

from __future__ import annotations

import pytest
from table_helpers import FIRST_RONAN, fight

from tb_playground.service import CombatService
from tb_playground.views.combat.gm_page import GMPage
from tb_playground.views.combat.table_page import TablePage

KEY = "k" * 16


@pytest.fixture
def world(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key=KEY)
    table = service.create("Versions", fight())
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    for cid in table.state["ids"]:
        if table.state["phase"] == "declare" and not table.state["combatants"][cid]["hidden"]:
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    yield service, table
    service.store.close()


def test_two_gm_screens_pressing_end_turn_together_end_one_turn(world):
    service, table = world
    one, two = GMPage(service, key=KEY), GMPage(service, key=KEY)
    one.open_table("Versions")
    two.open_table("Versions")
    assert table.state["phase"] == "resolve"
    up, version = table.state["up"], table.version
    drawn = two.view  # both screens show the same table
    one.send({"type": "end_turn"})
    assert table.version == version + 1 and table.state["up"] != up
    two.view = drawn  # the second screen has not drawn the change yet
    two.send({"type": "end_turn"})
    assert table.version == version + 1  # one turn ended, not two
    said = two.message.object
    assert "The table moved on while you looked" in said and "Look again" in said
    two.refresh()  # once it drew the table as it is, the same button works
    two.send({"type": "end_turn"})
    assert table.version == version + 2
    one.close()
    two.close()


def test_a_phone_tapping_on_an_old_table_is_refused_in_words(world):
    service, table = world
    code = table.view_for("gm")["join_code"]
    page = TablePage(service)
    page._found, page.code = table, code  # as ``find`` leaves it
    page.join("ronan")
    while table.state["up"] != "ronan":
        table.apply({"type": "end_turn"})
    drawn, version = page.view, table.version
    assert drawn["version"] == version
    table.apply({"type": "note", "text": "the GM moved first"})
    page.view = drawn  # not redrawn yet
    page.send({"type": "end_turn"})
    assert table.version == version + 1
    assert "The table moved on while you looked" in page.message.object
