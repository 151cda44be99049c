"""Run once by ``panel serve ... --setup tb_playground/serve_setup.py``, before the server starts.

Installs the fixes under the pages and the server's own settings and limits
(``tb_playground.views.kit.patches.setup``: sessions of plain GETs expire in seconds, big websocket
messages are refused unread, an open page reconnects after a restart, unless the command line
sets them; issues 21 and 29), imports every page and makes the combat service (the GM link
printed at start), then freezes the imported libraries' heap (``gc.freeze()``) while no session
exists. Why and the figures: docs/notes/0009-combat-panel.md, "Session 6".
"""

from __future__ import annotations

import gc
import importlib
import logging
import pkgutil

import tb_playground.views
from tb_playground.service import get_service
from tb_playground.views.kit import patches


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

    The modules of its subpackages (``views/combat``, ``views/kit``) are imported too.

    Returns
    -------
    int
        How many objects were frozen.
    """
    for info in pkgutil.walk_packages(tb_playground.views.__path__, "tb_playground.views."):
        importlib.import_module(info.name)
    get_service()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


if __name__ in ("__main__", "panel_setup_module"):  # run as a script, or by ``--setup``
    log_to_console()
    patches.setup()
    release_closed_documents()
    warm()
