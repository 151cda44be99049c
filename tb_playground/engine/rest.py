"""Rests and recovery: Short Rest, Full Night's Rest, stabilising, the sunrise Fate Token.

Rule: RULES.md, Vitals; rules/000 "Harm and Recovery", rules/004 "Resting", rules/002 (variants).
How 004's table is reconciled with 000, and the readings where the texts are silent:
docs/notes/0006-recovery-fate-round.md, "Rests".
"""

from __future__ import annotations

from dataclasses import dataclass

from .character_stats import MAX_EXHAUSTED, short_rest_ki, short_rest_recovery
from .fate import FateGain, fate_gain
from .validation import require_bool, require_int
from .vitals import MAX_TRACK, track_range

#: The two rests, as shown on screen.
REST_KINDS = ("Short Rest", "Full Night's Rest")


@dataclass(frozen=True)
class Rest:
    """What a rest did (``short_rest``, ``full_night``).

    Attributes
    ----------
    allowed : bool
        False when the rest could not be taken (a second Short Rest, or dead).
    reason : str
        Why not, in plain words ("" when allowed).
    kind : str
        "Short Rest" or "Full Night's Rest".
    health, poise, sanity, ki : int
        The values afterwards (unchanged when refused).
    exhausted : int
        Exhausted level afterwards, 0..5.
    exhausted_cold : int
        How many of those levels are from the cold.
    short_rest_taken : bool
        Whether a Short Rest has been taken since the last night, afterwards.
    changes : tuple of str
        Plain sentences, e.g. "Health 2 -> 5", and what stayed put and why.
    """

    allowed: bool
    reason: str
    kind: str
    health: int
    poise: int
    sanity: int
    ki: int
    exhausted: int
    exhausted_cold: int
    short_rest_taken: bool
    changes: tuple[str, ...]


def _change(name: str, before: int, after: int) -> list[str]:
    return [f"{name} {before} -> {after}"] if after != before else []


