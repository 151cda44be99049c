"""The fixes under the pages (``tb_playground/views/kit/patches.py``, notes 0022 and 0023).

Each race is checked on the installed stack by what it does (a change reaches the browser, a
queue is written, a session ends), with the patches installed as the server installs them; a
race upstream still has is also shown without its patch, where the patch was shown (for the
reports in docs/upstream/). And each patch stays out, with one log line, where its versions or
its names differ.

0. A change held while the browser renders the page (it pulled the document, it has not said it
   is ready) is sent to it; Panel 1.9 dropped it (fixed upstream in Panel 1.10).
1. Panel's queued websocket writes: messages queued while an earlier ``_dispatch_msgs`` awaits
   its writes are written, even when that one lowers the write flag before the new task runs
   (Panel 1.9 and 1.10 leave them unsent until the page's next change).
2. Bokeh's websocket opening: a socket the browser closes while its session is being made
   leaves no connection behind, so the session ends as an unused one (Bokeh 3.9 and 3.10 keep
   it forever, and it held a player's seat).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import threading
import time
import urllib.request
from types import SimpleNamespace

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.util.token import generate_jwt_token, generate_session_id
from panel.io import document as panel_document
from panel.io.document import hold
from panel.io.state import set_curdoc

from tb_playground.views.kit import patches

patches.install()  # as the server's setup and the ``serve`` fixture do


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


def test_panel_keeps_a_change_made_after_the_pull_or_the_patch_does():
    """Panel 1.10 keeps held changes once the document was sent; on 1.9 the patch does."""
    if patches.HELD_CHANGES.state == "installed":
        assert panel_document._drain_unconnected_events.__wrapped__  # Panel's, wrapped
        return  # the scenario below shows the patch at work
    doc = Document()
    doc.add_root(pn.pane.HTML("x").get_root(doc))
    context = SimpleNamespace(_session=None, session=None, server_context=None, id="s")
    doc._session_context = lambda: context
    assert not panel_document._client_has_document(doc)  # nothing sent: Panel may drop
    doc.to_json()  # the browser pulls the document
    assert not pn.state._connected.get(doc)  # and has not said it is ready
    assert panel_document._client_has_document(doc)  # Panel 1.10 keeps the changes now


def test_a_change_held_before_the_browser_is_ready_reaches_it():
    if patches.HELD_CHANGES.state != "installed":
        assert "shown on panel 1.9.4" in patches.HELD_CHANGES.state  # see the test above
        return
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
    if patches.HELD_CHANGES.state != "installed":
        assert patches.HELD_CHANGES.state.startswith("stays out")
        return
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
    """A server connection: its socket, and a protocol that names each message."""

    def __init__(self, socket):
        self._socket = socket
        self.protocol = SimpleNamespace(create=lambda kind, events: events[0])


def _queue(doc, conn, msg: str) -> None:
    """What Panel's ``schedule_write_events`` leaves for its ``_dispatch_msgs`` task."""
    panel_document._WRITE_BLOCK[doc] = True
    if hasattr(panel_document, "_WRITE_MSGS"):  # Panel 1.9: serialized messages per connection
        panel_document._WRITE_MSGS.setdefault(doc, {}).setdefault(conn, []).append(msg)
    else:  # Panel 1.10: batches of events, serialized when written
        panel_document._WRITE_EVENTS.setdefault(doc, []).append(([conn], [msg]))


def _queued(doc) -> bool:
    queue = getattr(panel_document, "_WRITE_MSGS", None)
    if queue is None:
        queue = panel_document._WRITE_EVENTS
    return doc in queue


def _two_refreshes(monkeypatch, dispatch) -> list[str]:
    """The race: a second message queued as the first write completes; what was written."""
    written: list[str] = []
    pending: list[asyncio.Future] = []

    def write(conn, msg):  # Panel's handler for a socket type: start the write, return it
        written.append(msg)
        pending.append(asyncio.get_running_loop().create_future())
        return [pending[-1]]

    monkeypatch.setitem(panel_document.extra_socket_handlers, _Socket, write)
    monkeypatch.setattr(panel_document, "_dispatch_msgs", dispatch)
    doc = Document()
    conn = _Connection(_Socket())

    async def scenario() -> None:
        _queue(doc, conn, "first")
        first = asyncio.ensure_future(panel_document._dispatch_msgs(doc))
        await asyncio.sleep(0)
        assert written == ["first"]  # the first task awaits its write
        # The write completes; in the same tick another refresh queues a message, and its task
        # runs after the first one resumed (and lowered the flag, in Panel's version).
        pending[0].set_result(None)
        _queue(doc, conn, "second")
        second = asyncio.ensure_future(panel_document._dispatch_msgs(doc))
        for _ in range(100):
            await asyncio.sleep(0.01)
            for write_done in pending:  # every write started completes
                if not write_done.done():
                    write_done.set_result(None)
            if first.done() and second.done() and not _queued(doc):
                break

    try:
        _run(scenario)
    finally:
        panel_document._WRITE_BLOCK.pop(doc, None)
    return written


