"""Which reading of the rules a table plays (RULES.md: default, variants, the roll-over draft).

The default is what rules/000 and rules/004 say. Each place rules/002 (the Player's Quick
Reference) reads differently is a named switch, off by default and never mixed in silently.
rules/003's roll-over draft is a whole separate ``system`` kept for side-by-side comparison.

Every engine call a switch touches takes it as an argument; the properties below translate the
switches into those arguments (``boost_timing`` for ``damage_distribution``, ``never_moira``
for ``attack_elements`` and ``attack_to_hit``, ``vitals_002`` for ``vital_step`` and
``ki_recovery``...).
"""

from __future__ import annotations

import param

#: The two dice systems (RULES.md, first table).
SYSTEMS = ("20 Below", "roll-over draft")

#: The 002 switches, in the order RULES.md lists them.
VARIANT_SWITCHES = (
    "gift_check_ki_plus_stamina",
    "never_moira",
    "boosts_before_roll",
    "vitals_002",
    "ki_pool_from_sub_stats",
    "short_rest_half_klotho",
    "fate_spends_stamina_only",
    "death_at_negative_health",
)


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
    gift_check_ki_plus_stamina = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Core Roll: Gift Check): a Gift Check's TN is current Ki + "
        "Stamina instead of current Ki.",
    )
    never_moira = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Attacks): Moira carries no attack at all. Default: never a "
        "Physical one, but Social and Mental ones readily.",
    )
    boosts_before_roll = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Attacks: Ki boost): boosted dice are chosen before the roll. "
        "Default: roll first, then boost the dice worth it.",
    )
    vitals_002 = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Vitals): Poise stops at 0; Ki cannot prevent a Poise hit; "
        "at 0 Poise, 1 Ki refills it to full.",
    )
    ki_pool_from_sub_stats = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Vitals): Ki pool = 2 x average(Soak, Initiative, Ferocity, "
        "Stamina, Atropos). Default: strongest Element + 8.",
    )
    short_rest_half_klotho = param.Boolean(
        default=False,
        doc="Variant 002 (RULES.md, Vitals): a Short Rest gives half Klotho, rounded up. "
        "Default: Klotho, minimum 1.",
    )
    fate_spends_stamina_only = param.Boolean(
        default=False,
        doc="Variant 002 (rules/002 'How Does Fate Work?'): Stamina counted Fate Token spends "
        "per Scene. Default (rules/004): Stamina + 1.",
    )
    death_at_negative_health = param.Boolean(
        default=False,
        doc="Variant 002 (rules/002 'What Happens to My Health?'): dead at or below the "
        "negative Health sub-stat. Default (rules/000, 004): at -maximum, the bottom.",
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
    def variants_on(self) -> list[str]:
        """The names of the 002 switches that are on."""
        return [name for name in VARIANT_SWITCHES if getattr(self, name)]

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
