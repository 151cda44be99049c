"""The server fixes under every page (``views/kit/server_fixes.py``, note 0022).

0. A change held while the browser renders the page (it pulled the document, it has not said it
   is ready) is sent to it; Panel 1.9 dropped it, and a phone stayed at the older event.
1. Panel's queued websocket writes: messages queued while an earlier ``_dispatch_msgs`` awaits
   its writes are written, even when that one lowers the write flag before the new task runs
   (Panel 1.9 left them unsent until the page's next change: a player's page missed a redraw).
2. Bokeh's websocket opening: a socket the browser closes while its session is being made
   leaves no connection behind, so the session ends as an unused one (Bokeh 3.9 kept it
   forever, and it held a player's seat).
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import threading
import time
from types import SimpleNamespace

import panel as pn
from bokeh.document import Document
from bokeh.util.token import generate_jwt_token, generate_session_id
from panel.io import document as panel_document
from panel.io.document import hold
from panel.io.state import set_curdoc

from tb_playground.views.kit import server_fixes


def _run(scenario) -> None:
    """``asyncio.run(scenario())`` on a thread of its own.

    A browser test's worker runs Playwright's loop on the test's thread, where ``asyncio.run``
    refuses to start.
    """
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the scenario did not finish in 30 s"
    if failed:
        raise failed[0]


class _Session:
    """A server session with a browser connected: what reaches it is recorded."""

    def __init__(self, locked: bool):
        self._subscribed_connections = {object()}
        self._pending_writes = [] if locked else None  # a list only inside the document's lock
        self.patched: list = []

    def _document_patched(self, event) -> None:
        assert self._pending_writes is not None, "a change dispatched outside the lock"
        self.patched.append(event)

    def _session_callback_added(self, event) -> None:
        pass

    def _session_callback_removed(self, event) -> None:
        pass


def _served_document(session: _Session, loop=None):
    """A document of ``session`` whose browser has not said it is ready, and its pane's model.

    ``loop``: the asyncio loop serving it (None: no server loop).
    """
    doc = Document()
    pane = pn.pane.HTML("before")
    model = pane.get_root(doc)
    doc.add_root(model)
    app = SimpleNamespace(io_loop=SimpleNamespace(asyncio_loop=loop)) if loop else None
    server = SimpleNamespace(application_context=app)
    context = SimpleNamespace(_session=session, session=session, server_context=server, id="s")
    doc._session_context = lambda: context
    doc.callbacks.on_change_dispatch_to(session)
    return doc, model


def test_a_change_held_before_the_browser_is_ready_reaches_it():
    assert panel_document._drain_unconnected_events is server_fixes._drain_unconnected_events
    session = _Session(locked=True)

    async def scenario() -> None:  # a callback of the page, on the loop serving it
        doc, model = _served_document(session, asyncio.get_running_loop())
        assert not pn.state._connected.get(doc)  # the browser has not said it is ready
        with set_curdoc(doc), hold(doc):
            model.text = "after"

    _run(scenario)
    assert [(e.attr, e.new) for e in session.patched] == [("text", "after")]


def test_without_a_browser_the_change_waits_for_the_full_document():
    session = _Session(locked=True)
    session._subscribed_connections = set()  # nobody connected yet: Panel's own rule
    doc, model = _served_document(session)
    with set_curdoc(doc), hold(doc):
        model.text = "after"
    assert session.patched == [] and model.text == "after"  # in the document sent on connect


def test_outside_the_lock_the_change_goes_on_the_next_tick():
    session = _Session(locked=False)
    doc, model = _served_document(session)
    with set_curdoc(doc), hold(doc):
        model.text = "after"
    assert session.patched == []
    (callback,) = doc.session_callbacks  # the retrigger, on the document's next tick
    session._pending_writes = []  # the session runs its callbacks inside the lock
    callback.callback()
    assert [(e.attr, e.new) for e in session.patched] == [("text", "after")]


class _Socket:
    """A connection's socket whose writes the test completes by hand."""


class _Connection:
    """A server connection: only its socket is read."""

    def __init__(self, socket):
        self._socket = socket