def test_messages_queued_behind_a_lowered_flag_are_written(monkeypatch):
    assert patches.QUEUED_WRITES.state == "installed", patches.QUEUED_WRITES.state
    assert _two_refreshes(monkeypatch, panel_document._dispatch_msgs) == ["first", "second"]


def test_panels_own_dispatch_leaves_them_unsent(monkeypatch):
    """The race is upstream's (docs/upstream/queued-writes-left-behind.md): Panel's own
    ``_dispatch_msgs`` leaves the second message queued."""
    panels = panel_document._dispatch_msgs.__wrapped__
    assert _two_refreshes(monkeypatch, panels) == ["first"]


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
        _queue(doc, conn, "a")
        await panel_document._dispatch_msgs(doc)  # busy: "a" stays queued, retried later
        assert written == [] and _queued(doc)
        _queue(doc, conn, "b")
        lock._block._value = 1  # Bokeh is done
        for _ in range(50):
            await asyncio.sleep(0.01)
            if not _queued(doc):
                break

    _run(scenario)
    assert written == ["a", "b"]
    assert doc not in panel_document._WRITE_BLOCK


def _close_while_opening(serve, wait: float) -> bool:
    """A websocket shut while its session is made; whether that session ended within ``wait``."""
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
    deadline = time.monotonic() + wait
    while session_id not in ended and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(made) == 2, "the websocket made no session"
    return session_id in ended


def test_a_socket_closed_while_its_session_opens_lets_the_session_end(serve):
    assert patches.CLOSED_WHILE_OPENING.state == "installed", patches.CLOSED_WHILE_OPENING.state
    assert _close_while_opening(serve, wait=15), "the session of a closed websocket never ended"


def test_bokehs_own_opening_keeps_that_session(serve, monkeypatch):
    """The race is upstream's (docs/upstream/socket-closed-while-opening.md): without the patch
    the session is still there long after unused ones end (0.5 s here)."""
    from bokeh.server.views import ws

    for name in ("_async_open", "on_close"):
        monkeypatch.setattr(ws.WSHandler, name, getattr(ws.WSHandler, name).__wrapped__)
    assert not _close_while_opening(serve, wait=3)


def test_no_referrer_and_no_traceback(serve):
    from bokeh.protocol import Protocol

    assert patches.NO_REFERRER.state == patches.NO_TRACEBACKS.state == "installed"
    url = serve(lambda: pn.pane.Markdown("hello"))
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.headers["Referrer-Policy"] == "no-referrer"
    try:
        raise RuntimeError("/home/secret/path.py")
    except RuntimeError as e:  # as Bokeh's ProtocolHandler.handle makes its ERROR reply
        made = Protocol().create("ERROR", "m1", repr(e))
    assert made.content["traceback"] is None
    assert made.content["text"] == "The server could not handle that message."


# -- Each patch knows its versions and names ---------------------------------------------------


def _fake(shown: tuple[patches.Shown, ...]) -> tuple[patches.Patch, list]:
    applied: list = []
    return patches.Patch("fake", "nothing", shown, applied.append), applied


def test_a_patch_stays_out_on_a_version_it_was_not_shown_on(caplog):
    fake, applied = _fake((patches.Shown({"panel": "0.0.1"}, ("panel.io.document:hold",)),))
    with caplog.at_level(logging.INFO, logger="tb_playground.views.kit.patches"):
        states = patches.install((fake,))
        patches.install((fake,))  # once is enough to say it
    assert applied == []
    assert states["fake"].startswith("stays out: shown on panel 0.0.1, installed panel ")
    said = [r.getMessage() for r in caplog.records if "fake" in r.getMessage()]
    assert len(said) == 1 and "stays out" in said[0]


def test_a_patch_stays_out_when_a_name_it_uses_is_gone():
    versions = {"panel": patches._version("panel"), "bokeh": patches._version("bokeh")}
    names = ("panel.io.document:hold", "bokeh.server.session:ServerSession()._no_such_thing")
    fake, applied = _fake((patches.Shown(versions, names),))
    states = patches.install((fake,))
    assert applied == []
    assert states["fake"] == (
        "stays out: bokeh.server.session:ServerSession()._no_such_thing missing"
    )


