"""One round of a chase: both Chase rolls, how far each side gets, the new gap.

Rule: rules/000 "Chases", rules/001 "Chases". Readings: docs/notes/0006-recovery-fate-round.md,
"Chases".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .character_stats import MAX_EXHAUSTED
from .core_roll import check_odds
from .validation import require_int

#: Difficulty of a Chase roll before the GM makes the route harder (rules/000, 001 "Chases").
CHASE_DIFFICULTY = 6

#: A side's Chase roll result, as it moves that side.
CHASE_RESULTS = ("critical", "success", "failure")

#: Caught at this gap or less, in metres.
CAUGHT_AT = 1


@dataclass(frozen=True)
class ChaseOutcome:
    """One pair of Chase roll results and what it does.

    Attributes
    ----------
    pursuer, quarry : str
        Each side's result, from ``CHASE_RESULTS``.
    probability : Fraction
        Exact chance of this pair.
    pursuer_moved, quarry_moved : Fraction
        Metres each side covers this round.
    gap_after : Fraction
        Metres between them afterwards.
    caught : bool
        ``gap_after`` is 1 m or less.
    """

    pursuer: str
    quarry: str
    probability: Fraction
    pursuer_moved: Fraction
    quarry_moved: Fraction
    gap_after: Fraction
    caught: bool


@dataclass(frozen=True)
class ChaseRound:
    """Every outcome of one chase round (``chase_round``).

    Attributes
    ----------
    gap_before : int
        Metres between the sides before the round.
    outcomes : tuple of ChaseOutcome
        The nine pairs of results, pursuer's result first, in ``CHASE_RESULTS`` order.
    """

    gap_before: int
    outcomes: tuple[ChaseOutcome, ...]

    @property
    def exact_caught(self) -> Fraction:
        """Exact chance the quarry is caught this round."""
        return sum((o.probability for o in self.outcomes if o.caught), Fraction(0))

    @property
    def p_caught(self) -> float:
        """Chance the quarry is caught this round."""
        return float(self.exact_caught)

    @property
    def gaps(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """The new gap's distribution: (metres, exact chance) pairs, nearest first."""
        dist: dict[Fraction, Fraction] = {}
        for o in self.outcomes:
            dist[o.gap_after] = dist.get(o.gap_after, Fraction(0)) + o.probability
        return tuple(sorted((g, p) for g, p in dist.items() if p))

    @property
    def expected_gap(self) -> float:
        """Mean gap after the round, in metres."""
        return float(sum(o.probability * o.gap_after for o in self.outcomes))


def chase_result_odds(
    element: int,
    tier: int = 1,
    advantage: int = 0,
    difficulty: int = CHASE_DIFFICULTY,
    exhausted: int = 0,
) -> dict[str, Fraction]:
    """Exact chance of each Chase roll result for one side (rules/000, 001 "Chases").

    Parameters
    ----------
    element : int
        The Element of the Skill (Athletics, Driving, Piloting), 0..10.
    tier : int
        That Skill's training tier, 0..4.
    advantage : int
        Net situational Advantage sources (gear that helps counts; speed does not).
    difficulty : int
        6, or one or two steps harder for a bad route (0..10).
    exhausted : int
        Exhausted level 0..5: from 1 up, the roll is at Disadvantage (one more source).

    Returns
    -------
    dict of str to Fraction
        Keys ``CHASE_RESULTS``, summing to 1.
    """
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    advantage = require_int("advantage", advantage)
    odds = check_odds(element, difficulty, tier, advantage - (exhausted >= 1))
    critical = odds.exact("critical")
    success = odds.exact("success")
    return {"critical": critical, "success": success - critical, "failure": 1 - success}


def _moved(move: int, mine: str, theirs: str) -> Fraction:
    if mine == "critical":
        return Fraction(3, 2) * move
    if mine == "failure" and theirs != "failure":
        return Fraction(move, 2)
    return Fraction(move)


def chase_round(
    *,
    gap_m: int,
    pursuer_move_m: int,
    quarry_move_m: int,
    pursuer_element: int,
    quarry_element: int,
    pursuer_tier: int = 1,
    quarry_tier: int = 1,
    pursuer_advantage: int = 0,
    quarry_advantage: int = 0,
    pursuer_difficulty: int = CHASE_DIFFICULTY,
    quarry_difficulty: int = CHASE_DIFFICULTY,
    pursuer_exhausted: int = 0,
    quarry_exhausted: int = 0,
) -> ChaseRound:
    """Exact odds of one chase round (rules/000 "Chases"; rules/001 "Chases").

    Parameters
    ----------
    gap_m : int
        Metres between pursuer and quarry, 0..100000.
    pursuer_move_m, quarry_move_m : int
        Each side's declared movement this round (a move, a Dash or a Sprint), 0..100000.
    pursuer_element, quarry_element : int
        The Element of each side's Chase Skill, 0..10.
    pursuer_tier, quarry_tier : int
        Each side's training tier in it, 0..4.
    pursuer_advantage, quarry_advantage : int
        Each side's net situational Advantage sources.
    pursuer_difficulty, quarry_difficulty : int
        6, or harder for a bad route (``chase_result_odds``).
    pursuer_exhausted, quarry_exhausted : int
        Each side's Exhausted level, 0..5.

    Returns
    -------
    ChaseRound
    """
    gap = require_int("gap_m", gap_m, 0, 100000)
    p_move = require_int("pursuer_move_m", pursuer_move_m, 0, 100000)
    q_move = require_int("quarry_move_m", quarry_move_m, 0, 100000)
    pursuer = chase_result_odds(
        pursuer_element, pursuer_tier, pursuer_advantage, pursuer_difficulty, pursuer_exhausted
    )
    quarry = chase_result_odds(
        quarry_element, quarry_tier, quarry_advantage, quarry_difficulty, quarry_exhausted
    )
    outcomes = []
    for pr in CHASE_RESULTS:
        for qr in CHASE_RESULTS:
            p_moved = _moved(p_move, pr, qr)
            q_moved = _moved(q_move, qr, pr)
            after = max(Fraction(0), gap + q_moved - p_moved)
            outcomes.append(
                ChaseOutcome(
                    pr, qr, pursuer[pr] * quarry[qr], p_moved, q_moved, after, after <= CAUGHT_AT
                )
            )
    return ChaseRound(gap, tuple(outcomes))
