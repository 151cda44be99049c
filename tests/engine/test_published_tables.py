"""The numbers the rule texts publish, and the rules built on the Core Roll.

- rules/004 "What Your Target Is Worth": TN 5/8/11/14/17 -> 10/28/55/79/94%.
- rules/004 "One point of Difficulty is worth ~10 points of probability mid-curve, ~2 at the
  extremes"; RULES.md: TN 1 succeeds 1%, TN 20 succeeds 99%, a 20 fails even at TN 25.
- Gift Check (RULES.md; rules/000, 002), Resource Check (rules/002 worked example).
- Opposed rolls, group rolls and helping (RULES.md; rules/000), against brute force.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from tb_playground.engine import (
    check_odds,
    contest,
    difficulty_step,
    gift_check_odds,
    gift_check_target,
    group_odds,
    help_sources,
    one_more_point,
    opposed_odds,
    resource_check_odds,
    resource_check_target,
    roll_odds,
    success_curve,
    versus_static,
)

# ---------------------------------------------------------------------------------------------
# rules/004: What Your Target Is Worth
# ---------------------------------------------------------------------------------------------

PUBLISHED = {5: 10, 8: 28, 11: 55, 14: 79, 17: 94}


@pytest.mark.parametrize(("target", "percent"), PUBLISHED.items(), ids=lambda v: str(v))
def test_what_your_target_is_worth(target, percent):
    odds = roll_odds(target)
    assert odds.exact("success") == Fraction(percent, 100)
    assert odds.p_success == pytest.approx(percent / 100, abs=1e-12)


def p_plain(target: int) -> Fraction:
    return roll_odds(target).exact("success")


def test_difficulty_step_mid_curve_and_extremes():
    assert p_plain(11) - p_plain(10) == Fraction(10, 100)
    assert p_plain(3) - p_plain(2) == Fraction(2, 100)
    assert p_plain(19) - p_plain(18) == Fraction(2, 100)
    steps = {t: p_plain(t) - p_plain(t - 1) for t in range(3, 20)}
    assert max(steps.values()) == Fraction(10, 100)
    assert [t for t, s in steps.items() if s == max(steps.values())] == [11]
    # The step rises toward the middle and falls after it.
    assert all(steps[t] < steps[t + 1] for t in range(3, 11))
    assert all(steps[t] > steps[t + 1] for t in range(11, 19))
    # The engine's own difficulty_step agrees.
    np.testing.assert_allclose(
        difficulty_step(np.array([3, 11, 19])), [0.02, 0.10, 0.02], rtol=0, atol=1e-12
    )


def test_one_more_point_is_the_step_up_at_every_tn():
    """The step a player at TN t gains from one more point, against brute force over faces."""
    from itertools import product

    def plain(t: int) -> Fraction:
        # RULES.md, Core Roll: at or under the TN succeeds, a kept 2 whatever the TN, never 20.
        faces = product(range(1, 11), repeat=2)
        wins = sum(1 for a, b in faces if (a + b <= t or a + b == 2) and a + b != 20)
        return Fraction(wins, 100)

    targets = np.arange(-3, 26)
    got = one_more_point(targets)
    for t, step in zip(targets, got, strict=True):
        assert step == pytest.approx(float(plain(t + 1) - plain(t)), abs=1e-12), t
    np.testing.assert_allclose(got[:-1], difficulty_step(targets[1:]), rtol=0, atol=1e-12)


def test_extreme_targets():
    assert roll_odds(1).exact("success") == Fraction(1, 100)
    assert roll_odds(-1).exact("success") == Fraction(1, 100)
    assert roll_odds(20).exact("success") == Fraction(99, 100)
    assert roll_odds(25).exact("success") == Fraction(99, 100)
    assert roll_odds(25).exact("catastrophe") == Fraction(1, 100)
    np.testing.assert_allclose(success_curve(np.array([1, 20])), [0.01, 0.99], atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Gift Check
# ---------------------------------------------------------------------------------------------


def test_gift_check_twenty_always_fails():
    odds = gift_check_odds(25)
    assert odds.p_catastrophe == pytest.approx(0.01, abs=1e-12)
    assert odds.p_success == pytest.approx(0.99, abs=1e-12)
    assert odds.exact("catastrophe") == Fraction(1, 100)
    assert odds.exact("success") == Fraction(99, 100)


@pytest.mark.parametrize("ki", (0, 1, 8, 12, 18, 30))
def test_gift_check_is_a_plain_roll_against_ki(ki):
    odds = gift_check_odds(ki)
    assert odds.advantage == 0 and odds.crit_max == 2 and not odds.reroll_catastrophe
    assert odds.target == ki == gift_check_target(ki)
    assert odds.exact("success") == roll_odds(ki).exact("success")


def test_gift_check_ignores_advantage():
    with pytest.raises(TypeError):
        gift_check_odds(10, advantage=1)  # no way to ask for it
    # Stamina is irrelevant unless the variant is on.
    assert gift_check_odds(10, stamina=7).target == 10


@pytest.mark.parametrize(("ki", "stamina"), [(10, 0), (10, 3), (8, 10), (15, 7)])
def test_gift_check_variant_ki_plus_stamina(ki, stamina):
    odds = gift_check_odds(ki, stamina, ki_plus_stamina=True)
    assert odds.target == ki + stamina == gift_check_target(ki, stamina, True)
    assert odds.exact("success") == roll_odds(ki + stamina).exact("success")


def test_gift_check_rejects_bad_input():
    with pytest.raises(ValueError, match="ki"):
        gift_check_odds(-1)
    with pytest.raises(ValueError, match="stamina"):
        gift_check_odds(10, 11, True)


# ---------------------------------------------------------------------------------------------
# Resource Check (rules/002 "How Do I Use My Resources?")
# ---------------------------------------------------------------------------------------------


def test_resource_worked_example_wealth3_index3():
    assert resource_check_target(3, 3) == 10
    r = resource_check_odds(3, 3)
    assert r.target == 10 and not r.reaching
    # 10 or under: nothing else happens; over 10: drops one Level.
    assert r.p_no_cost == pytest.approx(0.45, abs=1e-12)
    assert r.p_drop_one == pytest.approx(0.55, abs=1e-12)
    assert r.p_drop_to_zero == 0


@pytest.mark.parametrize("index", (4, 5))
def test_resource_reaching_drops_to_zero_unless_critical(index):
    r = resource_check_odds(3, index)
    assert r.target == 3 + 10 - index
    assert r.reaching
    assert r.p_no_cost == pytest.approx(0.01, abs=1e-12)
    assert r.p_drop_one == 0
    assert r.p_drop_to_zero == pytest.approx(0.99, abs=1e-12)


@pytest.mark.parametrize("level", (4, 6, 10))
def test_resource_index_six_always_drops_to_zero(level):
    r = resource_check_odds(level, 6)
    assert r.reaching
    assert (r.p_no_cost, r.p_drop_one, r.p_drop_to_zero) == (0, 0, 1)


@pytest.mark.parametrize("level", range(0, 11))
def test_resource_costs_sum_to_one(level):
    for index in range(1, min(6, level + 2) + 1):
        r = resource_check_odds(level, index)
        assert r.p_no_cost + r.p_drop_one + r.p_drop_to_zero == pytest.approx(1, abs=1e-12)
        assert r.target == level + 10 - index


@pytest.mark.parametrize(("level", "index"), [(3, 6), (0, 3), (2, 5), (3, 0), (3, 7)])
def test_resource_index_out_of_reach_raises(level, index):
    with pytest.raises(ValueError, match="index"):
        resource_check_odds(level, index)


# ---------------------------------------------------------------------------------------------
# Opposed rolls against brute force
# ---------------------------------------------------------------------------------------------


def kept(faces: tuple[int, ...], advantage: int) -> int:
    ordered = sorted(faces)
    if advantage < 0:
        return ordered[-1] + ordered[-2]
    return ordered[0] + ordered[1]


@cache
def kept_counts(advantage: int) -> tuple[Counter, int]:
    n = 2 if advantage == 0 else 3
    counts = Counter(kept(f, advantage) for f in itertools.product(range(1, 11), repeat=n))
    return counts, 10**n


def side(total: int, target: int, crit_max: int) -> tuple[str, int]:
    """(outcome, margin) of one side's roll."""
    if total <= crit_max:
        return "critical", target - total
    if total == 20:
        return "catastrophe", 0
    if total <= target:
        return "success", target - total
    return "failure", 0


