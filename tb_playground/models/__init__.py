"""Domain objects as ``param.Parameterized`` classes: bounds and docs are the validation."""

from .check import Check

__all__ = ["Check"]

from .attack import SLOW_ACTIONS, Attack  # noqa: E402

__all__ += ["SLOW_ACTIONS", "Attack"]

# Characters, creatures, encounters and their files (issue: character sheet).
from .character import (  # noqa: E402
    ArmorItem,
    AttackOption,
    AttackSource,
    Character,
    Descriptor,
    Flaw,
    Gift,
    Scar,
    Weapon,
)
from .creature import Creature, CreatureAttack, MovementMode, StaticNumber  # noqa: E402
from .encounter import Combatant, Encounter, SceneConditions  # noqa: E402
from .files import FileFormatError, dumps, load, load_roster, loads, save  # noqa: E402
from .ruleset import Ruleset  # noqa: E402
from .skills import SKILL_CATALOGUE, Skill  # noqa: E402

__all__ += [
    "SKILL_CATALOGUE",
    "ArmorItem",
    "AttackOption",
    "AttackSource",
    "Character",
    "Combatant",
    "Creature",
    "CreatureAttack",
    "Descriptor",
    "Encounter",
    "FileFormatError",
    "Flaw",
    "Gift",
    "MovementMode",
    "Ruleset",
    "Scar",
    "SceneConditions",
    "Skill",
    "StaticNumber",
    "Weapon",
    "dumps",
    "load",
    "load_roster",
    "loads",
    "save",
]
