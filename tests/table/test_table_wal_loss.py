"""A lost or damaged -wal is never silent (issue 21, "Data").

After each acknowledged command the file is copied with its -wal missing, cut short or
overwritten, and with the side record of acknowledged events (``tables.sqlite-acked``): the
events acknowledged before the last checkpoint survive, and whenever the copy holds fewer
events than were acknowledged the store says so, naming the file and the table, in the server's
log and in the table's own log (a note the GM page shows). A writer killed in another process
with its -wal removed is found the same way; a file closed cleanly reports nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from table_helpers import encounter, roster, soak7

import tb_playground.table.store as store_module
from tb_playground.table import TableStore
from tb_playground.table.loss_watch import acked_path

ROOT = Path(__file__).resolve().parents[2]


def fight():
    return encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])


def damaged_copy(path: Path, dest: Path, how: str, cut: float = 0.5) -> Path:
    """A copy of ``path`` and its side record, its -wal ``how``: missing, cut, zero or garbage."""
    dest.mkdir()
    copy = dest / path.name
    shutil.copy(path, copy)
    shutil.copy(acked_path(path), acked_path(copy))
    wal = Path(str(path) + "-wal")
    if how != "missing" and wal.exists():
        shutil.copy(wal, str(copy) + "-wal")
        with open(str(copy) + "-wal", "r+b") as f:
            size = os.path.getsize(f.name)
            if how == "cut":
                f.truncate(int(size * cut))
            elif how == "zero":
                f.truncate(0)
            elif how == "garbage" and size > 64:  # the frames after the header overwritten
                f.seek(32 + int((size - 32) * cut))
                f.write(os.urandom(min(4096, size)))
    return copy


def lost_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("how", ["missing", "cut", "zero", "garbage"])
def test_a_damaged_wal_after_each_acknowledged_command_is_reported(
    tmp_path, monkeypatch, caplog, how
):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 7)
    in_main = [0]  # events in the main file after the last complete checkpoint
    real = TableStore.checkpoint

    def spy(self, truncate=False):
        done = real(self, truncate)
        if done and self.path == path:
            in_main[0] = self._conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        return done

    monkeypatch.setattr(TableStore, "checkpoint", spy)
    path = tmp_path / "live" / "tables.sqlite"
    store = TableStore(path)
    table = store.create("Night watch", fight())
    store.checkpoint()
    for i in range(24):
        table.apply({"type": "note", "text": f"note {i}"})
        acked = table.events
        checkpointed = acked[: in_main[0]]
        caplog.clear()
        copy = damaged_copy(path, tmp_path / f"{how}-{i}", how, cut=(i % 5 + 1) / 6)
        with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
            again = TableStore(copy)
            had = len(again.export_events("Night watch"))
            reopened = again.open("Night watch")
        events = reopened.events
        # Everything acknowledged before the last checkpoint survives, unchanged.
        assert events[: len(checkpointed)] == checkpointed, (how, i)
        assert events[:had] == acked[:had]
        if had < len(acked):  # a loss: in the server's log, with the file and the table
            (line,) = lost_lines(caplog)
            assert str(copy) in line and "'Night watch'" in line, line
            assert f"events {had + 1} to {len(acked)}" in line or f"event {len(acked)}" in line
            # ... and in the table's log, which every page shows (the GM's too)
            note = events[-1]
            assert note["type"] == "note" and "lost what was saved" in note["data"]["text"]
            assert str(copy) not in note["data"]["text"]  # the path stays in the server's log
            assert f"The table file {copy.name} lost" in note["data"]["text"]
            assert len(events) == had + 1
            lines = reopened.view_for("gm")["log"]
            assert any("lost what was saved" in str(x) for x in lines)
        else:
            assert not lost_lines(caplog), (how, i)
            assert events == acked
        again.close()
        # Reported once: the note brought the record in line with the file.
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
            third = TableStore(copy)
            assert not third.losses and third.open("Night watch").events == events
            third.close()
        assert not lost_lines(caplog)
    store.close()


def test_the_cases_report_what_they_should(tmp_path, monkeypatch, caplog):
    """A missing -wal after acknowledged events always loses some; a whole one never."""
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1000)
    path = tmp_path / "live" / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    store.checkpoint()
    for i in range(5):
        table.apply({"type": "note", "text": f"note {i}"})
    whole = damaged_copy(path, tmp_path / "whole", "whole")
    assert not TableStore(whole).losses
    missing = damaged_copy(path, tmp_path / "missing", "missing")
    with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
        lost = TableStore(missing)
    assert lost.losses == {"T": "events 2 to 6, acknowledged, are missing"}
    assert any(str(missing) in line for line in lost_lines(caplog))
    # An older copy of the file put in the place of a newer one: the same report.
    store.checkpoint()
    shutil.copy(path, tmp_path / "old.sqlite")
    table.apply({"type": "note", "text": "after the copy"})
    store.close()
    shutil.copy(tmp_path / "old.sqlite", path)
    assert TableStore(path).losses == {"T": "event 7, acknowledged, is missing"}


def test_a_replaced_event_is_reported(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    table.apply({"type": "note", "text": "kept"})
    store.close()
    import sqlite3

    conn = sqlite3.connect(path)
    body = conn.execute("SELECT body FROM events WHERE seq=2").fetchone()[0]
    conn.execute("UPDATE events SET body=? WHERE seq=2", (body.replace("kept", "swap"),))
    conn.commit()
    conn.close()
    with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
        again = TableStore(path)
    assert again.losses == {"T": "event 2, acknowledged, is not the one now in the file"}


def test_a_clean_close_and_a_missing_record_report_nothing(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    store = TableStore(path)
    table = store.create("T", fight())
    for i in range(3):
        table.apply({"type": "note", "text": f"note {i}"})
    store.close()
    os.remove(str(path) + "-wal") if os.path.exists(str(path) + "-wal") else None
    with caplog.at_level(logging.WARNING, logger="tb_playground.table.loss_watch"):
        again = TableStore(path)
        assert not again.losses and again.open("T").version == 4
        again.close()
        acked_path(path).unlink()
        assert not TableStore(path).losses
        acked_path(path).write_text("{not json", encoding="utf-8")
        assert not TableStore(path).losses  # unreadable: a warning, no false report
    assert not lost_lines(caplog)
    assert any("cannot be read" in r.getMessage() for r in caplog.records)


WRITER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {tests!r})
    import tb_playground.table.store as store_module
    store_module.CHECKPOINT_EVERY = 10
    from table_helpers import encounter, roster, soak7
    from tb_playground.table import TableStore
    store = TableStore({path!r})
    table = store.create("Killed", encounter(roster("ronan.json"), foes=[soak7()]))
    for i in range(10_000):
        table.apply({{"type": "note", "text": f"note {{i}}"}})
        print(table.version, flush=True)
    """
)


