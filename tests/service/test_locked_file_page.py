"""A table file locked by another program stalls no page and no answer (issue 33, item 3).

A phone opens its join link while another connection holds the file's lock (``BEGIN
EXCLUSIVE``): the page comes at once (its seat is claimed on a worker thread, never on the
event loop), says "The table file is busy, retrying…" within 2 s, and sits the player once
the lock is let go. A static file is answered meanwhile.
"""

from __future__ import annotations

import sqlite3
import time
import urllib.request

import panel as pn
import pytest
from serving import free_port, wait_for_http
from table_helpers import encounter, roster, soak7

from tb_playground.service import CombatService, set_service
from tb_playground.views.combat import table_page as tp
from tb_playground.views.combat.seat_session import SeatSession

KEY = "a-test-key-of-16-chars"


def _get(url: str) -> float:
    """Seconds ``url`` took to answer (fails on no answer within 30 s)."""
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=30) as answer:
        answer.read()
    return time.monotonic() - began


def _until(check, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)
    return found


@pytest.mark.server
def test_a_join_link_opens_while_another_program_holds_the_files_lock(tmp_path):
    service = CombatService(tmp_path / "tables.sqlite", gm_key=KEY)
    table = service.create("T", encounter(roster("ronan.json"), foes=[soak7()]))
    code = table.state["join_code"]
    set_service(service)
    pages: list[tp.TablePage] = []

    def app():
        pages.append(tp.TablePage(service))
        return pages[-1]

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = pn.serve({"table": app}, port=port, address="127.0.0.1", threaded=True,
                      show=False, websocket_origin=[f"127.0.0.1:{port}"])  # fmt: skip
    other = None
    try:
        wait_for_http(f"{base}/table")  # the page without a link: no file work
        other = sqlite3.connect(service.store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        began = time.monotonic()
        took = _get(f"{base}/table?code={code}&seat=ronan")
        assert took < 2.0, f"the join link's page took {took:.1f} s"
        page = pages[-1]
        _until(lambda: tp.BUSY in str(page.busy_note.object), 2.0 - (time.monotonic() - began))
        assert tp.BUSY == "The table file is busy, retrying…"
        assert _get(f"{base}/static/js/bokeh.min.js") < 1.0  # the loop answers meanwhile
        assert page.session is None  # not seated while the file is locked
        other.execute("ROLLBACK")
        _until(lambda: page.table_view in page._layout.objects)  # seated: the table shows
        assert isinstance(page.session, SeatSession) and page.session.seat == "ronan"
        assert service.seats.claims("T")["ronan"].connected
    finally:
        if other is not None:
            other.close()
        server.stop()
        set_service(None)
        service.close()
        service.store.close()
