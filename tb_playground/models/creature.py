"""A creature's card as a param object (rules/000 "Opposed Rolls", "Named and unnamed"; 001).

A creature doesn't roll its side of an opposed roll: its card gives a static number ("Stealth 6
vs. Perception" means you roll Perception at Difficulty 6). The card also gives its attacks,
its three Defenses and walls, its tracks, and how it moves ("14m swimming"). An unnamed
creature that reaches 0 Health is out of the fight and the story.
"""

from __future__ import annotations

import param

from tb_playground.engine import ATTACK_KIND_RULES, ATTACK_KINDS, MAX_DICE
from tb_playground.engine.character_stats import fight_status, vital_now
from tb_playground.engine.roll_over import draft_defense

#: Ways a creature moves (rules/001 "Creatures That Move Differently").
MOVEMENT_MODES = ("walk", "fly", "swim", "climb", "burrow", "glide", "drift")

#: Largest track on a card.
MAX_CARD_TRACK = 100


class StaticNumber(param.Parameterized):
    """A static opposed number: "Stealth 6 vs. Perception" (rules/000 "Opposed Rolls")."""

    name = param.String(default="Stealth", constant=False, doc="The creature's Skill on the card.")
    value = param.Integer(
        default=6, bounds=(0, 10), doc="The number: the Difficulty of your roll (0..10)."
    )
    versus = param.String(default="Perception", doc="The Skill a character rolls against it.")


class CreatureAttack(param.Parameterized):
    """One attack on a card."""

    name = param.String(default="Bite", constant=False, doc="The attack's name.")
    kind = param.Selector(
        default="physical", objects=list(ATTACK_KINDS), doc="Physical, Social or Mental."
    )
    element = param.Integer(
        default=4, bounds=(0, 10), doc="The Element its to-hit adds to your Defense (0..10)."
    )
    dice = param.Integer(
        default=3, bounds=(0, MAX_DICE), doc=f"Damage dice (0..{MAX_DICE}) against your wall."
    )
    automatic = param.Boolean(
        default=False,
        doc="Hits without a to-hit roll ('A nightmare's cry doesn't bother with a to-hit roll').",
    )
    reach = param.Integer(default=1, bounds=(0, 5000), doc="Reach or range in metres.")
    notes = param.String(default="", doc="Anything else the card says.")


class MovementMode(param.Parameterized):
    """A movement mode and its rate: "14m swimming" (rules/001)."""

    name = param.String(default="move", constant=False, doc="A label for the mode.")
    mode = param.Selector(default="walk", objects=list(MOVEMENT_MODES), doc="How it moves.")
    metres = param.Integer(default=8, bounds=(0, 1000), doc="Metres per move (0..1000).")


def _card_stat(default: int, doc: str) -> param.Integer:
    return param.Integer(default=default, bounds=(0, 10), doc=doc + " (0..10).")


class Creature(param.Parameterized):
    """A creature card: static numbers, attacks, Defenses, walls, tracks, movement."""

    name = param.String(default="A creature", constant=False, doc="What the card is called.")
    named = param.Boolean(
        default=False,
        doc="A named NPC follows the player rules at 0; an unnamed one is out of the fight.",
    )
    description = param.String(default="", doc="What it is.")
    static_numbers = param.List(
        default=[], item_type=StaticNumber, doc="Static opposed numbers ('Stealth 6 vs. ...')."
    )
    attacks = param.List(default=[], item_type=CreatureAttack, doc="Its attacks.")
    defense_physical = _card_stat(5, "Physical Defense: your Element + it is your to-hit TN")
    defense_social = _card_stat(5, "Social Defense")
    defense_mental = _card_stat(5, "Mental Defense")
    soak = _card_stat(4, "Soak: the wall against Physical dice")
    presence = _card_stat(4, "Presence: the wall against Social dice")
    psyche = _card_stat(4, "Psyche: the wall against Mental dice")
    health = param.Integer(
        default=8, bounds=(1, MAX_CARD_TRACK), doc=f"Health levels (1..{MAX_CARD_TRACK})."
    )
    poise = param.Integer(
        default=5, bounds=(1, MAX_CARD_TRACK), doc=f"Poise levels (1..{MAX_CARD_TRACK})."
    )
    sanity = param.Integer(
        default=5, bounds=(1, MAX_CARD_TRACK), doc=f"Sanity levels (1..{MAX_CARD_TRACK})."
    )
    initiative = _card_stat(3, "Initiative: 1d10 + it")
    ki = param.Integer(default=0, bounds=(0, 100), doc="Ki for preventing levels (0..100).")
    movement = param.List(default=[], item_type=MovementMode, doc="Movement modes and rates.")
    health_lost = param.Integer(
        default=0, bounds=(0, 2 * MAX_CARD_TRACK), doc="Health levels lost in this fight."
    )

    health_now = param.Integer(default=0, constant=True, doc="Health now (derived).")
    status = param.String(
        default="up", constant=True, doc="up / unconscious / dying / dead / out (derived)."
    )

    def __init__(self, **params):
        if "movement" not in params:
            params["movement"] = [MovementMode()]
        super().__init__(**params)

    @param.depends("health", "health_lost", "named", watch=True, on_init=True)
    def _update_status(self) -> None:
        now = vital_now("health", self.health, self.health_lost)
        with param.edit_constant(self):
            self.param.update(health_now=now, status=fight_status(now, self.health, self.named))

    def defense_for(self, kind: str) -> int:
        """The card's Defense against an attack of ``kind``."""
        return getattr(self, f"defense_{kind}")

    def wall_for(self, kind: str) -> int:
        """The card's wall against an attack of ``kind``: Soak, Presence or Psyche."""
        return getattr(self, ATTACK_KIND_RULES[kind].wall_stat.lower())

    def track_max(self, kind: str) -> int:
        """The track an attack of ``kind`` hits: Health, Poise or Sanity levels."""
        return getattr(self, ATTACK_KIND_RULES[kind].vital)

    def draft_defense_for(self, kind: str) -> int:
        """Defense on the roll-over draft's scale (rules/003): 11 + the card's Defense.

        Our mapping for comparisons only (docs/notes/0002-characters.md).
        """
        return draft_defense(self.defense_for(kind))

    def static_number(self, versus: str) -> StaticNumber | None:
        """The card's static number a character rolls ``versus`` against, if any."""
        return next((s for s in self.static_numbers if s.versus == versus), None)

    @property
    def movement_rates(self) -> dict[str, int]:
        """Movement mode -> metres."""
        return {m.mode: m.metres for m in self.movement}
