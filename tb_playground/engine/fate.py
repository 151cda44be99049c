"""Fate Tokens: what one buys, applying the caps, and gaining one.

Rule: RULES.md, Vitals; rules/004 "Fate Tokens", rules/000 "Getting back up", rules/002 "How Does
Fate Work?" (variant). The caps are in ``character_stats``. Readings:
docs/notes/0006-recovery-fate-round.md, "Fate".
"""

from __future__ import annotations

from dataclasses import dataclass

from .character_stats import MAX_EXHAUSTED, fate_spends_per_scene, fate_token_cap
from .validation import require_bool, require_choice, require_int


@dataclass(frozen=True)
class FateSpendRule:
    """One thing a Fate Token buys (rules/004 "Fate Tokens", "Spend one to").

    Attributes
    ----------
    label : str
        The name on screen.
    counted : bool
        Whether it counts against the per-Scene cap of counted spends.
    effect : str
        What it does, in plain words.
    source : str
        Where the rule text says so.
    """

    label: str
    counted: bool
    effect: str
    source: str


#: Every Fate spend the texts name, by key (rules/004; rules/000).
FATE_SPENDS: dict[str, FateSpendRule] = {
    "automatic success": FateSpendRule(
        "Automatic Success", False, "One roll succeeds outright, no dice.", "rules/004"
    ),
    "get back up": FateSpendRule(
        "Get Back Up",
        False,
        "Up at 1 Health Level, conscious and able to act, even while out cold.",
        "rules/004; rules/000 Getting back up",
    ),
    "refill ki": FateSpendRule("Refill Ki", False, "Your whole Ki pool, right now.", "rules/004"),
    "shrug off": FateSpendRule(
        "Shrug Off an Effect", False, "Clear a condition for a moment.", "rules/004"
    ),
    "overcome a flaw": FateSpendRule(
        "Overcome a Flaw", False, "The Flaw doesn't apply for the rest of the Scene.", "rules/004"
    ),
    "clear off balance": FateSpendRule(
        "Clear Off Balance",
        False,
        "Off Balance from a catastrophic failure ends; the rest of the mishap stands.",
        "rules/000 Rolling the Dice",
    ),
    "kotodama": FateSpendRule(
        "Kotodama",
        True,
        "Assert a fact into the world; it costs Magnitude + Range + Plausibility tokens.",
        "rules/004 Kotodama",
    ),
    "burn corruption": FateSpendRule(
        "Burn off Corruption", True, "Burn off Corruption.", "rules/004"
    ),
}


@dataclass(frozen=True)
class FateSpend:
    """The result of trying to spend Fate Tokens (``fate_spend``).

    Attributes
    ----------
    allowed : bool
        Whether the spend happens.
    reason : str
        Why not, in plain words ("" when allowed).
    kind : str
        The key in ``FATE_SPENDS``.
    tokens_after, counted_after : int
        Tokens held and counted spends this Scene afterwards (unchanged when refused).
    cost : int
        Tokens the spend takes.
    health_after : int or None
        Health after Get Back Up (None for other spends, or when refused).
    ki_after : int or None
        Ki after Refill Ki (None for other spends, or when refused).
    effect : str
        What the spend does.
    changes : tuple of str
        Plain sentences, e.g. "Fate Tokens 3 -> 2".
    """

    allowed: bool
    reason: str
    kind: str
    tokens_after: int
    counted_after: int
    cost: int
    health_after: int | None
    ki_after: int | None
    effect: str
    changes: tuple[str, ...]


def _refuse(kind: str, reason: str, tokens: int, counted: int, cost: int) -> FateSpend:
    return FateSpend(False, reason, kind, tokens, counted, cost, None, None, "", ())


