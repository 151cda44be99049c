"""The pending attack's odds are the engine's own functions for the same inputs (issue 19).

A seeded sample of 500 attacks, declared through ``Table.apply`` with random conditions on both
sides, Ki, Exhausted, armor levels, helpers, off hand, the GM's situational sources, cover and
Empowered actions: P(hit), the levels distribution and P(the armor loses its level) shown in the
pending view equal ``roll_modifiers``, ``to_hit_odds``, ``damage_distribution`` and
``armor_distribution`` (rules/000 "Advantage and Disadvantage", "Helping"; rules/002 armor) to
1e-12. Each attack is undone after it is read.
"""

from __future__ import annotations

import numpy as np
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.engine import damage_distribution, roll_modifiers, to_hit_odds
from tb_playground.engine.armor import Armor, armor_distribution
from tb_playground.table import gifts
from tb_playground.table.help_action import attack_need, trained

MINE = ("Off Balance", "Surprised", "Belly Down", "Flustered")
THEIRS = ("Prone", "Belly Down", "Surprised")
TARGETS = ("grizzly-bear", "opponent", "ronan-2", "the-brick-2")
HELPERS = ("the-brick", "the-nerdy-hacker")  # each spent their Help on Ronan this round


def _sync(t, cid: str, wanted: set[str]) -> None:
    have = set(t.state["combatants"][cid]["conditions"])
    for name in sorted(have - wanted):
        t.apply({"type": "clear_condition", "combatant": cid, "condition": name})
    for name in sorted(wanted - have):
        t.apply({"type": "set_condition", "combatant": cid, "condition": name, "until": "manual"})


def _expected(a, tgt, spec, adv, boosts, zone):
    kind, dice = spec["kind"], spec["dice"]
    item = tgt["armor"].get(zone) if kind == "physical" else None
    armor = Armor(item["hardness"], item["levels"], zone) if item and item["levels"] else None
    breaks = {}

    def dist(critical):
        klotho = a["klotho"] if critical else 0
        if armor is not None:
            joint = armor_distribution(
                dice, tgt["wall"][kind], armor, zone == "head", boosts, a["boost"][kind],
                "after", critical, klotho,
            )  # fmt: skip
            breaks[critical] = joint[1].sum()
            return joint.sum(axis=0)
        return damage_distribution(
            dice, tgt["wall"][kind], boosts, a["boost"][kind], "after", critical, klotho
        )

    return dist, breaks


def test_pending_odds_equal_the_engines_for_500_attacks(tmp_path):
    rng = np.random.default_rng(19)
    enc = encounter(
        roster("ronan.json"),
        roster("the_brick.json"),
        roster("nerdy_hacker.yaml"),
        foes=[roster("grizzly_bear.yaml"), soak7(), roster("ronan.json"), roster("the_brick.json")],
    )
    _, t = new_table(tmp_path, enc)
    faces = dict.fromkeys(t.state["ids"], 5) | {"ronan": 1}
    start_and_declare(t, {"ronan": ("slow", 0)}, faces)
    for cid in t.state["order"][:-1]:
        if cid in ("the-brick", "the-nerdy-hacker"):
            t.apply({"type": "help", "combatant": cid, "ally": "ronan"})
        t.apply({"type": "end_turn"})
    assert t.state["up"] == "ronan"
    checked = refused = 0
    for _ in range(500):
        mine = {c for c in MINE if rng.random() < 0.15}
        theirs = {c for c in THEIRS if rng.random() < 0.15}
        tid = str(rng.choice(TARGETS))
        _sync(t, "ronan", mine)
        _sync(t, tid, theirs)
        ki, tired = int(rng.integers(0, 15)), int(rng.integers(0, 5))
        t.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": ki})
        t.apply({"type": "set", "combatant": "ronan", "field": "exhausted", "value": tired})
        for zone in t.state["combatants"][tid]["armor"]:
            levels = int(rng.integers(0, 4))
            t.apply({"type": "repair_armor", "combatant": tid, "zone": zone, "levels": levels})
        a, tgt = t.state["combatants"]["ronan"], t.state["combatants"][tid]
        index = int(rng.integers(0, 3))
        spec = a["attacks"][index]
        empowered = [None, "aim", "called shot"][int(rng.integers(0, 3))]
        need = attack_need(a, index)  # who may help is issue 32 item 9's rule (its own tests)
        eligible = [h for h in HELPERS if trained(t.state["combatants"][h], need)]
        named = None if rng.random() < 0.5 else [h for h in eligible if rng.random() < 0.5]
        helpers = eligible if named is None else named
        plus, minus = int(rng.integers(0, 3)), int(rng.integers(0, 3))
        situational = [
            {"name": f"s{i}", "effect": effect, "reason": "the GM says so"}
            for i, effect in enumerate(["advantage"] * plus + ["disadvantage"] * minus)
        ]
        off_hand, cover = bool(rng.random() < 0.3), ["none", "partial"][int(rng.integers(0, 2))]
        command = {
            "type": "attack",
            "attacker": "ronan",
            "target": tid,
            "attack": index,
            "off_hand": off_hand,
            "situational": situational,
            "cover": cover,
        }
        approach = spec["element"] or str(rng.choice(["Earth", "Air", "Fire", "Water"]))
        if spec["element"] is None:
            command["approach"] = approach
        if empowered:
            command["empowered"] = empowered
        if named is not None:
            command["helpers"] = named
        mods = roll_modifiers(
            "attack",
            attack_kind=spec["kind"],
            reach="melee",
            conditions=sorted(mine),
            exhausted=tired,
            target_conditions=sorted(theirs),
            cover=cover,
            aim=empowered == "aim",
            called_shot=empowered == "called shot",
            off_hand=off_hand,
            helpers=len(helpers),
            other_advantage=plus,
            other_disadvantage=minus,
        )
        gift = gifts.gift_of_attack(a, index)  # a Gift attack pays its Ki first (rules/000 ~227)
        paid = gifts.cost(a, gift) if gift else 0
        if not mods.allowed or paid > ki:
            version = t.version
            try:
                t.apply(command)
                raise AssertionError(f"the table took an attack the engine refuses: {command}")
            except ValueError:
                assert t.version == version
            refused += 1
            continue
        t.apply(command)
        odds = t.view_for("gm")["pending"]["odds"]
        hit = to_hit_odds(a["elements"][approach], tgt["defense"][spec["kind"]], mods.advantage)
        boosts = min(max(ki - paid - (tired >= 4), 0), spec["dice"])
        zone = "head" if empowered == "called shot" else "body"
        dist, breaks = _expected(a, tgt, spec, mods.advantage, boosts, zone)
        levels = hit.p_ordinary * dist(False) + hit.p_critical * dist(True)
        levels[0] += hit.p_miss
        assert abs(odds["p_hit"] - hit.p_hit) < 1e-12
        assert abs(odds["p_critical"] - hit.p_critical) < 1e-12
        assert np.max(np.abs(np.array(odds["levels"]) - levels)) < 1e-12
        if breaks:
            p_break = hit.p_ordinary * breaks[False] + hit.p_critical * breaks[True]
            assert abs(odds["p_armor_loses"] - p_break) < 1e-12
        else:
            assert "p_armor_loses" not in odds
        t.apply({"type": "undo"})
        assert t.state["pending"] is None
        checked += 1
    assert checked + refused == 500 and checked > 300
