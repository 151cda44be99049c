"""The rules lab (issue 11, section 2): every switch side by side, Advantage as a flat TN.

- Success and damage curves against brute force over d10 faces (itertools; tests/brute_dice.py).
- Each switch changes exactly what its rule touches (RULES.md, and rules/002 where RULES.md
  summarises): off, every number of the battery is equal; on, only the quantities in
  ``TOUCHES`` move, and each of them does.
- "Which flat TN modifier is Advantage worth": the odds by enumerating 3d10, the whole shift by
  a search over the plain odds, the real shift and the one-for-all shift by their definitions.
- P(win) under a switch: chunks combined right, same seed same result, progress and cancel,
  and a switch the simulator cannot play says so.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from brute_dice import brute_damage

from tb_playground.lab import simulate
from tb_playground.lab.rules_lab import (
    LAB_QUOTES,
    LAB_SWITCHES,
    NOT_SIMULATED,
    QUANTITY_NAMES,
    ROLL_OVER,
    SIMULATED,
    SIMULATOR_SWITCHES,
    SUGGESTED_FIGHTS,
    SWITCH_INPUTS,
    SWITCH_TITLES,
    TOUCHES,
    Cancelled,
    advantage_as_tn,
    example_encounter,
    quantities,
    ruleset_for,
    source_text,
    switch_report,
    win_comparison,
)
from tb_playground.models.ruleset import SWITCHES, VARIANT_SWITCHES, Ruleset
from tb_playground.texts import rules_text

FACES = range(1, 11)
TOL = 1e-12


@cache
def kept_totals(sign: int) -> dict[int, Fraction]:
    """P(kept total) of 2d10 (sign 0), lowest two of 3d10 (+1), highest two of 3d10 (-1)."""
    counts: dict[int, int] = {}
    n = 2 if sign == 0 else 3
    for roll in itertools.product(FACES, repeat=n):
        kept = sorted(roll)
        kept = kept[:2] if sign > 0 else kept[-2:]
        counts[sum(kept)] = counts.get(sum(kept), 0) + 1
    return {t: Fraction(c, 10**n) for t, c in counts.items()}


def brute_success(target: int, sign: int = 0) -> Fraction:
    """At or under the TN; a kept 2 always succeeds, a kept 20 always fails (RULES.md)."""
    return sum(
        (p for t, p in kept_totals(sign).items() if t == 2 or (t <= target and t != 20)),
        Fraction(0),
    )


@cache
def draft_totals(rerolls: int) -> dict[int, Fraction]:
    """Dice totals of the draft: 2d10, each Advantage re-rolls the lowest die and keeps the
    higher, each Disadvantage re-rolls the higher and keeps the lower (rules/003)."""
    counts: dict[int, int] = {}
    k = abs(rerolls)
    for roll in itertools.product(FACES, repeat=2 + k):
        low, high = sorted(roll[:2])
        for r in roll[2:]:
            if rerolls > 0:
                low, high = sorted((max(low, r), high))
            else:
                low, high = sorted((low, min(high, r)))
        counts[low + high] = counts.get(low + high, 0) + 1
    return {t: Fraction(c, 10 ** (2 + k)) for t, c in counts.items()}


def assert_close(actual, expected):
    np.testing.assert_allclose(
        np.asarray(actual, dtype=float), np.asarray(expected, dtype=float), rtol=0, atol=TOL
    )


# -- every switch is in the lab -----------------------------------------------------------------


def test_every_ruleset_switch_and_the_draft_are_in_the_lab():
    assert set(LAB_SWITCHES) == set(SWITCHES) | {ROLL_OVER}
    assert set(TOUCHES) == set(LAB_SWITCHES) == set(SWITCH_TITLES)
    assert set(SIMULATED) | set(NOT_SIMULATED) == set(LAB_SWITCHES)
    assert all(q in QUANTITY_NAMES for touched in TOUCHES.values() for q in touched)
    assert ruleset_for({ROLL_OVER: True}).roll_over
    assert ruleset_for({"never_moira": True}).variants_on == ["never_moira"]


# -- each switch changes exactly what its rule touches ------------------------------------------

DEFAULT = quantities()


def changed(a: dict, b: dict) -> set[str]:
    return {
        k
        for k in a
        if a[k].shape != b[k].shape or not np.allclose(a[k], b[k], rtol=0, atol=TOL, equal_nan=True)
    }


def test_every_switch_off_leaves_every_number_equal():
    assert changed(DEFAULT, quantities(dict.fromkeys(LAB_SWITCHES, False))) == set()
    assert changed(DEFAULT, quantities({})) == set()


@pytest.mark.parametrize("switch", LAB_SWITCHES)
def test_a_switch_on_changes_only_what_its_rule_touches(switch):
    assert changed(DEFAULT, quantities({switch: True})) == set(TOUCHES[switch])


def test_the_quick_reference_changes_the_union_of_its_switches():
    """Ruleset.quick_reference(): every 002 switch at once, the union of what each touches."""
    union = set().union(*(TOUCHES[s] for s in VARIANT_SWITCHES))
    assert changed(DEFAULT, quantities(dict.fromkeys(VARIANT_SWITCHES, True))) == union
    assert Ruleset.quick_reference().variants_on == list(VARIANT_SWITCHES)


def test_named_values_of_the_switches_follow_the_texts():
    on = {s: quantities({s: True}) for s in LAB_SWITCHES}
    # rules/002: Gift Check TN Ki + Stamina (Stamina 3 in the battery): Ki 5 rolls TN 8.
    assert on["gift_check_ki_plus_stamina"]["gift_check"][5] == DEFAULT["gift_check"][8]
    # 002: Ki pool 2 x average of five sub-stats (all 4: 8), default strongest Element 7 + 8.
    assert on["ki_pool_from_sub_stats"]["ki_pool"][4] == 8 and DEFAULT["ki_pool"][4] == 15
    # 002: half Klotho rounded up; 000: Klotho, minimum 1.
    assert list(on["short_rest_half_klotho"]["short_rest_ki"][:4]) == [0, 1, 1, 2]
    assert list(DEFAULT["short_rest_ki"][:4]) == [1, 1, 2, 3]
    # 004: Stamina + 1 spends; 002: Stamina.
    assert DEFAULT["fate_spends"][3] == 4 and on["fate_spends_stamina_only"]["fate_spends"][3] == 3
    # 000: dead at -maximum (5 + sub-stat); 002: at the negative Health sub-stat.
    assert DEFAULT["death"][3] == -8 and on["death_at_negative_health"]["death"][3] == -3
    # 002: a Slow Called Shot has Advantage; 000: a plain roll.
    assert (
        DEFAULT["called_shot"][0] == 0 and on["slow_called_shot_advantage"]["called_shot"][0] == 1
    )
    # Aim has Advantage either way.
    assert DEFAULT["aim"][0] == 1
    # 004: Deception rolls Water (6 in the battery), 000 Fire (4).
    assert_close(
        on["deception_water"]["deception"], [float(brute_success(6 + d)) for d in range(11)]
    )
    assert_close(DEFAULT["deception"], [float(brute_success(4 + d)) for d in range(11)])
    # 002: an Adept rolls plainly (tier 2 row = Trained row); Expert and Master keep Advantage.
    check = on["advantage_from_expert"]["check"]
    assert_close(check[2], DEFAULT["check"][1])
    assert_close(check[3:], DEFAULT["check"][3:])


# -- curves against brute force -----------------------------------------------------------------


def test_success_curves_against_enumerated_dice():
    report = switch_report("advantage_from_expert", element=4)
    (curve,) = report.curves
    assert_close(curve.default, [float(brute_success(4 + d, 1)) for d in range(11)])
    assert_close(curve.switched, [float(brute_success(4 + d, 0)) for d in range(11)])
    report = switch_report("slow_called_shot_advantage", element=5, dice=4)
    hit = report.curves[0]
    assert_close(hit.default, [float(brute_success(t)) for t in range(1, 21)])
    assert_close(hit.switched, [float(brute_success(t, 1)) for t in range(1, 21)])
    gift = switch_report("gift_check_ki_plus_stamina", stat=4).curves[0]
    assert_close(gift.default, [float(brute_success(k)) for k in range(21)])
    assert_close(gift.switched, [float(brute_success(k + 4)) for k in range(21)])
    shake = switch_report("flustered_shaken_off", stat=2).curves[0]
    assert_close(shake.default, np.zeros(11))
    assert_close(shake.switched, [float(brute_success(2 + d)) for d in range(11)])
    moira = switch_report("never_moira", element=7, stat=3).curves[0]
    assert_close(moira.default, [float(brute_success(7 + d)) for d in range(11)])
    assert_close(moira.switched, [float(brute_success(3 + d)) for d in range(11)])


def test_heatmap_is_the_difference_of_the_two_readings_cell_by_cell():
    heat = switch_report("slow_called_shot_advantage").heatmap
    for i, element in enumerate(heat.y):
        for j, defense in enumerate(heat.x):
            t = int(element + defense)
            assert heat.difference[i, j] == pytest.approx(
                float(brute_success(t, 1) - brute_success(t)), abs=TOL
            )
    tiers = switch_report("advantage_from_expert", element=5).heatmap
    assert np.all(tiers.difference[[0, 1, 3, 4]] == 0)  # only the Adept row moves
    assert np.all(tiers.difference[2] <= 0) and np.any(tiers.difference[2] < 0)


def _expected(table) -> float:
    return float(sum(sum(row) * k for k, row in enumerate(table)))


def test_damage_curve_of_boost_timing_against_brute_force():
    report = switch_report("boosts_before_roll", stat=3, dice=4)
    (curve,) = report.curves
    for wall in (0, 4, 7, 10):
        after = _expected(brute_damage(4, wall, 2, 3, "after"))
        before = _expected(brute_damage(4, wall, 2, 3, "before"))
        assert curve.default[wall] == pytest.approx(after, abs=TOL)
        assert curve.switched[wall] == pytest.approx(before, abs=TOL)
    assert np.all(curve.difference <= TOL)  # choosing blind never beats choosing after


def test_expected_levels_per_attack_against_brute_force():
    """The Called Shot's damage curve: P(ordinary hit) x plain + P(critical) x critical."""
    dmg = switch_report("slow_called_shot_advantage", element=5, dice=3).curves[1]
    for defense in (0, 5, 10):
        for on, sign in ((False, 0), (True, 1)):
            t = 5 + defense
            dist = kept_totals(sign)
            p_crit = dist[2]
            p_ordinary = brute_success(t, sign) - p_crit
            plain = _expected(brute_damage(3, 5))
            crit = _expected(brute_damage(3, 5, critical=True))
            expected = float(p_ordinary) * plain + float(p_crit) * crit
            got = dmg.switched[defense] if on else dmg.default[defense]
            assert got == pytest.approx(expected, abs=TOL)


