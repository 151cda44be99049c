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


def seat_line(name: str, claim: Claim | None) -> tuple[str, str]:
    """(css class, words) for the seat of ``name`` held by ``claim`` (None: nobody)."""
    if claim is None:
        return "free", "free"
    if claim.connected:
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


def seat_list_html(seats: list[tuple[str, str]], claims: dict[str, Claim]) -> str:
    """The list of ``seats`` ((id, name) pairs) with what ``claims`` says of each."""
    if not seats:
        return '<p class="status">No seats: this table has no characters players can play.</p>'
    items = []
    for cid, name in seats:
        css, words = seat_line(name, claims.get(cid))
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
        self._layout = pn.Column(
            pn.pane.Markdown("### Seats"),
            self.list,
            self.free_row,
            self.message,
            css_classes=["gm-seat-list"],
            sizing_mode="stretch_width",
        )
        self._watch: int | None = None
        self._poll = None
        self._doc = None
        self._scheduled = False

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
        claims = self.service.seats.claims(table.name)
        update(self.list, object=seat_list_html(seats, claims))
        held = {name: cid for cid, name in seats if cid in claims}
        keep = self.which.value if self.which.value in held.values() else None
        update(self.which, options=held, value=keep or next(iter(held.values()), None))
        self.free_row.visible = bool(held)

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
