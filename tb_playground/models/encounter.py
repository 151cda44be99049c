"""An encounter: sides, combatants (characters and creatures) and the conditions of the scene.

The encounter owns one ``Ruleset`` and hands it to every character in it, so a switch flipped
for the table changes every sheet at once. The combat panel reads ``combatants``; the derived
``standing`` says who is still in the fight (an unnamed creature at 0 is "out", rules/000).
"""

from __future__ import annotations

import param

from tb_playground.engine.character_stats import GROUNDS, party_travel

from .character import Character
from .creature import Creature
from .ruleset import Ruleset

#: Light in the scene (rules/000 "Climbing": darkness makes a surface a step or two harder).
LIGHT = ("bright", "dim", "dark")

#: Weather in the scene (rain, wind: a step or two harder, rules/000 and 001).
WEATHER = ("calm", "rain", "wind", "storm", "snow")

#: Cover on offer (rules/001 "Cover").
COVER = ("none", "partial", "full")

#: Water in the scene (rules/000 "Swimming": calm or rough).
WATER = ("none", "calm", "rough")


class SceneConditions(param.Parameterized):
    """What the scene itself does to everyone in it (rules/000 "Movement", 001)."""

    name = param.String(default="The scene", constant=False, doc="Where this happens.")
    ground = param.Selector(
        default="clear",
        objects=list(GROUNDS),
        doc="clear costs what it says; rough 2 m per 1 m; wild 3 m per 1 m (rules/001).",
    )
    slick_footing = param.Boolean(
        default=False, doc="Ice, a slick deck, loose scree: Dash or Sprint needs Athletics 6."
    )
    light = param.Selector(default="bright", objects=list(LIGHT), doc="Light.")
    weather = param.Selector(default="calm", objects=list(WEATHER), doc="Weather.")
    cover = param.Selector(default="none", objects=list(COVER), doc="Cover on offer.")
    water = param.Selector(default="none", objects=list(WATER), doc="Deep water, if any.")
    cold = param.Boolean(default=False, doc="Cold: its Exhausted levels don't clear in it.")
    notes = param.String(default="", doc="Anything else about the scene.")


class Combatant(param.Parameterized):
    """A character or a creature, on a side."""

    #: Files leave out the Parameterized's own name: a combatant is known by ``who.name``.
    _transient = ("name",)

    name = param.String(
        default="combatant", constant=False, doc="Internal name; the label is who.name."
    )
    side = param.String(default="Party", doc="The side it fights on.")
    who = param.ClassSelector(
        class_=(Character, Creature),
        default=None,
        allow_None=False,
        instantiate=False,
        doc="The character or creature.",
    )

    def __init__(self, **params):
        if params.get("who") is None:
            params["who"] = Creature()
        super().__init__(**params)

    @property
    def label(self) -> str:
        """The character's or creature's name."""
        return self.who.name

    @property
    def is_character(self) -> bool:
        """Whether this is a character (not a creature card)."""
        return isinstance(self.who, Character)


class Encounter(param.Parameterized):
    """Sides, combatants and the scene, under one ruleset."""

    name = param.String(default="An encounter", constant=False, doc="The encounter's name.")
    ruleset = param.ClassSelector(
        class_=Ruleset, default=Ruleset(), doc="The rules every combatant follows."
    )
    sides = param.List(default=["Party", "Foes"], item_type=str, doc="The sides, by name.")
    combatants = param.List(default=[], item_type=Combatant, doc="Who is in the fight.")
    scene = param.ClassSelector(
        class_=SceneConditions, default=SceneConditions(), doc="The conditions of the scene."
    )

    standing = param.List(
        default=[],
        constant=True,
        doc="(label, side, status) of every combatant: up, unconscious, dying, dead, out.",
    )

    def __init__(self, **params):
        # Fresh sub-objects with their declared names (param renames deep copies of defaults).
        if params.get("ruleset") is None:
            params["ruleset"] = Ruleset()
        if params.get("scene") is None:
            params["scene"] = SceneConditions()
        super().__init__(**params)
        self._status_watchers: list = []
        self._share_ruleset()
        self._watch_status()
        self.param.watch(self._on_combatants, ["combatants", "ruleset"])

    def _on_combatants(self, *events) -> None:
        self._share_ruleset()
        self._watch_status()
        self._update_standing()

    def _share_ruleset(self) -> None:
        for combatant in self.combatants:
            if combatant.is_character:
                combatant.who.ruleset = self.ruleset

    def _watch_status(self) -> None:
        for who, watcher in self._status_watchers:
            who.param.unwatch(watcher)
        self._status_watchers = []
        for combatant in self.combatants:
            who = combatant.who
            name = "health_state" if combatant.is_character else "status"
            watcher = who.param.watch(lambda *_: self._update_standing(), [name])
            self._status_watchers.append((who, watcher))

    @param.depends("combatants", "sides", watch=True, on_init=True)
    def _update_standing(self) -> None:
        rows = []
        for c in self.combatants:
            status = c.who.health_state if c.is_character else c.who.status
            rows.append((c.label, c.side, status))
        with param.edit_constant(self):
            self.standing = rows

    @property
    def characters(self) -> list[Character]:
        """The characters in the fight."""
        return [c.who for c in self.combatants if c.is_character]

    @property
    def creatures(self) -> list[Creature]:
        """The creatures in the fight."""
        return [c.who for c in self.combatants if not c.is_character]

    def on_side(self, side: str) -> list[Combatant]:
        """The combatants on ``side``."""
        return [c for c in self.combatants if c.side == side]

    def party_travel(self, side: str = "Party"):
        """A day's travel for the characters on ``side`` over the scene's ground (rules/000)."""
        walkers = [(c.who.air, c.who.stamina) for c in self.on_side(side) if c.is_character]
        return party_travel(walkers, self.scene.ground)

    def add(self, who: Character | Creature, side: str | None = None) -> Combatant:
        """Add a combatant (characters default to the first side, creatures to the second)."""
        if side is None:
            index = 0 if isinstance(who, Character) else min(1, len(self.sides) - 1)
            side = self.sides[index]
        if side not in self.sides:
            raise ValueError(f"side must be one of the sides {tuple(self.sides)}, got {side!r}")
        combatant = Combatant(side=side, who=who)
        self.combatants = [*self.combatants, combatant]
        return combatant

    def add_or_merge(self, who: Character | Creature, side: str | None = None) -> str:
        """Add ``who``, unless one of its name is in already: then keep one (issue 20).

        A character or a named creature is one person: if the encounter already holds a
        character (or named creature) of that name, the one given here replaces it on the
        same side, since a roster file picked for the table is the sheet as it stands now
        (the encounter file holds a copy made when it was written). Unnamed creatures are
        added as more of them ("Guard dog 2").

        Returns
        -------
        str
            "" when ``who`` was added; else a sentence saying what was kept.
        """
        person = isinstance(who, Character) or bool(getattr(who, "named", False))
        for i, c in enumerate(self.combatants):
            same = (c.is_character or bool(getattr(c.who, "named", False))) and person
            if same and c.who.name == who.name and isinstance(c.who, type(who)):
                kept = Combatant(side=c.side, who=who)
                self.combatants = [*self.combatants[:i], kept, *self.combatants[i + 1 :]]
                return (
                    f"{who.name} was already in the encounter; kept once "
                    "(with the sheet from the roster file)."
                )
        self.add(who, side)
        return ""
