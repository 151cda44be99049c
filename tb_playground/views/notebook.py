"""The views in a notebook without internet: ``extension`` is ``pn.extension`` for the lessons.

``extension(*names)`` loads Panel's and Bokeh's JavaScript from the kernel
(``pn.extension(*names, inline=True)``), so the widgets work on a laptop without Wi-Fi, and
puts in place ``patches.NOTEBOOK_INLINE`` where the installed Panel needs it (1.9: an updated
pane's stylesheets linked to the CDN; Panel 1.10 inlines them itself). Importing the views
changes nothing in Panel (issue 29). Why and how it is tested: docs/notes/0011-lessons.md.
"""

from __future__ import annotations

import panel as pn

from .kit import patches


def extension(*names: str, **config) -> None:
    """``pn.extension(*names, inline=True, **config)`` and the notebook patch where it is needed.

    Parameters
    ----------
    *names : str
        Panel extensions to load (``"tabulator"``...).
    **config
        Further ``pn.extension`` settings.
    """
    patches.install((patches.NOTEBOOK_INLINE, patches.NOTEBOOK_LOCAL_RESOURCES))
    pn.extension(*names, inline=True, **config)
