"""The roll-under playground (RULES.md, Core Roll; rules/004 "20 Below at a Glance").

Element, Difficulty, tier and Advantage sliders drive a ``Check``; every number shown comes
from ``tb_playground.engine`` through that model. Plots are ``hv.DynamicMap`` s bound to the
model's ``odds`` parameter and panes update their ``.object``: nothing is rebuilt per move.
"""

from __future__ import annotations

import holoviews as hv
import numpy as np
import panel as pn
import param

from tb_playground.engine import (
    DIFFICULTY_LADDER,
    PUBLISHED_TARGETS,
    TIER_NAMES,
    Odds,
    one_more_point,
    success_curve,
    tier_rules,
)
from tb_playground.formatting import escape, percent
from tb_playground.models import Check

from .kit import (
    NARROW_BUTTONS,
    ODDS_CSS,
    PHONE_CSS,
    after_load,
    csv_button,
    csv_text,
    flex_box,
    html_box,
    page,
    sync_url,
)
from .plots import (
    ADVANTAGE_LABELS,
    OUTCOME_COLORS,
    curve_family,
    curve_marker,
    curves_chart,
    curves_plot,
    distribution_plot,
)
from .ruleset_badge import RulesetBadge

#: The four headline outcomes: (label saying what it counts, css class, Odds attribute,
#: colour key). Success counts criticals and Failure leaves catastrophes out, so Success +
#: Failure + Catastrophe is the whole 100% and Critical is a part of Success.
HEADLINE = (
    ("Success (criticals included)", "odds-success", "p_success", "success"),
    ("Critical success (part of Success)", "odds-critical", "p_critical", "critical"),
    ("Failure (not catastrophic)", "odds-failure", "p_failure", "failure"),
    ("Catastrophe", "odds-catastrophe", "p_catastrophe", "catastrophe"),
)

#: The sentence under the headline that says how the four numbers add up.
HEADLINE_SUM = "Success + Failure + Catastrophe = 100%; Critical is counted inside Success."

#: Training tiers in words (rules/004 "Training Tiers"), shown under the tier buttons.
TIER_HELP = {
    0: "Untrained: the Target Number is the Difficulty alone; your Element does not count.",
    1: "Trained: Target Number = Element + Difficulty.",
    2: "Adept: as Trained, plus one source of Advantage.",
    3: "Expert: as Adept, and a 2 or a 3 is a critical success.",
    4: "Master: as Expert, and a catastrophe is rerolled once.",
}

#: Why the Element slider is off for an Untrained check.
ELEMENT_OFF = "Element is not used Untrained: the Target Number is the Difficulty alone."

#: What each net roll does to the dice (rules/004 "Advantage and Disadvantage").
DICE_WORDS = {
    -1: "Disadvantage: roll three dice and keep the highest two (worse, since low is good).",
    0: "A normal roll: two dice.",
    1: "Advantage: roll three dice and keep the lowest two (better, since low is good).",
}


def _html_pane(css_class: str, **kwargs) -> pn.pane.HTML:
    """An HTML pane carrying the playground's stylesheet into its own shadow root."""
    return html_box(css_class, ODDS_CSS, **kwargs)


def _headline_html(odds) -> str:
    """The four numbers, each saying what it counts.

    Text takes the theme's own colour (readable on both themes); the outcome's colour is the
    bar beside it.
    """
    cells = []
    for label, css, attribute, colour in HEADLINE:
        cells.append(
            f'<div class="odds-stat {css}" style="border-color:{OUTCOME_COLORS[colour]}">'
            f'<span class="pct" data-p="{getattr(odds, attribute)!r}">'
            f"{escape(percent(getattr(odds, attribute)))}</span>"
            f'<span class="lbl">{escape(label)}</span></div>'
        )
    return f'<div class="odds-stats">{"".join(cells)}</div>'


def _summary_html(check: Check) -> str:
    odds = check.odds
    roll = ADVANTAGE_LABELS[odds.advantage]
    crit = "2" if odds.crit_max == 2 else f"2 to {odds.crit_max}"
    dice = {-1: "3d10, keep the highest two", 0: "2d10", 1: "3d10, keep the lowest two"}
    parts = [
        f"<b>TN {odds.target}</b>",
        f"{escape(check.tier_name)}",
        f"{escape(roll)} ({dice[odds.advantage]})",
        f"critical on {crit}",
    ]
    if odds.reroll_catastrophe:
        parts.append("a 20 is rerolled once")
    return " &middot; ".join(parts)


