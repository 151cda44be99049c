"""Damage against walls (RULES.md, Attacks; Vitals).

An ``Attack`` model drives everything: the to-hit odds, the distribution of levels that get
over the wall on an ordinary and a critical hit, a heatmap over wall x dice, what each Ki
boost is worth, and how many rounds the target lasts. rules/000's critical-hit example
(Ronan: 7 dice, Klotho 4, Soak 7) is reproduced by the same engine.
"""

from __future__ import annotations

import holoviews as hv
import panel as pn
import param

from tb_playground.engine import (
    CONDITIONS,
    armor_covers,
    armor_distribution,
    critical_split,
    damage_distribution,
    expected_levels,
    p_die_over,
    roll_levels,
)
from tb_playground.formatting import dice_text, escape, percent
from tb_playground.models import Attack
from tb_playground.models.attack import FIGHT_MAX_ROUNDS
from tb_playground.models.names import display_name, options_for
from tb_playground.models.ruleset import SWITCH_SENTENCES

from .damage_plots import (
    armor_plot,
    grid_chart,
    grid_marker,
    grid_plot,
    ki_plot,
    levels_plot,
    rounds_plot,
)
from .kit import (
    DAMAGE_CSS,
    NARROW_BUTTONS,
    PHONE_CSS,
    STACKED_SIDEBAR_CSS,
    TABLE_CSS,
    PlainButtons,
    TextMultiChoice,
    after_load,
    csv_button,
    csv_text,
    page,
    sync_url,
)
from .ruleset_badge import RulesetBadge

#: Largest pool on the heatmap.
GRID_MAX_DICE = 12

#: rules/000 "Critical Success in Combat": Onslaught 5 and Ferocity 4 roll 7 dice; a critical
#: sends ceil(7 / 2) = 4 through; the other 3 roll + Klotho 4 against Soak 7: 2, 1 and 6.
RONAN = {"dice": 7, "klotho": 4, "soak": 7, "rolls": (2, 1, 6)}

#: What the Rules reading switches are, said once above them.
SWITCHES_HELP = (
    "Each switch plays one reading from the rules' questions and answers (rules/002) in "
    "place of the main chapter's; all are off by default."
)


def _control_label(text: str) -> pn.pane.HTML:
    """A visible label above a button group (a button group shows no name of its own)."""
    return pn.pane.HTML(
        f'<p class="dmg-label">{escape(text)}</p>',
        stylesheets=[DAMAGE_CSS],
        margin=(4, 10, 0, 10),
        sizing_mode="stretch_width",
    )


#: Plain labels for the conditions on the damage page (engine ``CONDITIONS``).
CONDITION_LABELS = {("Squeezed (tight space)" if c == "Squeezed" else c): c for c in CONDITIONS}


#: The Bracket selector's plain labels (RULES.md, Combat round).
BRACKET_LABELS = {"Fast": "fast", "Normal": "normal", "Slow": "slow"}

#: What each Bracket means for this attack, said under the buttons (RULES.md, Combat round).
BRACKET_HELP = "Fast: one attack a round. Normal: two attacks. Slow: one aimed attack."


def _stat(label: str, value: str, css: str) -> str:
    return (
        f'<div class="dmg-stat {css}"><span class="v">{escape(value)}</span>'
        f'<span class="l">{escape(label)}</span></div>'
    )


#: Under "No attack": what the charts below still show.
REFUSED_CHARTS = (
    "The charts below show this attack as it would go if it could be made; as things stand "
    "it deals nothing."
)


