"""``kit.next_tick``: a page's callback from another thread goes through the server's loop.

Bokeh's ``Document.add_next_tick_callback`` called from another thread while the server's
thread holds the document can lose the callback (note 0021); ``next_tick`` must therefore add
it on the loop's own thread.
"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest
from tornado.ioloop import IOLoop

from tb_playground.views.kit import next_tick


class _Doc:
    """A served document's stand-in: records the thread that adds each callback."""

    def __init__(self, loop, fail: bool = False):
        app = SimpleNamespace(io_loop=loop)
        self.session_context = SimpleNamespace(
            server_context=SimpleNamespace(application_context=app)
        )
        self.added: list[int] = []
        self.fail = fail
        self.done = threading.Event()

    def add_next_tick_callback(self, callback):
        self.added.append(threading.get_ident())
        self.done.set()
        if self.fail:
            raise ValueError("the session is gone")
        return callback


@pytest.fixture
def loop():
    """A Tornado IOLoop running on its own thread (as a server's), and that thread's id."""
    ready = threading.Event()
    box = {}

    def run():
        asyncio.set_event_loop(asyncio.new_event_loop())
        box["loop"] = IOLoop.current()
        box["thread"] = threading.get_ident()
        ready.set()
        box["loop"].start()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(5)
    yield box["loop"], box["thread"]
    box["loop"].add_callback(box["loop"].stop)
    t.join(5)


def test_from_another_thread_the_loop_adds_the_callback(loop):
    io_loop, loop_thread = loop
    doc = _Doc(io_loop)
    next_tick(doc, lambda: None)
    assert doc.done.wait(5)
    assert doc.added == [loop_thread]
    assert threading.get_ident() != loop_thread


def test_a_gone_session_calls_gone_once(loop):
    io_loop, _ = loop
    doc = _Doc(io_loop, fail=True)
    gone = threading.Event()
    calls = []
    next_tick(doc, lambda: None, gone=lambda: (calls.append(1), gone.set()))
    assert gone.wait(5)
    assert calls == [1]


def test_without_a_server_the_callback_is_added_here():
    doc = _Doc(None)
    doc.session_context = None
    next_tick(doc, lambda: None)
    assert doc.added == [threading.get_ident()]
