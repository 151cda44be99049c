"""One browser session bound to one live table: its role and seat, its updates, its commands.

Updates arrive on any thread and become one refresh on the document's next tick; ``send`` always
passes the role and seat verified on the server, and a served page's ``submit`` applies it off
the event loop (a locked file freezes no page: issue 21). The controls both combat pages share
are here too. Notes: docs/notes/0009-combat-panel.md, "How a change reaches every page".
"""

from __future__ import annotations

import logging
import socket
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import panel as pn
from panel.io.document import hold
from panel.io.state import set_curdoc

from tb_playground.engine import FATE_SPENDS
from tb_playground.table import Table
from tb_playground.table.errors import TableFileError
from tb_playground.table.fight_rules import KI_PURPOSES

from ..kit import button, html_pane, next_tick, row, update
from . import combat_render as render

log = logging.getLogger(__name__)

#: One thread applies the commands of every served page, in the order they were clicked: the
#: file takes one writer at a time anyway, and the event loop never waits for it (issue 21).
_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tb-table-writer")

#: Every live session (weakly), to tell a table's GM pages about a file problem a player met.
_LIVE: weakref.WeakSet = weakref.WeakSet()

#: What a page says when applying a command failed in a way the table did not foresee.
FAILED = "The server could not apply that command, so nothing changed: try again."

#: ``submit``'s answer when its ``allowed()`` check said no (nothing was sent).
NOT_SENT = None

#: Linux's TCP_CORK (None elsewhere): a socket holds what is written until it is uncorked.
_CORK = getattr(socket, "TCP_CORK", None)


