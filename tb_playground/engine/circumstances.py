"""Circumstances that give an attack Advantage or Disadvantage sources (RULES.md, Core Roll).

rules/000 (Action Brackets, Advantage and Disadvantage) and rules/001 (Getting Low and Taking
Cover): Aim, a Slow action, is one Advantage source; every attack against a Prone target gains
Advantage; partial cover and an off-hand attack are one Disadvantage source each. A Called
Shot, also Slow, gives none under the default reading (you can't Aim and Call a Shot in one
round). Sources are summed; only the sign of the sum decides the roll.
"""

from __future__ import annotations

from .validation import require_bool, require_int


def attack_advantage(
    aim: bool = False,
    target_prone: bool = False,
    partial_cover: bool = False,
    off_hand: bool = False,
    other_advantage: int = 0,
    other_disadvantage: int = 0,
) -> int:
    """Net Advantage sources of an attack from its circumstances.

    Parameters
    ----------
    aim, target_prone : bool
        +1 each.
    partial_cover, off_hand : bool
        -1 each.
    other_advantage, other_disadvantage : int
        Any other sources, 0 or more each.

    Returns
    -------
    int
        Sources for, minus sources against.
    """
    plus = require_bool("aim", aim) + require_bool("target_prone", target_prone)
    minus = require_bool("partial_cover", partial_cover) + require_bool("off_hand", off_hand)
    plus += require_int("other_advantage", other_advantage, 0, None)
    minus += require_int("other_disadvantage", other_disadvantage, 0, None)
    return int(plus - minus)