def test_roll_over_draft_against_enumerated_rerolls():
    report = switch_report(ROLL_OVER, element=4, stat=5, dice=3)
    hits, damage = report.curves
    for defense in range(11):
        dc = 11 + defense
        # rules/003: lands when the total is higher than the Defense; 3 or less always misses,
        # 19 or more always lands.
        p = sum(
            (q for t, q in draft_totals(0).items() if t >= 19 or (t > 3 and t + 4 > dc)),
            Fraction(0),
        )
        assert hits.switched[defense] == pytest.approx(float(p), abs=TOL)
        assert hits.default[defense] == pytest.approx(float(brute_success(4 + defense)), abs=TOL)
        # damage: margin capped by the weapon rating (3); a critical uncapped, at least 1
        dmg = Fraction(0)
        for t, q in draft_totals(0).items():
            margin = t + 4 - dc
            if t >= 19:
                dmg += q * max(margin, 1)
            elif t > 3 and margin > 0:
                dmg += q * min(margin, 3)
        assert damage.switched[defense] == pytest.approx(float(dmg), abs=TOL)
    heat = report.heatmap
    for i, adv in enumerate(heat.y):
        for j, defense in enumerate(heat.x):
            dc = 11 + defense
            p = sum(
                (q for t, q in draft_totals(int(adv)).items() if t >= 19 or (t > 3 and t + 4 > dc)),
                Fraction(0),
            )
            assert heat.switched[i, j] == pytest.approx(float(p), abs=TOL)
            plain = brute_success(4 + int(defense), int(np.sign(adv)))
            assert heat.default[i, j] == pytest.approx(float(plain), abs=TOL)


