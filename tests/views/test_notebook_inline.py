"""Offline notebooks: with pn.extension(inline=True) an update never links to Panel's CDN.

Panel 1.9 inlines the stylesheets of a first render only; ``patches.NOTEBOOK_INLINE``, put in
place by ``tb_playground.views.extension`` (the lessons' first cell), inlines those an update
sends again (an HTML pane's new object); Panel 1.10 does it itself. The browser side of this is
tests/ui/test_jupyterlab_ui.py, which blocks the internet.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import panel as pn
from bokeh.document import Document
from bokeh.models import ImportedStyleSheet, InlineStyleSheet
from panel.io.resources import CDN_DIST

from tb_playground.views import DamageExplorer
from tb_playground.views.kit import patches

patches.install((patches.NOTEBOOK_INLINE,))  # as ``extension()``, the lessons' first cell


def cdn_links(model) -> list[str]:
    return [
        str(s.url)
        for s in model.stylesheets
        if isinstance(s, ImportedStyleSheet) and str(s.url).startswith(CDN_DIST)
    ]


def rendered(viewable):
    """The Bokeh model of ``viewable`` as a notebook's output renders it (Panel's own steps:
    a document and a comm, then its stylesheets inlined when ``inline`` is on)."""
    from bokeh.models import UIElement
    from panel.io.notebook import patch_inline_stylesheets

    doc = Document()
    model = viewable.get_root(doc, pn.state._comm_manager.get_server_comm())
    if pn.config.inline:
        per_document = len(inspect.signature(patch_inline_stylesheets).parameters) > 1
        for sub in model.select({"type": UIElement}):
            patch_inline_stylesheets(sub, doc) if per_document else patch_inline_stylesheets(sub)
    return model


def test_an_updated_pane_keeps_its_stylesheets_inline():
    with pn.config.set(inline=True):
        pane = pn.pane.HTML("<p>before</p>")
        model = rendered(pane)
        assert not cdn_links(model)
        first = list(model.stylesheets)
        assert any(isinstance(s, InlineStyleSheet) for s in first)
        pane.object = "<p>after</p>"
        assert not cdn_links(model)
        assert [getattr(s, "css", s) for s in model.stylesheets] == [
            getattr(s, "css", s) for s in first
        ]  # the same styles, inline


def test_online_and_served_pages_keep_their_links():
    # Online (not inline) whatever an earlier test in this process left in ``pn.config``.
    with pn.config.set(inline=False):
        pane = pn.pane.HTML("<p>before</p>")
        model = rendered(pane)
        pane.object = "<p>after</p>"
        assert cdn_links(model)  # a notebook online loads Panel's CSS from the CDN as before


def test_every_update_of_the_damage_explorer_stays_inline():
    with pn.config.set(inline=True):
        explorer = DamageExplorer()
        root = rendered(pn.panel(explorer))
        explorer.attack.param.update(kind="social", boosts=2, target_wall=7)
        explorer.attack.kind = "mental"
        leaks = [m for m in root.references() if hasattr(m, "stylesheets") and cdn_links(m)]
        assert not leaks


def test_the_notebook_loader_names_the_jupyter_servers_files():
    """Issue 34: the loader a lesson's ``extension()`` publishes names Panel's and Bokeh's files
    as Panel's Jupyter server extension serves them, instead of holding 6 MB of their text."""
    from bokeh.resources import INLINE
    from bokeh.util.paths import static_path
    from panel.io import notebook
    from panel.io.resources import DIST_DIR, Resources, set_resource_mode

    patches.install((patches.NOTEBOOK_LOCAL_RESOURCES,))  # as ``extension()``
    with set_resource_mode("inline"):  # as ``load_notebook(inline=True)``
        resources = Resources.from_bokeh(INLINE, notebook=True)
        bundle = notebook.bundle_resources(None, resources, notebook=True)
    urls = [str(url).split("?")[0] for url in [*bundle.js_files, *bundle.css_files]]
    assert "/panel-preview/static/js/bokeh.min.js" in urls
    assert "/panel-preview/static/extensions/panel/panel.min.js" in urls
    for url in urls:  # each is a file the Jupyter server has
        if url.startswith("/panel-preview/static/extensions/panel/"):
            path = Path(DIST_DIR) / url.removeprefix("/panel-preview/static/extensions/panel/")
        else:
            path = Path(static_path()) / url.removeprefix("/panel-preview/static/")
        assert path.is_file(), url
    assert sum(len(text) for text in bundle.js_raw) < 100_000  # no library inlined


def test_an_address_of_neither_cdn_is_left_as_it_is():
    assert patches.local_url("https://example.org/x.js") == "https://example.org/x.js"
    assert (
        patches.local_url("https://cdn.bokeh.org/bokeh/release/bokeh-widgets-3.9.2.min.js")
        == "/panel-preview/static/js/bokeh-widgets.min.js"
    )
