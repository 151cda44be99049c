"""The encounter lab: whole fights simulated many times, and the best play for one attack.

``simulate`` plays an encounter thousands of times at once (numpy, the real round); ``tactics``
compares one attack's options exactly; ``sweep`` runs many encounters as Dask tasks;
``win_from_here`` gives the party's chance to win a live table's fight as it stands. No Panel
import. Notes: docs/notes/0010-lab.md.
"""

from .fight_options import BOOST_POLICIES, BRACKET_POLICIES, ENDS, LEFT_OUT, TARGET_POLICIES
from .fight_result import EncounterResult, wilson_interval
from .from_table import starting_state
from .simulate import simulate
from .sweep import SweepResult, sweep
from .tactics import (
    TACTICS,
    AttackOption,
    TacticsReport,
    WinChange,
    compare_tactics,
    tactic_win_change,
)
from .win_chance import WinChance
from .win_from_here import win_from_here
from .worker_pool import WinChanceRuns

__all__ = [
    "BOOST_POLICIES",
    "BRACKET_POLICIES",
    "ENDS",
    "TACTICS",
    "LEFT_OUT",
    "TARGET_POLICIES",
    "AttackOption",
    "EncounterResult",
    "SweepResult",
    "TacticsReport",
    "WinChance",
    "WinChanceRuns",
    "WinChange",
    "compare_tactics",
    "simulate",
    "sweep",
    "tactic_win_change",
    "starting_state",
    "wilson_interval",
    "win_from_here",
]
