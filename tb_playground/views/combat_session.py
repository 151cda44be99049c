"""One browser session bound to one live table: its role and seat, its updates, its commands.

The table calls its subscribers on whatever thread applied a command. A ``TableSession`` never
touches its page from there: it schedules one refresh on its own document's next tick
(``doc.add_next_tick_callback``, the one Bokeh document method that is safe from any thread)
and the page reads the table's view for its role there. Several commands in a burst make one
refresh. ``close()`` (called from ``pn.state.on_session_destroyed``) unsubscribes.

``send(command)`` always passes the role and seat this session verified on the server (the GM
key, or the join code and a seat), never anything the browser sends, and the table checks every
permission.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import panel as pn
from panel.io.document import hold
from panel.io.state import set_curdoc

from tb_playground.table import ConflictError, Table


class TableSession:
    """A page's binding to ``table`` as ``role`` (and ``seat``).

    Parameters
    ----------
    table : Table
        The live table.
    role : str
        "gm", "player" or "spectator", as verified by the page.
    seat : str, optional
        The player's character id.
    on_change : callable
        ``on_change()`` runs in the page's own document after the table changed.
    doc : bokeh Document, optional
        The page's document (default: ``pn.state.curdoc``).
    """

    def __init__(
        self,
        table: Table,
        role: str,
        seat: str | None,
        on_change: Callable[[], None],
        doc=None,
    ):
        self.table = table
        self.role = role
        self.seat = seat if role == "player" else None
        self._on_change = on_change
        self._doc = doc if doc is not None else pn.state.curdoc
        self._scheduled = False
        self._lock = threading.Lock()
        self._closed = False
        self._handle = table.subscribe(self._changed)

    # -- from the table's thread ---------------------------------------------------------------

    def _changed(self, version: int, events: list[dict]) -> None:
        with self._lock:
            if self._scheduled or self._closed:
                return
            self._scheduled = True
        doc = self._doc
        if doc is None:  # no document (a script): refresh right here
            self._refresh()
            return
        try:
            doc.add_next_tick_callback(self._refresh)
        except Exception:  # noqa: BLE001 - the session is gone; stop listening
            self.close()

    # -- in the page's own document ------------------------------------------------------------

    def _refresh(self) -> None:
        with self._lock:
            self._scheduled = False
            if self._closed:
                return
        if getattr(self._doc, "session_context", None) is None:  # no browser session
            self._on_change()
            return
        # One message per refresh: every pane's change is held and sent together.
        with set_curdoc(self._doc), hold(self._doc):
            self._on_change()

    def view(self) -> dict:
        """The table as this session may see it."""
        return self.table.view_for(self.role, self.seat)

    def send(self, command: dict, expected_version: int | None = None) -> str:
        """Apply ``command`` as this session's role and seat; "" or the reason it was refused."""
        if self._closed:
            return "This page has left the table."
        try:
            self.table.apply(
                command, role=self.role, seat=self.seat, expected_version=expected_version
            )
        except ConflictError as err:
            return f"The table moved on while you looked: {err}"
        except PermissionError as err:
            return f"Not allowed: {err}."
        except (ValueError, TypeError) as err:
            return str(err)
        return ""

    def close(self) -> None:
        """Stop listening to the table (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.table.unsubscribe(self._handle)

    @property
    def closed(self) -> bool:
        """Whether ``close()`` has run."""
        return self._closed


# -- small helpers the combat pages share --------------------------------------------------------


def query_arg(name: str) -> str | None:
    """The page URL's ``?name=`` value for this session (None outside a served session)."""
    args = getattr(pn.state, "session_args", None) or {}
    values = args.get(name)
    if not values:
        return None
    value = values[0]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def remember_in_url(**values: str | None) -> None:
    """Write ``values`` into the page URL's query (None removes one), so a reload keeps them."""
    location = pn.state.location
    if location is None:
        return
    query = {k: v for k, v in location.query_params.items() if k not in values}
    query.update({k: v for k, v in values.items() if v is not None})
    from urllib.parse import urlencode

    location.search = "?" + urlencode(query) if query else ""


def parse_faces(text: str) -> list[int] | None:
    """The faces typed from physical dice ("3 7", "3,7"); None for an empty box.

    Raises ValueError naming the box when something other than whole numbers was typed; the
    table checks how many dice and that each is 1..10.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        return None
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"dice: type the faces as whole numbers 1..10, e.g. 3 7; got {text!r}")
    return [int(p) for p in parts]


def update(widget, **values) -> None:
    """Set only the widget parameters that change (fewer messages to the browser)."""
    changed = {k: v for k, v in values.items() if getattr(widget, k) != v}
    if changed:
        widget.param.update(**changed)


def on_session_end(callback: Callable[[], None]) -> None:
    """Run ``callback`` when this browser session ends (nothing outside a served session)."""
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.state.on_session_destroyed(lambda _context: callback())


#: A bare page with the viewport meta tag (phones lay the page out at their own width).
PAGE_TEMPLATE = """{% extends base %}
{% block preamble %}
<meta name="viewport" content="width=device-width, initial-scale=1">
{% endblock %}
{% block contents %}{{ embed(roots.main) }}{{ embed(roots.location) }}{% endblock %}"""


def phone_page(content, title: str, current: str | None = None) -> pn.Template:
    """``content`` under the site's navigation, on a page phones lay out at their own width."""
    from .site import nav

    template = pn.Template(PAGE_TEMPLATE, location=True)
    template.add_panel("main", pn.Column(nav(current), content, sizing_mode="stretch_width"))
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        pn.state.onload(lambda: setattr(doc, "title", title))
    return template
