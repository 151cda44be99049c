"""The GM's combat dashboard: a live table, every step with its exact odds.

Without the GM key the page shows only a prompt for it. A thin view: every change is a command
(``TableSession.send``) and the page redraws from ``Table.view_for("gm")``. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape, reason_line
from tb_playground.guard import SlowDownError
from tb_playground.models import Encounter, FileFormatError, load, loads
from tb_playground.service import CombatService, get_service
from tb_playground.table.gm_tools import GM_GROUPS, gm_menu
from tb_playground.table.menu import menu
from tb_playground.table.rules import (
    DEFAULT_UNTIL,
    RANGE_BANDS,
    SETTABLE_CONDITIONS,
    SETTABLE_WORDS,
)

from ..kit import (
    READABLE_BUTTONS,
    ActionToggle,
    CardBoard,
    UploadBox,
    button,
    client_address,
    html_pane,
    on_session_end,
    page,
    query_arg,
    row,
    set_query,
    update,
)
from . import combat_render as render
from . import dice_landing
from .action_panel import ActionPanel, ApproachNod
from .add_combatant import AddCombatant
from .combat_session import (
    BRACKET_LABELS,
    SpendControls,
    TableSession,
    parse_faces,
)
from .fight_story import FightStory
from .seat_list import SeatList
from .steps import StepControls
from .win_chart import WinChart

UNTIL_LABELS = {v.capitalize(): k for k, v in render.UNTIL_WORDS.items()}
FIELD_LABELS = {words: field for field, words in SETTABLE_WORDS.items()}
BAND_LABELS = {band.capitalize(): band for band in RANGE_BANDS}

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
        self._build_prompt()
        self._build_chooser()
        self._build_table()
        on_session_end(self._session_ended)
        key = key if key is not None else query_arg("key")
        if self._key_ok(key):
            self._unlocked(key, remember=False)
            wanted = query_arg("table")
            if wanted and wanted in self.service.names():
                self.open_table(wanted)
        else:
            self._layout[:] = [self.prompt]

    def __panel__(self):
        return self._layout

    # -- the key prompt ------------------------------------------------------------------------

    def _build_prompt(self) -> None:
        self.key_input = pn.widgets.PasswordInput(
            label="GM key", placeholder="the key printed when the server started",
            css_classes=["gm-key"], sizing_mode="stretch_width",
        )  # fmt: skip
        self.key_button = button("Enter", "gm-key-enter", "primary")
        self.key_message = html_pane("gm-key-message")
        self.key_button.on_click(lambda _e: self._try_key())
        self.prompt = pn.Column(
            pn.pane.Markdown(
                "## GM dashboard\nThis page needs the GM key.", css_classes=["gm-prompt"]
            ),
            row(self.key_input, self.key_button),
            self.key_message,
            sizing_mode="stretch_width",
        )

    def _try_key(self) -> None:
        key = self.key_input.value
        self.key_input.value = ""
        if self._key_ok(key):
            self._unlocked(key, remember=True)
        elif not self.key_message.object:
            self.key_message.object = '<p class="err">That is not the GM key.</p>'

    def _key_ok(self, key) -> bool:
        """The service's answer; wrong keys are limited per address (guard.py)."""
        self.key_message.object = ""
        try:
            return self.service.gm_key_ok(key, client_address())
        except SlowDownError as slowed:
            self.key_message.object = f'<p class="err">{escape(str(slowed))}</p>'
            return False

    def _unlocked(self, key: str, remember: bool) -> None:
        if remember:
            set_query(key=key)
        self._refresh_chooser()
        self._layout[:] = [self.chooser]

    # -- opening or creating a table -----------------------------------------------------------

    def _build_chooser(self) -> None:
        self.open_select = pn.widgets.Select(label="Tables", css_classes=["gm-tables"], width=260)
        self.open_button = button("Open table", "gm-open", "primary")
        self.open_button.on_click(lambda _e: self.open_table(self.open_select.value))
        files = self.service.encounter_files()
        self.encounter_select = pn.widgets.Select(
            label="Encounter", options={k: str(v) for k, v in files.items()},
            css_classes=["gm-encounter"], width=260,
        )  # fmt: skip
        self.encounter_upload = UploadBox(
            accept=".yaml,.yml,.json", css_classes=["gm-upload"], width=260
        )
        creatures = self.service.creature_files()
        self.extra = pn.widgets.MultiChoice(
            label="Add from the roster", options={k: str(v) for k, v in creatures.items()},
            css_classes=["gm-extra"], sizing_mode="stretch_width",
        )  # fmt: skip
        self.new_name = pn.widgets.TextInput(label="Table name", css_classes=["gm-name"], width=260)
        self.create_button = button("Create table", "gm-create", "primary")
        self.create_button.on_click(lambda _e: self.create_table())
        self.chooser_message = html_pane("gm-chooser-message")
        self.chooser = pn.Column(
            pn.pane.Markdown("## GM dashboard"),
            pn.pane.Markdown("### Open a table"),
            row(self.open_select, self.open_button),
            pn.pane.Markdown("### Or start a new one"),
            row(self.encounter_select, self.new_name, self.create_button),
            pn.pane.Markdown("An encounter file of your own (instead of the one above):"),
            self.encounter_upload,
            self.extra,
            pn.pane.Markdown(
                "Someone the encounter holds already (its party's roster files) is kept once, "
                "with the roster file's sheet.",
                css_classes=["gm-extra-note"],
            ),  # fmt: skip
            self.chooser_message,
            sizing_mode="stretch_width",
        )

    def _refresh_chooser(self) -> None:
        names = self.service.names()
        update(self.open_select, options=list(reversed(names)))
        self.open_button.disabled = not names
        base = "The warehouse"
        if self.encounter_select.value:
            try:
                base = load(self.encounter_select.value, "encounter").name
            except (FileFormatError, OSError):
                pass
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base} {n}"
        self.new_name.value = name

    def _encounter(self) -> tuple[Encounter, list]:
        if self.encounter_upload.value:
            source = self.encounter_upload.filename or "upload"
            try:
                enc = loads(self.encounter_upload.value, None, "encounter", source)
            except ValueError as err:  # a FileFormatError is a ValueError
                log.warning("encounter upload %r refused: %s", source, reason_line(err))
                raise
        else:
            enc = load(self.encounter_select.value, "encounter")
        return enc, [load(path) for path in self.extra.value]

    def create_table(self) -> None:
        """Create a table from the chosen encounter (and roster files) and open it.

        A roster file of someone the encounter holds already is kept once (the service merges
        them); the table page then says who was.
        """
        try:
            table, merged = self.service.create_with(self.new_name.value, *self._encounter())
        except (ValueError, OSError) as err:  # FileFormatError is a ValueError
            self.chooser_message.object = f'<p class="err">{escape(err)}</p>'
            return
        self.open_table(table.name)
        if merged:
            self.message.object = "".join(
                f'<p class="status gm-merged">{escape(note)}</p>' for note in merged
            )

    def open_table(self, name: str) -> None:
        """Bind this page to the table ``name`` and show it."""
        try:
            table = self.service.open(name)
        except ValueError as err:
            self.chooser_message.object = f'<p class="err">{escape(err)}</p>'
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
        self._refresh_chooser()
        self._layout[:] = [self.chooser]

    # -- the table -----------------------------------------------------------------------------

    def _build_table(self) -> None:  # noqa: PLR0915 - one widget per control
        self.header = html_pane("gm-header")
        self.status = html_pane("gm-status")
        self.board = CardBoard("gm-board")
        self.log = html_pane("gm-log")
        self.pending = html_pane("gm-pending")
        self.chance = WinChart("gm", send=self.send)  # the chance to win and its chart
        self.loss = html_pane("gm-loss")  # what the table file lost: the GM's words only

        self.start_button = button("Start the fight", "gm-start", "primary")
        self.initiative_faces = pn.widgets.TextInput(
            label="Initiative d10s (optional, in card order)", css_classes=["gm-init-faces"],
            placeholder="blank: the table rolls", width=260,
        )  # fmt: skip
        self.reveal_button = button("Reveal brackets", "gm-reveal", "primary")
        self.undo_button = button("Undo", "gm-undo")
        self.redo_button = button("Redo", "gm-redo")
        self.share_toggle = ActionToggle(
            label="Share foes' numbers", css_classes=["gm-share"], width=170,
            stylesheets=[READABLE_BUTTONS],
        )  # fmt: skip
        self.rotate_button = button("New join code", "gm-rotate")
        self.short_rest = button("Short Rest", "gm-short-rest")
        self.full_night = button("Full Night", "gm-full-night")
        self.end_scene = button("End of Scene", "gm-end-scene")
        self.leave_button = button("Other tables", "gm-leave")

        self.start_button.on_click(lambda _e: self._start())
        self.reveal_button.on_click(lambda _e: self.send({"type": "reveal"}))
        self.undo_button.on_click(lambda _e: self._send_at_version({"type": "undo"}))
        self.redo_button.on_click(lambda _e: self._send_at_version({"type": "redo"}))
        self.share_toggle.param.watch(self._share, "value")
        self.rotate_button.on_click(lambda _e: self.send({"type": "rotate_code"}))
        self.short_rest.on_click(lambda _e: self.send({"type": "short_rest"}))
        self.full_night.on_click(lambda _e: self.send({"type": "full_night"}))
        self.end_scene.on_click(lambda _e: self.send({"type": "end_scene"}))
        self.leave_button.on_click(lambda _e: self.leave_table())

        # Declarations (the GM declares the creatures, or anyone).
        self.declare_who = pn.widgets.Select(
            label="Declare for", css_classes=["gm-declare-who"], width=200
        )
        self.declare_bracket = pn.widgets.RadioButtonGroup(
            options=BRACKET_LABELS, value="normal", css_classes=["gm-bracket"]
        )
        self.declare_bumps = pn.widgets.IntInput(
            label="Ki bumps", value=0, start=0, end=2, width=90
        )
        self.declare_button = button("Declare", "gm-declare", "primary")
        self.declare_button.on_click(lambda _e: self._declare())
        # Another combatant to declare for: its own defaults, not the last one's bumps.
        self.declare_who.param.watch(lambda _e: self._declare_defaults(), "value")
        self.declare_row = row(
            self.declare_who, self.declare_bracket, self.declare_bumps, self.declare_button
        )

        # The turn of whoever is up: every action of the round (issue 20).
        self.turn = ActionPanel("gm", "End turn", self.send, self._menu)
        self.turn_row = self.turn.row
        self.nod = ApproachNod(self.send, lambda: self.session.table.state)
        # Group rolls and the chase's controls (table/gm_tools.py), through the same panel.
        self.calls = ActionPanel("gm-calls", "", self.send, self._calls_menu, GM_GROUPS)

        # The attack under way, one step at a time (views/combat/steps.py).
        self.steps = StepControls(
            "gm", self.send, self.message, "Or type the physical dice", "Use these dice",
            odds=dice_landing.for_page(self),
        )  # fmt: skip

        # GM tools on one combatant.
        self.tool_who = pn.widgets.Select(label="Combatant", css_classes=["gm-tool-who"], width=200)
        self.hide_button = button("Hide", "gm-hide")
        self.show_button = button("Show", "gm-show")
        self.hide_button.on_click(lambda _e: self._tool("hide"))
        self.show_button.on_click(lambda _e: self._tool("show"))
        self.condition = pn.widgets.Select(
            label="Condition", options=list(SETTABLE_CONDITIONS), css_classes=["gm-condition"],
            width=160,
        )  # fmt: skip
        self.until = pn.widgets.Select(label="Lasts", options=UNTIL_LABELS, width=200)
        self.condition.param.watch(self._default_until, "value")
        self._default_until()
        self.set_condition = button("Set condition", "gm-set-condition")
        self.set_condition.on_click(lambda _e: self._condition())
        self.clear_which = pn.widgets.Select(
            label="Clear", width=160, css_classes=["gm-clear-which"]
        )
        self.clear_button = button("Clear condition", "gm-clear")
        self.clear_button.on_click(lambda _e: self._clear())
        self.tool_who.param.watch(lambda _e: self._tool_options(), "value")
        self._set_for: tuple | None = None
        # Spends and overrides for the combatant chosen above.
        self.spend = SpendControls("gm")
        self.spend.ki_button.on_click(
            lambda _e: self.send(self.spend.ki_command(self.tool_who.value))
        )
        self.spend.fate_button.on_click(
            lambda _e: self.send(self.spend.fate_command(self.tool_who.value))
        )
        self.set_field = pn.widgets.Select(
            label="Set", options=FIELD_LABELS, width=140, css_classes=["gm-set-field"]
        )
        self.set_value = pn.widgets.IntInput(
            label="to", value=0, width=90, css_classes=["gm-set-value"]
        )
        self.set_field.param.watch(lambda _e: self._tool_options(), "value")
        self.set_button = button("Set value", "gm-set")
        self.set_button.on_click(lambda _e: self._set_value())
        self.distracted_difficulty = pn.widgets.IntInput(
            label="Difficulty", value=5, start=0, end=10, width=90,
            css_classes=["gm-distracted-difficulty"],
        )  # fmt: skip
        self.distracted_faces = pn.widgets.TextInput(
            label="Dice (blank: the table rolls)", placeholder="e.g. 4 9", width=200,
            css_classes=["gm-distracted-faces"],
        )  # fmt: skip
        self.distracted_button = button("Roll Distracted", "gm-distracted")
        self.distracted_button.on_click(lambda _e: self._distracted())
        self.ask_distracted = button("Ask the player", "gm-ask-distracted")
        self.ask_distracted.on_click(lambda _e: self._ask_distracted())
        self.range_a = pn.widgets.Select(label="Range from", width=170, css_classes=["gm-range-a"])
        self.range_b = pn.widgets.Select(label="to", width=170, css_classes=["gm-range-b"])
        self.range_band = pn.widgets.Select(
            label="Band", options=BAND_LABELS, width=110, css_classes=["gm-range-band"]
        )
        self.range_button = button("Set range", "gm-range")
        self.range_button.on_click(lambda _e: self._set_range())
        self.ranges = html_pane("gm-ranges")

        self.note = pn.widgets.TextInput(
            label="Note for the log", css_classes=["gm-note"], width=260
        )
        self.note_button = button("Add note", "gm-note-go")
        self.note_button.on_click(lambda _e: self._note())
        self.adder = AddCombatant(self.send, self.service.creature_files())
        self.seat_list = SeatList(self.service)  # who sits where (issue 20, seat_list.py)
        # The replay and the night's numbers (issue 23, fight_story.py).
        self.story = FightStory(self.service, lambda v, _seat: draw_gm(v),
                                ["header", "status", "pending", "cards", "log"], "gm",
                                self._replaying)  # fmt: skip
        self.chance.follow(self.story.replay)  # the chart's line at the event replayed

        self.table_view = pn.Column(
            self.header,
            row(
                self.start_button,
                self.initiative_faces,
                self.reveal_button,
                self.undo_button,
                self.redo_button,
                self.share_toggle,
                self.rotate_button,
            ),  # fmt: skip
            self.story.openers,
            self.loss,
            self.message,
            self.steps.result,
            self.status,
            self.declare_row,
            self.turn_row,
            self.steps.whose,
            self.nod.row,
            self.pending,
            self.steps.controls,
            self.board,
            self.story.night,
            self.seat_list,
            self.chance,
            pn.pane.Markdown("### GM tools"),
            self.calls.row,
            row(self.tool_who, self.hide_button, self.show_button),
            row(
                self.condition, self.until, self.set_condition, self.clear_which, self.clear_button
            ),
            row(self.set_field, self.set_value, self.set_button),
            self.spend.row,
            row(
                self.distracted_difficulty,
                self.distracted_faces,
                self.distracted_button,
                self.ask_distracted,
            ),  # fmt: skip
            row(self.range_a, self.range_b, self.range_band, self.range_button),
            self.ranges,
            row(self.note, self.note_button),
            pn.pane.Markdown("### Add to the fight"),
            self.adder,
            row(self.short_rest, self.full_night, self.end_scene, self.leave_button),
            pn.pane.Markdown("### Log"),
            self.log,
            sizing_mode="stretch_width",
        )

    # -- sending -------------------------------------------------------------------------------

    def send(
        self, command: dict, expected_version: int | None = None, then: Callable | None = None
    ) -> None:
        """Send ``command`` as the GM (off the event loop).

        Shows the reason when the table refuses it, else runs ``then()``.
        """
        if self.session is not None:
            self.session.submit(
                command, expected_version, lambda problem: self._sent(problem, then)
            )

    def _sent(self, problem: str, then: Callable | None) -> None:
        self.message.object = f'<p class="err">{escape(problem)}</p>' if problem else ""
        if not problem and then is not None:
            then()

    def _file_problem(self, text: str) -> None:
        """A player's command failed because of the file: the GM is told too."""
        self.message.object = f'<p class="err">{escape(text)}</p>'

    def _send_at_version(self, command: dict) -> None:
        # Undo and redo act on what the GM saw: refused if the table moved on meanwhile.
        self.send(command, self.view["version"] if self.view else None)

    def _start(self) -> None:
        command: dict = {"type": "start"}
        try:
            faces = parse_faces(self.initiative_faces.value)
        except ValueError as err:
            self.message.object = f'<p class="err">{escape(err)}</p>'
            return
        if faces is not None:
            ids = [c["id"] for c in self.view["combatants"]]
            if len(faces) != len(ids):
                self.message.object = (
                    f'<p class="err">Type one d10 for each combatant ({len(ids)}), or none.</p>'
                )
                return
            command["initiative"] = dict(zip(ids, faces, strict=True))
        self.send(command, then=lambda: setattr(self.initiative_faces, "value", ""))

    def _share(self, event) -> None:
        if self.view is not None and event.new != self.view["share_foes"]:
            self.send({"type": "share", "on": bool(event.new)})

    def _declare(self) -> None:
        self.send(
            {
                "type": "declare",
                "combatant": self.declare_who.value,
                "bracket": self.declare_bracket.value,
                "bumps": int(self.declare_bumps.value or 0),
            }
        )

    def _declare_defaults(self) -> None:
        update(self.declare_bumps, value=0)
        update(self.declare_bracket, value="normal")

    def _menu(self, choices: dict) -> dict:
        # What whoever is up may do, from the table's own checks (table/menu.py).
        return menu(self.session.table.state, "gm", None, None, choices)

    def _calls_menu(self, choices: dict) -> dict:
        return gm_menu(self.session.table.state, choices)

    def _tool(self, kind: str) -> None:
        self.send({"type": kind, "combatant": self.tool_who.value})

    def _default_until(self, *_events) -> None:
        self.until.value = DEFAULT_UNTIL.get(self.condition.value, "manual")

    def _condition(self) -> None:
        self.send(
            {
                "type": "set_condition",
                "combatant": self.tool_who.value,
                "condition": self.condition.value,
                "until": self.until.value,
            }
        )

    def _clear(self) -> None:
        if self.clear_which.value:
            self.send(
                {
                    "type": "clear_condition",
                    "combatant": self.tool_who.value,
                    "condition": self.clear_which.value,
                }
            )

    def _set_value(self) -> None:
        value = self.set_value.value
        self.send(
            {
                "type": "set",
                "combatant": self.tool_who.value,
                "field": self.set_field.value,
                "value": int(value) if value is not None else None,
            }
        )

    def _distracted(self) -> None:
        command = {
            "type": "distracted",
            "combatant": self.tool_who.value,
            "difficulty": int(self.distracted_difficulty.value or 0),
        }
        try:
            faces = parse_faces(self.distracted_faces.value)
        except ValueError as err:
            self.message.object = f'<p class="err">{escape(err)}</p>'
            return
        if faces is not None:
            command["faces"] = faces
        self.send(command, then=lambda: setattr(self.distracted_faces, "value", ""))

    def _ask_distracted(self) -> None:
        self.send(
            {
                "type": "set_condition",
                "combatant": self.tool_who.value,
                "condition": "Distracted",
                "until": "round",
                "difficulty": int(self.distracted_difficulty.value or 0),
            }
        )

    def _set_range(self) -> None:
        self.send(
            {
                "type": "set_range",
                "a": self.range_a.value,
                "b": self.range_b.value,
                "band": self.range_band.value,
            }
        )

    def _note(self) -> None:
        self.send({"type": "note", "text": self.note.value},
                  then=lambda: setattr(self.note, "value", ""))  # fmt: skip

    # -- drawing -------------------------------------------------------------------------------

    def _tool_options(self) -> None:
        if self.view is None:
            return
        c = next((c for c in self.view["combatants"] if c["id"] == self.tool_who.value), None)
        names = [x["name"] for x in c["conditions"]] if c else []
        update(self.clear_which, options=names, disabled=not names)
        if c is not None:
            self.hide_button.visible = not c["hidden"]
            self.show_button.visible = c["hidden"]
            if self.set_field.value in ("health", "poise", "sanity") and c["vitals"]:
                now = c["vitals"][self.set_field.value]["now"]
            elif self.set_field.value == "ki" and c["ki"]:
                now = c["ki"]["now"]
            elif self.set_field.value == "fate" and c["fate"]:
                now = c["fate"]["tokens"]
            else:
                now = None
            if now is not None and self._set_for != (c["id"], self.set_field.value):
                self._set_for = (c["id"], self.set_field.value)
                update(self.set_value, value=now)
        self.spend.show(c)
        self.ask_distracted.disabled = c is None or c["kind"] != "character"

    def refresh(self) -> None:
        """Redraw from the table's GM view (runs in this session's document).

        The view and its HTML are made once per table version for every GM page
        (``CombatService.drawn``); this page sets only what changed.
        """
        if self.session is None:
            return
        d = self.service.drawn(self.session.table, "gm", None, draw_gm)
        v = self.view = d["view"]
        cs = v["combatants"]
        by_id = {c["id"]: c for c in cs}
        phase = v["phase"]
        for pane in ("header", "status", "log", "pending"):
            update(getattr(self, pane), object=d[pane])
        loss = self.service.store.gm_loss(self.session.table.name)
        update(self.loss, object=f'<p class="err">{escape(loss)}</p>' if loss else "")
        self.board.show(d["cards"])
        self.story.follow(self.session, v)

        self.start_button.visible = self.initiative_faces.visible = phase == "setup"
        self.reveal_button.visible = phase == "declare"
        update(self.undo_button, disabled=not v["can_undo"])
        update(self.redo_button, disabled=not v["can_redo"])
        update(self.share_toggle, value=v["share_foes"])

        # Declaring: everyone who can act, the undeclared first.
        self.declare_row.visible = phase == "declare"
        if phase == "declare":
            able = [c for c in cs if c["can_act"]]
            able.sort(key=lambda c: c["declared"])
            options = render.unique_labels(able, lambda c: " (declared)" if c["declared"] else "")
            value = self.declare_who.value if self.declare_who.value in options.values() else None
            if value is None or by_id[value]["declared"]:
                value = able[0]["id"] if able else None
            update(self.declare_who, options=options, value=value)

        p = v["pending"]
        up = by_id.get(v["up"]) if v["up"] else None
        self.turn.show(p is None and (up is not None and phase == "resolve" or phase == "chase"))
        self.nod.show(self.session.table.state)  # the GM's nod on a player's approach
        self.calls.show(True)  # hides itself when nothing is to call now

        self.steps.show(v, None)

        labels = render.unique_labels(cs)
        a = (
            self.range_a.value
            if self.range_a.value in labels.values()
            else (cs[0]["id"] if cs else None)
        )
        update(self.range_a, options=labels, value=a)
        b = self.range_b.value if self.range_b.value in labels.values() else None
        if b is None or b == a:
            b = next((c["id"] for c in cs if c["id"] != a), None)
        update(self.range_b, options=labels, value=b)
        update(self.ranges, object=d["ranges"])

        tools = render.unique_labels(cs, lambda c: " (hidden)" if c["hidden"] else "")
        first = cs[0]["id"] if cs else None
        keep = self.tool_who.value if self.tool_who.value in tools.values() else first
        update(self.tool_who, options=tools, value=keep)
        self._tool_options()

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


def draw_gm(v: dict) -> dict:
    """The GM page's HTML for the view ``v`` (shared by every GM page at this version)."""
    phase = v["phase"]
    head = (
        f'<div class="status"><b>{escape(v["table"])}</b> · '
        f'<span class="counter">{render.counter(v)}</span> · '
        f"{render.PHASE_WORDS.get(phase, phase)} · join code "
        f'<b class="join-code">{escape(v["join_code"])}</b></div>'
    )
    return {
        "view": v,
        "header": head,
        "status": render.fight_over(v) + render.declaration_status(v) + render.order_line(v),
        "cards": [render.card(c, v["phase"]) for c in v["combatants"]],
        "log": render.log(v),
        "pending": render.pending(v),
        "ranges": render.ranges(v),
    }


def gm_page(service: CombatService | None = None) -> pn.Template:
    """The whole GM page, one per session."""
    return page("GM dashboard", [GMPage(service)], current="gm", light=True)
