"""The views in a notebook without internet: ``extension`` is ``pn.extension`` for the lessons.

``extension(*names)`` is ``pn.extension(*names, inline=True)``: nothing is fetched from a CDN,
so the widgets work on a laptop without Wi-Fi. Two patches make that hold and keep the notebook
small, where the installed Panel needs them: ``patches.NOTEBOOK_INLINE`` (1.9: an updated
pane's stylesheets linked to the CDN; Panel 1.10 inlines them itself) and
``patches.NOTEBOOK_LOCAL_RESOURCES`` (1.9 and 1.10: the loader names Panel's and Bokeh's
JavaScript as the Jupyter server serves it, ``/panel-preview/static/``, instead of writing 6 MB
of it into the notebook, which every save then kept; issue 34; on 1.10 only where the kernel's
Jupyter server serves Panel's extension, ``PANEL_JUPYTER_ENDPOINT``). Importing the views
changes nothing in Panel (issue 29). Why and how it is tested: docs/notes/0011-lessons.md.
"""

from __future__ import annotations

import panel as pn

from .kit import patches


def extension(*names: str, **config) -> None:
    """``pn.extension(*names, inline=True, **config)`` and the notebook patches where needed.

    Parameters
    ----------
    *names : str
        Panel extensions to load (``"tabulator"``...).
    **config
        Further ``pn.extension`` settings.
    """
    patches.install((patches.NOTEBOOK_INLINE, patches.NOTEBOOK_LOCAL_RESOURCES))
    pn.extension(*names, inline=True, **config)