def fate_spend(
    kind: str,
    tokens: int,
    counted_this_scene: int,
    stamina: int,
    *,
    cost: int = 1,
    health: int | None = None,
    health_max: int | None = None,
    ki: int | None = None,
    ki_pool: int | None = None,
    condition: str | None = None,
    stamina_only: bool = False,
) -> FateSpend:
    """Try one Fate spend (rules/004 "Fate Tokens"; rules/000 "Getting back up").

    Parameters
    ----------
    kind : str
        A key of ``FATE_SPENDS``.
    tokens : int
        Fate Tokens held now, 0 or more.
    counted_this_scene : int
        Counted spends (Kotodama, burning Corruption) already made this Scene, 0 or more.
    stamina : int
        Stamina, 0..10: sets the per-Scene cap (``character_stats.fate_spends_per_scene``).
    cost : int
        Tokens a Kotodama takes (Magnitude + Range + Plausibility), 1..100; every other spend
        costs exactly 1 and must leave ``cost`` at 1.
    health, health_max : int, optional
        Needed for "get back up": Health now (-health_max..health_max) and the track size.
    ki, ki_pool : int, optional
        Needed for "refill ki": Ki now (0..ki_pool) and the pool.
    condition : str, optional
        For "shrug off": the condition shrugged off, named in the effect text (1..60
        characters; the table decides which conditions it clears).
    stamina_only : bool
        Variant 002: the per-Scene cap is Stamina, not Stamina + 1.

    Returns
    -------
    FateSpend
        ``allowed`` False with a plain reason when the tokens, the per-Scene cap or the
        situation (Get Back Up above 0 or while dead) refuse it.
    """
    kind = require_choice("kind", kind, tuple(FATE_SPENDS))
    tokens = require_int("tokens", tokens, 0, None)
    counted = require_int("counted_this_scene", counted_this_scene, 0, None)
    per_scene = fate_spends_per_scene(stamina, require_bool("stamina_only", stamina_only))
    rule = FATE_SPENDS[kind]
    cost = require_int("cost", cost, 1, 100)
    if kind != "kotodama" and cost != 1:
        raise ValueError(f"cost must be 1 for {rule.label}, got {cost}")
    health_after = ki_after = None
    changes: list[str] = []
    if kind == "get back up":
        if health is None or health_max is None:
            raise ValueError("health and health_max are needed for Get Back Up")
        health_max = require_int("health_max", health_max, 1, 100)
        health = require_int("health", health, -health_max, health_max)
        if health <= -health_max:
            return _refuse(kind, "Dead: a Fate Token can't bring you back.", tokens, counted, 1)
        if health > 0:
            return _refuse(
                kind,
                "Get Back Up only works at 0 Health or below (out cold or Dying).",
                tokens,
                counted,
                1,
            )
        health_after = 1
        changes.append(f"Health {health} -> 1")
    if kind == "refill ki":
        if ki is None or ki_pool is None:
            raise ValueError("ki and ki_pool are needed for Refill Ki")
        ki_pool = require_int("ki_pool", ki_pool, 0, 1000)
        ki = require_int("ki", ki, 0, ki_pool)
        if ki == ki_pool:
            return _refuse(kind, "Ki is already full.", tokens, counted, 1)
        ki_after = ki_pool
        changes.append(f"Ki {ki} -> {ki_pool}")
    if tokens < cost:
        noun = "Token" if cost == 1 else "Tokens"
        return _refuse(
            kind,
            f"{rule.label} needs {cost} Fate {noun}; you hold {tokens}.",
            tokens,
            counted,
            cost,
        )
    if rule.counted and counted >= per_scene:
        return _refuse(
            kind,
            f"Already {counted} counted Fate spends this Scene; the most is {per_scene}.",
            tokens,
            counted,
            cost,
        )
    counted_after = counted + 1 if rule.counted else counted
    effect = rule.effect
    if condition is not None:
        if kind != "shrug off":
            raise ValueError(f"condition is only for Shrug Off an Effect, not {rule.label}")
        if not isinstance(condition, str) or not 1 <= len(condition.strip()) <= 60:
            raise ValueError(f"condition must be a condition's name, got {condition!r}")
        effect = f"{condition.strip()} is cleared for a moment."
    changes.insert(0, f"Fate Tokens {tokens} -> {tokens - cost}")
    if rule.counted:
        changes.append(f"Counted spends this Scene {counted} -> {counted_after} of {per_scene}")
    return FateSpend(
        True,
        "",
        kind,
        tokens - cost,
        counted_after,
        cost,
        health_after,
        ki_after,
        effect,
        tuple(changes),
    )


@dataclass(frozen=True)
class FateGain:
    """Tokens after gaining some (``fate_gain``).

    Attributes
    ----------
    tokens_after : int
        Tokens held afterwards.
    gained : int
        Tokens actually kept.
    lost : int
        Tokens earned at the cap and so lost (rules/004).
    changes : tuple of str
        Plain sentences.
    """

    tokens_after: int
    gained: int
    lost: int
    changes: tuple[str, ...]


def fate_gain(tokens: int, cap: int, n: int = 1) -> FateGain:
    """Earn ``n`` Fate Tokens; a Token earned at the cap is lost (rules/004 "Fate Tokens").

    Parameters
    ----------
    tokens : int
        Tokens held, 0 or more (a holding above the cap, say after Stamina dropped, is kept but
        nothing more is gained).
    cap : int
        Most a character may hold, 1 or more (``character_stats.fate_token_cap``).
    n : int
        Tokens earned, 0..100.

    Returns
    -------
    FateGain
    """
    tokens = require_int("tokens", tokens, 0, None)
    cap = require_int("cap", cap, 1, None)
    n = require_int("n", n, 0, 100)
    gained = max(0, min(n, cap - tokens))
    lost = n - gained
    changes = []
    if gained:
        changes.append(f"Fate Tokens {tokens} -> {tokens + gained}")
    if lost:
        noun = "Token" if lost == 1 else "Tokens"
        changes.append(f"{lost} Fate {noun} lost: already holding the most ({cap})")
    return FateGain(tokens + gained, gained, lost, tuple(changes))


def fate_gain_for(tokens: int, stamina: int, n: int = 1) -> FateGain:
    """``fate_gain`` with the cap from Stamina (``character_stats.fate_token_cap``)."""
    return fate_gain(tokens, fate_token_cap(stamina), n)


def ki_spend_cost(base: int, exhausted: int = 0) -> int:
    """Ki one spend really costs: Exhausted 4 and up adds 1 (rules/004 "Conditions").

    Parameters
    ----------
    base : int
        The Ki the spend costs normally (a bump step, a boosted die, a prevented level), 0..1000.
        A spend of 0 is no spend and costs nothing.
    exhausted : int
        Exhausted level, 0..5.

    Returns
    -------
    int
        ``base``, plus 1 at Exhausted 4 or 5 when ``base`` > 0.
    """
    base = require_int("base", base, 0, 1000)
    exhausted = require_int("exhausted", exhausted, 0, MAX_EXHAUSTED)
    return base + 1 if base > 0 and exhausted >= 4 else base
