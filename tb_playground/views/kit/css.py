"""The pages' stylesheets: the files in ``tb_playground/views/css/``, read once at import.

Each constant is one file's text without its comments (the comment at the top of each file says
what it is for), so a pane sends only the rules. Pass them as a pane's ``stylesheets`` or a
page's ``raw_css``.
"""

from __future__ import annotations

import re
from pathlib import Path

#: The folder of the ``.css`` files (package data: a wheel ships them).
CSS_DIR = Path(__file__).resolve().parents[1] / "css"

_COMMENT = re.compile(r"/\*.*?\*/\s*", re.DOTALL)


def stylesheet(name: str) -> str:
    """The stylesheet ``name`` (a file in ``CSS_DIR``), its comments left out."""
    return _COMMENT.sub("", (CSS_DIR / name).read_text(encoding="utf-8")).strip() + "\n"


#: Every view's small rule tables (``table.tb``).
TABLE_CSS = stylesheet("table.css")
#: A Markdown pane's tables, ruled grey in both themes.
MARKDOWN_TABLE_CSS = stylesheet("markdown_table.css")
#: Buttons whose Panel colours are hard to read, made readable in both themes.
READABLE_BUTTONS = stylesheet("readable_buttons.css")
#: A page's header on a phone (the title wraps beside the theme switch).
PHONE_CSS = stylesheet("phone.css")
#: A sidebar of controls stacked above the page on a narrow screen.
STACKED_SIDEBAR_CSS = stylesheet("stacked_sidebar.css")
#: Button groups that keep their labels whole on a phone.
NARROW_BUTTONS = stylesheet("narrow_buttons.css")
#: A row of toggle buttons that wraps on a phone.
WRAP_BUTTONS = stylesheet("wrap_buttons.css")
#: The navigation bar on every page.
NAV_CSS = stylesheet("nav.css")
#: Every site-template page on a phone.
SITE_CSS = stylesheet("site.css")
#: The landing page's cards.
LANDING_CSS = stylesheet("landing.css")
#: A rule text on the Rules page.
RULES_TEXT_CSS = stylesheet("rules_text.css")
#: Every combat pane (cards, log, odds of the attack under way).
COMBAT_CSS = stylesheet("combat.css")
#: The combat board's cards in a wrapping row.
CARD_ROW_CSS = stylesheet("card_row.css")
#: The fight's story on the combat pages: the replay's banner, the night's numbers.
STORY_CSS = stylesheet("story.css")
#: The roll-under playground's panes.
ODDS_CSS = stylesheet("odds.css")
#: The damage page's panes.
DAMAGE_CSS = stylesheet("damage.css")
#: The rules lab's panes.
LAB_CSS = stylesheet("lab.css")
#: The character sheet's panes (stats, derived values, skills, attacks, the rows editor).
SHEET_CSS = stylesheet("sheet.css")
#: The character sheet page as a whole.
SHEET_PAGE_CSS = stylesheet("sheet_page.css")
#: The encounter planner's panes.
PLANNER_CSS = stylesheet("planner.css")
#: The combat pages' action panel (views/combat/action_panel.py).
ACTION_PANEL_CSS = stylesheet("action_panel.css")
#: The chance to win from here and its chart (views/combat/win_chart.py).
WIN_CSS = stylesheet("win_chart.css")
#: The upload box: its limit and its refusals (``kit.UploadBox``).
UPLOAD_CSS = stylesheet("upload.css")
