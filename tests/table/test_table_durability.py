"""Durable as promised; damage reported with its path and table (issue 21, "Data").

``synchronous=FULL``; a checkpoint every ``CHECKPOINT_EVERY`` events and on close, so the main
file alone holds every event acknowledged before the last checkpoint; ``backup``, ``export`` and
``import`` from the command line; a damaged row makes only its own table unopenable, and the
join-code lookup reads a column without opening every table.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from table_helpers import encounter, roster, soak7

import tb_playground.table.store as store_module
from tb_playground.service import CombatService
from tb_playground.table import SCHEMA_VERSION, TableStore, fold
from tb_playground.table.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def fight():
    return encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])


def notes(table, n, start=0):
    for i in range(start, start + n):
        table.apply({"type": "note", "text": f"note {i}"})


def test_commits_are_synced_and_checkpointed(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    table = store.create("T", fight())
    notes(table, store_module.CHECKPOINT_EVERY - 1)  # 100 events with the "created" one
    # The checkpoint after them: the main file alone holds every event.
    shutil.copy(path, tmp_path / "copy.sqlite")
    assert TableStore(tmp_path / "copy.sqlite").open("T").events == table.events
    # Emptied: a WAL kept for reuse, cut short, would take the table back before it
    # (tests/table/test_table_wal_loss.py).
    assert os.path.getsize(str(path) + "-wal") == 0


def test_the_main_file_alone_holds_every_event_before_the_checkpoint(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    notes(table, 30)
    assert store.checkpoint()
    kept = table.events
    notes(table, 20, start=30)  # acknowledged, still only in the WAL
    # A copy of the main file alone while the store is open (the WAL lost or not copied).
    shutil.copy(path, tmp_path / "copy.sqlite")
    again = TableStore(tmp_path / "copy.sqlite").open("T")
    assert again.events == kept
    # The process lost with its WAL cut short: what came before the checkpoint is whole.
    shutil.copy(path, tmp_path / "cut.sqlite")
    shutil.copy(str(path) + "-wal", str(tmp_path / "cut.sqlite") + "-wal")
    with open(str(tmp_path / "cut.sqlite") + "-wal", "r+b") as wal:
        wal.truncate(os.path.getsize(wal.name) // 2)
    cut = TableStore(tmp_path / "cut.sqlite").open("T").events
    assert cut[: len(kept)] == kept and len(cut) < len(table.events)
    # After close, the main file alone holds everything acknowledged.
    notes(table, 5, start=50)
    everything = table.events
    store.close()
    shutil.copy(path, tmp_path / "closed.sqlite")
    assert TableStore(tmp_path / "closed.sqlite").open("T").events == everything


def python_m(*args, stdin=None):
    """``python -m tb_playground.table ARGS`` in a new process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tb_playground.table", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def cli(monkeypatch, capsys):
    """The same command line run in this process (quicker): (returncode, stdout, stderr)."""

    def run(*args, stdin=""):
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.server
def test_backup_export_import_round_trip(tmp_path, cli):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight(), seed=5)
    store.create("Other", fight())
    table.apply({"type": "start"})
    table.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": 1})
    table.apply({"type": "undo"})
    notes(table, 3)
    # The server still has it open: the backup holds the WAL's events too.
    done = python_m("backup", str(path), str(tmp_path / "backup.sqlite"))
    assert done.returncode == 0, done.stderr
    assert "copied 2 tables" in done.stderr
    copy = TableStore(tmp_path / "backup.sqlite")
    assert copy.names() == ["T", "Other"]
    assert copy.open("T").events == table.events
    code, _, err = cli("backup", str(path), str(tmp_path / "backup.sqlite"))
    assert code == 1 and err.startswith("error: dest: ") and "exists" in err

    code, exported, err = cli("export", str(path), "T")
    assert code == 0, err
    lines = exported.splitlines()
    assert [json.loads(line) for line in lines] == table.events
    # Into another file as it is; into the same file only under a new name.
    other = tmp_path / "other.sqlite"
    done = python_m("import", str(other), stdin=exported)
    assert done.returncode == 0, done.stderr
    assert TableStore(other).open("T").events == table.events
    code, _, err = cli("import", str(path), stdin=exported)
    assert code == 1 and "already exists" in err
    code, _, err = cli("import", str(path), "--name", "T again", stdin=exported)
    assert code == 0, err
    renamed = TableStore(path).open("T again")
    assert renamed.state["combatants"] == table.state["combatants"]
    assert renamed.state["name"] == "T again" and renamed.version == table.version
    assert store.table_by_code(renamed.state["join_code"]) is not None

    code, _, err = cli("import", str(path), stdin='{"seq": 1}\nnot json\n')
    assert code == 1 and "line 2" in err
    code, _, err = cli("import", str(path), stdin='{"seq": 1, "type": "created"}\n')
    assert code == 1 and err.startswith("error: events:")
    code, _, err = cli("export", str(path), "Nobody")
    assert code == 1 and 'no table called "Nobody"' in err
    code, _, err = cli("export", str(tmp_path / "none.sqlite"), "T")
    assert code == 1 and "none.sqlite" in err and not (tmp_path / "none.sqlite").exists()