def test_messages_queued_behind_a_lowered_flag_are_written(monkeypatch):
    assert panel_document._dispatch_msgs is server_fixes._dispatch_msgs  # the kit installed it
    written: list[str] = []
    pending: list[asyncio.Future] = []

    def write(conn, msg):  # Panel's handler for a socket type: start the write, return it
        written.append(msg)
        pending.append(asyncio.get_running_loop().create_future())
        return [pending[-1]]

    monkeypatch.setitem(panel_document.extra_socket_handlers, _Socket, write)
    doc = Document()
    conn = _Connection(_Socket())

    def queue(msg: str) -> None:  # what ``schedule_write_events`` leaves for the task
        panel_document._WRITE_BLOCK[doc] = True
        panel_document._WRITE_MSGS.setdefault(doc, {}).setdefault(conn, []).append(msg)

    async def scenario() -> None:
        queue("first")
        first = asyncio.ensure_future(panel_document._dispatch_msgs(doc))
        await asyncio.sleep(0)
        assert written == ["first"]  # the first task awaits its write
        # The write completes; in the same tick another refresh queues a message, and its task
        # runs after the first one resumed (and lowered the flag, in Panel's version).
        pending[0].set_result(None)
        queue("second")
        second = asyncio.ensure_future(panel_document._dispatch_msgs(doc))
        for _ in range(100):
            await asyncio.sleep(0.01)
            for write_done in pending:  # every write started completes
                if not write_done.done():
                    write_done.set_result(None)
            if first.done() and second.done() and doc not in panel_document._WRITE_MSGS:
                break

    _run(scenario)
    assert written == ["first", "second"]
    assert doc not in panel_document._WRITE_MSGS and doc not in panel_document._WRITE_BLOCK


def test_a_busy_socket_keeps_its_messages_in_order(monkeypatch):
    written: list[str] = []

    def write(conn, msg):
        written.append(msg)
        return []

    monkeypatch.setitem(panel_document.extra_socket_handlers, _Socket, write)
    doc = Document()
    lock = SimpleNamespace(_block=SimpleNamespace(_value=0))  # Bokeh is writing on it
    socket = _Socket()
    socket.write_lock = lock
    conn = _Connection(socket)

    async def scenario() -> None:
        panel_document._WRITE_BLOCK[doc] = True
        panel_document._WRITE_MSGS[doc] = {conn: ["a"]}
        await panel_document._dispatch_msgs(doc)  # busy: "a" stays queued, retried later
        assert written == [] and panel_document._WRITE_MSGS[doc] == {conn: ["a"]}
        panel_document._WRITE_MSGS[doc][conn].append("b")
        lock._block._value = 1  # Bokeh is done
        for _ in range(50):
            await asyncio.sleep(0.01)
            if doc not in panel_document._WRITE_MSGS:
                break

    _run(scenario)
    assert written == ["a", "b"]
    assert doc not in panel_document._WRITE_BLOCK


def test_a_socket_closed_while_its_session_opens_lets_the_session_end(serve):
    made, ended = [], []

    def slow_app():  # long enough for the browser to close the socket meanwhile
        time.sleep(0.8)
        made.append(pn.state.curdoc)
        pn.state.on_session_destroyed(lambda context: ended.append(context.id))
        return pn.pane.Markdown("hello")

    url = serve(
        slow_app, unused_session_lifetime_milliseconds=500, check_unused_sessions_milliseconds=200
    )
    host = url.split("/")[2]
    assert len(made) == 1  # the page load that ``serve`` waited for
    session_id = generate_session_id(secret_key=None, signed=False)
    token = generate_jwt_token(session_id, secret_key=None, signed=False)
    # A browser leaving the page: the upgrade request sent, the socket shut at once (the server
    # reads the request, answers 101, opens, and then finds the socket closed).
    host_name, port = host.split(":")
    with socket.create_connection((host_name, int(port))) as raw:
        raw.sendall(
            (
                f"GET /app/ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
                f"Sec-WebSocket-Protocol: bokeh, {token}\r\n\r\n"
            ).encode()
        )
        raw.shutdown(socket.SHUT_WR)
        time.sleep(0.3)
    deadline = time.monotonic() + 15
    while session_id not in ended and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(made) == 2, "the websocket made no session"
    assert session_id in ended, "the session of a closed websocket never ended"
