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


def test_a_client_opens_a_burst_then_waits_its_turn_rather_than_being_refused():
    clock = Clock()
    loads = guard.PageLoads(burst=5, rate=2.0, clock=clock, max_pace=1.0)
    assert [loads.reserve("a") for _ in range(7)] == [0.0] * 5 + [0.5, 1.0]
    assert loads.reserve("a") is None  # more than a second of requests queued: too many
    assert loads.reserve("b") == 0.0  # another address is not held back
    assert loads.refused == 1 and loads.paced == 2
    clock.now += 60  # a minute later: a whole burst again, never more
    assert sum(loads.reserve("a") == 0 for _ in range(10)) == 5


def test_a_classroom_behind_one_address_all_get_their_page_at_once():
    """Issue 33, item 2: the 11th page load from an address within a minute was refused."""
    loads = guard.PageLoads(clock=Clock())
    assert [loads.reserve("10.0.0.1") for _ in range(30)] == [0.0] * 30


def test_one_person_opens_every_page_twice_a_minute_without_waiting():
    clock = Clock()
    loads = guard.PageLoads(clock=clock)
    person = guard.client_key("10.0.0.1", guard.new_browser_cookie())
    assert loads.reserve("10.0.0.1") == 0.0  # the first page, before the browser has its id
    for _minute in range(3):
        for _ in range(2 * 9 - 1):  # the site's 9 pages, twice each
            assert loads.reserve(person, browser=True) == 0.0
            clock.now += 60 / 18
    assert loads.paced == loads.refused == 0


@pytest.mark.own_thread
def test_a_busy_clients_queue_never_delays_another_persons_page():
    """Issue 33, item 9: builds go one at a time, the least busy client's first."""
    import asyncio

    gate, order = guard.PageGate(), []

    async def build(who: str, score: float, done: asyncio.Event | None = None) -> None:
        await gate.enter(score)
        try:
            if done is not None:
                await done.wait()  # the build under way when the person asks
            order.append(who)
        finally:
            gate.leave()

    async def main() -> None:
        person_asked = asyncio.Event()
        loops = [asyncio.create_task(build("loop 0", 30, person_asked))]
        loops += [asyncio.create_task(build(f"loop {i}", 30 + i)) for i in range(1, 6)]
        await asyncio.sleep(0)  # the loops' requests are in: one building, five queued
        person = asyncio.create_task(build("person", 1))
        await asyncio.sleep(0)
        person_asked.set()
        await asyncio.gather(*loops, person)

    asyncio.run(main())
    assert order.index("person") == 1  # behind the build under way, before the queue
    assert sorted(order) == sorted([f"loop {i}" for i in range(6)] + ["person"])


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


class _Request:
    def __init__(self, address: str, cookie: str | None = None):
        from http.cookies import SimpleCookie

        self.remote_ip = address
        self.cookies = SimpleCookie()
        if cookie:
            self.cookies[guard.BROWSER_COOKIE] = cookie


class _Handler:
    """The parts of Panel's ``DocHandler`` the page-load patch uses."""

    def __init__(self, request: _Request):
        self.request, self.said, self.cookie = request, {}, None

    def set_status(self, code):
        self.said["status"] = code

    def set_header(self, name, value):
        self.said[name] = value

    def set_cookie(self, name, value, **how):
        self.cookie = (name, value, how)

    def finish(self, text):
        self.said["text"] = text


def _patched(monkeypatch, built: list):
    """The page-load patch over a fake build, its sleeps recorded instead of slept."""
    import asyncio

    from panel.io import server

    from tb_playground.views.kit import patches

    async def original(handler, *args, **kwargs):
        built.append(handler.request.cookies[guard.BROWSER_COOKIE].value)
        return "page"

    monkeypatch.setattr(server.DocHandler, "get", original)
    patches.PAGE_LOAD_LIMIT.state = "not tried"
    patches.install((patches.PAGE_LOAD_LIMIT,))
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    monkeypatch.setattr(patches.asyncio, "sleep", sleep)
    return server.DocHandler.get, waits, asyncio


@pytest.mark.own_thread
def test_thirty_page_loads_from_one_address_are_built_each_with_its_browser_id(monkeypatch):
    """Each browser gets an id (a cookie) on its first page, seen by the page's session."""
    built: list[str] = []
    get, waits, asyncio = _patched(monkeypatch, built)
    handlers = [_Handler(_Request("203.0.113.5")) for _ in range(30)]

    async def main():
        return await asyncio.gather(*(get(h) for h in handlers))

    assert asyncio.run(main()) == ["page"] * 30 and waits == []
    ids = {guard.browser_id(value) for value in built}
    assert len(ids) == 30 and None not in ids
    name, value, how = handlers[0].cookie
    assert name == guard.BROWSER_COOKIE and how["httponly"] and value == built[0]


@pytest.mark.own_thread
def test_a_looping_client_waits_its_turn_then_is_told_too_many(monkeypatch):
    """Beyond its pace a client waits (not refused); a queue over MAX_PACE gets a 429."""
    from tb_playground.views.kit import patches

    built: list[str] = []
    get, waits, asyncio = _patched(monkeypatch, built)
    (loads,) = patches.PAGE_LOADS
    while loads.reserve("203.0.113.9") == 0:  # this address has used its burst
        pass
    paced = _Handler(_Request("203.0.113.9"))
    assert asyncio.run(get(paced)) == "page" and 0 < waits[-1] <= guard.MAX_PACE
    while loads.reserve("203.0.113.9") is not None:
        pass
    handler = _Handler(_Request("203.0.113.9"))
    asyncio.run(get(handler))
    assert waits[-1] == patches.REFUSED_WAIT and patches.REFUSED_WAIT >= 0.5
    assert handler.said["status"] == 429 and handler.said["text"] == patches.TOO_MANY_PAGES


def test_the_burst_can_be_raised_from_the_environment():
    import pytest

    assert guard.page_burst_from_env({}) == guard.PAGE_BURST
    assert guard.page_burst_from_env({"TB_PAGE_BURST": " 1000 "}) == 1000
    for bad in ("0", "-3", "ten", "1e9", "100001"):
        with pytest.raises(ValueError, match=r"TB_PAGE_BURST must be a whole number from 1"):
            guard.page_burst_from_env({"TB_PAGE_BURST": bad})
