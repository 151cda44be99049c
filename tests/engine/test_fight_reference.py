"""fight_odds against a plain state-by-state Markov chain over every Ki policy and track.

The reference walks a dict of (track, defender Ki, attacker Ki, dead) states round by round,
applying one attack with the scalar ``take_attack`` (itself checked against the texts in
test_vitals.py) and the attack's per-round (levels, Ki spent) table from ``damage_with_ki``
(checked against brute force in test_damage_bruteforce.py). It shares no code with
``fight_odds``' vectorized chain. An independent review ran 400 such cases; 150 stay here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tb_playground.engine import (
    AttackProfile,
    damage_with_ki,
    fight_odds,
    take_attack,
    track_range,
)


def reference(
    attack,
    maximum,
    rounds,
    start,
    vital,
    attacker_ki,
    defender_ki,
    policy,
    variant,
    bracket="fast",
    bumps=0,
    sanity_max=None,
    means=False,
):
    """Round by round over a dict of (track, Sanity, defender Ki, attacker Ki, Off Balance, dead).

    - bracket: "normal" makes two attacks a round, "fast" and "slow" one (RULES.md, Combat
      round); ``bumps`` Ki are paid at the start of each round, as far as the Ki goes.
    - Off Balance (rules/000): with ``attack.off_balance``, a catastrophe (``p_catastrophe``)
      puts the rest of this round and all of the next on the Off Balance profile.
    - Poise at the bottom costs a Sanity level (``take_attack`` on the Sanity track, the same
      Ki and policy); dead is Sanity's bottom.
    - Boosts after the roll are spent only on levels the track still loses (the most one
      hit takes: ``take_attack`` of 1000 levels); the rest of the Ki stays.
    """
    low, high = track_range(vital, maximum, variant)
    start = high if start is None else start
    unlimited = attacker_ki is None
    poise_sanity = vital == "poise" and not variant
    sanity_max = maximum if sanity_max is None else sanity_max
    attacks = 2 if bracket == "normal" else 1
    tables: dict = {}

    def table(budget: int, off: bool):
        if (budget, off) not in tables:
            a = attack.off_balance if off else attack
            ordinary = damage_with_ki(a.dice, a.wall, budget, a.bonus, a.timing)
            crit = damage_with_ki(a.dice, a.wall, budget, a.bonus, a.timing, True, a.klotho)
            t = (a.p_hit - a.p_critical) * ordinary + a.p_critical * crit
            cat = a.p_catastrophe if attack.off_balance is not None else 0.0
            t[0, 0] += 1 - a.p_hit - cat
            tables[budget, off] = (t, cat)
        return tables[budget, off]

    def one_attack(key, p, out, spent):
        t, sn, g, a, ob, _ = key
        tb, cat = table(attack.boosts if unlimited else min(attack.boosts, a), ob > 0)
        # The most one hit takes from the track: boosts after the roll past it are not spent
        # (the table offers none: table/boost_offer.py).
        room = take_attack(t, 1000, maximum, vital, 0, "none", variant).taken
        for k, s in zip(*np.nonzero(tb), strict=True):
            q = tb[k, s]
            if attack.timing == "after":
                s = s - min(s, max(int(k) - room, 0))
            hit = take_attack(t, int(k), maximum, vital, g, policy, variant)
            g2, sn2, dead = g - hit.prevented, sn, hit.bottomed
            if poise_sanity:
                dead = False
                if hit.sanity_loss:
                    lost = take_attack(sn, 1, sanity_max, "sanity", g2, policy)
                    g2, sn2, dead = g2 - lost.prevented, lost.current, lost.bottomed
            spent[0] += p * q * s
            nk = (hit.current, sn2, g2, a if unlimited else a - s, ob, dead)
            out[nk] = out.get(nk, 0.0) + p * q
        if cat > 0:
            nk = (t, sn, g, a, 2, False)
            out[nk] = out.get(nk, 0.0) + p * cat

    def play_round(dist, spent):
        for phase in range(attacks):
            nxt: dict = {}
            for key, p in dist.items():
                if key[5]:
                    nxt[key] = nxt.get(key, 0.0) + p  # nobody attacks the dead
                    continue
                if phase == 0 and bumps:
                    t, sn, g, a, ob, d = key
                    pay = bumps if unlimited else min(bumps, a)
                    spent[0] += p * pay
                    key = (t, sn, g, a if unlimited else a - pay, ob, d)
                one_attack(key, p, nxt, spent)
            dist = nxt
        out: dict = {}
        for (t, sn, g, a, ob, d), p in dist.items():
            k = (t, sn, g, a, max(ob - 1, 0) if not d else ob, d)
            out[k] = out.get(k, 0.0) + p
        return out

    dead0 = vital == "health" and start <= -maximum
    first = (start, sanity_max, defender_ki, 0 if unlimited else attacker_ki, 0, dead0)
    dist = {first: 1.0}
    down, dead, a_spent, d_spent, s_lost = [], [], [], [], []
    spent = [0.0]
    for _ in range(rounds):
        dist = play_round(dist, spent)
        down.append(sum(p for (t, _, _, _, _, d), p in dist.items() if d or t <= 0))
        dead.append(sum(p for k, p in dist.items() if k[5]))
        d_spent.append(sum(p * (defender_ki - k[2]) for k, p in dist.items()))
        s_lost.append(
            sum(p * (sanity_max - (k[1] if not k[5] else -sanity_max)) for k, p in dist.items())
            if poise_sanity
            else 0.0
        )
        a_spent.append(
            spent[0] if unlimited else sum(p * (attacker_ki - k[3]) for k, p in dist.items())
        )
    result = [np.array(x) for x in (down, dead, a_spent, d_spent, s_lost)]
    if means:
        result.append(reference_means(first, play_round))
    return result


def reference_means(first, play_round):
    """Mean rounds to down and to dead from the fundamental matrix N = (I - Q)^-1 of the
    round-by-round chain, states found by breadth-first search; inf when some fights never
    get there."""
    succ: dict = {}
    frontier = [first]
    while frontier:
        key = frontier.pop()
        if key in succ:
            continue
        succ[key] = play_round({key: 1.0}, [0.0])
        frontier.extend(k for k in succ[key] if k not in succ)
    states = list(succ)
    out = []
    for absorbed in (lambda k: k[5] or k[0] <= 0, lambda k: k[5]):
        if absorbed(first):
            out.append(0.0)
            continue
        transient = [k for k in states if not absorbed(k)]
        pos = {k: i for i, k in enumerate(transient)}
        q = np.zeros((len(transient), len(transient)))
        for k in transient:
            for k2, p in succ[k].items():
                if k2 in pos and p > 0:
                    q[pos[k], pos[k2]] += p
        # every transient state must reach the absorbing set, or the mean is infinite
        can = np.array(
            [any(p > 0 and absorbed(k2) for k2, p in succ[k].items()) for k in transient]
        )
        for _ in range(len(transient)):
            can = can | ((q > 0) @ can)
        if not can.all():
            out.append(float("inf"))
            continue
        n_matrix = np.linalg.inv(np.eye(len(transient)) - q)
        out.append(float(n_matrix[pos[first]].sum()))
    return tuple(out)


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


def run(case, rounds, means=False):
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
        **{k: case[k] for k in ("bracket", "bumps", "sanity_max") if k in case},
    )
    want = reference(
        case["attack"],
        case["maximum"],
        rounds,
        case["start"],
        case["vital"],
        case["attacker_ki"],
        case["defender_ki"],
        case["policy"],
        case["variant"],
        case.get("bracket", "fast"),
        case.get("bumps", 0),
        case.get("sanity_max"),
        means,
    )
    return fight, want


def compare(fight, want):
    down, dead, a_spent, d_spent, s_lost = want[:5]
    np.testing.assert_allclose(fight.p_down_by, down, atol=1e-9)
    np.testing.assert_allclose(fight.p_dead_by, dead, atol=1e-9)
    np.testing.assert_allclose(fight.attacker_ki_spent, a_spent, atol=1e-9)
    np.testing.assert_allclose(fight.defender_ki_spent, d_spent, atol=1e-9)
    np.testing.assert_allclose(fight.sanity_lost, s_lost, atol=1e-9)
    if len(want) > 5:
        for got, expected in zip(
            (fight.mean_rounds_to_down, fight.mean_rounds_to_dead), want[5], strict=True
        ):
            if np.isinf(expected):
                assert np.isinf(got)
            else:
                assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("case", list(cases(150)))
def test_fight_odds_equals_the_plain_chain(case):
    compare(*run(case, 8))


def bracket_cases(n: int, seed: int = 7):
    """The same draws, plus a bracket, Bracket bumps, Off Balance and a Sanity track."""
    rng = np.random.default_rng(seed)
    for case in cases(n, seed):
        bracket = str(rng.choice(["fast", "normal", "slow"]))
        a = case["attack"]
        if rng.random() < 0.6:
            worse = float(rng.choice([0.5, 0.8])) * a.p_hit
            off = AttackProfile(
                a.dice, a.wall, worse, min(a.p_critical, worse) / 2, a.boosts, a.bonus,
                a.timing, a.klotho, float(rng.choice([0.0975, 0.2])),
            )  # fmt: skip
            cat = float(min(rng.choice([0.01, 0.05, 0.3]), 1 - a.p_hit))
            case["attack"] = replace(a, p_catastrophe=cat, off_balance=off)
        case["bracket"] = bracket
        case["bumps"] = int(rng.integers(0, {"fast": 0, "normal": 1, "slow": 2}[bracket] + 1))
        case["sanity_max"] = int(rng.integers(1, 4))
        yield case


@pytest.mark.parametrize("case", list(bracket_cases(120)))
def test_brackets_off_balance_and_poise_to_sanity_equal_the_plain_chain(case):
    compare(*run(case, 6))


@pytest.mark.parametrize("case", list(bracket_cases(40, seed=11)))
def test_means_equal_the_fundamental_matrix(case):
    """Mean rounds to down and dead against N = (I - Q)^-1 of the plain chain, to 1e-9."""
    compare(*run(case, 3, means=True))
