"""What moves the odds: the party's chance under small changes to one encounter (issue 35, item 4).

``levers(encounter)`` plays the encounter as it is, then with each change alone: one foe of each
kind more and one fewer, each kind's Health 25% up and down, the party rested or not, each
character absent; each with the same seed (common random numbers, so the change is the lever's
more than the dice's). The rows come sorted by the size of their effect, largest first, so the
GM sees the lever before the session. Every chance is ``simulate``'s (RULES.md "Combat round",
"Vitals").

"Not rested" is our reading, the texts being silent on a party worn by the day: each character
starts a quarter of each track down (rounded down) with half its Ki pool spent; "rested" is
every track full and no Ki spent (rules/000 "Harm and Recovery").
"""

from __future__ import annotations

from dataclasses import dataclass

from tb_playground.models import Encounter
from tb_playground.models.creature import MAX_CARD_TRACK
from tb_playground.models.files import dumps, loads

from .prepare import plain_encounter
from .simulate import simulate

#: How much a Health lever scales a kind's Health.
HEALTH_STEP = 0.25

#: Most copies of one unnamed creature the "one more" lever adds up to.
MOST_OF_A_KIND = 12


@dataclass(frozen=True)
class Lever:
    """One change and what it does to the party's chance.

    Attributes
    ----------
    change : str
        The change in words ("One Guard dog more").
    p_win : float
        The party's chance with the change.
    effect : float
        ``p_win`` minus the chance as the encounter stands.
    """

    change: str
    p_win: float
    effect: float


@dataclass(frozen=True)
class LeverTable:
    """The chance as it stands and each lever, largest effect first."""

    p_win: float
    fights: int
    rows: list

    def rows_in_words(self) -> list[tuple[str, str, str]]:
        """(change, chance, effect) in words, e.g. ("One Guard dog more", "62%", "-18 points")."""
        return [(r.change, f"{r.p_win:.0%}", f"{100 * r.effect:+.0f} points") for r in self.rows]


def _copy(encounter: Encounter) -> Encounter:
    return loads(dumps(encounter, "json"), "json", "encounter")


def _variants(encounter: Encounter, party_side: str) -> list[tuple[str, Encounter]]:
    out = []
    foes = [c for c in encounter.combatants if c.side != party_side and not c.is_character]
    kinds = list(dict.fromkeys(str(c.who.name) for c in foes))
    for kind in kinds:
        mine = [i for i, c in enumerate(encounter.combatants) if c.side != party_side
                and not c.is_character and str(c.who.name) == kind]  # fmt: skip
        first = encounter.combatants[mine[0]]
        if not first.who.named and len(mine) < MOST_OF_A_KIND:
            enc = _copy(encounter)
            enc.add(_copy_creature(first.who), first.side)
            out.append((f"One {kind} more", enc))
        if len(foes) > 1:
            enc = _copy(encounter)
            last = mine[-1]
            enc.combatants = [c for i, c in enumerate(enc.combatants) if i != last]
            out.append((f"One {kind} fewer", enc))
        for sign, word in ((1, "up"), (-1, "down")):
            enc = _copy(encounter)
            for i in mine:
                who = enc.combatants[i].who
                who.health = max(
                    1, min(MAX_CARD_TRACK, round(who.health * (1 + sign * HEALTH_STEP)))
                )
            out.append((f"{kind}'s Health {int(HEALTH_STEP * 100)}% {word}", enc))
    party = [
        i for i, c in enumerate(encounter.combatants) if c.side == party_side and c.is_character
    ]
    if party:
        worn = any(
            c.who.health_lost or c.who.poise_lost or c.who.sanity_lost or c.who.ki_spent
            for c in encounter.combatants
            if c.is_character
        )
        enc = _copy(encounter)
        for i in party:
            who = enc.combatants[i].who
            if worn:
                who.param.update(health_lost=0, poise_lost=0, sanity_lost=0, ki_spent=0)
            else:
                who.param.update(
                    health_lost=who.health_max // 4,
                    poise_lost=who.poise_max // 4,
                    sanity_lost=who.sanity_max // 4,
                    ki_spent=who.ki_pool // 2,
                )
        out.append(("The party rested" if worn else "The party not rested", enc))
    if len(party) > 1:
        for i in party:
            enc = _copy(encounter)
            enc.combatants = [c for k, c in enumerate(enc.combatants) if k != i]
            out.append((f"{encounter.combatants[i].who.name} absent", enc))
    return out


def _copy_creature(creature):
    return loads(dumps(creature, "json"), "json", "creature")


def levers(encounter: Encounter, *, fights: int = 2000, seed: int = 0, **policies) -> LeverTable:
    """The party's chance as ``encounter`` stands and under each lever, largest effect first.

    Parameters
    ----------
    encounter : Encounter
        The fight (the party on its first side; a tuned ``Lineup.encounter`` works as it is).
    fights : int
        Fights per run (each lever is one run), 100..200,000.
    seed : int
        The seed of every run (common random numbers).
    **policies
        ``simulate``'s policies, as ``tune_encounter`` takes them.

    Returns
    -------
    LeverTable
    """
    if not isinstance(encounter, Encounter):
        raise ValueError(f"encounter must be an Encounter, got {type(encounter).__name__}")
    if isinstance(fights, bool) or not isinstance(fights, int) or not 100 <= fights <= 200_000:
        raise ValueError(f"fights must be a whole number from 100 to 200,000, got {fights!r}")
    party_side = encounter.sides[0]

    def chance(enc: Encounter) -> float:
        return simulate(plain_encounter(enc), fights, seed, **policies).p_win[party_side]

    base = chance(encounter)
    rows = [Lever(change, p, p - base) for change, enc in _variants(encounter, party_side)
            for p in [chance(enc)]]  # fmt: skip
    rows.sort(key=lambda r: (-abs(r.effect), r.change))
    return LeverTable(p_win=base, fights=fights, rows=rows)
