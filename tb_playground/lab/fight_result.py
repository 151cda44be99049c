"""What the fight simulator found, fight by fight and summed up with 95% intervals.

``EncounterResult`` holds each fight's winner, the round it ended in, the tracks at the end, the
levels each combatant's attacks took and the rounds each one went down and died in; it reads
them as chances with Wilson intervals (``wilson_interval``) and means with normal intervals. A
fight still undecided after ``max_rounds`` rounds is a **draw**, in no side's ``p_win``.

The characters' fates follow the track (RULES.md "Vitals"; rules/000 "Harm and Recovery"):
at 0 Health or below a character is down, below 0 Dying, at the bottom of its track (the
simulator's ``dead_at``) dead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

#: z of the intervals ``EncounterResult`` reports (95%).
Z95 = 1.959963984540054


def wilson_interval(successes, trials, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default)."""
    successes = float(successes)
    trials = float(trials)
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes <= 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes >= trials else min(1.0, max(p, centre + half))
    return (float(low), float(high))


def _mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, tuple[float, float]]:
    if values.size == 0:
        return float("nan"), (float("nan"), float("nan"))
    mean = float(values.mean())
    if values.size < 2:
        return mean, (mean, mean)
    half = z * float(values.std(ddof=1)) / np.sqrt(values.size)
    return mean, (mean - half, mean + half)


@dataclass(frozen=True)
class RoundsSummary:
    """How long the fights lasted.

    Attributes
    ----------
    distribution : numpy.ndarray
        P(the fight ends in round r), r = 1..max_rounds (a fight over before it starts counts
        in no round).
    p_timeout : float
        P(still undecided after ``max_rounds``): a draw.
    mean : float
        Mean rounds of the fights that ended (nan if none did).
    mean_interval : tuple of float
        Its 95% interval (normal approximation).
    """

    distribution: np.ndarray
    p_timeout: float
    mean: float
    mean_interval: tuple[float, float]


