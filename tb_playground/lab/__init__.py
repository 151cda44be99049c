"""The encounter lab: whole fights simulated many times, and the best play for one attack.

``simulate(encounter, fights=..., seed=..., **policies)`` plays the same encounter thousands of
times at once (numpy, vectorized over fights) under the real round and returns who wins, in
how many rounds, who goes down and who did the damage, each with a confidence interval.
``tactics`` compares the options of one attack exactly, from the engine's distributions.
``sweep`` runs many encounters (builds, creatures, readings) as Dask tasks.

No Panel import; numpy and the engine only (issue 11, section 1).
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
