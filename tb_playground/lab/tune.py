"""Build the fight you want: lineups of creatures tuned to a party's chance to win (issue 35).

``tune_encounter(party, pool, target)`` looks for lineups (how many of each creature in the
pool, and optionally every creature's Health scaled within bounds the GM sets) whose fights the
party wins with chance ``target``. Every number it reports comes from ``simulate`` (the real
round, RULES.md "Combat round", "Attacks", "Vitals"); the search only decides which lineups to
simulate.

How it searches (a call of ``simulate`` costs about the same for 500 fights as for 4,000: its
loops are over rounds and acting slots, not fights, so the search plays few lineups, each with
many fights):

1. **A cheap strength for every lineup, no dice.** ``prepare`` gives the exact expected levels
   of one plain attack for every (attacker, target) pair; a Lanchester square law reads them as
   ``S = log(K_party N_party / (K_foes N_foes))``, where ``K`` is a side's rate of taking foes
   out (two attacks a round, levels over the track's size) and ``N`` its head count. Scaling the
   foes' Health by ``h`` moves ``S`` by ``-log h``.
2. **Calibrate with few simulations.** The chance is modelled as ``logit p = a + b S``. The
   lineup the model puts nearest the target is simulated, the model refitted to the lineups
   played so far (weighted least squares), and again, up to ``CALIBRATION_RUNS`` times.
3. **Refine the best.** The ``lineups`` lineups nearest the target (played ones by their
   simulated chance) are each played, then their Health scaled along the model's slope (a
   secant on that lineup's own points once it has two) until the chance is within
   ``tolerance`` of the target, the Health bounds are reached, or ``REFINE_RUNS`` runs.

Every run uses the same ``seed``: common random numbers, so two lineups differ by their
creatures more than by their dice. The answer is honest: each lineup's ``p_win`` is its own
simulation's, with its 95% interval, and ``TuneResult.reached`` says whether the best one is
within ``tolerance`` of the target (``TuneResult.note`` says so in words when the pool cannot
reach it). For a wider search (more creatures, more copies), ``lab.sweep`` plays many lineups as
Dask tasks.

``EncounterResult`` does not report the Ki spent (``simulate`` keeps the tracks at the end, not
Ki): ``Lineup.ki_spent`` reads it when a result offers ``ki_spent`` and is None otherwise.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tb_playground.models import Character, Creature, Encounter
from tb_playground.models.creature import MAX_CARD_TRACK
from tb_playground.models.files import dumps, load, loads

from .fight_result import EncounterResult
from .prepare import plain_encounter, prepare
from .simulate import simulate

#: Most copies of one unnamed creature in a lineup, by default (a named one is one person).
MAX_COPIES = 4

#: Most foes in a lineup, by default.
MAX_FOES = 6

#: Simulations spent calibrating the strength model before refining.
CALIBRATION_RUNS = 4

#: Most simulations spent refining one lineup's Health, and the most scale one step moves
#: (as a log) before the target is bracketed.
REFINE_RUNS, MAX_SCALE_STEP = 4, 0.4

#: Most simulations one search makes, by default.
MAX_RUNS = 12

#: logit(p) = a + b S before any fight is played: the party is favoured at equal strength (the
#: square law leaves out Ki, armor and Fate).
PRIOR_INTERCEPT, PRIOR_SLOPE = 3.0, 2.0

#: Smallest slope the fit accepts (a flatter one is noise).
MIN_SLOPE = 0.5

#: A chance this near 0 or 1 tells only a side of the target: the next lineup is ``STEP``
#: stronger or weaker until the fights are in doubt.
SATURATED, STEP = 0.02, 1.5

#: The difficulty words of the planner and the party's chance each stands for.
DIFFICULTIES = {"Easy": 0.95, "Fair": 0.8, "Hard": 0.6, "Deadly": 0.4}


def _logit(p: float, fights: int) -> float:
    """Logit of a chance, kept off 0 and 1 by half a fight."""
    eps = 0.5 / fights
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


@dataclass(frozen=True, eq=False)
class Lineup:
    """One lineup the tuner played, and how its fights went.

    Attributes
    ----------
    counts : dict
        Creature name -> how many of it (only those in the lineup, in the pool's order).
    health : dict
        Creature name -> each copy's Health levels in this lineup (its card's when unscaled).
    health_scale : float
        The scale asked of every creature's Health (1: as on the card); ``health`` is it rounded.
    encounter : Encounter
        The party against this lineup, ready for a table (fresh copies of every sheet and card).
    result : EncounterResult
        Its simulation.
    """

    counts: dict
    health: dict
    health_scale: float
    encounter: Encounter
    result: EncounterResult
    card_health: dict = field(default_factory=dict, repr=False)

    @property
    def p_win(self) -> float:
        """P(the party wins)."""
        return self.result.p_win[self.result.sides[0]]

    @property
    def p_win_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of ``p_win``."""
        return self.result.p_win_interval[self.result.sides[0]]

    @property
    def p_down(self) -> float:
        """P(any character ends the fight at 0 Health or below)."""
        return self.result.p_character_down

    @property
    def p_dying(self) -> float:
        """P(any character ends the fight Dying)."""
        return self.result.p_character_dying

    @property
    def p_dead(self) -> float:
        """P(any character ends the fight dead)."""
        return self.result.p_character_dead

    @property
    def mean_rounds(self) -> float:
        """Mean rounds of the fights that ended."""
        return self.result.rounds.mean

    @property
    def ki_spent(self) -> float | None:
        """Mean Ki the party spent a fight, when the simulation reports it (else None)."""
        value = getattr(self.result, "ki_spent", None)
        return None if value is None else float(value)

    @property
    def foes(self) -> int:
        """How many creatures the lineup holds."""
        return sum(self.counts.values())

    def describe(self) -> str:
        """The lineup in words: "2 Guard dog (Health 7 each), Captain Oriel Vance"."""
        parts = []
        for name, count in self.counts.items():
            text = name if count == 1 else f"{count} {name}"
            if self.health[name] != self.card_health.get(name, self.health[name]):
                each = " each" if count > 1 else ""
                text += f" (Health {self.health[name]}{each}, card {self.card_health[name]})"
            parts.append(text)
        return ", ".join(parts)


