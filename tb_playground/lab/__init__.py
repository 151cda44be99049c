"""The encounter lab: whole fights simulated many times, and the best play for one attack.

``simulate`` plays an encounter thousands of times at once (numpy, the real round); ``tactics``
compares one attack's options exactly; ``sweep`` runs many encounters as Dask tasks. No Panel
import. Notes: docs/notes/0010-lab.md.
"""

from .simulate import (
    BOOST_POLICIES,
    BRACKET_POLICIES,
    ENDS,
    TARGET_POLICIES,
    EncounterResult,
    simulate,
    wilson_interval,
)
from .sweep import SweepResult, sweep
from .tactics import (
    TACTICS,
    AttackOption,
    TacticsReport,
    WinChange,
    compare_tactics,
    tactic_win_change,
)

__all__ = [
    "BOOST_POLICIES",
    "BRACKET_POLICIES",
    "ENDS",
    "TACTICS",
    "TARGET_POLICIES",
    "AttackOption",
    "EncounterResult",
    "SweepResult",
    "TacticsReport",
    "WinChange",
    "compare_tactics",
    "simulate",
    "sweep",
    "tactic_win_change",
    "wilson_interval",
]