@contextmanager
def one_packet(doc):
    """Send what ``doc``'s browser gets inside the block as one packet (Linux; elsewhere as is).

    Bokeh writes each message as three websocket frames (header, metadata, content), each its
    own write to the socket, and each write wakes the browser. Corked, the three go out
    together when the block ends, so a page's browser wakes once per update; on the GM's
    laptop that is one interruption of the server instead of three for every page it serves.
    """
    corked = []
    if _CORK is not None:
        session = getattr(getattr(doc, "session_context", None), "_session", None)
        for conn in getattr(session, "_subscribed_connections", ()):
            stream = getattr(getattr(conn._socket, "ws_connection", None), "stream", None)
            sock = getattr(stream, "socket", None)
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _CORK, 1)
            except (AttributeError, OSError):
                continue
            corked.append(sock)
    try:
        yield
    finally:
        for sock in corked:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _CORK, 0)
            except OSError:
                pass  # the page closed meanwhile


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
    on_problem : callable, optional
        ``on_problem(text)`` runs in the page's document when a command of another page of
        this table failed because of the file (locked, full, read-only): the GM's page says so.
    """

    def __init__(
        self,
        table: Table,
        role: str,
        seat: str | None,
        on_change: Callable[[], None],
        doc=None,
        on_problem: Callable[[str], None] | None = None,
    ):
        self.table = table
        self.role = role
        self.seat = seat if role == "player" else None
        self._on_change = on_change
        self._doc = doc if doc is not None else pn.state.curdoc
        self._scheduled = False
        self._lock = threading.Lock()
        self._closed = False
        self._acting = False  # in send(): this page's own command
        self._on_problem = on_problem
        self._handle = table.subscribe(self._changed)
        _LIVE.add(self)

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
        # The page whose command this was refreshes after the others: its user knows what they
        # did, and its browser (on the GM's laptop, for the GM) then redraws once every other
        # page's update is out (one more tick, behind theirs).
        refresh = self._refresh_after_the_others if self._acting else self._refresh
        next_tick(doc, refresh, gone=self.close)  # from this thread: through the server's loop

    def _refresh_after_the_others(self) -> None:
        try:
            self._doc.add_next_tick_callback(self._refresh)
        except Exception:  # noqa: BLE001 - the session is gone
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
        with set_curdoc(self._doc), one_packet(self._doc), hold(self._doc):
            self._on_change()

    def view(self) -> dict:
        """The table as this session may see it."""
        return self.table.view_for(self.role, self.seat)

    def send(self, command: dict, expected_version: int | None = None) -> str:
        """Apply ``command`` as this session's role and seat; "" or the reason it was refused.

        Runs where it is called (it may wait up to the store's ``write_wait`` seconds for a
        file another process holds): a served page uses ``submit``.
        """
        if self._closed:
            return "This page has left the table."
        self._acting = True
        try:
            self.table.apply(
                command, role=self.role, seat=self.seat, expected_version=expected_version
            )
        except TableFileError as err:  # already plain words, naming the file and what to do
            self._tell_the_gm(str(err))
            return str(err)
        except (ValueError, TypeError, PermissionError) as err:  # a ConflictError is one too
            return render.refusal_words(err)  # plain words, no field names (issue 20)
        except Exception:  # noqa: BLE001 - never silence: the page says it, the log tells why
            log.exception("table %r: a %s's command failed", self.table.name, self.role)
            return FAILED
        finally:
            self._acting = False
        return ""

    @property
    def served(self) -> bool:
        """Whether this session belongs to a browser page of a running server."""
        return getattr(self._doc, "session_context", None) is not None

    def submit(
        self,
        command: dict,
        expected_version: int | None = None,
        done: Callable[[str | None], None] | None = None,
        allowed: Callable[[], bool] | None = None,
    ) -> None:
        """``send`` off the event loop; then ``done(problem)`` in the page's document.

        ``problem`` is "" (applied) or the reason, or ``NOT_SENT`` when ``allowed()`` (run
        first, off the loop too: it may read the file) said no. Outside a server everything
        runs here and now. The wait for a locked file is bounded by the store's
        ``write_wait``; meanwhile every page, this one included, goes on.
        """

        def work() -> None:
            try:
                ok = allowed is None or allowed()
            except Exception:  # noqa: BLE001 - a check that cannot read the file: say so
                log.exception("table %r: checking a command failed", self.table.name)
                ok, problem = True, FAILED
            else:
                problem = self.send(command, expected_version) if ok else NOT_SENT
            if done is not None:
                self._in_document(lambda: done(problem))

        if not self.served:
            work()
            return
        _WRITER.submit(work)

    def _in_document(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` in this page's document (at once outside a server)."""
        if not self.served:
            callback()
            return
        doc = self._doc

        def run() -> None:
            with set_curdoc(doc), hold(doc):
                callback()

        next_tick(doc, run, gone=self.close)

    def _tell_the_gm(self, text: str) -> None:
        """Show a file problem on the GM pages of this table (the GM can fix it)."""
        if self.role == "gm":
            return
        for other in list(_LIVE):
            if other.table is self.table and other.role == "gm" and other._on_problem:
                if not other._closed:
                    other._in_document(lambda o=other: o._on_problem(text))

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


# -- what both combat pages use ------------------------------------------------------------------


