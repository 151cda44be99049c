"""The GM page says where the table file is and what to do when it lost events (issue 20).

The log's note names the file by its name only (players read the log, note 0008); the GM page
alone shows a line with the file's whole path and what to do (``TableStore.gm_loss``).
"""

from __future__ import annotations

import pytest
from test_table_wal_loss import damaged_copy, fight

import tb_playground.table.store as store_module
from tb_playground.service import CombatService
from tb_playground.table import TableStore
from tb_playground.views.combat.gm_page import GMPage
from tb_playground.views.combat.table_page import TablePage


def test_only_the_gm_page_shows_the_whole_path(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1000)
    path = tmp_path / "live" / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    store.checkpoint()
    for i in range(3):
        table.apply({"type": "note", "text": f"note {i}"})
    lost = damaged_copy(path, tmp_path / "served", "missing")
    store.close()

    service = CombatService(lost, gm_key="k" * 16)
    try:
        gm = GMPage(service, key="k" * 16)
        gm.open_table("T")
        line = gm.board.loss.object
        assert str(lost) in line and f"{lost}-wal" in line
        assert "events 2 to 4, acknowledged, are missing" in line
        assert "backup" in line and "goes on from event" in line
        # The log's note, which players read, names the file only.
        served = service.store.open("T")
        note = served.events[-1]["data"]["text"]
        assert "lost what was saved" in note and str(lost.parent) not in note
        player = served.view_for("player", "ronan")
        assert str(lost.parent) not in str(player)
        phone = TablePage(service)
        phone._found, phone.code = served, served.view_for("gm")["join_code"]
        assert phone.join("ronan")
        phone.refresh()
        assert not hasattr(phone, "loss")
        # Another table of the same file lost nothing: no line.
        service.create("Other", fight())
        gm.open_table("Other")
        assert gm.board.loss.object == ""
    finally:
        service.store.close()


@pytest.mark.parametrize("name", ["T"])
def test_nothing_lost_nothing_said(tmp_path, name):
    store = TableStore(tmp_path / "tables.sqlite")
    store.create(name, fight())
    assert store.gm_loss(name) is None
    store.close()