def rule_html(check: Check) -> str:
    """The rule in words, for the numbers beside it (rules/004 "20 Below at a Glance").

    Says what the dice are, that low is good, why a higher Element helps (it raises the
    Target Number), what the net roll does to the dice, and what a critical and a
    catastrophe are at the current tier (RULES.md, Core Roll; rules/004 "Training Tiers").
    """
    odds = check.odds
    if tier_rules(check.tier).uses_element:
        target = (
            f"Your Target Number is {odds.target} = Element {check.element} + Difficulty "
            f"{check.difficulty}: a higher Element or an easier Difficulty raises it, so more "
            "totals succeed."
        )
    else:
        target = (
            f"Your Target Number is {odds.target} = the Difficulty alone (Untrained: your "
            "Element does not count)."
        )
    crit = "2 (both dice showing 1)" if odds.crit_max == 2 else "2 or 3"
    catastrophe = "A 20 (both dice showing 10) is a catastrophe: the roll fails and something "
    catastrophe += "else goes wrong"
    catastrophe += " (a Master rerolls it once)." if odds.reroll_catastrophe else "."
    lines = [
        "Roll two ten-sided dice and add them: <b>at or under</b> your Target Number "
        "succeeds. <b>Low is good.</b>",
        escape(target),
        escape(DICE_WORDS[odds.advantage]),
        f"A total of {crit} is a critical success, whatever the target. {escape(catastrophe)}",
    ]
    items = "".join(f"<li>{line}</li>" for line in lines)
    return (
        f'<p class="odds-rule-title">The rule</p><ul class="odds-rule">{items}</ul>'
        f'<p class="odds-sum">{escape(HEADLINE_SUM)}</p>'
    )


def sources_html(check: Check) -> str:
    """How the Advantage and Disadvantage sources cancel, and the net roll (rules/004).

    Both are binary: after cancelling one for one, any net Advantage is the same roll
    (3d10, keep the lowest two), so 1, 3 or 10 sources give the same odds.
    """
    own = tier_rules(check.tier).advantage_sources
    advantage = check.advantage_sources + own
    disadvantage = check.disadvantage_sources
    net = check.net_advantage
    parts = [f"{advantage} Advantage" + (f" ({own} from your tier)" if own else "")]
    parts.append(f"{disadvantage} Disadvantage")
    if net > 0:
        result = "net Advantage"
    elif net < 0:
        result = "net Disadvantage"
    else:
        result = "they cancel out: a normal roll" if advantage else "a normal roll"
    text = f"{' and '.join(parts)}: {result}."
    if abs(net) > 1:
        text += " More than one net source changes nothing: Advantage is on or off."
    elif not advantage and not disadvantage:
        text += " Sources cancel one for one; one net source is all that counts."
    return f'<p class="odds-help odds-sources">{escape(text)}</p>'


def _ladder_html(current: int) -> str:
    rows = "".join(
        f'<tr class="{"current" if d == current else ""}"><td>{d}</td>'
        f"<td>{escape(name)}</td><td>{escape(example)}</td></tr>"
        for d, (name, example) in enumerate(DIFFICULTY_LADDER)
    )
    return (
        '<table class="tb difficulty-ladder"><tr><th>Difficulty</th><th>Name</th>'
        f"<th>Something that hard</th></tr>{rows}</table>"
    )


def _worth_html() -> str:
    """rules/004's "What Your Target Is Worth", generated by the engine, per roll type.

    The last row says in words what one more point of Difficulty (or Element) adds to a
    Normal roll, in percentage points.
    """
    targets = np.array(PUBLISHED_TARGETS)
    head = "".join(f"<th>{t}</th>" for t in targets)
    rows = []
    for sign, label in ADVANTAGE_LABELS.items():
        cells = "".join(f"<td>{escape(percent(p))}</td>" for p in success_curve(targets, sign))
        rows.append(f"<tr><td>{escape(label)}</td>{cells}</tr>")
    step = one_more_point(targets)
    steps = "".join(f"<td>+{100 * s:.0f}</td>" for s in step)
    rows.append(f"<tr><td>One more point adds</td>{steps}</tr>")
    normal = success_curve(targets, 0)
    example = (
        "The last row, in words: one more point of Difficulty (or of Element) adds that many "
        "percentage points to a Normal roll's chance. "
        f"At TN {targets[0]}, one more point of Difficulty (or of Element) adds "
        f"{100 * step[0]:.0f} percentage points to a Normal roll: "
        f"{escape(percent(normal[0]))} becomes {escape(percent(normal[0] + step[0]))}."
    )
    return (
        f'<table class="tb target-worth"><tr><th>Target</th>{head}</tr>{"".join(rows)}</table>'
        f'<p class="odds-help worth-help">{example}</p>'
    )


