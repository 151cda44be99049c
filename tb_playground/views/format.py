"""How numbers from the engine are written on a page. Presentation only, no maths."""

from __future__ import annotations

from tb_playground.formatting import escape, percent

#: Stylesheet for the small rule tables every view shows (passed into each pane's shadow root).
#: Text takes the theme's colour; the highlighted row is yellow mixed into the theme's
#: background (pale yellow in the light theme, dark amber in the dark one) under the theme's
#: text colour, so it stays readable and is no light island on a dark page.
TABLE_CSS = """
table.tb { border-collapse: collapse; width: 100%; font-size: 0.92em; }
table.tb td, table.tb th { border-bottom: 1px solid #8888; padding: 3px 6px; text-align: left; }
table.tb tr.current { font-weight: 600; color: var(--panel-on-background-color, #1a1a1a);
  background: color-mix(in srgb, #f0b400 28%, var(--panel-background-color, #ffffff)); }
"""

#: Stylesheet for a Markdown pane's tables: Panel draws their rules in the text colour (white
#: lines on the dark theme); a grey rule reads the same in both themes.
MARKDOWN_TABLE_CSS = """
table, th, td { border-color: rgba(128, 128, 128, 0.55); }
"""

#: Stylesheet for buttons whose Panel colours are hard to read (a widget's ``stylesheets``): an
#: outline "warning" button's label is Panel's amber (#ffc107, 1.6:1 on white), here mixed
#: toward the theme's text colour (5:1 on white, amber on dark); a solid "success" button is a
#: darker green under its white label (5.3:1 instead of 2.5:1), and a solid "warning" button's
#: label is dark on its amber (8:1 instead of white's 1.9:1), in either theme. A plain
#: ("default") button gets a grey border: Panel draws it #f3f3f3 on white, a shape a phone
#: user cannot see (1.1:1).
READABLE_BUTTONS = """
:host(.solid) .bk-btn.bk-btn-default { border-color: rgba(128, 128, 128, 0.75); }
:host(.outline) .bk-btn-warning:not(.bk-active):not(:hover) {
  color: color-mix(in srgb, #ffc107 45%, var(--panel-on-background-color, #212529)); }
:host(:not(.outline)) .bk-btn-success { background-color: #1f7a45; border-color: #1f7a45;
  color: #ffffff; }
:host(:not(.outline)) .bk-btn-warning { color: #1d1d1d; }
"""

#: Page CSS for a phone (raw_css of the odds and damage pages). The header's title may wrap and
#: shrink beside the theme switch (``.app-header`` is ``display: contents``, so the title
#: itself is the flex item), instead of pushing the page wider than the screen.
PHONE_CSS = """
@media (max-width: 600px) {
  #header .title { flex: 1 1 auto; min-width: 0; overflow: hidden; white-space: normal;
    line-height: 1.15; font-size: 1em; }
  #header .pn-busy-container { display: none; }
}
"""

#: A page whose controls sit in the sidebar: on a narrow screen the sidebar stacks above the
#: main area at full width (the menu button still hides it) and the page scrolls as one.
STACKED_SIDEBAR_CSS = """
@media (max-width: 700px) {
  #content { flex-direction: column; height: auto; width: 100%; }
  #sidebar:not(.hidden) { min-width: 0; max-width: none; height: auto; overflow: visible;
    border-right: 0; }
  #sidebar.hidden { height: 0; }
  #main { height: auto; overflow: visible; }
}
"""

#: Button groups keep their labels whole on a phone: less padding, a slightly smaller font.
NARROW_BUTTONS = ".bk-btn { padding-left: 2px; padding-right: 2px; font-size: 0.92em; }"

__all__ = ["NARROW_BUTTONS", "PHONE_CSS", "STACKED_SIDEBAR_CSS", "TABLE_CSS", "escape", "percent"]
