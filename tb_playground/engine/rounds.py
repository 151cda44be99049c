"""How many rounds until a track is down, or dead (RULES.md, Attacks and Vitals).

Exact dynamic programmes over the track, one attack a round, every transition from
``vitals.vital_step`` (so the cap at 0, the one level at or below 0, Dying, dead at
``-maximum``, the Poise and Sanity bottoms and Ki prevention are the same rules everywhere).

- ``down_by_round``: the plain form: each round the attack lands with ``p_hit`` and deals
  levels drawn from ``damage`` (an array like ``damage_distribution`` returns).
- ``fight_odds``: the full attack (``AttackProfile``): ordinary hits and the critical band
  with its own damage, Ki boosts spent while the attacker's Ki lasts, the defender's Ki spent
  on prevention by a policy; returns rounds-to-0 and rounds-to-dead distributions and their
  means.

Readings where the texts are silent (RULES.md, Vitals): for Poise and Sanity "dead" means
reaching the bottom (a reset), counted as the end of the fight; nobody spends Ki to climb
back to 1 during the fight. The attacker spends boosts each attack (up to ``boosts``, in the
attack's timing) while its Ki lasts, and nothing else draws on that Ki.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .damage import MAX_BONUS, MAX_DICE, MAX_WALL, TIMINGS, damage_with_ki
from .defense import ToHit
from .validation import (
    require_bool,
    require_choice,
    require_distribution,
    require_int,
    require_probability,
)
from .vitals import KI_POLICIES, MAX_TRACK, VITALS, track_range, vital_step

#: Longest horizon ``down_by_round`` and ``fight_odds`` report round by round.
MAX_ROUNDS = 100_000

#: Largest Ki pool the fight programme tracks.
MAX_KI = 200


def down_by_round(health: int, p_hit: float, damage: np.ndarray, rounds: int) -> np.ndarray:
    """P(track <= 0 by the end of round r), r = 1..rounds (RULES.md, Vitals).

    One attack a round; it lands with ``p_hit`` and then connects ``k`` levels with
    probability ``damage[k]``. One attack never carries the track past 0, so the track is
    "down" exactly when it reaches 0.

    Parameters
    ----------
    health : int
        Levels on the track at the start, 1..100 (its full size, too).
    p_hit : float
        P(an attack lands), 0..1.
    damage : array_like
        P(levels == k), k = 0..len - 1; sums to 1.
    rounds : int
        Horizon, 1..100000.

    Returns
    -------
    numpy.ndarray
        Float array of length ``rounds``, non-decreasing.
    """
    health = require_int("health", health, 1, MAX_TRACK)
    p_hit = require_probability("p_hit", p_hit)
    damage = require_distribution("damage", damage)
    rounds = require_int("rounds", rounds, 1, MAX_ROUNDS)
    # fold levels beyond the track into "health or more": they all take the track to 0
    folded = np.zeros(health + 1)
    np.add.at(folded, np.minimum(np.arange(damage.size), health), damage)
    per_round = p_hit * folded
    per_round[0] += 1.0 - p_hit
    track = np.arange(health + 1)  # index = current level, 0..health
    dest = vital_step(track[:, None], np.arange(health + 1)[None, :], health).current
    dest[0, :] = 0  # down is where we stop counting
    step = np.zeros((health + 1, health + 1))
    np.add.at(step, (np.broadcast_to(track[:, None], dest.shape), dest), per_round[None, :])
    state = np.zeros(health + 1)
    state[health] = 1.0
    out = np.empty(rounds)
    for r in range(rounds):
        state = state @ step
        out[r] = state[0]
    return out


@dataclass(frozen=True)
class AttackProfile:
    """One attack, repeated each round (RULES.md, Attacks).

    Attributes
    ----------
    dice : int
        Damage dice, 0..100.
    wall : int
        The target's wall, 0..10.
    p_hit : float
        P(the attack lands), critical hits included.
    p_critical : float
        P(critical hit), at most ``p_hit``.
    boosts : int
        Ki boosts the attacker spends per attack while its Ki lasts, 0..100.
    bonus : int
        What a boost adds (Ferocity, Presence, Psyche), 0..10.
    timing : {"after", "before"}
        When boosts are chosen (see ``damage``).
    klotho : int
        The attacker's Klotho, added to the rolled dice of a critical hit, 0..10.
    """

    dice: int
    wall: int
    p_hit: float
    p_critical: float = 0.0
    boosts: int = 0
    bonus: int = 0
    timing: str = "after"
    klotho: int = 0

    def __post_init__(self) -> None:
        require_int("dice", self.dice, 0, MAX_DICE)
        require_int("wall", self.wall, 0, MAX_WALL)
        p_hit = require_probability("p_hit", self.p_hit)
        p_critical = require_probability("p_critical", self.p_critical)
        if p_critical > p_hit:
            raise ValueError(f"p_critical must be from 0 to p_hit ({p_hit}), got {p_critical}")
        require_int("boosts", self.boosts, 0, MAX_DICE)
        require_int("bonus", self.bonus, 0, MAX_BONUS)
        require_choice("timing", self.timing, TIMINGS)
        require_int("klotho", self.klotho, 0, MAX_BONUS)

    @classmethod
    def from_to_hit(
        cls,
        to_hit: ToHit,
        dice: int,
        wall: int,
        boosts: int = 0,
        bonus: int = 0,
        timing: str = "after",
        klotho: int = 0,
    ) -> AttackProfile:
        """Build a profile from ``defense.to_hit_odds``: its hit and critical bands."""
        if not isinstance(to_hit, ToHit):
            raise ValueError(f"to_hit must be a ToHit, got {type(to_hit).__name__}")
        return cls(dice, wall, to_hit.p_hit, to_hit.p_critical, boosts, bonus, timing, klotho)

    def level_distribution(self) -> np.ndarray:
        """P(levels == k), k = 0..dice, of one attack (a miss is 0), boosts never running out.

        Misses, ordinary hits and critical hits mixed: what ``down_by_round`` wants with
        ``p_hit=1``.
        """
        return self.outcome_table(self.boosts).sum(axis=1)

    def outcome_table(self, boosts: int) -> np.ndarray:
        """P(levels == k and s Ki spent) of one round's attack with ``boosts`` available.

        A miss counts as 0 levels and 0 Ki. Shape (dice + 1, self.boosts + 1).
        """
        boosts = require_int("boosts", boosts, 0, self.boosts)
        table = np.zeros((self.dice + 1, self.boosts + 1))
        ordinary = damage_with_ki(self.dice, self.wall, boosts, self.bonus, self.timing)
        critical = damage_with_ki(
            self.dice, self.wall, boosts, self.bonus, self.timing, True, self.klotho
        )
        table[:, : boosts + 1] = (self.p_hit - self.p_critical) * ordinary
        table[:, : boosts + 1] += self.p_critical * critical
        table[0, 0] += 1.0 - self.p_hit
        return table


@dataclass(frozen=True)
class FightOdds:
    """Rounds until a track is down and until it is dead (``fight_odds``).

    Attributes
    ----------
    rounds : int
        The horizon reported round by round.
    p_down_by : numpy.ndarray
        P(track <= 0 by the end of round r), r = 1..rounds.
    p_dead_by : numpy.ndarray
        P(dead by the end of round r): Health at ``-maximum``; for Poise and Sanity, the
        bottom reached (a reset).
    mean_rounds_to_down, mean_rounds_to_dead : float
        Expected rounds, over an unbounded fight (iterated until the unresolved mass is below
        the tolerance). ``inf`` when some fights can never get there; ``nan`` if not settled
        within ``max_rounds``.
    attacker_ki_spent : numpy.ndarray
        Expected attacker Ki spent on boosts by the end of round r.
    defender_ki_spent : numpy.ndarray
        Expected defender Ki spent on prevention by the end of round r.
    already_down : bool
        The track started at or below 0 (rounds to 0 is 0).
    """

    rounds: int
    p_down_by: np.ndarray
    p_dead_by: np.ndarray
    mean_rounds_to_down: float
    mean_rounds_to_dead: float
    attacker_ki_spent: np.ndarray
    defender_ki_spent: np.ndarray

    already_down: bool = False

    @property
    def p_down_at(self) -> np.ndarray:
        """P(the track first reaches 0 in round r), r = 1..rounds (all 0 if already down)."""
        if self.already_down:
            return np.zeros(self.rounds)
        return np.diff(self.p_down_by, prepend=0.0)

    @property
    def p_dead_at(self) -> np.ndarray:
        """P(death, or the bottom, comes in round r), r = 1..rounds."""
        return np.diff(self.p_dead_by, prepend=0.0)

    def _repr_html_(self) -> str:
        """Round by round: the chance the track is down, and dead, by the end of it."""
        from ..display import html_table, percent

        def mean(value: float) -> str:
            if np.isinf(value):
                return "never certain (some fights never get there)"
            if np.isnan(value):
                return "not settled"
            return f"{value:.2f} rounds"

        shown = min(self.rounds, 12)
        rows = [
            [
                r + 1,
                percent(self.p_down_by[r]),
                percent(self.p_dead_by[r]),
                f"{self.attacker_ki_spent[r]:.2f}",
                f"{self.defender_ki_spent[r]:.2f}",
            ]
            for r in range(shown)
        ]
        more = f" (the first {shown} of {self.rounds} rounds)" if shown < self.rounds else ""
        return html_table(
            [
                "By the end of round",
                "Down (0 or below)",
                "Dead, or at the bottom",
                "Attacker Ki spent",
                "Defender Ki spent",
            ],
            rows,
            caption=f"Rounds until the track is down{more}",
            note=f"On average: down after {mean(self.mean_rounds_to_down)}, dead (for Poise "
            f"and Sanity, at the bottom) after {mean(self.mean_rounds_to_dead)}. Ki columns "
            "are the expected totals spent so far.",
        )


def fight_odds(
    attack: AttackProfile,
    maximum: int,
    rounds: int = 20,
    *,
    start: int | None = None,
    vital: str = "health",
    attacker_ki: int | None = None,
    defender_ki: int = 0,
    ki_policy: str = "none",
    variant_002: bool = False,
    tolerance: float = 1e-12,
    max_rounds: int = MAX_ROUNDS,
) -> FightOdds:
    """Exact rounds-to-0 and rounds-to-dead odds of one attacker against one track.

    Parameters
    ----------
    attack : AttackProfile
        The attack made once a round.
    maximum : int
        The track's full size, 1..100 (dead at ``-maximum``).
    rounds : int
        Horizon reported round by round, 1..100000.
    start : int, optional
        The track at the start (default full); within ``vitals.track_range``. At or below 0
        the character is already down.
    vital : {"health", "poise", "sanity"}
        Which track the attack hits.
    attacker_ki : int, optional
        The attacker's Ki for boosts, 0..200; ``None`` means boosts never run out.
    defender_ki : int
        The defender's Ki for prevention, 0..200.
    ki_policy : {"none", "all", "stay_up", "stay_alive"}
        How the defender spends it (``vitals``).
    variant_002 : bool
        Variant 002 Poise (stops at 0; Ki cannot prevent it).
    tolerance : float
        The means are summed until the unresolved probability is below this.
    max_rounds : int
        Give up on the means (``nan``) after this many rounds.

    Returns
    -------
    FightOdds
    """
    if not isinstance(attack, AttackProfile):
        raise ValueError(f"attack must be an AttackProfile, got {type(attack).__name__}")
    vital = require_choice("vital", vital, VITALS)
    maximum = require_int("maximum", maximum, 1, MAX_TRACK)
    variant_002 = require_bool("variant_002", variant_002)
    low, high = track_range(vital, maximum, variant_002)
    start = high if start is None else require_int("start", start, low, high)
    rounds = require_int("rounds", rounds, 1, MAX_ROUNDS)
    unlimited = attacker_ki is None
    attacker_ki = 0 if unlimited else require_int("attacker_ki", attacker_ki, 0, MAX_KI)
    defender_ki = require_int("defender_ki", defender_ki, 0, MAX_KI)
    ki_policy = require_choice("ki_policy", ki_policy, KI_POLICIES)
    tolerance = require_probability("tolerance", tolerance)
    if tolerance == 0.0:
        raise ValueError("tolerance must be a probability above 0 and at most 1, got 0.0")
    max_rounds = require_int("max_rounds", max_rounds, rounds, MAX_ROUNDS)

    # --- the attacker's side: outcome tables by Ki left ---------------------------------
    n_boost = attack.boosts + 1
    if unlimited or attack.boosts == 0:
        ki_levels = 1
        tables = attack.outcome_table(attack.boosts)[None]  # (1, L, S)
    else:
        ki_levels = attacker_ki + 1
        by_budget = np.stack([attack.outcome_table(b) for b in range(n_boost)])
        tables = by_budget[np.minimum(np.arange(ki_levels), attack.boosts)]  # (A, L, S)
    track_spend = ki_levels > 1
    spend = tables.sum(axis=2)  # (A, L)
    ki_per_round = float((tables[0] * np.arange(n_boost)).sum()) if unlimited else 0.0
    n_levels = attack.dice + 1

    # --- the defender's side: where (track, Ki) goes for each level count ----------------
    bottom = -maximum
    tracks = np.arange(min(low, bottom), start + 1)  # includes the bottom state
    n_track = tracks.size
    preventing = ki_policy != "none" and defender_ki > 0
    ki_states = defender_ki + 1 if preventing else 1
    t_grid = tracks[:, None, None]
    g_grid = np.arange(ki_states)[None, :, None]
    l_grid = np.arange(n_levels)[None, None, :]
    step = vital_step(t_grid, l_grid, maximum, vital, g_grid, ki_policy, variant_002)
    new_track = np.where(step.bottomed, bottom, step.current)
    new_ki = g_grid - step.prevented
    absorbing = t_grid <= bottom
    new_track = np.where(absorbing, t_grid, new_track)
    new_ki = np.where(absorbing, g_grid, new_ki)
    dest = ((new_track - tracks[0]) * ki_states + new_ki).reshape(-1)  # over (t, g, l)
    order = np.argsort(dest, kind="stable")
    targets, starts = np.unique(dest[order], return_index=True)
    n_tg = n_track * ki_states

    down_rows = np.repeat(tracks <= 0, ki_states)
    dead_rows = np.repeat(tracks <= bottom, ki_states)
    defender_spent = np.tile(defender_ki - np.arange(ki_states), n_track).astype(float)
    defender_spent = defender_spent if preventing else np.zeros(n_tg)
    attacker_spent = (attacker_ki - np.arange(ki_levels)).astype(float)

    # states that can never move again: no outcome changes (track, Ki) or spends attacker Ki
    moves = (dest.reshape(n_tg, n_levels) != np.arange(n_tg)[:, None]).astype(float)
    spent_any = tables[:, :, 1:].sum(axis=2) if track_spend else np.zeros((1, n_levels))
    leave = moves @ tables.sum(axis=2).T + (1.0 - moves) @ spent_any.T  # (TG, A)
    stuck = leave == 0.0

    state = np.zeros((n_tg, ki_levels))
    state[(start - tracks[0]) * ki_states + (ki_states - 1), ki_levels - 1] = 1.0

    p_down = np.empty(rounds)
    p_dead = np.empty(rounds)
    a_spent = np.empty(rounds)
    d_spent = np.empty(rounds)
    mean_down = 0.0
    mean_dead = 0.0
    unlimited_spent = 0.0
    settled = False
    for r in range(max_rounds):
        up_mass = state[~down_rows].sum()
        alive_mass = state[~dead_rows].sum()
        mean_down += up_mass
        mean_dead += alive_mass
        if r >= rounds:
            moving_alive = state[~dead_rows][~stuck[~dead_rows]].sum()
            if moving_alive < tolerance:
                settled = True
                break
        live = np.where(dead_rows[:, None], 0.0, state)  # nobody attacks the dead
        moved = np.zeros((n_tg, n_levels, ki_levels))
        if track_spend:
            for s in range(min(n_boost, ki_levels)):
                moved[:, :, : ki_levels - s] += live[:, None, s:] * tables[s:, :, s].T[None]
        else:
            moved[:, :, 0] = live[:, :1] * spend[0][None, :]
        flat = moved.reshape(n_tg * n_levels, ki_levels)[order]
        nxt = np.zeros((n_tg, ki_levels))
        nxt[targets] = np.add.reduceat(flat, starts, axis=0)
        nxt[dead_rows] += state[dead_rows]
        state = nxt
        if r < rounds:
            p_down[r] = state[down_rows].sum()
            p_dead[r] = state[dead_rows].sum()
            d_spent[r] = defender_spent @ state.sum(axis=1)
            unlimited_spent += ki_per_round * alive_mass
            a_spent[r] = attacker_spent @ state.sum(axis=0) if track_spend else unlimited_spent
    stuck_up = (state * stuck)[~down_rows].sum()
    stuck_alive = (state * stuck)[~dead_rows].sum()
    if not settled:
        mean_down = mean_dead = float("nan")
    if stuck_up > 0.0:
        mean_down = float("inf")
    if stuck_alive > 0.0:
        mean_dead = float("inf")
    return FightOdds(
        rounds=rounds,
        p_down_by=p_down,
        p_dead_by=p_dead,
        mean_rounds_to_down=float(mean_down),
        mean_rounds_to_dead=float(mean_dead),
        attacker_ki_spent=a_spent,
        defender_ki_spent=d_spent,
        already_down=start <= 0,
    )
