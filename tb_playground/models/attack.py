"""An attack and its target as a param object; every derived value from ``tb_playground.engine``.

Rule: RULES.md, Attacks, Vitals, Combat round (the Action Bracket); circumstances and conditions
go through ``engine.roll_modifiers``. Readings (circumstances, choices that narrow with the kind,
a refused attack that keeps its odds): docs/notes/0003-attacks.md, docs/notes/0004-conditions.md.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import param

from tb_playground.engine import (
    ATTACK_KIND_RULES,
    ATTACK_KINDS,
    BRACKETS,
    BUMP_STEPS,
    CONDITIONS,
    ELEMENTS,
    KI_POLICIES,
    SOURCES_BY_KIND,
    ZONES,
    Armor,
    AttackProfile,
    FightOdds,
    KiValue,
    RollModifiers,
    ToHit,
    armor_distribution,
    attack_dice,
    attack_elements,
    attack_to_hit,
    damage_distribution,
    damage_grid,
    defense,
    expected_levels,
    fight_odds,
    ki_value,
    roll_modifiers,
    vital_maximum,
)
from tb_playground.engine.conditions import MAX_EXHAUSTED, REACHES

from .ruleset import Ruleset

#: What the damage page says a mean number of rounds is over when it is not settled (nan);
#: ``fight_odds`` solves its means exactly, with no cut-off.
FIGHT_MAX_ROUNDS = 100

#: Slow actions that change an attack (rules/000, Action Brackets): one per round.
SLOW_ACTIONS = ("none", "aim", "called_shot")

#: Results kept per process for each engine call an Attack makes (every input is hashable).
ENGINE_CACHE_SIZE = 512


def _frozen(value):
    """``value`` with its numpy arrays read-only: cached results are shared by every Attack."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    return value


def _cached(function):
    """``function`` remembered on its (hashable) arguments.

    The same inputs give the very same result object, so an Attack can tell an unchanged
    derived value by identity.
    """

    @lru_cache(maxsize=ENGINE_CACHE_SIZE)
    def call(*args, **kwargs):
        return _frozen(function(*args, **kwargs))

    call.__doc__ = function.__doc__
    return call


_damage_distribution = _cached(damage_distribution)
_armor_distribution = _cached(armor_distribution)
_ki_value = _cached(ki_value)
_fight_odds = _cached(fight_odds)
_damage_grid = _cached(damage_grid)


@lru_cache(maxsize=ENGINE_CACHE_SIZE)
def _level_distribution(profile: AttackProfile) -> np.ndarray:
    return _frozen(profile.level_distribution())


def _same(old: object, new: object) -> bool:
    """Whether a derived value did not change: the same object, or equal plain values."""
    if old is new:
        return True
    if isinstance(old, np.ndarray) or isinstance(new, np.ndarray):
        return False  # cached arrays: the same inputs give the same object
    try:
        return bool(old == new)
    except (TypeError, ValueError):  # values holding arrays
        return False


