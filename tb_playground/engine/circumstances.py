"""Circumstances that give an attack Advantage or Disadvantage sources (RULES.md, Core Roll).

Kept for callers of ``attack_advantage``: the rules live in ``conditions.roll_modifiers``,
the one function every roll uses (rules/000 "Action Brackets", "Advantage and Disadvantage";
rules/001 "Getting Low", "Cover"). Aim is one Advantage source; every attack against a Prone
target gains Advantage; partial cover and an off-hand attack are one Disadvantage source each.
"""

from __future__ import annotations

from .conditions import roll_modifiers
from .validation import require_bool


def attack_advantage(
    aim: bool = False,
    target_prone: bool = False,
    partial_cover: bool = False,
    off_hand: bool = False,
    other_advantage: int = 0,
    other_disadvantage: int = 0,
) -> int:
    """Net Advantage sources of an attack from its circumstances (``roll_modifiers``).

    Parameters
    ----------
    aim, target_prone : bool
        +1 each.
    partial_cover, off_hand : bool
        -1 each.
    other_advantage, other_disadvantage : int
        Any other sources, 0..20 each.

    Returns
    -------
    int
        Sources for, minus sources against.
    """
    prone = require_bool("target_prone", target_prone)
    cover = "partial" if require_bool("partial_cover", partial_cover) else "none"
    return roll_modifiers(
        "attack",
        attack_kind="physical",
        aim=aim,
        target_conditions=("Prone",) if prone else (),
        cover=cover,
        off_hand=off_hand,
        other_advantage=other_advantage,
        other_disadvantage=other_disadvantage,
    ).advantage