def parse_faces(text: str) -> list[int] | None:
    """The faces typed from physical dice ("3 7", "3,7"); None for an empty box.

    Raises ValueError, in plain words, when something other than whole numbers was typed; the
    table checks how many dice and that each is 1..10.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        return None
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"Type the dice as whole numbers from 1 to 10, such as 3 7 (not {text}).")
    return [int(p) for p in parts]


def with_typed_faces(command: dict, typed: bool, box, message) -> dict | None:
    """``command`` with the faces typed in ``box`` (when ``typed``); None after saying why not."""
    if not typed:
        return command
    try:
        command["faces"] = parse_faces(box.value)
    except ValueError as err:
        message.object = f'<p class="err">{render.escape(err)}</p>'
        return None
    if command["faces"] is None:
        message.object = '<p class="err">Type the faces of the dice you threw first.</p>'
        return None
    return command


# -- widgets both combat pages use ---------------------------------------------------------------

#: The brackets a combatant declares, as the buttons say them.
BRACKET_LABELS = {"Fast": "fast", "Normal": "normal", "Slow": "slow"}

#: Ki spends outside an attack, in words (rules/000 "Recovering from Vitals Loss").
KI_LABELS = {
    f"Ki: {p.split()[0]} {p.split()[1].capitalize()} (at 0 or below)": p for p in KI_PURPOSES
}

#: Fate Token spends in the engine's words (rules/004 "Fate Tokens"; rules/000).
FATE_LABELS = {rule.label: key for key, rule in FATE_SPENDS.items()}

#: Fate spends that name one of the combatant's conditions.
FATE_NEEDS_CONDITION = ("shrug off",)


class SpendControls:
    """Ki and Fate Token spends outside an attack, for one combatant.

    The GM page uses it for the combatant chosen in its tools, the players' page for the
    seat. ``prefix`` starts every CSS class (``gm-spend-ki``, ``tp-fate-go``...).
    """

    def __init__(self, prefix: str):
        self.ki_purpose = pn.widgets.Select(
            label="Spend Ki", options=KI_LABELS, width=260, css_classes=[f"{prefix}-ki-purpose"]
        )
        self.ki_button = button("Spend Ki", f"{prefix}-spend-ki")
        self.fate_kind = pn.widgets.Select(
            label="Spend a Fate Token", options=FATE_LABELS, width=220,
            css_classes=[f"{prefix}-fate-kind"],
        )  # fmt: skip
        self.fate_condition = pn.widgets.Select(
            label="Condition to shrug off", width=180, css_classes=[f"{prefix}-fate-condition"]
        )
        self.fate_button = button("Spend a token", f"{prefix}-spend-fate")
        self.fate_help = html_pane(f"{prefix}-fate-help")
        self.fate_kind.param.watch(lambda _e: self._explain(), "value")
        self.row = row(
            self.ki_purpose, self.ki_button, self.fate_kind, self.fate_condition,
            self.fate_button, self.fate_help,
        )  # fmt: skip
        self._explain()

    def _explain(self) -> None:
        rule = FATE_SPENDS.get(self.fate_kind.value)
        words = f'<div class="hint">{render.escape(rule.effect)}</div>' if rule else ""
        update(self.fate_help, object=words)
        needs = rule is not None and self.fate_kind.value in FATE_NEEDS_CONDITION
        update(self.fate_condition, visible=needs)

    def show(self, c: dict | None, allowed: dict | None = None) -> None:
        """Offer the spends of ``c`` (a view's combatant; None hides the row).

        ``allowed`` (``table.menu.spends``), when given, keeps only the spends the table takes
        now (after a fight); with none left the row hides.
        """
        self.row.visible = c is not None and c["ki"] is not None
        if not self.row.visible:
            return
        ki = KI_LABELS
        fate = FATE_LABELS
        names = [x["name"] for x in c["conditions"]]
        if allowed is not None:
            ki = {label: k for label, k in KI_LABELS.items() if k in allowed["ki"]}
            fate = {label: k for label, k in FATE_LABELS.items() if k in allowed["fate"]}
            names = [n for n in names if n in allowed["fate"].get("shrug off", ())]
            self.row.visible = bool(ki or fate)
        for widget in (self.ki_purpose, self.ki_button):
            update(widget, visible=bool(ki))
        for widget in (self.fate_kind, self.fate_button, self.fate_help):
            update(widget, visible=bool(fate))
        update(self.ki_purpose, options=ki)
        update(self.fate_kind, options=fate)
        update(self.fate_condition, options=names)
        self._explain()
        update(self.fate_button, disabled=not c["fate"]["tokens"])
        update(self.ki_button, disabled=not c["ki"]["now"])

    def ki_command(self, cid: str | None) -> dict:
        """The "spend_ki" command for ``cid``."""
        return {"type": "spend_ki", "combatant": cid, "purpose": self.ki_purpose.value}

    def fate_command(self, cid: str | None) -> dict:
        """The "spend_fate" command for ``cid``."""
        command = {"type": "spend_fate", "combatant": cid, "spend": self.fate_kind.value}
        if self.fate_kind.value in FATE_NEEDS_CONDITION:
            command["condition"] = self.fate_condition.value
        return command
