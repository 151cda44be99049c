"""The rules lab: what each Ruleset switch changes, side by side (issue 11, section 2).

For every switch of ``models.Ruleset`` (each rules/002 variant and each reading of 000/004, see
``VARIANT_SWITCHES`` and ``READING_SWITCHES``) and for the rules/003 roll-over draft as a whole
system (``ROLL_OVER``), ``switch_report`` gives exactly what changes:

- curves of the default and the switched reading over one axis (a success curve over the TN,
  the Difficulty or the Defense; a damage curve over the wall or the Defense; or the quantity
  the rule touches, such as Ki back from a Short Rest over Klotho);
- a difference heatmap (switched minus default) over two axes, where the rule has two inputs;
- what the switch leaves alone.

``quantities(switches)`` is one battery of engine numbers, each computed through the switch's
engine argument (``Ruleset``'s translations: ``boost_timing``, ``tier_args``, ...);
``TOUCHES`` says which of them each switch's rule touches (RULES.md), and the tests check that
a switch changes those and nothing else. ``advantage_as_tn`` answers "which flat TN modifier
is Advantage worth at each TN", and ``win_comparison`` plays the same encounter under the
default and under a switch with ``lab.simulate``, in chunks, with progress and cancel hooks.

Every number comes from the engine (exact counts or float64 tested to 1e-12); no Panel here.

The lab is split by what each part holds; this module keeps the public names in one place:
``lab_switches`` (the switches, their sources and inputs), ``switch_battery`` (the battery),
``switch_curves`` (curves, heatmaps, ``switch_report``), ``advantage_fit`` (Advantage as a flat
TN modifier), ``switch_fights`` (P(win) under a reading).
"""

from __future__ import annotations

from tb_playground.models.ruleset import READING_SWITCHES, VARIANT_SWITCHES

from .advantage_fit import MAX_SHIFT, AdvantageFit, advantage_as_tn
from .lab_switches import (
    LAB_QUOTES,
    LAB_READINGS,
    LAB_SENTENCES,
    LAB_SWITCHES,
    QUANTITY_NAMES,
    ROLL_OVER,
    SWITCH_INPUTS,
    SWITCH_TITLES,
    TOUCHES,
    lab_switch_names,
    picker_options,
    ruleset_for,
    source_text,
)
from .switch_battery import quantities
from .switch_curves import D11, TN_AXIS, Curve, Heatmap, SwitchReport, switch_report
from .switch_fights import (
    NOT_SIMULATED,
    SHEET_SWITCHES,
    SIMULATED,
    SIMULATOR_SWITCHES,
    SUGGESTED_FIGHTS,
    SWITCH_POLICIES,
    Cancelled,
    WinComparison,
    _under_switch,  # noqa: F401 (the tests rebuild an encounter under a switch with it)
    example_encounter,
    win_comparison,
)

__all__ = [
    "D11",
    "LAB_QUOTES",
    "LAB_READINGS",
    "LAB_SENTENCES",
    "LAB_SWITCHES",
    "MAX_SHIFT",
    "NOT_SIMULATED",
    "QUANTITY_NAMES",
    "READING_SWITCHES",
    "ROLL_OVER",
    "SHEET_SWITCHES",
    "SIMULATED",
    "SIMULATOR_SWITCHES",
    "SUGGESTED_FIGHTS",
    "SWITCH_INPUTS",
    "SWITCH_POLICIES",
    "SWITCH_TITLES",
    "TN_AXIS",
    "TOUCHES",
    "VARIANT_SWITCHES",
    "AdvantageFit",
    "Cancelled",
    "Curve",
    "Heatmap",
    "SwitchReport",
    "WinComparison",
    "advantage_as_tn",
    "example_encounter",
    "lab_switch_names",
    "picker_options",
    "quantities",
    "ruleset_for",
    "source_text",
    "switch_report",
    "win_comparison",
]
