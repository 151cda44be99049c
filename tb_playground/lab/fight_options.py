"""How the simulated sides play: the names of the policies ``simulate`` takes.

Each combatant declares a Bracket by its bracket policy (RULES.md "Combat round"; rules/000
"Action Brackets": Fast one attack first, Normal two, Slow one empowered by Aim or a Called
Shot, a Ki bump moving the band), picks a target among its foes by its target policy, boosts
its damage dice with Ki by its boost policy (rules/000 "Spending Ki on the Dice"), and as a
defender spends Ki on prevention by its Ki policy (``engine.KI_POLICIES``; RULES.md "Vitals").
A side is beaten when all its combatants are down or dead (``ENDS``; rules/000 "Harm and
Recovery").
"""

from __future__ import annotations

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
