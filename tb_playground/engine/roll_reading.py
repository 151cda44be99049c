"""Reading dice actually rolled (or typed) by the Core Roll's rule: ``read_core_roll``.

Rule: RULES.md, Core Roll; rules/000 "Rolling the Dice". The combat table reads every to-hit,
Distracted and other Core Roll through it. Notes: docs/notes/0008-table.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .dice import advantage_sign
from .validation import require_bool, require_int

#: How many d10 a Core Roll throws for each sign of the net Advantage.
DICE_FOR_SIGN = {-1: 3, 0: 2, 1: 3}

#: The outcome names, best first.
ROLL_OUTCOMES = ("critical", "success", "failure", "catastrophe")


@dataclass(frozen=True)
class RollReading:
    """One Core Roll as it fell.

    Attributes
    ----------
    faces : tuple of int
        Every d10 thrown, in the order given.
    kept : tuple of int
        The two dice kept.
    total : int
        Their sum.
    target : int
        The Target Number.
    outcome : str
        "critical", "success", "failure" or "catastrophe".
    rerolled : tuple of int
        The faces of a Master's reroll of a catastrophe, if one was made.
    """

    faces: tuple[int, ...]
    kept: tuple[int, int]
    total: int
    target: int
    outcome: str
    rerolled: tuple[int, ...] = ()

    @property
    def success(self) -> bool:
        """Whether the roll succeeded (a critical included)."""
        return self.outcome in ("critical", "success")

    @property
    def margin(self) -> int:
        """TN minus the kept total (how far under the target; negative on a failure)."""
        return self.target - self.total


def dice_needed(advantage: int) -> int:
    """How many d10 a Core Roll with net Advantage sources ``advantage`` throws (2 or 3)."""
    return DICE_FOR_SIGN[advantage_sign(require_int("advantage", advantage))]


def read_faces(name: str, faces: Sequence[int], count: int) -> tuple[int, ...]:
    """Check typed dice: exactly ``count`` d10 faces, each 1..10; errors name the field ``name``.

    The one reader of dice thrown by hand (RULES.md, Core Roll: every roll is d10s); the table's
    commands read their typed dice through it (``table/command_tools.faces``).
    """
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
        raise ValueError(f"{name} must be a list of {count} d10 faces (1..10), got {faces!r}")
    if len(faces) != count:
        raise ValueError(f"{name} must hold exactly {count} d10 faces, got {len(faces)}")
    return tuple(require_int(f"{name}[{i}]", f, 1, 10) for i, f in enumerate(faces))


def _kept(faces: tuple[int, ...], sign: int) -> tuple[int, int]:
    ordered = sorted(faces)
    kept = ordered[:2] if sign >= 0 else ordered[-2:]
    return kept[0], kept[1]


def _outcome(total: int, target: int, crit_max: int) -> str:
    if total == 20:
        return "catastrophe"
    if total <= crit_max:
        return "critical"
    return "success" if total <= target else "failure"


def read_core_roll(
    faces: Sequence[int],
    target: int,
    advantage: int = 0,
    crit_max: int = 2,
    reroll_catastrophe: bool = False,
    reroll_faces: Sequence[int] | None = None,
) -> RollReading:
    """Read a Core Roll from its faces (RULES.md, Core Roll).

    Parameters
    ----------
    faces : sequence of int
        The d10 faces thrown: 2 on a plain roll, 3 with Advantage or Disadvantage.
    target : int
        The Target Number, -10..40 (it may lie outside 2..20: a critical still lands and a
        kept 20 still fails).
    advantage : int
        Net Advantage sources; only the sign counts.
    crit_max : int
        Highest kept total that is a critical success: 2, or 3 for Expert and Master.
    reroll_catastrophe : bool
        Master: a catastrophe is rerolled once; the reroll can only soften it to a failure.
    reroll_faces : sequence of int, optional
        The reroll's faces (as many as ``faces``). Required when ``reroll_catastrophe`` is on
        and the first roll is a catastrophe; refused otherwise.

    Returns
    -------
    RollReading

    Examples
    --------
    rules/000, Ronan rolls a 2 on his attack: a critical hit whatever the TN.

    >>> read_core_roll([1, 1], target=9).outcome
    'critical'
    >>> read_core_roll([10, 10], target=25).outcome
    'catastrophe'
    >>> read_core_roll([9, 2, 10], target=11, advantage=1).total
    11
    """
    sign = advantage_sign(require_int("advantage", advantage))
    count = DICE_FOR_SIGN[sign]
    thrown = read_faces("faces", faces, count)
    target = require_int("target", target, -10, 40)
    crit_max = require_int("crit_max", crit_max, 2, 3)
    reroll = require_bool("reroll_catastrophe", reroll_catastrophe)
    kept = _kept(thrown, sign)
    outcome = _outcome(sum(kept), target, crit_max)
    again: tuple[int, ...] = ()
    if outcome == "catastrophe" and reroll:
        if reroll_faces is None:
            raise ValueError(
                f"reroll_faces must hold the Master's reroll ({count} d10 faces): "
                "the first roll was a catastrophic failure"
            )
        again = read_faces("reroll_faces", reroll_faces, count)
        if _outcome(sum(_kept(again, sign)), target, crit_max) != "catastrophe":
            outcome = "failure"
    elif reroll_faces is not None:
        raise ValueError("reroll_faces is only given when a Master rerolls a catastrophe")
    return RollReading(thrown, kept, sum(kept), target, outcome, again)


def read_damage_faces(faces: Sequence[int], dice: int) -> tuple[int, ...]:
    """Check the faces of a damage roll: exactly ``dice`` d10, each 1..10 (RULES.md, Attacks)."""
    dice = require_int("dice", dice, 0, 1000)
    return read_faces("faces", faces, dice)
