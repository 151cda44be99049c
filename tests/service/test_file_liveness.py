"""The file is the authority while pages are open, and a bad file freezes no one (issue 21).

A ``CombatService`` in this process with a page's ``TableSession`` subscribed, and a child
process applying commands to the same file: the service's watcher brings each of the child's
commands to the page (no command of this process needed); 1,000 interleaved commands of both
are all there once and both folds agree. A file locked by another connection, full or
read-only: the command is refused with a message naming the file and what to do, nothing
changes, the GM's page hears of it, and another session goes on reading meanwhile.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import Counter

import pytest
from bokeh.document import Document
from table_helpers import encounter, roster, soak7
from test_table_processes import Child

from tb_playground.service import CombatService
from tb_playground.table import fold
from tb_playground.table.errors import TableFileError
from tb_playground.views.combat.combat_session import TableSession

KEY = "a-test-key-of-16-chars"


@pytest.fixture
def served(tmp_path):
    """A service over a fresh file with one table, and a page of the GM bound to it."""
    service = CombatService(tmp_path / "tables.sqlite", gm_key=KEY)
    table = service.create("T", encounter(roster("ronan.json"), foes=[soak7()]))
    yield service, table
    service.close()
    service.store.close()


def test_the_watcher_brings_another_processs_commands_to_the_page(served):
    service, table = served
    seen: list[tuple[int, float]] = []
    page = TableSession(table, "gm", None, lambda: seen.append((table.version, time.time())))
    service.sessions.add(page)
    child = Child(service.store.path)
    try:
        for turn in range(5):
            said = child.ask(op="apply", command={"type": "note", "text": f"child {turn}"})
            deadline = time.monotonic() + 10  # generous: the figure is in benchmarks/
            while not seen or seen[-1][0] < said["version"]:
                assert time.monotonic() < deadline, "the page never heard of it"
                time.sleep(0.01)
            assert page.view()["log"][-1]["text"].endswith(f"child {turn}")
    finally:
        child.close()
        page.close()
    assert service.watched() == []  # a closed page is no longer watched for


def test_a_thousand_interleaved_commands_with_a_page_open(served):
    service, table = served
    heard = []
    page = TableSession(table, "gm", None, lambda: heard.append(table.version))
    child = Child(service.store.path)
    try:
        child.send(op="notes", who="child", n=500)
        for i in range(500):
            assert page.send({"type": "note", "text": f"page {i}"}) == ""
        child.answer()
        other = child.ask(op="state")
    finally:
        child.close()
        page.close()
    table.refresh()
    texts = Counter(e["data"]["text"] for e in table.events if e["type"] == "note")
    assert texts == Counter([f"child {i}" for i in range(500)] + [f"page {i}" for i in range(500)])
    assert [e["seq"] for e in table.events] == list(range(1, 1002))
    assert other["state"] == table.state == fold(table.events)
    assert heard and heard[-1] <= 1001


def _hold_the_write_lock(path):
    """Another program's connection holding the file's write lock."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_locked_file_is_named_and_freezes_no_other_session(served):
    service, table = served
    service.store.write_wait = 1.0
    said_to_the_gm = []
    gm = TableSession(table, "gm", None, lambda: None, on_problem=said_to_the_gm.append)
    player = TableSession(table, "player", "ronan", lambda: None)
    watcher = TableSession(table, "spectator", None, lambda: None)
    assert gm.send({"type": "set", "combatant": "ronan", "field": "ki", "value": 0}) == ""
    before = table.state
    other = _hold_the_write_lock(service.store.path)
    answer: list[str] = []
    done = threading.Event()
    refill = {"type": "spend_fate", "combatant": "ronan", "spend": "refill ki"}

    def click() -> None:
        answer.append(player.send(refill))
        done.set()

    try:
        clicker = threading.Thread(target=click)
        clicker.start()
        time.sleep(0.1)  # the player's command is waiting for the file now
        # Meanwhile another session reads, and the watcher looks at the file: neither waits.
        assert watcher.view()["version"] == before["version"]
        assert table.refresh() is False
        assert not done.is_set(), "the command should still be waiting for the file"
        clicker.join(timeout=30)
    finally:
        other.execute("ROLLBACK")
        other.close()
    [text] = answer
    assert str(service.store.path) in text and "locked by another program" in text
    assert "nothing was changed" in text and "try again" in text
    assert said_to_the_gm == [text]  # the GM hears of it too
    assert table.state == before
    assert player.send(refill) == ""  # the file is free again
    gm.send({"type": "note", "text": "after the lock"})
    assert table.events[-1]["data"]["text"] == "after the lock"
    for session in (gm, player, watcher):
        session.close()


@pytest.mark.parametrize(
    ("pragma", "words"),
    [("PRAGMA max_page_count=1", "the disk is full"), ("PRAGMA query_only=1", "read-only")],
)
def test_a_full_or_read_only_file_is_named_and_changes_nothing(served, pragma, words):
    service, table = served
    gm = TableSession(table, "gm", None, lambda: None)
    service.store._conn.execute(pragma)
    for _ in range(200):  # until a note needs a page the file may not add
        before, events = table.state, table.events
        text = gm.send({"type": "note", "text": "n" * 490})
        if text:
            break
    assert str(service.store.path) in text and words in text and "nothing was changed" in text
    assert table.state == before and table.events == events
    with pytest.raises(TableFileError, match="nothing was changed"):
        service.create("U", encounter(roster("ronan.json")))
    gm.close()


def test_a_served_page_applies_its_command_off_the_event_loop(served):
    """``submit`` returns at once; the command runs on the writer thread, and the answer comes
    back through the page document's next tick."""
    service, table = served

    class Doc(Document):  # a served page's document, its next ticks run by hand
        ticks: list = []

        @property
        def session_context(self):
            return True

        def add_next_tick_callback(self, callback):
            self.ticks.append(callback)

    doc = Doc()
    page = TableSession(table, "gm", None, lambda: None, doc=doc)
    answers = []
    other = _hold_the_write_lock(service.store.path)
    service.store.write_wait = 0.5
    try:
        page.submit({"type": "note", "text": "queued"}, done=answers.append)
        assert answers == []  # nothing was waited for here
    finally:
        time.sleep(0.05)
        other.execute("ROLLBACK")
        other.close()
    deadline = time.monotonic() + 10
    while not doc.ticks and time.monotonic() < deadline:
        time.sleep(0.01)
    while doc.ticks:
        doc.ticks.pop(0)()
    assert answers == [""]  # it waited for the file off this thread, then went in
    assert table.events[-1]["data"]["text"] == "queued"
    page.close()
