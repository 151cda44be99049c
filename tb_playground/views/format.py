"""How numbers from the engine are written on a page. Presentation only, no maths."""

from __future__ import annotations

import html

#: Stylesheet for the small rule tables every view shows (passed into each pane's shadow root).
#: Text takes the theme's colour; the highlighted row sets both its background and its text
#: (dark on pale yellow, readable in the light and the dark theme alike).
TABLE_CSS = """
table.tb { border-collapse: collapse; width: 100%; font-size: 0.92em; }
table.tb td, table.tb th { border-bottom: 1px solid #8888; padding: 3px 6px; text-align: left; }
table.tb tr.current { background: #fff3c4; color: #1a1a1a; font-weight: 600; }
"""

#: Button groups keep their labels whole on a phone: less padding, a slightly smaller font.
NARROW_BUTTONS = ".bk-btn { padding-left: 2px; padding-right: 2px; font-size: 0.92em; }"


def percent(p: float) -> str:
    """Write a probability as a percentage with one decimal ("55.0%").

    Non-zero values that would round to 0.0% are written "<0.1%" so that a rare but
    possible outcome (a Master's catastrophe) never reads as impossible.
    """
    if p <= 0:
        return "0%"
    if p < 0.0005:
        return "<0.1%"
    if p >= 1:
        return "100%"
    if p > 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%"


def escape(text: object) -> str:
    """HTML-escape any text that reaches a page (names, notes, labels)."""
    return html.escape(str(text), quote=True)
