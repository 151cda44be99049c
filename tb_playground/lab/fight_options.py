"""How the simulated sides play: the policy names, and the options a batch of fights runs under.

Each combatant declares a Bracket by its bracket policy (RULES.md "Combat round"; rules/000
"Action Brackets": Fast one attack first, Normal two, Slow one empowered by Aim or a Called
Shot, a Ki bump moving the band), picks a target among its foes by its target policy, boosts
its damage dice with Ki by its boost policy (rules/000 "Spending Ki on the Dice"), and as a
defender spends Ki on prevention by its Ki policy (``engine.KI_POLICIES``; RULES.md "Vitals").
A side is beaten when all its combatants are down or dead (``ENDS``; rules/000 "Harm and
Recovery").

``FightOptions`` is those choices resolved per combatant, with the fight's limits: what
``simulate`` hands each chunk of fights and ``lab.from_table`` builds for one fight by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: How a combatant picks its Bracket each round.
#: "normal": Normal, two attacks. "fast": Fast, one attack, first. "aim": Slow with Aim.
#: "called_shot": Slow with a Called Shot. "slow_aim": Slow with Aim when one aimed attack is
#: worth more expected levels than two plain ones against the target it means to hit, else
#: Normal. "bump": Normal bumped to the Fast band (1 Ki) while Ki lasts, else Normal.
BRACKET_POLICIES = ("normal", "fast", "slow_aim", "aim", "called_shot", "bump")

#: How a combatant picks its target among the foes it may attack.
#: "weakest": fewest levels left on the track its attack hits. "spread": the foe attacked
#: least this round, then the weakest. "most_dangerous": the foe whose attacks would deal the
#: most expected levels to its side, then the weakest. "finish": the weakest, counting foes
#: already down (not dead, not gone) too.
TARGET_POLICIES = ("weakest", "spread", "most_dangerous", "finish")

#: Ki boosts: "lift" boosts every die a boost lifts over the wall while Ki lasts and the
#: track still loses the level (``engine.hit_room``, as the table offers boosts); "none"
#: never boosts; a whole number caps the boosts of one attack. Under the 002 switch
#: ``boosts_before_roll``, chosen before the roll: "lift" commits as many boosts as Ki lasts
#: (up to the dice rolled) whenever a boost can lift a face of the attack over the wall, a
#: whole number commits at most that many, "none" none.
BOOST_POLICIES = ("lift", "none")

#: When a side is beaten: every one of its combatants "down" (unable to act) or "dead" (dead
#: or gone; foes already down are then attacked until they die).
ENDS = ("down", "dead")


@dataclass(frozen=True, eq=False)
class FightOptions:
    """The options one batch of fights (``vector_rules.Fights``) is played under.

    Attributes
    ----------
    bracket : list of str
        Each combatant's bracket policy (``BRACKET_POLICIES``).
    target_code : numpy.ndarray
        Each combatant's target policy, as its index in ``TARGET_POLICIES``.
    spread : bool
        Whether any combatant's target policy is "spread" (attacks are then counted per round).
    ki_policy : list of str
        Each combatant's Ki policy as a defender (``engine.KI_POLICIES``).
    boost_cap : numpy.ndarray
        Each combatant's most boosts per attack (1000 for "lift", 0 for "none").
    end : str
        When a side is beaten (``ENDS``).
    max_rounds : int
        Rounds before an undecided fight is called a draw.
    off_balance : bool
        Whether a catastrophe leaves the attacker Off Balance.
    opening : dict, optional
        A fight under way (``lab.from_table.opening``); None: a fight about to start.
    """

    bracket: list
    target_code: np.ndarray
    spread: bool
    ki_policy: list
    boost_cap: np.ndarray
    end: str
    max_rounds: int
    off_balance: bool
    opening: dict | None = None


#: Every rule of a fight the simulation leaves out, in plain words for a page (issue 32,
#: item 16). A page lists them beside a chance to win: the table plays them, the simulator
#: does not, so a fight that turns on one of them may go otherwise than the chance says.
LEFT_OUT = (
    "Help: an ally giving Advantage to an attack (and sharing its catastrophe).",
    "Reckless attacks (Advantage for you and against you) and Full Defense (no attack, "
    "Defense up by 4, attacks against you at Disadvantage).",
    "Study a Target before a Called Shot: its Advantage is never taken.",
    "Cover that changes during the fight (a side's partial cover is a setting) and full "
    "cover; dropping Prone or Belly Down, or standing up.",
    "Movement, range bands and weapon ranges: every attack is in reach.",
    "Grab, Disarm, Grabbed and Squeezed.",
    "The Distracted roll to hold a Slow action after a hit.",
    "Fate Tokens: none are spent (no shrugging off a condition, no getting back up).",
    "Ki spent outside an attack: bringing Poise or Sanity back to 1 between hits.",
    "Off-hand attacks, situational bonuses and the GM's rulings.",
    "Leaving the fight: fleeing, hiding, surrender, a Humiliated foe who gives in.",
    "Skill rolls in a fight (Intimidation to scatter foes, First Aid, stabilising the Dying).",
    "Choosing the Element of an attack: each attack uses the best Element it allows.",
)