def test_opposed_curve_against_brute_force():
    curve = switch_report("criticals_outrank", element=3).curves[0]  # resister TN 8
    resist = 8
    for actor in (2, 8, 14):
        wins = {False: Fraction(0), True: Fraction(0)}
        for (a, pa), (r, pr) in itertools.product(kept_totals(0).items(), repeat=2):
            a_ok = a == 2 or (a <= actor and a != 20)
            r_ok = r == 2 or (r <= resist and r != 20)
            for outrank in (False, True):
                if a_ok and not r_ok:
                    win = True
                elif a_ok and r_ok:
                    if outrank and (a == 2) != (r == 2):
                        win = a == 2
                    else:
                        win = actor - a > resist - r  # a tie goes to the resister
                else:
                    win = False
                wins[outrank] += pa * pr * win
        assert curve.default[actor - 1] == pytest.approx(float(wins[False]), abs=TOL)
        assert curve.switched[actor - 1] == pytest.approx(float(wins[True]), abs=TOL)


# -- Advantage as a flat TN ---------------------------------------------------------------------


def plain_line(u: float) -> float:
    lo = int(np.floor(u))
    a, b = float(brute_success(lo)), float(brute_success(lo + 1))
    return a + (u - lo) * (b - a)


def test_advantage_as_a_flat_tn_against_enumeration():
    fit = advantage_as_tn()
    assert list(fit.levels) == [-1, 1] and list(fit.targets) == list(range(1, 21))
    assert_close(fit.p_plain, [float(brute_success(t)) for t in range(1, 21)])
    for i, level in enumerate(fit.levels):
        for j, t in enumerate(fit.targets):
            p = float(brute_success(int(t), int(level)))
            assert fit.p[i, j] == pytest.approx(p, abs=TOL)
            # whole shift: nearest plain odds, ties to the smaller shift
            gaps = {s: abs(float(brute_success(int(t) + s)) - p) for s in range(-40, 41)}
            best = min(gaps.values())
            nearest = min((s for s, g in gaps.items() if g <= best + TOL), key=abs)
            assert fit.integer_shift[i, j] == nearest
            assert fit.integer_error[i, j] == pytest.approx(
                float(brute_success(int(t) + nearest)) - p, abs=TOL
            )
            # real shift: the straight-line plain curve there, minus the odds, is the error
            s = fit.real_shift[i, j]
            assert plain_line(t + s) - p == pytest.approx(fit.real_error[i, j], abs=TOL)
            if 0.01 < p < 0.99:
                assert fit.real_error[i, j] == pytest.approx(0.0, abs=TOL)
    # Advantage mid-curve is worth about 3 TN; Disadvantage the mirror image
    mid = list(fit.targets).index(11)
    assert fit.integer_shift[1, mid] == 3 and fit.integer_shift[0, mid] == -3
    assert fit.overall_shift[1] == pytest.approx(-fit.overall_shift[0], abs=1e-9)