def _rest(
    kind: str,
    *,
    health: int,
    health_max: int,
    poise: int,
    poise_max: int,
    sanity: int,
    sanity_max: int,
    health_stat: int,
    presence: int,
    psyche: int,
    ki: int,
    ki_pool: int,
    klotho: int,
    exhausted: int,
    exhausted_cold: int,
    in_cold: bool,
    in_cause: bool,
    short_rest_taken: bool,
    half_klotho: bool,
    below_zero_heals_per_rest: bool,
    poise_stops_at_zero: bool,
) -> Rest:
    """The one place both rests' rules live (see the module docstring)."""
    health_max = require_int("health_max", health_max, 1, MAX_TRACK)
    poise_max = require_int("poise_max", poise_max, 1, MAX_TRACK)
    sanity_max = require_int("sanity_max", sanity_max, 1, MAX_TRACK)
    poise_stops_at_zero = require_bool("poise_stops_at_zero", poise_stops_at_zero)
    health = require_int("health", health, *track_range("health", health_max))
    poise = require_int("poise", poise, *track_range("poise", poise_max, poise_stops_at_zero))
    sanity = require_int("sanity", sanity, *track_range("sanity", sanity_max))
    rates = {
        "Health": short_rest_recovery(require_int("health_stat", health_stat, 0, 10)),
        "Poise": short_rest_recovery(require_int("presence", presence, 0, 10)),
        "Sanity": short_rest_recovery(require_int("psyche", psyche, 0, 10)),
    }
    ki_pool = require_int("ki_pool", ki_pool, 0, 1000)
    ki = require_int("ki", ki, 0, ki_pool)
    ki_back = short_rest_ki(klotho, require_bool("half_klotho", half_klotho))
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    cold = require_int("exhausted_cold", exhausted_cold, 0, exhausted)
    in_cold = require_bool("in_cold", in_cold)
    in_cause = require_bool("in_cause", in_cause)
    taken = require_bool("short_rest_taken", short_rest_taken)
    per_rest = require_bool("below_zero_heals_per_rest", below_zero_heals_per_rest)
    short = kind == REST_KINDS[0]

    def refused(reason: str) -> Rest:
        return Rest(False, reason, kind, health, poise, sanity, ki, exhausted, cold, taken, ())

    if health <= -health_max:
        return refused("Dead: a rest brings nobody back.")
    if short and taken:
        return refused("Only one Short Rest between full nights; the next comes after a night.")

    changes: list[str] = []
    # Health: below 0 the rates stop (000 "Below zero"); at 0 and above the normal rates.
    if health < 0:
        if short and not per_rest:
            new_health = health
            changes.append(
                f"Health stays at {health}: below 0 a Short Rest heals nothing "
                "(a Full Night's Rest heals one level)"
            )
        else:
            new_health = health + 1
            changes.append(f"Health {health} -> {new_health} (below 0: one level a rest)")
    else:
        new_health = min(health_max, health + rates["Health"]) if short else health_max
        changes += _change("Health", health, new_health)

    # Poise and Sanity: below 0 back to 1 on either rest, else the normal rates.
    after = {}
    for name, value, maximum in (("Poise", poise, poise_max), ("Sanity", sanity, sanity_max)):
        if value < 0:
            after[name] = 1
            changes.append(f"{name} {value} -> 1 (below 0: back to 1)")
        else:
            after[name] = min(maximum, value + rates[name]) if short else maximum
            changes += _change(name, value, after[name])

    new_ki = min(ki_pool, ki + ki_back) if short else ki_pool
    changes += _change("Ki", ki, new_ki)

    # Exhausted: levels whose cause you are still in stay (000 "Above zero").
    other = exhausted - cold
    if short:
        if other and not in_cause:
            other -= 1
        elif cold and not in_cold:
            cold -= 1
    else:
        other = other if in_cause else 0
        cold = cold if in_cold else 0
    new_exhausted = other + cold
    changes += _change("Exhausted", exhausted, new_exhausted)
    kept = [
        why
        for why, stays in (
            ("still in what caused it", in_cause and other),
            ("still in the cold", in_cold and cold),
        )
        if stays
    ]
    if kept and (new_exhausted == exhausted or not short):
        changes.append(f"Exhausted stays at {new_exhausted}: " + " and ".join(kept))
    return Rest(
        True,
        "",
        kind,
        new_health,
        after["Poise"],
        after["Sanity"],
        new_ki,
        new_exhausted,
        cold,
        short,
        tuple(changes),
    )


def short_rest(
    *,
    health: int,
    health_max: int,
    poise: int,
    poise_max: int,
    sanity: int,
    sanity_max: int,
    health_stat: int,
    presence: int,
    psyche: int,
    ki: int,
    ki_pool: int,
    klotho: int,
    exhausted: int = 0,
    exhausted_cold: int = 0,
    in_cold: bool = False,
    in_cause: bool = False,
    short_rest_taken: bool = False,
    half_klotho: bool = False,
    below_zero_heals_per_rest: bool = False,
    poise_stops_at_zero: bool = False,
) -> Rest:
    """An hour of genuine downtime (rules/000 "Recovery"; rules/004 "Resting").

    Parameters
    ----------
    health, poise, sanity : int
        The tracks now: Health -health_max..health_max; Poise and Sanity inside
        ``vitals.track_range`` (Poise 0..poise_max when ``poise_stops_at_zero``).
    health_max, poise_max, sanity_max : int
        Each track's size, 1..100.
    health_stat, presence, psyche : int
        The Health, Presence and Psyche sub-stats (0..10) that set the Short Rest rates.
    ki, ki_pool : int
        Ki now (0..ki_pool) and the pool (0..1000).
    klotho : int
        Klotho, 0..10: Ki back from a Short Rest (``character_stats.short_rest_ki``).
    exhausted : int
        Exhausted level, 0..5.
    exhausted_cold : int
        How many of those levels came from the cold, 0..exhausted.
    in_cold : bool
        Still in the cold: the cold levels stay.
    in_cause : bool
        Still in whatever caused the other levels: they stay.
    short_rest_taken : bool
        A Short Rest was already taken since the last night: this one is refused.
    half_klotho : bool
        Variant 002: Ki back is half Klotho, rounded up.
    below_zero_heals_per_rest : bool
        Variant 002: below 0 Health heals one level on a Short Rest too.
    poise_stops_at_zero : bool
        Variant 002: Poise never goes below 0 (only checks the input range).

    Returns
    -------
    Rest
        The values afterwards with ``short_rest_taken`` True, or ``allowed`` False.
    """
    return _rest(REST_KINDS[0], **locals())