def test_names_are_read_as_written():
    assert patches._exists("panel.io.document:hold")
    assert patches._exists("bokeh.server.session:ServerSession()._pending_writes")
    assert not patches._exists("panel.io.document:no_such_name")
    assert not patches._exists("no_such_module:x")


#: What the two supported stacks install (README): a new release shows up here first.
EXPECTED = {
    ("1.9.4", "3.9.2"): {p.name for p in patches.ALL},
    ("1.10.0", "3.10.2"): {p.name for p in patches.ALL} - {patches.HELD_CHANGES.name},
}


def test_every_patch_installs_where_it_was_shown():
    """On each supported stack, exactly the patches shown there install; another Panel or
    Bokeh: every patch is checked again there first (this fails until it is)."""
    stack = (patches._version("panel"), patches._version("bokeh"))
    assert stack in EXPECTED, f"patches not checked on panel {stack[0]}, bokeh {stack[1]}"
    installable = {p.name for p in patches.ALL if p.match()[0] is not None}
    assert installable == EXPECTED[stack]


def test_every_patch_has_a_report_or_says_why_not():
    from pathlib import Path

    upstream = Path(__file__).resolve().parents[2] / "docs" / "upstream"
    for patch in patches.ALL:
        report = upstream / f"{patch.name}.md"
        assert report.is_file() == patch.upstream, patch.name


@pytest.mark.server
def test_importing_the_views_patches_nothing():
    """Only ``install`` patches: importing every view leaves Panel and Bokeh as they were."""
    import subprocess
    import sys

    code = "\n".join(
        [
            "import importlib, pkgutil, tb_playground.views as v",
            "from panel.io import document",
            "from panel.reactive import Reactive",
            "from bokeh.server.views import ws",
            "for m in pkgutil.walk_packages(v.__path__, 'tb_playground.views.'):",
            "    importlib.import_module(m.name)",
            "fs = (document._dispatch_msgs, Reactive._get_properties, ws.WSHandler._async_open)",
            "print(sum(hasattr(f, '__wrapped__') for f in fs))",
        ]
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


# -- The browser side: the reconnect script's parts (views/js/reconnect.js) --------------------


def test_the_reconnect_script_runs_the_parts_shown_on_the_served_bokehjs(monkeypatch, caplog):
    """The token rewrite on every BokehJS it was shown on; the buffers fix only where BokehJS
    re-reads a restarted server's document without its buffers (3.9; 3.10 passes them)."""
    from pathlib import Path

    import bokeh

    from tb_playground.views.kit import js

    parts = patches.reconnect_js_parts()
    assert parts == patches.RECONNECT_JS_PARTS[bokeh.__version__]
    bokeh_js = (Path(bokeh.__file__).parent / "server/static/js/bokeh.js").read_text()
    passes_buffers = "replace_with_json(doc_json, buffers)" in bokeh_js
    assert parts["buffers"] == (not passes_buffers)
    assert 'new WebSocket(versioned_url, ["bokeh", this.token])' in bokeh_js  # what it rewrites
    # what the poll calls: a forced try that leaves a connecting or open socket alone
    assert "async reconnect() {\n            this._try_reconnect(true);" in bokeh_js
    assert "this.socket?.readyState !== WebSocket.OPEN && this.socket?.readyState" in bokeh_js
    script = js.script("reconnect.js")
    assert "if (!token ||" in script and "if (buffers &&" in script  # each part asks its flag
    assert "const ok = poll &&" in script
    monkeypatch.setattr(patches, "_version", lambda dist: "9.9.9")
    with caplog.at_level(logging.INFO, logger="tb_playground.views.kit.patches"):
        patches._SAID.discard("reconnect-js")
        assert patches.reconnect_js_parts() == {"token": False, "buffers": False, "poll": False}
    assert any("not shown on bokeh 9.9.9" in r.getMessage() for r in caplog.records)


def test_a_closed_pages_busy_indicator_is_forgotten():
    """Panel keeps every template's busy indicator for the process; a page's goes at its end."""
    indicator = pn.indicators.LoadingSpinner(value=False)
    pn.state.sync_busy(indicator)
    assert indicator in pn.state._indicators
    patches.forget_busy_indicator(indicator)
    assert indicator not in pn.state._indicators
    patches.forget_busy_indicator(indicator)  # twice: no harm
