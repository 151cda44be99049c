"""Issue 32, items 12-15: conditions the simulator played otherwise than the table.

- 12: a side whose only fighter is Exhausted 5 has no one able to act: the table ends the fight
  at its start (``fight_end.able``), so the simulator must too (it drew every fight).
- 13: at Exhausted 4 every Ki spend costs one more (rules/004 "Conditions", 004:127): a boost,
  a prevention, a bump (the table's ``fight_rules.ki_cost``).
- 14: Surprised lasts the first round only ("Everything at Disadvantage for the round").
- 15: a Shattered character acts when an ally leads it (the table's ``lead``).
"""

from __future__ import annotations

import numpy as np
import pytest
from table_helpers import roster

from tb_playground.engine import damage_distribution, to_hit_odds
from tb_playground.lab import simulate
from tb_playground.models import Creature, Encounter
from tb_playground.models.combatants import encounter_records

#: z of a check made once: it fails by chance about once in 100,000.
Z = 4.4


def _records(*pairs) -> list[dict]:
    enc = Encounter()
    for who, side in pairs:
        enc.add(roster(who) if isinstance(who, str) else who, side)
    return encounter_records(enc)


def _dummy(health: int = 10, soak: int = 6, ki: int = 0) -> Creature:
    return Creature(
        name="Dummy", named=True, soak=soak, health=health, defense_physical=4, ki=ki, attacks=[]
    )


# -- 12: Exhausted 5 -------------------------------------------------------------------------


def test_a_side_whose_only_fighter_is_exhausted_5_loses_at_the_start():
    """Issue 32 item 12: out cold (rules/004), so the fight is over before round 1."""
    records = _records(("ronan.json", "Party"), ("guard_dog.yaml", "Foes"))
    records[0]["exhausted"] = 5
    result = simulate(records, fights=500, seed=1)
    assert result.p_win == {"Party": 0.0, "Foes": 1.0}
    assert np.all(result.rounds_taken == 0)
    assert result.attacks == 0


# -- 13: Exhausted 4 -------------------------------------------------------------------------


def _same(a, b) -> bool:
    return all(
        np.array_equal(getattr(a, k), getattr(b, k))
        for k in ("winner", "rounds_taken", "final", "damage")
    )


@pytest.mark.parametrize("spend", ["boost", "bump", "prevent"])
def test_at_exhausted_4_one_ki_buys_nothing(spend):
    """Issue 32 item 13: every spend costs 1 Ki more (004:127), so 1 Ki is as good as none.

    The same seed with Ki 1 and with Ki 0 plays the very same fights (no draw hangs on Ki);
    before the fix 1 Ki bought a boost, a bump or a prevented level.
    """
    records = _records(("ronan.json", "Party"), (_dummy(health=4, soak=6, ki=0), "Foes"))
    records[0]["gifts"] = []  # Onslaught as a plain attack: no Ki for the Gift
    who = 1 if spend == "prevent" else 0
    records[who]["exhausted"] = 4
    if spend == "prevent":  # the dummy hits back so that prevention matters both ways
        records[1]["attacks"] = [dict(records[0]["attacks"][0], dice=3, score=8)]
        records[0]["ki"] = 0
    kw = dict(
        fights=3000, seed=7, max_rounds=20,
        bracket_policy="bump" if spend == "bump" else "normal",
        ki_policy="all", boost_policy="lift" if spend == "boost" else "none",
    )  # fmt: skip
    with_one, with_none = [], []
    for ki, out in ((1, with_one), (0, with_none)):
        records[who]["ki"] = ki
        out.append(simulate(records, **kw))
    assert _same(with_one[0], with_none[0])
    # and 2 Ki buy one spend of one (so the records above do reach the rule)
    records[who]["ki"] = 2
    assert not _same(simulate(records, **kw), with_none[0])


# -- 14: Surprised ---------------------------------------------------------------------------


def _expected_levels(score: int, defense: int, dice: int, wall: int, klotho: int, sign: int):
    hit = to_hit_odds(score, defense, sign)
    levels = np.arange(dice + 1)
    plain = damage_distribution(dice, wall) @ levels
    crit = damage_distribution(dice, wall, critical=True, klotho=klotho) @ levels
    return (hit.p_hit - hit.p_critical) * plain + hit.p_critical * crit


