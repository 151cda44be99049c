"""The odds of each of a combatant's attacks against each target it can see, before it attacks.

A player's page shows, for their seat, every attack against every visible target: the chance
to hit and to crit, the expected levels and the chance the target is down afterwards, as the
table would compute them if the attack were declared now (no Empowered action, no cover).
The odds are those of ``odds.pending_odds`` on the pending attack the "attack" command would
make (commands.py ``_attack``; a test checks the two agree).

Sources: RULES.md "Attacks" and "Vitals"; rules/000 "Making an Attack".
"""

from __future__ import annotations

from tb_playground.engine import ATTACK_KIND_RULES, attack_elements

from .odds import pending_odds
from .rules import attack_modifiers


def preview_pending(state: dict, attacker: str, target: str, index: int) -> dict | None:
    """The pending attack ``attacker`` would start with attack ``index`` on ``target``.

    Returns None when the rules forbid the attack (Prone, Squeezed); the approach Element is
    the one the "attack" command picks by default (the best allowed Element).
    """
    a = state["combatants"][attacker]
    t = state["combatants"][target]
    spec = a["attacks"][index]
    kind = spec["kind"]
    mods = attack_modifiers(state, a, t, kind, None, "none")
    if not mods["allowed"]:
        return None
    if spec["score"] is not None:
        element, score = None, spec["score"]
    else:
        allowed = attack_elements(kind, state["ruleset"].get("never_moira", False))
        element = spec["element"] or max(allowed, key=lambda e: a["elements"][e])
        score = a["elements"][element]
    defense = max(t["defense"][kind] + mods["defense_change"], 0)
    return {
        "attacker": a["id"],
        "target": t["id"],
        "attack": spec["name"],
        "kind": kind,
        "vital": ATTACK_KIND_RULES[kind].vital,
        "element": element,
        "score": score,
        "defense": defense,
        "tn": score + defense,
        "advantage": mods["advantage"],
        "sources": mods["sources"],
        "empowered": None,
        "dice": spec["dice"],
        "wall": t["wall"][kind],
        "bonus": a["boost"][kind],
        "klotho": a["klotho"],
        "automatic": spec["automatic"],
        "timing": "before" if state["ruleset"].get("boosts_before_roll") else "after",
        "step": "damage" if spec["automatic"] else "to_hit",
        "critical": False,
        "boosts_before": 0,
    }


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
            p = preview_pending(state, attacker, tid, index)
            if p is None:
                reason = attack_modifiers(state, a, t, spec["kind"], None, "none")["reason"]
                rows.append({"target": tid, "refused": reason})
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