#: The check's settings as the page URL names them (``/odds?element=5&difficulty=6&tier=1``).
URL_KEYS = {
    "element": "element",
    "difficulty": "difficulty",
    "tier": "tier",
    "advantage_sources": "advantage",
    "disadvantage_sources": "disadvantage",
}


def odds_csv(odds: Odds) -> str:
    """The four headline numbers as CSV (chances from 0 to 1, as the engine gives them)."""
    return csv_text(
        ["Outcome", "Chance"],
        [(label, float(getattr(odds, attribute))) for label, _css, attribute, _c in HEADLINE],
    )


def worth_csv() -> str:
    """rules/004's "What Your Target Is Worth" table as CSV: one row per Target Number.

    Chances from 0 to 1; the last column is what one more point adds to a Normal roll's
    chance (the table's "+4" is 0.04 here).
    """
    targets = np.array(PUBLISHED_TARGETS)
    curves = {label: success_curve(targets, sign) for sign, label in ADVANTAGE_LABELS.items()}
    step = one_more_point(targets)
    header = ["Target", *(f"{label} chance" for label in curves), "One more point adds (Normal)"]
    rows = [
        [int(t), *(float(c[i]) for c in curves.values()), float(step[i])]
        for i, t in enumerate(targets)
    ]
    return csv_text(header, rows)


def ladder_csv() -> str:
    """rules/004's Difficulty ladder as CSV."""
    return csv_text(
        ["Difficulty", "Name", "Something that hard"],
        [(d, name, example) for d, (name, example) in enumerate(DIFFICULTY_LADDER)],
    )


