"""Health, Poise and Sanity tracks under attack, and Ki prevention (``KI_POLICIES``).

``vital_step`` is the one place these rules live. Rule: RULES.md, Vitals; rules/000 "Harm and
Recovery"; rules/002 (variant ``vitals_002``); rules/004 "At Zero and Below". Readings:
docs/notes/0003-attacks.md (3, 4, 6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import (
    require_bool,
    require_choice,
    require_int,
    require_int_array,
    require_size,
)

#: The three Vital tracks.
VITALS = ("health", "poise", "sanity")

#: How a defender spends Ki on preventing levels (see the module docstring).
KI_POLICIES = ("none", "all", "stay_up", "stay_alive")

#: Largest track the engine accepts.
MAX_TRACK = 100

#: Largest number of levels one attack may be said to connect.
MAX_LEVELS = 1000

#: State names at > 0, at 0, below 0 and at the bottom of each track.
STATE_NAMES: dict[str, tuple[str, str, str, str]] = {
    "health": ("up", "unconscious", "dying", "dead"),
    "poise": ("steady", "flustered", "humiliated", "reset"),
    "sanity": ("steady", "overwhelmed", "shattered", "reset"),
}


@dataclass(frozen=True)
class VitalStep:
    """What one attack did to a track, element by element (numpy arrays, broadcast shape).

    Attributes
    ----------
    current : numpy.ndarray
        The track after the attack (Poise and Sanity already reset to 0 at the bottom).
    taken : numpy.ndarray
        Levels actually lost.
    prevented : numpy.ndarray
        Levels prevented with Ki (also the Ki spent).
    bottomed : numpy.ndarray of bool
        The attack reached the bottom: dead (Health) or a reset (Poise, Sanity).
    sanity_loss : numpy.ndarray
        1 where Poise hit the bottom and so costs a Sanity level (000), else 0.
    """

    current: np.ndarray
    taken: np.ndarray
    prevented: np.ndarray
    bottomed: np.ndarray
    sanity_loss: np.ndarray


def _check_track(vital: str, maximum: int, variant_002: bool) -> tuple[str, int, bool]:
    return (
        require_choice("vital", vital, VITALS),
        require_int("maximum", maximum, 1, MAX_TRACK),
        require_bool("variant_002", variant_002),
    )


def track_range(vital: str, maximum: int, variant_002: bool = False) -> tuple[int, int]:
    """Lowest and highest value a track can rest at.

    Health rests anywhere in -maximum..maximum (-maximum is dead). Poise and Sanity reset at
    the bottom, so they rest in -(maximum - 1)..maximum; variant-002 Poise rests in 0..maximum.
    """
    vital, maximum, variant_002 = _check_track(vital, maximum, variant_002)
    if vital == "health":
        return -maximum, maximum
    if vital == "poise" and variant_002:
        return 0, maximum
    return -(maximum - 1), maximum


def vital_step(
    current: np.ndarray,
    levels: np.ndarray,
    maximum: int,
    vital: str = "health",
    ki: np.ndarray | int = 0,
    ki_policy: str = "none",
    variant_002: bool = False,
) -> VitalStep:
    """Apply one attack's connecting levels to a track, vectorized (RULES.md, Vitals).

    Parameters
    ----------
    current : array_like of int
        The track before the attack, -maximum..maximum (see ``track_range``).
    levels : array_like of int
        Levels the attack connects (dice over the wall), 0 or more.
    maximum : int
        The track's full size, 1..100.
    vital : {"health", "poise", "sanity"}
        Which track.
    ki : array_like of int
        The defender's Ki available for prevention.
    ki_policy : {"none", "all", "stay_up", "stay_alive"}
        How the defender spends it (see the module docstring).
    variant_002 : bool
        Variant 002 Poise: stops at 0, and Ki cannot prevent a Poise hit.

    Returns
    -------
    VitalStep
        Arrays of the broadcast shape of ``current``, ``levels`` and ``ki``.
    """
    vital, maximum, variant_002 = _check_track(vital, maximum, variant_002)
    ki_policy = require_choice("ki_policy", ki_policy, KI_POLICIES)
    current, levels, ki = np.broadcast_arrays(
        require_int_array("current", current, -maximum, maximum),
        require_int_array("levels", levels, 0, None),
        require_int_array("ki", ki, 0, None),
    )
    require_size("current, levels and ki together", current)
    stops_at_zero = vital == "poise" and variant_002
    would = np.minimum(levels, _room(current, maximum, vital, variant_002))

    available = np.zeros_like(ki) if stops_at_zero else ki
    if ki_policy == "none":
        prevented = np.zeros_like(would)
    elif ki_policy == "all":
        prevented = np.minimum(would, available)
    else:
        if ki_policy == "stay_up":
            allowed = np.where(current > 0, current - 1, 0)  # levels we may lose and stay up
        else:
            allowed = current + maximum - 1  # levels we may lose and stay off the bottom
        need = np.maximum(would - np.maximum(allowed, 0), 0)
        prevented = np.where(need <= available, need, 0)
    taken = would - prevented
    after = current - taken
    bottomed = (taken > 0) & (after <= -maximum)
    if vital == "health":
        after = np.maximum(after, -maximum)
    else:
        after = np.where(bottomed, 0, after)
    sanity_loss = (bottomed & (vital == "poise")).astype(np.int64)
    return VitalStep(after, taken, prevented, bottomed, sanity_loss)


def _room(current: np.ndarray, maximum: int, vital: str, variant_002: bool) -> np.ndarray:
    """The most levels one attack takes from a track at ``current`` (checked arguments)."""
    below = 0 if (vital == "poise" and variant_002) else 1  # 002 Poise stops at 0
    room = np.where(current > 0, current, below)
    if vital == "health":
        room = np.where(current <= -maximum, 0, room)  # the dead lose nothing more
    return room


def hit_room(current, maximum: int, vital: str = "health", variant_002: bool = False) -> np.ndarray:
    """The most levels one attack can take from a track, before prevention (RULES.md, Vitals).

    A track above 0 loses at most what it has left; at 0 or below, one level an attack
    (rules/000 "A bear that rolls ten dice at someone with three Levels left ... drops
    them"); variant-002 Poise stops at 0; the dead lose nothing. ``vital_step`` caps the
    levels of every attack by it, and a Ki boost after the damage roll counts only while
    the levels are under it (``table/boost_offer.py``, ``lab/vector_rules.py``).

    Parameters
    ----------
    current : array_like of int
        The track now, -maximum..maximum.
    maximum : int
        The track's full size, 1..100.
    vital : {"health", "poise", "sanity"}
        Which track.
    variant_002 : bool
        Variant 002 Poise.

    Returns
    -------
    numpy.ndarray
        Integer array of the shape of ``current``.

    Examples
    --------
    >>> hit_room([3, 0, -8], 8).tolist()
    [3, 1, 0]
    """
    vital, maximum, variant_002 = _check_track(vital, maximum, variant_002)
    current = require_int_array("current", current, -maximum, maximum)
    return _room(current, maximum, vital, variant_002)


def critical_room(current: int, levels: int, vital: str = "health") -> int:
    """The levels a critical hit may take from a track: it never takes Health below 0.

    RULES.md, Attacks: "A critical hit alone can't kill: it takes a character to 0 at most";
    rules/000 line 123: "a single attack can only reduce a character to zero health
    (Unconscious)". From above 0 the one-attack cap already stops it at 0; at or below 0 a
    critical takes no Health level (note 0015, issue 32 item 2). Poise and Sanity: unchanged
    (the text speaks of Health and killing).

    Parameters
    ----------
    current : int
        The track before the hit.
    levels : int
        Levels the attack connects, 0 or more.
    vital : {"health", "poise", "sanity"}
        Which track.

    Returns
    -------
    int
        ``levels``, capped for Health at what is left above 0.

    Examples
    --------
    >>> critical_room(-4, 6)
    0
    >>> critical_room(3, 6)
    3
    """
    current = require_int("current", current, None, None)
    levels = require_int("levels", levels, 0, None)
    if vital != "health":
        return levels
    return min(levels, max(current, 0))


@dataclass(frozen=True)
class AttackOnVital:
    """What one attack did to one track (``take_attack``).

    Attributes
    ----------
    current : int
        The track afterwards.
    taken : int
        Levels lost.
    prevented : int
        Levels prevented, one Ki each.
    bottomed : bool
        Dead (Health) or reset at the bottom (Poise, Sanity).
    sanity_loss : int
        1 if Poise hit the bottom and so costs a Sanity level (000).
    state : str
        The track's state afterwards (``STATE_NAMES``).
    """

    current: int
    taken: int
    prevented: int
    bottomed: bool
    sanity_loss: int
    state: str


def vital_state(vital: str, current: int, maximum: int, variant_002: bool = False) -> str:
    """Name of a track's state: above 0, at 0, below 0, or at the bottom (``STATE_NAMES``)."""
    low, high = track_range(vital, maximum, variant_002)
    current = require_int("current", current, low, high)
    names = STATE_NAMES[vital]
    if current > 0:
        return names[0]
    if current == 0:
        return names[1]
    return names[3] if current <= -maximum else names[2]


def take_attack(
    current: int,
    levels: int,
    maximum: int,
    vital: str = "health",
    ki: int = 0,
    ki_policy: str = "none",
    variant_002: bool = False,
) -> AttackOnVital:
    """Apply one attack to a track (RULES.md, Vitals); the scalar form of ``vital_step``.

    Parameters
    ----------
    current : int
        The track now, within ``track_range(vital, maximum, variant_002)``.
    levels : int
        Levels the attack connects, 0..1000.
    maximum : int
        The track's full size, 1..100.
    vital, ki_policy, variant_002
        As for ``vital_step``.
    ki : int
        The defender's Ki available for prevention, 0 or more.

    Returns
    -------
    AttackOnVital

    Examples
    --------
    rules/000: "A bear that rolls ten dice at someone with three Levels left ... drops them."

    >>> take_attack(3, 10, 8).current
    0
    >>> take_attack(0, 10, 8).current
    -1
    """
    vital, maximum, variant_002 = _check_track(vital, maximum, variant_002)
    low, high = track_range(vital, maximum, variant_002)
    current = require_int("current", current, low, high)
    levels = require_int("levels", levels, 0, MAX_LEVELS)
    ki = require_int("ki", ki, 0, None)
    step = vital_step(current, levels, maximum, vital, ki, ki_policy, variant_002)
    after = int(step.current)
    bottomed = bool(step.bottomed)
    state = STATE_NAMES[vital][3] if bottomed else vital_state(vital, after, maximum, variant_002)
    return AttackOnVital(
        current=after,
        taken=int(step.taken),
        prevented=int(step.prevented),
        bottomed=bottomed,
        sanity_loss=int(step.sanity_loss),
        state=state,
    )


def ki_recovery(
    vital: str, current: int, maximum: int, variant_002: bool = False
) -> tuple[int, int]:
    """Spend Ki to recover a track at or below 0: (track afterwards, Ki spent).

    RULES.md, Vitals: at or below 0, 1 Ki brings Poise or Sanity back to 1 (000); Ki cannot
    get Health up from Dying (000: a Fate Token can). Variant 002: at 0 Poise, 1 Ki refills
    it to full; Sanity at 0 refills to full, below 0 back to 1.

    Parameters
    ----------
    vital : {"health", "poise", "sanity"}
        Which track.
    current : int
        The track now.
    maximum : int
        The track's full size, 1..100.
    variant_002 : bool
        Use 002's refill rules.

    Returns
    -------
    tuple of int
        Unchanged with 0 Ki when no Ki recovery applies (above 0, or Health).
    """
    vital, maximum, variant_002 = _check_track(vital, maximum, variant_002)
    low, high = track_range(vital, maximum, variant_002)
    current = require_int("current", current, low, high)
    if current > 0 or vital == "health":
        return current, 0
    if variant_002 and current == 0:
        return maximum, 1
    return 1, 1