def test_the_overall_shift_is_the_least_squares_minimum():
    fit = advantage_as_tn()
    grid = np.linspace(-6, 6, 12001)
    for i, level in enumerate(fit.levels):
        p = np.array([float(brute_success(int(t), int(level))) for t in fit.targets])

        def sse(s, p=p):
            return sum((plain_line(t + s) - q) ** 2 for t, q in zip(fit.targets, p, strict=True))

        best = min(sse(s) for s in grid[::20])
        assert sse(fit.overall_shift[i]) <= best + 1e-12
        assert fit.overall_rms[i] == pytest.approx(np.sqrt(sse(fit.overall_shift[i]) / 20), abs=TOL)


def test_draft_advantages_stack_and_fit_against_enumeration():
    fit = advantage_as_tn("roll-over draft", levels=(-2, 1, 3))
    for i, level in enumerate(fit.levels):
        totals = draft_totals(int(level))
        for j, dc in enumerate(fit.targets):
            p = sum((q for t, q in totals.items() if t >= dc), Fraction(0))
            assert fit.p[i, j] == pytest.approx(float(p), abs=TOL)
    # each more Advantage is worth more (they stack, rules/003)
    assert fit.overall_shift[0] < 0 < fit.overall_shift[1] < fit.overall_shift[2]


def test_advantage_fit_refuses_bad_input_by_name():
    with pytest.raises(ValueError, match="system"):
        advantage_as_tn("d20")
    with pytest.raises(ValueError, match="levels"):
        advantage_as_tn(levels=(2,))
    with pytest.raises(ValueError, match="switch"):
        switch_report("nope")
    with pytest.raises(ValueError, match="dice"):
        switch_report("never_moira", dice=0)


# -- P(win) under a switch ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def encounter():
    return example_encounter(("Ronan",), ("Guard dog",))


