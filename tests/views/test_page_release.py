"""A closed page is released: nothing process-wide keeps its chart or its document alive.

The memory benchmark (``benchmarks/bench_combat.py sessions``, issue 20) found two holders of
a closed page: the chart's HoloViews hooks, kept in HoloViews' process-wide option tree, and
Bokeh's process-wide current document. These tests pin both without a server.
"""

from __future__ import annotations

import gc
import weakref

from bokeh.document import Document
from bokeh.io.doc import curstate, set_curdoc
from holoviews.core.options import Store

from tb_playground.serve_setup import _release
from tb_playground.views.combat.win_chart import WinChart


def _hooks_of(chart: WinChart) -> list:
    """The hooks HoloViews keeps for the chart's drawn figure, process-wide."""
    hooks = []
    for element in chart._figure.object.traverse(lambda e: e):
        for group in ("plot",):
            options = Store.lookup_options("bokeh", element, group).kwargs
            hooks += options.get("hooks", [])
    return hooks


def test_the_chart_is_collected_while_holoviews_keeps_its_hooks():
    chart = WinChart(audience="gm")
    chart._make_figure()
    hooks = _hooks_of(chart)
    assert len(hooks) >= 4  # band, line, marks and the figure (and the whole-events hook)
    gone = weakref.ref(chart)
    del chart
    gc.collect()
    assert gone() is None
    kept = [h for h in hooks if "_keep" in h.__qualname__]
    assert len(kept) == 4
    for hook in kept:  # a hook left behind touches nothing
        assert hook(None, None) is None


def test_a_destroyed_document_is_not_kept_as_bokehs_current_one():
    before = curstate().document
    try:
        page = Document()
        set_curdoc(page)

        class Session:  # what a server session gives its document
            def _document_patched(self, event):
                pass

        session = Session()
        page.on_change_dispatch_to(session)
        page.destroy(session)  # what Bokeh does when the page's session ends
        gone = weakref.ref(page)
        del page
        _release(object())
        gc.collect()
        assert gone() is None
        assert hasattr(curstate().document, "_roots")  # a blank document in its place
    finally:
        set_curdoc(before)


def test_the_current_document_of_a_live_session_stays():
    before = curstate().document
    try:
        live = Document()
        set_curdoc(live)
        _release(object())  # another session ended
        assert curstate().document is live
    finally:
        set_curdoc(before)
