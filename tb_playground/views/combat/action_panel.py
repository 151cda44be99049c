"""The action panel both combat pages show on a turn: every action of the round (issue 20).

The player's own seat on /table, whoever is up on /gm. The actions are laid out by the bracket
as the texts name them (rules/000 "Action Brackets": Slow, one empowered action; Normal, move
and act; Fast, one), each button with its odds where it changes an attack's ("Aim: hit 64% ->
79%"); the chosen action's cost, its fields, one primary button; the actions left this turn as
chips. What is offered, its cost, odds and refusals all come from ``table/menu.py`` (the
table's own checks and the engine's exact odds): nothing is computed here. Widgets are made
once per session (a field the first time an action needs it) and updated, never rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.table.menu import GROUPS, approach_ruling

from ..kit import ACTION_PANEL_CSS, WRAP_BUTTONS, LiveHTML, TextMultiChoice, button, row, update
from . import combat_render as render
from .combat_session import parse_faces

#: The action chosen when the panel opens (or when the chosen one is gone).
DEFAULT_ACTION = "attack"

#: Fields the page's older rows were found by (tests and habits): ``{prefix}-target`` ...
_NAMED = {"target": "target", "attack": "attack", "metres": "metres"}


def _pane(css: str) -> LiveHTML:
    return LiveHTML(
        "", css_classes=[css], stylesheets=[ACTION_PANEL_CSS], sizing_mode="stretch_width"
    )


def _refusal(entry: dict) -> str:
    """The table's refusal of ``entry`` in plain words (``combat_render.refusal_words``)."""
    error = PermissionError if entry["refusal"] == "permission" else ValueError
    return render.refusal_words(error(entry["reason"]))


def button_label(entry: dict) -> str:
    """An action's button: its name, its odds or "(free)", a mark when it is not allowed now."""
    label = entry["label"]
    if entry["odds"] and entry["allowed"]:
        label += f" · {entry['odds']}"
    elif entry["cost"].startswith("free") and entry["allowed"]:
        label += " (free)"
    if not entry["allowed"]:
        label += " (not now)"
    return label


def detail_html(entry: dict | None) -> str:
    """The chosen action in words: its cost and odds, or why the table refuses it now."""
    if entry is None:
        return ""
    name = render.escape(entry["label"])
    if not entry["allowed"]:
        return (
            f'<div class="ap-detail"><b>{name}</b>: '
            f'<span class="err">{render.escape(_refusal(entry))}</span></div>'
        )
    odds = f' <span class="odds">{render.escape(entry["odds"])}</span>' if entry["odds"] else ""
    return (
        f'<div class="ap-detail"><b>{name}</b> costs '
        f'<span class="cost">{render.escape(entry["cost"])}</span>.{odds}</div>'
    )


def head_html(m: dict) -> str:
    """Who acts (or the menu's own heading), its choices in words and the "actions left" chips."""
    chips = "".join(
        f'<span class="chip{" left" if i == 0 else ""}">{render.escape(c)}</span>'
        for i, c in enumerate(m["chips"])
    )
    words = render.escape(m["words"])
    head = m.get("head") or f"{m['name']}'s turn"
    return (
        f'<div class="ap-head">{render.escape(head)}</div>'
        f'<div class="ap-words">{words}</div><div class="chips">{chips}</div>'
    )


