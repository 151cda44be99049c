"""The character sheet's layout: cards that open and close and say so, and the panes in them.

Cards grow from 380 px, so they sit side by side on a wide screen and stack on a phone; the
whole header of a card opens and closes it, and its title says which it is (``OPEN``,
``CLOSE``). Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape

from .kit import SHEET_CSS, TABLE_CSS

#: What a card's header says it does when clicked (the whole header opens and closes it).
OPEN, CLOSE = "\u25b8", "\u25be"

#: Cards grow from 380 px, so they sit side by side on a wide screen and stack on a phone.
CARD = {"sizing_mode": "stretch_width", "margin": (5, 5), "styles": {"flex": "1 1 380px"}}

#: Cards that want a whole row (the skill odds table, the attack table).
WIDE = {"styles": {"flex": "1 1 100%"}}

#: Panes that fill their card's width.
STRETCH = {"sizing_mode": "stretch_width"}


def label(text: str) -> pn.pane.HTML:
    """A small title over a button group (button groups show no label of their own)."""
    return pn.pane.HTML(f"<b>{escape(text)}</b>", margin=(6, 10, 0, 10), **STRETCH)


def sheet_pane(css: str, **kwargs) -> pn.pane.HTML:
    """An HTML pane of the sheet (its tables' stylesheets), with the CSS class ``css``."""
    kwargs.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(css_classes=[css], stylesheets=[SHEET_CSS, TABLE_CSS], **kwargs)


class CardDeck:
    """The sheet's cards: each opens and closes from its header, and says which it is."""

    def __init__(self):
        self.cards: list[pn.Card] = []
        self._titles: dict[int, tuple[str, Callable[[], str] | None]] = {}

    def card(
        self,
        title: str,
        *objects,
        css: str = "",
        subtitle: Callable[[], str] | None = None,
        **kwargs,
    ) -> pn.Card:
        """A card of ``objects`` titled ``title`` (and ``subtitle()``, redrawn with the rest)."""
        card = pn.Card(
            *objects,
            title=title,
            css_classes=[css] if css else [],
            collapsible=True,
            **{**CARD, **kwargs},
        )
        self._titles[id(card)] = (title, subtitle)
        card.param.watch(lambda event: self._title_card(event.obj), ["collapsed"])
        self.cards.append(card)
        self._title_card(card)
        return card

    def _card_title(self, card: pn.Card) -> str:
        title, subtitle = self._titles[id(card)]
        if subtitle is not None:
            title = f"{title}: {subtitle()}"
        if card.collapsed:
            return f"{OPEN} {title} (closed: click to show)"
        return f"{CLOSE} {title}"

    def _title_card(self, card: pn.Card) -> None:
        title = self._card_title(card)
        if card.title != title:
            card.title = title

    def retitle(self) -> None:
        """Title every card again (a subtitle may have changed)."""
        for card in self.cards:
            self._title_card(card)
