"""The damage page's Bracket selector: plain labels, and a choice reaches the fight."""

from __future__ import annotations

import panel as pn

from tb_playground.views import DamageExplorer
from tb_playground.views.damage_explorer import BRACKET_HELP, BRACKET_LABELS


def _bracket_widget(explorer: DamageExplorer) -> pn.widgets.RadioButtonGroup:
    found = [
        w
        for w in explorer.controls.objects
        if isinstance(w, pn.widgets.RadioButtonGroup) and "dmg-bracket" in w.css_classes
    ]
    assert len(found) == 1
    return found[0]


def test_bracket_selector_has_plain_labels_and_drives_the_fight():
    explorer = DamageExplorer()
    widget = _bracket_widget(explorer)
    assert list(widget.options) == ["Fast", "Normal", "Slow"]
    # What each holds is said beside the buttons, in plain words (RULES.md, Combat round).
    help_text = [
        o.object for o in explorer.controls.objects if BRACKET_HELP in str(getattr(o, "object", ""))
    ]
    assert help_text and "Normal: two attacks" in help_text[0]
    assert widget.value == "fast"
    one = explorer.attack.fight.mean_rounds_to_down
    widget.value = BRACKET_LABELS["Normal"]
    assert explorer.attack.bracket == "normal"
    assert explorer.attack.fight.mean_rounds_to_down < one
    widget.value = "slow"
    assert explorer.attack.slow_action == "aim"  # a Slow round's empowered attack
    explorer.attack.slow_action = "none"
    assert widget.value == "fast"


def test_changing_choices_survive_the_browsers_echo_of_the_labels():
    """Social narrows the dice sources; in a notebook BokehJS sends the new labels back.

    The echo must change nothing (it used to replace the options by their labels, set the
    value to None and loop until RecursionError, issue 22).
    """
    explorer = DamageExplorer()
    widgets = {
        name: w
        for w in explorer.controls.objects
        if isinstance(w, pn.widgets.RadioButtonGroup)
        for name in ("kind", "dice-source", "approach")
        if f"dmg-{name}" in w.css_classes
    }
    explorer.controls.get_root()  # models exist, as in a notebook output
    for kind in ("social", "mental", "physical", "social"):
        widgets["kind"].value = kind
        for name, attribute in [("dice-source", "dice_source"), ("approach", "approach")]:
            widget = widgets[name]
            shown = dict(widget.options)
            widget._process_events({"labels": list(shown)})  # the browser's echo
            assert dict(widget.options) == shown
            assert widget.value == getattr(explorer.attack, attribute)
            assert widget.value in shown.values()