def test_win_comparison_combines_its_chunks(encounter):
    seen = []
    result = win_comparison(encounter, "vitals_002", fights=300, seed=7, chunk=100,
                            progress=seen.append)  # fmt: skip
    assert result.simulated and result.fights == 300
    assert seen == pytest.approx([i / 6 for i in range(1, 7)])
    # the same chunks played directly
    seeds = np.random.SeedSequence(7).generate_state(3, dtype=np.uint32)
    for on, got in ((False, result.default), (True, result.switched)):
        wins = dict.fromkeys(result.sides, 0)
        for s in seeds:
            ruleset = {n: on and n == "vitals_002" for n in SIMULATOR_SWITCHES}
            r = simulate(encounter, fights=100, seed=int(s), ruleset=ruleset)
            for i, side in enumerate(r.sides):
                wins[side] += int((r.winner == i).sum())
        assert got == {side: wins[side] / 300 for side in result.sides}
    again = win_comparison(encounter, "vitals_002", fights=300, seed=7, chunk=100)
    assert again.default == result.default and again.switched == result.switched
    for side in result.sides:
        low, high = result.switched_interval[side]
        assert low <= result.switched[side] <= high
    assert len(result.rows()) == len(result.sides)


def test_win_comparison_cancels_and_says_what_it_cannot_play(encounter):
    with pytest.raises(Cancelled):
        win_comparison(encounter, "never_moira", fights=100, chunk=50, cancelled=lambda: True)
    for switch in (ROLL_OVER, "deception_water"):
        result = win_comparison(encounter, switch, fights=100)
        assert not result.simulated and result.note and result.default == {}


# -- sources and inputs -------------------------------------------------------------------------


@pytest.mark.parametrize("switch", LAB_SWITCHES)
def test_each_source_quote_is_in_its_text_under_its_heading(switch):
    number, heading, quote = LAB_QUOTES[switch]
    text = " ".join(rules_text(number).split())
    at = text.find(" ".join(quote.split()))
    assert at >= 0, f"rules/{number} does not say {quote!r}"
    assert 0 <= text.rfind(heading, 0, at), f"{quote!r} is not under {heading!r}"
    assert "_" not in source_text(switch)  # plain words, no code names


@pytest.mark.parametrize("switch", LAB_SWITCHES)
def test_an_input_the_switch_does_not_read_changes_nothing(switch):
    base = switch_report(switch, element=5, stat=3, dice=5)
    for key, other in (("element", 9), ("stat", 8), ("dice", 11)):
        moved = switch_report(switch, **{"element": 5, "stat": 3, "dice": 5, key: other})
        same = all(
            np.array_equal(a.default, b.default, equal_nan=True)
            and np.array_equal(a.switched, b.switched, equal_nan=True)
            and a.title == b.title
            for a, b in zip(base.curves, moved.curves, strict=True)
        ) and (
            base.heatmap is None
            or np.array_equal(base.heatmap.switched, moved.heatmap.switched, equal_nan=True)
        )
        assert same == (SWITCH_INPUTS[switch][key] is None), (switch, key)


def test_suggested_fights_exist_and_the_called_shot_switch_shows_in_its_own():
    for switch, (party, foes) in SUGGESTED_FIGHTS.items():
        assert switch in SIMULATED
        example_encounter(party, foes)  # every name is in the roster
    party, foes = SUGGESTED_FIGHTS["slow_called_shot_advantage"]
    result = win_comparison(
        example_encounter(party, foes), "slow_called_shot_advantage", fights=1000, chunk=500
    )
    assert "Called Shot" in result.note
    # Advantage on every swing: the party's chance rises past both intervals
    assert result.switched_interval["Party"][0] > result.default_interval["Party"][1]


