"""Kotodama's cost in Fate Tokens (rules/004 "Fate Tokens"; RULES.md, Vitals).

rules/004: "Kotodama - assert a fact into the world. Cost is Magnitude + Range beyond yourself +
Plausibility (Whisper 0, Murmur +1, Shout +3), and permanent is free." The texts give no scale
for Magnitude or Range; the GM sets both (docs/notes/0015-table-rules.md). ``fate.fate_spend``
takes the cost and applies the caps.
"""

from __future__ import annotations

from .validation import require_choice, require_int

#: What each Plausibility adds to the cost (rules/004).
PLAUSIBILITY = {"whisper": 0, "murmur": 1, "shout": 3}


def kotodama_cost(magnitude: int, range_beyond: int, plausibility: str) -> int:
    """Fate Tokens a Kotodama costs: Magnitude + Range beyond yourself + Plausibility.

    Parameters
    ----------
    magnitude : int
        How big the claim is, 0..20 (the GM's call).
    range_beyond : int
        How far beyond yourself it reaches, 0..20 (the GM's call).
    plausibility : {"whisper", "murmur", "shout"}
        How hard it would be to explain away: 0, +1, +3. Making it permanent adds nothing.

    Returns
    -------
    int
        The sum, at least 1: a spend takes a token (``fate.fate_spend``'s reading).
    """
    magnitude = require_int("magnitude", magnitude, 0, 20)
    range_beyond = require_int("range_beyond", range_beyond, 0, 20)
    plausibility = require_choice("plausibility", plausibility, tuple(PLAUSIBILITY))
    return max(1, magnitude + range_beyond + PLAUSIBILITY[plausibility])
