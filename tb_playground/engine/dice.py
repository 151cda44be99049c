"""Exact distributions of the kept 2d10 total, plain, with Advantage or Disadvantage.

Rule: RULES.md, Core Roll. Each distribution is integer counts over the totals 2..20 (out of
100 or 1000), so every probability downstream can be exact. Notes: docs/notes/0001-foundation.md.
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