def test_boosts_before_the_roll_move_p_win_as_the_exact_duel_says():
    """boosts_before_roll: both readings' P(win) against ``fight_odds`` (rules/002 "How Do I
    Deal Damage?"), and the change between them.

    Ronan (Onslaught: 7 dice, boosts of Ferocity 4, Ki set to 7) against a dummy that never
    strikes back (Soak 9, Health 8, no Ki), one Fast attack a round for 6 rounds: P(win) is
    exactly P(Health down by round 6). After the roll a boost is spent only on a die it lifts
    (4 faces in 10); before it, all 7 go on the first hit, so the switch costs most of the
    chance: exact 59.4% -> 11.9%.
    """
    from table_helpers import roster

    from tb_playground.engine import AttackProfile, fight_odds, to_hit_odds
    from tb_playground.lab import wilson_interval
    from tb_playground.models import Creature, Encounter
    from tb_playground.models.combatants import encounter_records

    dummy = Creature(name="Dummy", named=True, soak=9, health=8, defense_physical=4, attacks=[])
    enc = Encounter()
    enc.add(roster("ronan.json"), "Party")
    enc.add(dummy, "Foes")
    records = encounter_records(enc)
    records[0]["ki"] = 7
    records[0]["gifts"] = []  # fight_odds plays no Gift cost: Onslaught as a plain 7-dice attack
    a, t = records
    rounds, fights = 6, 4000
    result = win_comparison(
        records, "boosts_before_roll", fights=fights, seed=5, chunk=2000,
        bracket_policy="fast", attack_policy={"ronan": 1}, max_rounds=rounds, ki_policy="none",
    )  # fmt: skip
    assert result.simulated and "before" in result.note
    element = max(a["elements"][e] for e in ("Earth", "Air", "Fire", "Water"))
    defense = t["defense"]["physical"]
    exact = {}
    for timing in ("after", "before"):
        profile = AttackProfile.from_to_hit(
            to_hit_odds(element, defense), 7, t["wall"]["physical"], boosts=7,
            bonus=a["boost"]["physical"], timing=timing, klotho=a["klotho"],
            off_balance_to_hit=to_hit_odds(element, defense, -1),
        )  # fmt: skip
        odds = fight_odds(profile, t["max"]["health"], rounds, attacker_ki=7, bracket="fast")
        exact[timing] = float(odds.p_down_by[-1])
    assert exact["after"] - exact["before"] > 0.4
    for timing, got in (("after", result.default), ("before", result.switched)):
        low, high = wilson_interval(round(got["Party"] * fights), fights, 4.4)
        assert low <= exact[timing] <= high, (timing, got, exact)
    change = result.switched["Party"] - result.default["Party"]
    spread = 4.4 * np.sqrt(sum(p * (1 - p) for p in exact.values()) / fights)
    assert abs(change - (exact["before"] - exact["after"])) <= spread


def test_the_ki_pool_switch_is_fought_with_the_pools_it_gives():
    """ki_pool_from_sub_stats rebuilds the characters (their pools) and fights them again."""
    from tb_playground.lab.prepare import prepare
    from tb_playground.lab.rules_lab import under_switch
    from tb_playground.models.combatants import encounter_records

    enc = example_encounter(*SUGGESTED_FIGHTS["ki_pool_from_sub_stats"])
    switched = under_switch(enc, "ki_pool_from_sub_stats")
    assert enc.ruleset.ki_pool_from_sub_stats is False  # the original is untouched
    for before, after, who in zip(
        encounter_records(enc), encounter_records(switched), enc.combatants, strict=True
    ):
        if who.is_character:
            assert after["ki_pool"] != before["ki_pool"]
            assert after["ki"] == after["ki_pool"]  # nothing spent yet
        else:
            assert after["ki"] == before["ki"]
    assert list(prepare(switched).ki) == [r["ki"] for r in encounter_records(switched)]
    result = win_comparison(enc, "ki_pool_from_sub_stats", fights=2000, chunk=1000, seed=4)
    assert result.simulated
    # Ronan's Ki 14 -> 8: fewer boosts and less prevention, the bear wins more often.
    assert result.switched_interval["Party"][1] < result.default_interval["Party"][0]
    with pytest.raises(TypeError, match="encounter: .*needs an Encounter"):
        win_comparison(encounter_records(enc), "ki_pool_from_sub_stats", fights=10)


def test_the_simulator_takes_death_where_the_record_puts_it():
    """death_at_negative_health: the records' dead_at (the sheet's) decide P(dead)."""
    from tb_playground.lab import simulate
    from tb_playground.lab.prepare import prepare
    from tb_playground.lab.rules_lab import under_switch

    enc = example_encounter(("Ronan",), ("Captain Oriel Vance",))  # the Captain cuts Health
    switched = under_switch(enc, "death_at_negative_health")
    ronan = enc.combatants[0].who
    assert list(prepare(enc).dead_at)[0] == -ronan.health_max
    assert list(prepare(switched).dead_at)[0] == -ronan.health
    kw = {"fights": 4000, "seed": 2, "end": "dead", "target_policy": "finish"}
    default, earlier = simulate(enc, **kw), simulate(switched, **kw)
    # Ronan dies in nearly every fight either way, but sooner (fewer levels below 0 to lose).
    assert earlier.rounds_taken.mean() < default.rounds_taken.mean() - 2
    assert "death_at_negative_health" in NOT_SIMULATED
