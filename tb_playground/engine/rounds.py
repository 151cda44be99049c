"""How many rounds until a track is down, or dead: exact absorbing Markov chains.

Every transition comes from ``vitals.vital_step``. Rule: RULES.md, Attacks, Vitals, Combat round.
Readings (how a Social or Mental fight ends, Ki in a fight): docs/notes/0003-attacks.md and
docs/notes/0005-readings-and-fights.md, "The exact fight".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..formatting import html_table, percent
from .damage import DamageRoll
from .defense import ToHit
from .round_budget import BRACKETS
from .validation import (
    require_bool,
    require_choice,
    require_distribution,
    require_int,
    require_probability,
)
from .vitals import KI_POLICIES, MAX_TRACK, VITALS, hit_room, track_range, vital_step

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
        Ki boosts the attacker spends per attack while its Ki lasts, 0..100 (after the roll,
        ``fight_odds`` spends only those whose levels the track still loses: ``hit_room``).
    bonus : int
        What a boost adds (Ferocity, Presence, Psyche), 0..10.
    timing : {"after", "before"}
        When boosts are chosen (see ``damage``).
    klotho : int
        The attacker's Klotho, added to the rolled dice of a critical hit, 0..10.
    p_catastrophe : float
        P(catastrophic failure, a kept 20): a miss that leaves the attacker Off Balance
        (rules/000 "Critical Success in Combat"; RULES.md, Combat round). At most
        ``1 - p_hit``.
    off_balance : AttackProfile, optional
        The same attack made Off Balance, at one more Disadvantage source (its own hit,
        critical and catastrophe bands; the same dice, wall, boosts, bonus, timing and Klotho).
        ``fight_odds`` plays Off Balance only when this is given.
    """

    dice: int
    wall: int
    p_hit: float
    p_critical: float = 0.0
    boosts: int = 0
    bonus: int = 0
    timing: str = "after"
    klotho: int = 0
    p_catastrophe: float = 0.0
    off_balance: AttackProfile | None = None

    def __post_init__(self) -> None:
        for field in ("dice", "wall", "boosts", "bonus", "timing", "klotho"):
            DamageRoll.check(field, getattr(self, field))
        p_hit = require_probability("p_hit", self.p_hit)
        p_critical = require_probability("p_critical", self.p_critical)
        if p_critical > p_hit:
            raise ValueError(f"p_critical must be from 0 to p_hit ({p_hit}), got {p_critical}")
        p_catastrophe = require_probability("p_catastrophe", self.p_catastrophe)
        if p_catastrophe > 1.0 - p_hit + 1e-12:
            raise ValueError(
                f"p_catastrophe must be from 0 to 1 - p_hit ({1.0 - p_hit}), got {p_catastrophe}"
            )
        other = self.off_balance
        if other is not None:
            if not isinstance(other, AttackProfile):
                raise ValueError(
                    f"off_balance must be an AttackProfile or None, got {type(other).__name__}"
                )
            same = ("dice", "wall", "boosts", "bonus", "timing", "klotho")
            if any(getattr(other, n) != getattr(self, n) for n in same) or other.off_balance:
                raise ValueError(
                    "off_balance must be the same attack (dice, wall, boosts, bonus, timing, "
                    "klotho) with its own to-hit bands, and no off_balance of its own"
                )

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
        off_balance_to_hit: ToHit | None = None,
    ) -> AttackProfile:
        """Build a profile from ``defense.to_hit_odds``: its hit, critical and catastrophe bands.

        ``off_balance_to_hit`` is the same roll at one more Disadvantage source; given, the
        profile carries the Off Balance attack too (``off_balance``).
        """
        off_balance = None
        if off_balance_to_hit is not None:
            off_balance = cls.from_to_hit(
                off_balance_to_hit, dice, wall, boosts, bonus, timing, klotho
            )
        if not isinstance(to_hit, ToHit):
            raise ValueError(f"to_hit must be a ToHit, got {type(to_hit).__name__}")
        return cls(
            dice,
            wall,
            to_hit.p_hit,
            to_hit.p_critical,
            boosts,
            bonus,
            timing,
            klotho,
            min(to_hit.p_catastrophe, 1.0 - to_hit.p_hit),
            off_balance,
        )

    def roll(self, boosts: int, critical: bool = False) -> DamageRoll:
        """The attack's damage roll with ``boosts`` available (an ordinary or a critical hit)."""
        return DamageRoll(
            self.dice, self.wall, boosts, self.bonus, self.timing, critical, self.klotho
        )

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
        ordinary = self.roll(boosts).joint()
        critical = self.roll(boosts, critical=True).joint()
        table[:, : boosts + 1] = (self.p_hit - self.p_critical) * ordinary
        table[:, : boosts + 1] += self.p_critical * critical
        table[0, 0] += 1.0 - self.p_hit
        return table


