"""The odds as the dice land (issue 23, item 5): the engine's conditional odds equal brute
force over the faces still to come (itertools over d10 faces), to 1e-12; the table's pending
step shows them to whom it shows the odds.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.engine import damage_distribution, roll_odds
from tb_playground.engine.damage import roll_levels
from tb_playground.engine.dice_landing import core_roll_given, damage_given
from tb_playground.engine.roll_reading import dice_needed, read_core_roll

OUTCOMES = ("critical", "success", "failure", "catastrophe")


def _brute_core(typed, target, advantage, crit_max):
    count = dice_needed(advantage)
    seen = Counter()
    for rest in itertools.product(range(1, 11), repeat=count - len(typed)):
        reading = read_core_roll([*typed, *rest], target, advantage, crit_max)
        seen[reading.outcome] += 1
    total = sum(seen.values())
    return [seen[o] / total for o in OUTCOMES]


@pytest.mark.parametrize("advantage", [-1, 0, 1])
@pytest.mark.parametrize("target", [-3, 1, 6, 9, 14, 20, 31])
def test_core_roll_given_equals_brute_force(advantage, target):
    rng = random.Random(target * 3 + advantage)
    count = dice_needed(advantage)
    typed_sets = [()] + [(f,) for f in range(1, 11)]
    typed_sets += [tuple(rng.randint(1, 10) for _ in range(k)) for k in (2, 2, 2, count)]
    for crit_max in (2, 3):
        for typed in typed_sets:
            odds = core_roll_given(list(typed), target, advantage, crit_max)
            got = [
                odds.p_critical,
                odds.p_ordinary,
                odds.p_miss - odds.p_catastrophe,
                odds.p_catastrophe,
            ]
            assert np.allclose(got, _brute_core(typed, target, advantage, crit_max), atol=1e-12)
            assert odds.to_come == count - len(typed)
        whole = core_roll_given([], target, advantage, crit_max)
        engine = roll_odds(target, advantage, crit_max)
        assert abs(whole.p_hit - engine.p_success) < 1e-12
        assert abs(whole.p_catastrophe - engine.p_catastrophe) < 1e-12


def test_a_masters_reroll_given_the_first_die():
    for typed in ([], [10], [3]):
        seen = Counter()
        for rest in itertools.product(range(1, 11), repeat=2 - len(typed)):
            faces = [*typed, *rest]
            if sum(faces) != 20:
                seen[read_core_roll(faces, 9).outcome] += 100
                continue
            for again in itertools.product(range(1, 11), repeat=2):
                seen[read_core_roll(faces, 9, 0, 2, True, list(again)).outcome] += 1
        total = sum(seen.values())
        odds = core_roll_given(typed, 9, reroll_catastrophe=True)
        assert abs(odds.p_catastrophe - seen["catastrophe"] / total) < 1e-12
        assert abs(odds.p_hit - (seen["critical"] + seen["success"]) / total) < 1e-12
    assert core_roll_given([], 9, reroll_catastrophe=True).p_catastrophe == pytest.approx(1e-4)


def _brute_damage(typed, dice, wall, boosts, bonus, timing, critical, klotho):
    automatic, rolled = ((dice + 1) // 2, dice - (dice + 1) // 2) if critical else (0, dice)
    plus = klotho if critical else 0
    out = np.zeros(dice + 1)
    rests = list(itertools.product(range(1, 11), repeat=rolled - len(typed)))
    for rest in rests:
        levels, _ = roll_levels([*typed, *rest], wall, boosts, bonus, timing, plus, automatic)
        out[levels] += 1
    return out / len(rests)


def test_damage_given_equals_brute_force():
    rng = random.Random(23)
    for _ in range(400):
        dice = rng.randint(0, 6)
        critical = rng.random() < 0.3
        rolled = dice - ((dice + 1) // 2 if critical else 0)
        typed = [rng.randint(1, 10) for _ in range(rng.randint(max(rolled - 3, 0), rolled))]
        args = (
            dice,
            rng.randint(0, 10),
            rng.randint(0, 4),
            rng.randint(0, 5),
            rng.choice(["after", "before"]),
            critical,
            rng.randint(0, 4),
        )
        got = damage_given(typed, *args)
        assert np.allclose(got, _brute_damage(typed, *args), atol=1e-12), (typed, args)
        assert abs(got.sum() - 1) < 1e-12
        none = damage_given([], *args)
        assert np.allclose(none, damage_distribution(*args), atol=1e-12), args


def test_the_texts_example_die_by_die():
    """rules/002: Soak 6, dice 3, 6, 9, 10 make two levels: the odds close in on it."""
    faces = [3, 6, 9, 10]
    for k in range(5):
        levels = damage_given(faces[:k], 4, 6)
        assert levels[2] > 0
    assert damage_given(faces, 4, 6).tolist() == [0, 0, 1, 0, 0]


def test_bad_typed_dice_are_refused():
    with pytest.raises(ValueError, match="at most 2"):
        core_roll_given([1, 2, 3], 9)
    with pytest.raises(ValueError, match=r"typed\[0\]"):
        core_roll_given([11], 9)
    with pytest.raises(ValueError, match="at most 1"):
        damage_given([1, 2], 2, 5, critical=True)


# -- the table ---------------------------------------------------------------------------------


def _fight(tmp_path):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7(health=30)])
    store, t = new_table(tmp_path, enc)
    start_and_declare(t, {})
    while t.state["up"] != "ronan":
        t.apply({"type": "end_turn"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})
    return t


def test_the_to_hit_step_die_by_die(tmp_path):
    t = _fight(tmp_path)
    p = t.state["pending"]
    assert p["step"] == "to_hit"
    whole = t.pending_odds("gm")
    assert whole["typed"] == []
    assert whole["p_hit"] == pytest.approx(t.view_for("gm")["pending"]["odds"]["p_hit"], abs=1e-12)
    assert np.allclose(whole["levels"], t.view_for("gm")["pending"]["odds"]["levels"], atol=1e-12)
    count = dice_needed(p["advantage"])
    for first in range(1, 11):
        odds = t.pending_odds("player", "ronan", [first])
        brute = _brute_core([first], p["tn"], p["advantage"], 2)
        assert odds["p_hit"] == pytest.approx(brute[0] + brute[1], abs=1e-12)
        assert odds["p_critical"] == pytest.approx(brute[0], abs=1e-12)
        assert odds["p_catastrophe"] == pytest.approx(brute[3], abs=1e-12)
        assert "wall" not in odds  # the foe's numbers stay the GM's
    assert t.pending_odds("spectator") is None  # not the attacker, the target a foe
    faces = [4] * count
    full = t.pending_odds("gm", typed=faces)
    t.apply({"type": "roll", "faces": faces})
    rolled = next(e for e in reversed(t.events) if e["type"] == "to_hit_rolled")
    assert full["p_hit"] == (rolled["data"]["outcome"] in ("critical", "success"))


def test_the_damage_step_die_by_die(tmp_path):
    t = _fight(tmp_path)
    p = t.state["pending"]
    t.apply({"type": "roll", "faces": [2] * dice_needed(p["advantage"])})  # a hit
    p = t.state["pending"]
    assert p["step"] == "damage" and not p["critical"]
    ronan = t.state["combatants"]["ronan"]
    boosts = min(ronan["ki"], p["dice"])
    for k in range(p["dice"] + 1):
        typed = [7] * k
        odds = t.pending_odds("gm", typed=typed)
        assert odds["typed"] == typed
        brute = _brute_damage(typed, p["dice"], p["wall"], boosts, p["bonus"], "after", False, 0)
        assert np.allclose(odds["levels"], brute, atol=1e-12)
    with pytest.raises(ValueError, match="typed"):
        t.pending_odds("gm", typed=[7] * (p["dice"] + 1))
    with pytest.raises(ValueError, match=r"typed\[0\]"):
        t.pending_odds("gm", typed=[0])


def test_the_odds_now_are_the_average_of_the_odds_after_the_next_die():
    """Each die's ten faces are equally likely: today's odds average tomorrow's (exactly)."""
    rng = random.Random(5)
    for _ in range(60):
        advantage, target = rng.choice([-1, 0, 1]), rng.randint(-2, 22)
        count = dice_needed(advantage)
        typed = [rng.randint(1, 10) for _ in range(rng.randint(0, count - 1))]
        now = core_roll_given(typed, target, advantage)
        after = [core_roll_given([*typed, f], target, advantage) for f in range(1, 11)]
        for name in ("p_hit", "p_critical", "p_catastrophe"):
            mean = sum(getattr(a, name) for a in after) / 10
            assert abs(getattr(now, name) - mean) < 1e-12
        dice = rng.randint(1, 8)
        args = (dice, rng.randint(0, 10), rng.randint(0, 3), rng.randint(0, 4))
        timing, critical = rng.choice(["after", "before"]), rng.random() < 0.3
        rolled = dice - ((dice + 1) // 2 if critical else 0)
        if rolled == 0:
            continue
        typed = [rng.randint(1, 10) for _ in range(rng.randint(0, rolled - 1))]
        now = damage_given(typed, *args, timing, critical, 2)
        after = [damage_given([*typed, f], *args, timing, critical, 2) for f in range(1, 11)]
        assert np.allclose(now, sum(after) / 10, atol=1e-12)
