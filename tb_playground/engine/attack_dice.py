"""Where an attack's damage dice come from: weapon, Skill tier or Gift, by kind.

Rule: RULES.md, Attacks; rules/000 "A Fistful of Dice", "Social Attacks", "Mental Attacks";
rules/004 "Social Attacks". Readings: docs/notes/0003-attacks.md (8, 10).
"""

from __future__ import annotations

from .damage import MAX_DICE
from .defense import attack_kind
from .validation import require_choice, require_int

#: Damage dice of a Social attack by the Skill's training tier, 0 Untrained .. 4 Master.
SOCIAL_DICE_BY_TIER = (1, 3, 4, 5, 6)

#: Where the dice can come from.
DICE_SOURCES = ("weapon", "gift", "skill")

#: The sources each attack kind allows.
SOURCES_BY_KIND: dict[str, tuple[str, ...]] = {
    "physical": ("weapon", "gift"),
    "social": ("skill", "gift"),
    "mental": ("gift",),
}


def social_dice(tier: int) -> int:
    """Damage dice of a Social attack made through a Skill at ``tier`` (0..4)."""
    return SOCIAL_DICE_BY_TIER[require_int("tier", tier, 0, 4)]


def attack_dice(kind: str, source: str, rating: int) -> int:
    """How many damage dice an attack rolls.

    Parameters
    ----------
    kind : {"physical", "social", "mental"}
        The attack's kind.
    source : {"weapon", "gift", "skill"}
        "weapon" (Physical only): ``rating`` is the weapon's Damage Rating.
        "skill" (Social only): ``rating`` is the Skill's training tier, 0..4.
        "gift" (any kind; the only source of a Mental attack): ``rating`` is the number of
        dice the Gift's entry gives.
    rating : int
        See ``source``; 0..100 for a weapon or a Gift.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the source cannot make an attack of that kind (a Mental attack without a Gift, a
        Social attack with a weapon, a Physical attack through a Skill's tier).
    """
    kind = attack_kind(kind).name
    source = require_choice("source", source, DICE_SOURCES)
    if source not in SOURCES_BY_KIND[kind]:
        raise ValueError(
            f"source must be one of {SOURCES_BY_KIND[kind]} for a {kind} attack, got {source!r}"
        )
    if source == "skill":
        return social_dice(rating)
    return require_int("rating", rating, 0, MAX_DICE)
