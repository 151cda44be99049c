"""When the table offers a boost step: only where a boost can still change the result.

Rule: RULES.md, Attacks (after the damage roll, each point of Ki lifts one die by the boost
bonus) and Vitals (an attack never takes more levels than the track has above 0, or one once
it is at or below 0: rules/000 "A bear that rolls ten dice at someone with three Levels left
... drops them"); against armor one level is all it can lose (rules/002 "What Does Armor Do?").
The reading, with the brute-force test over every face: docs/notes/0015-table-rules.md.
"""

from __future__ import annotations

from tb_playground.engine import critical_room, hit_room, ki_spend_cost

from .armor_at_table import boost_useful


def liftable_dice(p: dict, faces: list[int]) -> list[int]:
    """The positions of the dice a boost lifts over the wall (as the table reads them)."""
    klotho = p.get("klotho_added", p["klotho"] if p.get("critical") else 0)
    wall, bonus = p["wall"], p["bonus"]
    return [i for i, f in enumerate(faces) if f + klotho <= wall < f + klotho + bonus]


def room(state: dict, p: dict) -> int:
    """The most levels the attack ``p`` can take from its target's track (``hit_room``)."""
    t = state["combatants"][p["target"]]
    vital = p["vital"]
    v002 = bool(state["ruleset"].get("vitals_002"))
    most = int(hit_room(t["now"][vital], t["max"][vital], vital, v002))
    return critical_room(t["now"][vital], most, vital) if p.get("critical") else most


def boost_offered(state: dict, p: dict, faces: list[int], levels: int) -> bool:
    """Whether the attacker gets a boost step after the damage roll ``faces`` (``levels``).

    Offered only when all of these hold: boosts come after the roll (not the "before the
    roll" switch), some die is liftable, the attacker's Ki pays for one boost, and one more
    level changes what the hit does: against armor, no die beat it yet; otherwise the track
    still loses more with one more level (a target that goes down anyway, or a track at the
    bottom, gains nothing). Each lifted die adds exactly one level and what a track loses
    grows with the levels up to its cap (``engine.hit_room``, the rule the lab's simulator
    boosts by), so "one more level" decides for any number of boosts.

    Parameters
    ----------
    state : dict
        The table's state (``state.py``).
    p : dict
        The pending attack, as at its damage roll (wall, bonus, klotho, timing, armor).
    faces : list of int
        The damage dice rolled.
    levels : int
        The levels they connect before any boost (automatic ones included).
    """
    if p["timing"] != "after" or not liftable_dice(p, faces):
        return False
    a = state["combatants"][p["attacker"]]
    if a["ki"] < ki_spend_cost(1, a["exhausted"]):
        return False
    if p.get("armor"):
        return boost_useful(p, levels)
    return levels < room(state, p)
