"""The GM's seat list: who sits where, whether their phone is connected, and "Free the seat".

Read from the table file's seat claims (``table/seats.py``), so it shows the phones of every
server process on the file: this process's changes show at once, the others' within
``POLL_MS`` (the list also counts how long a phone has been away). Freeing a seat makes the
phone in it a spectator, which may sit down again. Issue 20, "Seats"; notes:
docs/notes/0009-combat-panel.md, "Seats".
"""

from __future__ import annotations

import panel as pn
from panel.io.state import set_curdoc

from tb_playground.formatting import escape
from tb_playground.table import Table
from tb_playground.table.seats import GRACE, Claim

from ..kit import button, html_pane, next_tick, row, update

#: How often the list reads the file again (ms).
POLL_MS = 2000


def _minutes(seconds: float) -> str:
    if seconds < 60:
        return "under a minute"
    n = int(seconds // 60)
    return f"{n} minute{'s' if n != 1 else ''}"


def _ago(seconds: float) -> str:
    return "just now" if seconds < 60 else f"{_minutes(seconds)} ago"


def seat_line(name: str, claim: Claim | None) -> tuple[str, str]:
    """(css class, words) for the seat of ``name`` held by ``claim`` (None: nobody)."""
    if claim is None:
        return "free", "free"
    if claim.connected:
        if claim.taken is not None:  # issue 31: the GM sees a takeover at once
            return "taken", (
                f"taken over by another phone {_ago(claim.taken)}; that phone sits here, connected"
            )
        return "connected", "a phone sits here, connected"
    if claim.held:
        left = _minutes(GRACE - claim.away)
        return "away", (
            f"its phone left {_minutes(claim.away)} ago (asleep?); the seat waits for it "
            f"{left} more"
        )
    return "gone", (
        f"its phone left {_minutes(claim.away)} ago; it may come back, or another phone may sit"
    )


def seat_list_html(
    seats: list[tuple[str, str]], claims: dict[str, Claim], asking: dict[str, float] | None = None
) -> str:
    """The list of ``seats`` ((id, name) pairs) with what ``claims`` says of each.

    ``asking``: the seats another phone asks to take over (``SeatBook.requests``: seconds it
    has waited), shown until the GM answers (issue 31).
    """
    if not seats:
        return '<p class="status">No seats: this table has no characters players can play.</p>'
    items = []
    asking = asking or {}
    for cid, name in seats:
        css, words = seat_line(name, claims.get(cid))
        if cid in asking:
            css = "asking"
            words += f"; another phone asks to take it over ({_ago(asking[cid])}): yes or no?"
        items.append(
            f'<li class="seat {css}" data-seat="{escape(cid)}"><b>{escape(name)}</b>: '
            f"{escape(words)}</li>"
        )
    return f'<ul class="seat-list">{"".join(items)}</ul>'


class SeatList(pn.viewable.Viewer):
    """The seats of the table a GM page shows (``show(table)``; ``show(None)`` lets go).

    Parameters
    ----------
    service : CombatService
        The process's tables and seat claims.
    """

    def __init__(self, service, **params):
        super().__init__(**params)
        self.service = service
        self.table: Table | None = None
        self.list = html_pane("gm-seats")
        self.which = pn.widgets.Select(label="Seat", css_classes=["gm-free-which"], width=200)
        self.free_button = button("Free the seat", "gm-free-seat")
        self.free_button.on_click(lambda _e: self.free())
        self.message = html_pane("gm-seats-message")
        self.free_row = row(self.which, self.free_button)
        # Takeovers wait for the GM's yes when the GM says so (issue 31).
        self.ask_gm = pn.widgets.Checkbox(
            label="Another phone takes a seat over only when I say yes",
            css_classes=["gm-ask-takeover"],
        )
        self.ask_gm.param.watch(lambda e: self.set_ask_gm(e.new), "value")
        self.asking = pn.widgets.Select(label="Asks for", css_classes=["gm-asking"], width=200)
        self.yes_button = button("Let it sit", "gm-takeover-yes", "primary")
        self.no_button = button("Keep the seat", "gm-takeover-no")
        self.yes_button.on_click(lambda _e: self.answer(True))
        self.no_button.on_click(lambda _e: self.answer(False))
        self.asking_row = row(self.asking, self.yes_button, self.no_button, visible=False)
        self._layout = pn.Column(
            pn.pane.Markdown("### Seats"),
            self.list,
            self.asking_row,
            self.free_row,
            self.ask_gm,
            self.message,
            css_classes=["gm-seat-list"],
            sizing_mode="stretch_width",
        )
        self._watch: int | None = None
        self._poll = None
        self._doc = None
        self._scheduled = False
        self._takeovers: dict[str, float] | None = None  # seat -> since, None: not looked yet

    def __panel__(self):
        return self._layout

    def show(self, table: Table | None) -> None:
        """Show the seats of ``table`` (None: stop watching)."""
        book = self.service.seats
        if self._watch is not None:
            book.unwatch(self._watch)
            self._watch = None
        if self._poll is not None:
            self._poll.stop()
            self._poll = None
        self.table = table
        self._takeovers = None
        update(self.message, object="")
        if table is None:
            return
        self._doc = pn.state.curdoc
        self._watch = book.watch(self._changed)
        if self._doc is not None and self._doc.session_context is not None:
            self._poll = pn.state.add_periodic_callback(self.refresh, period=POLL_MS)
        self.refresh()

    def _changed(self, tname: str, _seat: str) -> None:
        # Any thread: one refresh on the page's next tick.
        if self.table is None or tname != self.table.name or self._scheduled:
            return
        doc = self._doc
        if doc is None or doc.session_context is None:
            self.refresh()
            return
        self._scheduled = True

        def later():
            self._scheduled = False
            with set_curdoc(doc):
                self.refresh()

        next_tick(doc, later, gone=lambda: self.show(None))  # from the seats' thread

    def refresh(self) -> None:
        """Read the claims again and show them."""
        table = self.table
        if table is None:
            return
        seats = table.seats()
        book = self.service.seats
        claims = book.claims(table.name)
        asking = book.requests(table.name)
        update(self.list, object=seat_list_html(seats, claims, asking))
        update(self.ask_gm, value=book.asks_gm(table.name))
        names = dict(seats)
        options = {names.get(cid, cid): cid for cid in sorted(asking)}
        keep = self.asking.value if self.asking.value in options.values() else None
        update(self.asking, options=options, value=keep or next(iter(options.values()), None))
        update(self.asking_row, visible=bool(options))
        taken = {cid: c.since for cid, c in claims.items() if c.taken is not None}
        if self._takeovers is not None:  # a takeover since the last look: say it (issue 31)
            names = [name for cid, name in seats if taken.get(cid, self._takeovers.get(cid))
                     != self._takeovers.get(cid)]  # fmt: skip
            if names:
                said = f"{', '.join(names)}: the seat was taken over by another phone."
                update(self.message, object=f'<p class="status takeover">{escape(said)}</p>')
        self._takeovers = taken
        held = {name: cid for cid, name in seats if cid in claims}
        keep = self.which.value if self.which.value in held.values() else None
        update(self.which, options=held, value=keep or next(iter(held.values()), None))
        self.free_row.visible = bool(held)

    def set_ask_gm(self, on: bool) -> None:
        """The GM's switch: takeovers wait for the GM's yes, or happen at once."""
        if self.table is None or self.service.seats.asks_gm(self.table.name) == bool(on):
            return
        self.service.seats.set_ask_gm(self.table.name, bool(on))
        self.refresh()

    def answer(self, yes: bool) -> None:
        """Yes (the asking phone takes the seat; the one in it only watches) or no."""
        if self.table is None or not self.asking.value:
            return
        seat = self.asking.value
        name = dict(self.table.seats()).get(seat, seat)
        if not self.service.seats.answer(self.table.name, seat, yes):
            said = f"No phone asks for {name}'s seat now."
        elif yes:
            said = f"{name}'s seat goes to the phone that asked; the other one only watches."
        else:
            said = f"{name}'s seat stays with the phone in it."
        self.refresh()  # first: the takeover just made is said in these words
        update(self.message, object=f'<p class="status">{escape(said)}</p>')

    def free(self) -> None:
        """Free the seat chosen: its phone only watches, and may sit down again."""
        if self.table is None or not self.which.value:
            return
        seat = self.which.value
        name = dict(self.table.seats()).get(seat, seat)
        if self.service.seats.free(self.table.name, seat):
            said = f"{name}'s seat is free: the phone in it only watches now."
        else:
            said = f"{name}'s seat was free already."
        update(self.message, object=f'<p class="status">{escape(said)}</p>')
        self.refresh()


__all__ = ["SeatList", "seat_line", "seat_list_html"]
