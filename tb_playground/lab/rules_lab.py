"""The rules lab: what each Ruleset switch changes, side by side; the public names in one place.

``switch_report`` (curves, heatmaps, what a switch leaves alone), ``quantities`` and ``TOUCHES``,
``advantage_as_tn`` and ``win_comparison``, gathered from ``lab_switches``, ``switch_battery``,
``switch_curves``, ``advantage_fit`` and ``switch_fights``. Every number from the engine; no
Panel. Notes: docs/notes/0014-rules-lab.md.
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
    example_encounter,
    under_switch,  # noqa: F401 (the tests rebuild an encounter under a switch with it)
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