def actor_wins(actor: tuple[str, int], resister: tuple[str, int], outrank: bool = False) -> bool:
    """rules/000 "Opposed Rolls", literally: a critical's margin is TN - kept total like any
    success (RULES.md, Core Roll: "a critical at TN 8 with a kept 2 is 6 under"). ``outrank``
    is the ``criticals_outrank`` switch: a critical beats any ordinary success."""
    rank = {"critical": 2 if outrank else 1, "success": 1, "failure": 0, "catastrophe": 0}
    a_rank, r_rank = rank[actor[0]], rank[resister[0]]
    if a_rank == 0:
        return False  # actor fails: the resister wins (both fail -> resister too)
    if r_rank == 0:
        return True  # only the actor succeeds
    if a_rank != r_rank:
        return a_rank > r_rank  # switch on: a critical outranks an ordinary success
    return actor[1] > resister[1]  # further under the TN wins; a tie goes to the resister


def oracle_opposed(a_tn, r_tn, a_adv=0, r_adv=0, a_crit=2, r_crit=2, outrank=False) -> Fraction:
    a_counts, a_n = kept_counts((a_adv > 0) - (a_adv < 0))
    r_counts, r_n = kept_counts((r_adv > 0) - (r_adv < 0))
    wins = 0
    for ta, wa in a_counts.items():
        for tr, wr in r_counts.items():
            if actor_wins(side(ta, a_tn, a_crit), side(tr, r_tn, r_crit), outrank):
                wins += wa * wr
    return Fraction(wins, a_n * r_n)


