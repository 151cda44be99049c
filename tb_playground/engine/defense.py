"""Defense by kind and the to-hit roll (a Core Roll against the target's Defense).

Rule: RULES.md, Attacks; rules/000 "Defense and How It's Calculated"; rules/004 "Social
Attacks". Readings (the to-hit critical band): docs/notes/0003-attacks.md (7).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..formatting import fraction_text, html_table, percent
from .core_roll import Odds, roll_odds
from .validation import require_bool, require_choice, require_int

#: The three kinds of attack, in the order the texts list them.
ATTACK_KINDS = ("physical", "social", "mental")

#: The five Elements (Attributes).
ELEMENTS = ("Earth", "Air", "Fire", "Water", "Moira")


@dataclass(frozen=True)
class AttackKind:
    """Which numbers an attack of one kind reads (RULES.md, Attacks and Vitals).

    Attributes
    ----------
    name : str
        "physical", "social" or "mental".
    defense_stat : str
        The target's sub-stat whose complement is the Defense (Defense = 10 - it).
    wall_stat : str
        The target's sub-stat each damage die must beat.
    boost_stat : str
        The attacker's sub-stat a Ki boost adds to a die.
    vital : str
        The track each connecting die costs a level of.
    """

    name: str
    defense_stat: str
    wall_stat: str
    boost_stat: str
    vital: str


#: The rules of each attack kind, keyed by ``ATTACK_KINDS``.
ATTACK_KIND_RULES: dict[str, AttackKind] = {
    "physical": AttackKind("physical", "Atropos", "Soak", "Ferocity", "health"),
    "social": AttackKind("social", "Psyche", "Presence", "Presence", "poise"),
    "mental": AttackKind("mental", "Presence", "Psyche", "Psyche", "sanity"),
}


def attack_kind(kind: str) -> AttackKind:
    """Return the rules of an attack kind ("physical", "social" or "mental")."""
    return ATTACK_KIND_RULES[require_choice("kind", kind, ATTACK_KINDS)]


def defense(kind: str, sub_stat: int) -> int:
    """The target's Defense against an attack of ``kind`` (RULES.md, Attacks).

    Parameters
    ----------
    kind : {"physical", "social", "mental"}
        The attack's kind.
    sub_stat : int
        The target's Atropos (Physical), Psyche (Social) or Presence (Mental), 0..10.

    Returns
    -------
    int
        ``10 - sub_stat``, 0..10.
    """
    attack_kind(kind)
    return 10 - require_int("sub_stat", sub_stat, 0, 10)


def attack_elements(kind: str, never_moira: bool = False) -> tuple[str, ...]:
    """The Elements that may carry an attack of ``kind`` (RULES.md, Attacks).

    Parameters
    ----------
    kind : {"physical", "social", "mental"}
        The attack's kind.
    never_moira : bool
        Variant 002: Moira never carries any attack.

    Returns
    -------
    tuple of str
        Earth, Air, Fire, Water, and Moira for Social and Mental attacks unless
        ``never_moira``.
    """
    kind = attack_kind(kind).name
    never_moira = require_bool("never_moira", never_moira)
    if kind == "physical" or never_moira:
        return ELEMENTS[:4]
    return ELEMENTS


@dataclass(frozen=True)
class ToHit:
    """Exact odds of one to-hit roll.

    Attributes
    ----------
    target : int
        TN = Element + Defense.
    odds : Odds
        The Core Roll itself.
    p_hit : float
        P(the attack lands), critical hits included.
    p_critical : float
        P(critical hit): the band that feeds ``damage_distribution(..., critical=True)``.
    p_ordinary : float
        P(an ordinary, non-critical hit).
    p_miss : float
        P(miss), catastrophic failures included.
    p_catastrophe : float
        P(catastrophic failure): a miss that also leaves the attacker Off Balance.
    """

    target: int
    odds: Odds
    p_hit: float
    p_critical: float
    p_ordinary: float
    p_miss: float
    p_catastrophe: float

    def _repr_html_(self) -> str:
        """Hit, critical, ordinary hit, miss and catastrophe: exact fractions and percentages."""
        from .core_roll import ROLL_WORDS

        hit = self.odds.exact("success")
        critical = self.odds.exact("critical")
        catastrophe = self.odds.exact("catastrophe")
        band = "A kept 2" if self.odds.crit_max == 2 else f"A kept 2 to {self.odds.crit_max}"
        rows = [
            ("Hit", "Every hit, critical hits included", hit),
            ("Critical hit", f"{band}: half the damage dice connect outright", critical),
            ("Ordinary hit", "A hit that is not critical", hit - critical),
            ("Miss", "Every miss, catastrophic failures included", 1 - hit),
            ("Catastrophic failure", "A miss that leaves the attacker Off Balance", catastrophe),
        ]
        return html_table(
            ["Outcome", "What it counts", "Exactly", "Chance"],
            [[o, what, fraction_text(p), percent(p)] for o, what, p in rows],
            caption=f"To-hit roll against TN {self.target} (Element + Defense): "
            f"{ROLL_WORDS[self.odds.advantage]}",
            note="Hit = Critical hit + Ordinary hit; Hit + Miss = 100%.",
            align=["left", "left", "right", "right"],
        )


def to_hit_target(element: int, defense: int) -> int:
    """TN of a to-hit roll: attacking Element (0..10) + the target's Defense (0..10)."""
    element = require_int("element", element, 0, 10)
    defense = require_int("defense", defense, 0, 10)
    return element + defense


