"""A Core Roll check as a param object (RULES.md, Core Roll).

Parameter bounds and docs are the validation and the help text; the derived ``target``,
``net_advantage`` and ``odds`` are constant parameters kept current by the engine, so views
can watch them instead of recomputing anything.
"""

from __future__ import annotations

import param

from tb_playground.engine import (
    DIFFICULTY_NAMES,
    TIER_NAMES,
    Odds,
    check_odds,
    tier_rules,
)


class Check(param.Parameterized):
    """One skill check: Element + Difficulty at a training tier, with Advantage sources."""

    element = param.Integer(
        default=5, bounds=(0, 10), doc="Element added to the Difficulty (0..10). Ignored Untrained."
    )
    difficulty = param.Integer(
        default=6,
        bounds=(0, 10),
        doc="Difficulty the GM sets, 0 Nearly Impossible .. 10 Trivial. Higher is easier.",
    )
    tier = param.Integer(
        default=1,
        bounds=(0, 4),
        doc=(
            "Training tier: 0 Untrained (Difficulty only), 1 Trained, 2 Adept (+1 Advantage), "
            "3 Expert (as Adept, a 2 or 3 is critical), 4 Master (as Expert, a catastrophe is "
            "rerolled once)."
        ),
    )
    advantage_sources = param.Integer(
        default=0, bounds=(0, 10), doc="Situational sources of Advantage, each +1 (0..10)."
    )
    disadvantage_sources = param.Integer(
        default=0, bounds=(0, 10), doc="Situational sources of Disadvantage, each -1 (0..10)."
    )

    target = param.Integer(
        default=None, allow_None=True, constant=True, doc="Target Number (derived)."
    )
    net_advantage = param.Integer(
        default=0,
        constant=True,
        doc="Net Advantage sources including the tier's own (derived); only the sign matters.",
    )
    odds = param.ClassSelector(
        class_=Odds, default=None, constant=True, doc="Exact odds from the engine (derived)."
    )

    @property
    def difficulty_name(self) -> str:
        """The rules/004 name of the current Difficulty."""
        return DIFFICULTY_NAMES[self.difficulty]

    @property
    def tier_name(self) -> str:
        """The name of the current training tier."""
        return TIER_NAMES[self.tier]

    @param.depends(
        "element",
        "difficulty",
        "tier",
        "advantage_sources",
        "disadvantage_sources",
        watch=True,
        on_init=True,
    )
    def _update_odds(self) -> None:
        situational = self.advantage_sources - self.disadvantage_sources
        odds = check_odds(self.element, self.difficulty, self.tier, situational)
        with param.edit_constant(self):
            self.param.update(
                target=odds.target,
                net_advantage=situational + tier_rules(self.tier).advantage_sources,
                odds=odds,
            )
