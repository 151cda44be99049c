"""Run once by ``panel serve ... --setup tb_playground/serve_setup.py``, before the server starts.

Imports every page and makes the combat service (the GM link printed at start), then freezes
the imported libraries' heap (``gc.freeze()``) while no session exists. Why and the figures:
docs/notes/0009-combat-panel.md, "Session 6". It also gives the server ``SERVER_SETTINGS``
(issue 21: sessions of plain GETs expire in seconds, big websocket messages are refused unread,
an open page reconnects after a restart), unless the command line sets them.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import math
import pkgutil

import tb_playground.views
from tb_playground import guard
from tb_playground.service import get_service

#: The server's settings the README's command relies on (``server_settings``); the flag of the
#: same name on ``panel serve``'s command line wins.
SERVER_SETTINGS = {
    # --unused-session-lifetime: a session whose page never opened its websocket (a plain GET,
    # a crawler, a script looping on the page) is dropped after 5 s, checked every second.
    "unused_session_lifetime_milliseconds": 5_000,
    # --check-unused-sessions
    "check_unused_sessions_milliseconds": 1_000,
    # --websocket-max-message-size: an upload within ``kit.MAX_UPLOAD`` fits (base64 makes it a
    # third bigger); a bigger message closes its connection before it is read.
    "websocket_max_message_size_bytes": 4 * 1024 * 1024,
    # --session-token-expiration: a page open all evening reconnects after a restart (its token
    # makes the new session); Bokeh's default of 5 minutes would refuse it.
    "session_token_expiration": 7 * 24 * 3600,
}


def server_settings() -> None:
    """Give the server ``SERVER_SETTINGS`` where its command line left Bokeh's defaults.

    ``--setup`` runs before ``panel serve`` makes its server, so the settings are put on the
    server's constructor (once per process).
    """
    from bokeh.server import tornado

    init = tornado.BokehTornado.__init__
    if getattr(init, "_tb_settings", False):
        return
    defaults = {
        "unused_session_lifetime_milliseconds": tornado.DEFAULT_UNUSED_LIFETIME_MS,
        "check_unused_sessions_milliseconds": tornado.DEFAULT_CHECK_UNUSED_MS,
        "websocket_max_message_size_bytes": tornado.DEFAULT_WEBSOCKET_MAX_MESSAGE_SIZE_BYTES,
        "session_token_expiration": tornado.DEFAULT_SESSION_TOKEN_EXPIRATION,
    }

    def with_settings(self, *args, **kwargs):
        for key, ours in SERVER_SETTINGS.items():
            if kwargs.get(key, defaults[key]) == defaults[key]:
                kwargs[key] = ours
        init(self, *args, **kwargs)

    with_settings._tb_settings = True
    tornado.BokehTornado.__init__ = with_settings
    distinct_model_ids()
    limit_page_loads()


#: How long a page request over the limit waits for its answer: a client looping on a page
#: then asks about once a second per connection, not hundreds of times (``bench_loads.py``:
#: 4 looping clients cost the loop 850 refusals a second).
REFUSED_WAIT = 1.0

#: What a client over ``guard.PageLoads``' limit is told (HTTP 429).
TOO_MANY_PAGES = "Too many pages opened from your address at once: wait a moment, then reload."


def limit_page_loads(loads: guard.PageLoads | None = None) -> guard.PageLoads:
    """Answer 429 to a page request over ``guard.PageLoads``' limit, before any session is made.

    Returns the counter (tests read ``refused``).
    """
    from panel.io import server

    handler = server.DocHandler
    if getattr(handler.get, "_tb_loads", None) is not None:
        return handler.get._tb_loads
    loads = loads or guard.PageLoads(burst=guard.page_burst_from_env())
    original = handler.get

    async def get(self, *args, **kwargs):
        if not loads.allow(str(self.request.remote_ip or "unknown")):
            await asyncio.sleep(REFUSED_WAIT)
            self.set_status(429)
            self.set_header("Retry-After", str(math.ceil(1 / guard.PAGE_RATE)))
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(TOO_MANY_PAGES)
            return None
        return await original(self, *args, **kwargs)

    get._tb_loads = loads
    handler.get = get
    return loads


def distinct_model_ids() -> None:
    """Number this process's Bokeh models from its start time, not from 1000 as every process.

    A page that reconnects after a restart may still send a change for a model of the old
    server; with the same numbers in both processes it would land on an unrelated model of the
    new session (a select receiving an old box's value). Started at the second the process
    began times a million, the numbers of two runs never meet (the old one would need a million
    models per second it ran), and an old model's number is refused as unknown.
    """
    import time

    from bokeh.util import serialization

    with serialization._simple_id_lock:
        serialization._simple_id = max(serialization._simple_id, int(time.time()) * 1_000_000)


def log_to_console(level: int = logging.INFO) -> logging.Handler | None:
    """Print the package's log records (``tb_playground.*``) on the server's console.

    Adds a plain stream handler (standard error) to the package logger, unless it has a handler
    besides the package's own ``NullHandler``; its records then stop there (no second copy
    through a handler the server put on the root logger).

    Returns
    -------
    logging.Handler or None
        The handler added, or None if the package logger already had one.
    """
    logger = logging.getLogger("tb_playground")
    if any(not isinstance(h, logging.NullHandler) for h in logger.handlers):
        return None
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    return handler


def _release(session_context) -> None:
    """Let Bokeh's process-wide current document go when its session ends.

    Panel restores Bokeh's ``curdoc()`` to the document that was current before a page was
    built, which is often the page before it: that one closed page (its table session, its
    chart, its whole destroyed Document) then stays alive until another page opens. The memory
    benchmark (``benchmarks/bench_combat.py sessions``) found it; a blank document takes its
    place.
    """
    from bokeh.document import Document
    from bokeh.io.doc import curstate, set_curdoc

    doc = curstate().document
    destroyed = not hasattr(doc, "_roots")  # ``Document.destroy`` deletes it
    if destroyed or doc.session_context is session_context:
        set_curdoc(Document())


def release_closed_documents() -> None:
    """Run ``_release`` at the end of every session of this server."""
    import panel as pn

    pn.state.on_session_destroyed(_release)


def warm() -> int:
    """Import every module under ``tb_playground.views``, make the service, freeze the heap.

    Returns
    -------
    int
        How many objects were frozen.
    """
    for info in pkgutil.iter_modules(tb_playground.views.__path__):
        importlib.import_module(f"tb_playground.views.{info.name}")
    get_service()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


if __name__ in ("__main__", "panel_setup_module"):  # run as a script, or by ``--setup``
    log_to_console()
    server_settings()
    release_closed_documents()
    warm()
