"""Skills: the starting catalogue of every Skill the texts name, and the ``Skill`` sheet row.

Every Skill rolls off a home Element unless a Descriptor argues another (rules/000 "Rolling the
Dice", rules/002 "How Do I Use a Skill?"). The texts give the home Element of some Skills; for
the rest the catalogue makes a choice and says so (``given=False``), and a player can change it
on the sheet. The choices follow rules/000's approaches: Earth force, Air precision, Fire
intensity, Water adaptation, Moira fate (docs/notes/0002-characters.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import param

from tb_playground.engine import ELEMENTS, TIER_NAMES


@dataclass(frozen=True)
class CatalogueSkill:
    """One Skill the texts name.

    Attributes
    ----------
    name : str
        The Skill's name as the texts spell it.
    home : str
        Its home Element.
    given : bool
        True when a text states the home Element; False when it is this catalogue's choice.
    source : str
        Where the Skill (and, if given, its Element) appears.
    usable_untrained : bool
        False for Swimming: "Swimming can't be done untrained" (rules/000, 001).
    social_attack : bool
        A Skill that carries a Social attack (rules/000 "Which Skill, and Which Element").
    """

    name: str
    home: str
    given: bool
    source: str
    usable_untrained: bool = True
    social_attack: bool = False


#: Every Skill named by rules/000, 001, 002 and 004, alphabetically.
SKILL_CATALOGUE: tuple[CatalogueSkill, ...] = (
    CatalogueSkill(
        "Athletics", "Earth", True, "rules/000 and 001: 'Athletics is Earth by default'"
    ),
    CatalogueSkill("Charm", "Fire", False, "rules/004: not an attack; Fire like the social Skills"),
    CatalogueSkill(
        "Deception",
        "Fire",
        True,
        "rules/000 'Which Skill, and Which Element': Fire (rules/004 'Water carries Deception' "
        "is the Ruleset switch deception_water)",
        social_attack=True,
    ),
    CatalogueSkill("Driving", "Air", False, "rules/001 Chases; precision"),
    CatalogueSkill("First Aid", "Water", False, "rules/000 Getting back up; adaptation"),
    CatalogueSkill("Insight", "Moira", True, "rules/000 and 004: Moira", social_attack=True),
    CatalogueSkill("Intimidation", "Fire", True, "rules/000 and 004: Fire", social_attack=True),
    CatalogueSkill("Leadership", "Fire", True, "rules/000 and 004: Fire", social_attack=True),
    CatalogueSkill("Navigation", "Air", False, "rules/000 Travel; precision"),
    CatalogueSkill("Networking", "Water", False, "rules/000 Scars; working people, adaptation"),
    CatalogueSkill("Perception", "Air", False, "rules/000 Opposed Rolls, 001 Chases; precision"),
    CatalogueSkill("Performance", "Fire", True, "rules/000 and 004: Fire", social_attack=True),
    CatalogueSkill("Persuasion", "Fire", True, "rules/000, 002 and 004: Fire", social_attack=True),
    CatalogueSkill("Piloting", "Air", False, "rules/001 Chases; precision"),
    CatalogueSkill("Public Speaking", "Fire", True, "rules/000 and 004: Fire", social_attack=True),
    CatalogueSkill("Research", "Air", False, "rules/000: Ronan is Adept at Research; precision"),
    CatalogueSkill("Ridicule", "Fire", True, "rules/000 and 004: Fire", social_attack=True),
    CatalogueSkill("Seduction", "Fire", False, "rules/004: not an attack; Fire like Charm"),
    CatalogueSkill("Stealth", "Air", False, "rules/000 and 001 (creature cards); precision"),
    CatalogueSkill(
        "Swimming",
        "Water",
        False,
        "rules/000 and 001: 'can't be done untrained'; staying up rolls Water",
        usable_untrained=False,
    ),
    CatalogueSkill("Tracking", "Water", False, "rules/001 Chases; reading the ground, adaptation"),
)

#: Catalogue entries by name.
CATALOGUE_BY_NAME: dict[str, CatalogueSkill] = {s.name: s for s in SKILL_CATALOGUE}

#: Skills whose home Element a Ruleset switch moves: name -> (switch, Element under it).
SWITCHED_HOMES: dict[str, tuple[str, str]] = {"Deception": ("deception_water", "Water")}


def home_element(name: str, deception_water: bool = False) -> str | None:
    """The home Element a Skill rolls off, under the table's reading; None if not catalogued.

    Deception is Fire (rules/000 "Which Skill, and Which Element", the default); with the
    Ruleset switch ``deception_water`` it is Water (rules/004 "Water carries Deception").

    Parameters
    ----------
    name : str
        The Skill's name as the catalogue spells it.
    deception_water : bool
        The Ruleset switch ``deception_water``.
    """
    if not isinstance(deception_water, bool):
        raise TypeError(f"deception_water must be True or False, got {deception_water!r}")
    entry = CATALOGUE_BY_NAME.get(name)
    if entry is None:
        return None
    switched = SWITCHED_HOMES.get(name)
    if switched is not None and {"deception_water": deception_water}[switched[0]]:
        return switched[1]
    return entry.home


def switched_home_words(skills, deception_water: bool) -> list[str]:
    """Plain words for each switched Skill a file keeps at the other reading's home.

    A character file with Deception at Water (rules/004 "Water carries Deception") read under
    the default rules (rules/000: Fire) is moved to Fire when it joins a table or an encounter
    (``rehome_skills``); the sheet says so when it loads the file (issue 32 item 11).

    Parameters
    ----------
    skills : iterable of Skill
        The file's Skill rows.
    deception_water : bool
        The Ruleset switch ``deception_water`` in force.
    """
    out = []
    for row in skills:
        if row.name not in SWITCHED_HOMES:
            continue
        other = home_element(row.name, not deception_water)
        here = home_element(row.name, deception_water)
        if row.element == other:
            out.append(
                f"{row.name}: the file says {other}, but these rules read {row.name} as {here} "
                f"(rules/{'004' if here == 'Water' else '000'}); at a table it rolls {here} "
                f"unless the ruleset's switch says {other}."
            )
    return out


#: The kind of roll each catalogue Skill makes, for the conditions that reach one kind
#: (Flustered: Social; Exhausted 1: Physical). The texts don't list them: this is the
#: catalogue's choice (docs/notes/0004-conditions.md); rules/001 puts Chase rolls (Athletics,
#: Driving, Piloting) among the Physical ones ("Exhausted 1 puts Chase rolls at Disadvantage").
SKILL_ROLL_KINDS: dict[str, str] = {
    **dict.fromkeys(
        ("Athletics", "Driving", "First Aid", "Piloting", "Stealth", "Swimming"), "physical"
    ),
    **dict.fromkeys(
        (
            "Charm",
            "Deception",
            "Insight",
            "Intimidation",
            "Leadership",
            "Networking",
            "Performance",
            "Persuasion",
            "Public Speaking",
            "Ridicule",
            "Seduction",
        ),
        "social",
    ),  # fmt: skip
    **dict.fromkeys(("Navigation", "Perception", "Research", "Tracking"), "mental"),
}

#: Skills whose roll takes the lead, negotiates or speaks for the group: Humiliated can't
#: make them (rules/000 "Harm and Recovery", Poise below 0).
LEADING_SKILLS = ("Leadership", "Persuasion", "Public Speaking")

#: The kind of a Skill the catalogue doesn't know, by its Element: Fire and Moira carry the
#: social Skills (rules/000 "Which Skill, and Which Element"), the others Physical ones.
ROLL_KIND_BY_ELEMENT = {"Earth": "physical", "Air": "physical", "Fire": "social",
                        "Water": "physical", "Moira": "social"}  # fmt: skip


class Skill(param.Parameterized):
    """One row of the sheet's Skills block: a Skill, the Element it rolls off, its tier."""

    name = param.String(default="Athletics", constant=False, doc="The Skill's name.")
    element = param.Selector(
        default="Earth",
        objects=list(ELEMENTS),
        doc="The home Element the Skill rolls off (a Descriptor can argue another in play).",
    )
    tier = param.Integer(
        default=0,
        bounds=(0, 4),
        doc="Training tier: " + ", ".join(f"{i} {n}" for i, n in enumerate(TIER_NAMES)) + ".",
    )

    @property
    def tier_name(self) -> str:
        """The tier's name (Untrained .. Master)."""
        return TIER_NAMES[self.tier]

    @property
    def usable_untrained(self) -> bool:
        """False for a catalogue Skill that cannot be rolled Untrained (Swimming)."""
        entry = CATALOGUE_BY_NAME.get(self.name)
        return entry is None or entry.usable_untrained

    @property
    def roll_kind(self) -> str:
        """Physical, social or mental: the catalogue's kind, else by the home Element."""
        return SKILL_ROLL_KINDS.get(self.name, ROLL_KIND_BY_ELEMENT[self.element])

    @property
    def leads(self) -> bool:
        """Whether rolling it takes the lead, negotiates or speaks for the group."""
        return self.name in LEADING_SKILLS

    @property
    def social_attack(self) -> bool:
        """Whether this Skill carries a Social attack (rules/000, rules/004)."""
        entry = CATALOGUE_BY_NAME.get(self.name)
        return entry is not None and entry.social_attack


def starting_skills(deception_water: bool = False) -> list[Skill]:
    """A fresh row for every catalogue Skill, at its home Element (``home_element``), Untrained."""
    return [
        Skill(name=s.name, element=home_element(s.name, deception_water), tier=0)
        for s in SKILL_CATALOGUE
    ]


def rehome_skills(skills: list[Skill], deception_water: bool) -> None:
    """Move each switched Skill still at the other reading's home to this reading's home.

    A row the player moved to some third Element (a Descriptor) is left where it is.
    """
    for row in skills:
        if row.name in SWITCHED_HOMES:
            old = home_element(row.name, not deception_water)
            if row.element == old:
                row.element = home_element(row.name, deception_water)
