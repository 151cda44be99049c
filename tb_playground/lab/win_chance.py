"""The party's chance to win a fight from where it stands, as a record (issue 23, item 1).

``WinChance`` is what ``win_from_here`` gives after a table's event: the chance the party's
side wins with its interval, the rounds left, each combatant's chance to be unable to act by the
end of the next round (RULES.md "Vitals": 0 Health unconscious, Sanity below 0 Shattered;
rules/000 "Harm and Recovery"), and the draw: a fight still undecided after ``max_rounds``
more rounds, in no side's chance. ``PHASES`` are the table's phases it is worked out in
(RULES.md "Combat round": a round's declarations, then its turns).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The phases a win chance is worked out in: before the fight, a round's declarations, its turns,
#: and a fight that is over (its winner is known).
PHASES = ("setup", "declare", "resolve", "over")


@dataclass(frozen=True)
class WinChance:
    """The party's chance to win from here, and how the rest of the fight may go.

    Attributes
    ----------
    p_win : float
        P(the party's side wins). A fight still undecided after ``max_rounds`` more rounds is a
        draw, in no side's chance.
    p_win_interval : tuple of float
        Its 95% Wilson interval; collapsed to ``(p_win, p_win)`` when ``exact``.
    rounds_left : float
        Expected rounds until one side is out, counting the round in play as one (the fights
        that end; nan if none did; 0 for a fight already over).
    rounds_left_interval : tuple of float
        Its 95% interval (collapsed when ``exact``).
    down_next_round : dict
        Combatant id -> P(unable to act by the end of round ``next_round``): 1 for one down now.
    next_round : int
        The table's round those chances run to: the round being declared (round 1 before the
        fight), or the one after the round whose turns are under way.
    party_side : str
        The side ``p_win`` is for (the table's party side).
    p_draw : float
        P(no side wins within ``max_rounds`` more rounds).
    fights : int
        Fights simulated (0 when ``exact`` or the fight is over).
    exact : bool
        Worked out exactly by ``engine.fight_odds`` (one against one), not simulated.
    version : int
        The table's version the chance is for.
    """

    p_win: float
    p_win_interval: tuple[float, float]
    rounds_left: float
    rounds_left_interval: tuple[float, float]
    down_next_round: dict = field(default_factory=dict)
    next_round: int = 1
    party_side: str = "Party"
    p_draw: float = 0.0
    fights: int = 0
    exact: bool = False
    version: int = 0
