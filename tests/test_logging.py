"""The package's log lines: one line each, at the right level, errors with their traceback.

A failing subscriber (ERROR with its traceback, the table goes on), a refused upload (WARNING,
the reason but not the file), a table created or opened (INFO, its name and file), the server's
start with its data file (INFO). The library configures no output but a NullHandler; the
server's start-up hook prints the records (issue 22).
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest
from table_helpers import ROSTER, encounter, new_table, roster, soak7

from tb_playground.table import TableStore

#: A marker in the refused files: the log line carries the reason, never the file itself.
MARK = "zq-file-content-zq"


def _ours(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("tb_playground")]


@pytest.fixture
def caplog(caplog):
    caplog.set_level(logging.DEBUG, logger="tb_playground")
    return caplog


def test_the_package_logger_has_only_a_null_handler():
    import tb_playground  # noqa: F401

    handlers = logging.getLogger("tb_playground").handlers
    assert handlers and all(isinstance(h, logging.NullHandler) for h in handlers)


def test_a_table_created_and_opened_is_one_info_line_each(tmp_path, caplog, capsys):
    store, table = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    (created,) = _ours(caplog)
    assert created.levelno == logging.INFO and created.name == "tb_playground.table.store"
    assert "'T'" in created.getMessage() and str(store.path) in created.getMessage()
    caplog.clear()
    assert store.open("T") is table  # already open: nothing read, nothing logged
    assert _ours(caplog) == []
    store.close()
    again = TableStore(tmp_path / "tables.sqlite")
    again.open("T")
    (opened,) = _ours(caplog)
    assert opened.levelno == logging.INFO and "opened" in opened.getMessage()
    assert "'T'" in opened.getMessage() and str(again.path) in opened.getMessage()
    assert capsys.readouterr() == ("", "")


def test_a_failing_subscriber_is_logged_with_its_traceback(tmp_path, caplog, capsys):
    _store, table = new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))
    seen = []

    def broken(version, events):
        raise RuntimeError("the page broke")

    table.subscribe(broken)
    table.subscribe(lambda version, events: seen.append(version))
    caplog.clear()
    events = table.apply({"type": "start"})  # does not raise
    assert events and seen == [table.version]  # the others still hear of it
    (record,) = _ours(caplog)
    assert record.levelno == logging.ERROR
    assert "'T'" in record.getMessage() and "subscriber" in record.getMessage()
    assert record.exc_info and record.exc_info[0] is RuntimeError
    assert "the page broke" in caplog.text and "Traceback" in caplog.text
    assert capsys.readouterr() == ("", "")


@pytest.mark.own_thread
def test_a_refused_character_upload_is_one_warning(caplog, capsys):
    from tb_playground.views.character_sheet import CharacterSheet

    sheet = CharacterSheet()
    caplog.clear()
    sheet.file.upload.filename = "bad.json"
    bad = f'{{"kind": "character", "schema_version": 1, "data": {{"earth": 99, "name": "{MARK}"}}}}'
    asyncio.run(sheet.file._on_upload(SimpleNamespace(new=bad.encode())))
    assert "nothing loaded" in sheet.file.message.object
    (record,) = _ours(caplog)
    assert record.levelno == logging.WARNING
    assert record.name == "tb_playground.views.sheet_file"
    assert "bad.json" in record.getMessage() and "earth" in record.getMessage()
    assert MARK not in record.getMessage() and "\n" not in record.getMessage()
    # A good upload logs nothing.
    caplog.clear()
    sheet.file.upload.filename = "ronan.json"
    good = (ROSTER / "ronan.json").read_bytes()
    asyncio.run(sheet.file._on_upload(SimpleNamespace(new=good)))
    assert "Loaded" in sheet.file.message.object and _ours(caplog) == []
    assert capsys.readouterr() == ("", "")


def test_a_refused_upload_to_add_is_one_warning(tmp_path, caplog, capsys):
    from tb_playground.views.combat.add_combatant import AddCombatant

    adder = AddCombatant(lambda command, then=None: None, {})
    adder.upload.filename = "oops.yaml"
    adder.upload.value = (
        f"kind: creature\nschema_version: 1\ndata: {{health: 4, name: [{MARK}\n".encode()
    )
    assert adder.add() is False
    (record,) = _ours(caplog)
    assert (
        record.levelno == logging.WARNING
        and record.name == "tb_playground.views.combat.add_combatant"
    )
    assert "oops.yaml" in record.getMessage() and "YAML" in record.getMessage()
    assert MARK not in record.getMessage() and "\n" not in record.getMessage()
    # Too big a file: its size is the reason.
    caplog.clear()
    adder.upload.value = b"x" * 300_000
    assert adder.add() is False
    (record,) = _ours(caplog)
    assert "300,000 bytes" in record.getMessage() and "xxx" not in record.getMessage()
    # Nothing picked and nothing uploaded: a message on the page, not an upload refused.
    caplog.clear()
    adder.upload.value = None
    assert adder.add() is False and _ours(caplog) == []
    assert capsys.readouterr() == ("", "")


def test_a_refused_encounter_upload_is_one_warning(tmp_path, caplog, capsys):
    from tb_playground.service import CombatService
    from tb_playground.views.combat.gm_page import GMPage

    service = CombatService(tmp_path / "tables.sqlite", gm_key="secret-key")
    gm = GMPage(service, key="secret-key")
    caplog.clear()
    gm.chooser.encounter_upload.filename = "fight.yaml"
    gm.chooser.encounter_upload.value = f"{{not yaml: [{MARK}".encode()
    gm.chooser.create_table()
    assert "fight.yaml" in gm.chooser.message.object
    (record,) = _ours(caplog)
    assert (
        record.levelno == logging.WARNING
        and record.name == "tb_playground.views.combat.gm_table_chooser"
    )
    assert "fight.yaml" in record.getMessage() and "\n" not in record.getMessage()
    assert MARK not in record.getMessage()
    assert service.names() == []
    assert capsys.readouterr() == ("", "")


def test_a_reason_is_one_short_line():
    from tb_playground.formatting import reason_line
    from tb_playground.models.files import FileFormatError

    err = FileFormatError(["data.health: a whole number, got 'x'", "data.name:\n  " + "y" * 500])
    line = reason_line(err)
    assert line.startswith("data.health: a whole number, got 'x'; data.name: yyy")
    assert len(line) == 300 and line.endswith("...") and "\n" not in line
    assert reason_line(ValueError("too\nbig")) == "too big"


def test_the_service_start_names_its_data_file(tmp_path, monkeypatch, caplog, capsys):
    from tb_playground import service as service_module

    monkeypatch.setenv("TB_TABLE_DB", str(tmp_path / "served.sqlite"))
    monkeypatch.setenv("TB_GM_KEY", "a-long-enough-gm-key")
    monkeypatch.setattr(service_module, "_service", None)
    made = service_module.get_service()
    assert service_module.get_service() is made  # once per process
    (record,) = _ours(caplog)
    assert record.levelno == logging.INFO and record.name == "tb_playground.service"
    assert str(tmp_path / "served.sqlite") in record.getMessage()
    assert "tables are kept in" in capsys.readouterr().out  # the printed link, as before


def test_the_server_start_prints_the_records_once(capsys):
    from tb_playground.serve_setup import log_to_console

    logger = logging.getLogger("tb_playground")
    before = (list(logger.handlers), logger.level, logger.propagate)
    try:
        handler = log_to_console()
        assert isinstance(handler, logging.StreamHandler) and logger.propagate is False
        assert log_to_console() is None  # one is enough
        logging.getLogger("tb_playground.table.store").info("table 'T' created in x.sqlite")
        logging.getLogger("tb_playground.table.store").debug("not shown")
        err = capsys.readouterr().err
        assert err.count("table 'T' created in x.sqlite") == 1 and "not shown" not in err
        assert "INFO tb_playground.table.store:" in err
    finally:
        logger.handlers[:] = before[0]
        logger.setLevel(before[1])
        logger.propagate = before[2]