@pytest.mark.server
def test_a_killed_writer_with_its_wal_removed_is_reported(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    code = WRITER.format(tests=str(ROOT / "tests"), path=str(path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    acked = 0
    for line in proc.stdout:
        acked = int(line)
        if acked >= 55:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    for more in proc.stdout.read().split():  # acknowledged before the kill landed
        acked = int(more)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
        store = TableStore(path)
        kept = len(store.export_events("Killed"))
        table = store.open("Killed")
    print(f"\nacknowledged {acked}, the file without its -wal holds {kept}")
    assert kept >= 50  # the checkpoint at event 50 (or later) is whole
    if kept < acked:
        assert "Killed" in store.losses or table.events[-1]["type"] == "note"
        assert any(str(path) in x and "'Killed'" in x for x in lost_lines(caplog))
        assert "lost what was saved" in table.events[-1]["data"]["text"]
    else:
        assert not lost_lines(caplog)
    store.close()


def test_a_record_that_cannot_be_written_warns_once_and_commands_go_on(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    acked_path(path).mkdir()  # not a file: every write fails
    with caplog.at_level(logging.WARNING, logger="tb_playground.table.loss_watch"):
        store = TableStore(path)
        table = store.create("T", fight())
        for i in range(5):
            table.apply({"type": "note", "text": f"note {i}"})
    assert table.version == 6
    warned = [r for r in caplog.records if "cannot be written" in r.getMessage()]
    assert len(warned) == 1 and str(acked_path(path)) in warned[0].getMessage()


def test_the_gm_page_s_view_tells_of_the_loss_after_a_restart(tmp_path, monkeypatch, caplog):
    """What the server does on start: the service's store reports, the GM's view shows it."""
    from tb_playground.service import CombatService

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1000)
    path = tmp_path / "tables.sqlite"
    service = CombatService(path, gm_key="a-long-enough-gm-key")
    table = service.create("Harbour", fight())
    service.store.checkpoint()
    for i in range(3):
        table.apply({"type": "note", "text": f"note {i}"})
    copy = damaged_copy(path, tmp_path / "restarted", "missing")  # the server dies, WAL lost
    with caplog.at_level(logging.ERROR, logger="tb_playground.table.loss_watch"):
        again = CombatService(copy, gm_key="a-long-enough-gm-key")
    (line,) = lost_lines(caplog)
    assert "'Harbour'" in line and str(copy) in line and "events 2 to 4" in line
    gm = again.view(again.open("Harbour"), "gm")
    assert "lost what was saved: events 2 to 4" in " ".join(map(str, gm["log"]))
    player = again.view(again.open("Harbour"), "player", "ronan")
    assert str(copy) not in str(player)
