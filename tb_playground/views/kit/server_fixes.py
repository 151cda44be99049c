"""Three fixes of the server under every page, found by the combat pages' flaky tests (note 0022).

``install()`` puts them in place (idempotent); importing the kit calls it.

**Changes made while a browser renders the page reach it** (Panel 1.9, ``io/document.py``).
Panel counts a session as connected once its browser has rendered the page and said so
(``document_ready``). A ``hold`` that ends before that drops the held model changes, on the
reasoning that the document will be sent in full when the browser connects. But the browser has
already pulled the document by then (it pulls first, renders, then says ready): what changed in
between never reaches it. A combat page that refreshed for a command applied while its phone
was still drawing stayed at the older event (its dice box never showed: note 0022). Here a held
change is dropped only while no browser is connected to the session at all; with one, it is
sent as Bokeh sends any change (inside the document's lock; else on its next tick).

**Panel's queued websocket writes, none left behind** (Panel 1.9, ``io/document.py``). Panel
writes a page's held changes straight to its websocket, unless the socket is busy (Bokeh holds
its write lock): then it serializes them at once, queues them (``_WRITE_MSGS``), raises a flag
(``_WRITE_BLOCK``: later changes queue behind) and schedules ``_dispatch_msgs`` to write the
queue. A ``_dispatch_msgs`` that awaits its writes lowers the flag when it resumes, even when
another refresh queued new messages meanwhile; the task scheduled for those then finds no flag
and returns, and the queue waits for the page's next change. On a loaded server a player's page
missed the redraw of its own attack this way and stayed a step behind: the server had drawn
it, the browser got no frame for 5 s. ``_dispatch_msgs`` here raises the flag again for a
queue found behind a lowered one; Panel's own then writes it.

**A websocket closed while its session opens is let go** (Bokeh 3.9, ``server/views/ws.py``).
``WSHandler.open`` creates the session on a later tick (``_async_open``); a browser that closes
the socket meanwhile (a reload while the old page was reconnecting to a restarted server) gets
``on_close`` before the connection exists, so nothing is released, and the connection made a
moment later stays subscribed to its session for good. That session never counts as unused,
never ends, and kept a player's seat from the page the player was looking at (it sat as the
same browser a moment after the reload). Here the connection of a socket already closed is
released as ``on_close`` would have, and the session ends as unused ones do.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from bokeh.document.events import DocumentPatchedEvent, MessageSentEvent
from bokeh.server.views import ws as bokeh_ws
from panel.io import document as panel_document

from .ticks import _loop_of, next_tick

log = logging.getLogger(__name__)

# -- Panel's queued writes -------------------------------------------------------------------------


_PANEL_DISPATCH = getattr(panel_document, "_dispatch_msgs", None)


async def _dispatch_msgs(doc) -> None:
    """Panel's ``_dispatch_msgs``, which writes a queue only behind a raised flag: raised here."""
    if doc in panel_document._WRITE_MSGS and doc not in panel_document._WRITE_BLOCK:
        log.info("queued messages without the write flag: written now (Panel would wait)")
        panel_document._WRITE_BLOCK[doc] = True
    await _PANEL_DISPATCH(doc)  # it schedules this function again while a socket is busy


# -- Panel's changes before the browser said it was ready ----------------------------------------

_PANEL_DRAIN = getattr(panel_document, "_drain_unconnected_events", None)


def _drain_unconnected_events(doc, lock):
    """The held events of ``doc`` to dispatch now, its session not yet ready (see above).

    Without a connected browser, Panel's own rule (the document goes out in full later). With
    one, model changes are kept: returned to be dispatched now when this thread holds the
    document's lock (Bokeh writes them after the callback), else dispatched on the document's
    next tick (``next_tick``: safe from any thread).
    Custom messages wait for the browser's ready, as Panel has them wait.
    """
    session = getattr(getattr(doc, "session_context", None), "_session", None)
    if not getattr(session, "_subscribed_connections", None):
        return _PANEL_DRAIN(doc, lock)
    with lock:  # the model changes out; the rest as Panel sorts it
        patches, rest = [], []
        for event in doc.callbacks._held_events or []:
            if isinstance(event, DocumentPatchedEvent) and not isinstance(event, MessageSentEvent):
                patches.append(event)
            else:
                rest.append(event)
        doc.callbacks._held_events = rest
    now = _PANEL_DRAIN(doc, lock)
    log.debug("%d changes held before the browser was ready: sent", len(patches))
    if patches and session._pending_writes is not None and _on_the_loop_of(doc):
        now.extend(patches)  # in the document's lock, on its thread: Bokeh writes them next
    elif patches:  # another thread, or outside the lock: on the document's next tick
        next_tick(doc, partial(panel_document.retrigger_events, doc, patches))
    return now


def _on_the_loop_of(doc) -> bool:
    """Whether this thread is running the event loop that serves ``doc``."""
    loop = getattr(_loop_of(doc), "asyncio_loop", None)
    try:
        return loop is not None and asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop runs on this thread
        return False


# -- Bokeh's websocket opening ---------------------------------------------------------------------

_BOKEH_ASYNC_OPEN = bokeh_ws.WSHandler._async_open
_BOKEH_ON_CLOSE = bokeh_ws.WSHandler.on_close

#: Set on a handler by ``on_close``: the connection it released (None: none existed yet).
_RELEASED = "_tb_released"


def _on_close(self) -> None:
    setattr(self, _RELEASED, self.connection)
    _BOKEH_ON_CLOSE(self)


async def _async_open(self, token: str) -> None:
    try:
        await _BOKEH_ASYNC_OPEN(self, token)
    finally:
        closed_before = hasattr(self, _RELEASED) and getattr(self, _RELEASED) is None
        if closed_before and self.connection is not None:
            log.info("a websocket closed while its session opened: its connection released")
            setattr(self, _RELEASED, self.connection)
            self.connection.session.notify_connection_lost()
            self.application.client_lost(self.connection)


def install() -> None:
    """Put the fixes in place (a Panel or Bokeh without the code fixed: that one is skipped)."""
    if _PANEL_DISPATCH is not None and hasattr(panel_document, "_WRITE_BLOCK"):
        panel_document._dispatch_msgs = _dispatch_msgs
    if _PANEL_DRAIN is not None and hasattr(panel_document, "_UNCONNECTED_EVENTS"):
        panel_document._drain_unconnected_events = _drain_unconnected_events
    handler = bokeh_ws.WSHandler
    if handler._async_open is _BOKEH_ASYNC_OPEN and handler.on_close is _BOKEH_ON_CLOSE:
        handler._async_open = _async_open
        handler.on_close = _on_close
