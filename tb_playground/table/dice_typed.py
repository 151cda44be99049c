"""The odds as the dice land, for one person at the table (issue 23, item 5).

``typed_odds(state, role, seat, typed)``: ``odds.pending_odds`` given the dice typed so far,
shown to whom the pending step's odds are shown (view.py's rule: the GM, the attacker, the
target, everyone when the target is on the party's side or the foes' numbers are shared; the
foe's wall and armor stay the GM's unless shared). Rule: RULES.md, Core Roll and Attacks.
"""

from __future__ import annotations

from . import view as views
from .odds import pending_odds


def typed_odds(state: dict, role: str, seat: str | None, typed: list[int]) -> dict | None:
    """The pending attack's odds given ``typed`` for ``role``/``seat``, or None (not theirs).

    Raises
    ------
    ValueError
        No to-hit or damage roll is due, or ``typed`` is not a list of faces of it.
    """
    p = state["pending"]
    if p is None:
        raise ValueError("typed: there is no roll to make now")
    if not (
        views._visible(state, p["attacker"], role) and views._visible(state, p["target"], role)
    ):
        return None
    target_foe = views._foe(state, state["combatants"][p["target"]])
    numbers = role == "gm" or state["share_foes"] or not target_foe
    if not (numbers or seat in (p["attacker"], p["target"])):
        return None
    odds = pending_odds(state, p, typed)
    if not numbers:
        odds.pop("wall")  # the foe's wall stays the GM's unless shared
        odds.pop("armor", None)
    return odds
