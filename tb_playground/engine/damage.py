"""Damage dice against a wall, with Ki boosts and the critical hit (exact distributions).

Rule: RULES.md, Attacks; rules/000 "A Fistful of Dice", "Critical Success in Combat", "Spending
Ki on the Dice"; rules/002 "How Do I Deal Damage?" (the ``timing="before"`` variant).
Readings where the texts are silent: docs/notes/0003-attacks.md (1, 2, and "Kept from the
module docstrings").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .validation import require_bool, require_choice, require_int, require_length

#: Largest damage pool the engine accepts (its binomial tables reach this far).
MAX_DICE = 100

#: Highest wall (Soak, Presence, Psyche) and highest boost bonus or Klotho: sub-stats are 0..10.
MAX_WALL = 10
MAX_BONUS = 10

#: Most numbers one ``damage_sweep`` table may hold (about 160 MB, a third of a second);
#: every page asks for far fewer.
MAX_SWEEP_CELLS = 20_000_000

#: Ki boost timings: "after" the dice are seen (default rule) or "before" (variant 002).
TIMINGS = ("after", "before")

_BINOM = np.array(
    [[float(math.comb(n, k)) for k in range(MAX_DICE + 1)] for n in range(MAX_DICE + 1)]
)
_BINOM.setflags(write=False)


def _over_faces(threshold: np.ndarray) -> np.ndarray:
    """How many of a d10's ten faces are strictly over ``threshold`` (any integer)."""
    return 10 - np.clip(threshold, 0, 10)


def _powers(p: np.ndarray, n: int) -> np.ndarray:
    """``p ** j`` for j = 0..n, on a new last axis (0 ** 0 is 1)."""
    return np.asarray(p, dtype=np.float64)[..., None] ** np.arange(n + 1)