class ActionPanel:
    """The panel of a turn: the bracket's actions, the chosen one's fields, one primary button.

    Parameters
    ----------
    prefix : str
        Starts every CSS class ("gm" or "tp": ``tp-go``, ``tp-target``, ``tp-end-turn``...).
    end_label : str
        The end-of-turn button's words.
    send : callable
        ``send(command, then=None)``: the page sends a command and shows a refusal.
    menu_of : callable
        ``menu_of(choices) -> dict``: ``table.menu.menu`` for this page's role and actor (or
        ``table.gm_tools.gm_menu``, the GM's group rolls and chase controls).
    groups : tuple, optional
        The menu's groups, (key, heading) in order (default: ``table.menu.GROUPS``).

    A field of kind "faces" is a box for the dice thrown by hand ("3 7"): read as the attack's
    dice box reads it (``combat_session.parse_faces``) and sent in the command's field of that
    name; blank, the table rolls. Fields marked "clear" (the dice, "sight is broken now") are
    emptied once their command is taken.
    """

    def __init__(
        self,
        prefix: str,
        end_label: str,
        send: Callable[[dict], bool],
        menu_of: Callable[[dict], dict],
        groups: tuple = GROUPS,
    ):
        self.prefix = prefix
        self._send = send
        self._menu_of = menu_of
        self._busy = False
        self._actor: str | None = None
        self.menu: dict | None = None
        self.chosen: str | None = DEFAULT_ACTION
        #: An action was just taken: a choice the table now refuses moves to one it allows
        #: (issue 31: no red "holds 1 action" after a successful Slow action).
        self._taken = False
        self.head = _pane(f"{prefix}-ap-head")
        self.headings: dict[str, LiveHTML] = {}
        self.groups: dict[str, pn.widgets.RadioButtonGroup] = {}
        boxes = []
        for key, heading in groups:
            self.headings[key] = _pane(f"{prefix}-ap-group-{key}")
            self.headings[key].object = f'<div class="ap-group">{render.escape(heading)}</div>'
            group = pn.widgets.RadioButtonGroup(
                options={"-": "-"}, css_classes=[f"{prefix}-actions", f"{prefix}-actions-{key}"],
                stylesheets=[WRAP_BUTTONS, ACTION_PANEL_CSS], sizing_mode="stretch_width",
                color="default",
            )  # fmt: skip
            group.value = None
            group.param.watch(self._picked, "value")
            self.groups[key] = group
            boxes.append(pn.Column(self.headings[key], group, sizing_mode="stretch_width"))
        self.detail = _pane(f"{prefix}-ap-detail")
        self.fields: dict[str, pn.widgets.Widget] = {}
        self.field_row = row()
        self.go = button("Attack", f"{prefix}-go", "primary")
        self.go.css_classes = [f"{prefix}-go", f"{prefix}-attack-go"]
        self.go.width = 200
        self.go.on_click(lambda _e: self._go())
        self.end_turn = button(end_label, f"{prefix}-end-turn", "warning")
        self.end_turn.on_click(lambda _e: self._send({"type": "end_turn"}))
        self.row = pn.Column(
            self.head, *boxes, self.detail, self.field_row, row(self.go, self.end_turn),
            sizing_mode="stretch_width", css_classes=[f"{prefix}-action-panel"],
        )  # fmt: skip
        self._boxes = dict(zip((k for k, _ in groups), boxes, strict=True))

    # -- the fields ----------------------------------------------------------------------------

    def _field(self, spec: dict) -> pn.widgets.Widget:
        """The widget of field ``spec["name"]`` (made the first time it is needed)."""
        name = spec["name"]
        widget = self.fields.get(name)
        if widget is not None:
            return widget
        css = [f"{self.prefix}-{_NAMED[name]}" if name in _NAMED else f"{self.prefix}-f-{name}"]
        kind = spec["kind"]
        if kind == "select":
            widget = pn.widgets.Select(label=spec["label"], css_classes=css, width=200)
        elif kind == "int":
            widget = pn.widgets.IntInput(
                label=spec["label"], start=spec.get("start", 0), end=spec.get("end", 10_000),
                value=spec["value"], css_classes=css,
                width=min(max(120, 7 * len(spec["label"])), 240),
            )  # fmt: skip
        elif kind == "bool":
            widget = pn.widgets.Checkbox(label=spec["label"], css_classes=css, width=120)
        elif kind == "text":
            widget = pn.widgets.TextInput(label=spec["label"], css_classes=css, width=220)
        elif kind == "faces":
            widget = pn.widgets.TextInput(
                label=spec["label"], placeholder="e.g. 4 9", css_classes=css, width=220
            )
        elif kind == "multi":
            widget = TextMultiChoice(label=spec["label"], css_classes=css, width=280)
        else:  # "info": words only
            widget = pn.pane.HTML("", css_classes=css, stylesheets=[ACTION_PANEL_CSS], width=220)
        if kind != "info":
            widget.param.watch(lambda _e: self._changed(), "value")
        self.fields[name] = widget
        self.field_row.append(widget)
        return widget

    def _show_field(self, spec: dict) -> None:
        widget = self._field(spec)
        kind = spec["kind"]
        if kind in ("select", "multi"):
            options = {label: value for label, value in spec["options"]}
            update(widget, options=options, value=spec["value"], label=spec["label"])
        elif kind == "faces":
            update(widget, label=spec["label"])
        elif kind == "info":
            text = f"<div class='ap-detail'>{render.escape(spec['label'])}: "
            update(widget, object=text + f"{render.escape(spec['value'])}</div>")
        elif kind == "bool":
            update(widget, value=bool(spec["value"]))
        else:
            update(widget, value=spec["value"])
        update(widget, visible=True)

    def choices(self) -> dict:
        """What the fields say now (every field ever shown keeps its last value)."""
        out = {}
        for name, widget in self.fields.items():
            if isinstance(widget, pn.widgets.Widget):
                value = widget.value
                out[name] = value if value != "" else None
        return out

    # -- showing -------------------------------------------------------------------------------

    def show(self, open_: bool) -> None:
        """Show the panel and redraw it from a fresh menu (hide it when ``open_`` is false).

        It hides itself too when the menu says the actor has nothing to do now.
        """
        update(self.row, visible=bool(open_))
        if open_:
            self.refresh()

    def refresh(self) -> None:
        """Ask the menu again with the fields' values and update every widget."""
        if self._busy:
            return
        self._busy = True
        try:
            m = self._menu_of(self.choices())
            if m["actor"] != self._actor:  # someone else's turn: start from their defaults
                self._actor = m["actor"]
                self.chosen = DEFAULT_ACTION
                self._taken = False
                m = self._menu_of({})
            self._draw(m)
        finally:
            self._busy = False

    def _draw(self, m: dict) -> None:
        self.menu = m
        update(self.head, object=head_html(m) if m["open"] else "")
        shown = [a for a in m["actions"] if a["group"] is not None]
        keys = {a["key"] for a in shown}
        if self.chosen not in keys:
            first = next((a["key"] for a in shown if a["allowed"]), None)
            self.chosen = DEFAULT_ACTION if DEFAULT_ACTION in keys else first
        allowed = [a["key"] for a in shown if a["allowed"]]
        if self._taken and self.chosen not in allowed:
            self.chosen = allowed[0] if allowed else None  # nothing left: no choice, no error
        for key, group in self.groups.items():
            mine = [a for a in shown if a["group"] == key]
            update(self._boxes[key], visible=bool(mine))
            if not mine:
                continue
            options = {button_label(a): a["key"] for a in mine}
            value = self.chosen if self.chosen in options.values() else None
            if group.options != options:
                # The browser keeps its pressed button by index: with new labels the index
                # must be sent again, or a button moved under it looks pressed and a click on
                # it sends nothing.
                update(group, value=None)
                update(group, options=options)
            update(group, value=value)
        entry = self.entry()
        update(self.detail, object=detail_html(entry))
        wanted = {f["name"] for f in entry["fields"]} if entry else set()
        for name, widget in self.fields.items():
            if name not in wanted:
                update(widget, visible=False)
        for spec in entry["fields"] if entry else []:
            self._show_field(spec)
        update(
            self.go,
            label=entry["label"] if entry else "Act",
            disabled=entry is None or not entry["allowed"],
        )
        update(self.end_turn, visible=m.get("end_turn", m["phase"] != "chase"))
        update(self.row, visible=m["open"])

    def entry(self) -> dict | None:
        """The chosen action's entry in the menu (or None)."""
        if self.menu is None:
            return None
        return next((a for a in self.menu["actions"] if a["key"] == self.chosen), None)

    # -- the person's moves --------------------------------------------------------------------

    def _picked(self, event) -> None:
        if self._busy or event.new is None:
            return
        self.chosen = event.new
        self._taken = False
        self.refresh()

    def _changed(self) -> None:
        self.refresh()

    def _go(self) -> None:
        """Send the chosen action's command as the menu made it, with any dice typed."""
        self.refresh()
        entry = self.entry()
        if entry is None:
            return
        command = dict(entry["command"])
        for spec in entry["fields"]:
            if spec["kind"] != "faces":
                continue
            try:
                faces = parse_faces(self.fields[spec["name"]].value)
            except ValueError as err:
                words = (
                    f'<div class="ap-detail"><span class="err">{render.escape(err)}</span></div>'
                )
                update(self.detail, object=words)
                return
            if faces is not None:
                command[spec["name"]] = faces

        def clear() -> None:  # once the table took it (the page sends off the event loop)
            for spec in entry["fields"]:
                if spec.get("clear"):
                    widget = self.fields[spec["name"]]
                    update(widget, value=False if spec["kind"] == "bool" else "")
            self._taken = True
            self.refresh()

        self._send(command, then=clear)

    def select(self, key: str) -> None:
        """Choose action ``key`` (as a click on its button does)."""
        self.chosen = key
        self._taken = False
        self.refresh()


