"""Opening pages is limited per address, and the server's settings come from the setup (issue 21).

A script looping plain GETs made a session each and kept the event loop busy for everyone;
``guard.PageLoads`` lets an address open a burst of pages and then a steady rate, and
``patches`` (installed by ``serve_setup``) answers 429 beyond it, gives GET sessions seconds,
bounds websocket messages and numbers each process's models apart.
"""

from __future__ import annotations

import pytest

from tb_playground import guard


@pytest.fixture(autouse=True)
def _server_unpatched(monkeypatch):
    """The setup's patches of Bokeh's and Panel's server classes end with each test.

    Left in place they would limit the page loads of every later test's server in this
    worker (all from 127.0.0.1).
    """
    import tornado.web
    from bokeh.server import tornado as bokeh_tornado
    from panel.io import server

    monkeypatch.setattr(bokeh_tornado.BokehTornado, "__init__", bokeh_tornado.BokehTornado.__init__)
    monkeypatch.setattr(server.DocHandler, "get", server.DocHandler.get)
    monkeypatch.setattr(tornado.web.RequestHandler, "clear", tornado.web.RequestHandler.clear)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_opens_a_burst_then_a_steady_rate():
    clock = Clock()
    loads = guard.PageLoads(burst=5, rate=2.0, clock=clock)
    assert [loads.allow("a") for _ in range(7)] == [True] * 5 + [False] * 2
    assert loads.allow("b")  # another address is not held back
    clock.now += 0.5  # one more page a half second
    assert loads.allow("a") and not loads.allow("a")
    clock.now += 60  # a minute later: a whole burst again, never more
    assert sum(loads.allow("a") for _ in range(10)) == 5
    assert loads.refused == 2 + 1 + 5


def test_the_setup_patches_the_server_once():
    """The constructor's settings are checked on a real server in tests/ui/test_reconnect_ui.py
    (its log); here: one wrapper, the model numbering, the page-load limit in place."""
    from bokeh.server import tornado
    from bokeh.util import serialization
    from panel.io import server

    from tb_playground.views.kit import patches

    for patch in patches.SETUP:
        patch.state = "not tried"  # the fixture below put the classes back
    states = patches.setup()
    assert {states[patch.name] for patch in patches.SETUP} == {"installed"}
    wrapper, get = tornado.BokehTornado.__init__, server.DocHandler.get
    patches.setup()
    assert tornado.BokehTornado.__init__ is wrapper and server.DocHandler.get is get
    assert patches.SERVER_SETTINGS["unused_session_lifetime_milliseconds"] <= 5_000
    assert patches.SERVER_SETTINGS["websocket_max_message_size_bytes"] < 20 * 1024 * 1024
    assert serialization._simple_id >= 1_000_000_000_000_000  # numbered from the start time
    assert len(patches.PAGE_LOADS) == 1


@pytest.mark.own_thread
def test_a_refused_page_request_waits_before_its_answer(monkeypatch):
    """Over the limit, the 429 comes after ``REFUSED_WAIT``: a looping client slows down."""
    import asyncio

    from panel.io import server

    from tb_playground.views.kit import patches

    patches.PAGE_LOAD_LIMIT.state = "not tried"  # the fixture put the handler back
    patches.install((patches.PAGE_LOAD_LIMIT,))
    (loads,) = patches.PAGE_LOADS
    while loads.allow("203.0.113.9"):  # this address has used its burst
        pass
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    monkeypatch.setattr(patches.asyncio, "sleep", sleep)

    class Request:
        remote_ip = "203.0.113.9"

    class Handler:
        request = Request()
        said: dict = {}

        def set_status(self, code):
            self.said["status"] = code

        def set_header(self, name, value):
            self.said[name] = value

        def finish(self, text):
            self.said["text"] = text

    handler = Handler()
    asyncio.run(server.DocHandler.get(handler))
    assert waits == [patches.REFUSED_WAIT] and patches.REFUSED_WAIT >= 0.5
    assert handler.said["status"] == 429 and handler.said["text"] == patches.TOO_MANY_PAGES


def test_the_burst_can_be_raised_from_the_environment():
    import pytest

    assert guard.page_burst_from_env({}) == guard.PAGE_BURST
    assert guard.page_burst_from_env({"TB_PAGE_BURST": " 1000 "}) == 1000
    for bad in ("0", "-3", "ten", "1e9", "100001"):
        with pytest.raises(ValueError, match=r"TB_PAGE_BURST must be a whole number from 1"):
            guard.page_burst_from_env({"TB_PAGE_BURST": bad})