def _stats_html(attack: Attack) -> str:
    to_hit, fight = attack.to_hit, attack.fight
    rules = attack.rules
    why = attack.modifiers.describe()
    why_html = f'<p class="dmg-why">{escape(why)}</p>' if why else ""
    if not attack.allowed:
        return (
            f'<p class="dmg-refused"><b>No attack:</b> {escape(attack.modifiers.reason)}</p>'
            f'<p class="dmg-summary">{escape(REFUSED_CHARTS)}</p>'
        )
    cells = [
        _stat(f"to hit (TN {to_hit.target})", percent(to_hit.p_hit), "dmg-hit"),
        _stat("critical hit", percent(to_hit.p_critical), "dmg-crit"),
        _stat("damage dice", str(attack.dice), "dmg-dice"),
        _stat(
            f"expected {display_name('vital', rules.vital)} levels per attack (a miss deals 0)",
            f"{attack.expected_per_attack:.2f}",
            "dmg-expected",
        ),
        _stat("mean rounds to 0", _rounds(fight.mean_rounds_to_down), "dmg-down"),
        _stat("mean rounds to dead / bottom", _rounds(fight.mean_rounds_to_dead), "dmg-dead"),
    ]
    summary = (
        f"Defense {attack.defense} (10 - {rules.defense_stat}) &middot; wall: "
        f"{escape(rules.wall_stat)} {attack.target_wall} &middot; boost adds "
        f"{escape(rules.boost_stat)} {attack.bonus} ({escape(attack.timing)} the roll) &middot; "
        f"net Advantage {attack.net_advantage:+d}"
    )
    return (
        f'<div class="dmg-stats">{"".join(cells)}</div>{why_html}'
        f'<p class="dmg-summary">{summary}</p>'
    )


def answer_html(attack: Attack) -> str:
    """The page's answer in one line, above the controls on a phone (issue 34).

    The same numbers as the headline (to hit, levels per attack, rounds until the target is
    down), shown only while the controls sit above the page (a narrow screen): it follows
    every change of them.
    """
    if not attack.allowed:
        text = f"No attack: {attack.modifiers.reason}"
    else:
        vital = display_name("vital", attack.rules.vital)
        text = (
            f"{percent(attack.to_hit.p_hit)} to hit, {attack.expected_per_attack:.2f} "
            f"{vital} levels per attack on average, down after "
            f"{_rounds(attack.fight.mean_rounds_to_down)} rounds on average."
        )
    return (
        f'<p class="dmg-answer"><b>{escape(text)}</b> '
        "The charts and the details are under the controls.</p>"
    )


def _armor_html(attack: Attack) -> str:
    """What one ordinary hit does against the target's armor (rules/002, Armor)."""
    armor = attack.armor()
    zone = "head" if attack.slow_action == "called_shot" else "body"
    if armor is None:
        why = (
            "armor only stands in front of Soak"
            if attack.kind != "physical"
            else "the target wears none, or it is broken"
        )
        return f"<p>No armor in the way: {escape(why)}.</p>"
    if not armor_covers(armor, attack.slow_action == "called_shot"):
        return (
            f"<p>This attack goes to the {zone}; the {escape(armor.zone)} armor does not cover "
            "it, so the dice go straight against the wall.</p>"
        )
    zone_name = display_name("zone", armor.zone)
    return (
        f"<p>The {escape(zone_name.lower())} armor (Hardness {armor.hardness}, {armor.levels} "
        "levels) takes the hit: it loses a level <b class='armor-lost'>"
        f"{escape(percent(float(attack.against_armor[1].sum())))}</b> "
        "of an ordinary hit's time (never more than one an attack) and the wearer takes "
        "nothing while it holds (rules/002, What Does Armor Do?). The chart of levels shows "
        "the armor's losses; the expected levels and the rounds chart count the attacks "
        "once the armor is broken.</p>"
    )


def _rounds(mean: float) -> str:
    if mean != mean:  # nan: not settled within the rounds the model follows
        return f"> {FIGHT_MAX_ROUNDS}"
    if mean == float("inf"):
        return "never"
    return f"{mean:.1f}"


