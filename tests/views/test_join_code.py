"""The join code as typed (issue 20): spaces and dashes are fine. Panel-free: no server."""

from __future__ import annotations

import pytest

from tb_playground.views.kit.code_input import join_code_typed


@pytest.mark.parametrize(
    "typed", ["487915", "487 915", "487-915", " 487 915 ", "487–915", "48 79 15", "487\t915"]
)
def test_spaces_and_dashes_are_read_away(typed):
    assert join_code_typed(typed) == "487915"


def test_what_is_not_text_is_no_code():
    assert join_code_typed(None) == "" and join_code_typed(487915) == ""
    assert join_code_typed(" - ") == ""


def test_the_page_finds_a_table_by_a_spaced_code(tmp_path):
    from table_helpers import encounter, roster

    from tb_playground.service import CombatService
    from tb_playground.views.combat.table_page import TablePage

    service = CombatService(tmp_path / "tables.sqlite", gm_key="k")
    table = service.create("T", encounter(roster("ronan.json"), foes=[roster("guard_dog.yaml")]))
    code = table.view_for("gm")["join_code"]
    page = TablePage(service)
    page.code_input.value = f"{code[:3]} {code[3:]}"
    page.code_input.entered += 1  # Enter in the box
    assert page.seat_row.visible and page.code == code
    page.close()
    service.store.close()
