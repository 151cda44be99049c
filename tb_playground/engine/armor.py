"""Armor and Called Shots: a Hardness layer that intercepts every die aimed at its zone.

Rule: RULES.md, Attacks (Armor); rules/002 "What Does Armor Do?", "How Do Called Shots Work?".
Readings where the texts are silent: docs/notes/0003-attacks.md (5, and "Kept from the module
docstrings"), docs/notes/0015-table-rules.md (8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .damage import MAX_WALL, DamageRoll
from .validation import require_bool, require_choice, require_int

#: Armor zones (rules/002).
ZONES = ("body", "head")

#: Largest number of levels an armor item may have.
MAX_ARMOR_LEVELS = 100


@dataclass(frozen=True)
class Armor:
    """One worn armor item.

    Attributes
    ----------
    hardness : int
        0..10; a die must be strictly higher to cost the armor a level.
    levels : int
        Levels left; 0 means broken (it covers nothing).
    zone : {"body", "head"}
        The zone it covers.
    """

    hardness: int
    levels: int
    zone: str = "body"

    def __post_init__(self) -> None:
        require_int("hardness", self.hardness, 0, MAX_WALL)
        require_int("levels", self.levels, 0, MAX_ARMOR_LEVELS)
        require_choice("zone", self.zone, ZONES)


def attack_zone(called_shot: bool = False) -> str:
    """The zone an attack goes to: "head" for a Called Shot, otherwise "body"."""
    return "head" if require_bool("called_shot", called_shot) else "body"


def _require_armor(armor: object) -> None:
    if armor is not None and not isinstance(armor, Armor):
        raise ValueError(f"armor must be an Armor or None, got {type(armor).__name__}")


def armor_covers(armor: Armor | None, called_shot: bool = False) -> bool:
    """Whether ``armor`` intercepts an attack (it covers the attack's zone and is not broken).

    Raises
    ------
    ValueError
        If ``armor`` is neither an ``Armor`` nor ``None``.
    """
    zone = attack_zone(called_shot)
    _require_armor(armor)
    return armor is not None and armor.levels > 0 and armor.zone == zone


def armor_break_probability(
    dice: int,
    hardness: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> float:
    """P(an attack costs the armor its one level), given the armor intercepts it.

    Parameters
    ----------
    dice : int
        Damage dice, 0..100.
    hardness : int
        The armor's Hardness, 0..10.
    boosts, bonus, timing, critical, klotho
        As for ``DamageRoll``.

    Returns
    -------
    float
    """
    dice = DamageRoll.check("dice", dice)
    hardness = DamageRoll.check("wall", hardness, "hardness")
    return _break_probability(DamageRoll(dice, hardness, boosts, bonus, timing, critical, klotho))


def _break_probability(roll: DamageRoll) -> float:
    """``armor_break_probability`` of a checked roll whose ``wall`` is the armor's Hardness."""
    if roll.dice == 0:
        return 0.0
    if roll.critical:
        return 1.0  # ceil(dice / 2) >= 1 dice connect outright
    # Hardness acts as a wall: P(no die beats it) is the levels == 0 entry. After the roll one
    # boost is all the armor's single level is worth; before it, every chosen boost counts.
    used = min(roll.boosts, 1) if roll.timing == "after" else roll.boosts
    return float(1.0 - roll.replace(boosts=used).distribution()[0])


def armor_distribution(
    dice: int,
    wall: int,
    armor: Armor | None,
    called_shot: bool = False,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """Joint distribution of (armor levels lost, levels to the wearer) for one attack.

    Parameters
    ----------
    dice : int
        Damage dice, 0..100.
    wall : int
        The wearer's own wall (Soak), 0..10, used when no armor intercepts.
    armor : Armor or None
        The armor worn on the zone in question (``None``: no armor).
    called_shot : bool
        The attack goes to the Head zone instead of the Body zone.
    boosts, bonus, timing, critical, klotho
        As for ``DamageRoll``.

    Returns
    -------
    numpy.ndarray
        Shape (2, dice + 1): entry [a, k] = P(armor loses a levels and the wearer k levels).
        When the armor intercepts, only column 0 is non-zero; otherwise only row 0.

    Notes
    -----
    With ``timing="before"`` the ``min(boosts, dice)`` chosen dice all carry the bonus against
    the Hardness, and those Ki are spent even though the armor absorbs the attack. With
    "after", at most one Ki is spent (on a liftable die when none beats the Hardness).
    """
    _require_armor(armor)
    roll = DamageRoll(dice, wall, boosts, bonus, timing, critical, klotho)
    out = np.zeros((2, roll.dice + 1))
    if armor_covers(armor, called_shot):
        p_break = _break_probability(roll.replace(wall=armor.hardness))
        out[1, 0] = p_break
        out[0, 0] = 1.0 - p_break
    else:
        out[0] = roll.distribution()
    return out
