"""Advantage as a flat TN modifier (issue 11, section 2).

``advantage_as_tn(system, level)`` answers "which flat TN modifier is Advantage worth at each
TN": for each TN the plain TN whose odds come closest to the Advantage odds, and one shift for
all TNs (least squares), with the fit error shown; for 20 Below and for the rules/003 draft
(Advantages stacking as re-rolls, a bonus on the roll instead of a TN).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tb_playground.engine import (
    success_curve,
)
from tb_playground.engine.roll_over import dice_total_counts
from tb_playground.engine.validation import require_choice, require_int


@dataclass(frozen=True, eq=False)
class AdvantageFit:
    """Which flat modifier an Advantage level is worth at each TN (``advantage_as_tn``).

    Attributes
    ----------
    system : str
        "20 Below" (a TN shift: roll at or under TN + shift) or "roll-over draft" (a bonus
        added to 2d10 against the DC).
    targets : numpy.ndarray
        The TNs (20 Below) or DCs (the draft), shape (n,).
    levels : numpy.ndarray
        The Advantage levels (negative: Disadvantage), shape (m,).
    p_plain : numpy.ndarray
        P(success) of the plain roll at each target, (n,).
    p : numpy.ndarray
        P(success) with each level at each target, (m, n).
    integer_shift, integer_error : numpy.ndarray
        (m, n): the whole-number shift whose plain odds come nearest, and plain odds at the
        shift minus the odds with the level (ties: the smaller shift in size).
    real_shift, real_error : numpy.ndarray
        (m, n): the real shift that fits best by least squares on the plain curve drawn as
        straight lines between whole TNs; the error is that curve at the shift minus the odds
        (0 where the plain curve reaches them, else the gap at its nearest end, 1% or 99%).
    overall_shift, overall_rms : numpy.ndarray
        (m,): one real shift for all targets at once (least squares over the same straight
        line curve) and the root mean square of its errors.
    """

    system: str
    targets: np.ndarray
    levels: np.ndarray
    p_plain: np.ndarray
    p: np.ndarray
    integer_shift: np.ndarray
    integer_error: np.ndarray
    real_shift: np.ndarray
    real_error: np.ndarray
    overall_shift: np.ndarray
    overall_rms: np.ndarray
    shift_word: str = field(default="TN")

    def rows(self) -> list[dict[str, float]]:
        """One row per (level, target): the odds, both shifts and their errors."""
        head = "TN" if self.system == "20 Below" else "DC"
        out = []
        for i, level in enumerate(self.levels):
            for j, t in enumerate(self.targets):
                out.append(
                    {
                        "Advantage": int(level),
                        head: int(t),
                        "Plain": float(self.p_plain[j]),
                        "With it": float(self.p[i, j]),
                        "Whole shift": int(self.integer_shift[i, j]),
                        "Whole shift error": float(self.integer_error[i, j]),
                        "Best shift": float(self.real_shift[i, j]),
                        "Best shift error": float(self.real_error[i, j]),
                    }
                )
        return out


#: Shifts searched (a plain 2d10 moves from 1% to 99% over 19 TNs).
MAX_SHIFT = 40


def _fit(
    targets: np.ndarray, p: np.ndarray, plain_at: Callable[[np.ndarray], np.ndarray]
) -> tuple[np.ndarray, ...]:
    """Integer and real shifts for one level (see ``AdvantageFit``), in increasing-``u`` terms."""
    shifts = np.arange(-MAX_SHIFT, MAX_SHIFT + 1)
    # integer: plain(t + s) nearest p(t), ties to the smaller |s|
    grid = plain_at(targets[None, :] + shifts[:, None])  # (shifts, n)
    gap = np.abs(grid - p[None, :])
    order = np.argsort(np.abs(shifts), kind="stable")
    best = order[np.argmin(gap[order], axis=0)]
    integer_shift = shifts[best]
    integer_error = grid[best, np.arange(targets.size)] - p
    # real, per target: invert the straight-line curve (monotone); clamp where it cannot reach
    real_shift = np.empty(targets.size)
    real_error = np.empty(targets.size)
    for j in range(targets.size):
        values = grid[:, j]
        low, high = values[0], values[-1]
        if low < p[j] < high:
            k = int(np.flatnonzero(values <= p[j])[-1])  # values[k] <= p < values[k + 1]
            frac = (p[j] - values[k]) / (values[k + 1] - values[k])
            real_shift[j], real_error[j] = shifts[k] + frac, 0.0
        else:  # out of the plain curve's reach (or at its end): its nearest end, smallest shift
            end = low if p[j] <= low else high
            flat = shifts[values == end]
            real_shift[j], real_error[j] = flat[np.argmin(np.abs(flat))], end - p[j]
    # one shift for all: piecewise quadratic in s between whole numbers, minimised exactly
    best_s, best_sse = 0.0, math.inf
    for k in shifts[:-1]:
        a = plain_at(targets + k) - p
        b = plain_at(targets + k + 1) - plain_at(targets + k)
        # sum (a + f b)^2, f in [0, 1]
        bb = float(b @ b)
        f = 0.0 if bb == 0 else min(1.0, max(0.0, -float(a @ b) / bb))
        sse = float(((a + f * b) ** 2).sum())
        if sse < best_sse - 1e-15 or (abs(sse - best_sse) <= 1e-15 and abs(k + f) < abs(best_s)):
            best_s, best_sse = float(k + f), sse
    rms = math.sqrt(best_sse / targets.size)
    return integer_shift, integer_error, real_shift, real_error, best_s, rms


def advantage_as_tn(
    system: str = "20 Below",
    targets: np.ndarray | None = None,
    levels: tuple[int, ...] | None = None,
) -> AdvantageFit:
    """Which flat modifier each Advantage level is worth, at each TN (or DC).

    20 Below (RULES.md, Core Roll): Advantage keeps the lowest two of 3d10, Disadvantage the
    highest two, and only the sign counts, so the levels are -1 and +1. The shift ``s`` is a
    TN change: the plain roll at TN ``t + s`` against the level's roll at TN ``t``.

    The draft (rules/003): each Advantage is one more re-roll of the lowest die (they stack).
    The shift is a bonus added to 2d10: the plain roll at DC ``dc - s`` against the level's
    roll at DC ``dc``.

    Parameters
    ----------
    system : {"20 Below", "roll-over draft"}
        The dice system.
    targets : array of int, optional
        TNs 1..20 (default all), or DCs 2..21 (default all).
    levels : tuple of int, optional
        Advantage levels, default (-1, 1) for 20 Below and (-3, -2, -1, 1, 2, 3) for the draft
        (-10..10).

    Returns
    -------
    AdvantageFit
    """
    system = require_choice("system", system, ("20 Below", "roll-over draft"))
    if system == "20 Below":
        targets = np.arange(1, 21) if targets is None else np.asarray(targets)
        levels = (-1, 1) if levels is None else levels
        targets = np.array([require_int("targets", int(t), 1, 20) for t in targets])
        levels = np.array([require_int("levels", int(v), -1, 1) for v in levels])

        def curve(level: int) -> Callable[[np.ndarray], np.ndarray]:
            return lambda u: success_curve(np.asarray(u).ravel(), level).reshape(np.shape(u))

        plain_at = curve(0)
        p = np.array([curve(int(v))(targets) for v in levels])
        u_targets = targets
    else:
        targets = np.arange(2, 22) if targets is None else np.asarray(targets)
        levels = (-3, -2, -1, 1, 2, 3) if levels is None else levels
        targets = np.array([require_int("targets", int(t), 2, 21) for t in targets])
        levels = np.array([require_int("levels", int(v), -10, 10) for v in levels])

        def at_least(level: int) -> Callable[[np.ndarray], np.ndarray]:
            counts, denominator = dice_total_counts(level)
            tail = np.concatenate([np.cumsum(counts[::-1])[::-1], [0]]) / denominator

            def p_of_u(u):  # u = -DC: success rises with u
                u = np.asarray(u)
                return tail[np.clip(-u - 2, 0, 19)]

            return p_of_u

        plain_at = at_least(0)
        u_targets = -targets
        p = np.array([at_least(int(v))(u_targets) for v in levels])
    fits = [_fit(u_targets, p[i], plain_at) for i in range(levels.size)]
    return AdvantageFit(
        system=system,
        targets=targets,
        levels=levels,
        p_plain=plain_at(u_targets),
        p=p,
        integer_shift=np.array([f[0] for f in fits]),
        integer_error=np.array([f[1] for f in fits]),
        real_shift=np.array([f[2] for f in fits]),
        real_error=np.array([f[3] for f in fits]),
        overall_shift=np.array([f[4] for f in fits]),
        overall_rms=np.array([f[5] for f in fits]),
        shift_word="TN" if system == "20 Below" else "bonus",
    )
