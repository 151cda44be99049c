"""Plain words for the code names the damage and odds pages show. Presentation only.

The project's single table of display names is ``tb_playground.display`` (``name(kind,
key)``); this module asks it first. Until that table is on the branch, a small local copy of
the few names these pages need stands in (same kinds, same keys, same words), so a page never
shows "called_shot" or "stay_up".
"""

from __future__ import annotations

try:  # the shared table, when it is there
    from tb_playground.display import name as _shared_name
except ImportError:  # pragma: no cover - depends on which branch is checked out
    _shared_name = None

#: The local stand-in: only the kinds these two pages use.
_LOCAL = {
    "element": {e: e for e in ("Earth", "Air", "Fire", "Water", "Moira")},
    "attack_kind": {"physical": "Physical", "social": "Social", "mental": "Mental"},
    "dice_source": {"weapon": "Weapon", "gift": "Gift", "skill": "Skill tier (Social)"},
    "ki_policy": {
        "none": "Never",
        "all": "Every level while Ki lasts",
        "stay_up": "Just enough to stay up",
        "stay_alive": "Just enough to stay alive",
    },
    "timing": {"after": "After the roll", "before": "Before the roll"},
    "zone": {"body": "Body", "head": "Head"},
    "slow_action": {"none": "None", "aim": "Aim", "called_shot": "Called Shot"},
    "reach": {"melee": "Melee", "ranged": "Ranged"},
    "vital": {"health": "Health", "poise": "Poise", "sanity": "Sanity"},
}


def display_name(kind: str, key: object) -> str:
    """The plain words for one code name (``display_name("ki_policy", "stay_up")``).

    Parameters
    ----------
    kind : str
        The kind of name: "attack_kind", "dice_source", "ki_policy", "slow_action", ...
    key : str
        The code name the models use.
    """
    if _shared_name is not None:
        try:
            return _shared_name(kind, key)
        except ValueError:
            pass
    try:
        return _LOCAL[kind][key]
    except KeyError:
        return str(key).replace("_", " ").capitalize()


def options_for(kind: str, keys) -> dict[str, object]:
    """A widget's ``options``: plain words -> code name, in the models' order."""
    return {display_name(kind, key): key for key in keys}
