"""The odds as the dice land, for one person at the table (issue 23, item 5).

``typed_odds(state, role, seat, typed)``: ``odds.pending_odds`` given the dice typed so far,
shown to whom the pending step's odds are shown (``reader_view.pending_odds_for``, the one rule).
Rule: RULES.md, Core Roll and Attacks.
"""

from __future__ import annotations

from . import reader_view


def typed_odds(state: dict, role: str, seat: str | None, typed: list[int]) -> dict | None:
    """The pending attack's odds given ``typed`` for ``role``/``seat``, or None (not theirs).

    Raises
    ------
    ValueError
        No to-hit or damage roll is due, or ``typed`` is not a list of faces of it.
    """
    if state["pending"] is None:
        raise ValueError("typed: there is no roll to make now")
    return reader_view.pending_odds_for(state, role, seat, typed)
