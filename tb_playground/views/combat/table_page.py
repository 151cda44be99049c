"""The players' page: join a live table with its code, sit in a seat, play from a phone.

Table, code and seat are kept in the URL; a changed code drops the page back to the join
prompt. Every command goes with the seat verified on the server. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import panel as pn

from tb_playground.formatting import escape
from tb_playground.guard import SlowDownError
from tb_playground.service import CombatService, get_service
from tb_playground.table.errors import TableFileError
from tb_playground.table.menu import menu, spends
from tb_playground.table.previews import previews_as
from tb_playground.table.seats import new_token

from ..kit import (
    CardBoard,
    CodeInput,
    Slots,
    button,
    client_address,
    html_pane,
    join_code_typed,
    next_tick,
    on_session_end,
    page,
    query_arg,
    row,
    served,
    set_query,
    update,
)
from . import combat_render as render
from . import dice_landing
from .action_panel import ActionPanel
from .combat_session import (
    BRACKET_LABELS,
    SpendControls,
    TableSession,
)
from .fight_story import FightStory
from .replay_panel import reader_seqs
from .seat_session import BrowserToken, SeatNote, SeatPrompt, SeatSession, browser_token
from .steps import StepControls
from .win_chart import WinChart

log = logging.getLogger(__name__)

#: The seat value for watching without a seat.
WATCH = "__watch__"

#: The pages' reads of the table file and their seat claims, off the event loop (issue 33,
#: item 3): a file locked by another program stalls these threads, never the server.
_FILE_WORK = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tb-page-file")

#: Seconds a page's seat claim waits for another program's write lock before the page says
#: ``BUSY``; then it tries again every ``BUSY_RETRY`` seconds.
BUSY_WAIT = 1.0
BUSY_RETRY = 0.5

#: What a page says while it reads the file, while the file is locked, and if it failed.
OPENING = "Opening the table…"
BUSY = "The table file is busy, retrying…"
FILE_FAILED = "The table file could not be read: reload the page in a moment."


class TablePage(pn.viewable.Viewer):
    """The player (or spectator) page of one browser session.

    Parameters
    ----------
    service : CombatService, optional
        The process's tables (default: ``get_service()``).
    """

    def __init__(self, service: CombatService | None = None, **params):
        super().__init__(**params)
        self.service = service or get_service()
        self.session: TableSession | None = None
        self.view: dict | None = None
        self.code: str | None = None
        self._found = None
        self._refused: str | None = None  # why the last look-up was refused (guard.py)
        self._join_view: pn.Column | None = None
        self._layout = pn.Column(sizing_mode="stretch_width")
        # Seats (issue 20): this page's id in the seat claims, the browser's token (a cookie),
        # the takeover question and the note of a page that lost its seat (seat_session.py).
        self.page_id = secrets.token_hex(8)
        self._ended = False  # the session ended: the file work stops retrying
        self.token = browser_token()
        self.cookie = BrowserToken()
        self.seat_prompt = SeatPrompt(lambda seat: self.join(seat, take_over=True))
        self.seat_note = SeatNote(self._pick_again)
        self._seat_watch: int | None = None  # waiting for this browser's other page to close
        self._outer = pn.Column(
            self.seat_note, self._layout, self.cookie, sizing_mode="stretch_width"
        )
        self._build_table()
        on_session_end(self._session_ended)
        code, name, seat = query_arg("code"), query_arg("table"), query_arg("seat")
        self.busy_note = html_pane("tp-busy")
        if code or (name and seat):  # the file is read (and a seat claimed) off the loop
            self._layout[:] = [self.busy_note]
            self.busy_note.object = f'<p class="status">{escape(OPENING)}</p>'
            self._off_loop(partial(self._first_look, code, name, seat, client_address()),
                           partial(self._opened, code, name, seat))  # fmt: skip
        else:
            self._layout[:] = [self.join_view]

    # -- the file, off the event loop (issue 33, item 3) ----------------------------------------

    def _off_loop(self, work: Callable[[], object], then: Callable[[object], None]) -> None:
        """``then(work())``: ``work`` (the file) on a worker thread, ``then`` in the page.

        In a served page ``work`` runs on ``_FILE_WORK`` and ``then`` on the document's next
        tick, so the event loop never waits for the file (issue 33, item 3). While another
        program holds the file's write lock, ``work`` raises ``TableFileError("locked")`` after
        ``BUSY_WAIT`` s: the page then says ``BUSY`` and ``work`` is tried again every
        ``BUSY_RETRY`` s until it goes through (or the page closes). Outside a server
        (notebooks, tests) both run here and now.
        """
        doc = pn.state.curdoc
        if doc is None or doc.session_context is None:
            then(work())
            return

        def run() -> None:
            said = False
            while not self._ended:
                try:
                    result = work()
                except TableFileError as exc:
                    if exc.kind != "locked":
                        raise
                    if not said:
                        said = True
                        log.warning("page %s: the table file is busy, retrying", self.page_id)
                        next_tick(doc, self._say_busy)
                    time.sleep(BUSY_RETRY)
                    continue
                next_tick(doc, partial(then, result))
                return

        def done(future) -> None:
            if future.exception() is not None:
                log.error("page %s: the table file could not be read", self.page_id,
                          exc_info=future.exception())  # fmt: skip
                next_tick(doc, partial(self._say_busy, FILE_FAILED))

        _FILE_WORK.submit(run).add_done_callback(done)

    def _say_busy(self, text: str | None = None) -> None:
        self.busy_note.object = f'<p class="status">{escape(text or BUSY)}</p>'
        self._layout[:] = [self.busy_note]

    def _first_look(self, code, name, seat, client) -> tuple:
        """The file work of opening the page (a worker thread): (how, table, refused, sitting).

        ``how`` is "back" (this browser holds ``seat`` of the table ``name``), "code" (the
        table of the join ``code``, None if none) or "none". A seat of the link is claimed here
        too (``sitting``: (token, ``Sitting``)), so ``join`` finds it done.
        """
        if name and seat and seat != WATCH and self.service.seats.owner(name, seat, self.token):
            try:
                table = self.service.open(name)
            except ValueError:
                table = None
            if table is not None:
                return "back", table, None, self._claim(table, seat, False)
        if not code:
            return "none", None, None, None
        typed = join_code_typed(code)
        refused = None
        try:  # wrong codes are limited per address (guard.py)
            table = self.service.look_up(typed, client, name) if typed else None
        except SlowDownError as slowed:
            table, refused = None, str(slowed)
        sitting = None
        if table is not None and seat and seat != WATCH and seat in dict(table.seats()):
            sitting = self._claim(table, seat, False)
        return "code", table, refused, sitting

    def _claim(
        self, table, seat: str, take_over: bool, wait: float | None = BUSY_WAIT
    ) -> tuple[str, object]:
        """Claim ``seat``: (token, ``Sitting``); ``wait`` s at most for the file's write lock."""
        token = self.token or new_token()
        return token, self.service.seats.sit(table, seat, token, self.page_id, take_over, wait=wait)

    def _opened(self, code, name, seat, looked: tuple) -> None:
        """The page, once ``_first_look`` read the file (in the page's document)."""
        how, table, refused, sitting = looked
        if how == "back":
            self._found = table
            self.code = join_code_typed(code) if code else None
            if not table.code_matches(self.code):
                self.code = None  # the old link's code no longer works: the seat still does
            if self.join(seat, sitting=sitting):
                return  # this browser holds the seat: back in it, whatever the join code is
        elif how == "code":
            self._found, self._refused = table, refused
            if table is not None:
                self.code = join_code_typed(code)
            if seat and table is not None and self.join(seat, sitting=sitting):
                return  # a page opened from its own link never builds the join prompt
        self._layout[:] = [self.join_view]
        if code:
            self.code_input.value = code
            self.find(name, looked_up=True)
            if seat and self._found is not None:
                self.join(seat, sitting=sitting)  # not a seat at this table: it says so

    def __panel__(self):
        return self._outer

    # -- joining -------------------------------------------------------------------------------

    @property
    def join_view(self) -> pn.Column:
        """The join prompt (built the first time it shows)."""
        if self._join_view is None:
            self._build_join()
        return self._join_view

    def _build_join(self) -> None:
        # A numeric keypad on phones, Enter finds the table (issue 20); spaces and dashes are
        # fine ("487 915"): ``_look_up`` reads the code with ``join_code_typed``. The grey hint
        # fits the box on a 390 px phone (issue 31); the label says what the code is.
        self.code_input = CodeInput(
            on_enter=self.find, label="Join code", placeholder="e.g. 487 915 203",
            css_classes=["tp-code"], width=220,
        )  # fmt: skip
        self.find_button = button("Find the table", "tp-find", "primary")
        self.find_button.on_click(lambda _e: self.find())
        self.seat_select = pn.widgets.Select(label="Your seat", css_classes=["tp-seat"], width=220)
        self.join_button = button("Sit down", "tp-join", "primary")
        self.join_button.on_click(lambda _e: self.join(self.seat_select.value))
        self.seat_row = row(self.seat_select, self.join_button, visible=False)
        self.join_message = html_pane("tp-join-message")
        self._join_view = pn.Column(
            pn.pane.Markdown("## Join a fight"),
            row(self.code_input, self.find_button),
            self.seat_row,
            self.join_message,
            self.seat_prompt,
            sizing_mode="stretch_width",
        )

    def _look_up(self, code: str, name: str | None = None):
        """The table whose join code is ``code`` (``name`` first, if given), kept as found."""
        code = join_code_typed(code)
        self._refused = None
        try:  # wrong codes are limited per address (guard.py)
            table = self.service.look_up(code, client_address(), name) if code else None
        except SlowDownError as slowed:
            table, self._refused = None, str(slowed)
        self._found = table
        if table is not None:
            self.code = code
        return table

    def find(self, name: str | None = None, looked_up: bool = False) -> None:
        """Look up the table whose join code was typed (unless just ``looked_up``)."""
        self.join_view  # noqa: B018 - built, to show what was found
        self.seat_prompt.hide()
        table = self._found if looked_up else self._look_up(self.code_input.value, name)
        if table is None:
            self.seat_row.visible = False
            said = escape(self._refused or "No table has that join code.")
            self.join_message.object = f'<p class="err">{said}</p>'
            return
        seats = {n: i for i, n in table.seats()}
        seats["Just watch"] = WATCH
        self.seat_select.options = seats
        self.seat_row.visible = True
        self.join_message.object = (
            f'<p class="status">Table <b>{escape(table.name)}</b>: pick your seat.</p>'
        )

    def join(self, seat: str, take_over: bool = False, sitting: tuple | None = None) -> bool:
        """Sit at the found table as ``seat`` (a character id) or watch (``WATCH``).

        A seat another phone holds is taken only with ``take_over``; else the page asks. In a
        served page the seat is claimed off the event loop (``_off_loop``), then this runs
        again with ``sitting`` ((token, ``Sitting``)); True means seated or sitting down.
        """
        table = self._found
        mine = sitting is not None or (
            seat != WATCH and table is not None and self._owns(table, seat)
        )
        if table is None or not (mine or table.code_matches(self.code)):
            self.drop("That join code no longer works: ask the GM for the new one.")
            return False
        seats = dict(table.seats())
        if seat != WATCH and seat not in seats:
            self.join_view  # noqa: B018 - built, to say why
            self.join_message.object = '<p class="err">That seat is not at this table.</p>'
            return False
        if seat != WATCH:
            if sitting is None and served():
                self._off_loop(partial(self._claim, table, seat, take_over),
                               lambda done: self._found is table and self.join(
                                   seat, take_over, sitting=done))  # fmt: skip
                return True
            token, sitting = sitting or self._claim(table, seat, take_over, None)
            if sitting.outcome == "waiting":  # the GM's yes first (issue 31)
                self.token = self.cookie.token = token
                self._wait_for_gm(table.name, seat, seats[seat])
                return False
            if not sitting.seated:  # another phone holds it: ask
                self._layout[:] = [self.join_view]
                self.seat_select.value = seat
                self.seat_row.visible = True
                self.seat_prompt.show(seat, seats[seat], sitting.connected)
                return False
            self.token = self.cookie.token = token
        self.seat_prompt.hide()
        self.seat_note.hide()
        self.close()
        if seat == WATCH:
            self.session = TableSession(table, "spectator", None, self.refresh)
        else:
            self.session = SeatSession(table, seat, self.refresh, self.service.seats, self.page_id)
        self.service.sessions.add(self.session)
        self.chance.bind(table, seqs=self._reader_seqs)  # numbered as this page's log does
        set_query(table=table.name, code=self.code, seat=seat)
        self.message.object = ""
        self._layout[:] = [self.table_view]
        self.refresh()  # after: a link's replay (``?at=``) takes the page's place
        return True

    def _reader_seqs(self) -> list[int] | None:
        """The table's events this page's reader sees (``replay_panel.reader_seqs``)."""
        s = self.session
        return None if s is None else reader_seqs(self.service, s.table, s.role, s.seat)

    def _owns(self, table, seat: str) -> bool:
        return self.service.seats.owner(table.name, seat, self.token)

    def _seat_lost(self) -> None:
        """The seat went to another phone, or the GM freed it: watch, and say so."""
        s = self.session
        table, seat = s.table, s.seat
        name = dict(table.seats()).get(seat, "your character")
        reason = self.service.seats.lost(table.name, seat, self.token)
        if not table.code_matches(self.code):  # a new code since: nothing left to watch with
            self.drop("You no longer hold your seat: ask the GM for the join code to sit down.")
            return
        self.close()
        self.session = TableSession(table, "spectator", None, self.refresh)
        self.service.sessions.add(self.session)
        set_query(seat=WATCH)
        self.seat_note.show(reason, name)
        if reason == "elsewhere":
            self._sit_back_later(table.name, seat)
        self.refresh()

    def _sit_back_later(self, tname: str, seat: str) -> None:
        """Sit back in ``seat`` when the other page of this browser that holds it closes.

        A reload while the old page's reconnection is still on its way (a phone waking up, a
        server restarting) makes two pages of one browser: the one the player sees may lose
        the seat to the old one, which closes a moment later (note 0021). The seat is this
        browser's all along, so this page takes it back once no open page holds it.
        """
        book = self.service.seats
        doc = pn.state.curdoc
        served = doc is not None and doc.session_context is not None

        def heard(name: str, which: str) -> None:
            if name == tname and which == seat:
                if served:
                    next_tick(doc, lambda: self._sit_back(tname, seat))
                else:
                    self._sit_back(tname, seat)

        self._unwatch_seat()
        self._seat_watch = book.watch(heard)

    def _sit_back(self, tname: str, seat: str) -> None:
        """``_sit_back_later``'s check: still this browser's, and no open page holds it."""
        if self._seat_watch is None or self.session is None or self.session.table.name != tname:
            return
        book = self.service.seats
        claim = book.claims(tname).get(seat)
        if claim is None or claim.connected or not book.owner(tname, seat, self.token):
            return
        self._unwatch_seat()
        self.join(seat)

    def _wait_for_gm(self, tname: str, seat: str, name: str) -> None:
        """A takeover asked of the GM (``SeatBook.ask_gm``): sit down once the GM says yes."""
        self.seat_prompt.hide()
        self._layout[:] = [self.join_view]
        said = f"The GM has been asked to let this phone take {name}'s seat: wait a moment."
        self.join_message.object = f'<p class="status tp-waiting">{escape(said)}</p>'
        book = self.service.seats
        doc = pn.state.curdoc
        served = doc is not None and doc.session_context is not None

        def answered() -> None:
            if self._seat_watch is None or book.waiting(tname, seat, self.page_id):
                return
            self._unwatch_seat()
            if book.owner(tname, seat, self.token):
                self.join(seat)
            else:
                no = f"The GM kept {name}'s seat for the phone in it."
                self.join_message.object = f'<p class="err">{escape(no)}</p>'

        def heard(which_table: str, which: str) -> None:
            if which_table == tname and which in (seat, ""):
                if served:
                    next_tick(doc, answered)
                else:
                    answered()

        self._unwatch_seat()
        self._seat_watch = book.watch(heard)

    def _unwatch_seat(self) -> None:
        if self._seat_watch is not None:
            self.service.seats.unwatch(self._seat_watch)
            self._seat_watch = None

    def _pick_again(self) -> None:
        """From the note of a lost seat back to the seats of the table (the code is checked)."""
        self.seat_note.hide()
        self.close()
        set_query(seat=None)
        self._layout[:] = [self.join_view]
        self.find(looked_up=True)

    def drop(self, reason: str) -> None:
        """Back to the join prompt (a bad or changed code, or leaving), saying why."""
        s = self.session
        if isinstance(s, SeatSession):  # leaving frees the seat (if this page still holds it)
            stand_up = partial(self.service.seats.stand_up, s.table.name, s.seat, self.page_id)
            _FILE_WORK.submit(stand_up) if served() else stand_up()
        self.seat_note.hide()
        self.seat_prompt.hide()
        self.close()
        self.code = None
        self._found = None
        set_query(code=None, seat=None, table=None)
        view = self.join_view
        self.seat_row.visible = False
        self.code_input.value = ""
        self.join_message.object = f'<p class="err">{escape(reason)}</p>'
        self._layout[:] = [view]

    # -- the table -----------------------------------------------------------------------------

    def _build_table(self) -> None:
        self.banner = html_pane("tp-banner")
        self.header = html_pane("tp-header")
        self.message = html_pane("tp-message")
        self.me = html_pane("tp-me")
        self.attacks = html_pane("tp-attacks")
        self.order = html_pane("tp-order")
        self.board = CardBoard("tp-board")
        self.log = html_pane("tp-log")
        self.pending = html_pane("tp-pending")
        self.chance = WinChart("players")  # shown while the GM shares the chance to win
        self.leave_button = button("Leave the table", "tp-leave")
        self.leave_button.on_click(lambda _e: self.drop("You left the table."))
        self.steps = StepControls("tp", self.send, self.message, odds=dice_landing.for_page(self))
        self.table_view = pn.Column(sizing_mode="stretch_width")
        # The last roll's result at the top; the Ki and Fate spends below "Your attacks".
        self.rows = Slots(
            self.table_view,
            [
                self.header, self.banner, self.message, self.steps.result, "declare", "turn",
                self.steps.whose, self.pending, self.steps.controls, self.me,
                self.attacks, "spend", self.order, self.board, self.chance, "story", self.log,
                self.leave_button,
            ],
            {
                "story": self._build_story,
                "declare": self._build_declare, "turn": self._build_turn,
                "spend": self._build_spend,
            },
        )  # fmt: skip

    # The rows below are built the first time they show (``Slots``).

    def _build_declare(self) -> pn.FlexBox:
        self.bracket = pn.widgets.RadioButtonGroup(
            options=BRACKET_LABELS, value="normal", css_classes=["tp-bracket"]
        )
        self.bumps = pn.widgets.IntInput(label="Ki bumps", value=0, start=0, end=2, width=90)
        self._bumps_round: int | None = None  # the round the bumps box was last reset for
        self.declare_button = button("Declare in secret", "tp-declare", "primary")
        self.declare_button.on_click(lambda _e: self._declare())
        self.declare_row = row(self.bracket, self.bumps, self.declare_button)
        return self.declare_row

    def _build_turn(self) -> pn.FlexBox:
        self.turn = ActionPanel("tp", "End my turn", self.send, self._menu)
        return self.turn.row

    def _build_story(self) -> pn.Column:
        # The replay and the numbers once the fight is over (issue 23, fight_story.py).
        self.story = FightStory(self.service, draw_table,
                                ["header", "me", "order", "pending", "cards", "log"], "tp",
                                self._replaying)  # fmt: skip
        self.chance.follow(self.story.replay)  # the chart's line at the event replayed
        return pn.Column(self.story.openers, self.story.night, sizing_mode="stretch_width")

    def _replaying(self, on: bool) -> None:
        """The replay instead of the live table (nothing in it acts), or back to live."""
        self._layout[:] = [self.story.replay, self.chance] if on else [self.table_view]

    def _build_spend(self) -> pn.FlexBox:
        self.spend = SpendControls("tp")
        self.spend.ki_button.on_click(lambda _e: self.send(self.spend.ki_command(self._seat())))
        self.spend.fate_button.on_click(lambda _e: self.send(self.spend.fate_command(self._seat())))
        return self.spend.row

    # -- sending -------------------------------------------------------------------------------

    def send(self, command: dict, then: Callable | None = None) -> None:
        """Send ``command`` as this seat (off the event loop, once the page may still act).

        Made on the table as this page last drew it (its version goes with it): a command
        made on a table that moved on since is refused in words (issue 33, item 4). Shows the
        reason when the table refuses it, else runs ``then()``.
        """
        if self.session is None or not self._still_here():
            return
        drawn = self.view["version"] if self.view is not None else None
        self.session.submit(command, drawn, done=lambda problem: self._sent(problem, then))

    def _sent(self, problem: str | None, then: Callable | None) -> None:
        self.message.object = f'<p class="err">{escape(problem)}</p>' if problem else ""
        if not problem and then is not None:
            then()

    def _declare(self) -> None:
        self.send(
            {
                "type": "declare",
                "combatant": self.session.seat if self.session else None,
                "bracket": self.bracket.value,
                "bumps": int(self.bumps.value or 0),
            }
        )

    def _new_round_bumps(self, round_: int) -> None:
        """The "Ki bumps" box starts at 0 each round (issue 31: last round's bumps refused).

        Only when the round changes: a value typed in this round stays while the page redraws.
        """
        if self._bumps_round != round_:
            self._bumps_round = round_
            update(self.bumps, value=0)

    def _seat(self) -> str | None:
        # Always the seat this session verified on the server, never anything from the browser.
        return self.session.seat if self.session else None

    def _menu(self, choices: dict) -> dict:
        # What this seat may do on its turn, from the table's own checks (table/menu.py).
        return menu(self.session.table.state, "player", self._seat(), None, choices)

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw from the table's view for this seat (runs in this session's document).

        The view and its HTML are made once per table version for every page of the same
        seat (``CombatService.drawn``); this page sets only the panes that changed.
        """
        if self.session is None or not self._still_here():
            return
        s = self.session
        d = self.service.drawn(
            s.table,
            s.role,
            s.seat,
            lambda view: draw_table(
                view, s.seat, partial(self.service.drawing, s.table, view["version"], "card")
            ),
        )
        v = self.view = d["view"]
        for pane in ("header", "banner", "me", "order", "pending", "log"):
            update(getattr(self, pane), object=d[pane])
        self.board.show(d["cards"])
        self._show_attacks(d)

        cs = v["combatants"]
        me = next((c for c in cs if c["id"] == s.seat), None) if s.seat else None
        phase = v["phase"]
        p = v["pending"]
        mine = me is not None
        rows = self.rows
        if rows.show("declare", mine and phase == "declare" and me["can_act"]):
            self._new_round_bumps(v["round"])
        my_turn = phase == "resolve" and v["up"] == me["id"] if mine else False
        if rows.show("turn", mine and p is None and (my_turn or phase == "chase")):
            self.turn.show(True)
        self.steps.show(v, s.seat)
        if rows.show("spend", mine and me["ki"] is not None):
            # After the fight, only the spends the table still takes (table/menu.py).
            state = s.table.state
            allowed = spends(state, "player", s.seat, s.seat) if phase == "over" else None
            self.spend.show(me, allowed)
        if rows.show("story", phase == "over"):
            self.story.follow(s, v)
        elif rows.built("story"):
            self.story.stop()

    def _show_attacks(self, d: dict) -> None:
        """The seat's attacks with their odds: now if known, else on the next tick.

        Computing odds the cache does not hold yet is the slow part of a refresh, so it
        waits for the next tick, after every page's board has gone out.
        """
        s = self.session
        me = next((c for c in d["view"]["combatants"] if c["id"] == s.seat), None)
        if me is None or not me["attacks"] or d["view"]["phase"] == "over":
            update(self.attacks, object="")  # after the fight, nobody left to attack (issue 31)
            return
        html = self._attacks_html(d["view"], compute=False)
        if html is None:
            doc = pn.state.curdoc
            if doc is not None and doc.session_context is not None:
                doc.add_next_tick_callback(lambda: self._draw_attacks(d))
                return
            html = self._attacks_html(d["view"])
        update(self.attacks, object=html)

    def _draw_attacks(self, d: dict) -> None:
        """The seat's attacks with their odds against each visible foe (a tick later)."""
        if self.session is None or self.view is not d["view"]:
            return
        update(self.attacks, object=self._attacks_html(d["view"]))

    def _attacks_html(self, v: dict, compute: bool = True) -> str | None:
        """The "Your attacks" table for the view ``v``, drawn once per version and seat."""
        s = self.session
        visible = [c["id"] for c in v["combatants"] if c["foe"]]
        draw = partial(attacks_html, v=v)
        return self.service.drawn_previews(s.table, v["version"], s.seat, visible, draw, compute)

    def _still_here(self) -> bool:
        """Whether this page may go on as it is; else it watches or drops, saying why.

        A player must hold the seat (in the file), a spectator have the current join code.
        """
        s = self.session
        if isinstance(s, SeatSession):
            if s.holds():
                return True  # a seated player stays, whatever the join code is now
            self._seat_lost()
            return False
        if not s.table.code_matches(self.code):
            self.drop("The GM changed the join code: ask for the new one.")
            return False
        return True

    def _session_ended(self) -> None:
        self._ended = True

        def away() -> None:
            try:
                self.service.seats.away(self.page_id)  # the seat stays this browser's a while
            except Exception:  # noqa: BLE001 - the page is released whatever the file says
                log.exception("page %s: its seat could not be marked away", self.page_id)

        try:
            if served():
                _FILE_WORK.submit(away)  # off the event loop (issue 33, item 3)
            else:
                away()  # a page outside a server (a notebook, a test): here and now
        finally:
            self.close()
            self.service.page_closed()

    def close(self) -> None:
        """Stop listening to the table (when the session ends or the page leaves it)."""
        self._unwatch_seat()
        self.chance.unbind()
        if self.session is not None:
            self.session.close()
            self.session = None
            self.view = None


