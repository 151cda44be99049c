"""The GM tools under the board, each a command sent to the table.

Group rolls and the chase (``table/gm_tools.py``, through an action panel); on one combatant:
hide and show, set and clear a condition, set a value (Health, Poise, Sanity, Ki, Fate),
spend Ki or a Fate Token, roll Distracted or ask the player to; the range band between two
combatants; a note for the log. Every control sends one command through the page
(``GMPage.send``); the table refuses what the rules do not allow. Notes:
docs/notes/0009-combat-panel.md, docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape
from tb_playground.table.fight_rules import (
    DEFAULT_UNTIL,
    RANGE_BANDS,
    SETTABLE_CONDITIONS,
    SETTABLE_WORDS,
)
from tb_playground.table.gm_tools import GM_GROUPS, gm_menu

from ..kit import button, html_pane, row, update
from . import combat_render as render
from .action_panel import ActionPanel
from .combat_session import SpendControls, parse_faces

UNTIL_LABELS = {v.capitalize(): k for k, v in render.UNTIL_WORDS.items()}
FIELD_LABELS = {words: field for field, words in SETTABLE_WORDS.items()}
BAND_LABELS = {band.capitalize(): band for band in RANGE_BANDS}


class GMTools:
    """The GM tools of one GM page session.

    Parameters
    ----------
    send : callable
        ``send(command, expected_version=None, then=None)``: the page sends as the GM.
    message : pn.pane.HTML
        The page's message pane (a typed die that is no d10 is said there).
    view : callable
        ``view()``: the table's view the page shows now (None when it shows no table).
    state : callable
        ``state()``: the table's state now (what the group rolls' menu is tried on).
    """

    def __init__(  # noqa: PLR0915 - one widget per control
        self,
        send: Callable[..., None],
        message: pn.pane.HTML,
        view: Callable[[], dict | None],
        state: Callable[[], dict],
    ):
        self._send = send
        self._message = message
        self._view = view
        self._state = state
        # Group rolls and the chase's controls (table/gm_tools.py), through an action panel.
        self.calls = ActionPanel("gm-calls", "", send, self._calls_menu, GM_GROUPS)

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
            lambda _e: self._send(self.spend.ki_command(self.tool_who.value))
        )
        self.spend.fate_button.on_click(
            lambda _e: self._send(self.spend.fate_command(self.tool_who.value))
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

        #: The tools' rows, top to bottom, for the page's "GM tools" section.
        self.rows = [
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
        ]

    # -- sending -------------------------------------------------------------------------------

    def _calls_menu(self, choices: dict) -> dict:
        return gm_menu(self._state(), choices)

    def _tool(self, kind: str) -> None:
        self._send({"type": kind, "combatant": self.tool_who.value})

    def _default_until(self, *_events) -> None:
        self.until.value = DEFAULT_UNTIL.get(self.condition.value, "manual")

    def _condition(self) -> None:
        self._send(
            {
                "type": "set_condition",
                "combatant": self.tool_who.value,
                "condition": self.condition.value,
                "until": self.until.value,
            }
        )

    def _clear(self) -> None:
        if self.clear_which.value:
            self._send(
                {
                    "type": "clear_condition",
                    "combatant": self.tool_who.value,
                    "condition": self.clear_which.value,
                }
            )

    def _set_value(self) -> None:
        value = self.set_value.value
        self._send(
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
            self._message.object = f'<p class="err">{escape(err)}</p>'
            return
        if faces is not None:
            command["faces"] = faces
        self._send(command, then=lambda: setattr(self.distracted_faces, "value", ""))

    def _ask_distracted(self) -> None:
        self._send(
            {
                "type": "set_condition",
                "combatant": self.tool_who.value,
                "condition": "Distracted",
                "until": "round",
                "difficulty": int(self.distracted_difficulty.value or 0),
            }
        )

    def _set_range(self) -> None:
        self._send(
            {
                "type": "set_range",
                "a": self.range_a.value,
                "b": self.range_b.value,
                "band": self.range_band.value,
            }
        )

    def _note(self) -> None:
        self._send({"type": "note", "text": self.note.value},
                   then=lambda: setattr(self.note, "value", ""))  # fmt: skip

    # -- drawing -------------------------------------------------------------------------------

    def _tool_options(self) -> None:
        view = self._view()
        if view is None:
            return
        c = next((c for c in view["combatants"] if c["id"] == self.tool_who.value), None)
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

    def show(self, v: dict, ranges: str) -> None:
        """Offer the combatants of the view ``v``; ``ranges``: its drawing of the range bands."""
        cs = v["combatants"]
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
        update(self.ranges, object=ranges)

        tools = render.unique_labels(cs, lambda c: " (hidden)" if c["hidden"] else "")
        first = cs[0]["id"] if cs else None
        keep = self.tool_who.value if self.tool_who.value in tools.values() else first
        update(self.tool_who, options=tools, value=keep)
        self._tool_options()