#: Attacks a round in each Bracket: Normal may hold two ("two other actions and no move").
ATTACKS_PER_ROUND = {"fast": 1, "normal": 2, "slow": 1}

#: How many steps a declared Bracket can be bumped up, 1 Ki a step (Slow to Normal to Fast).
BUMP_STEPS = {"fast": 0, "normal": 1, "slow": 2}


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
        P(dead by the end of round r): Health at ``-maximum``; Sanity at its bottom; for
        Poise, the Sanity track at its bottom through the Sanity levels Poise's bottoms cost.
    mean_rounds_to_down, mean_rounds_to_dead : float
        Expected rounds over an unbounded fight, solved exactly from the absorbing chain.
        ``inf`` when some fights never get there.
    attacker_ki_spent : numpy.ndarray
        Expected attacker Ki spent on boosts and Bracket bumps by the end of round r.
    defender_ki_spent : numpy.ndarray
        Expected defender Ki spent on prevention by the end of round r.
    already_down : bool
        The track started at or below 0 (rounds to 0 is 0).
    sanity_lost : numpy.ndarray, optional
        Poise fights: expected Sanity levels lost by the end of round r (Poise at the bottom
        costs one, rules/000); zeros otherwise.
    """

    rounds: int
    p_down_by: np.ndarray
    p_dead_by: np.ndarray
    mean_rounds_to_down: float
    mean_rounds_to_dead: float
    attacker_ki_spent: np.ndarray
    defender_ki_spent: np.ndarray

    already_down: bool = False
    sanity_lost: np.ndarray | None = None

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


@dataclass(frozen=True)
class _Defender:
    """The defender's states (track, Sanity, Ki left) and where each level count sends them."""

    track: np.ndarray  # (D,) the attacked track
    sanity: np.ndarray  # (D,) Sanity (Poise fights), else 0
    ki: np.ndarray  # (D,) Ki left for prevention
    dead: np.ndarray  # (D,) bool
    down: np.ndarray  # (D,) bool
    dest: np.ndarray  # (D, K) state after an attack connecting k levels
    cap: np.ndarray  # (D,) level counts >= cap all lead where cap does
    progress: np.ndarray  # (D,) track index + width * (Sanity index + Ki): never rises


def _defender(vital, maximum, start, variant, ki_states, policy, sanity_max, sanity_start, k_max):
    poise_sanity = vital == "poise" and not variant
    if vital == "poise":
        low = 0 if variant else -(maximum - 1)
    else:
        low = -maximum  # Health rests dead there; for Sanity it stands for the bottom reached
    t_vals = np.arange(low, max(start, 0) + 1 if poise_sanity else start + 1)  # resets to 0
    s_vals = np.arange(-sanity_max, sanity_start + 1) if poise_sanity else np.zeros(1, int)
    g_vals = np.arange(ki_states)
    t, s, g = (x.reshape(-1) for x in np.meshgrid(t_vals, s_vals, g_vals, indexing="ij"))
    if poise_sanity:
        dead = s <= -sanity_max
    elif vital == "poise":
        dead = np.zeros(t.size, dtype=bool)
    else:
        dead = t <= -maximum
    levels = np.arange(k_max + 1)[None, :]
    step = vital_step(t[:, None], levels, maximum, vital, g[:, None], policy, variant)
    new_t = step.current
    new_g = g[:, None] - step.prevented
    new_s = np.broadcast_to(s[:, None], new_t.shape)
    if vital != "poise":
        new_t = np.where(step.bottomed, -maximum, new_t)
    if poise_sanity:
        # rules/000: Poise at the bottom resets to 0 and costs a Sanity level; 1 Ki may
        # prevent that level like any other (the same policy, on the Sanity track).
        lost = step.sanity_loss.astype(bool)
        s_step = vital_step(
            np.where(dead[:, None], 0, new_s), lost.astype(np.int64), sanity_max, "sanity",
            np.maximum(new_g, 0), policy, variant,
        )  # fmt: skip
        new_s = np.where(lost, np.where(s_step.bottomed, -sanity_max, s_step.current), new_s)
        new_g = new_g - np.where(lost, s_step.prevented, 0)
    width = t_vals.size
    index = ((new_t - low) * s_vals.size + (new_s - s_vals[0])) * ki_states + new_g
    own = np.arange(t.size)
    dest = np.where(dead[:, None], own[:, None], index)
    cap = np.where(dead, 0, np.minimum(hit_room(t, maximum, vital, variant), k_max))
    progress = (t - low) + width * ((s - s_vals[0]) + g)
    return _Defender(t, s, g, dead, (t <= 0) | dead, dest, cap, progress)


