"""The GM's combat dashboard: a live table, every step with its exact odds.

Without the GM key the page shows only a prompt for it (``gm_key_gate``), then the list of
tables and the form for a new one (``gm_table_chooser``), then the table: the board
(``gm_board``), the fight's controls (``gm_fight_controls``), the turn of whoever is up, the
attack's steps, the chance to win, the seats, the GM tools (``gm_tools``) and the fight's
story. A thin view: every change is a command (``TableSession.send``) and the page redraws from
``Table.view_for("gm")``. Notes: docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape
from tb_playground.service import CombatService, get_service
from tb_playground.table.menu import menu

from ..kit import (
    button,
    cookie,
    forget_query,
    html_pane,
    on_session_end,
    page,
    query_arg,
    row,
    set_query,
    update,
)
from . import dice_landing
from .action_panel import ActionPanel, ApproachNod
from .add_combatant import AddCombatant
from .combat_session import TableSession
from .fight_story import FightStory
from .gm_board import REPLAY_PANES, GMBoard, draw_gm
from .gm_fight_controls import FightControls
from .gm_key_gate import GM_COOKIE, GMKeyGate, KeyCookie
from .gm_table_chooser import TableChooser
from .gm_tools import GMTools
from .seat_list import SeatList
from .steps import StepControls
from .win_chart import WinChart

log = logging.getLogger(__name__)


class GMPage(pn.viewable.Viewer):
    """The GM dashboard of one browser session.

    Parameters
    ----------
    service : CombatService, optional
        The process's tables (default: ``get_service()``).
    key : str, optional
        The GM key this session offers (default: the URL's ``?key=``).
    """

    def __init__(self, service: CombatService | None = None, key: str | None = None, **params):
        super().__init__(**params)
        self.service = service or get_service()
        self.session: TableSession | None = None
        self.view: dict | None = None
        self._layout = pn.Column(sizing_mode="stretch_width")
        self.message = html_pane("gm-message")
        self._refused_at: int | None = None  # the table's version when a command was refused
        self.gate = GMKeyGate(self.service, lambda key: self._unlocked(key, remember=True))
        self.chooser = TableChooser(self.service, self.open_table, self.message)
        self._build_table()
        # The key's cookie, and the key out of the address once accepted (issue 33).
        self.key_cookie = KeyCookie()
        on_session_end(self._session_ended)
        key = key if key is not None else query_arg("key")
        if self.service.gm_cookie_ok(cookie(GM_COOKIE)) or self.gate.check(key):
            self._unlocked(key, remember=False)
            wanted = query_arg("table")
            if wanted and wanted in self.service.names():
                self.open_table(wanted)
        else:
            forget_query("key")  # a wrong key in a link stays in no address the page writes
            self._layout[:] = [self.gate.layout]
        self._page = pn.Column(self._layout, self.key_cookie, sizing_mode="stretch_width")

    def __panel__(self):
        return self._page

    def _unlocked(self, key: str | None, remember: bool) -> None:
        """The key (or the cookie) was accepted: keep the cookie, clean the address.

        ``remember`` (the key was typed) is kept for callers; the key never goes into the
        address either way: the cookie opens the page on a reload (issue 33).
        """
        forget_query("key")
        self.key_cookie.token = self.service.gm_cookie()
        self.chooser.refresh()
        self._layout[:] = [self.chooser.layout]

    # -- opening a table -----------------------------------------------------------------------

    def open_table(self, name: str) -> None:
        """Bind this page to the table ``name`` and show it."""
        try:
            table = self.service.open(name)
        except ValueError as err:
            self.chooser.refuse(err)
            return
        self.close()
        self.session = TableSession(table, "gm", None, self.refresh, on_problem=self._file_problem)
        self.service.sessions.add(self.session)
        self.chance.bind(table)
        set_query(table=name)
        self._layout[:] = [self.table_view]
        self.refresh()
        self.seat_list.show(table)

    def leave_table(self) -> None:
        """Back to the list of tables."""
        self.close()
        set_query(table=None)
        self.chooser.refresh()
        self._layout[:] = [self.chooser.layout]

    # -- the table -----------------------------------------------------------------------------

    def _build_table(self) -> None:
        self.board = GMBoard()  # the table's drawing (gm_board.py)
        self.chance = WinChart("gm", send=self.send)  # the chance to win and its chart
        # Start, reveal, declare, undo, share, rests (gm_fight_controls.py).
        self.controls = FightControls(self.send, self.message, lambda: self.view)
        self.leave_button = button("Other tables", "gm-leave")
        self.leave_button.on_click(lambda _e: self.leave_table())

        # The turn of whoever is up: every action of the round (issue 20).
        self.turn = ActionPanel("gm", "End turn", self.send, self._menu)
        self.nod = ApproachNod(self.send, lambda: self.session.table.state)
        # Group rolls, the chase and the tools on one combatant (gm_tools.py).
        self.tools = GMTools(self.send, self.message, lambda: self.view,
                             lambda: self.session.table.state)  # fmt: skip

        # The attack under way, one step at a time (views/combat/steps.py).
        self.steps = StepControls(
            "gm", self.send, self.message, "Or type the physical dice", "Use these dice",
            odds=dice_landing.for_page(self),
        )  # fmt: skip

        self.adder = AddCombatant(self.send, self.service.creature_files())
        self.seat_list = SeatList(self.service)  # who sits where (issue 20, seat_list.py)
        # The replay and the night's numbers (issue 23, fight_story.py).
        self.story = FightStory(self.service, lambda v, _seat: draw_gm(v), REPLAY_PANES, "gm",
                                self._replaying)  # fmt: skip
        self.chance.follow(self.story.replay)  # the chart's line at the event replayed

        board = self.board
        self.table_view = pn.Column(
            board.header,
            self.controls.top_row,
            self.story.openers,
            board.loss,
            self.message,
            self.steps.result,
            board.status,
            self.controls.declare_row,
            self.turn.row,
            self.steps.whose,
            self.nod.row,
            board.pending,
            self.steps.controls,
            board.cards,
            self.story.night,
            self.seat_list,
            self.chance,
            pn.pane.Markdown("### GM tools"),
            *self.tools.rows,
            pn.pane.Markdown("### Add to the fight"),
            self.adder,
            row(*self.controls.scene_buttons, self.leave_button),
            pn.pane.Markdown("### Log"),
            board.log,
            sizing_mode="stretch_width",
        )

    # -- sending -------------------------------------------------------------------------------

    def send(
        self, command: dict, expected_version: int | None = None, then: Callable | None = None
    ) -> None:
        """Send ``command`` as the GM (off the event loop).

        Made on the table as this page last drew it: ``expected_version`` is that version
        unless given, so a command made on a table someone else has moved since (two GM
        screens pressing End turn together) is refused in words (issue 33, item 4). Shows
        the reason when the table refuses it, else runs ``then()``.
        """
        if expected_version is None and self.view is not None:
            expected_version = self.view["version"]
        if self.session is not None:
            self.session.submit(
                command, expected_version, lambda problem: self._sent(problem, then)
            )

    def _sent(self, problem: str, then: Callable | None) -> None:
        self.message.object = f'<p class="err">{escape(problem)}</p>' if problem else ""
        # A refusal holds for the table as it is: the next event may have done what was
        # refused (a player declared, the GM did it another way), so it goes then (issue 31).
        s = self.session
        self._refused_at = s.table.version if problem and s is not None else None
        if not problem and then is not None:
            then()

    def _file_problem(self, text: str) -> None:
        """A player's command failed because of the file: the GM is told too."""
        self.message.object = f'<p class="err">{escape(text)}</p>'

    def _menu(self, choices: dict) -> dict:
        # What whoever is up may do, from the table's own checks (table/menu.py).
        return menu(self.session.table.state, "gm", None, None, choices)

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw from the table's GM view (runs in this session's document).

        The view and its HTML are made once per table version for every GM page
        (``CombatService.drawn``); this page sets only what changed.
        """
        if self.session is None:
            return
        d = self.service.drawn(self.session.table, "gm", None, draw_gm)
        v = self.view = d["view"]
        if self._refused_at is not None and v["version"] > self._refused_at:
            self._refused_at = None  # the table moved on since the refusal (``_sent``)
            update(self.message, object="")
        by_id = {c["id"]: c for c in v["combatants"]}
        phase = v["phase"]
        self.board.show(d, self.service.store.gm_loss(self.session.table.name))
        self.story.follow(self.session, v)
        self.controls.show(v)

        p = v["pending"]
        up = by_id.get(v["up"]) if v["up"] else None
        self.turn.show(p is None and (up is not None and phase == "resolve" or phase == "chase"))
        self.nod.show(self.session.table.state)  # the GM's nod on a player's approach
        self.tools.calls.show(True)  # hides itself when nothing is to call now

        self.steps.show(v, None)
        self.tools.show(v, d["ranges"])

    def _replaying(self, on: bool) -> None:
        """The replay instead of the live table (nothing in it acts), or back to live."""
        self._layout[:] = [self.story.replay, self.chance] if on else [self.table_view]

    def _session_ended(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the session is released whatever went wrong
            log.exception("the GM page could not close cleanly")
            if self.session is not None:
                self.session.close()
                self.session = None
        finally:
            self.service.page_closed()

    def close(self) -> None:
        """Stop listening to the table (when the session ends or another table opens)."""
        self.seat_list.show(None)
        self.chance.unbind()
        if self.session is not None:
            self.session.close()
            self.session = None
            self.view = None
        self.story.follow(None, {})


def gm_page(service: CombatService | None = None) -> pn.Template:
    """The whole GM page, one per session."""
    return page("GM dashboard", [GMPage(service)], current="gm", light=True)