def ronan_html() -> str:
    """rules/000's critical-hit example, computed by the engine."""
    dice, klotho, soak, rolls = RONAN["dice"], RONAN["klotho"], RONAN["soak"], RONAN["rolls"]
    automatic, rolled = critical_split(dice)
    dist = damage_distribution(dice, soak, critical=True, klotho=klotho)
    levels, _ki = roll_levels(rolls, soak, klotho=klotho, automatic=automatic)
    heads = "".join(f"<th>{k}</th>" for k in range(automatic, dice + 1))
    cells = "".join(f"<td>{escape(percent(p))}</td>" for p in dist[automatic:])
    return (
        f"<p>Ronan critically hits with Onslaught: {dice_text(dice)}, Klotho {klotho}, "
        f"against Soak {soak}. {dice_text(automatic)} connect outright; the other {rolled} "
        f"roll with +{klotho}, "
        f"each getting over the wall {escape(percent(p_die_over(soak, klotho)))} of the time. "
        f"The book's rolls {', '.join(map(str, rolls))} deal "
        f"<b class='ronan-levels'>{levels} levels</b> ({automatic} outright + "
        f"{levels - automatic} rolled).</p>"
        f'<table class="tb ronan"><tr><th>Levels</th>{heads}</tr><tr><td>Chance</td>{cells}'
        f"</tr></table><p>Expected: <b>{expected_levels(dist):.2f}</b> levels. A critical hit "
        "alone still stops the target at 0 (the Rules page, Vitals).</p>"
    )


#: The attack's settings kept in the page URL, by their own names; ``kind`` first, since it
#: narrows the approaches and dice sources the later ones choose from.
URL_ATTACK = (
    "kind", "approach", "element", "dice_source", "weapon_rating", "gift_dice", "skill_tier",
    "boosts", "bonus", "klotho", "attacker_ki", "bracket", "bracket_bumps", "slow_action",
    "target_prone", "partial_cover", "off_hand", "reach", "attacker_conditions",
    "attacker_exhausted", "target_defense_stat", "target_wall", "target_levels",
    "target_conditions", "target_armor_levels", "target_armor_hardness", "target_armor_zone",
    "target_ki", "target_ki_policy",
)  # fmt: skip

#: The rules/002 switches the page shows, kept in the URL too.
URL_SWITCHES = ("boosts_before_roll", "never_moira", "vitals_002")


def ronan_csv() -> str:
    """rules/000's critical-hit example as CSV: the chance of each number of levels."""
    dice, klotho, soak = RONAN["dice"], RONAN["klotho"], RONAN["soak"]
    automatic, _rolled = critical_split(dice)
    dist = damage_distribution(dice, soak, critical=True, klotho=klotho)
    return csv_text(["Levels", "Chance"], [(k, float(dist[k])) for k in range(automatic, dice + 1)])


def levels_csv(attack: Attack) -> str:
    """The "Levels dealt" numbers as CSV: P(levels == k) on a hit, a critical hit, an attack.

    Levels over the wall, whatever armor is worn (the chart shows the armor's loss instead
    while armor covers the attack; the headline's expected levels are these).
    """
    columns = (attack.on_hit, attack.on_critical, attack.per_attack)
    size = max(len(c) for c in columns)
    rows = [[k, *(float(c[k]) if k < len(c) else 0.0 for c in columns)] for k in range(size)]
    return csv_text(
        ["Levels", "Chance on an ordinary hit", "Chance on a critical hit", "Chance per attack"],
        rows,
    )


def grid_csv(attack: Attack, statistic: str) -> str:
    """The heatmap's numbers as CSV: one row per dice pool and wall, per hit."""
    grid = attack.grid(statistic, GRID_MAX_DICE)
    what = (
        "Expected levels per hit"
        if statistic == "expected"
        else "Chance of at least one level per hit"
    )
    return csv_text(
        ["Dice", "Wall", what],
        [
            (dice, wall, float(grid[dice - 1, wall]))
            for dice in range(1, grid.shape[0] + 1)
            for wall in range(grid.shape[1])
        ],
    )


def _same_chart(old: object, new: object) -> bool:
    """Whether a chart's input is unchanged: the same objects, or equal plain values.

    The engine's results are cached on their inputs, so equal inputs give the very same arrays.
    """
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new):
        return all(_same_chart(a, b) for a, b in zip(old, new, strict=True))
    if old is new:
        return True
    return isinstance(old, int | str) and isinstance(new, int | str) and old == new