def _reachable(defender: _Defender, start_d: int) -> tuple[_Defender, int]:
    """Only the defender states some fight from ``start_d`` can reach (any level count).

    Ki goes to the Poise level before the Sanity one, so once Sanity has lost a level the
    defender's Ki is spent: most (Sanity, Ki) pairs are never reached.
    """
    seen = np.zeros(defender.dead.size, dtype=bool)
    seen[start_d] = True
    frontier = np.array([start_d])
    while frontier.size:
        nxt = np.unique(defender.dest[frontier])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    keep = np.flatnonzero(seen)
    new_index = np.cumsum(seen) - 1
    sub = _Defender(
        *(x[keep] for x in (defender.track, defender.sanity, defender.ki, defender.dead)),
        defender.down[keep],
        new_index[defender.dest[keep]],
        defender.cap[keep],
        defender.progress[keep],
    )
    return sub, int(new_index[start_d])


def _attacker_moves(attack, tracked, attacker_ki, n_ob, n_ph, bumps):
    """Every attacker state's outcomes of one attack.

    Attacker states u = (a * n_ob + ob) * n_ph + ph: Ki left a, Off Balance ob (0 no, 1 until
    the end of this turn, 2 until the end of the next), the attack's place ph in the round.
    Returns per state: (levels, next state, probability, Ki spent on boosts) arrays, and the
    Ki each state pays for Bracket bumps. The boosts are those Ki pays for on the dice they
    lift; ``_chain`` gives back the ones the defender's track has no room for.
    """
    n_a = attacker_ki + 1 if tracked else 1
    profiles = (attack, attack.off_balance if n_ob > 1 else attack)
    tables = {}

    def table(dis: int, budget: int) -> tuple[np.ndarray, float]:
        if (dis, budget) not in tables:
            prof = profiles[dis]
            t = prof.outcome_table(budget)
            cat = prof.p_catastrophe if n_ob > 1 else 0.0
            t = t.copy()
            t[0, 0] = max(t[0, 0] - cat, 0.0)
            tables[dis, budget] = (t, cat)
        return tables[dis, budget]

    moves = []
    pays = np.zeros(n_a * n_ob * n_ph)
    for a in range(n_a):
        for ob in range(n_ob):
            for ph in range(n_ph):
                u = (a * n_ob + ob) * n_ph + ph
                pay = min(bumps, a) if (tracked and ph == 0) else (bumps if ph == 0 else 0)
                a1 = a - pay if tracked else 0
                budget = min(attack.boosts, a1) if tracked else attack.boosts
                tab, cat = table(int(ob >= 1), budget)
                ks, ss = np.nonzero(tab)
                probs = tab[ks, ss]
                next_a = a1 - ss if tracked else np.zeros_like(ss)
                next_ob = np.full(ks.size, ob)
                if cat > 0.0:
                    ks = np.append(ks, 0)
                    ss = np.append(ss, 0)
                    next_a = np.append(next_a, a1)
                    next_ob = np.append(next_ob, 2)
                    probs = np.append(probs, cat)
                if ph == n_ph - 1:  # end of the round: Off Balance runs down a turn
                    next_ob = np.maximum(next_ob - 1, 0)
                    next_ph = 0
                else:
                    next_ph = ph + 1
                pays[u] = pay
                moves.append((ks, (next_a * n_ob + next_ob) * n_ph + next_ph, probs, ss))
    return moves, pays, n_a