def attacks_html(previews: list[dict], v: dict) -> str:
    """The "Your attacks" table of odds."""
    if v["role"] != "gm" and not v["share_foes"]:  # the GM's switch (issue 31)
        previews = previews_as(previews, v.get("foe_odds", "exact"))
    table = render.attack_table(previews, render.names(v))
    return f"<div><b>Your attacks</b></div>{table}" if table else ""


def draw_table(v: dict, seat: str | None, card: Callable | None = None) -> dict:
    """The players' page HTML for the view ``v`` of ``seat`` (shared by every page of it).

    The attack odds are drawn apart (``TablePage._show_attacks``). ``card(key, draw)``
    (``CombatService.drawing`` for this table version and "card") draws the cards of the
    combatants not the seat once for every player and spectator at this version.
    """
    cs = v["combatants"]
    me = next((c for c in cs if c["id"] == seat), None) if seat else None
    phase = v["phase"]
    p = v["pending"]
    step = p["step"] if p else None
    who = "watching" if me is None else f"playing {escape(me['name'])}"
    banner = ""
    if me is not None:
        if v["up"] == me["id"]:
            banner = "Your turn!"
        elif step == "prevent" and p["target"] == me["id"]:
            banner = "You are hit: spend Ki to prevent?"
        elif phase == "declare" and not me["declared"] and me["can_act"]:
            banner = "Declare your bracket (only the GM sees it until the reveal)."
    return {
        "view": v,
        "header": (
            f'<div class="status"><b>{escape(v["table"])}</b> · '
            f'<span class="counter">{render.counter(v)}</span> · '
            f"{render.PHASE_WORDS.get(phase, phase)} · {who}</div>"
        ),
        "banner": (f'<div class="banner">{banner}</div>' if banner else "") + render.fight_over(v),
        "me": render.card(me, phase) if me else "",
        "order": render.declaration_status(v) + render.order_line(v),
        "cards": [_shared_card(c, phase, card) for c in cs if c is not me],
        "pending": render.pending(v),
        "log": f"<h3>Dice and events</h3>{render.log(v)}",
    }


def _shared_card(c: dict, phase: str, card: Callable | None) -> str:
    """``render.card``, drawn once per table version for the seats that share it."""
    if card is None:
        return render.card(c, phase)
    return card((c["id"], phase), lambda: render.card(c, phase))


def table_page(service: CombatService | None = None) -> pn.Template:
    """The whole players' page, one per session."""
    return page("at the table", [TablePage(service)], current="table", light=True)
