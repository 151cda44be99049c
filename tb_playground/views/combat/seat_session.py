"""A player's seat on the players' page: the browser's token, the seated session, the questions.

The seat rules are ``table/seats.py`` (Panel-free, in the table file); this module is what the
players' page shows of them (issue 20, "Seats"):

- ``BrowserToken`` keeps the browser's seat token in a cookie (set from the page once it sits;
  the server reads it from the next page load's request), so a reload or a phone back from
  sleep sits down again without a question, even after a new join code.
- ``SeatSession`` is a ``TableSession`` whose every command first checks, in the file, that
  this page still holds its seat: a page that lost it acts for no one.
- ``SeatPrompt`` asks whether to take over a seat another phone holds; ``SeatNote`` tells a
  page that lost its seat that it only watches now, and offers to pick a seat again.

Notes: docs/notes/0009-combat-panel.md, "Seats".
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn
import param
from panel.custom import JSComponent

from tb_playground.formatting import escape
from tb_playground.table import Table
from tb_playground.table.seats import SeatBook, token_ok

from ..kit import button, html_pane, row, update
from .combat_session import TableSession

#: The cookie holding the browser's seat token.
COOKIE = "tb_seat_token"

#: How long the browser keeps the cookie (seconds: 30 days).
COOKIE_AGE = 30 * 24 * 3600

#: What a page that lost its seat answers a command with.
LOST = "This page no longer holds your seat: it only watches now."


def browser_token() -> str | None:
    """The seat token the browser sent with this page's request (None: none, or malformed)."""
    try:
        token = (pn.state.cookies or {}).get(COOKIE)
    except (AttributeError, RuntimeError):
        return None
    return token if token_ok(token) else None


class BrowserToken(JSComponent):
    """Keeps ``token`` in the browser's cookie (nothing to see; a reload sends it back)."""

    token = param.String(default="", doc="The browser's seat token ('' until the page sits).")

    _esm = f"""
    export function render({{ model }}) {{
      const put = () => {{
        if (/^[A-Za-z0-9_-]{{16,64}}$/.test(model.token)) {{
          const keep = "path=/; max-age={COOKIE_AGE}; samesite=lax"
          document.cookie = `{COOKIE}=${{model.token}}; ${{keep}}`
        }}
      }}
      put()
      model.on("token", put)
    }}
    """

    def __init__(self, **params):
        params.setdefault("height", 0)
        params.setdefault("margin", 0)
        super().__init__(**params)


class SeatSession(TableSession):
    """A player's ``TableSession`` that acts only while its page holds the seat.

    Parameters
    ----------
    table : Table
        The live table.
    seat : str
        The character id this page sat as (``SeatBook.sit`` said so).
    on_change : callable
        Runs in the page's document after the table or the seat changed.
    book : SeatBook
        The file's seat claims.
    page : str
        This page's id in the claims.
    """

    def __init__(
        self, table: Table, seat: str, on_change: Callable[[], None], book: SeatBook, page: str
    ):
        super().__init__(table, "player", seat, on_change)
        self.book = book
        self.page = page
        self._watch = book.watch(self._seat_changed)

    def _seat_changed(self, tname: str, seat: str) -> None:
        if tname == self.table.name and seat == self.seat:
            self._changed(self.table.version, [])  # the page looks again (``holds``)

    def holds(self) -> bool:
        """Whether this page holds its seat now (read in the file)."""
        return self.book.holds(self.table.name, self.seat, self.page)

    def send(self, command: dict, expected_version: int | None = None) -> str:
        """``TableSession.send``, refused unless this page holds its seat now."""
        if not self.holds():
            self._changed(self.table.version, [])  # the page turns into a spectator
            return LOST
        return super().send(command, expected_version)

    def close(self) -> None:
        """Stop listening to the table and to the seats (idempotent)."""
        super().close()
        self.book.unwatch(self._watch)


class SeatPrompt(pn.viewable.Viewer):
    """The question "Take over this seat?", shown when another phone holds the seat picked.

    Parameters
    ----------
    on_take : callable
        Called with the seat id when the player takes the seat over.
    """

    def __init__(self, on_take: Callable[[str], None], **params):
        super().__init__(**params)
        self.seat: str | None = None
        self.ask = html_pane("tp-takeover-ask")
        self.take_button = button("Take over the seat", "tp-take-over", "primary")
        self.keep_button = button("Pick another seat", "tp-keep-looking")
        self.take_button.on_click(lambda _e: self.seat and on_take(self.seat))
        self.keep_button.on_click(lambda _e: self.hide())
        self._layout = pn.Column(
            self.ask,
            row(self.take_button, self.keep_button),
            visible=False,
            css_classes=["tp-takeover"],
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout

    def show(self, seat: str, name: str, connected: bool) -> None:
        """Ask about ``seat`` (called ``name``), held by a phone ``connected`` now or not."""
        self.seat = seat
        where = (
            "is open on another phone right now"
            if connected
            else "belongs to a phone that was here a moment ago (it may be asleep)"
        )
        update(
            self.ask,
            object=(
                f'<p class="status"><b>{escape(name)}\'s seat {where}.</b> Take it over? '
                "That phone will then only watch.</p>"
            ),
        )
        self._layout.visible = True

    def hide(self) -> None:
        """No question."""
        self.seat = None
        self._layout.visible = False


#: What a page that lost its seat says, by ``SeatBook.lost``'s reason.
LOST_WORDS = {
    "taken": "Another phone took over your seat ({name}).",
    "freed": "The GM freed your seat ({name}).",
    "elsewhere": (
        "Your seat ({name}) is now open on another page of this browser; this page sits back "
        "down by itself when that one closes."
    ),
}


class SeatNote(pn.viewable.Viewer):
    """The note on a page that lost its seat, with a button to pick a seat again.

    Parameters
    ----------
    on_pick : callable
        Called when the player asks to pick a seat again.
    """

    def __init__(self, on_pick: Callable[[], None], **params):
        super().__init__(**params)
        self.note = html_pane("tp-seat-note")
        self.pick_button = button("Pick a seat", "tp-pick-again", "primary")
        self.pick_button.on_click(lambda _e: on_pick())
        self._layout = pn.Column(
            self.note, self.pick_button, visible=False, sizing_mode="stretch_width"
        )

    def __panel__(self):
        return self._layout

    def show(self, reason: str, name: str) -> None:
        """Say why the seat ``name`` was lost (``LOST_WORDS``) and that the page watches."""
        said = LOST_WORDS.get(reason, LOST_WORDS["taken"]).format(name=name)
        then = (
            "Until then it only watches: you see the table, but cannot act."
            if reason == "elsewhere"
            else "This page only watches now: you see the table, but cannot act. To play, "
            "pick a seat again."
        )
        update(self.note, object=f'<div class="banner">{escape(said)} {then}</div>')
        self._layout.visible = True

    def hide(self) -> None:
        """No note."""
        self._layout.visible = False


__all__ = [
    "COOKIE",
    "LOST",
    "BrowserToken",
    "SeatNote",
    "SeatPrompt",
    "SeatSession",
    "browser_token",
]