def full_night(
    *,
    health: int,
    health_max: int,
    poise: int,
    poise_max: int,
    sanity: int,
    sanity_max: int,
    health_stat: int,
    presence: int,
    psyche: int,
    ki: int,
    ki_pool: int,
    klotho: int,
    exhausted: int = 0,
    exhausted_cold: int = 0,
    in_cold: bool = False,
    in_cause: bool = False,
    short_rest_taken: bool = False,
    half_klotho: bool = False,
    below_zero_heals_per_rest: bool = False,
    poise_stops_at_zero: bool = False,
) -> Rest:
    """A full, largely uninterrupted night's sleep (rules/000 "Recovery"; rules/004 "Resting").

    Takes the same arguments as ``short_rest`` (so the table passes one set to either); the
    sub-stats, Klotho and ``half_klotho`` do not change a Full Night, and
    ``below_zero_heals_per_rest`` gives the same one level below 0 as the default.

    Returns
    -------
    Rest
        Above 0 everything full; below 0 Health +1, Poise and Sanity to 1; Ki full; Exhausted
        cleared but for levels whose cause you are still in; ``short_rest_taken`` False. The
        sunrise Fate Token is ``sunrise_fate``'s, not this.
    """
    return _rest(REST_KINDS[1], **locals())


@dataclass(frozen=True)
class Stabilised:
    """The result of stabilising (``stabilise``).

    Attributes
    ----------
    allowed : bool
        False when there is nothing to stabilise (not Dying) or the character is dead.
    reason : str
        Why not, in plain words ("" when allowed).
    health : int
        Health afterwards.
    changes : tuple of str
        Plain sentences.
    """

    allowed: bool
    reason: str
    health: int
    changes: tuple[str, ...]


def stabilise(health: int, health_max: int) -> Stabilised:
    """First Aid, a trauma kit or a Gift: Dying goes to 0 (rules/000 "Getting back up").

    "Somebody stabilizes you ... and you're at 0: not Dying any more, still unconscious, and
    healing at the normal rates from there."

    Parameters
    ----------
    health : int
        Health now, -health_max..health_max.
    health_max : int
        The track's size, 1..100.

    Returns
    -------
    Stabilised
        Health 0 from below 0; refused at 0 or above (not Dying) and at the bottom (dead).
    """
    health_max = require_int("health_max", health_max, 1, MAX_TRACK)
    health = require_int("health", health, -health_max, health_max)
    if health <= -health_max:
        return Stabilised(False, "Dead: too late to stabilise.", health, ())
    if health >= 0:
        return Stabilised(False, "Not Dying: stabilising helps only below 0 Health.", health, ())
    return Stabilised(True, "", 0, (f"Health {health} -> 0 (stabilised, still unconscious)",))


def sunrise_fate(tokens: int, cap: int) -> FateGain:
    """The day's Fate Token at sunrise, slept or not (rules/000 "Above zero"; rules/004).

    Parameters
    ----------
    tokens : int
        Tokens held, 0 or more.
    cap : int
        Most a character may hold (``character_stats.fate_token_cap``): at the cap it is lost.

    Returns
    -------
    FateGain
    """
    return fate_gain(tokens, cap, 1)