def test_a_damaged_row_closes_only_its_table(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    broken = store.create("Broken", fight())
    notes(broken, 3)
    fine = store.create("Fine", fight())
    codes = {t.name: t.state["join_code"] for t in (broken, fine)}
    store.close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE events SET body='{\"seq\": 3, garbage' WHERE tname='Broken' AND seq=3")
    raw.commit()
    raw.close()

    store = TableStore(path)
    with pytest.raises(ValueError, match=r"table 'Broken' in .*tables.sqlite: event 3"):
        store.open("Broken")
    assert store.open("Fine").version == 1
    assert store.table_by_code(codes["Broken"]) is None  # skipped, logged, never raised
    assert store.table_by_code(codes["Fine"]).name == "Fine"
    service = CombatService(path, gm_key="k" * 20)
    assert service.find_by_code(codes["Fine"]).name == "Fine"
    assert service.find_by_code("nothing") is None


def test_a_row_damaged_while_open_is_named_on_the_next_command(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO events VALUES ('T', 2, '[1, 2]')")
    raw.commit()
    raw.close()
    with pytest.raises(ValueError, match=r"table 'T' in .*: event 2 is damaged"):
        table.apply({"type": "note", "text": "x"})


def test_a_file_that_is_not_a_database_names_its_path(tmp_path):
    path = tmp_path / "tables.sqlite"
    path.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(ValueError, match=r"path: .*tables.sqlite cannot be used"):
        TableStore(path)


def test_a_code_lookup_opens_only_the_table_it_finds(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    codes = [store.create(f"T{i}", fight()).state["join_code"] for i in range(5)]
    store.close()
    store = TableStore(path)
    assert store.table_by_code(codes[3]).name == "T3"
    assert [t.name for t in store.open_tables()] == ["T3"]
    assert store.table_by_code("no such code") is None
    assert store.table_by_code(42) is None
    assert [t.name for t in store.open_tables()] == ["T3"]


def test_a_schema_1_file_is_upgraded(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    table.apply({"type": "rotate_code"})
    code, events = table.state["join_code"], table.events
    store.close()
    raw = sqlite3.connect(path)  # as issue 8 wrote it: no code column
    raw.execute("DROP INDEX tables_code")
    raw.execute("ALTER TABLE tables DROP COLUMN code")
    raw.execute("UPDATE meta SET value='1' WHERE key='schema'")
    raw.commit()
    raw.close()
    store = TableStore(path)
    assert store.table_by_code(code).events == events
    assert fold(events)["join_code"] == code
    meta = store._conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
    assert meta == str(SCHEMA_VERSION)


def test_a_row_damaged_while_open_closes_the_door_without_raising(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    code = table.state["join_code"]
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO events VALUES ('T', 2, 'garbage')")
    raw.commit()
    raw.close()
    assert table.code_matches(code) is False
    assert store.table_by_code(code) is None


def test_an_event_that_does_not_fold_is_named_and_changes_nothing(tmp_path):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    before = table.state
    bad = {"seq": 2, "cmd": 2, "type": "set", "data": {}, "changes": [[["nowhere", "x"], 1]]}
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO events VALUES ('T', 2, ?)", (json.dumps(bad),))
    raw.commit()
    raw.close()
    with pytest.raises(ValueError, match=r"table 'T' in .*: the events after 1 do not fold"):
        table.refresh()
    assert table.state == before and table.version == 1
    with pytest.raises(ValueError, match="table 'T'"):
        TableStore(path).open("T")