@dataclass(frozen=True, eq=False)
class EncounterResult:
    """What ``simulate`` found, fight by fight and summed up with 95% intervals.

    Attributes
    ----------
    fights, seed, max_rounds, end : as passed.
    sides, names, ids : list of str
        The sides, and each combatant's name and id, in the encounter's order.
    combatant_sides : list of str
        Each combatant's side, in the encounter's order.
    policies : dict
        Each policy, resolved per combatant id.
    winner : numpy.ndarray
        (fights,) index into ``sides`` of the side that won, -1 for a draw.
    rounds_taken : numpy.ndarray
        (fights,) the round the fight ended in (``max_rounds`` for a timeout).
    timed_out : numpy.ndarray
        (fights,) bool.
    final : numpy.ndarray
        (fights, combatants, 3) Health, Poise and Sanity at the end.
    damage : numpy.ndarray
        (fights, combatants) levels each combatant's attacks took from others (Poise's
        Sanity cost included).
    out_round, dead_round : numpy.ndarray
        (fights, combatants) the round each one stopped being able to act / died; -1 never,
        0 from the start.
    attacks : int
        Attacks resolved (each to-hit roll, or automatic hit), over all fights.
    """

    fights: int
    seed: object
    max_rounds: int
    end: str
    sides: list[str]
    names: list[str]
    ids: list[str]
    is_character: np.ndarray
    policies: dict
    winner: np.ndarray
    rounds_taken: np.ndarray
    timed_out: np.ndarray
    final: np.ndarray
    damage: np.ndarray
    out_round: np.ndarray
    dead_round: np.ndarray
    attacks: int
    dead_at: np.ndarray = field(repr=False)
    combatant_sides: list[str] = field(default_factory=list)

    @cached_property
    def p_win(self) -> dict[str, float]:
        """Side name -> P(that side wins). Sums to 1 - ``p_draw``."""
        return {s: float(np.mean(self.winner == i)) for i, s in enumerate(self.sides)}

    @cached_property
    def p_win_interval(self) -> dict[str, tuple[float, float]]:
        """Side name -> Wilson 95% interval of ``p_win``."""
        return {
            s: wilson_interval(np.sum(self.winner == i), self.fights)
            for i, s in enumerate(self.sides)
        }

    @property
    def p_draw(self) -> float:
        """P(no side wins): the fight is still undecided after ``max_rounds``."""
        return float(np.mean(self.winner < 0))

    @property
    def p_draw_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of ``p_draw``."""
        return wilson_interval(np.sum(self.winner < 0), self.fights)

    @cached_property
    def rounds(self) -> RoundsSummary:
        """The rounds distribution and its mean with an interval."""
        ended = ~self.timed_out & (self.rounds_taken >= 1)
        counts = np.bincount(self.rounds_taken[ended], minlength=self.max_rounds + 1)
        mean, interval = _mean_interval(self.rounds_taken[ended].astype(float))
        return RoundsSummary(
            distribution=counts[1 : self.max_rounds + 1] / self.fights,
            p_timeout=float(np.mean(self.timed_out)),
            mean=mean,
            mean_interval=interval,
        )

    def _any_character(self, hit: np.ndarray) -> tuple[float, tuple[float, float]]:
        count = int(np.sum(np.any(hit[:, self.is_character], axis=1)))
        return count / self.fights, wilson_interval(count, self.fights)

    @cached_property
    def _character_odds(self) -> dict[str, tuple[float, tuple[float, float]]]:
        health = self.final[:, :, 0]
        dead = health <= self.dead_at[None, :]
        return {
            "down": self._any_character(health <= 0),
            "dying": self._any_character((health < 0) & ~dead),
            "dead": self._any_character(dead),
        }

    @property
    def p_character_down(self) -> float:
        """P(any character ends the fight at 0 Health or below)."""
        return self._character_odds["down"][0]

    @property
    def p_character_down_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of ``p_character_down``."""
        return self._character_odds["down"][1]

    @property
    def p_character_dying(self) -> float:
        """P(any character ends the fight Dying: below 0 Health, not dead)."""
        return self._character_odds["dying"][0]

    @property
    def p_character_dying_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of ``p_character_dying``."""
        return self._character_odds["dying"][1]

    @property
    def p_character_dead(self) -> float:
        """P(any character ends the fight dead)."""
        return self._character_odds["dead"][0]

    @property
    def p_character_dead_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of ``p_character_dead``."""
        return self._character_odds["dead"][1]

    @cached_property
    def damage_share(self) -> dict[str, float]:
        """Combatant id -> its share of all the levels taken, over all fights."""
        total = self.damage.sum()
        if total == 0:
            return dict.fromkeys(self.ids, 0.0)
        return {cid: float(self.damage[:, i].sum() / total) for i, cid in enumerate(self.ids)}

    @cached_property
    def damage_share_interval(self) -> dict[str, tuple[float, float]]:
        """Combatant id -> 95% interval of its share (ratio estimator, delta method)."""
        per_fight = self.damage.sum(axis=1).astype(float)
        mean_total = per_fight.mean()
        out = {}
        for i, cid in enumerate(self.ids):
            share = self.damage_share[cid]
            if mean_total == 0:
                out[cid] = (0.0, 0.0)
                continue
            resid = self.damage[:, i] - share * per_fight
            half = Z95 * resid.std(ddof=1) / (mean_total * np.sqrt(self.fights))
            out[cid] = (max(0.0, share - half), min(1.0, share + half))
        return out

    def summary(self) -> str:
        """The result in plain words."""
        lines = []
        for side in self.sides:
            low, high = self.p_win_interval[side]
            lines.append(f"{side} wins {self.p_win[side]:.1%} ({low:.1%} to {high:.1%})")
        lines.append(f"Draw (still going after {self.max_rounds} rounds) {self.p_draw:.1%}")
        r = self.rounds
        lines.append(
            f"Rounds: {r.mean:.2f} on average "
            f"({r.mean_interval[0]:.2f} to {r.mean_interval[1]:.2f})"
        )
        lines.append(
            f"Any character at 0 Health or below {self.p_character_down:.1%}, Dying "
            f"{self.p_character_dying:.1%}, dead {self.p_character_dead:.1%}"
        )
        return "\n".join(lines)
