"""A 20 Below character as a param object: the sheet's inputs and everything they derive.

Inputs' bounds are the validation; derived numbers are ``constant`` parameters kept current by
``tb_playground.engine``. Rows (skills, weapons, Gifts...) are ``param.List`` s of small
``Parameterized``: assign a new list to add or remove one. Notes: docs/notes/0002-characters.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import param

from tb_playground.engine import (
    ATTACK_KIND_RULES,
    ATTACK_KINDS,
    ELEMENTS,
    MAX_ARMOR_LEVELS,
    ZONES,
    AttackProfile,
    Odds,
    RollModifiers,
    attack_dice,
    attack_elements,
    expected_levels,
    gift_check_odds,
    roll_modifiers,
    split_states,
    to_hit_odds,
    versus_static,
)
from tb_playground.engine.character_stats import (
    ELEMENT_NAMES,
    MAX_EXHAUSTED,
    SET_CONDITIONS,
    SUB_STAT_NAMES,
    Movement,
    Travel,
    death_threshold,
    defenses,
    draft_skill_odds_table,
    fate_spends_per_scene,
    fate_token_cap,
    ki_pool,
    movement,
    short_rest_ki,
    skill_odds_table,
    skill_usable,
    travel,
    vital_conditions,
    vital_maximum,
    vital_now,
)
from tb_playground.engine.core_roll import tier_rules
from tb_playground.engine.roll_over import (
    SHEET_DCS,
    draft_defense,
    roll_over_attack,
)
from tb_playground.engine.validation import require_choice
from tb_playground.engine.vitals import STATE_NAMES, vital_state
from tb_playground.formatting import dice_text

from .ruleset import Ruleset
from .skills import SKILL_ROLL_KINDS, Skill, rehome_skills, starting_skills

#: Difficulty columns of the skill odds table under 20 Below.
DIFFICULTIES = tuple(range(11))

#: Largest track a character's lost levels can reach: twice the largest maximum (5 + 10).
MAX_LOST = 30

#: Largest Fate Token holding any character can have: Stamina 10 x 3 + 1.
MAX_FATE_TOKENS = 31


class Descriptor(param.Parameterized):
    """A Descriptor: an established piece of the character that can argue another Element.

    rules/002: "a real, established piece of your character (a Descriptor) backing it up",
    e.g. the Soak Descriptor Unyielding arguing Earth for Persuasion.
    """

    name = param.String(default="Unyielding", constant=False, doc="The Descriptor's words.")
    sub_stat = param.Selector(
        default="Soak",
        objects=["", *SUB_STAT_NAMES],
        doc="The sub-stat it belongs to, if any (rules/002: 'the Soak Descriptor Unyielding').",
    )
    element = param.Selector(
        default="Earth", objects=list(ELEMENTS), doc="The Element it can argue for a roll."
    )


class Weapon(param.Parameterized):
    """A weapon: damage dice and range (rules/000 "A Fistful of Dice", rules/004 ranges)."""

    name = param.String(default="Fists", constant=False, doc="The weapon's name.")
    dice = param.Integer(
        default=1,
        bounds=(0, 20),
        doc="Damage Rating in d10s: fists 1, a knife 3, an anti-materiel rifle 5 (0..20).",
    )
    normal_range = param.Integer(
        default=0,
        bounds=(0, 5000),
        doc="Metres with no penalty; 0 for a Melee weapon (rules/004 'Weapon range').",
    )
    long_range = param.Integer(
        default=0,
        bounds=(0, 5000),
        doc="Metres out to which a shot is at Disadvantage; no shot past it. At least the "
        "normal range.",
    )


class Gift(param.Parameterized):
    """A Gift: its level, its dice, the kind of attack it makes, its Ki cost."""

    name = param.String(default="Onslaught", constant=False, doc="The Gift's name.")
    level = param.Integer(default=1, bounds=(0, 10), doc="The Gift's level (0..10).")
    dice = param.Integer(
        default=0,
        bounds=(0, 40),
        doc="Damage dice the Gift's entry gives (0 for a Gift that makes no attack), 0..40.",
    )
    kind = param.Selector(
        default="physical",
        objects=list(ATTACK_KINDS),
        doc="Physical, Social or Mental: the Defense, wall and Vital it goes against.",
    )
    ki_cost = param.Integer(default=0, bounds=(0, 20), doc="Ki spent to use it (0..20).")
    gift_check = param.Boolean(
        default=False, doc="It calls for a Gift Check: 2d10 at or under current Ki."
    )
    normal_range = param.Integer(
        default=0,
        bounds=(0, 5000),
        doc="Metres a Physical Gift attack reaches with no penalty; 0 for a Melee one (as a "
        "weapon's, rules/004 'Weapon range'). A file without it is Melee.",
    )
    long_range = param.Integer(
        default=0,
        bounds=(0, 5000),
        doc="Metres out to which its shot is at Disadvantage; no shot past it. At least the "
        "normal range. A file without it is Melee.",
    )


class ArmorItem(param.Parameterized):
    """An armor item (rules/002 "What Does Armor Do?"): Hardness, its own levels, a zone."""

    name = param.String(default="Kevlar vest", constant=False, doc="The item's name.")
    hardness = param.Integer(
        default=5, bounds=(0, 10), doc="A die must be strictly higher to cost it a level (0..10)."
    )
    levels = param.Integer(
        default=3,
        bounds=(0, MAX_ARMOR_LEVELS),
        doc=f"Its Health Levels left; at 0 it is broken (0..{MAX_ARMOR_LEVELS}).",
    )
    zone = param.Selector(default="body", objects=list(ZONES), doc="The zone it covers.")
    worn = param.Boolean(
        default=True, doc="Worn now. Armor doesn't stack: one worn item per zone at most."
    )


class Flaw(param.Parameterized):
    """A Flaw: invoking it in a scene earns a Fate Token (rules/004 "Fate Tokens")."""

    name = param.String(default="New flaw", constant=False, doc="The Flaw's name.")
    notes = param.String(default="", doc="What it does.")


#: What a Vital left behind (rules/000 "Scars", lines ~311-333; rules/002 "What Happens to My
#: Health?", line ~93): a mark at 0 (only for show), a scar below 0 (lasting), 002's Flaw below 0
#: Health (until healed back to 0), a temporary Mental scar effect (while Sanity is at 0).
SCAR_FORMS = ("mark", "scar", "flaw", "temporary")

#: The kind of scar each Vital leaves (rules/000 "Scars": "Health leaves a Physical scar...").
SCAR_KINDS = {"health": "Physical", "poise": "Social", "sanity": "Mental"}


class Scar(param.Parameterized):
    """A mark or scar one of the Vitals left (rules/000 "Scars"; docs/notes/0015-table-rules.md).

    A scar is not a Flaw: it gives no points and earns no Fate Token (rules/000 line ~320),
    except 002's reading for Health, where the Flaw lasts until Health is back at 0.
    """

    effect = param.String(
        default="", doc="What it is, as the GM picks it (empty until picked): 'a limp'."
    )
    vital = param.Selector(
        default="health",
        objects=list(SCAR_KINDS),
        doc="The Vital that left it: Health a Physical one, Poise a Social, Sanity a Mental.",
    )
    form = param.Selector(
        default="scar",
        objects=list(SCAR_FORMS),
        doc="mark (at 0, only for show), scar (below 0, lasting until healed), flaw (002: below "
        "0 Health, until healed back to 0), temporary (Mental, while Sanity is at 0).",
    )
    depth = param.Integer(
        default=0,
        bounds=(0, MAX_LOST),
        doc="How far below 0 the fall went: healing it counts this (-1 is one, -7 is seven; "
        f"rules/000 line ~323), 0..{MAX_LOST}.",
    )


@dataclass(frozen=True)
class AttackSource:
    """Something the character can attack with.

    Attributes
    ----------
    label : str
        What the sheet calls it ("Fists", "Onslaught (Gift 5)", "Ridicule (Trained)").
    kind : str
        "physical", "social" or "mental".
    source : str
        "weapon", "gift" or "skill" (``engine.attack_dice``).
    rating : int
        Weapon dice, Gift dice, or the Skill's tier.
    element : str or None
        The Element a Skill attack rolls off; None when the approach decides.
    normal_range, long_range : int
        Metres from the weapon's or Gift's file (rules/004 "Weapon range"); 0 and 0 is Melee.
    skill : str or None
        The Skill a Skill attack rolls (a helper must be Trained in it, rules/000 "Helping").
    """

    label: str
    kind: str
    source: str
    rating: int
    element: str | None = None
    normal_range: int = 0
    long_range: int = 0
    skill: str | None = None


@dataclass(frozen=True)
class AttackOption:
    """One attack's odds against one target (``Character.attack_options``).

    Attributes
    ----------
    label : str
        The attack source's label.
    kind : str
        "physical", "social" or "mental".
    element : str
        The Element rolled.
    score : int
        Its score.
    dice : int
        Damage dice.
    target_number : int
        Element + Defense (20 Below) or the Defense to beat (roll-over draft).
    p_hit : float
        P(the attack lands), critical hits included.
    p_critical : float
        P(critical hit).
    expected : float
        Expected levels (20 Below) or damage (roll-over draft) per attack, misses included.
    distribution : numpy.ndarray
        P(levels == k) per attack.
    vital : str
        The track it hits.
    note : str
        Anything the reader should know (an approach that was not allowed...).
    modifiers : RollModifiers or None
        The named Advantage sources the attacker's and target's conditions give, and whether
        the attack can be made (``engine.roll_modifiers``). A refused attack has ``p_hit``,
        ``p_critical`` and ``expected`` 0: show ``modifiers.reason`` instead.
    """

    label: str
    kind: str
    element: str
    score: int
    dice: int
    target_number: int
    p_hit: float
    p_critical: float
    expected: float
    distribution: np.ndarray
    vital: str
    note: str = ""
    modifiers: RollModifiers | None = None

    @property
    def allowed(self) -> bool:
        """Whether the attack can be made at all."""
        return self.modifiers is None or self.modifiers.allowed


def _element_param(name: str) -> param.Integer:
    return param.Integer(default=3, bounds=(0, 10), doc=f"{name}, an Element (0..10).")


def _sub_stat_param(doc: str) -> param.Integer:
    return param.Integer(default=3, bounds=(0, 10), doc=doc + " (0..10).")


class Character(param.Parameterized):
    """A 20 Below character sheet: inputs, and derived values that are always current."""

    #: Inputs a character file does not hold: the ruleset belongs to the table.
    _transient = ("ruleset",)

    name = param.String(default="New character", constant=False, doc="The character's name.")
    player = param.String(default="", doc="Who plays them.")
    concept = param.String(default="", doc="A line about who they are.")
    notes = param.String(default="", doc="Anything else.")

    earth = _element_param("Earth: force")
    air = _element_param("Air: precision; Movement Rate is 5 + Air")
    fire = _element_param("Fire: intensity")
    water = _element_param("Water: adaptation")
    moira = _element_param("Moira: fate; never carries a Physical attack")

    soak = _sub_stat_param("Soak: the wall against Physical damage")
    health = _sub_stat_param("Health: the Health track is 5 + it")
    ferocity = _sub_stat_param("Ferocity: a Ki boost adds it to a Physical die")
    potence = _sub_stat_param("Potence: Grab and Disarm dice")
    initiative = _sub_stat_param("Initiative: 1d10 + it, once per fight")
    stamina = _sub_stat_param("Stamina: travel day, Fate Token caps")
    presence = _sub_stat_param(
        "Presence: the wall against Social damage, Mental Defense 10 - it, Poise 5 + it"
    )
    psyche = _sub_stat_param(
        "Psyche: the wall against Mental damage, Social Defense 10 - it, Sanity 5 + it"
    )
    klotho = _sub_stat_param("Klotho: added to a critical hit's rolled dice; Short Rest Ki")
    atropos = _sub_stat_param("Atropos: Physical Defense is 10 - it")

    skills = param.List(default=[], item_type=Skill, doc="Skills: name, home Element, tier.")
    descriptors = param.List(
        default=[], item_type=Descriptor, doc="Descriptors that can argue another Element."
    )
    weapons = param.List(default=[], item_type=Weapon, doc="Weapons: dice and range.")
    gifts = param.List(default=[], item_type=Gift, doc="Gifts: level, dice, kind, Ki cost.")
    armor = param.List(default=[], item_type=ArmorItem, doc="Armor: Hardness, levels, zone.")
    flaws = param.List(default=[], item_type=Flaw, doc="Flaws.")
    scars = param.List(
        default=[],
        item_type=Scar,
        doc="Marks and scars the Vitals left (rules/000 'Scars'); a table's export writes them.",
    )

    ki_bonus = param.Integer(
        default=0, bounds=(0, 100), doc="Ki added to the pool by experience (0..100)."
    )
    ki_spent = param.Integer(
        default=0, bounds=(0, 200), doc="Ki spent since the pool was last full (0..200)."
    )
    fate_tokens = param.Integer(
        default=1,
        bounds=(0, MAX_FATE_TOKENS),
        doc="Fate Tokens held; at most Stamina x 3 + 1 (rules/004).",
    )
    fate_spent_this_scene = param.Integer(
        default=0,
        bounds=(0, 11),
        doc="Counted Fate Token spends (Kotodama, burning off Corruption) this Scene (0..11).",
    )
    health_lost = param.Integer(
        default=0, bounds=(0, MAX_LOST), doc=f"Health levels lost (0..{MAX_LOST})."
    )
    poise_lost = param.Integer(
        default=0, bounds=(0, MAX_LOST), doc=f"Poise levels lost (0..{MAX_LOST})."
    )
    sanity_lost = param.Integer(
        default=0, bounds=(0, MAX_LOST), doc=f"Sanity levels lost (0..{MAX_LOST})."
    )
    conditions = param.ListSelector(
        default=[],
        objects=list(SET_CONDITIONS),
        doc="Conditions put on the character (the Vitals' own follow from the tracks).",
    )
    exhausted = param.Integer(
        default=0,
        bounds=(0, MAX_EXHAUSTED),
        doc="Exhausted level 0..5: 3 halves Movement, 5 is out cold (rules/004).",
    )
    flustered_this_scene = param.Boolean(
        default=False,
        doc="Poise was at 0 this Scene: Flustered lasts until the Scene ends, even after Poise "
        "climbs back (rules/000 'Harm and Recovery'). Set when Poise climbs back above 0; "
        "end_scene() clears it.",
    )

    ruleset = param.ClassSelector(
        class_=Ruleset,
        default=Ruleset(),
        doc="The rules reading the derived values follow (not saved with the character).",
    )

    defense_physical = param.Integer(
        default=0, constant=True, doc="Physical Defense = 10 - Atropos (derived)."
    )
    defense_social = param.Integer(
        default=0, constant=True, doc="Social Defense = 10 - Psyche (derived)."
    )
    defense_mental = param.Integer(
        default=0, constant=True, doc="Mental Defense = 10 - Presence (derived)."
    )
    health_max = param.Integer(default=0, constant=True, doc="Health levels: 5 + Health.")
    poise_max = param.Integer(default=0, constant=True, doc="Poise levels: 5 + Presence.")
    sanity_max = param.Integer(default=0, constant=True, doc="Sanity levels: 5 + Psyche.")
    health_now = param.Integer(default=0, constant=True, doc="Health now (derived).")
    poise_now = param.Integer(default=0, constant=True, doc="Poise now (derived).")
    sanity_now = param.Integer(default=0, constant=True, doc="Sanity now (derived).")
    health_state = param.String(default="", constant=True, doc="up / unconscious / dying / dead.")
    poise_state = param.String(default="", constant=True, doc="steady / flustered / ...")
    sanity_state = param.String(default="", constant=True, doc="steady / overwhelmed / ...")
    dead_at = param.Integer(default=0, constant=True, doc="The Health value that is death.")
    ki_pool = param.Integer(default=0, constant=True, doc="The Ki pool, by ruleset (derived).")
    ki_now = param.Integer(default=0, constant=True, doc="Current Ki: pool - spent, at least 0.")
    short_rest_ki = param.Integer(default=0, constant=True, doc="Ki back from a Short Rest.")
    gift_check = param.ClassSelector(
        class_=Odds, constant=True, doc="Odds of a Gift Check at current Ki (derived)."
    )
    movement_rate = param.Integer(
        default=0, constant=True, doc="Movement Rate = 5 + Air metres (Exhausted 3 halves it)."
    )
    movement = param.ClassSelector(
        class_=Movement, constant=True, doc="Move, Dash, Sprint, Crawl, jumps (derived)."
    )
    travel = param.ClassSelector(
        class_=Travel, constant=True, doc="Travel speed, day and distance (derived)."
    )
    fate_cap = param.Integer(
        default=0, constant=True, doc="Most Fate Tokens held: Stamina x 3 + 1."
    )
    fate_spends_per_scene = param.Integer(
        default=0, constant=True, doc="Counted Fate spends per Scene: Stamina + 1 (by ruleset)."
    )
    fate_spends_left = param.Integer(
        default=0, constant=True, doc="Counted Fate spends left this Scene (derived)."
    )
    states = param.List(
        default=[], constant=True, doc="Every condition on the character now (derived)."
    )
    skill_odds = param.Array(
        default=None,
        constant=True,
        doc="P(success) of each Skill (rows, in ``skills`` order) at each column (derived).",
    )
    skill_modifiers = param.List(
        default=[],
        constant=True,
        doc="What the conditions do to each Skill's roll (rows in ``skills`` order): named "
        "sources and any refusal, as engine RollModifiers (derived).",
    )
    skill_odds_columns = param.Tuple(
        default=DIFFICULTIES,
        constant=True,
        doc="The columns of ``skill_odds``: Difficulty 0..10, or the draft's DCs (derived).",
    )
    worn_armor = param.Dict(
        default={}, constant=True, doc="The armor worn on each zone: zone -> ArmorItem (derived)."
    )
    attacks = param.List(
        default=[], constant=True, doc="What the character can attack with (derived)."
    )

    def __init__(self, **params):
        if "skills" not in params:
            ruleset = params.get("ruleset")
            params["skills"] = starting_skills(bool(ruleset and ruleset.deception_water))
        if "weapons" not in params:
            params["weapons"] = [Weapon()]
        self._row_watchers: dict[str, list] = {}
        self._poise_was_down = False
        super().__init__(**params)
        for name in ("skills", "weapons", "gifts", "armor"):
            self._watch_rows(name)
        self.param.watch(self._on_rows, ["skills", "weapons", "gifts", "armor"])

    # -- rows ---------------------------------------------------------------------------------

    _ROW_UPDATES = {
        "skills": ("_update_skill_odds", "_update_attacks"),
        "weapons": ("_update_attacks",),
        "gifts": ("_update_attacks",),
        "armor": ("_update_armor",),
    }

    def _watch_rows(self, name: str) -> None:
        """Watch every row of list ``name`` so a change inside a row updates derived values."""
        for row, watcher in self._row_watchers.pop(name, []):
            row.param.unwatch(watcher)
        watchers = []
        for row in getattr(self, name):
            callback = self._row_callback(name)
            watchers.append((row, row.param.watch(callback, list(row.param))))
        self._row_watchers[name] = watchers

    def _row_callback(self, name: str):
        return lambda *events: self._row_changed(name)

    def _on_rows(self, *events) -> None:
        """A list was replaced: watch its new rows (``param.depends`` already recomputed)."""
        for event in events:
            self._watch_rows(event.name)

    def _row_changed(self, name: str) -> None:
        for method in self._ROW_UPDATES[name]:
            getattr(self, method)()

    # -- reading the sheet --------------------------------------------------------------------

    @property
    def elements(self) -> dict[str, int]:
        """Element name -> score, in sheet order."""
        return {name: getattr(self, name.lower()) for name in ELEMENT_NAMES}

    @property
    def sub_stats(self) -> dict[str, int]:
        """Sub-stat name -> score, in sheet order."""
        return {name: getattr(self, name.lower()) for name in SUB_STAT_NAMES}

    def element_score(self, element: str) -> int:
        """The score of an Element by name ("Earth" .. "Moira")."""
        return getattr(self, require_choice("element", element, ELEMENTS).lower())

    def defense_for(self, kind: str) -> int:
        """The Defense against an attack of ``kind``."""
        return getattr(self, f"defense_{require_choice('kind', kind, ATTACK_KINDS)}")

    def wall_for(self, kind: str) -> int:
        """The wall against an attack of ``kind``: Soak, Presence or Psyche."""
        return getattr(self, ATTACK_KIND_RULES[kind].wall_stat.lower())

    def track_max(self, kind: str) -> int:
        """The size of the track an attack of ``kind`` hits."""
        return getattr(self, f"{ATTACK_KIND_RULES[kind].vital}_max")

    @property
    def walls(self) -> dict[str, int]:
        """The three walls: Soak (Physical), Presence (Social), Psyche (Mental)."""
        return {kind: self.wall_for(kind) for kind in ATTACK_KINDS}

    @property
    def defenses(self) -> dict[str, int]:
        """The three Defenses by attack kind."""
        return {kind: self.defense_for(kind) for kind in ATTACK_KINDS}

    def skill(self, name: str) -> Skill | None:
        """The first Skill row called ``name``, or None."""
        return next((s for s in self.skills if s.name == name), None)

    # -- derived values -----------------------------------------------------------------------

    @param.depends("atropos", "psyche", "presence", watch=True, on_init=True)
    def _update_defenses(self) -> None:
        d = defenses(self.atropos, self.psyche, self.presence)
        with param.edit_constant(self):
            self.param.update(
                defense_physical=d["physical"],
                defense_social=d["social"],
                defense_mental=d["mental"],
            )

    @param.depends(
        "health", "presence", "psyche", "health_lost", "poise_lost", "sanity_lost",
        "conditions", "exhausted", "flustered_this_scene", "ruleset.vitals_002",
        "ruleset.death_at_negative_health",
        watch=True, on_init=True,
    )  # fmt: skip
    def _update_vitals(self) -> None:
        variant = self.ruleset.vitals_002
        values = {}
        for vital, sub in (("health", "health"), ("poise", "presence"), ("sanity", "psyche")):
            maximum = vital_maximum(getattr(self, sub))
            now = vital_now(vital, maximum, getattr(self, f"{vital}_lost"), variant)
            values[f"{vital}_max"] = maximum
            values[f"{vital}_now"] = now
            values[f"{vital}_state"] = vital_state(vital, now, maximum, variant)
        dead_at = death_threshold(
            values["health_max"], self.health, self.ruleset.death_at_negative_health
        )
        if values["health_now"] <= dead_at:
            values["health_state"] = STATE_NAMES["health"][3]
        poise_down = values["poise_now"] <= 0
        if self._poise_was_down and not poise_down and not self.flustered_this_scene:
            # Poise climbed back from 0: Flustered stays for the Scene (rules/000).
            self._poise_was_down = False
            self.flustered_this_scene = True  # runs this update again, with the flag set
            return
        self._poise_was_down = poise_down
        states = list(self.conditions)
        states += vital_conditions(
            values["health_now"],
            values["poise_now"],
            values["sanity_now"],
            dead=values["health_state"] == "dead",
            flustered=self.flustered_this_scene,
        )
        if self.exhausted:
            states.append(f"Exhausted {self.exhausted}")
        with param.edit_constant(self):
            self.param.update(dead_at=dead_at, states=states, **values)

    @param.depends(
        "earth", "air", "fire", "water", "moira", "soak", "initiative", "ferocity", "stamina",
        "atropos", "klotho", "ki_bonus", "ki_spent", "ruleset.ki_pool_from_sub_stats",
        "ruleset.short_rest_half_klotho", "ruleset.gift_check_ki_plus_stamina",
        watch=True, on_init=True,
    )  # fmt: skip
    def _update_ki(self) -> None:
        rules = self.ruleset
        pool = ki_pool(
            list(self.elements.values()),
            self.sub_stats,
            rules.ki_pool_from_sub_stats,
            self.ki_bonus,
        )
        now = max(pool - self.ki_spent, 0)
        with param.edit_constant(self):
            self.param.update(
                ki_pool=pool,
                ki_now=now,
                short_rest_ki=short_rest_ki(self.klotho, rules.short_rest_half_klotho),
                gift_check=gift_check_odds(now, self.stamina, rules.gift_check_ki_plus_stamina),
            )

    @param.depends("air", "stamina", "exhausted", "conditions", watch=True, on_init=True)
    def _update_movement(self) -> None:
        moves = movement(self.air, self.exhausted, "Grabbed" in self.conditions)
        with param.edit_constant(self):
            self.param.update(
                movement_rate=moves.rate, movement=moves, travel=travel(self.air, self.stamina)
            )

    @param.depends(
        "stamina", "fate_spent_this_scene", "ruleset.fate_spends_stamina_only",
        watch=True, on_init=True,
    )  # fmt: skip
    def _update_fate(self) -> None:
        per_scene = fate_spends_per_scene(self.stamina, self.ruleset.fate_spends_stamina_only)
        with param.edit_constant(self):
            self.param.update(
                fate_cap=fate_token_cap(self.stamina),
                fate_spends_per_scene=per_scene,
                fate_spends_left=max(per_scene - self.fate_spent_this_scene, 0),
            )

    @property
    def roll_conditions(self) -> tuple[tuple[str, ...], int]:
        """The conditions on the character now and its Exhausted level (``split_states``)."""
        return split_states(self.states)

    def roll_modifiers(self, roll: str, **kwargs) -> RollModifiers:
        """``engine.roll_modifiers`` for a roll by this character, with its conditions now.

        Parameters
        ----------
        roll : str
            One of ``engine.ROLL_KINDS``.
        **kwargs
            Any other argument of ``engine.roll_modifiers`` (target, circumstances).
        """
        conditions, exhausted = self.roll_conditions
        return roll_modifiers(roll, conditions=conditions, exhausted=exhausted, **kwargs)

    def skill_modifiers_for(self, skill: Skill) -> RollModifiers:
        """What the conditions do to a roll of ``skill`` (its kind decides which reach it)."""
        return self.roll_modifiers(
            skill.roll_kind,
            leads=skill.leads,
            tier_advantage=tier_rules(skill.tier, **self.ruleset.tier_args).advantage_sources,
        )

    @param.depends(
        "skills", "earth", "air", "fire", "water", "moira", "ruleset.system", "states",
        "ruleset.advantage_from_expert", watch=True, on_init=True,
    )  # fmt: skip
    def _update_skill_odds(self) -> None:
        roll_over = self.ruleset.roll_over
        columns = SHEET_DCS if roll_over else DIFFICULTIES
        table = np.zeros((len(self.skills), len(columns)))
        modifiers = [self.skill_modifiers_for(s) for s in self.skills]
        if self.skills:
            scores = [self.element_score(s.element) for s in self.skills]
            tiers = [s.tier for s in self.skills]
            usable = [s.usable_untrained for s in self.skills]
            situational = [m.situational for m in modifiers]
            if roll_over:
                table = draft_skill_odds_table(scores, tiers, columns, usable, situational)
            else:
                table = skill_odds_table(
                    scores, tiers, columns, situational, usable, **self.ruleset.tier_args
                )
            refused = [i for i, m in enumerate(modifiers) if not m.allowed]
            table[refused] = 0.0
        with param.edit_constant(self):
            self.param.update(
                skill_odds=table, skill_odds_columns=tuple(columns), skill_modifiers=modifiers
            )

    def end_scene(self) -> None:
        """End the Scene: Flustered lifts and the counted Fate spends start again.

        Flustered lasts "until the Scene ends" (rules/000 "Harm and Recovery"), unless Poise
        is still at or below 0; Fate spends are counted "per Scene" (rules/004).
        """
        self.param.update(flustered_this_scene=False, fate_spent_this_scene=0)

    @param.depends("ruleset", "ruleset.deception_water", watch=True)
    def _rehome_skills(self) -> None:
        """Deception moves between Fire and Water with the ruleset (``home_element``)."""
        rehome_skills(self.skills, self.ruleset.deception_water)

    @param.depends("armor", watch=True, on_init=True)
    def _update_armor(self) -> None:
        worn = {}
        for item in self.armor:
            if item.worn and item.zone not in worn:
                worn[item.zone] = item
        with param.edit_constant(self):
            self.worn_armor = worn

    @param.depends("weapons", "gifts", "skills", watch=True, on_init=True)
    def _update_attacks(self) -> None:
        sources = [
            AttackSource(
                f"{w.name} ({dice_text(w.dice)})",
                "physical",
                "weapon",
                w.dice,
                normal_range=w.normal_range,
                long_range=w.long_range,
            )
            for w in self.weapons
        ]
        sources += [
            AttackSource(
                f"{g.name} (Gift {g.level}, {dice_text(g.dice)})",
                g.kind,
                "gift",
                g.dice,
                normal_range=g.normal_range,
                long_range=g.long_range,
            )
            for g in self.gifts
            if g.dice > 0
        ]
        social = [s for s in self.skills if s.social_attack and s.tier >= 1]
        sources += [
            AttackSource(
                f"{s.name} ({s.tier_name})", "social", "skill", s.tier, s.element, skill=s.name
            )
            for s in social
        ]
        # The Untrained social attack stays whatever else is Trained: one die (rules/000 line
        # 175, "Untrained. One die"), with any social Skill left Untrained (issue 32 item 6).
        if not social or any(s.social_attack and s.tier == 0 for s in self.skills):
            sources.append(AttackSource("An insult (Untrained)", "social", "skill", 0, "Fire"))
        if sources != self.attacks:
            with param.edit_constant(self):
                self.attacks = sources

    # -- odds against others ------------------------------------------------------------------

    def skill_odds_at(self, name: str, difficulty: int) -> float:
        """P(success) of the Skill ``name`` at a Difficulty (20 Below) or DC (draft) column."""
        names = [s.name for s in self.skills]
        row = names.index(require_choice("name", name, names))
        columns = list(self.skill_odds_columns)
        if difficulty not in columns:
            raise ValueError(
                f"difficulty must be one of the table's columns {columns[0]}..{columns[-1]}, "
                f"got {difficulty!r}"
            )
        return float(self.skill_odds[row, columns.index(difficulty)])

    def versus_card(self, skill: str, static: int) -> float:
        """P(beating a creature card's static number with ``skill``: "Stealth 6 vs. Perception".

        rules/000: you roll your Skill at Difficulty equal to the card's number. Always the 20
        Below roll: the rules/003 draft has no static-number cards to compare with.
        """
        row = self.skill(skill)
        if row is None:
            mods = self.roll_modifiers(SKILL_ROLL_KINDS.get(skill, "other"))
            return versus_static(0, static, 0, mods.situational).p_success if mods.allowed else 0.0
        mods = self.skill_modifiers_for(row)
        if not skill_usable(row.tier, row.usable_untrained) or not mods.allowed:
            return 0.0
        score = self.element_score(row.element)
        return versus_static(
            score, static, row.tier, mods.situational, **self.ruleset.tier_args
        ).p_success

    def attack_options(
        self,
        target,
        boosts: int = 0,
        approach: str | None = None,
        advantage: int = 0,
        target_conditions: Sequence[str] = (),
    ) -> list[AttackOption]:
        """The odds of each of ``attacks`` against ``target`` (RULES.md, Attacks).

        Parameters
        ----------
        target : Character or Creature
            Anything with ``defense_for``, ``wall_for`` and ``draft_defense_for``.
        boosts : int
            Ki boosts per attack, 0..10 (1 Ki per die; the boost adds Ferocity, Presence or
            Psyche by kind; timing by ruleset).
        approach : str, optional
            The Element for weapon and Gift attacks; default the strongest one allowed. A Skill
            attack rolls off its Skill's Element ("Name the Skill and you've settled the
            Element too").
        advantage : int
            Net Advantage sources from the circumstances, -5..5, on top of those the
            character's own conditions and ``target_conditions`` give (``roll_modifiers``).
        target_conditions : sequence of str
            The target's conditions (``engine.CONDITIONS``): a Prone target gives Advantage...

        Returns
        -------
        list of AttackOption
            A refused attack (a Prone attacker, an Unconscious one...) has 0 odds and its
            reason in ``modifiers``.
        """
        if approach is not None:
            approach = require_choice("approach", approach, ELEMENTS)
        rules = self.ruleset
        out = []
        for source in self.attacks:
            allowed = attack_elements(source.kind, rules.never_moira)
            note = ""
            if source.element is not None:
                element = source.element
            elif approach is not None:
                element = approach
            else:
                element = max(allowed, key=self.element_score)
            if element not in allowed:
                note = f"{element} cannot carry a {source.kind} attack here"
                element = max(allowed, key=self.element_score)
            score = self.element_score(element)
            dice = attack_dice(source.kind, source.source, source.rating)
            kind = ATTACK_KIND_RULES[source.kind]
            mods = self.roll_modifiers(
                "attack",
                attack_kind=source.kind,
                target_conditions=tuple(target_conditions),
                other_advantage=max(advantage, 0),
                other_disadvantage=max(-advantage, 0),
            )
            if not mods.allowed:
                tn = (target.draft_defense_for if rules.roll_over else target.defense_for)(
                    source.kind
                )
                if not rules.roll_over:
                    tn += score
                out.append(
                    AttackOption(
                        source.label, source.kind, element, score, dice, tn, 0.0, 0.0, 0.0,
                        np.array([1.0]), kind.vital, note, mods,
                    )
                )  # fmt: skip
                continue
            if rules.roll_over:
                draft = roll_over_attack(
                    score, target.draft_defense_for(source.kind), min(dice, 30), mods.advantage
                )
                out.append(
                    AttackOption(
                        source.label,
                        source.kind,
                        element,
                        score,
                        dice,
                        target.draft_defense_for(source.kind),
                        draft.p_hit,
                        draft.p_critical,
                        draft.expected_damage,
                        draft.damage,
                        kind.vital,
                        note,
                        mods,
                    )
                )
                continue
            to_hit = to_hit_odds(score, target.defense_for(source.kind), mods.advantage)
            profile = AttackProfile.from_to_hit(
                to_hit,
                dice,
                target.wall_for(source.kind),
                boosts,
                getattr(self, kind.boost_stat.lower()),
                rules.boost_timing,
                self.klotho,
            )
            distribution = profile.level_distribution()
            out.append(
                AttackOption(
                    source.label,
                    source.kind,
                    element,
                    score,
                    dice,
                    to_hit.target,
                    to_hit.p_hit,
                    to_hit.p_critical,
                    float(expected_levels(distribution)),
                    distribution,
                    kind.vital,
                    note,
                    mods,
                )
            )
        return out

    def draft_defense_for(self, kind: str) -> int:
        """Defense on the roll-over draft's scale (rules/003): 11 + the 20 Below Defense.

        Our mapping for comparisons only: the draft gives no formula from a 20 Below sheet.
        """
        return draft_defense(self.defense_for(kind))
