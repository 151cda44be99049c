"""After the fight, a phone offers only the Ki and Fate spends the table still takes (issue 20).

"Phones still offer Spend Ki and Fate controls after the fight is over": in the "over" phase
the players' page asks ``table.menu.spends`` (each spend tried on ``decide``) and shows only
those; with none, the row hides. Ki back from 0 Poise (rules/000 "Ki": "When your Poise or
Sanity is at zero or below, you may spend 1 Ki point") is not bound to a fight, so it stays
offered when it applies.
"""

from __future__ import annotations

import pytest
from table_helpers import FIRST_RONAN, fight

from tb_playground.service import CombatService
from tb_playground.table.menu import spends
from tb_playground.views.combat.table_page import TablePage


@pytest.fixture
def world(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    table = service.create("Over", fight())
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    page = TablePage(service)
    page._found, page.code = table, table.view_for("gm")["join_code"]
    assert page.join("ronan")
    yield service, table, page
    service.store.close()


def _end_fight(table) -> None:
    for cid in ("guard-dog", "nightmare"):
        low = -table.state["combatants"][cid]["max"]["health"]
        table.apply({"type": "set", "combatant": cid, "field": "health", "value": low})
    assert table.state["phase"] == "over"


def _offered(page) -> tuple[list, list]:
    spend = page.spend
    ki = list(spend.ki_purpose.options.values()) if spend.ki_purpose.visible else []
    fate = list(spend.fate_kind.options.values()) if spend.fate_kind.visible else []
    return ki, fate


def test_after_the_fight_the_spends_the_table_takes(world):
    service, table, page = world
    page.refresh()
    assert page.spend.row.visible  # during the fight: the spends as before
    everything = list(page.spend.fate_kind.options.values())
    assert len(everything) > 3 and page.spend.ki_purpose.visible
    _end_fight(table)
    page.refresh()
    allowed = spends(table.state, "player", "ronan", "ronan")
    assert allowed["ki"] == []  # Poise and Sanity are above 0
    ki, fate = _offered(page)
    assert ki == [] and not page.spend.ki_button.visible
    assert fate == [k for k in everything if k in allowed["fate"]]
    assert "automatic success" not in fate and "get back up" not in fate
    for kind in everything:  # offered exactly when the table takes it
        command = {"type": "spend_fate", "combatant": "ronan", "spend": kind}
        copy = service.store.import_events(table.events, name=f"copy {kind}")
        try:
            copy.apply(command, role="player", seat="ronan")
            taken = True
        except ValueError:
            taken = False
        assert taken == (kind in fate), kind
    table.apply({"type": "continue"})  # the GM goes on with the fight: all of them again
    page.refresh()
    assert list(page.spend.fate_kind.options.values()) == everything
    assert page.spend.ki_purpose.visible


def test_nothing_left_hides_the_row(world):
    service, table, page = world
    page.refresh()
    me = next(c for c in table.view_for("player", "ronan")["combatants"] if c["id"] == "ronan")
    page.spend.show(me, {"ki": [], "fate": {}})
    assert not page.spend.row.visible
    page.spend.show(me)
    assert page.spend.row.visible


def test_only_what_the_table_takes_after_the_fight(world):
    service, table, page = world
    _end_fight(table)
    table.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": 0})
    table.apply({"type": "set_condition", "combatant": "ronan", "condition": "Off Balance"})
    page.refresh()
    assert page.spend.row.visible
    ki, fate = _offered(page)
    assert ki == ["restore poise"]
    allowed = spends(table.state, "player", "ronan", "ronan")
    assert fate == [k for k in page.spend.fate_kind.options.values() if k in allowed["fate"]]
    assert "automatic success" not in fate  # no roll waits for its dice
    # Each one offered is taken by the table; each one left out is refused.
    version = table.version
    for kind in ("automatic success", "get back up"):
        with pytest.raises(ValueError):
            table.apply({"type": "spend_fate", "combatant": "ronan", "spend": kind},
                        role="player", seat="ronan")  # fmt: skip
    assert table.version == version
    page.spend.ki_purpose.value = "restore poise"
    page.spend.ki_button.clicks += 1
    assert table.state["combatants"]["ronan"]["now"]["poise"] == 1
    page.refresh()
    assert _offered(page)[0] == []