class ApproachNod:
    """The GM's nod on a player's declared approach (the table option "approach_nod").

    RULES.md, Attacks: the player names the Element, the GM confirms or changes it. A switch
    for the option and, while an attack waits for the nod, the Element to confirm and one
    button. ``state_of()`` gives the table's state; ``send(command)`` sends as the GM.
    """

    def __init__(self, send: Callable[[dict], bool], state_of: Callable[[], dict]):
        self._send = send
        self._state_of = state_of
        self.switch = pn.widgets.Checkbox(
            label="Players' approach waits for my nod", css_classes=["gm-nod-switch"], width=260
        )
        self.switch.param.watch(self._switched, "value")
        self.ask = _pane("gm-nod-ask")
        self.approach = pn.widgets.Select(
            label="Approach", css_classes=["gm-nod-approach"], width=200
        )
        self.confirm = button("Confirm the approach", "gm-nod", "primary")
        self.confirm.width = 200
        self.confirm.on_click(lambda _e: self._confirm())
        self.waiting = row(self.ask, self.approach, self.confirm)
        self.row = pn.Column(self.switch, self.waiting, sizing_mode="stretch_width")
        self._busy = False

    def show(self, state: dict) -> None:
        """Show the switch as the table has it, and the nod when an attack waits for it."""
        self._busy = True
        try:
            update(self.switch, value=bool(state.get("options", {}).get("approach_nod")))
        finally:
            self._busy = False
        nod = approach_ruling(state)
        update(self.waiting, visible=nod is not None)
        if nod is None:
            return
        words = (
            f"{nod['attacker']} attacks {nod['target']} with {nod['attack']}, rolling "
            f"{nod['element']}: confirm the approach or change it."
        )
        update(self.ask, object=f'<div class="ap-detail">{render.escape(words)}</div>')
        options = {label: e for label, e in nod["options"]}
        update(self.approach, options=options, value=nod["element"])

    def _switched(self, event) -> None:
        if not self._busy:
            self._send({"type": "table_option", "option": "approach_nod", "on": bool(event.new)})

    def _confirm(self) -> None:
        if approach_ruling(self._state_of()) is not None:
            self._send({"type": "attack_ruling", "approach": self.approach.value})
