"""The character sheet's inputs: every value a player writes on a printed sheet, and the ruleset.

Who the character is, the Elements and sub-stats, the lists (Skills, weapons, Gifts, armor,
Descriptors, Flaws: ``rows_editor.RowsEditor``), what changes in play (Ki and Fate spent,
losses, conditions) and the character's ruleset (its system and switches). Each widget is
linked to the character's parameter (``from_param``), so the model's own bounds and docs
validate and explain it. Rule: RULES.md (rules/000, 002, 004 through ``models.Character``).
Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.engine import ELEMENTS
from tb_playground.engine.character_stats import SET_CONDITIONS
from tb_playground.formatting import escape
from tb_playground.models import (
    ArmorItem,
    Character,
    Descriptor,
    Flaw,
    Gift,
    Ruleset,
    Skill,
    Weapon,
)
from tb_playground.models.ruleset import SWITCHES
from tb_playground.models.switches import SWITCH_LABELS

from .kit import READABLE_BUTTONS, SHEET_CSS
from .rows_editor import RowsEditor
from .sheet_layout import STRETCH
from .sheet_render import plain

#: The sheet's labels for the conditions a player or GM puts on a character.
CONDITION_LABELS = {("Squeezed (tight space)" if c == "Squeezed" else c): c for c in SET_CONDITIONS}


def switch_help_html() -> str:
    """Where each Ruleset switch comes from: its label and the reading it switches to."""
    items = "".join(
        f"<li><b>{escape(SWITCH_LABELS[name])}</b>: {escape(Ruleset.param[name].doc)}</li>"
        for name in SWITCHES
    )
    return (
        '<details class="sheet-note"><summary>Where each switch comes from</summary>'
        f"<p>Off, every switch plays the main chapter's reading (rules/000 and 004).</p>"
        f"<ul>{items}</ul></details>"
    )


def ruleset_summary(r: Ruleset) -> str:
    """The ruleset in a few words: its system and how many switches are on."""
    on = len(r.variants_on)
    system = plain("system", r.system)
    switches = "no switches on" if on == 0 else f"{on} switch{'es' if on > 1 else ''} on"
    return f"{system}, {switches}"


class SheetInputs:
    """The inputs of one sheet, linked to its character's parameters.

    Parameters
    ----------
    character : Character
        The sheet's character.
    on_ruleset : callable
        Watches every parameter of the character's ruleset (rebound to a new ruleset).
    rebound : callable
        ``rebound()``: the ruleset's widgets were made again.
    """

    def __init__(
        self, character: Character, on_ruleset: Callable[..., None], rebound: Callable[[], None]
    ):
        self._character = character
        self._on_ruleset = on_ruleset
        self._rebound = rebound
        self._build_identity(character)
        self._build_stats(character)
        self._build_rows(character)
        self._build_play(character)
        self.ruleset_box = pn.Column(sizing_mode="stretch_width")
        self._switch_help = pn.pane.HTML(
            switch_help_html(), css_classes=["switch-help"], stylesheets=[SHEET_CSS], **STRETCH
        )
        self._ruleset_watcher = None
        self.bind_ruleset()

    def _build_identity(self, c: Character) -> None:
        text = pn.widgets.TextInput.from_param
        self.identity = [
            text(c.param.name, label="Name", css_classes=["sheet-name"]),
            text(c.param.player, label="Player"),
            text(c.param.concept, label="Concept"),
            pn.widgets.TextAreaInput.from_param(c.param.notes, label="Notes", height=70),
        ]

    def _build_stats(self, c: Character) -> None:
        def spinner(name: str) -> pn.widgets.IntInput:
            return pn.widgets.IntInput.from_param(
                c.param[name.lower()],
                label=name,
                width=88,
                css_classes=[f"stat-{name.lower()}"],
            )

        self.elements = [spinner(name) for name in ELEMENTS]
        self.sub_stats = [
            spinner(name)
            for name in (
                "Soak", "Health", "Ferocity", "Potence", "Initiative",
                "Stamina", "Presence", "Psyche", "Klotho", "Atropos",
            )
        ]  # fmt: skip

    def _build_rows(self, c: Character) -> None:
        self.skills = RowsEditor(
            c, "skills", Skill, {"name": "Skill", "element": "Element", "tier": "Tier"}
        )
        self.weapons = RowsEditor(
            c,
            "weapons",
            Weapon,
            {"name": "Weapon", "dice": "Dice", "normal_range": "Range m", "long_range": "Long m"},
        )
        self.gifts = RowsEditor(
            c,
            "gifts",
            Gift,
            {
                "name": "Gift",
                "level": "Level",
                "dice": "Dice",
                "kind": "Kind",
                "ki_cost": "Ki",
                "gift_check": "Check",
            },
        )
        self.armor = RowsEditor(
            c,
            "armor",
            ArmorItem,
            {
                "name": "Armor",
                "hardness": "Hardness",
                "levels": "Levels",
                "zone": "Zone",
                "worn": "Worn",
            },
        )
        self.descriptors = RowsEditor(
            c,
            "descriptors",
            Descriptor,
            {"name": "Descriptor", "sub_stat": "Sub-stat", "element": "Argues"},
        )
        self.flaws = RowsEditor(c, "flaws", Flaw, {"name": "Flaw", "notes": "Notes"})

    def _build_play(self, c: Character) -> None:
        spin = pn.widgets.IntInput.from_param
        self.play = [
            spin(c.param[name], label=label, width=125, css_classes=[f"play-{name}"])
            for name, label in (
                ("ki_spent", "Ki spent"),
                ("ki_bonus", "Ki from XP"),
                ("fate_tokens", "Fate Tokens"),
                ("fate_spent_this_scene", "Fate spends"),
                ("health_lost", "Health lost"),
                ("poise_lost", "Poise lost"),
                ("sanity_lost", "Sanity lost"),
                ("exhausted", "Exhausted"),
            )
        ]
        self.flustered = pn.widgets.Checkbox.from_param(
            c.param.flustered_this_scene,
            label="Flustered this Scene (Poise was at 0)",
            css_classes=["play-flustered"],
        )
        self.end_scene = pn.widgets.Button(
            label="End the Scene", color="default", css_classes=["end-scene"]
        )
        self.end_scene.on_click(lambda event: self._character.end_scene())
        self.conditions = pn.widgets.CheckButtonGroup.from_param(
            c.param.conditions,
            options=CONDITION_LABELS,
            label="Conditions",
            color="warning",
            variant="outline",
            stylesheets=[READABLE_BUTTONS],
            orientation="horizontal",
            sizing_mode="stretch_width",
        )

    def bind_ruleset(self, *events) -> None:
        """Widgets for the character's ruleset; rebound if the character gets another one."""
        for event in events:
            if self._ruleset_watcher is not None:
                event.old.param.unwatch(self._ruleset_watcher)
        r = self._character.ruleset
        self._ruleset_watcher = r.param.watch(self._on_ruleset, list(r.param))
        system = pn.widgets.RadioButtonGroup.from_param(
            r.param.system,
            options={plain("system", v): v for v in r.param.system.objects},
            color="success",
            variant="outline",
        )
        switches = [
            pn.widgets.Checkbox.from_param(r.param[name], label=SWITCH_LABELS[name])
            for name in SWITCHES
        ]
        self.ruleset_box.objects = [system, *switches, self._switch_help]
        self._rebound()

    def dispose(self) -> None:
        """Unwatch the character's ruleset and the rows."""
        if self._ruleset_watcher is not None:
            self._character.ruleset.param.unwatch(self._ruleset_watcher)
            self._ruleset_watcher = None
        for editor in (
            self.skills,
            self.weapons,
            self.gifts,
            self.armor,
            self.descriptors,
            self.flaws,
        ):
            editor.dispose()
