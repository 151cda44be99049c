"""Which reading of the rules a table plays: the default, the named switches, the roll-over draft.

Rule: RULES.md (default 000 and 004; rules/002 variants as switches; rules/003 as a ``system``).
The properties translate the switches into engine arguments; each switch is written once in
``models/switches.py``. Notes: docs/notes/0005-readings-and-fights.md, docs/notes/0014-rules-lab.md.
"""

from __future__ import annotations

import param

from .switches import SWITCH_LIST, SWITCH_SENTENCES, switch_names

#: The two dice systems (RULES.md, first table).
SYSTEMS = ("20 Below", "roll-over draft")

#: The 002 switches, in the order RULES.md lists them (``models/switches.py`` holds each one).
VARIANT_SWITCHES = switch_names("variant")

#: Readings of 000 and 004 that are not 002's: where 000 is silent, or 004 differs from it.
READING_SWITCHES = switch_names("reading")

#: Every switch, 002's first.
SWITCHES = VARIANT_SWITCHES + READING_SWITCHES


class Ruleset(param.Parameterized):
    """The default reading plus each rules/002 variant as a switch, and the dice system."""

    name = param.String(
        default="Default (rules/000 and 004)", constant=False, doc="A label for this ruleset."
    )
    system = param.Selector(
        default="20 Below",
        objects=list(SYSTEMS),
        doc="20 Below: 2d10 at or under Element + Difficulty. Roll-over draft (rules/003): "
        "2d10 + Skill Rating at or over a DC, stacking re-roll Advantage; a separate system.",
    )

    @property
    def boost_timing(self) -> str:
        """``timing`` for the damage engine: "before" under variant 002, else "after"."""
        return "before" if self.boosts_before_roll else "after"

    @property
    def roll_over(self) -> bool:
        """Whether the rules/003 roll-over draft is the dice system."""
        return self.system == "roll-over draft"

    @property
    def opposed_args(self) -> dict[str, bool]:
        """Keyword arguments for ``contest`` and ``opposed_odds``."""
        return {"criticals_outrank": self.criticals_outrank}

    @property
    def tier_args(self) -> dict[str, bool]:
        """Keyword arguments for ``tier_rules``, ``check_odds`` and ``skill_odds_table``."""
        return {"advantage_from_expert": self.advantage_from_expert}

    @property
    def skill_args(self) -> dict[str, bool]:
        """Keyword arguments for ``skills.home_element`` and ``starting_skills``."""
        return {"deception_water": self.deception_water}

    @property
    def called_shot_args(self) -> dict[str, bool]:
        """Keyword arguments for the engine's attack conditions (a Slow Called Shot)."""
        return {"slow_called_shot_advantage": self.slow_called_shot_advantage}

    @property
    def rest_args(self) -> dict[str, bool]:
        """Keyword arguments for the engine's rest functions (healing below 0 Health)."""
        return {"below_zero_heals_per_rest": self.below_zero_heals_per_rest}

    @property
    def flustered_args(self) -> dict[str, bool]:
        """Keyword arguments for the engine's condition rules (shaking off Flustered)."""
        return {"flustered_shaken_off": self.flustered_shaken_off}

    @property
    def variants_on(self) -> list[str]:
        """The names of the switches that are on (002's, then the other readings)."""
        return [name for name in switch_names() if getattr(self, name)]

    def switches_on_text(self) -> list[str]:
        """Each switch that is on as a plain sentence, for a page to show (no code names)."""
        return [SWITCH_SENTENCES[name] for name in self.variants_on]

    def describe(self) -> str:
        """One line: the system and the switches that are on."""
        on = self.variants_on
        return f"{self.system}; " + (
            "variants: " + ", ".join(on) if on else "default reading (rules/000, 004)"
        )

    @classmethod
    def quick_reference(cls) -> Ruleset:
        """Every rules/002 variant switched on."""
        return cls(name="Quick Reference (rules/002)", **dict.fromkeys(VARIANT_SWITCHES, True))

    @classmethod
    def roll_over_draft(cls) -> Ruleset:
        """The rules/003 roll-over draft."""
        return cls(name="Roll-over draft (rules/003)", system="roll-over draft")


def add_switches(cls: type[Ruleset]) -> type[Ruleset]:
    """Give ``cls`` an off-by-default Boolean for each switch of ``SWITCH_LIST`` it lacks.

    The parameter's help text is the switch's ``doc``; a switch added to the list becomes a
    parameter of a Ruleset made after it (``add_switches(type("R", (Ruleset,), {}))``).
    """
    for switch in SWITCH_LIST:
        if switch.name not in cls.param:
            cls.param.add_parameter(switch.name, param.Boolean(default=False, doc=switch.doc))
    return cls


add_switches(Ruleset)
