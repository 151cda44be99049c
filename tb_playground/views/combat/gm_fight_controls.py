"""The GM's controls of the fight's course, each a command sent to the table.

Start the fight (initiative rolled by the table or typed), reveal the declared brackets,
declare for a combatant, undo and redo (at the version the GM saw), share the foes' numbers,
a new join code, and the rests and end of scene (rules/000, 002). Every control sends one
command through the page (``GMPage.send``); the table refuses what the rules do not allow.
Notes: docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape
from tb_playground.table.privacy import FOE_ODDS_DEFAULT, FOE_ODDS_WORDS

from ..kit import READABLE_BUTTONS, ActionToggle, button, row, update
from . import combat_render as render
from .combat_session import BRACKET_LABELS, parse_faces

#: The foe-odds switch's choices (``privacy.FOE_ODDS``), in plain words.
FOE_ODDS_LABELS = {
    "Exact odds and TN": "exact",
    "The chance in words": "words",
    "No odds": "none",
}

#: The switch's help: what each choice reveals (the share switch shows everything anyway).
FOE_ODDS_HELP = (
    "What a player sees of their own attack's odds against a foe, while the foes' numbers "
    "are not shared. "
    + " ".join(f"{label} reveals {FOE_ODDS_WORDS[key]}." for label, key in FOE_ODDS_LABELS.items())
    + " Other players see no odds of an attack on a foe either way."
)


class FightControls:
    """The GM's controls of the fight's course, on one GM page session.

    Parameters
    ----------
    send : callable
        ``send(command, expected_version=None, then=None)``: the page sends as the GM.
    message : pn.pane.HTML
        The page's message pane (a typed die that is no d10 is said there).
    view : callable
        ``view()``: the table's view the page shows now (None when it shows no table).
    """

    def __init__(
        self, send: Callable[..., None], message: pn.pane.HTML, view: Callable[[], dict | None]
    ):
        self._send = send
        self._message = message
        self._view = view
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
        # What an attacker sees of its odds against a foe (issue 31), beside the share switch.
        self.foe_odds = pn.widgets.Select(
            name="Attackers see, against foes", options=FOE_ODDS_LABELS, value=FOE_ODDS_DEFAULT,
            css_classes=["gm-foe-odds"], width=220, description=FOE_ODDS_HELP,
        )  # fmt: skip
        self.foe_odds.param.watch(self._foe_odds, "value")
        self.rotate_button = button("New join code", "gm-rotate")
        self.short_rest = button("Short Rest", "gm-short-rest")
        self.full_night = button("Full Night", "gm-full-night")
        self.end_scene = button("End of Scene", "gm-end-scene")

        self.start_button.on_click(lambda _e: self.start())
        self.reveal_button.on_click(lambda _e: self._send({"type": "reveal"}))
        self.undo_button.on_click(lambda _e: self._send_at_version({"type": "undo"}))
        self.redo_button.on_click(lambda _e: self._send_at_version({"type": "redo"}))
        self.share_toggle.param.watch(self._share, "value")
        self.rotate_button.on_click(lambda _e: self._send({"type": "rotate_code"}))
        self.short_rest.on_click(lambda _e: self._send({"type": "short_rest"}))
        self.full_night.on_click(lambda _e: self._send({"type": "full_night"}))
        self.end_scene.on_click(lambda _e: self._send({"type": "end_scene"}))

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
        self._bumps_round: int | None = None  # the round the bumps box was last reset for
        self.declare_button.on_click(lambda _e: self.declare())
        # Another combatant to declare for: its own defaults, not the last one's bumps.
        self.declare_who.param.watch(lambda _e: self._declare_defaults(), "value")
        self.declare_row = row(
            self.declare_who, self.declare_bracket, self.declare_bumps, self.declare_button
        )

        #: The controls over the board, and the scene's buttons under the tools.
        self.top_row = row(
            self.start_button,
            self.initiative_faces,
            self.reveal_button,
            self.undo_button,
            self.redo_button,
            self.share_toggle,
            self.foe_odds,
            self.rotate_button,
        )  # fmt: skip
        self.scene_buttons = (self.short_rest, self.full_night, self.end_scene)

    def _send_at_version(self, command: dict) -> None:
        # Undo and redo act on what the GM saw: refused if the table moved on meanwhile.
        view = self._view()
        self._send(command, view["version"] if view else None)

    def start(self) -> None:
        """Start the fight: the initiative dice typed (one per card, in order), or none."""
        command: dict = {"type": "start"}
        try:
            faces = parse_faces(self.initiative_faces.value)
        except ValueError as err:
            self._message.object = f'<p class="err">{escape(err)}</p>'
            return
        if faces is not None:
            ids = [c["id"] for c in self._view()["combatants"]]
            if len(faces) != len(ids):
                self._message.object = (
                    f'<p class="err">Type one d10 for each combatant ({len(ids)}), or none.</p>'
                )
                return
            command["initiative"] = dict(zip(ids, faces, strict=True))
        self._send(command, then=lambda: setattr(self.initiative_faces, "value", ""))

    def _share(self, event) -> None:
        view = self._view()
        if view is not None and event.new != view["share_foes"]:
            self._send({"type": "share", "on": bool(event.new)})

    def _foe_odds(self, event) -> None:
        view = self._view()
        if view is not None and event.new != view.get("foe_odds"):
            self._send({"type": "foe_odds", "show": event.new})

    def declare(self) -> None:
        """Declare the bracket and Ki bumps chosen, for the combatant chosen."""
        self._send(
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

    def show(self, v: dict) -> None:
        """Show the controls the phase of the view ``v`` takes; declaring: the undeclared first."""
        cs = v["combatants"]
        by_id = {c["id"]: c for c in cs}
        phase = v["phase"]
        self.start_button.visible = self.initiative_faces.visible = phase == "setup"
        self.reveal_button.visible = phase == "declare"
        update(self.undo_button, disabled=not v["can_undo"])
        update(self.redo_button, disabled=not v["can_redo"])
        update(self.share_toggle, value=v["share_foes"])
        update(self.foe_odds, value=v.get("foe_odds", FOE_ODDS_DEFAULT))
        # No rest while a fight or a chase goes on (rules/000 line 295; issue 32 item 8): the
        # GM ends the Scene first, which ends the fight (a chase is ended first).
        fighting = phase in ("declare", "resolve", "chase")
        update(self.short_rest, disabled=fighting)
        update(self.full_night, disabled=fighting)
        update(self.end_scene, disabled=phase == "chase")

        # Declaring: everyone who can act, the undeclared first.
        self.declare_row.visible = phase == "declare"
        if phase == "declare" and self._bumps_round != v["round"]:
            self._bumps_round = v["round"]  # each round's bumps start at 0 (issue 31)
            update(self.declare_bumps, value=0)
        if phase == "declare":
            able = [c for c in cs if c["can_act"]]
            able.sort(key=lambda c: c["declared"])
            options = render.unique_labels(able, lambda c: " (declared)" if c["declared"] else "")
            value = self.declare_who.value if self.declare_who.value in options.values() else None
            if value is None or by_id[value]["declared"]:
                value = able[0]["id"] if able else None
            update(self.declare_who, options=options, value=value)