def _chain(defender, moves, n_u, after, stride):
    """The fight's one-attack transitions (rows, cols, probabilities) and Ki spent on boosts.

    The last is the expected Ki each (defender, attacker) state spends on boosts. Level counts
    at or past a defender state's ``cap`` all lead where ``cap`` does, so they are merged
    first: one move per (levels up to the cap, next attacker state). With boosts ``after``
    the roll, those past the cap are not spent (``stride``: the attacker state's step per
    Ki, 0 when Ki is not tracked).
    """
    k_max = defender.dest.shape[1] - 1
    dense = np.zeros((n_u, k_max + 1, n_u))
    for u, (ks, nxt, p, _) in enumerate(moves):
        np.add.at(dense[u], (ks, nxt), p)
    # every move flat: its attacker state, levels, next attacker state, weight, boost Ki
    m_u = np.concatenate([np.full(m[0].size, i) for i, m in enumerate(moves)])
    m_k, m_next, m_p, m_ki = (np.concatenate([m[i] for m in moves]) for i in range(4))
    rows, cols, probs = [], [], []
    live = np.flatnonzero(~defender.dead)
    boost_spend = np.zeros((defender.dead.size, n_u))
    for cap in np.unique(defender.cap[live]):
        ds = live[defender.cap[live] == cap]
        # A boost after the roll counts only while the track still loses its level
        # (``vitals.hit_room``; the table offers no other): past ``cap`` the Ki comes back.
        back = np.minimum(m_ki, np.maximum(m_k - cap, 0)) if after else np.zeros_like(m_ki)
        boost_spend[ds] = np.bincount(m_u, weights=m_p * (m_ki - back), minlength=n_u)
        merged = np.zeros((n_u, n_u))
        at = m_k >= cap
        np.add.at(merged, (m_u[at], m_next[at] + back[at] * stride), m_p[at])
        table = np.concatenate([dense[:, :cap, :], merged[:, None, :]], axis=1)
        u, k, nxt = np.nonzero(table > 0.0)
        weight = table[u, k, nxt]
        rows.append((ds[:, None] * n_u + u[None, :]).ravel())
        cols.append((defender.dest[ds[:, None], k[None, :]] * n_u + nxt[None, :]).ravel())
        probs.append(np.tile(weight, ds.size))
    dead = np.flatnonzero(defender.dead)
    frozen = (dead[:, None] * n_u + np.arange(n_u)[None, :]).ravel()
    rows.append(frozen)
    cols.append(frozen)
    probs.append(np.ones(frozen.size))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(probs), boost_spend