def to_hit_odds(element: int, defense: int, advantage: int = 0, crit_max: int = 2) -> ToHit:
    """Exact odds of a to-hit roll (RULES.md, Attacks).

    Parameters
    ----------
    element : int
        The attacking Element, 0..10.
    defense : int
        The target's Defense of the attack's kind, 0..10 (see ``defense``).
    advantage : int
        Net Advantage sources (+1 each) and Disadvantage sources (-1 each).
    crit_max : int
        Highest kept total that is a critical hit: 2 (the rule), or 3 if a table lets an
        Expert's band count on attacks (the texts are silent).

    Returns
    -------
    ToHit
    """
    target = to_hit_target(element, defense)
    advantage = require_int("advantage", advantage)
    crit_max = require_int("crit_max", crit_max, 2, 3)
    odds = roll_odds(target, advantage, crit_max)
    return ToHit(
        target=target,
        odds=odds,
        p_hit=odds.p_success,
        p_critical=odds.p_critical,
        p_ordinary=odds.p_success - odds.p_critical,
        p_miss=odds.p_failure + odds.p_catastrophe,
        p_catastrophe=odds.p_catastrophe,
    )


def attack_to_hit(
    kind: str,
    element: int,
    target_sub_stat: int,
    *,
    element_name: str | None = None,
    advantage: int = 0,
    crit_max: int = 2,
    never_moira: bool = False,
) -> ToHit:
    """To-hit odds of an attack of ``kind`` against a target's sub-stat (RULES.md, Attacks).

    Parameters
    ----------
    kind : {"physical", "social", "mental"}
        The attack's kind; picks the Defense.
    element : int
        The attacking Element's score, 0..10.
    target_sub_stat : int
        The target's Atropos (Physical), Psyche (Social) or Presence (Mental), 0..10.
    element_name : str, optional
        The Element used; if given it must be allowed for ``kind`` (Moira never carries a
        Physical attack; with ``never_moira`` it carries none).
    advantage : int
        Net Advantage sources.
    crit_max : int
        2, or 3 (see ``to_hit_odds``).
    never_moira : bool
        Variant 002: Moira never carries any attack.

    Returns
    -------
    ToHit
    """
    allowed = attack_elements(kind, never_moira)
    if element_name is not None:
        require_choice("element_name", element_name, allowed)
    return to_hit_odds(element, defense(kind, target_sub_stat), advantage, crit_max)
