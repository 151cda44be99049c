"""Engine: rests and recovery, against rules/000 "Harm and Recovery" and rules/004 "Resting"."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine.rest import full_night, short_rest, stabilise, sunrise_fate


def sheet(**over):
    """A character: Health 8 (sub-stat 3), Poise 7 (Presence 2), Sanity 6 (Psyche 1), Ki 13."""
    base = dict(
        health=8,
        health_max=8,
        poise=7,
        poise_max=7,
        sanity=6,
        sanity_max=6,
        health_stat=3,
        presence=2,
        psyche=1,
        ki=13,
        ki_pool=13,
        klotho=4,
    )
    base.update(over)
    return base


# rules/004 "Resting" table rows, with rules/000 "Above zero" minimum 1.
@pytest.mark.parametrize("sub", range(11))
def test_short_rest_rows_half_the_sub_stat_rounded_up_minimum_1(sub):
    r = short_rest(
        **sheet(
            health=-0, health_max=15, poise=0, poise_max=15, sanity=0, sanity_max=15,
            health_stat=sub, presence=sub, psyche=sub,
        )
    )  # fmt: skip
    want = max(1, math.ceil(sub / 2))
    assert (r.health, r.poise, r.sanity) == (want, want, want)


@pytest.mark.parametrize("klotho", range(11))
def test_short_rest_ki_is_klotho_minimum_1(klotho):
    # rules/000 "Recovering Ki": Klotho, minimum 1; rules/004 table "your Klotho".
    r = short_rest(**sheet(ki=0, ki_pool=20, klotho=klotho))
    assert r.ki == max(1, klotho)
    # Variant 002 "How Does Ki Work?": half Klotho, rounded up (no minimum).
    v = short_rest(**sheet(ki=0, ki_pool=20, klotho=klotho), half_klotho=True)
    assert v.ki == math.ceil(klotho / 2)


def test_short_rest_caps_at_maxima_and_reports_changes():
    r = short_rest(**sheet(health=7, poise=2, sanity=6, ki=11))
    assert (r.health, r.poise, r.sanity, r.ki) == (8, 3, 6, 13)
    assert r.changes == ("Health 7 -> 8", "Poise 2 -> 3", "Ki 11 -> 13")
    assert r.allowed and r.short_rest_taken and r.kind == "Short Rest"


def test_full_night_row_everything_full():
    # rules/004 "Resting": Full Night column "full" for every row.
    r = full_night(**sheet(health=1, poise=0, sanity=2, ki=0))
    assert (r.health, r.poise, r.sanity, r.ki) == (8, 7, 6, 13)
    assert not r.short_rest_taken


def test_one_short_rest_between_nights():
    # rules/000 "Recovery": "you only get one of them between full nights".
    first = short_rest(**sheet(health=2))
    second = short_rest(**sheet(health=first.health), short_rest_taken=first.short_rest_taken)
    assert not second.allowed and "one Short Rest" in second.reason
    assert second.health == first.health and second.changes == ()
    night = full_night(**sheet(health=2), short_rest_taken=True)
    assert night.allowed and not night.short_rest_taken
    assert short_rest(**sheet(health=2), short_rest_taken=night.short_rest_taken).allowed


def test_below_zero_short_rest_gives_health_nothing():
    # rules/000 "Below zero": "Below 0 Health Levels a Short Rest gives you nothing at all".
    r = short_rest(**sheet(health=-3))
    assert r.health == -3
    assert "heals nothing" in r.changes[0]


def test_six_nights_from_minus_6():
    # rules/000 "Below zero": "At -6 that is six nights before you are back to 0, and only
    # then do the normal rates start again".
    health, nights = -6, 0
    while health < 0:
        health = short_rest(**sheet(health=health)).health  # gives nothing
        health = full_night(**sheet(health=health)).health
        nights += 1
    assert (nights, health) == (6, 0)
    assert full_night(**sheet(health=0)).health == 8  # normal rates again


def test_variant_002_one_level_per_rest_of_either_kind():
    # rules/002 "What Happens to My Health?": "1 Health Level per rest, Short or Full".
    r = short_rest(**sheet(health=-6), below_zero_heals_per_rest=True)
    assert r.health == -5
    n = full_night(**sheet(health=-5), below_zero_heals_per_rest=True)
    assert n.health == -4


def test_stabilise_puts_dying_at_zero_then_normal_rates():
    # rules/000 "Getting back up": "you're at 0 ... healing at the normal rates from there".
    s = stabilise(-4, 8)
    assert s.allowed and s.health == 0
    assert short_rest(**sheet(health=s.health)).health == 2  # ceil(3 / 2)
    assert not stabilise(0, 8).allowed and not stabilise(3, 8).allowed
    dead = stabilise(-8, 8)
    assert not dead.allowed and dead.reason.startswith("Dead")


@pytest.mark.parametrize("rest", [short_rest, full_night])
def test_poise_and_sanity_below_zero_back_to_1_on_either_rest(rest):
    # rules/000 "Below zero": "A Short Rest brings either of them back to 1"; Full Night:
    # "Poise and Sanity come back to 1, the same as they would on a Short Rest". rules/004 too.
    r = rest(**sheet(poise=-6, sanity=-2))
    assert (r.poise, r.sanity) == (1, 1)
    # "the normal rates start again from there on the next rest"
    again = full_night(**sheet(poise=r.poise, sanity=r.sanity))
    assert (again.poise, again.sanity) == (7, 6)


def test_dead_do_not_rest():
    r = full_night(**sheet(health=-8))
    assert not r.allowed and r.health == -8


def test_short_rest_lifts_one_exhausted_level_unless_still_in_the_cause():
    # rules/000 "Above zero": "One level of Exhausted lifts, unless you are still standing in
    # whatever caused it."
    assert short_rest(**sheet(exhausted=3)).exhausted == 2
    kept = short_rest(**sheet(exhausted=3), in_cause=True)
    assert kept.exhausted == 3 and "still in what caused it" in kept.changes[-1]
    # cold levels: the other level lifts first, a cold one only out of the cold
    r = short_rest(**sheet(exhausted=2, exhausted_cold=1), in_cold=True)
    assert (r.exhausted, r.exhausted_cold) == (1, 1)
    r = short_rest(**sheet(exhausted=1, exhausted_cold=1), in_cold=True)
    assert r.exhausted == 1
    r = short_rest(**sheet(exhausted=2, exhausted_cold=2))
    assert (r.exhausted, r.exhausted_cold) == (1, 1)


def test_full_night_clears_exhausted_but_cold_levels_in_the_cold():
    # rules/000 "Above zero": "Every level of Exhausted clears ... a level you took from the
    # cold does not clear while you are still in the cold."
    assert full_night(**sheet(exhausted=5)).exhausted == 0
    r = full_night(**sheet(exhausted=4, exhausted_cold=2), in_cold=True)
    assert (r.exhausted, r.exhausted_cold) == (2, 2)
    assert r.changes[-1] == "Exhausted stays at 2: still in the cold"
    assert full_night(**sheet(exhausted=4, exhausted_cold=2)).exhausted == 0


def test_sunrise_token_lost_at_the_cap():
    # rules/000: "You gain one at sunrise whether you slept or not"; rules/004: "A Token earned
    # at the cap is lost".
    assert sunrise_fate(2, 7).tokens_after == 3
    at_cap = sunrise_fate(7, 7)
    assert (at_cap.tokens_after, at_cap.gained, at_cap.lost) == (7, 0, 1)
    assert "lost" in at_cap.changes[0]


@pytest.mark.parametrize(
    ("over", "name"),
    [
        (dict(health=9), "health"),
        (dict(poise=-7), "poise"),
        (dict(ki=14), "ki"),
        (dict(klotho=11), "klotho"),
        (dict(exhausted=6), "exhausted"),
        (dict(exhausted=1, exhausted_cold=2), "exhausted_cold"),
        (dict(in_cold=1), "in_cold"),
    ],
)
def test_bad_input_names_the_argument(over, name):
    with pytest.raises(ValueError, match=name):
        short_rest(**sheet(**over))


def test_poise_stops_at_zero_variant_refuses_negative_poise():
    with pytest.raises(ValueError, match="poise"):
        short_rest(**sheet(poise=-1), poise_stops_at_zero=True)


@st.composite
def states(draw):
    hm, pm, sm = (draw(st.integers(1, 15)) for _ in range(3))
    pool = draw(st.integers(0, 20))
    ex = draw(st.integers(0, 5))
    return dict(
        health=draw(st.integers(-hm + 1, hm)),
        health_max=hm,
        poise=draw(st.integers(-pm + 1, pm)),
        poise_max=pm,
        sanity=draw(st.integers(-sm + 1, sm)),
        sanity_max=sm,
        health_stat=draw(st.integers(0, 10)),
        presence=draw(st.integers(0, 10)),
        psyche=draw(st.integers(0, 10)),
        ki=draw(st.integers(0, pool)),
        ki_pool=pool,
        klotho=draw(st.integers(0, 10)),
        exhausted=ex,
        exhausted_cold=draw(st.integers(0, ex)),
        in_cold=draw(st.booleans()),
        in_cause=draw(st.booleans()),
        half_klotho=draw(st.booleans()),
        below_zero_heals_per_rest=draw(st.booleans()),
    )


@given(states(), st.sampled_from([short_rest, full_night]))
def test_rest_never_lowers_a_value_nor_passes_a_maximum(state, rest):
    r = rest(**state)
    assert r.allowed
    for name in ("health", "poise", "sanity", "ki"):
        before, after = state[name], getattr(r, name)
        assert before <= after <= state[f"{name}_max" if name != "ki" else "ki_pool"]
    assert r.exhausted <= state["exhausted"] and 0 <= r.exhausted_cold <= r.exhausted
    # a Full Night is never worse than a Short Rest
    s = short_rest(**state)
    n = full_night(**state)
    for name in ("health", "poise", "sanity", "ki"):
        assert getattr(n, name) >= getattr(s, name)
    assert n.exhausted <= s.exhausted
    # every change is reported as "Name before -> after"
    for name in ("Health", "Poise", "Sanity", "Ki", "Exhausted"):
        before, after = state[name.lower()], getattr(r, name.lower())
        said = [c for c in r.changes if c.startswith(f"{name} {before} -> ")]
        assert bool(said) == (before != after)


# -- issue 21: overrides bounded by the rules; rests take any value an older table holds ------


def _table_at_rest(tmp_path):
    from table_helpers import encounter, new_table, roster, soak7

    return new_table(tmp_path, encounter(roster("ronan.json"), foes=[soak7()]))[1]


def test_set_refuses_values_outside_the_combatants_bounds_naming_them(tmp_path):
    import pytest

    table = _table_at_rest(tmp_path)
    c = table.state["combatants"]["ronan"]
    pool, poise = c["ki_pool"], c["max"]["poise"]
    with pytest.raises(ValueError, match=rf"Ki of Ronan.* from 0 to {pool}, got {pool + 5}"):
        table.apply({"type": "set", "combatant": "ronan", "field": "ki", "value": pool + 5})
    with pytest.raises(ValueError, match=rf"Poise of Ronan.* from {-(poise - 1)} to {poise}"):
        table.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": -poise})
    table.apply({"type": "set", "combatant": "ronan", "field": "poise", "value": -(poise - 1)})
    table.apply({"type": "short_rest"})


def test_rests_bring_values_an_older_table_accepted_inside_with_a_line(tmp_path):
    table = _table_at_rest(tmp_path)
    c = table._state["combatants"]["ronan"]
    c["ki"] = c["ki_pool"] + 5  # as an older table's override left it
    c["now"]["poise"] = -c["max"]["poise"]
    table.apply({"type": "short_rest"})
    line = table.view_for("gm")["log"][-1]["text"]
    assert "Ronan's Ki" in line and "Ronan's Poise" in line, line
    assert "outside" not in table.view_for("player", "ronan")["log"][-1]["text"]
    c = table._state["combatants"]["ronan"]
    c["ki"] = c["ki_pool"] + 5
    table.apply({"type": "full_night"})
    after = table.state["combatants"]["ronan"]
    assert 0 <= after["ki"] <= after["ki_pool"]
