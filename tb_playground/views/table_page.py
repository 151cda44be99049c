"""The players' page: join a live table with its code, sit in a seat, play from a phone.

Table, code and seat are kept in the URL; a changed code drops the page back to the join
prompt. Every command goes with the seat verified on the server. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import panel as pn

from tb_playground.formatting import escape
from tb_playground.guard import SlowDownError
from tb_playground.service import CombatService, get_service

from . import combat_render as render
from .combat_session import (
    BRACKET_LABELS,
    NOT_SENT,
    SpendControls,
    TableSession,
    TurnControls,
    with_typed_faces,
)
from .kit import (
    WRAP_BUTTONS,
    CardBoard,
    CodeInput,
    Slots,
    button,
    client_address,
    html_pane,
    join_code_typed,
    on_session_end,
    page,
    query_arg,
    row,
    set_query,
    update,
)

#: The seat value for watching without a seat.
WATCH = "__watch__"


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
        self._build_table()
        on_session_end(self._session_ended)
        code, name, seat = query_arg("code"), query_arg("table"), query_arg("seat")
        looked = bool(code and seat)
        if looked and self._look_up(code, name) is not None and self.join(seat):
            return  # a page opened from its own link never builds the join prompt
        self._layout[:] = [self.join_view]
        if code:
            self.code_input.value = code
            self.find(name, looked_up=looked)
            if seat and self._found is not None:
                self.join(seat)  # not a seat at this table: it says so

    def __panel__(self):
        return self._layout

    # -- joining -------------------------------------------------------------------------------

    @property
    def join_view(self) -> pn.Column:
        """The join prompt (built the first time it shows)."""
        if self._join_view is None:
            self._build_join()
        return self._join_view

    def _build_join(self) -> None:
        # A numeric keypad on phones, Enter finds the table (issue 20); spaces and dashes are
        # fine ("487 915"): ``_look_up`` reads the code with ``join_code_typed``.
        self.code_input = CodeInput(
            on_enter=self.find, label="Join code", placeholder="the code the GM reads out",
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

    def join(self, seat: str) -> bool:
        """Sit at the found table as ``seat`` (a character id) or watch (``WATCH``)."""
        table = self._found
        if table is None or not table.code_matches(self.code):
            self.drop("That join code no longer works: ask the GM for the new one.")
            return False
        seats = dict(table.seats())
        if seat != WATCH and seat not in seats:
            self.join_view  # noqa: B018 - built, to say why
            self.join_message.object = '<p class="err">That seat is not at this table.</p>'
            return False
        self.close()
        role = "spectator" if seat == WATCH else "player"
        self.session = TableSession(table, role, None if seat == WATCH else seat, self.refresh)
        self.service.sessions.add(self.session)
        set_query(table=table.name, code=self.code, seat=seat)
        self.message.object = ""
        self.refresh()
        self._layout[:] = [self.table_view]
        return True

    def drop(self, reason: str) -> None:
        """Back to the join prompt (a bad or changed code), saying why."""
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
        self.leave_button = button("Leave the table", "tp-leave")
        self.leave_button.on_click(lambda _e: self.drop("You left the table."))
        self.table_view = pn.Column(sizing_mode="stretch_width")
        self.rows = Slots(
            self.table_view,
            [
                self.header, self.banner, self.message, "declare", "turn", self.pending, "roll",
                "boost", "prevent", "distracted", self.me, "spend", self.attacks, self.order,
                self.board, self.log, self.leave_button,
            ],
            {
                "declare": self._build_declare, "turn": self._build_turn,
                "roll": self._build_roll, "boost": self._build_boost,
                "prevent": self._build_prevent, "distracted": self._build_distracted,
                "spend": self._build_spend,
            },
        )  # fmt: skip

    # The rows below are built the first time they show (``Slots``).

    def _build_declare(self) -> pn.FlexBox:
        self.bracket = pn.widgets.RadioButtonGroup(
            options=BRACKET_LABELS, value="normal", css_classes=["tp-bracket"]
        )
        self.bumps = pn.widgets.IntInput(label="Ki bumps", value=0, start=0, end=2, width=90)
        self.declare_button = button("Declare in secret", "tp-declare", "primary")
        self.declare_button.on_click(lambda _e: self._declare())
        self.declare_row = row(self.bracket, self.bumps, self.declare_button)
        return self.declare_row

    def _build_turn(self) -> pn.FlexBox:
        self.turn = TurnControls("tp", "End my turn")
        self.turn.attack_button.on_click(lambda _e: self._attack())
        self.turn.move_button.on_click(lambda _e: self._move())
        self.turn.end_turn.on_click(lambda _e: self.send({"type": "end_turn"}))
        return self.turn.row

    def _build_roll(self) -> pn.FlexBox:
        self.roll_button = button("Roll (table dice)", "tp-roll", "primary")
        self.faces = pn.widgets.TextInput(
            label="Or type your dice", placeholder="e.g. 3 7", css_classes=["tp-faces"], width=160
        )
        self.faces_button = button("Use my dice", "tp-faces-go")
        self.roll_button.on_click(lambda _e: self._roll(typed=False))
        self.faces_button.on_click(lambda _e: self._roll(typed=True))
        self.roll_row = row(self.roll_button, self.faces, self.faces_button)
        return self.roll_row

    def _build_boost(self) -> pn.FlexBox:
        self.boost_dice = pn.widgets.CheckButtonGroup(
            options={}, css_classes=["tp-boost-dice"], stylesheets=[WRAP_BUTTONS],
            sizing_mode="stretch_width",
        )  # fmt: skip
        self.boost_button = button("Boost these dice", "tp-boost", "primary")
        self.boost_button.on_click(
            lambda _e: self.send({"type": "boost", "dice": list(self.boost_dice.value)})
        )
        self.boost_row = row(self.boost_dice, self.boost_button)
        return self.boost_row

    def _build_prevent(self) -> pn.FlexBox:
        self.prevent_ki = pn.widgets.IntInput(
            label="Ki to prevent", value=0, start=0, width=120, css_classes=["tp-prevent-ki"]
        )
        self.prevent_button = button("Prevent", "tp-prevent", "primary")
        self.prevent_button.on_click(
            lambda _e: self.send({"type": "prevent", "ki": int(self.prevent_ki.value or 0)})
        )
        self.prevent_row = row(self.prevent_ki, self.prevent_button)
        return self.prevent_row

    def _build_distracted(self) -> pn.Column:
        self.distracted_ask = html_pane("tp-distracted-ask")
        self.distracted_roll = button("Roll (table dice)", "tp-distracted", "primary")
        self.distracted_faces = pn.widgets.TextInput(
            label="Or type your dice", placeholder="e.g. 4 9", width=160,
            css_classes=["tp-distracted-faces"],
        )  # fmt: skip
        self.distracted_faces_button = button("Use my dice", "tp-distracted-faces-go")
        self.distracted_roll.on_click(lambda _e: self._distracted(typed=False))
        self.distracted_faces_button.on_click(lambda _e: self._distracted(typed=True))
        self.distracted_row = pn.Column(
            self.distracted_ask,
            row(self.distracted_roll, self.distracted_faces, self.distracted_faces_button),
            sizing_mode="stretch_width",
        )
        return self.distracted_row

    def _build_spend(self) -> pn.FlexBox:
        self.spend = SpendControls("tp")
        self.spend.ki_button.on_click(lambda _e: self.send(self.spend.ki_command(self._seat())))
        self.spend.fate_button.on_click(lambda _e: self.send(self.spend.fate_command(self._seat())))
        return self.spend.row

    # -- sending -------------------------------------------------------------------------------

    def send(self, command: dict, then: Callable | None = None) -> None:
        """Send ``command`` as this seat (off the event loop, after checking the join code).

        Shows the reason when the table refuses it, else runs ``then()``.
        """
        if self.session is None:
            return
        table, code = self.session.table, self.code
        self.session.submit(
            command, done=lambda problem: self._sent(problem, then),
            allowed=lambda: table.code_matches(code),
        )  # fmt: skip

    def _sent(self, problem: str | None, then: Callable | None) -> None:
        if problem is NOT_SENT:
            self.drop("The GM changed the join code: ask for the new one.")
            return
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

    def _seat(self) -> str | None:
        # Always the seat this session verified on the server, never anything from the browser.
        return self.session.seat if self.session else None

    def _attack(self) -> None:
        self.send(self.turn.attack_command(self._seat()))

    def _move(self) -> None:
        self.send(self.turn.move_command(self._seat()))

    def _distracted(self, typed: bool) -> None:
        command = {"type": "distracted", "combatant": self._seat()}
        command = with_typed_faces(command, typed, self.distracted_faces, self.message)
        if command is not None:
            self.send(command, then=lambda: setattr(self.distracted_faces, "value", ""))

    def _roll(self, typed: bool) -> None:
        command = with_typed_faces({"type": "roll"}, typed, self.faces, self.message)
        if command is not None:
            self.send(command, then=lambda: setattr(self.faces, "value", ""))

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw from the table's view for this seat (runs in this session's document).

        The view and its HTML are made once per table version for every page of the same
        seat (``CombatService.drawn``); this page sets only the panes that changed.
        """
        s = self.session
        if s is None:
            return
        if not s.table.code_matches(self.code):
            self.drop("The GM changed the join code: ask for the new one.")
            return
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
        step = p["step"] if p else None
        mine = me is not None
        rows = self.rows
        rows.show("declare", mine and phase == "declare" and me["can_act"])
        if rows.show("turn", mine and phase == "resolve" and v["up"] == me["id"] and p is None):
            self.turn.show(v, me)
        attacker = mine and p is not None and p["attacker"] == me["id"]
        if rows.show("roll", attacker and step in ("to_hit", "damage")):
            what = "to hit" if step == "to_hit" else "damage"
            update(self.roll_button, label=f"Roll {what} (table dice)")
        if rows.show("boost", attacker and step == "boost"):
            dice = p["odds"]["dice"] if p.get("odds") else []
            options = {
                f"die {i + 1}: {d['face']}{' ↑' if d['boost_lifts'] else ''}": i
                for i, d in enumerate(dice)
            }
            update(self.boost_dice, options=options)
        if rows.show("distracted", mine and any(x["to_roll"] for x in me["conditions"])):
            update(self.distracted_ask, object=d["distracted"])
        if rows.show("spend", mine and me["ki"] is not None):
            self.spend.show(me)
        if rows.show("prevent", mine and step == "prevent" and p["target"] == me["id"]):
            update(self.prevent_ki, end=max(p["levels"] or 0, 0))
            update(self.prevent_button, label=f"Prevent (Ki {me['ki']['now']})")

    def _show_attacks(self, d: dict) -> None:
        """The seat's attacks with their odds: now if known, else on the next tick.

        Computing odds the cache does not hold yet is the slow part of a refresh, so it
        waits for the next tick, after every page's board has gone out.
        """
        s = self.session
        me = next((c for c in d["view"]["combatants"] if c["id"] == s.seat), None)
        if me is None or not me["attacks"]:
            update(self.attacks, object="")
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

    def _session_ended(self) -> None:
        self.close()
        self.service.page_closed()

    def close(self) -> None:
        """Stop listening to the table (when the session ends or the page leaves it)."""
        if self.session is not None:
            self.session.close()
            self.session = None
            self.view = None


def attacks_html(previews: list[dict], v: dict) -> str:
    """The "Your attacks" table of odds."""
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
        "banner": f'<div class="banner">{banner}</div>' if banner else "",
        "me": render.card(me, phase) if me else "",
        "order": render.declaration_status(v) + render.order_line(v),
        "cards": [_shared_card(c, phase, card) for c in cs if c is not me],
        "pending": render.pending(v),
        "log": f"<h3>Dice and events</h3>{render.log(v)}",
        "distracted": (
            '<div class="banner">The GM asks for a Distracted roll: Atropos + Difficulty, '
            "to hold your action together.</div>"
            if me is not None and any(x["to_roll"] for x in me["conditions"])
            else ""
        ),
    }


def _shared_card(c: dict, phase: str, card: Callable | None) -> str:
    """``render.card``, drawn once per table version for the seats that share it."""
    if card is None:
        return render.card(c, phase)
    return card((c["id"], phase), lambda: render.card(c, phase))


def table_page(service: CombatService | None = None) -> pn.Template:
    """The whole players' page, one per session."""
    return page("at the table", [TablePage(service)], current="table", light=True)