class OddsPlayground(pn.viewable.Viewer):
    """Sliders for a ``Check`` and everything its odds mean, live.

    Parameters
    ----------
    check : Check
        The model to drive; a fresh one per playground by default.
    """

    check = param.ClassSelector(class_=Check, doc="The check being explored.")
    plotted_odds = param.ClassSelector(
        class_=Odds,
        precedence=-1,
        doc="The odds the plots show; follows check.odds one event-loop tick behind.",
    )
    plotted_family = param.Tuple(
        default=(2, False, 0),
        length=3,
        precedence=-1,
        doc="(crit_max, reroll, advantage) of the plotted curves; changes only when they do.",
    )

    def __init__(self, **params):
        if params.get("check") is None:
            params["check"] = Check()
        super().__init__(**params)
        self.plotted_odds = self.check.odds
        self.plotted_family = curve_family(self.check.odds)
        check = self.check

        def slider(parameter, **kwargs) -> pn.widgets.IntSlider:
            return pn.widgets.IntSlider.from_param(parameter, sizing_mode="stretch_width", **kwargs)

        self._element = slider(check.param.element, name="Element")
        self._difficulty = slider(check.param.difficulty, name="Difficulty")
        self._advantage = slider(check.param.advantage_sources, name="Advantage sources")
        self._disadvantage = slider(check.param.disadvantage_sources, name="Disadvantage sources")
        # No tooltip from the parameter's doc (a Bokeh tooltip runs off a phone's screen):
        # the tier's rule is written under the buttons instead.
        self._tier = pn.widgets.RadioButtonGroup.from_param(
            check.param.tier,
            options=dict(zip(TIER_NAMES, range(len(TIER_NAMES)), strict=True)),
            name="Training tier",
            description=None,
            color="success",
            variant="outline",
            css_classes=["odds-tier"],
            stylesheets=[NARROW_BUTTONS],
            sizing_mode="stretch_width",
        )
        self._element_note = _html_pane("element-note", margin=(0, 10))
        self._tier_help = _html_pane("tier-help", margin=(0, 10))
        self._difficulty_name = _html_pane("difficulty-name", margin=(0, 10))
        self._headline = _html_pane("odds-headline")
        self._summary = _html_pane("odds-summary")
        self._rule = _html_pane("odds-rule-box")
        self._sources = _html_pane("odds-sources-box", margin=(0, 10))
        self._ladder = _html_pane("odds-ladder")
        self._distribution = pn.pane.HoloViews(
            hv.DynamicMap(pn.bind(distribution_plot, odds=self.param.plotted_odds)),
            sizing_mode="stretch_width",
            css_classes=["odds-distribution"],
        )
        self._curves = pn.pane.HoloViews(
            curves_chart(
                hv.DynamicMap(pn.bind(curves_plot, family=self.param.plotted_family)),
                hv.DynamicMap(pn.bind(curve_marker, odds=self.param.plotted_odds)),
            ),
            sizing_mode="stretch_width",
            css_classes=["odds-curves"],
        )
        self._csv = {
            "odds": csv_button(
                "Download these odds (CSV)",
                "odds.csv",
                lambda: odds_csv(self.check.odds),
                "csv-odds",
            ),
            "worth": csv_button(
                "Download the table (CSV)", "target-worth.csv", worth_csv, "csv-worth"
            ),
            "ladder": csv_button(
                "Download the ladder (CSV)", "difficulty-ladder.csv", ladder_csv, "csv-ladder"
            ),
        }
        self._plot_pending = False
        sync_url(check, URL_KEYS)  # a link to the page reproduces these settings
        self._refresh_text()
        check.param.watch(self._on_odds, ["odds", "tier"])

    def _on_odds(self, event) -> None:
        """Show the new numbers now; redraw the plots on the next tick.

        On a server the text patch then reaches the browser without waiting for the plots,
        and several quick moves coalesce into one redraw. In a notebook both run at once.
        """
        self._refresh_text()
        if not self._plot_pending:
            self._plot_pending = True
            pn.state.execute(self._refresh_plots, schedule=True)

    def _refresh_plots(self) -> None:
        self._plot_pending = False
        with pn.io.hold():
            self.param.update(
                plotted_odds=self.check.odds, plotted_family=curve_family(self.check.odds)
            )

    def _refresh_text(self) -> None:
        """Write the current odds into the text panes (their ``.object``, no rebuild)."""
        check = self.check
        with pn.io.hold():
            self._headline.object = _headline_html(check.odds)
            self._summary.object = _summary_html(check)
            self._difficulty_name.object = (
                f"<i>{escape(check.difficulty_name)}</i> &middot; "
                f"{escape(DIFFICULTY_LADDER[check.difficulty][1])}"
            )
            self._ladder.object = _ladder_html(check.difficulty)
            untrained = not tier_rules(check.tier).uses_element
            self._element.disabled = untrained
            self._element_note.object = (
                f'<p class="odds-help">{escape(ELEMENT_OFF)}</p>' if untrained else ""
            )
            self._element_note.visible = untrained
            self._tier_help.object = f'<p class="odds-help">{escape(TIER_HELP[check.tier])}</p>'
            self._rule.object = rule_html(check)
            self._sources.object = sources_html(check)

    def __panel__(self) -> pn.viewable.Viewable:
        box = flex_box
        controls = box(
            pn.pane.Markdown("### Your roll", margin=(0, 10)),
            self._element,
            self._element_note,
            self._difficulty,
            self._difficulty_name,
            _html_pane("control-label", object="<b>Training tier</b>", margin=(8, 10, 0, 10)),
            self._tier,
            self._tier_help,
            self._advantage,
            self._disadvantage,
            self._sources,
            flex="0 1 440px",
            css_classes=["odds-controls"],
        )
        odds = box(
            pn.pane.Markdown("### Your odds", margin=(0, 10)),
            self._headline,
            self._summary,
            self._rule,
            self._csv["odds"],
            css_classes=["odds-answer"],
        )
        return pn.Column(
            # The answer first in the page (a phone shows it first); the controls on its left
            # on a wide screen (odds.css).
            pn.FlexBox(odds, controls, sizing_mode="stretch_width", stylesheets=[ODDS_CSS]),
            pn.FlexBox(
                # Drawn once the page has loaded: a plain GET never pays for the plots.
                box(after_load(self._distribution, min_height=360), flex="1 1 320px"),
                box(after_load(self._curves, min_height=360), flex="1 1 320px"),
                sizing_mode="stretch_width",
            ),
            pn.FlexBox(
                box(
                    pn.pane.Markdown("### What your Target Number is worth"),
                    _html_pane("odds-worth", object=_worth_html()),
                    self._csv["worth"],
                ),
                box(
                    pn.pane.Markdown("### Setting the Difficulty"),
                    self._ladder,
                    self._csv["ladder"],
                ),
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )


def odds_page() -> pn.template.BaseTemplate:
    """The whole "Roll-under playground" page, one per session."""
    return page(
        "Roll-under playground",
        # One card for both: the answer starts higher on a phone (issue 34).
        [pn.Column(RulesetBadge(), OddsPlayground(), sizing_mode="stretch_width")],
        current="odds",
        raw_css=[PHONE_CSS],
    )
