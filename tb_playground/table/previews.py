"""The odds of each of a combatant's attacks against each target it can see, before it attacks.

The pending attack the "attack" command would make (``attack_options.attack_pending``, no Empowered
action, no cover), through ``odds.pending_odds``. Rule: RULES.md, Attacks and Vitals. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from tb_playground.formatting import chance_words

from .attack_options import attack_pending
from .odds import pending_odds


def preview_pending(state: dict, attacker: str, target: str, index: int) -> dict:
    """The pending attack ``attacker`` would start with attack ``index`` on ``target`` now.

    The "attack" command's own ``attack_pending`` with its defaults (the best allowed
    Element, no cover, the attack's own reach); raises ValueError when the rules forbid it.
    """
    a = state["combatants"][attacker]
    return attack_pending(state, a, state["combatants"][target], index, {})


def attack_previews(state: dict, attacker: str, visible: list[str]) -> list[dict]:
    """For each attack of ``attacker``, its odds against each target id in ``visible``.

    Returns
    -------
    list of dict
        One per attack: "index", "name", "kind", "dice" and "targets", a list of
        {"target", "p_hit", "p_critical", "expected_levels", "p_down", "advantage"} (or
        {"target", "refused": reason} when the rules forbid it). Targets out of the fight and
        the attacker itself are left out.
    """
    a = state["combatants"][attacker]
    out = []
    for index, spec in enumerate(a["attacks"]):
        rows = []
        for tid in visible:
            t = state["combatants"].get(tid)
            if t is None or tid == attacker or t["out"]:
                continue
            try:
                p = preview_pending(state, attacker, tid, index)
            except ValueError as err:
                rows.append({"target": tid, "refused": str(err)})
                continue
            odds = pending_odds(state, p)
            rows.append(
                {
                    "target": tid,
                    "p_hit": odds.get("p_hit", 1.0),
                    "p_critical": odds.get("p_critical", 0.0),
                    "expected_levels": odds["expected_levels"],
                    "p_down": odds["p_down"],
                    "advantage": p["advantage"],
                }
            )
        out.append(
            {
                "index": index,
                "name": spec["name"],
                "kind": spec["kind"],
                "dice": spec["dice"],
                "targets": rows,
            }
        )
    return out


def previews_as(previews: list[dict], show: str) -> list[dict]:
    """``previews`` as an attacker may see them against foes whose numbers are not shared.

    ``show`` is the GM's switch (``privacy.foe_odds``, issue 31): "exact" keeps them, "words"
    keeps only the chance to hit in words (``formatting.chance_words``) and "none" leaves no
    odds at all (an empty list).
    """
    if show == "exact":
        return previews
    if show == "none":
        return []
    return [
        {
            **a,
            "targets": [
                t if "refused" in t else {"target": t["target"], "chance": chance_words(t["p_hit"])}
                for t in a["targets"]
            ],
        }
        for a in previews
    ]
