"""The exact odds of what is still to come in a pending attack, from the engine.

Rule: RULES.md, Attacks and Vitals. Readings (boosts assumed as far as Ki pays, the target's
prevention not assumed, "down" is a track at 0 or below): docs/notes/0008-table.md.
"""

from __future__ import annotations

import numpy as np

from tb_playground.engine import damage_distribution, to_hit_odds, vital_step
from tb_playground.engine.dice_landing import core_roll_given, damage_given
from tb_playground.engine.roll_reading import dice_needed

from .armor_at_table import armor_odds
from .gifts import check_odds


def _boosts(ki: int, exhausted: int, dice: int) -> int:
    if exhausted >= 4:
        ki = max(ki - 1, 0)
    return max(min(ki, dice), 0)


def _p_down(state: dict, p: dict, distribution: np.ndarray) -> float:
    t = state["combatants"][p["target"]]
    vital = p["vital"]
    levels = np.arange(len(distribution))
    v002 = bool(state["ruleset"].get("vitals_002"))
    after = vital_step(t["now"][vital], levels, t["max"][vital], vital, 0, "none", v002)
    return float(distribution[after.current <= 0].sum())


def _rounded(values) -> list[float]:
    return [round(float(v), 12) for v in values]


def _typed_faces(p: dict, typed: object) -> list[int]:
    """Check the dice typed so far for the roll due at ``p``'s step (a ValueError if not)."""
    if p["step"] == "to_hit":
        most = dice_needed(p["advantage"])
    elif p["step"] == "damage":
        most = p["dice"] - ((p["dice"] + 1) // 2 if p["critical"] else 0)
    else:
        raise ValueError("typed: dice are typed only for a to-hit or damage roll")
    if not isinstance(typed, (list, tuple)) or len(typed) > most:
        raise ValueError(f"typed must be a list of at most {most} d10 faces, got {typed!r}")
    for i, face in enumerate(typed):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise ValueError(f"typed[{i}] must be a d10 face, 1..10, got {face!r}")
    return list(typed)


def pending_odds(state: dict, p: dict, typed: list[int] | None = None) -> dict:
    """Exact odds of the rest of the pending attack ``p`` from where it stands.

    ``typed``: the dice of the roll due already typed, one at a time (issue 23, item 5): the
    to-hit odds (and the levels after them) or the damage levels are then given those faces
    (``engine.dice_landing``). Only at the to-hit or damage step; with armor in the way the damage
    levels stay those before any die is typed.

    Returns
    -------
    dict
        "step"; "p_hit", "p_critical", "p_catastrophe" (before the to-hit roll); "levels"
        (P(levels == k), k = 0.. dice); "expected_levels"; "p_down"; "typed" (the faces the
        odds are given, when ``typed`` is); and after the damage roll "dice": one entry per
        rolled die with its face, whether it was boosted, whether it is over the wall (boosted
        or not) and, at the boost step, whether a boost would lift it over; with armor in the
        way (the wall is then its Hardness, and the wearer's levels are 0) "p_armor_loses",
        P(the armor loses its level).
    """
    a = state["combatants"][p["attacker"]]
    step = p["gift_check"]["then"] if p["step"] == "gift_check" else p["step"]
    boosts = _boosts(a["ki"], a["exhausted"], p["dice"])
    if p["timing"] == "before":
        boosts = p["boosts_before"]
    common = {"wall": p["wall"], "bonus": p["bonus"], "timing": p["timing"], "boosts": boosts}
    if p.get("armor"):
        common["armor"] = {k: p["armor"][k] for k in ("zone", "name", "hardness", "levels")}

    armor_breaks = {}

    def dist(critical: bool) -> np.ndarray:
        if p.get("armor"):  # the engine's armor layer (rules/002; armor_at_table.py)
            levels, armor_breaks[critical] = armor_odds(p, boosts, critical)
            return levels
        return damage_distribution(
            p["dice"],
            p["wall"],
            boosts,
            p["bonus"],
            p["timing"],
            critical,
            p["klotho"] if critical else 0,
        )

    out: dict = {"step": p["step"]}
    if typed is not None:
        typed = _typed_faces(p, typed)
        out["typed"] = list(typed)
    if p["step"] == "gift_check":  # a Gift attack's Gift Check first (table/gifts.py)
        out["gift_check"] = check_odds(state, a)
    if step in ("to_hit", "approach"):
        hit = to_hit_odds(p["score"], p["defense"], p["advantage"])
        if typed is not None:
            hit = core_roll_given(typed, p["tn"], p["advantage"])
        ordinary, critical = dist(False), dist(True)
        levels = hit.p_ordinary * ordinary + hit.p_critical * critical
        levels[0] += hit.p_miss
        out.update(
            p_hit=hit.p_hit,
            p_critical=hit.p_critical,
            p_catastrophe=hit.p_catastrophe,
        )
        if armor_breaks:
            out["p_armor_loses"] = (
                hit.p_ordinary * armor_breaks[False] + hit.p_critical * armor_breaks[True]
            )
    elif step == "damage":
        levels = dist(p["critical"])
        if typed is not None and not p.get("armor"):
            klotho = p["klotho"] if p["critical"] else 0
            levels = damage_given(
                typed, p["dice"], p["wall"], boosts, p["bonus"], p["timing"], p["critical"], klotho
            )
        if armor_breaks:
            out["p_armor_loses"] = armor_breaks[p["critical"]]
    else:
        n = p.get("would_take", p.get("levels", 0)) if step == "prevent" else p["levels"]
        if p.get("armor"):
            n = 0  # the armor takes the hit: the wearer loses nothing (rules/002 line 155)
        levels = np.zeros(max(p["dice"], n) + 1)
        levels[n] = 1.0
        klotho = p.get("klotho_added", 0)
        boosted = set(p.get("boosted") or ())
        out["dice"] = [
            {
                "face": f,
                "boosted": i in boosted,
                "over": f + klotho + (p["bonus"] if i in boosted else 0) > p["wall"],
                "boost_lifts": step == "boost"
                and f + klotho <= p["wall"] < f + klotho + p["bonus"],
            }
            for i, f in enumerate(p.get("faces", []))
        ]
    out.update(
        levels=_rounded(levels),
        expected_levels=float(np.dot(np.arange(len(levels)), levels)),
        p_down=_p_down(state, p, levels),
        **common,
    )
    return out
