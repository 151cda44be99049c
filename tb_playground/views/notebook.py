"""The views in a notebook without internet: ``inline_updates`` inlines every update's styles.

With ``pn.extension(inline=True)`` Panel 1.9 still links an updated pane's stylesheets to
cdn.holoviz.org; importing ``tb_playground.views`` installs the fix, in notebooks only.
Why and how it is tested: docs/notes/0011-lessons.md.
"""

from __future__ import annotations

import functools
import weakref
from pathlib import Path

import panel as pn
from bokeh.models import ImportedStyleSheet, InlineStyleSheet
from panel.io.resources import CDN_DIST, DIST_DIR
from panel.reactive import Reactive

#: Per document, the inline copy of each of Panel's stylesheets (one Bokeh model, so an update
#: that sends the same stylesheets again changes nothing in the browser).
_INLINED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _local_file(stylesheet: object) -> Path | None:
    """The file in Panel's dist/ that a link to Panel's CDN stands for, if there is one."""
    if not isinstance(stylesheet, ImportedStyleSheet):
        return None
    url = str(stylesheet.url)
    if not url.startswith(CDN_DIST):
        return None
    path = Path(DIST_DIR) / url[len(CDN_DIST) :].split("?")[0]
    return path if path.is_file() else None


def _inlined(stylesheets: list, doc) -> list:
    """The stylesheets with every link to Panel's CDN replaced by the file's contents."""
    cache = _INLINED.setdefault(doc, {}) if doc is not None else {}
    result = []
    for stylesheet in stylesheets:
        path = _local_file(stylesheet)
        if path is not None:
            if path not in cache:
                cache[path] = InlineStyleSheet(css=path.read_text(encoding="utf-8"))
            stylesheet = cache[path]
        result.append(stylesheet)
    return result


def _in_notebook_inline(doc) -> bool:
    """Inline mode, and a document no server session serves (a notebook's output)."""
    return bool(pn.config.inline) and not (doc is not None and doc.session_context)


def _wrap_get_properties(method):
    @functools.wraps(method)
    def _get_properties(self, doc, *args, **kwargs):
        properties = method(self, doc, *args, **kwargs)
        if "stylesheets" in properties and _in_notebook_inline(doc):
            properties["stylesheets"] = _inlined(properties["stylesheets"], doc)
        return properties

    _get_properties._tb_inline = True
    return _get_properties


def _wrap_update_properties(method):
    @functools.wraps(method)
    def _update_properties(self, *events, doc, **kwargs):
        properties = method(self, *events, doc=doc, **kwargs)
        if "stylesheets" in properties and _in_notebook_inline(doc):
            properties["stylesheets"] = _inlined(properties["stylesheets"], doc)
        return properties

    _update_properties._tb_inline = True
    return _update_properties


def inline_updates() -> None:
    """Make Panel inline its own stylesheets on updates too, when ``pn.config.inline`` is on.

    Idempotent; changes nothing while ``inline`` is off or for a page a server serves.
    """
    if not getattr(Reactive._get_properties, "_tb_inline", False):
        Reactive._get_properties = _wrap_get_properties(Reactive._get_properties)
    if not getattr(Reactive._update_properties, "_tb_inline", False):
        Reactive._update_properties = _wrap_update_properties(Reactive._update_properties)