class Attack(param.Parameterized):
    """One attack, repeated round after round against one target."""

    kind = param.Selector(
        default="physical",
        objects=list(ATTACK_KINDS),
        doc="Physical (vs Soak, costs Health), Social (vs Presence, Poise) or Mental "
        "(vs Psyche, Sanity).",
    )
    approach = param.Selector(
        default="Earth",
        objects=list(ELEMENTS),
        doc="The Element your approach uses. Moira never carries a Physical attack.",
    )
    element = param.Integer(
        default=5, bounds=(0, 10), doc="The approach Element's score, 0..10: TN = it + Defense."
    )
    dice_source = param.Selector(
        default="weapon",
        objects=["weapon", "gift", "skill"],
        doc="Where the damage dice come from: a weapon's rating, a Gift's dice, or (Social) "
        "the Skill tier. Mental attacks need a Gift.",
    )
    weapon_rating = param.Integer(
        default=3, bounds=(0, 10), doc="Weapon rating in dice: fists 1, knife 3, rifle 5 (0..10)."
    )
    gift_dice = param.Integer(default=7, bounds=(0, 20), doc="Damage dice the Gift throws (0..20).")
    skill_tier = param.Integer(
        default=1,
        bounds=(0, 4),
        doc="Skill tier of a Social attack: 0 Untrained 1 die, Trained 3, Adept 4, Expert 5, "
        "Master 6.",
    )
    boosts = param.Integer(
        default=0, bounds=(0, 5), doc="Ki boosts per attack, 1 Ki per die (0..5)."
    )
    bonus = param.Integer(
        default=4,
        bounds=(0, 10),
        doc="What a boost adds to a die: Ferocity (Physical), Presence (Social), Psyche "
        "(Mental), 0..10.",
    )
    ruleset = param.ClassSelector(
        class_=Ruleset,
        doc="The reading played: its never_moira, boosts_before_roll and vitals_002 switches "
        "reach this attack (RULES.md: variants are switched on, never mixed in).",
    )
    klotho = param.Integer(
        default=4, bounds=(0, 10), doc="Your Klotho, added to each rolled die of a critical hit."
    )
    attacker_ki = param.Integer(
        default=13, bounds=(0, 20), doc="Ki for boosts over the whole fight (0..20)."
    )
    slow_action = param.Selector(
        default="none",
        objects=list(SLOW_ACTIONS),
        doc="A Slow round's empowered action: aim (Advantage) or called_shot (Head zone).",
    )
    bracket = param.Selector(
        default="fast",
        objects=list(BRACKETS),
        doc="The Action Bracket every round: fast (one attack), normal (two attacks), slow "
        "(one empowered attack: aim or a called shot).",
    )
    bracket_bumps = param.Integer(
        default=0,
        bounds=(0, 2),
        doc="Ki a round spent bumping the Bracket up a step (Slow to Normal to Fast), to act "
        "earlier; it costs Ki, the attacks stay the declared Bracket's. As far as the Bracket "
        "allows: none for Fast, 1 for Normal, 2 for Slow.",
    )
    target_prone = param.Boolean(
        default=False, doc="The target is Prone: every attack against it gains Advantage."
    )
    partial_cover = param.Boolean(
        default=False, doc="The target is behind partial cover: Disadvantage."
    )
    off_hand = param.Boolean(default=False, doc="Attacking with your off hand: Disadvantage.")
    reach = param.Selector(
        default="melee",
        objects=list(REACHES),
        doc="Melee or ranged: a Belly Down target or attacker treats them differently "
        "(rules/001 'Getting Low'). Physical attacks only.",
    )
    attacker_conditions = param.ListSelector(
        default=[],
        objects=list(CONDITIONS),
        doc="The attacker's conditions: Off Balance, Surprised, Overwhelmed put the attack at "
        "Disadvantage, Flustered a Social one; Prone, Squeezed, Unconscious can't attack.",
    )
    attacker_exhausted = param.Integer(
        default=0,
        bounds=(0, MAX_EXHAUSTED),
        doc="The attacker's Exhausted level, 0..5: 1 a Physical attack at Disadvantage, 2 "
        "every attack, 5 out cold.",
    )
    target_conditions = param.ListSelector(
        default=[],
        objects=list(CONDITIONS),
        doc="The target's conditions: Prone gives Advantage; Belly Down Advantage in Melee, "
        "Disadvantage at range; squeezed Disadvantage.",
    )
    advantage_sources = param.Integer(
        default=0, bounds=(0, 5), doc="Other Advantage sources, +1 each (0..5)."
    )
    disadvantage_sources = param.Integer(
        default=0, bounds=(0, 5), doc="Other Disadvantage sources, -1 each (0..5)."
    )
    target_defense_stat = param.Integer(
        default=3,
        bounds=(0, 10),
        doc="The target's Atropos (Physical), Psyche (Social) or Presence (Mental): Defense "
        "= 10 - it.",
    )
    target_wall = param.Integer(
        default=5,
        bounds=(0, 10),
        doc="The target's wall: Soak (Physical), Presence (Social), Psyche (Mental). Each die "
        "strictly over it is a level.",
    )
    target_levels = param.Integer(
        default=8,
        bounds=(1, 20),
        doc="Levels on the target's track: Health, Poise or Sanity (1..20).",
    )
    target_armor_levels = param.Integer(
        default=0,
        bounds=(0, 10),
        doc="Levels left on the target's armor, 0..10 (0: no armor, or broken). Physical only.",
    )
    target_armor_hardness = param.Integer(
        default=5,
        bounds=(0, 10),
        doc="The armor's Hardness: a die strictly higher costs the armor a level (0..10).",
    )
    target_armor_zone = param.Selector(
        default="body",
        objects=list(ZONES),
        doc="The zone the armor covers. A Called Shot goes to the head, any other attack to "
        "the body.",
    )
    target_ki = param.Integer(
        default=0, bounds=(0, 10), doc="The target's Ki for preventing levels (0..10)."
    )
    target_ki_policy = param.Selector(
        default="none",
        objects=list(KI_POLICIES),
        doc="How the target spends Ki: none, all (every level), stay_up (levels that would "
        "take it to 0 or below), stay_alive (only the killing level).",
    )
    rounds = param.Integer(
        default=12, bounds=(1, 30), doc="Rounds shown on the rounds chart (1..30)."
    )

    dice = param.Integer(default=0, constant=True, doc="Damage dice rolled (derived).")
    defense = param.Integer(default=0, constant=True, doc="The target's Defense (derived).")
    net_advantage = param.Integer(default=0, constant=True, doc="Net Advantage sources (derived).")
    modifiers = param.ClassSelector(
        class_=RollModifiers,
        constant=True,
        doc="The named Advantage sources and whether the attack can be made (derived).",
    )
    to_hit = param.ClassSelector(class_=ToHit, constant=True, doc="To-hit odds (derived).")
    on_hit = param.Array(constant=True, doc="P(levels == k) on an ordinary hit (derived).")
    on_critical = param.Array(constant=True, doc="P(levels == k) on a critical hit (derived).")
    per_attack = param.Array(
        constant=True, doc="P(levels == k) per attack: misses, hits and criticals (derived)."
    )
    fight = param.ClassSelector(
        class_=FightOdds, constant=True, doc="Rounds to 0 and to dead (derived)."
    )
    against_armor = param.Array(
        constant=True,
        doc="P(armor loses a levels, wearer loses k levels) on an ordinary hit, shape "
        "(2, dice + 1) (derived; rules/002 armor).",
    )
    ki_worth = param.ClassSelector(
        class_=KiValue, constant=True, doc="What each successive Ki boost adds (derived)."
    )

    def __init__(self, **params):
        if params.get("ruleset") is None:
            params["ruleset"] = Ruleset()
        kind = params.get("kind", self.param.kind.default)
        allowed = {
            "approach": attack_elements(kind, params["ruleset"].never_moira),
            "dice_source": SOURCES_BY_KIND.get(kind, ()),
        }
        for name, choices in allowed.items():
            if name in params and params[name] not in choices:
                raise ValueError(
                    f"{name} must be one of {tuple(choices)} for a {kind} attack under this "
                    f"ruleset, got {params[name]!r}"
                )
        slow = params.get("slow_action", "none")
        if slow != "none" and "bracket" not in params:
            params["bracket"] = "slow"  # Aim and a Called Shot are Slow actions
        if params.get("bracket") == "slow" and "slow_action" not in params:
            params["slow_action"] = "aim"
        super().__init__(**params)

    @property
    def timing(self) -> str:
        """When boosts are chosen: "after" the dice are seen, or "before" (variant 002)."""
        return self.ruleset.boost_timing

    @property
    def rules(self):
        """The kind's Defense stat, wall, boost stat and vital (``ATTACK_KIND_RULES``)."""
        return ATTACK_KIND_RULES[self.kind]

    @param.depends("bracket", watch=True)
    def _bracket_sets_slow_action(self) -> None:
        """A Slow round holds the empowered action (Aim by default); other Brackets none."""
        if self.bracket == "slow" and self.slow_action == "none":
            self.slow_action = "aim"
        elif self.bracket != "slow" and self.slow_action != "none":
            self.slow_action = "none"

    @param.depends("slow_action", watch=True)
    def _slow_action_sets_bracket(self) -> None:
        """Aim and a Called Shot are Slow actions; dropping them leaves a Fast round."""
        if self.slow_action != "none" and self.bracket != "slow":
            self.bracket = "slow"
        elif self.slow_action == "none" and self.bracket == "slow":
            self.bracket = "fast"

    @param.depends("kind", "ruleset.never_moira", watch=True, on_init=True)
    def _restrict_choices(self) -> None:
        """Offer only the approaches and dice sources the kind allows (RULES.md, Attacks).

        The value moves to an allowed choice before the choices narrow, so a widget showing
        them never holds a value that is not on offer.
        """
        allowed = {
            "approach": list(attack_elements(self.kind, self.ruleset.never_moira)),
            "dice_source": list(SOURCES_BY_KIND[self.kind]),
        }
        changes = {}
        for name, choices in allowed.items():
            if getattr(self, name) not in choices:
                self.param[name].objects = list(
                    dict.fromkeys([*self.param[name].objects, *choices])
                )
                changes[name] = choices[0]
        if changes:
            self.param.update(**changes)
        for name, choices in allowed.items():
            self.param[name].objects = choices

    def _rating(self) -> int:
        return {
            "weapon": self.weapon_rating,
            "gift": self.gift_dice,
            "skill": self.skill_tier,
        }[self.dice_source]

    def _modifiers(self) -> RollModifiers:
        prone = ["Prone"] if self.target_prone else []
        return roll_modifiers(
            "attack",
            attack_kind=self.kind,
            reach=self.reach,
            conditions=self.attacker_conditions,
            exhausted=self.attacker_exhausted,
            target_conditions=[*self.target_conditions, *prone],
            cover="partial" if self.partial_cover else "none",
            aim=self.slow_action == "aim",
            called_shot=self.slow_action == "called_shot",
            off_hand=self.off_hand,
            other_advantage=self.advantage_sources,
            other_disadvantage=self.disadvantage_sources,
            **self.ruleset.called_shot_args,
        )

    def _net_advantage(self) -> int:
        return self._modifiers().advantage

    @property
    def allowed(self) -> bool:
        """Whether the attack can be made at all (``modifiers.reason`` says why not)."""
        return self.modifiers.allowed

    def armor(self) -> Armor | None:
        """The target's armor as the engine's ``Armor``, or None.

        None when it has no levels left or the attack is not Physical (armor stands in front
        of Soak, rules/002).
        """
        if self.kind != "physical" or self.target_armor_levels == 0:
            return None
        return Armor(self.target_armor_hardness, self.target_armor_levels, self.target_armor_zone)

    def profile(self) -> AttackProfile:
        """The attack as the engine's ``AttackProfile``, with the same attack Off Balance."""
        return self._profile(self.to_hit, self.dice, self._off_balance_to_hit())

    def _off_balance_to_hit(self) -> ToHit:
        """The to-hit roll Off Balance: one more Disadvantage source (rules/000)."""
        return attack_to_hit(
            self.kind,
            self.element,
            self.target_defense_stat,
            element_name=self.approach,
            advantage=self._net_advantage() - 1,
            never_moira=self.ruleset.never_moira,
        )

    def _profile(self, to_hit: ToHit, dice: int, off_balance: ToHit | None = None) -> AttackProfile:
        return AttackProfile.from_to_hit(
            to_hit,
            dice,
            self.target_wall,
            self.boosts,
            self.bonus,
            self.timing,
            self.klotho,
            off_balance,
        )

    def grid(self, statistic: str = "expected", max_dice: int = 12) -> np.ndarray:
        """Expected levels or P(any level) on a hit, for pools 1..max_dice x walls 0..10."""
        return _damage_grid(statistic, max_dice, self.boosts, self.bonus, self.timing)

    @param.depends(
        "kind", "approach", "element", "dice_source", "weapon_rating", "gift_dice",
        "skill_tier", "boosts", "bonus", "klotho", "attacker_ki", "slow_action",
        "target_prone", "partial_cover", "off_hand", "advantage_sources", "reach",
        "attacker_conditions", "attacker_exhausted", "target_conditions",
        "disadvantage_sources", "ruleset.never_moira", "ruleset.boosts_before_roll",
        "ruleset", "ruleset.vitals_002", "ruleset.slow_called_shot_advantage",
        "target_defense_stat", "target_wall", "target_armor_levels",
        "target_armor_hardness", "target_armor_zone",
        "target_levels", "target_ki", "target_ki_policy", "rounds", "bracket", "bracket_bumps",
        watch=True, on_init=True,
    )  # fmt: skip
    def _update(self) -> None:
        dice = attack_dice(self.kind, self.dice_source, self._rating())
        modifiers = self._modifiers()
        advantage = modifiers.advantage
        to_hit = attack_to_hit(
            self.kind,
            self.element,
            self.target_defense_stat,
            element_name=self.approach,
            advantage=advantage,
            never_moira=self.ruleset.never_moira,
        )
        wall = self.target_wall
        on_hit = _damage_distribution(dice, wall, self.boosts, self.bonus, self.timing)
        on_critical = _damage_distribution(
            dice, wall, self.boosts, self.bonus, self.timing, True, self.klotho
        )
        profile = self._profile(to_hit, dice, self._off_balance_to_hit())
        fight = _fight_odds(
            profile,
            self.target_levels,
            self.rounds,
            vital=self.rules.vital,
            attacker_ki=self.attacker_ki,
            defender_ki=self.target_ki,
            ki_policy=self.target_ki_policy,
            variant_002=self.ruleset.vitals_002,
            bracket=self.bracket,
            bumps=min(self.bracket_bumps, BUMP_STEPS[self.bracket]),
            sanity_max=vital_maximum(self.target_defense_stat),
        )
        worth = _ki_value(dice, wall, self.bonus, 5, self.timing)
        against_armor = _armor_distribution(
            dice,
            wall,
            self.armor(),
            self.slow_action == "called_shot",
            self.boosts,
            self.bonus,
            self.timing,
        )
        values = {
            "dice": dice,
            "defense": defense(self.kind, self.target_defense_stat),
            "net_advantage": advantage,
            "modifiers": modifiers,
            "to_hit": to_hit,
            "on_hit": on_hit,
            "on_critical": on_critical,
            "per_attack": _level_distribution(profile),
            "fight": fight,
            "ki_worth": worth,
            "against_armor": against_armor,
        }
        # Only what changed: a page redraws a chart per derived value that moves.
        changed = {k: v for k, v in values.items() if not _same(getattr(self, k), v)}
        with param.edit_constant(self):
            self.param.update(**changed)

    @property
    def expected_per_attack(self) -> float:
        """Expected levels per attack, misses included."""
        return float(expected_levels(self.per_attack))