def literal_opposed(a_tn, r_tn, a_adv, r_adv) -> Fraction:
    """Enumerate every face of both sides' dice (no grouping by total)."""
    a_dice = 2 if a_adv == 0 else 3
    r_dice = 2 if r_adv == 0 else 3
    a_faces = list(itertools.product(range(1, 11), repeat=a_dice))
    r_faces = list(itertools.product(range(1, 11), repeat=r_dice))
    a_sides = [side(kept(f, a_adv), a_tn, 2) for f in a_faces]
    r_sides = [side(kept(f, r_adv), r_tn, 2) for f in r_faces]
    wins = sum(actor_wins(a, r) for a in a_sides for r in r_sides)
    return Fraction(wins, len(a_faces) * len(r_faces))


OPPOSED_CASES = [
    (10, 10, 0, 0, 2, 2),
    (12, 8, 0, 0, 2, 2),
    (8, 12, 0, 0, 2, 2),
    (1, 1, 0, 0, 2, 2),
    (-1, 2, 0, 0, 2, 2),
    (2, -1, 1, -1, 2, 2),
    (25, 25, 0, 0, 2, 2),
    (20, 5, -1, 1, 2, 2),
    (11, 11, 1, 0, 2, 2),
    (11, 11, 0, 1, 2, 2),
    (14, 9, -2, 3, 2, 2),
    (7, 13, 1, -1, 3, 2),
    (2, 2, 0, 0, 3, 3),
    (3, 3, 1, 1, 3, 2),
    (15, 15, 1, 1, 3, 3),
]


@pytest.mark.parametrize(
    ("a_tn", "r_tn", "a_adv", "r_adv", "a_crit", "r_crit"),
    OPPOSED_CASES,
    ids=[f"A{c[0]}{c[2]:+d}c{c[4]}-vs-R{c[1]}{c[3]:+d}c{c[5]}" for c in OPPOSED_CASES],
)
@pytest.mark.parametrize("outrank", [False, True], ids=["margin", "crit-outranks"])
def test_opposed_odds_against_bruteforce(a_tn, r_tn, a_adv, r_adv, a_crit, r_crit, outrank):
    want = oracle_opposed(a_tn, r_tn, a_adv, r_adv, a_crit, r_crit, outrank)
    got = opposed_odds(
        a_tn,
        r_tn,
        a_adv,
        r_adv,
        actor_crit_max=a_crit,
        resist_crit_max=r_crit,
        criticals_outrank=outrank,
    )
    assert got == pytest.approx(float(want), abs=1e-12)
    # contest() on the same Odds is the same thing.
    a = roll_odds(a_tn, a_adv, a_crit)
    r = roll_odds(r_tn, r_adv, r_crit)
    assert contest(a, r, criticals_outrank=outrank) == pytest.approx(float(want), abs=1e-12)


@pytest.mark.parametrize(
    ("a_tn", "r_tn", "a_adv", "r_adv"),
    [(10, 10, 0, 0), (13, 7, 0, 0), (9, 12, 1, 0), (12, 9, 0, -1)],
)
def test_opposed_odds_literal_enumeration(a_tn, r_tn, a_adv, r_adv):
    want = literal_opposed(a_tn, r_tn, a_adv, r_adv)
    assert want == oracle_opposed(a_tn, r_tn, a_adv, r_adv)
    assert opposed_odds(a_tn, r_tn, a_adv, r_adv) == pytest.approx(float(want), abs=1e-12)