@dataclass(frozen=True, eq=False)
class TuneResult:
    """What ``tune_encounter`` found.

    Attributes
    ----------
    target : float
        The party's chance to win asked for.
    lineups : list of Lineup
        Best first: nearest the target, then the least Health changed, then the fewest foes.
    reached : bool
        Whether the best lineup's simulated chance is within ``tolerance`` of the target.
    tolerance : float
        How near counts as reached.
    note : str
        The answer in plain words (what the pool can reach when it cannot reach the target).
    runs : int
        ``simulate`` calls made.
    fights : int
        Fights each call played.
    """

    target: float
    lineups: list
    reached: bool
    tolerance: float
    note: str
    runs: int
    fights: int

    @property
    def best(self) -> Lineup:
        """The best lineup."""
        return self.lineups[0]


def _copy(obj, kind: str):
    """A fresh copy of a sheet or card (so the caller's own is never changed)."""
    return loads(dumps(obj, "json"), "json", kind)


def _as_list(name: str, value, cls, kind: str) -> list:
    if isinstance(value, cls | str | Path):
        value = [value]
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"{name} must be a non-empty list of {kind}s, got {value!r}")
    out = []
    for item in value:
        if isinstance(item, str | Path):
            item = load(item, kind)
        if not isinstance(item, cls):
            raise ValueError(f"{name} must hold {kind}s (or their files), got {item!r}")
        out.append(_copy(item, kind))
    return out


