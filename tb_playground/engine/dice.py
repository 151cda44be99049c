"""Exact distributions of the kept 2d10 total (RULES.md, Core Roll).

A plain roll is 2d10. Advantage rolls 3d10 and keeps the lowest two; Disadvantage rolls
3d10 and keeps the highest two. Advantage is binary, so there is never a 4d10 pool.

Every distribution here is a vector of integer *counts* over the kept totals 2..20 with a
common denominator (100 for two dice, 1000 for three), so all downstream probabilities can
be rational-exact.
"""

from __future__ import annotations

import numpy as np

#: The kept totals a Core Roll can show, in order: 2, 3, ..., 20.
TOTALS = np.arange(2, 21)

#: Faces of one d10.
FACES = np.arange(1, 11)


def _kept_total_counts(sign: int) -> np.ndarray:
    """Count the ways to show each kept total: plain (0), Advantage (+1), Disadvantage (-1)."""
    if sign == 0:
        a, b = np.meshgrid(FACES, FACES, indexing="ij")
        kept = (a + b).ravel()
    else:
        pool = np.stack(np.meshgrid(FACES, FACES, FACES, indexing="ij"), axis=-1).reshape(-1, 3)
        pool.sort(axis=1)
        kept = pool[:, :2].sum(axis=1) if sign > 0 else pool[:, 1:].sum(axis=1)
    counts = np.bincount(kept, minlength=21)[2:21].astype(np.int64)
    counts.setflags(write=False)
    return counts


#: Integer counts of each kept total, keyed by the sign of the net Advantage.
KEPT_TOTAL_COUNTS: dict[int, np.ndarray] = {s: _kept_total_counts(s) for s in (-1, 0, 1)}

#: The denominator matching each entry of ``KEPT_TOTAL_COUNTS`` (10 ** number of dice).
KEPT_TOTAL_DENOMINATOR: dict[int, int] = {-1: 1000, 0: 100, 1: 1000}


def advantage_sign(advantage: int) -> int:
    """Reduce a net sum of Advantage sources to the roll it gives: -1, 0 or +1.

    RULES.md, Core Roll: sources count +1 / -1 and are summed; > 0 is Advantage,
    0 normal, < 0 Disadvantage. Binary: never 4d10.
    """
    return (advantage > 0) - (advantage < 0)