class DamageExplorer(pn.viewable.Viewer):
    """Controls for an ``Attack`` and everything it does to a target, live.

    Parameters
    ----------
    attack : Attack
        The model to drive; a fresh one per explorer by default.
    """

    attack = param.ClassSelector(class_=Attack, doc="The attack being explored.")
    statistic = param.Selector(
        default="expected",
        objects=["expected", "any"],
        doc="Heatmap cells: expected levels, or the chance of at least one level.",
    )
    # What the charts show: each follows the attack one event-loop tick behind, and only
    # when its own numbers change (so a move redraws only the charts it moves).
    plotted_levels = param.Parameter(
        precedence=-1, doc="(on_hit, on_critical, per_attack, against_armor) charted."
    )
    plotted_fight = param.Parameter(precedence=-1, doc="The FightOdds charted.")
    plotted_ki = param.Parameter(precedence=-1, doc="The KiValue charted.")
    plotted_grid = param.Parameter(precedence=-1, doc="(heatmap numbers, statistic) charted.")
    plotted_marker = param.Parameter(precedence=-1, doc="(dice, wall) marked on the heatmap.")

    def __init__(self, **params):
        if params.get("attack") is None:
            params["attack"] = Attack()
        super().__init__(**params)
        a = self.attack
        slider = self._slider
        self._element_slider = slider(a.param.element, name=a.approach)
        self._rating_widgets = {
            "weapon": slider(a.param.weapon_rating, name="Weapon rating (dice)"),
            "gift": slider(a.param.gift_dice, name="Gift dice"),
            "skill": slider(a.param.skill_tier, name="Skill tier (Social dice 1/3/4/5/6)"),
        }
        self._radios = {
            "kind": self._radio(a.param.kind, "attack_kind"),
            "approach": self._radio(a.param.approach, "element"),
            "dice_source": self._radio(a.param.dice_source, "dice_source"),
            "bracket": self._radio(a.param.bracket, "bracket", BRACKET_LABELS),
            "slow_action": self._radio(a.param.slow_action, "slow_action"),
            "reach": self._radio(a.param.reach, "reach"),
            "target_armor_zone": self._radio(a.param.target_armor_zone, "zone"),
        }
        label = _control_label
        switch = pn.widgets.Checkbox.from_param
        self._controls = pn.Column(
            pn.pane.Markdown("### Attacker", margin=(0, 10)),
            label("Kind of attack"),
            self._radios["kind"],
            label("Approach: the Element you attack with"),
            self._radios["approach"],
            self._element_slider,
            label("Damage dice from"),
            self._radios["dice_source"],
            *self._rating_widgets.values(),
            slider(a.param.boosts, name="Ki boosts per attack"),
            slider(a.param.bonus, name="Boost bonus (Ferocity / Presence / Psyche)"),
            slider(a.param.klotho, name="Klotho"),
            slider(a.param.attacker_ki, name="Ki for the fight"),
            label("Bracket: when in the round you act"),
            self._radios["bracket"],
            pn.pane.HTML(
                f'<p class="dmg-help">{escape(BRACKET_HELP)}</p>',
                stylesheets=[DAMAGE_CSS],
                margin=(0, 10),
            ),
            slider(a.param.bracket_bumps, name="Ki a round to act earlier (bracket bump)"),
            label("Slow action (Called Shot: at the head)"),
            self._radios["slow_action"],
            pn.widgets.Checkbox.from_param(a.param.target_prone, name="Target Prone (+1)"),
            pn.widgets.Checkbox.from_param(a.param.partial_cover, name="Partial cover (-1)"),
            pn.widgets.Checkbox.from_param(a.param.off_hand, name="Off hand (-1)"),
            label("Reach"),
            self._radios["reach"],
            TextMultiChoice.from_param(
                a.param.attacker_conditions,
                name="Attacker's conditions",
                options=CONDITION_LABELS,
                description=None,
                css_classes=["attacker-conditions"],
            ),
            slider(a.param.attacker_exhausted, name="Attacker's Exhausted level"),
            pn.pane.Markdown("### Rules reading", margin=(0, 10)),
            pn.pane.HTML(
                f'<p class="dmg-help">{escape(SWITCHES_HELP)}</p>',
                stylesheets=[DAMAGE_CSS],
                margin=(0, 10),
            ),
            switch(a.ruleset.param.boosts_before_roll, name=SWITCH_SENTENCES["boosts_before_roll"]),
            switch(a.ruleset.param.never_moira, name=SWITCH_SENTENCES["never_moira"]),
            switch(a.ruleset.param.vitals_002, name=SWITCH_SENTENCES["vitals_002"]),
            pn.pane.Markdown("### Target", margin=(0, 10)),
            slider(a.param.target_defense_stat, name="Atropos / Psyche / Presence (Defense)"),
            slider(a.param.target_wall, name="Wall: Soak / Presence / Psyche"),
            slider(a.param.target_levels, name="Levels on the track"),
            TextMultiChoice.from_param(
                a.param.target_conditions,
                name="Target's conditions",
                options=CONDITION_LABELS,
                description=None,
                css_classes=["target-conditions"],
            ),
            slider(
                a.param.target_armor_levels,
                name="Armor levels (0: none)",
                css_classes=["armor-levels"],
            ),
            slider(a.param.target_armor_hardness, name="Armor Hardness"),
            label("Armor covers the"),
            self._radios["target_armor_zone"],
            slider(a.param.target_ki, name="Target's Ki"),
            pn.widgets.Select.from_param(
                a.param.target_ki_policy,
                name="Target spends Ki to prevent a level",
                options=options_for("ki_policy", a.param.target_ki_policy.objects),
                description=None,
                css_classes=["ki-policy"],
            ),
            sizing_mode="stretch_width",
            max_width=420,
            css_classes=["dmg-controls"],
        )
        self._stats = pn.pane.HTML(
            css_classes=["dmg-headline"], stylesheets=[DAMAGE_CSS], sizing_mode="stretch_width"
        )
        # The answer above the controls while they sit above the page (a phone; issue 34);
        # damage.css hides it on a wider screen.
        self._answer = pn.pane.HTML(
            css_classes=["dmg-answer-line"],
            stylesheets=[DAMAGE_CSS],
            sizing_mode="stretch_width",
            margin=(0, 10),
        )
        self._controls.insert(0, self._answer)
        self.param.update(**self._chart_inputs())
        self._levels = pn.pane.HoloViews(
            hv.DynamicMap(pn.bind(self._levels_chart, self.param.plotted_levels)),
            sizing_mode="stretch_width",
            css_classes=["dmg-levels"],
        )
        self._grid_pane = pn.pane.HoloViews(
            self._grid_chart(), sizing_mode="stretch_width", css_classes=["dmg-grid"]
        )
        self._ki = pn.pane.HoloViews(
            hv.DynamicMap(pn.bind(ki_plot, self.param.plotted_ki)),
            sizing_mode="stretch_width",
            css_classes=["dmg-ki"],
        )
        self._rounds = pn.pane.HoloViews(
            hv.DynamicMap(pn.bind(rounds_plot, self.param.plotted_fight)),
            sizing_mode="stretch_width",
            css_classes=["dmg-rounds"],
        )
        self._armor = pn.pane.HTML(
            css_classes=["dmg-armor"], stylesheets=[DAMAGE_CSS], sizing_mode="stretch_width"
        )
        self._csv = {
            "levels": csv_button(
                "Download levels dealt (CSV)", "levels.csv", lambda: levels_csv(a), "csv-levels"
            ),
            "grid": csv_button(
                "Download the heatmap (CSV)",
                "walls-and-dice.csv",
                lambda: grid_csv(a, self.statistic),
                "csv-grid",
            ),
            "ronan": csv_button("Download the example (CSV)", "ronan.csv", ronan_csv, "csv-ronan"),
        }
        # A link to the page reproduces the attack, the target and the switches.
        sync_url(a, {name: name for name in URL_ATTACK})
        sync_url(a.ruleset, {name: name for name in URL_SWITCHES})
        sync_url(self, {"statistic": "cells"})
        self._plot_pending = False
        self._refresh()
        a.param.watch(
            self._refresh, ["fight", "to_hit", "per_attack", "against_armor", "modifiers"]
        )
        a.param.watch(
            self._schedule_plots,
            ["on_hit", "on_critical", "per_attack", "against_armor", "fight", "ki_worth",
             "dice", "target_wall", "boosts", "bonus", "slow_action"],
        )  # fmt: skip
        a.ruleset.param.watch(self._schedule_plots, ["boosts_before_roll"])
        self.param.watch(self._schedule_plots, ["statistic"])
        a.param.watch(self._show_rating, ["dice_source", "approach"])
        self._show_rating()

    @staticmethod
    def _slider(parameter, **kwargs) -> pn.widgets.IntSlider:
        # Recompute on release, not on every step of a drag: a move can cost up to 0.5 s.
        return pn.widgets.IntSlider.from_param(
            parameter, throttled=True, sizing_mode="stretch_width", **kwargs
        )

    def _radio(
        self, parameter, kind: str, labels: dict[str, object] | None = None
    ) -> pn.widgets.RadioButtonGroup:
        """A button group in plain words.

        Its choices follow the model's (an attack's kind narrows the approaches and dice
        sources), still in plain words: the options and the value change together, and the
        value is always one of the options (the model moves it before narrowing them).
        """
        widget = PlainButtons.from_param(
            parameter,
            options=labels or options_for(kind, parameter.objects),
            description=None,
            color="success",
            variant="outline",
            stylesheets=[NARROW_BUTTONS],
            css_classes=[f"dmg-{parameter.name.replace('_', '-')}"],
            sizing_mode="stretch_width",
        )

        def relabel(event) -> None:
            widget.param.update(
                options=labels or options_for(kind, event.new),
                value=getattr(parameter.owner, parameter.name),
            )

        parameter.owner.param.watch(relabel, [parameter.name], what="objects")
        return widget

    def _levels_chart(self, levels: tuple) -> hv.Element:
        """Levels over the wall, or, while armor covers the attack, what the armor loses.

        rules/002 "What Does Armor Do?": while the armor holds the wearer takes nothing, so
        the chart then shows the armor's levels lost on an ordinary and a critical hit
        (``armor_distribution``) instead of levels the wearer never takes.
        """
        on_hit, on_critical, per_attack, against_armor = levels
        a = self.attack
        armor = a.armor()
        called = a.slow_action == "called_shot"
        if armor is None or not armor_covers(armor, called):
            return levels_plot(on_hit, on_critical, per_attack)
        critical = armor_distribution(
            a.dice, a.target_wall, armor, called, a.boosts, a.bonus, a.timing, True, a.klotho
        )
        return armor_plot(against_armor.sum(axis=1), critical.sum(axis=1), armor.zone)

    @staticmethod
    def _grid(grid: tuple) -> hv.Overlay:
        return grid_plot(*grid)

    def _grid_chart(self) -> hv.Overlay:
        """The heatmap with its marker, drawn afresh.

        Its colour bar's title is fixed at the first draw, so a change of statistic draws a
        new chart.
        """
        grid = hv.DynamicMap(pn.bind(self._grid, self.param.plotted_grid))
        marker = hv.DynamicMap(pn.bind(self._marker, self.param.plotted_marker))
        return grid_chart(grid, marker)

    @staticmethod
    def _marker(marker: tuple) -> hv.Points:
        return grid_marker(*marker, GRID_MAX_DICE)

    def _chart_inputs(self) -> dict:
        """What each chart shows now (the engine's results, cached on their inputs)."""
        a = self.attack
        return {
            "plotted_levels": (a.on_hit, a.on_critical, a.per_attack, a.against_armor),
            "plotted_fight": a.fight,
            "plotted_ki": a.ki_worth,
            "plotted_grid": (a.grid(self.statistic, GRID_MAX_DICE), self.statistic),
            "plotted_marker": (a.dice, a.target_wall),
        }

    def _schedule_plots(self, *events) -> None:
        """Redraw the charts on the next tick, once for all the values one move changed.

        On a server the headline's patch then reaches the browser first, and quick moves
        coalesce into one redraw. In a notebook it runs at once.
        """
        if not self._plot_pending:
            self._plot_pending = True
            pn.state.execute(self._refresh_plots, schedule=True)

    def _refresh_plots(self) -> None:
        """Update only the charts whose numbers changed, in one frozen Document update.

        ``freeze`` makes Bokeh walk the Document's models once for all the charts (it did it
        once per chart, about 0.3 s each on a loaded machine).
        """
        self._plot_pending = False
        changed = {
            name: value
            for name, value in self._chart_inputs().items()
            if not _same_chart(getattr(self, name), value)
        }
        if not changed:
            return
        new_statistic = "plotted_grid" in changed and changed["plotted_grid"][1] != (
            self.plotted_grid[1] if self.plotted_grid else None
        )
        with pn.io.hold(freeze=True):
            self.param.update(**changed)
            if new_statistic:
                self._grid_pane.object = self._grid_chart()

    def _show_rating(self, *events) -> None:
        """Show only the slider for where the dice come from; name the Element slider."""
        self._element_slider.name = self.attack.approach
        source = self.attack.dice_source
        for which, widget in self._rating_widgets.items():
            widget.visible = which == source

    def _refresh(self, *events) -> None:
        with pn.io.hold():
            self._stats.object = _stats_html(self.attack)
            self._answer.object = answer_html(self.attack)
            self._armor.object = _armor_html(self.attack)

    @property
    def controls(self) -> pn.Column:
        """The attacker and target widgets (a template's sidebar, or the left column)."""
        return self._controls

    def outputs(self) -> pn.Column:
        """Everything the attack does: odds, charts, the heatmap and the worked example."""
        toggle = pn.widgets.RadioButtonGroup.from_param(
            self.param.statistic,
            options={"Expected levels": "expected", "Chance of at least one level": "any"},
            description=None,
            css_classes=["dmg-statistic"],
            stylesheets=[NARROW_BUTTONS],
            color="primary",
            variant="outline",
        )

        def plot(pane) -> pn.Column:  # drawn once the page has loaded (a plain GET never pays)
            return after_load(pane, min_height=360, sizing_mode="stretch_width")

        return pn.Column(
            self._stats,
            self._armor,
            pn.FlexBox(
                pn.Column(
                    plot(self._levels),
                    self._csv["levels"],
                    sizing_mode="stretch_width",
                    min_width=320,
                ),  # fmt: skip
                pn.Column(plot(self._rounds), sizing_mode="stretch_width", min_width=320),
                sizing_mode="stretch_width",
            ),
            pn.FlexBox(
                pn.Column(
                    toggle,
                    plot(self._grid_pane),
                    self._csv["grid"],
                    sizing_mode="stretch_width",
                    min_width=320,
                ),
                pn.Column(plot(self._ki), sizing_mode="stretch_width", min_width=320),
                sizing_mode="stretch_width",
            ),
            pn.pane.Markdown("### rules/000's critical hit, reproduced"),
            pn.pane.HTML(
                ronan_html(),
                css_classes=["dmg-ronan"],
                stylesheets=[TABLE_CSS],
                sizing_mode="stretch_width",
            ),
            self._csv["ronan"],
            sizing_mode="stretch_width",
        )

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Row(self._controls, self.outputs(), sizing_mode="stretch_width")


def damage_page() -> pn.template.BaseTemplate:
    """The whole "Damage against walls" page, one per session (controls in the sidebar)."""
    explorer = DamageExplorer()
    return page(
        "Damage against walls",
        [RulesetBadge(owner=explorer.attack), explorer.outputs()],
        sidebar=[explorer.controls],
        current="damage",
        sidebar_width=360,
        raw_css=[PHONE_CSS, STACKED_SIDEBAR_CSS],
    )