def _strengths(party: list, pool: list, ruleset: dict | None) -> tuple[np.ndarray, np.ndarray]:
    """Per character and pool creature: the share of the other's track two plain attacks take.

    Returns ``(party_on_foe, foe_on_party)``, shapes (characters, creatures) and (creatures,
    characters), from ``prepare``'s exact expected levels (RULES.md "Attacks").
    """
    enc = Encounter(name="Pool")
    for c in party:
        enc.add(_copy(c, "character"), "Party")
    for f in pool:
        enc.add(_copy(f, "creature"), "Foes")
    prep = prepare(plain_encounter(enc, ruleset))
    n, chars = len(prep.names), len(party)

    def rate(a: int, t: int) -> float:
        p = a * n + t
        if not prep.has_attack[p]:
            return 0.0
        size = max(1, int(prep.maximum[t, int(prep.vital[p])]))
        return 2.0 * float(prep.expected[p]) / size

    on_foe = np.array([[rate(c, chars + j) for j in range(len(pool))] for c in range(chars)])
    on_party = np.array([[rate(chars + j, c) for c in range(chars)] for j in range(len(pool))])
    return on_foe, on_party


def _strength(counts, on_foe, on_party, scale: float) -> float:
    """Lanchester's square law: log of (party's rate x head count) over (foes' the same)."""
    counts = np.asarray(counts, dtype=float)
    foes = counts.sum()
    k_party = float((on_foe @ counts).sum()) / foes / scale
    k_foes = float(counts @ on_party.mean(axis=1))
    tiny = 1e-9
    return math.log(max(k_party * on_foe.shape[0], tiny)) - math.log(max(k_foes * foes, tiny))


def _healths(pool: list, scale: float, counts=None) -> list[int]:
    """Each pool creature's Health under ``scale``, to the level over the whole lineup.

    The lineup's levels are ``scale`` times its cards' (rounded); each creature takes its
    scaled Health rounded down, then the kinds with the largest remainders one level more while
    levels are left, so the lineup's Health moves a level at a time, not a copy count at a time.
    """
    counts = [1] * len(pool) if counts is None else [int(k) for k in counts]
    exact = [f.health * scale for f in pool]
    out = [max(1, math.floor(x)) for x in exact]
    left = round(sum(k * x for k, x in zip(counts, exact, strict=True)))
    left -= sum(k * h for k, h in zip(counts, out, strict=True))
    for j in sorted(range(len(pool)), key=lambda j: (out[j] - exact[j], j)):
        if counts[j] and counts[j] <= left:
            out[j] += 1
            left -= counts[j]
    return [min(MAX_CARD_TRACK, h) for h in out]


def lineup_encounter(party: list, pool: list, counts, healths=None, ruleset=None) -> Encounter:
    """An Encounter of the party (side "Party") against ``counts`` of each pool creature ("Foes").

    Every combatant is a fresh copy; ``healths`` (one per pool creature) replaces the cards'
    Health levels. ``ruleset`` sets the Encounter's Ruleset switches.
    """
    enc = Encounter(name="Tuned encounter")
    if ruleset:
        enc.ruleset.param.update(**ruleset)
    for c in party:
        enc.add(_copy(c, "character"), "Party")
    for j, (creature, count) in enumerate(zip(pool, counts, strict=True)):
        for _ in range(int(count)):
            card = _copy(creature, "creature")
            if healths is not None:
                card.health = int(healths[j])
            enc.add(card, "Foes")
    return enc