def test_surprised_lowers_the_first_round_only():
    """Issue 32 item 14: Disadvantage in round 1 (rules/004), plain rolls in rounds 2 and 3.

    Ronan (no Ki, so no boosts; Off Balance off) makes two Onslaughts (7 dice) a round at a
    Dummy of Soak 9 whose 30 Health no three rounds can reach: the mean damage over three
    rounds is exactly 2 x E(Disadvantage) + 4 x E(plain). Before the fix: 6 x E(Disadvantage).
    """
    records = _records(("ronan.json", "Party"), (_dummy(health=30, soak=9), "Foes"))
    records[0]["gifts"] = []
    records[0]["ki"] = 0
    records[0]["conditions"] = ["Surprised"]
    fights = 20_000
    result = simulate(
        records, fights=fights, seed=3, max_rounds=3, off_balance=False, attack_policy=1
    )
    assert np.all(result.timed_out)
    a = records[0]
    score = max(a["elements"][e] for e in ("Earth", "Air", "Fire", "Water"))
    args = (score, records[1]["defense"]["physical"], 7, 9, a["klotho"])
    exact = 2 * _expected_levels(*args, -1) + 4 * _expected_levels(*args, 0)
    dealt = result.damage[:, 0].astype(float)
    se = dealt.std() / np.sqrt(fights)
    assert abs(dealt.mean() - exact) <= Z * se, (dealt.mean(), exact)


# -- 15: Shattered and led -------------------------------------------------------------------


def test_a_shattered_character_acts_when_an_ally_leads_it():
    """Issue 32 item 15: rules/000 "Sanity": someone has to lead you; then you act."""
    records = _records(
        ("ronan.json", "Party"), ("the_brick.json", "Party"), ("guard_dog.yaml", "Foes")
    )
    records[0]["now"]["sanity"] = -1
    result = simulate(records, fights=2000, seed=4)
    assert result.damage_share["ronan"] > 0.2  # he punches too (0 before the fix)


def test_a_shattered_character_alone_or_with_a_humiliated_ally_does_not_act():
    alone = _records(("ronan.json", "Party"), ("guard_dog.yaml", "Foes"))
    alone[0]["now"]["sanity"] = -1
    result = simulate(alone, fights=200, seed=5)
    assert result.p_win["Foes"] == 1.0 and np.all(result.rounds_taken == 0)
    humiliated = _records(
        ("ronan.json", "Party"), ("the_brick.json", "Party"), ("guard_dog.yaml", "Foes")
    )
    humiliated[0]["now"]["sanity"] = -1
    humiliated[1]["now"]["poise"] = -1  # below 0 Poise: cannot take the lead (rules/000)
    result = simulate(humiliated, fights=500, seed=5)
    assert result.damage_share["ronan"] == 0.0


# -- 16: cover as a side's setting ------------------------------------------------------------


def test_partial_cover_as_a_sides_setting_puts_every_attack_against_it_at_disadvantage():
    """Issue 32 item 16: rules/001 "Cover"; the mean damage of three rounds is 6 x E(Dis)."""
    records = _records(("ronan.json", "Party"), (_dummy(health=30, soak=9), "Foes"))
    records[0]["gifts"] = []
    records[0]["ki"] = 0
    fights = 20_000
    result = simulate(
        records, fights=fights, seed=8, max_rounds=3, off_balance=False, attack_policy=1,
        cover={"Foes": "partial"},
    )  # fmt: skip
    a = records[0]
    score = max(a["elements"][e] for e in ("Earth", "Air", "Fire", "Water"))
    args = (score, records[1]["defense"]["physical"], 7, 9, a["klotho"])
    exact = 6 * _expected_levels(*args, -1)
    dealt = result.damage[:, 0].astype(float)
    assert abs(dealt.mean() - exact) <= Z * dealt.std() / np.sqrt(fights), (dealt.mean(), exact)
    with pytest.raises(ValueError, match="cover"):
        simulate(records, fights=10, cover="full")