def _after_parts(n: int, over: np.ndarray, lift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shifted trinomial tables of ``n`` dice under the "after" boost rule.

    Parameters
    ----------
    n : int
        Dice rolled.
    over, lift : numpy.ndarray of int
        Faces (out of 10) already over the wall, and faces the bonus lifts over it; same shape S.

    Returns
    -------
    shifted, shifted_tail : numpy.ndarray
        Shape S + (n + 1, n + 1), indexed [k, s]: ``shifted[k, s]`` = P(#over = k - s and
        #liftable = s); ``shifted_tail[k, s]`` = P(#over = k - s and #liftable >= s).
    """
    over = np.asarray(over)
    lift = np.asarray(lift)
    hopeless = 10 - over - lift
    j = np.arange(n + 1)
    x, y = j[:, None], j[None, :]
    z = n - x - y
    valid = z >= 0
    coef = np.where(valid, _BINOM[n, x] * _BINOM[np.clip(n - x, 0, None), y], 0.0)
    joint = (
        coef
        * _powers(over / 10, n)[..., :, None]
        * _powers(lift / 10, n)[..., None, :]
        * _powers(hopeless / 10, n)[..., np.clip(z, 0, None)]
    )
    joint = np.where(valid, joint, 0.0)
    tail = np.flip(np.cumsum(np.flip(joint, axis=-1), axis=-1), axis=-1)
    k, s = j[:, None], j[None, :]
    xi = k - s
    ok = xi >= 0
    xi = np.clip(xi, 0, None)
    shifted = np.where(ok, joint[..., xi, s], 0.0)
    shifted_tail = np.where(ok, tail[..., xi, s], 0.0)
    return shifted, shifted_tail


def _after_by_boosts(n: int, over: np.ndarray, lift: np.ndarray) -> np.ndarray:
    """P(levels = k) of ``n`` dice with b boosts used after the roll, for every b = 0..n.

    Returns an array of shape S + (n + 1 boosts, n + 1 levels); b > n behaves as b = n.
    """
    shifted, shifted_tail = _after_parts(n, over, lift)
    below = np.cumsum(shifted, axis=-1)  # [k, s]: sum over s' <= s
    below = np.concatenate([np.zeros_like(below[..., :1]), below[..., :-1]], axis=-1)
    by_k_b = below + shifted_tail  # [k, b] = sum_{s < b} shifted[k, s] + shifted_tail[k, b]
    return np.swapaxes(by_k_b, -1, -2)


def _binomial_pmfs(p: np.ndarray, n: int) -> np.ndarray:
    """Binomial pmfs for every m = 0..n: shape S + (n + 1 for m, n + 1 for j)."""
    m = np.arange(n + 1)[:, None]
    j = np.arange(n + 1)[None, :]
    valid = j <= m
    pw = _powers(p, n)
    qw = _powers(1.0 - np.asarray(p, dtype=np.float64), n)
    pmf = _BINOM[m, j] * pw[..., None, :] * qw[..., np.clip(m - j, 0, None)]
    return np.where(valid, pmf, 0.0)


def _before_by_boosts(
    n: int, over: np.ndarray, boosted_over: np.ndarray, max_boosts: int
) -> np.ndarray:
    """P(levels = k) of ``n`` dice, b of them boosted before the roll, b = 0..min(max_boosts, n).

    Returns an array of shape S + (min(max_boosts, n) + 1, n + 1).
    """
    nb = min(max_boosts, n) + 1
    plain = _binomial_pmfs(np.asarray(over) / 10, n)  # [m, j]
    boosted = _binomial_pmfs(np.asarray(boosted_over) / 10, n)
    b = np.arange(nb)
    k = np.arange(n + 1)[:, None]
    j = np.arange(n + 1)[None, :]
    i = k - j
    ok = i >= 0
    # plain part: the n - b unboosted dice show k - j levels, the b boosted ones j.
    plain_rows = plain[..., n - b, :]  # S + (nb, n + 1)
    gathered = np.where(ok, plain_rows[..., :, np.clip(i, 0, None)], 0.0)  # S + (nb, k, j)
    boosted_rows = boosted[..., b, :]  # S + (nb, j)
    return np.einsum("...bkj,...bj->...bk", gathered, boosted_rows)


def _rolled_dice(dice: int, critical: bool) -> tuple[int, int]:
    """(dice that connect outright, dice rolled): a critical sends ceil(dice / 2) through."""
    if critical:
        automatic = (dice + 1) // 2
        return automatic, dice - automatic
    return 0, dice


def critical_split(dice: int) -> tuple[int, int]:
    """Split a critical hit's pool: (dice that connect outright, dice rolled + Klotho).

    RULES.md, Attacks: half the damage dice, rounded up, connect with no roll and no wall.
    """
    return _rolled_dice(DamageRoll.check("dice", dice), True)


def p_die_over(wall: int, plus: int = 0) -> float:
    """P(one d10 + ``plus`` is strictly over ``wall``): the chance one die is a level."""
    wall = DamageRoll.check("wall", wall)
    plus = require_int("plus", plus, 0, 2 * MAX_BONUS)
    return float(_over_faces(np.array(wall - plus))) / 10


#: Allowed values of each ``DamageRoll`` field: inclusive whole-number bounds, or the choices.
ROLL_LIMITS = {
    "dice": (0, MAX_DICE),
    "wall": (0, MAX_WALL),
    "boosts": (0, MAX_DICE),
    "bonus": (0, MAX_BONUS),
    "timing": TIMINGS,
    "critical": (False, True),
    "klotho": (0, MAX_BONUS),
}


@dataclass(frozen=True)
class DamageRoll:
    """One damage roll against a wall (RULES.md, Attacks): the argument group of the engine.

    ``damage_distribution``, ``damage_with_ki``, the armor, Ki-value and fight functions take
    these seven values; each is checked here (``check``), so a bad one gets a ``ValueError``
    that names the field and its allowed values.

    Attributes
    ----------
    dice : int
        Damage dice (weapon rating, Gift's dice, or Skill tier dice for Social), 0..100.
    wall : int
        The target's Soak / Presence / Psyche, 0..10. A die connects if it is strictly
        higher.
    boosts : int
        Ki the attacker is willing to spend on boosts, one per die (0..100).
    bonus : int
        What a boost adds to a die: Ferocity / Presence / Psyche, 0..10.
    timing : {"after", "before"}
        "after" (default rule): boosts chosen after seeing the dice, used optimally.
        "before" (variant 002): ``min(boosts, dice)`` dice boosted before the roll.
    critical : bool
        A critical hit: ceil(dice / 2) dice connect outright, the rest roll with + Klotho
        (and boosts on top, our reading; see the module docstring).
    klotho : int
        The attacker's Klotho, 0..10; used only when ``critical``.
    """

    dice: int
    wall: int
    boosts: int = 0
    bonus: int = 0
    timing: str = "after"
    critical: bool = False
    klotho: int = 0

    def __post_init__(self) -> None:
        for field in ROLL_LIMITS:
            object.__setattr__(self, field, self.check(field, getattr(self, field)))

    @staticmethod
    def check(field: str, value: object, name: str | None = None) -> object:
        """``value`` if it is allowed for the ``DamageRoll`` field ``field``, else a ValueError.

        Parameters
        ----------
        field : str
            One of the fields (``ROLL_LIMITS``).
        value : object
            What the caller passed.
        name : str, optional
            What the error calls it (default ``field``): "hardness" for an armor's wall,
            say.

        Returns
        -------
        int, str or bool
            ``value`` as a plain ``int`` / ``str`` / ``bool``.
        """
        name = field if name is None else name
        if field == "timing":
            return require_choice(name, value, ROLL_LIMITS["timing"])
        if field == "critical":
            return require_bool(name, value)
        low, high = ROLL_LIMITS[field]
        return require_int(name, value, low, high)

    def joint(self) -> np.ndarray:
        """Joint distribution of (levels dealt, Ki spent on boosts): see ``damage_with_ki``."""
        dice, wall, boosts, bonus = self.dice, self.wall, self.boosts, self.bonus
        automatic, rolled = _rolled_dice(dice, self.critical)
        threshold = wall - (self.klotho if self.critical else 0)
        over = _over_faces(np.asarray(threshold))
        boosted_over = _over_faces(np.asarray(threshold - bonus))
        out = np.zeros((dice + 1, boosts + 1))
        usable = min(boosts, rolled)
        if self.timing == "after":
            shifted, shifted_tail = _after_parts(rolled, over, boosted_over - over)
            block = shifted[:, :usable].copy()
            block = np.concatenate([block, shifted_tail[:, usable : usable + 1]], axis=1)
            out[automatic:, : usable + 1] = block
        else:
            levels = _before_by_boosts(rolled, over, boosted_over, usable)[usable]
            out[automatic:, usable] = levels
        return out

    def distribution(self) -> np.ndarray:
        """P(levels == k) for k = 0..dice: see ``damage_distribution``."""
        return self.joint().sum(axis=1)

    def replace(self, **changes: object) -> DamageRoll:
        """The same roll with some fields changed (checked again)."""
        return replace(self, **changes)


def damage_with_ki(
    dice: int,
    wall: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """Joint distribution of (levels dealt, Ki spent on boosts) for one damage roll.

    Parameters
    ----------
    dice, wall, boosts, bonus, timing, critical, klotho
        The fields of ``DamageRoll`` (``DamageRoll(...).joint()`` is the same).

    Returns
    -------
    numpy.ndarray
        Shape (dice + 1, boosts + 1): entry [k, s] = P(levels == k and s Ki spent). With
        ``timing="after"`` Ki is spent only on dice it lifts over the wall; with "before" all
        ``min(boosts, dice rolled)`` chosen boosts are spent.
    """
    return DamageRoll(dice, wall, boosts, bonus, timing, critical, klotho).joint()


def damage_distribution(
    dice: int,
    wall: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """P(levels == k) for k = 0..dice from one damage roll (RULES.md, Attacks).

    Parameters
    ----------
    dice, wall, boosts, bonus, timing, critical, klotho
        The fields of ``DamageRoll``: dice 0..100, wall 0..10, boosts 0..100, bonus 0..10,
        timing "after" or "before", critical, klotho 0..10 (used only when ``critical``).
        ``DamageRoll(...).distribution()`` is the same.

    Returns
    -------
    numpy.ndarray
        Float array of length ``dice + 1`` summing to 1.
    """
    return DamageRoll(dice, wall, boosts, bonus, timing, critical, klotho).distribution()


def _int_list(name: str, values: Iterable[int], low: int, high: int) -> np.ndarray:
    """``values`` as an int array: 1 to ``high - low + 1`` entries (one per allowed value)."""
    items = require_length(name, values, high - low + 1, 1, f"whole numbers from {low} to {high}")
    return np.array([require_int(f"{name}[{i}]", v, low, high) for i, v in enumerate(items)])


def damage_sweep(
    max_dice: int = 20,
    walls: Sequence[int] = range(11),
    boosts: Sequence[int] = range(6),
    bonuses: Sequence[int] = range(6),
    timing: str = "after",
    critical: bool = False,
    klotho: int = 0,
) -> np.ndarray:
    """The whole damage table in one vectorized call (RULES.md, Attacks).

    Parameters
    ----------
    max_dice : int
        Largest pool, 0..100; pools 0..max_dice are all computed.
    walls : sequence of int
        Walls, each 0..10; at most 11 of them.
    boosts : sequence of int
        Boost budgets, each 0..100; at most 101 of them.
    bonuses : sequence of int
        Boost bonuses, each 0..10; at most 11 of them.
    timing, critical, klotho
        As for ``DamageRoll``, applied to every cell.

    The table may hold at most ``MAX_SWEEP_CELLS`` numbers; a bigger one is refused with a
    ValueError before any of it is computed.

    Returns
    -------
    numpy.ndarray
        Shape (max_dice + 1, len(walls), len(boosts), len(bonuses), max_dice + 1): entry
        [n, w, b, o, k] = P(levels == k) for n dice against ``walls[w]`` with ``boosts[b]``
        boosts of ``bonuses[o]``. Levels above n have probability 0.
    """
    max_dice = require_int("max_dice", max_dice, 0, MAX_DICE)
    wall_arr = _int_list("walls", walls, *ROLL_LIMITS["wall"])
    boost_arr = _int_list("boosts", boosts, *ROLL_LIMITS["boosts"])
    bonus_arr = _int_list("bonuses", bonuses, *ROLL_LIMITS["bonus"])
    timing = DamageRoll.check("timing", timing)
    critical = DamageRoll.check("critical", critical)
    klotho = DamageRoll.check("klotho", klotho)
    cells = (max_dice + 1) ** 2 * wall_arr.size * boost_arr.size * bonus_arr.size
    if cells > MAX_SWEEP_CELLS:
        raise ValueError(
            f"max_dice, walls, boosts and bonuses ask for a table of {cells:,} numbers; "
            f"at most {MAX_SWEEP_CELLS:,} are allowed (use fewer dice or fewer values)"
        )

    threshold = wall_arr[:, None] - (klotho if critical else 0)  # (W, 1)
    over = np.broadcast_to(_over_faces(threshold), (wall_arr.size, bonus_arr.size))
    boosted_over = _over_faces(threshold - bonus_arr[None, :])  # (W, O)
    max_boost = int(boost_arr.max())
    out = np.zeros((max_dice + 1, wall_arr.size, boost_arr.size, bonus_arr.size, max_dice + 1))
    rolled_cache: dict[int, np.ndarray] = {}
    for n in range(max_dice + 1):
        automatic, rolled = _rolled_dice(n, critical)
        if rolled not in rolled_cache:
            if timing == "after":
                table = _after_by_boosts(rolled, over, boosted_over - over)  # (W, O, b, k)
            else:
                table = _before_by_boosts(rolled, over, boosted_over, max_boost)
            # pick each requested budget (a budget above the dice rolled acts as all of them)
            picked = table[:, :, np.minimum(boost_arr, table.shape[2] - 1), :]  # (W, O, B, k)
            rolled_cache[rolled] = np.transpose(picked, (0, 2, 1, 3))  # (W, B, O, k)
        out[n, :, :, :, automatic : automatic + rolled + 1] = rolled_cache[rolled]
    return out


def roll_levels(
    rolls: Sequence[int],
    wall: int,
    boosts: int = 0,
    bonus: int = 0,
    timing: str = "after",
    klotho: int = 0,
    automatic: int = 0,
) -> tuple[int, int]:
    """Resolve one seen damage roll: (levels dealt, Ki spent).

    Parameters
    ----------
    rolls : sequence of int
        The d10 faces rolled (1..10 each), at most 100 of them. On a critical hit these are
        only the dice that are rolled, with ``automatic`` the ones that connected outright.
    wall : int
        0..10.
    boosts, bonus, timing
        As for ``DamageRoll``. With "before", the first ``boosts`` dice of ``rolls``
        are the ones boosted (chosen before the roll; the dice are interchangeable).
    klotho : int
        Added to every rolled die (pass it on a critical hit only), 0..10.
    automatic : int
        Levels that connect with no roll (ceil(dice / 2) on a critical hit).

    Returns
    -------
    tuple of int
        (levels, Ki spent).

    Examples
    --------
    rules/002: Soak 6, four dice 3, 6, 9, 10: two levels.

    >>> roll_levels([3, 6, 9, 10], wall=6)
    (2, 0)

    rules/000, Ronan's critical: 7 dice, 4 connect, the rest 2, 1, 6 + Klotho 4 vs Soak 7.

    >>> roll_levels([2, 1, 6], wall=7, klotho=4, automatic=4)
    (5, 0)
    """
    rolls = require_length("rolls", rolls, MAX_DICE, what="d10 faces")
    faces = [require_int(f"rolls[{i}]", r, 1, 10) for i, r in enumerate(rolls)]
    wall = DamageRoll.check("wall", wall)
    boosts = DamageRoll.check("boosts", boosts)
    bonus = DamageRoll.check("bonus", bonus)
    timing = DamageRoll.check("timing", timing)
    klotho = DamageRoll.check("klotho", klotho)
    automatic = require_int("automatic", automatic, 0, MAX_DICE)
    seen = [f + klotho for f in faces]
    if timing == "before":
        used = min(boosts, len(seen))
        levels = sum(v + bonus > wall for v in seen[:used]) + sum(v > wall for v in seen[used:])
        return automatic + levels, used
    over = sum(v > wall for v in seen)
    liftable = sum(v <= wall < v + bonus for v in seen)
    used = min(boosts, liftable)
    return automatic + over + used, used
