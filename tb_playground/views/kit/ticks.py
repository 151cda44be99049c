"""Running a callback in a page's document from any thread (the table's, a worker's).

Bokeh documents ``Document.add_next_tick_callback`` as safe from other threads, but it is not
while the document is held: the callback's registration is then an event appended to the
document's held events, and the server's thread, releasing its hold at that moment, copies and
empties that list. An event appended in between (or to the list being replaced) is lost, the
callback never runs, and a page that waits for its refresh before scheduling another (the
combat pages, the win chart) stops updating for good. Seen as three rare test failures in
session 9 (a GM card stuck at the Ki before a boost, a phone that never showed its dice box or
its seat): note 0021.

``next_tick`` hands the callback to the server's IOLoop (``IOLoop.add_callback`` is made for
other threads), and the IOLoop's own thread adds it to the document, where holds cannot race.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def _loop_of(doc):
    """The IOLoop serving ``doc``'s session, or None (no server, or the session is gone)."""
    ctx = getattr(doc, "session_context", None)
    server = getattr(ctx, "server_context", None)
    app = getattr(server, "application_context", None)
    return getattr(app, "io_loop", None)


def on_the_loop_of(doc) -> bool:
    """Whether this thread is running the event loop that serves ``doc``."""
    loop = getattr(_loop_of(doc), "asyncio_loop", None)
    try:
        return loop is not None and asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop runs on this thread
        return False


def next_tick(doc, callback: Callable[[], None], gone: Callable[[], None] | None = None) -> None:
    """Run ``callback`` on ``doc``'s next tick; safe from any thread.

    Parameters
    ----------
    doc : bokeh.document.Document
        A served page's document.
    callback : callable
        Runs on the server's thread with the document locked, as Bokeh's next-tick callbacks do.
    gone : callable, optional
        Runs instead when the document can no longer take callbacks (its session ended).
    """

    def add() -> None:
        try:
            doc.add_next_tick_callback(callback)
        except Exception:  # noqa: BLE001 - the session is gone
            if gone is not None:
                gone()

    loop = _loop_of(doc)
    if loop is None:
        add()
        return
    loop.add_callback(add)  # a closed loop (the server stopped) drops it: no page to update