def test_opposed_symmetric_ties_go_to_resister():
    # Same TN, same roll: P(actor wins) < 1/2 because ties and double failures go to the resister.
    for tn in (2, 8, 11, 17, 25):
        assert opposed_odds(tn, tn) < 0.5
    # Swapping the roles: the two win chances plus ties and double failures make 1.
    for a_tn, r_tn in [(8, 12), (11, 11), (3, 19)]:
        assert opposed_odds(a_tn, r_tn) + opposed_odds(r_tn, a_tn) < 1
    # Nobody can succeed except on a critical: TN -1 vs TN -1, actor wins only by a critical
    # against a non-critical resister (two criticals tie on margin -> resister).
    assert opposed_odds(-1, -1) == pytest.approx(0.01 * 0.99, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# versus_static
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tier", range(5))
def test_versus_static_is_a_check_at_that_difficulty(tier):
    for element in range(0, 11, 2):
        for static in range(11):
            for advantage in (-1, 0, 1):
                got = versus_static(element, static, tier, advantage)
                want = check_odds(element, static, tier, advantage)
                assert got.target == want.target
                assert got.denominator == want.denominator
                np.testing.assert_array_equal(got.numerators, want.numerators)
    assert versus_static(6, 4).exact("success") == check_odds(6, 4).exact("success")


def test_versus_static_rejects_bad_static():
    with pytest.raises(ValueError, match="static"):
        versus_static(5, 11)


# ---------------------------------------------------------------------------------------------
# Group rolls and helping
# ---------------------------------------------------------------------------------------------

GROUP_MEMBERS = [
    roll_odds(11),
    roll_odds(5, -1),
    roll_odds(15, 1, 3, True),
    roll_odds(25),
    roll_odds(1, 0, 3),
    roll_odds(8, -1, 2, True),
]


def oracle_group(members) -> Fraction:
    """Enumerate every combination of the members' outcomes."""
    names = ("critical", "success", "failure", "catastrophe")
    per_member = []
    for odds in members:
        exact = {name: odds.exact(name) for name in names}
        exact["success"] -= exact["critical"]  # exact("success") includes criticals
        per_member.append(exact)
    n = len(members)
    total = Fraction(0)
    for combo in itertools.product(names, repeat=n):
        p = Fraction(1)
        for exact, name in zip(per_member, combo, strict=True):
            p *= exact[name]
        successes = sum(name in ("critical", "success") for name in combo)
        if 2 * successes >= n and "catastrophe" not in combo:
            total += p
    return total


@pytest.mark.parametrize("size", (1, 2, 3, 4))
def test_group_odds_against_bruteforce(size):
    for members in itertools.combinations_with_replacement(GROUP_MEMBERS, size):
        want = oracle_group(members)
        assert group_odds(list(members)) == pytest.approx(float(want), abs=1e-12), members


def test_group_odds_simple_values():
    # One member: the group succeeds exactly when they do.
    assert group_odds([roll_odds(11)]) == pytest.approx(0.55, abs=1e-12)
    # Two members at TN 25: half must succeed and nobody may roll a 20.
    assert group_odds([roll_odds(25)] * 2) == pytest.approx(0.99**2, abs=1e-12)
    with pytest.raises(ValueError, match="members"):
        group_odds([])


def test_help_sources():
    assert help_sources([]) == 0
    assert help_sources([0]) == 0
    assert help_sources([1]) == 1
    assert help_sources([0, 0, 4]) == 1
    assert help_sources([1, 2, 3, 4]) == 4
    with pytest.raises(ValueError, match="helper_tiers"):
        help_sources([1, 5])


def test_help_does_not_stack_but_cancels():
    # A Trained roller with one helper rolls at Advantage; a second helper adds nothing.
    one = check_odds(5, 5, 1, help_sources([1]))
    two = check_odds(5, 5, 1, help_sources([1, 2]))
    np.testing.assert_array_equal(one.numerators, two.numerators)
    assert one.advantage == 1
    # Adept or better already rolls at Advantage: help only matters against Disadvantage.
    np.testing.assert_array_equal(
        check_odds(5, 5, 2, help_sources([1])).numerators, check_odds(5, 5, 2).numerators
    )
    # Two Disadvantage sources, two helpers: back to a plain roll.
    assert check_odds(5, 5, 1, -2 + help_sources([1, 1])).advantage == 0
    # An Untrained helper gives nothing.
    assert check_odds(5, 5, 1, help_sources([0])).advantage == 0