def _means(defender, rows, cols, probs, start_x, n_a, group_size, n_ph):
    """Expected rounds to down and to dead, solved exactly.

    Every move either keeps (track, Sanity, defender Ki, attacker Ki) -- only Off Balance and
    the attack's place in the round change, within a group of ``group_size`` states -- or
    lowers the potential ``progress + attacker Ki`` by at least 1 (neither part ever rises;
    a Poise reset raises the track but costs a Sanity level or a Ki, which weigh more). So
    the expected visits, the start's row of the fundamental matrix ``N = (I - Q)^-1``, are
    found group by group in falling potential, each group one small linear system. States
    that can never leave their group are stuck: mass reaching them makes the mean infinite.
    """
    m = group_size
    n = defender.dead.size * n_a * m
    state_d = np.arange(n) // (n_a * m)
    live = ~defender.dead[state_d[rows]]
    r, c, p = rows[live], cols[live], probs[live]
    grp_r, grp_c = r // m, c // m
    n_groups = n // m
    g_d = np.arange(n_groups) // n_a
    potential = defender.progress[g_d] + np.arange(n_groups) % n_a
    # Every group's own block once: Q within the group, the leak out of it, its inverse.
    same = grp_r == grp_c
    q = np.zeros((n_groups, m, m))
    np.add.at(q, (grp_r[same], r[same] % m, c[same] % m), p[same])
    leak = np.zeros((n_groups, m))
    np.add.at(leak, (grp_r[~same], r[~same] % m), p[~same])
    can = leak > 0.0  # can leave the group, at once or through its other states
    reach = q > 0.0
    for _ in range(m):
        can = can | np.any(reach & can[:, None, :], axis=2)
    eye = np.eye(m)
    system = np.where(can[:, :, None] & can[:, None, :], eye - q, 0.0) + (~can)[:, :, None] * eye
    inverse = np.linalg.inv(system)
    into_doomed = np.einsum("gij,gj->gi", q, (~can).astype(float))
    # Moves out of a group, highest potential first; groups likewise.
    r, c, p = r[~same], c[~same], p[~same]
    order = np.argsort(-potential[r // m], kind="stable")
    r, c, p = r[order], c[order], p[order]
    edge_potential = -potential[r // m]
    groups = np.flatnonzero(~defender.dead[g_d])
    groups = groups[np.argsort(-potential[groups], kind="stable")]
    group_potential = -potential[groups]
    layers = np.unique(group_potential)
    group_bounds = np.searchsorted(group_potential, layers, side="left")
    group_ends = np.searchsorted(group_potential, layers, side="right")
    edge_bounds = np.searchsorted(edge_potential, layers, side="left")
    edge_ends = np.searchsorted(edge_potential, layers, side="right")
    inflow = np.zeros(n)
    inflow[start_x] = 1.0
    visits = np.zeros(n)
    touched = np.zeros(n_groups, dtype=bool)  # groups the fight can reach
    stuck_up = stuck_alive = False
    offsets = np.arange(m)[None, :]
    for g0, g1, e0, e1 in zip(group_bounds, group_ends, edge_bounds, edge_ends, strict=True):
        layer = groups[g0:g1]
        index = layer[:, None] * m + offsets
        inflow_g = inflow[index]
        if not inflow_g.any():
            continue
        v = np.einsum("gi,gij->gj", inflow_g, inverse[layer])
        doomed = ~can[layer]
        v[doomed] = 0.0
        stuck = ((inflow_g * doomed).sum(axis=1) + (v * into_doomed[layer]).sum(axis=1)) > 0.0
        if stuck.any():
            stuck_alive = True
            if (~defender.down[g_d[layer[stuck]]]).any():
                stuck_up = True
        visits[index] = v
        touched[layer[inflow_g.any(axis=1)]] = True
        if e1 > e0:
            np.add.at(inflow, c[e0:e1], visits[r[e0:e1]] * p[e0:e1])
    first = (np.arange(n) % n_ph) == 0  # each round starts with its first attack
    up = ~defender.down[state_d]
    mean_down = float("inf") if stuck_up else float(visits[first & up].sum())
    mean_dead = float("inf") if stuck_alive else float(visits[first].sum())
    return mean_down, mean_dead, np.repeat(touched, m)


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
    bracket: str = "fast",
    bumps: int = 0,
    sanity_max: int | None = None,
    sanity_start: int | None = None,
) -> FightOdds:
    """Exact rounds-to-0 and rounds-to-dead odds of one attacker against one track.

    The fight is an absorbing Markov chain over (track, Sanity, defender Ki, attacker Ki, Off
    Balance, attack within the round); the round-by-round odds propagate it exactly for
    ``rounds`` rounds, the means solve it exactly (no cut-off).

    - Bracket (RULES.md, Combat round): "fast" one attack a round, "normal" two, "slow" one
      empowered attack (its Aim Advantage or Called Shot is already in ``attack``). ``bumps``
      Ki a round pay to bump the declared Bracket up (1 Ki a step; rules/002): it changes
      when the attacker acts, not how often, so here it only costs Ki, paid at the start of
      the round from the attacker's Ki before any boost (as far as the Ki goes).
    - Off Balance (rules/000: a catastrophic failure "in a fight also leaves you Off Balance
      until the end of your next turn, rolling everything at Disadvantage"), when
      ``attack.off_balance`` is given: after a kept 20 the attacker's remaining attacks this
      round and all of next round use ``attack.off_balance``; it does not stack, a new 20
      restarts it.
    - Poise at the bottom resets to 0 and costs a Sanity level, which Ki may prevent by the
      same policy (rules/000; RULES.md, Vitals); the fight goes on, and is "dead" when Sanity
      reaches its bottom. Variant 002 Poise stops at 0 and never ends the fight.

    Parameters
    ----------
    attack : AttackProfile
        The attack made each time.
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
        The attacker's Ki for boosts and bumps, 0..200; ``None`` means it never runs out.
    defender_ki : int
        The defender's Ki for prevention, 0..200.
    ki_policy : {"none", "all", "stay_up", "stay_alive"}
        How the defender spends it (``vitals``).
    variant_002 : bool
        Variant 002 Poise (stops at 0; Ki cannot prevent it).
    bracket : {"fast", "normal", "slow"}
        The attacker's Action Bracket. Default "fast": one attack a round, as before.
    bumps : int
        Ki a round spent bumping the Bracket: 0 for Fast, up to 1 for Normal, 2 for Slow.
    sanity_max, sanity_start : int, optional
        Poise fights: the defender's Sanity track (default the same size as ``maximum``,
        full). Ignored for Health and Sanity fights and under variant 002.

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
    bracket = require_choice("bracket", bracket, BRACKETS)
    bumps = require_int("bumps", bumps, 0, BUMP_STEPS[bracket])
    sanity_max = (
        maximum if sanity_max is None else require_int("sanity_max", sanity_max, 1, MAX_TRACK)
    )
    s_low, s_high = track_range("sanity", sanity_max)
    sanity_start = (
        s_high if sanity_start is None else require_int("sanity_start", sanity_start, s_low, s_high)
    )

    tracked = not unlimited and (attack.boosts > 0 or bumps > 0)
    n_ob = 3 if attack.off_balance is not None else 1
    n_ph = ATTACKS_PER_ROUND[bracket]
    preventing = ki_policy != "none" and defender_ki > 0
    ki_states = defender_ki + 1 if preventing else 1
    defender = _defender(
        vital, maximum, start, variant_002, ki_states, ki_policy, sanity_max, sanity_start,
        attack.dice,
    )  # fmt: skip
    start_d = int(np.flatnonzero(
        (defender.track == start) & (defender.ki == ki_states - 1)
        & (defender.sanity == (sanity_start if vital == "poise" and not variant_002 else 0))
    )[0])  # fmt: skip
    defender, start_d = _reachable(defender, start_d)
    moves, pays, n_a = _attacker_moves(attack, tracked, attacker_ki, n_ob, n_ph, bumps)
    n_u = n_a * n_ob * n_ph
    stride = n_ob * n_ph if tracked else 0
    rows, cols, probs, boost_spend = _chain(defender, moves, n_u, attack.timing == "after", stride)
    n = defender.dead.size * n_u

    d_of = np.arange(n) // n_u
    a_of = (np.arange(n) % n_u) // (n_ob * n_ph)
    start_x = (start_d * n_a + (n_a - 1)) * n_ob * n_ph
    down_x = defender.down[d_of]
    dead_x = defender.dead[d_of]
    d_spent_x = (ki_states - 1 - defender.ki[d_of]).astype(float)
    a_spent_x = (n_a - 1 - a_of).astype(float)
    poise_sanity = vital == "poise" and not variant_002
    s_lost_x = (sanity_start - defender.sanity[d_of]).astype(float) if poise_sanity else None
    step_spend = np.where(dead_x, 0.0, (boost_spend + pays[None, :]).ravel())

    mean_down, mean_dead, reached = _means(
        defender, rows, cols, probs, start_x, n_a, n_ob * n_ph, n_ph
    )
    # Only moves out of states the fight can reach, alive, sorted by the attack's place in
    # the round: every fight is at the same place at the same time.
    moving = reached[rows] & ~dead_x[rows]
    phase_of = rows % n_ph
    steps = [
        (rows[moving & (phase_of == ph)], cols[moving & (phase_of == ph)],
         probs[moving & (phase_of == ph)])
        for ph in range(n_ph)
    ]  # fmt: skip
    state = np.zeros(n)
    state[start_x] = 1.0
    p_down = np.empty(rounds)
    p_dead = np.empty(rounds)
    a_spent = np.empty(rounds)
    d_spent = np.empty(rounds)
    s_lost = np.zeros(rounds)
    spent_so_far = 0.0
    for r in range(rounds):
        for step_rows, step_cols, step_probs in steps:
            if unlimited:
                spent_so_far += float(state @ step_spend)
            settled = np.where(dead_x, state, 0.0)
            moved = np.bincount(step_cols, weights=state[step_rows] * step_probs, minlength=n)
            state = moved + settled  # (bincount of nothing is an int array)
        p_down[r] = state[down_x].sum()
        p_dead[r] = state[dead_x].sum()
        d_spent[r] = state @ d_spent_x
        a_spent[r] = spent_so_far if unlimited else state @ a_spent_x
        if poise_sanity:
            s_lost[r] = state @ s_lost_x
    return FightOdds(
        rounds=rounds,
        p_down_by=p_down,
        p_dead_by=p_dead,
        mean_rounds_to_down=mean_down,
        mean_rounds_to_dead=mean_dead,
        attacker_ki_spent=a_spent,
        defender_ki_spent=d_spent,
        already_down=start <= 0,
        sanity_lost=s_lost,
    )
