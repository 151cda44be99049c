"""P(win) of the same encounter under the default and under a switch (``win_comparison``).

Which switches the simulator can play (``SIMULATED``), why the others cannot
(``NOT_SIMULATED``), the policies (``SWITCH_POLICIES``) and fights (``SUGGESTED_FIGHTS``) each
is best seen in. Notes: docs/notes/0014-rules-lab.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from tb_playground.engine.validation import require_int
from tb_playground.models.switches import SwitchColumn, switch_list

from .lab_switches import check_switch

#: Switches the simulator plays itself (``simulate``'s ``ruleset`` argument): all of
#: ``lab.prepare.RULESET_SWITCHES`` (``Switch.fights`` is "simulator").
SIMULATOR_SWITCHES = tuple(s.name for s in switch_list() if s.fights == "simulator")

#: Switches that change the combatants' own numbers (the Ki pool): the comparison rebuilds the
#: encounter's characters under the switch and fights them (``Switch.fights`` is "sheet").
SHEET_SWITCHES = tuple(s.name for s in switch_list() if s.fights == "sheet")

SIMULATED = SIMULATOR_SWITCHES + SHEET_SWITCHES

#: The fight each simulated switch is best seen in (the page's starting sides) and the policies
#: ``win_comparison`` plays it with, with a sentence saying why.
#: Picked among the example roster's fights for being close (a change can show); none of them
#: has a Moira attack worth choosing, so "never_moira" changes nothing there (note 0014).
SUGGESTED_FIGHTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "vitals_002": (
        ("The Nerdy Hacker", "Ronan", "The Brick"),
        ("Captain Oriel Vance", "Nightmare"),
    ),
    "never_moira": (
        ("The Nerdy Hacker", "Ronan", "The Brick"),
        ("Captain Oriel Vance", "Nightmare"),
    ),
    "slow_called_shot_advantage": (("The Brick",), ("Nightmare",)),
    "ki_pool_from_sub_stats": (("Ronan",), ("Grizzly bear",)),
    "boosts_before_roll": (("Ronan",), ("Grizzly bear",)),
}

#: Policies a switch needs to come up in a fight at all, and what they mean.
SWITCH_POLICIES: dict[str, tuple[dict, str]] = {
    "slow_called_shot_advantage": (
        {"bracket_policy": "called_shot"},
        "Everyone declares Slow and makes a Called Shot every round: the switch touches only "
        "Called Shots.",
    ),
    "vitals_002": (
        {},
        "Each fighter uses the attack that takes the most levels; Social attacks (Poise) are "
        "where this switch shows.",
    ),
    "never_moira": (
        {},
        "Each fighter uses the attack that takes the most levels; under the switch an attack "
        "carried by Moira is not allowed, so the next best is used.",
    ),
    "boosts_before_roll": (
        {},
        "Under the switch each fighter puts as many Ki boosts as its Ki allows (up to its "
        "damage dice) on every damage roll before the dice are rolled, whenever a boost can "
        "lift a die over the wall; every one is spent on a hit. Under the default it boosts "
        "after the roll, only the dice a boost lifts. Ki spent on boosts is Ki no longer there "
        "to prevent damage.",
    ),
    "ki_pool_from_sub_stats": (
        {},
        "Each character starts with the Ki pool the switch gives (twice the average of five "
        "sub-stats) instead of the sheet's; creatures keep their card's Ki.",
    ),
}

#: Why the others have no P(win) comparison, in plain words (``Switch.fights_note``).
NOT_SIMULATED: Mapping[str, str] = SwitchColumn(
    "fights_note", draft=True, keep=lambda s: s.fights == "none"
)


class Cancelled(Exception):  # noqa: N818 (a state, not an error)
    """Raised inside ``win_comparison`` when its ``cancelled`` hook says so."""


@dataclass(frozen=True)
class WinComparison:
    """P(each side wins) of one encounter under the default and under a switch.

    Attributes
    ----------
    switch : str
    simulated : bool
        False when ``lab.simulate`` cannot play the switch; ``note`` says why and there are
        no numbers.
    note : str
    sides : tuple of str
    fights : int
        Fights played under each reading (the same seeds for both).
    default, switched : dict of str to float
        P(each side wins).
    default_interval, switched_interval : dict of str to (float, float)
        95% Wilson intervals.
    default_draw, switched_draw : float
        P(no side won by the round limit).
    """

    switch: str
    simulated: bool
    note: str
    sides: tuple[str, ...] = ()
    fights: int = 0
    default: dict = field(default_factory=dict)
    switched: dict = field(default_factory=dict)
    default_interval: dict = field(default_factory=dict)
    switched_interval: dict = field(default_factory=dict)
    default_draw: float = 0.0
    switched_draw: float = 0.0

    def rows(self) -> list[dict[str, object]]:
        """One row per side: P(win) under each reading with its interval, and the change."""
        return [
            {
                "Side": side,
                "Default": self.default[side],
                "Default low": self.default_interval[side][0],
                "Default high": self.default_interval[side][1],
                "Switched": self.switched[side],
                "Switched low": self.switched_interval[side][0],
                "Switched high": self.switched_interval[side][1],
                "Change": self.switched[side] - self.default[side],
            }
            for side in self.sides
        ]


def example_encounter(party=("Ronan", "The Brick"), foes=("Grizzly bear", "Guard dog")):
    """An Encounter from the example roster: ``party`` (characters) against ``foes``.

    Names not in the roster are refused with a ValueError listing the ones that are.
    """
    from tb_playground.models import Encounter
    from tb_playground.models.files import loads
    from tb_playground.models.roster import example_roster

    roster = example_roster()
    characters = {c.name: c for c in roster.characters}
    creatures = {c.name: c for c in roster.creatures}
    enc = Encounter()
    for who in party:
        if who not in characters:
            raise ValueError(f"party must name characters among {sorted(characters)}, got {who!r}")
        enc.add(loads(characters[who].text, kind="character", source=who), "Party")
    for who in foes:
        if who not in creatures:
            raise ValueError(f"foes must name creatures among {sorted(creatures)}, got {who!r}")
        enc.add(creatures[who], "Foes")  # read only: the simulator never changes it
    return enc


def under_switch(encounter, switch: str):
    """A copy of ``encounter`` whose ruleset (shared by its characters) has ``switch`` on."""
    from tb_playground.models import Encounter
    from tb_playground.models.files import from_dict, to_dict

    if not isinstance(encounter, Encounter):
        raise TypeError(
            f"encounter: the {switch} switch changes the characters' own numbers, so it needs "
            f"an Encounter (their sheets), got {type(encounter).__name__}"
        )
    copy = from_dict(Encounter, to_dict(encounter))
    copy.ruleset.param.update(**{switch: True})
    return copy


def win_comparison(
    encounter,
    switch: str,
    fights: int = 2000,
    seed: int = 1,
    chunk: int = 500,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    **policies,
) -> WinComparison:
    """P(win) of ``encounter`` under the default reading and under ``switch`` (``lab.simulate``).

    The fights are played in chunks (``chunk`` each, default then switched), each chunk with
    a seed drawn from ``SeedSequence(seed)``, the same for both readings (common random
    numbers); ``progress(fraction)`` is called after each, and ``cancelled()`` is asked before
    each (True raises ``Cancelled``). The same arguments give the same result.

    Parameters
    ----------
    encounter : Encounter or list of dict
        As for ``simulate``; its own Ruleset switches are overridden by the comparison's.
    switch : str
        From ``LAB_SWITCHES``; one ``simulate`` cannot play gives ``simulated=False`` and a
        note, never a silent default.
    fights : int
        Per reading, 1..1,000,000.
    seed : int
        The random seed, 0 or more.
    chunk : int
        Fights per step, 1..100,000.
    progress : callable, optional
        Called with the fraction done (0..1) after each chunk.
    cancelled : callable, optional
        Asked before each chunk; True stops the run with ``Cancelled``.
    **policies
        Passed to ``simulate`` (``bracket_policy``, ``target_policy``...), over the ones the
        switch needs to come up at all (``SWITCH_POLICIES``; said in ``note``).
    """
    from .fight_result import wilson_interval
    from .simulate import simulate

    switch = check_switch(switch)
    fights = require_int("fights", fights, 1, 1_000_000)
    seed = require_int("seed", seed, 0, None)
    chunk = require_int("chunk", chunk, 1, 100_000)
    if switch not in SIMULATED:
        return WinComparison(switch, False, NOT_SIMULATED[switch])
    needed, why = SWITCH_POLICIES[switch]
    policies = {**needed, **policies}
    readings = {False: encounter, True: encounter}
    if switch in SHEET_SWITCHES:
        readings[True] = under_switch(encounter, switch)
    sizes = [chunk] * (fights // chunk) + ([fights % chunk] if fights % chunk else [])
    seeds = np.random.SeedSequence(seed).generate_state(len(sizes), dtype=np.uint32)
    wins = {False: None, True: None}
    draws = {False: 0, True: 0}
    sides: list[str] = []
    steps = 2 * len(sizes)
    done = 0
    for size, chunk_seed in zip(sizes, seeds, strict=True):
        for on in (False, True):
            if cancelled is not None and cancelled():
                raise Cancelled("the comparison was cancelled")
            result = simulate(
                readings[on],
                fights=size,
                seed=int(chunk_seed),
                ruleset={name: (on and name == switch) for name in SIMULATOR_SWITCHES},
                **policies,
            )
            sides = list(result.sides)
            counts = np.bincount(result.winner + 1, minlength=len(sides) + 1)
            wins[on] = counts[1:] if wins[on] is None else wins[on] + counts[1:]
            draws[on] += int(counts[0])
            done += 1
            if progress is not None:
                progress(done / steps)

    def probs(on):
        return {s: float(wins[on][i] / fights) for i, s in enumerate(sides)}

    def intervals(on):
        return {s: wilson_interval(int(wins[on][i]), fights) for i, s in enumerate(sides)}

    return WinComparison(
        switch=switch,
        simulated=True,
        note=why,
        sides=tuple(sides),
        fights=fights,
        default=probs(False),
        switched=probs(True),
        default_interval=intervals(False),
        switched_interval=intervals(True),
        default_draw=draws[False] / fights,
        switched_draw=draws[True] / fights,
    )