def tune_encounter(
    party,
    pool,
    target: float,
    *,
    seed: int = 0,
    fights: int = 4000,
    lineups: int = 3,
    health: tuple[float, float] | None = (0.5, 1.5),
    max_foes: int = MAX_FOES,
    max_copies: int = MAX_COPIES,
    tolerance: float = 0.025,
    max_runs: int = MAX_RUNS,
    ruleset: dict | None = None,
    **policies,
) -> TuneResult:
    """Lineups from ``pool`` the ``party`` wins with chance ``target``, best first.

    Parameters
    ----------
    party : list of Character (or their files)
        The characters, all on the side "Party".
    pool : list of Creature (or their files)
        The creatures a lineup may hold, each at most ``max_copies`` times (a named one once).
    target : float
        The party's chance to win, 0..1.
    seed : int
        The seed of every simulation (common random numbers).
    fights : int
        Fights per simulation, 100..200,000.
    lineups : int
        How many lineups to return, 1..10.
    health : (float, float) or None
        Bounds of the scale on every creature's Health (the GM's); None: the cards' Health.
    max_foes, max_copies : int
        Most creatures in a lineup, most copies of one.
    tolerance : float
        How near the target a lineup's simulated chance must be to count as reaching it.
    max_runs : int
        Most ``simulate`` calls, 2..100 (each about the same time whatever ``fights``).
    ruleset : dict, optional
        Ruleset switches (``prepare.READ_SWITCHES``), as ``simulate`` takes them.
    **policies
        ``simulate``'s policies (``bracket_policy``, ``target_policy``, ``ki_policy``,
        ``boost_policy``, ``attack_policy``, ``end``, ``max_rounds``, ``off_balance``); keyed
        by side ("Party", "Foes") when they differ.

    Returns
    -------
    TuneResult
    """
    party = _as_list("party", party, Character, "character")
    pool = _as_list("pool", pool, Creature, "creature")
    names = [str(f.name) for f in pool]
    if len(set(names)) != len(names):
        raise ValueError(f"pool: two creatures share a name ({names}); give each its own name")
    if isinstance(target, bool) or not isinstance(target, int | float) or not 0 <= target <= 1:
        raise ValueError(f"target must be a chance from 0 to 1, got {target!r}")
    if isinstance(fights, bool) or not isinstance(fights, int) or not 100 <= fights <= 200_000:
        raise ValueError(f"fights must be a whole number from 100 to 200,000, got {fights!r}")
    if isinstance(lineups, bool) or not isinstance(lineups, int) or not 1 <= lineups <= 10:
        raise ValueError(f"lineups must be a whole number from 1 to 10, got {lineups!r}")
    for label, value in (("max_foes", max_foes), ("max_copies", max_copies)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 12:
            raise ValueError(f"{label} must be a whole number from 1 to 12, got {value!r}")
    if health is None:
        low, high = 1.0, 1.0
    else:
        try:
            low, high = (float(x) for x in health)
        except (TypeError, ValueError):
            raise ValueError(f"health must be two scales (low, high), got {health!r}") from None
        if not 0.1 <= low <= 1 <= high <= 4:
            raise ValueError(f"health must be (low, high) with 0.1 <= low <= 1 <= high <= 4, "
                             f"got {health!r}")  # fmt: skip
    if isinstance(max_runs, bool) or not isinstance(max_runs, int) or not 2 <= max_runs <= 100:
        raise ValueError(f"max_runs must be a whole number from 2 to 100, got {max_runs!r}")
    if not 0 < tolerance < 0.5:
        raise ValueError(f"tolerance must be between 0 and 0.5, got {tolerance!r}")

    on_foe, on_party = _strengths(party, pool, ruleset)
    caps = [1 if f.named else max_copies for f in pool]
    grid = [c for c in itertools.product(*(range(k + 1) for k in caps)) if 1 <= sum(c) <= max_foes]
    strength = {c: _strength(c, on_foe, on_party, 1.0) for c in grid}
    goal = _logit(target, fights)
    played: dict[tuple, list[tuple[float, Lineup]]] = {}  # counts -> [(log scale, lineup)]
    points: list[tuple[float, float, float, float]] = []  # (S, logit p, weight, p)
    runs = 0

    def play(counts, scale: float) -> Lineup:
        nonlocal runs
        healths = _healths(pool, scale, counts)
        enc = lineup_encounter(party, pool, counts, healths, ruleset)
        result = simulate(plain_encounter(enc), fights, seed, **policies)
        runs += 1
        shown = {names[j]: int(k) for j, k in enumerate(counts) if k}
        lineup = Lineup(
            counts=shown,
            health={names[j]: healths[j] for j, k in enumerate(counts) if k},
            health_scale=scale,
            encounter=enc,
            result=result,
            card_health={names[j]: int(pool[j].health) for j, k in enumerate(counts) if k},
        )
        played.setdefault(counts, []).append((math.log(scale), lineup))
        p = lineup.p_win
        weight = fights * max(p * (1 - p), 0.5 / fights)  # var(logit p) ~ 1 / (n p q)
        points.append((strength[counts] - math.log(scale), _logit(p, fights), weight, p))
        return lineup

    def informative() -> list[tuple[float, float, float]]:
        return [pt for pt in points if SATURATED < pt[3] < 1 - SATURATED]

    def fit() -> tuple[float, float]:
        """The strength model from the unsaturated points (the prior slope when few)."""
        pts = informative()
        if not pts:
            return PRIOR_INTERCEPT, PRIOR_SLOPE
        s, y, w = (np.array(v) for v in list(zip(*pts, strict=True))[:3])
        slope = PRIOR_SLOPE
        if len(pts) >= 2 and np.ptp(s) > 1e-6:
            sm, ym = np.average(s, weights=w), np.average(y, weights=w)
            fitted = np.sum(w * (s - sm) * (y - ym)) / np.sum(w * (s - sm) ** 2)
            slope = float(min(max(fitted, MIN_SLOPE), 20.0))
        return float(np.average(y - slope * s, weights=w)), slope

    def aim() -> float:
        """The strength the target asks for: the model's, kept inside the bracket played."""
        lost = [pt[0] for pt in points if pt[3] <= SATURATED]  # need a weaker lineup
        won = [pt[0] for pt in points if pt[3] >= 1 - SATURATED]  # need a stronger one
        if informative():
            a, b = fit()
            wanted = (goal - a) / b
        elif lost and won:
            return (max(lost) + min(won)) / 2
        elif won:
            return min(won) - STEP
        elif lost:
            return max(lost) + STEP
        else:
            return (goal - PRIOR_INTERCEPT) / PRIOR_SLOPE
        if won and wanted >= min(won):
            wanted = (min(won) + max([pt[0] for pt in points if pt[0] < min(won)], default=min(
                won) - STEP)) / 2  # fmt: skip
        if lost and wanted <= max(lost):
            wanted = (max(lost) + min([pt[0] for pt in points if pt[0] > max(lost)], default=max(
                lost) + STEP)) / 2  # fmt: skip
        return wanted

    def distance(c) -> float:
        """How far a lineup is from the target, in strength.

        A played lineup by its own fights; another from its nearest played neighbour (fewest
        creatures added or taken away), moved along the model's slope by their difference in
        strength, so the square law's errors stay local (fights all but decided tell only a
        side: then the distance to ``aim``).
        """
        b = fit()[1]
        own = [lu for ls, lu in played.get(c, []) if ls == 0.0]
        if own:
            return abs(_logit(own[0].p_win, fights) - goal) / b
        doubtful = [
            (k, ls, lu)
            for k, tried in played.items()
            for ls, lu in tried
            if SATURATED < lu.p_win < 1 - SATURATED
        ]
        if not doubtful:  # only one-sided fights so far: the square law and the bracket
            return abs(strength[c] - aim())
        near = min(
            doubtful,
            key=lambda t: (sum(abs(x - y) for x, y in zip(t[0], c, strict=True)), abs(t[1])),
        )
        guess = _logit(near[2].p_win, fights) + b * (strength[c] - strength[near[0]] + near[1])
        return abs(guess - goal) / b

    for _ in range(min(CALIBRATION_RUNS, max_runs - 1)):
        fresh = [c for c in grid if c not in played]
        if not fresh:
            break
        wanted = aim()
        pick = min(fresh, key=lambda c: (abs(strength[c] - wanted), sum(c), c))
        lineup = play(pick, 1.0)
        if abs(lineup.p_win - target) <= tolerance:
            break

    def refine(c) -> None:
        """Scale ``c``'s Health toward the target: regula falsi in log scale once bracketed."""
        if c not in played:
            if runs >= max_runs:
                return
            play(c, 1.0)
        for _ in range(REFINE_RUNS):
            if runs >= max_runs:
                return
            tried = played[c]
            near = min(tried, key=lambda t: abs(t[1].p_win - target))
            if abs(near[1].p_win - target) <= tolerance:
                return
            above = [t for t in tried if t[1].p_win > target]  # party wins too often
            below = [t for t in tried if t[1].p_win < target]
            if above and below:  # Health between the two nearest on either side
                hi = min(above, key=lambda t: t[1].p_win)
                lo = max(below, key=lambda t: t[1].p_win)
                y_hi, y_lo = _logit(hi[1].p_win, fights), _logit(lo[1].p_win, fights)
                share = (y_hi - goal) / (y_hi - y_lo)
                log_scale = hi[0] + min(max(share, 0.1), 0.9) * (lo[0] - hi[0])
            else:
                step = (_logit(near[1].p_win, fights) - goal) / fit()[1]
                log_scale = near[0] + min(max(step, -MAX_SCALE_STEP), MAX_SCALE_STEP)
            log_scale = min(max(log_scale, math.log(low)), math.log(high))
            mine = [j for j, k in enumerate(c) if k]
            healths = [_healths(pool, math.exp(log_scale), c)[j] for j in mine]
            if any([_healths(pool, math.exp(t[0]), c)[j] for j in mine] == healths for t in tried):
                return  # the Health bounds or the rounding leave nothing new to play
            play(c, math.exp(log_scale))

    def reached_by(c) -> bool:
        return any(abs(t[1].p_win - target) <= tolerance for t in played.get(c, []))

    def within_reach(c) -> bool:
        """Played, in doubt, and the model's Health scale for the target is in bounds."""
        own = [lu for ls, lu in played.get(c, []) if ls == 0.0]
        if not own or not SATURATED < own[0].p_win < 1 - SATURATED:
            return False
        log_scale = (_logit(own[0].p_win, fights) - goal) / fit()[1]
        return math.log(low) <= log_scale <= math.log(high)

    done: list[tuple] = []
    while runs < max_runs and sum(reached_by(c) for c in done) < lineups:
        left = [c for c in grid if c not in done]
        if not left:
            break
        c = min(left, key=lambda c: (not within_reach(c), distance(c), sum(c), c))
        refine(c)
        done.append(c)
    best_of = [
        min(
            (t[1] for t in played[c]),
            key=lambda lu: (abs(lu.p_win - target), abs(math.log(lu.health_scale))),
        )  # fmt: skip
        for c in played
    ]

    ranked = sorted(
        best_of,
        key=lambda lu: (round(abs(lu.p_win - target), 3), abs(math.log(lu.health_scale)), lu.foes),
    )
    ranked = ranked[:lineups]
    best = ranked[0]
    reached = abs(best.p_win - target) <= tolerance
    if reached:
        note = (
            f"{best.describe()}: the party wins {best.p_win:.0%} of {fights:,} fights "
            f"(asked {target:.0%})."
        )
    else:
        side = "strongest" if best.p_win > target else "weakest"
        note = (
            f"This pool cannot reach a {target:.0%} chance within the Health bounds: the nearest "
            f"lineup found ({best.describe()}) gives the party {best.p_win:.0%}. Try a "
            f"{'stronger' if side == 'strongest' else 'weaker'} creature, more copies or wider "
            "Health bounds."
        )
    return TuneResult(
        target=float(target),
        lineups=ranked,
        reached=reached,
        tolerance=tolerance,
        note=note,
        runs=runs,
        fights=fights,
    )
