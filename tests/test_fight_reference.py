"""fight_odds against a plain state-by-state Markov chain over every Ki policy and track.

The reference walks a dict of (track, defender Ki, attacker Ki, dead) states round by round,
applying one attack with the scalar ``take_attack`` (itself checked against the texts in
test_vitals.py) and the attack's per-round (levels, Ki spent) table from ``damage_with_ki``
(checked against brute force in test_damage_bruteforce.py). It shares no code with
``fight_odds``' vectorized chain. An independent review ran 400 such cases; 150 stay here.
"""

from __future__ import annotations

import numpy as np
import pytest

from tb_playground.engine import (
    AttackProfile,
    damage_with_ki,
    fight_odds,
    take_attack,
    track_range,
)


def reference(attack, maximum, rounds, start, vital, attacker_ki, defender_ki, policy, variant):
    low, high = track_range(vital, maximum, variant)
    start = high if start is None else start
    unlimited = attacker_ki is None
    tables: dict[int, np.ndarray] = {}

    def table(budget: int) -> np.ndarray:
        if budget not in tables:
            a = attack
            ordinary = damage_with_ki(a.dice, a.wall, budget, a.bonus, a.timing)
            crit = damage_with_ki(a.dice, a.wall, budget, a.bonus, a.timing, True, a.klotho)
            t = (a.p_hit - a.p_critical) * ordinary + a.p_critical * crit
            t[0, 0] += 1 - a.p_hit
            tables[budget] = t
        return tables[budget]

    dead0 = vital == "health" and start <= -maximum
    dist = {(start, defender_ki, 0 if unlimited else attacker_ki, dead0): 1.0}
    down, dead, a_spent, d_spent = [], [], [], []
    a_total = 0.0
    for _ in range(rounds):
        nxt: dict = {}
        for (t, g, a, is_dead), p in dist.items():
            if is_dead:
                nxt[(t, g, a, True)] = nxt.get((t, g, a, True), 0.0) + p
                continue
            tb = table(attack.boosts if unlimited else min(attack.boosts, a))
            for k, s in zip(*np.nonzero(tb), strict=True):
                q = tb[k, s]
                hit = take_attack(t, int(k), maximum, vital, g, policy, variant)
                if unlimited:
                    a_total += p * q * s
                key = (hit.current, g - hit.prevented, a if unlimited else a - s, hit.bottomed)
                nxt[key] = nxt.get(key, 0.0) + p * q
        dist = nxt
        down.append(sum(p for (t, _, _, d), p in dist.items() if d or t <= 0))
        dead.append(sum(p for (_, _, _, d), p in dist.items() if d))
        d_spent.append(sum(p * (defender_ki - g) for (_, g, _, _), p in dist.items()))
        a_spent.append(
            a_total if unlimited else sum(p * (attacker_ki - a) for (_, _, a, _), p in dist.items())
        )
    return np.array(down), np.array(dead), np.array(a_spent), np.array(d_spent)


def cases(n: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        p_hit = float(rng.choice([0.3, 0.64, 1.0]))
        vital = str(rng.choice(["health", "poise", "sanity"]))
        variant = bool(rng.integers(0, 2))
        maximum = int(rng.integers(1, 6))
        low, high = track_range(vital, maximum, variant)
        yield {
            "attack": AttackProfile(
                int(rng.integers(0, 6)),
                int(rng.integers(0, 11)),
                p_hit,
                float(min(p_hit, rng.choice([0.0, 0.01, 0.1]))),
                int(rng.integers(0, 3)),
                int(rng.integers(0, 11)),
                str(rng.choice(["after", "before"])),
                int(rng.integers(0, 11)),
            ),
            "maximum": maximum,
            "start": int(rng.integers(low, high + 1)) if rng.random() < 0.3 else None,
            "vital": vital,
            "attacker_ki": None if rng.random() < 0.3 else int(rng.integers(0, 6)),
            "defender_ki": int(rng.integers(0, 5)),
            "policy": str(rng.choice(["none", "all", "stay_up", "stay_alive"])),
            "variant": variant,
        }


@pytest.mark.parametrize("case", list(cases(150)))
def test_fight_odds_equals_the_plain_chain(case):
    rounds = 8
    fight = fight_odds(
        case["attack"],
        case["maximum"],
        rounds,
        start=case["start"],
        vital=case["vital"],
        attacker_ki=case["attacker_ki"],
        defender_ki=case["defender_ki"],
        ki_policy=case["policy"],
        variant_002=case["variant"],
    )
    down, dead, a_spent, d_spent = reference(
        case["attack"],
        case["maximum"],
        rounds,
        case["start"],
        case["vital"],
        case["attacker_ki"],
        case["defender_ki"],
        case["policy"],
        case["variant"],
    )
    np.testing.assert_allclose(fight.p_down_by, down, atol=1e-9)
    np.testing.assert_allclose(fight.p_dead_by, dead, atol=1e-9)
    np.testing.assert_allclose(fight.attacker_ki_spent, a_spent, atol=1e-9)
    np.testing.assert_allclose(fight.defender_ki_spent, d_spent, atol=1e-9)
