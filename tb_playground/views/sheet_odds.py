"""The character sheet's odds: the derived values, the Skill odds and the attacks on a creature.

The panes of the "Derived", "Skills" and "Attacks against a creature" cards, the attack
controls (the creature, the Element, Ki boosts, Advantage, the creature's conditions) and the
CSV downloads. The HTML and CSV are made in ``sheet_render``; the numbers in the engine,
through ``models.Character``. Rule: RULES.md (rules/000, 001, 002). Notes:
docs/notes/0012-sheet.md.
"""

from __future__ import annotations

import panel as pn
import param

from .kit import READABLE_BUTTONS, csv_button
from .sheet_layout import sheet_pane
from .sheet_render import (
    attack_odds_csv,
    attack_table_html,
    creature_html,
    defenses_html,
    fate_html,
    ki_html,
    movement_html,
    plain,
    skill_odds_csv,
    skill_odds_html,
    summary_html,
    versus_card_csv,
    vitals_html,
)

#: Target conditions the attack table offers against a creature (rules/001 "Getting Low",
#: "Terrain and Footing"): the ones that change the odds of an attack against it.
TARGET_CONDITIONS = {
    "Prone": "Prone",
    "Belly Down": "Belly Down",
    "Squeezed (tight space)": "Squeezed",
}

#: The sheet's parameters that set the attacks (``trained_only`` sets the Skill odds).
ATTACK_SETTINGS = ["target", "approach", "boosts", "advantage", "trained_only", "target_conditions"]


class SheetOdds:
    """The odds panes and attack controls of one sheet.

    Parameters
    ----------
    sheet : param.Parameterized
        The sheet: its ``character``, its ``creatures``, the attack settings
        (``ATTACK_SETTINGS``, which the controls set and these panes follow) and its
        ``attack_options()``.
    """

    def __init__(self, sheet: param.Parameterized):
        self._sheet = sheet
        self._cache: dict[tuple, list] = {}
        self.summary = sheet_pane("sheet-answer", margin=(0, 10))
        self.defenses = sheet_pane("sheet-defenses")
        self.vitals = sheet_pane("sheet-vitals")
        self.ki = sheet_pane("sheet-ki")
        self.movement = sheet_pane("sheet-movement")
        self.fate = sheet_pane("sheet-fate")
        self.skill_odds = sheet_pane("skill-odds-pane")
        self._build_attacks()
        self.refresh_derived()
        self.refresh_attacks(creature=True)
        sheet.param.watch(self._on_settings, ATTACK_SETTINGS)

    def _build_attacks(self) -> None:
        sheet = self._sheet
        names = [k.name for k in sheet.creatures]
        self.target = pn.widgets.Select(
            label="Against",
            options={
                k.name if names.count(k.name) == 1 else f"{k.name} ({i + 1})": k
                for i, k in enumerate(sheet.creatures)
            },
            value=sheet.target,
            width=240,
            css_classes=["attack-target"],
        )
        self.target.param.watch(lambda event: setattr(sheet, "target", event.new), ["value"])
        self.approach = pn.widgets.Select.from_param(
            sheet.param.approach,
            label="Element for weapons and Gifts",
            options={plain("approach", a): a for a in sheet.param.approach.objects},
            width=200,
        )
        self.boosts = pn.widgets.IntSlider.from_param(sheet.param.boosts, label="Ki boosts")
        self.advantage = pn.widgets.RadioButtonGroup.from_param(
            sheet.param.advantage,
            options={"Disadvantage": -1, "Normal": 0, "Advantage": 1},
            color="success",
            variant="outline",
        )
        self.target_conditions = pn.widgets.CheckButtonGroup.from_param(
            sheet.param.target_conditions,
            options=TARGET_CONDITIONS,
            label="The creature is",
            color="warning",
            variant="outline",
            stylesheets=[READABLE_BUTTONS],
            css_classes=["attack-target-conditions"],
        )
        self.attacks = sheet_pane("sheet-attacks")
        self.creature = sheet_pane("sheet-creature")
        self.csv_attacks = csv_button(
            "Download attacks (CSV)",
            "attacks.csv",
            lambda: attack_odds_csv(sheet.character, sheet.attack_options()),
            "csv-attacks",
        )
        self.csv_card = csv_button(
            "Download the card odds (CSV)",
            "card-odds.csv",
            lambda: versus_card_csv(sheet.character, sheet.target),
            "csv-card",
        )
        self.csv_skills = csv_button(
            "Download Skill odds (CSV)",
            "skill-odds.csv",
            lambda: skill_odds_csv(sheet.character, sheet.trained_only),
            "csv-skills",
        )

    def forget(self) -> None:
        """Forget the attack tables kept per setting (the character changed)."""
        self._cache.clear()

    def _on_settings(self, *events) -> None:
        names = {e.name for e in events}
        if "trained_only" in names:
            sheet = self._sheet
            self.skill_odds.object = skill_odds_html(sheet.character, sheet.trained_only)
        if names - {"trained_only"}:
            self.refresh_attacks(creature="target" in names)

    def refresh_derived(self) -> None:
        """Redraw the derived values and the Skill odds."""
        c = self._sheet.character
        with pn.io.hold():
            self.summary.object = summary_html(c)
            self.defenses.object = defenses_html(c)
            self.vitals.object = vitals_html(c)
            self.ki.object = ki_html(c)
            self.movement.object = movement_html(c)
            self.fate.object = fate_html(c)
            self.skill_odds.object = skill_odds_html(c, self._sheet.trained_only)

    def refresh_attacks(self, creature: bool = False) -> None:
        """Redraw the attack table (and the creature's card when ``creature``).

        A move of the Ki-boosts slider or another attack control redraws only the table, from
        ``attack_options`` kept per control setting until the character changes, so moving back
        to a setting already seen costs no recomputation.
        """
        sheet = self._sheet
        c = sheet.character
        key = (
            id(sheet.target),
            sheet.boosts,
            sheet.approach,
            sheet.advantage,
            tuple(sheet.target_conditions),
        )
        html = self._cache.get(key)
        if html is None:
            html = self._cache[key] = attack_table_html(c, sheet.attack_options())
        with pn.io.hold():
            if creature:
                self.creature.object = creature_html(c, sheet.target)
            self.attacks.object = html
