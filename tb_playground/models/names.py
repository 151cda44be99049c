"""Plain words for every code name a person might read: one table, ``DISPLAY_NAMES``.

A page, a notebook and a widget all say "Water", "Just enough to stay up" or "Called Shot" where
the code says ``"water"``, ``"stay_up"`` or ``"called_shot"``: ``name(kind, key)`` looks one up,
``label_for`` writes "Water: 5", ``options_for`` gives a widget's options. Words the engine's own
reprs need (the outcomes) live beside them in the engine and are read from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tb_playground.engine.conditions import CONDITIONS
from tb_playground.engine.core_roll import OUTCOME_WORDS

from .switches import SWITCH_SENTENCES, SwitchColumn

#: Display names by kind of code name. Keys are what the engine and models use.
DISPLAY_NAMES: dict[str, Mapping[object, str]] = {
    # The Elements: the engine's names (``ELEMENTS``), the Character's attributes, and their
    # order (0 Earth .. 4 Moira).
    "element": {
        **{e: e for e in ("Earth", "Air", "Fire", "Water", "Moira")},
        **{e.lower(): e for e in ("Earth", "Air", "Fire", "Water", "Moira")},
        **dict(enumerate(("Earth", "Air", "Fire", "Water", "Moira"))),
    },
    "attack_kind": {"physical": "Physical", "social": "Social", "mental": "Mental"},
    "roll_kind": {
        "physical": "Physical",
        "social": "Social",
        "mental": "Mental",
        "attack": "Attack",
        "gift check": "Gift Check",
        "other": "Other roll",
    },
    "dice_source": {"weapon": "Weapon", "gift": "Gift", "skill": "Skill tier (Social)"},
    "ki_policy": {
        "none": "Never",
        "all": "Every level while Ki lasts",
        "stay_up": "Just enough to stay up",
        "stay_alive": "Just enough to stay alive",
    },
    "timing": {"after": "After the roll", "before": "Before the roll"},
    "bracket": {"fast": "Fast", "normal": "Normal", "slow": "Slow"},
    "outcome": OUTCOME_WORDS,
    "advantage": {-1: "Disadvantage", 0: "Normal", 1: "Advantage"},
    "tier": {
        **dict(enumerate(("Untrained", "Trained", "Adept", "Expert", "Master"))),
        **{t: t for t in ("Untrained", "Trained", "Adept", "Expert", "Master")},
    },
    "condition": {c: c for c in (*CONDITIONS, "Exhausted")},
    "vital": {"health": "Health", "poise": "Poise", "sanity": "Sanity"},
    "state": {
        "up": "Up",
        "steady": "Steady",
        "unconscious": "Unconscious",
        "dying": "Dying",
        "dead": "Dead",
        "flustered": "Flustered",
        "humiliated": "Humiliated",
        "overwhelmed": "Overwhelmed",
        "shattered": "Shattered",
        "reset": "Reset (at the bottom)",
    },
    "zone": {"body": "Body", "head": "Head"},
    "slow_action": {"none": "None", "aim": "Aim", "called_shot": "Called Shot"},
    "reach": {"melee": "Melee", "ranged": "Ranged"},
    "cover": {"none": "No cover", "partial": "Partial cover", "full": "Full cover"},
    "weapon_range": {"normal": "Normal range", "long": "Long range", "beyond": "Beyond range"},
    "grid_statistic": {"expected": "Expected levels", "any": "Chance of at least one level"},
    "system": {"20 Below": "20 Below (roll under)", "roll-over draft": "Roll-over draft"},
    # Each Ruleset switch as the sentence pages show when it is on (``models/switches.py``).
    "switch": SWITCH_SENTENCES,
    # The rules lab's picker: each Ruleset switch, and the rules/003 draft, in a few words.
    "lab_switch": SwitchColumn("title", draft=True),
    # The encounter lab's policies (``tb_playground.lab``): how a side plays a simulated fight.
    "bracket_policy": {
        "normal": "Normal: two attacks",
        "fast": "Fast: one attack, first",
        "slow_aim": "Slow with Aim when it pays",
        "aim": "Slow with Aim, always",
        "called_shot": "Slow with a Called Shot",
        "bump": "Bump to Fast (1 Ki) while Ki lasts",
    },
    "target_policy": {
        "weakest": "The weakest foe",
        "spread": "Spread the attacks",
        "most_dangerous": "The most dangerous foe",
        "finish": "Finish off the fallen too",
    },
    "boost_policy": {
        "lift": "Boost dice up over the wall",
        "none": "Never boost",
    },
    "fight_end": {
        "down": "Until a side is all down",
        "dead": "Until a side is all dead",
    },
}

#: Every kind ``name`` knows.
KINDS = tuple(DISPLAY_NAMES)


def names(kind: str) -> Mapping[object, str]:
    """All display names of one kind, code name -> plain words.

    Parameters
    ----------
    kind : str
        One of ``KINDS`` ("element", "attack_kind", "ki_policy", "switch", ...).
    """
    if kind not in DISPLAY_NAMES:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind}")
    return DISPLAY_NAMES[kind]


def name(kind: str, key: object) -> str:
    """The plain words for one code name, e.g. ``name("ki_policy", "stay_up")``.

    Parameters
    ----------
    kind : str
        One of ``KINDS``.
    key : str or int
        The code name (or number, for Elements, tiers and Advantage).

    Raises
    ------
    ValueError
        For an unknown kind or key, naming the known keys.
    """
    table = names(kind)
    if isinstance(key, str | int) and not isinstance(key, bool) and key in table:
        return table[key]
    known = ", ".join(str(k) for k in table)
    raise ValueError(f"no display name for {key} as {kind}; known: {known}")


def label_for(kind: str, key: object, value: object = None) -> str:
    """A labelled value in plain words: ``label_for("element", "water", 5)`` -> "Water: 5".

    Without ``value`` it is ``name(kind, key)``.
    """
    label = name(kind, key)
    return label if value is None else f"{label}: {value}"


def display_name(kind: str, key: object) -> str:
    """The plain words for one code name; the same as ``name`` (the views' older name)."""
    return name(kind, key)


def options_for(kind: str, keys: Iterable[object]) -> dict[str, object]:
    """A widget's ``options``: plain words -> code name, in the models' order.

    Parameters
    ----------
    kind : str
        One of ``KINDS``.
    keys : iterable
        The code names, in the order the widget lists them.
    """
    return {name(kind, key): key for key in keys}
