"""Engine: Fate Token spends and gains, against rules/004 "Fate Tokens" and rules/000."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tb_playground.engine.character_stats import fate_spends_per_scene, fate_token_cap
from tb_playground.engine.fate import (
    FATE_SPENDS,
    fate_gain,
    fate_gain_for,
    fate_spend,
    ki_spend_cost,
)


def test_the_five_named_spends_do_not_count_kotodama_and_corruption_do():
    # rules/004: "counted spends per Scene - a Kotodama, or burning off Corruption; the spends
    # above don't count".
    counted = {k for k, rule in FATE_SPENDS.items() if rule.counted}
    assert counted == {"kotodama", "burn corruption"}
    for kind in ("overcome a flaw", "automatic success", "shrug off", "refill ki", "get back up"):
        assert kind in FATE_SPENDS and not FATE_SPENDS[kind].counted


def test_uncounted_spend_takes_a_token_and_ignores_the_scene_cap():
    s = fate_spend("automatic success", 2, counted_this_scene=9, stamina=1)
    assert s.allowed and (s.tokens_after, s.counted_after) == (1, 9)
    assert s.changes == ("Fate Tokens 2 -> 1",)


def test_no_token_no_spend():
    s = fate_spend("shrug off", 0, 0, stamina=3)
    assert not s.allowed and "you hold 0" in s.reason and s.tokens_after == 0


@pytest.mark.parametrize("stamina", range(11))
def test_counted_spends_per_scene_stamina_plus_1(stamina):
    # rules/004: "Make at most Stamina + 1 counted spends per Scene".
    tokens, counted = 100, 0
    while True:
        s = fate_spend("kotodama", tokens, counted, stamina, cost=2)
        if not s.allowed:
            break
        tokens, counted = s.tokens_after, s.counted_after
    assert counted == stamina + 1 == fate_spends_per_scene(stamina)
    assert tokens == 100 - 2 * counted
    assert "counted Fate spends this Scene" in s.reason
    # Variant 002 "How Does Fate Work?": "your Stamina score sets that cap".
    last = fate_spend("burn corruption", 5, stamina, stamina, stamina_only=True)
    assert not last.allowed
    if stamina:
        assert fate_spend("burn corruption", 5, stamina - 1, stamina, stamina_only=True).allowed


def test_kotodama_needs_its_whole_cost():
    # rules/004 "Kotodama": cost is Magnitude + Range + Plausibility.
    assert not fate_spend("kotodama", 3, 0, 2, cost=4).allowed
    s = fate_spend("kotodama", 4, 0, 2, cost=4)
    assert s.allowed and s.tokens_after == 0 and s.cost == 4
    with pytest.raises(ValueError, match="cost"):
        fate_spend("refill ki", 4, 0, 2, cost=2, ki=0, ki_pool=10)


def test_get_back_up_at_1_even_while_out_cold():
    # rules/000 "Getting back up": "Spend a Fate Token and you're back at 1 Health Level ...
    # you can spend it while you're out cold"; rules/004 "Up at 1 Health Level".
    for health in (0, -1, -7):
        s = fate_spend("get back up", 1, 0, 2, health=health, health_max=8)
        assert s.allowed and s.health_after == 1
        assert s.changes == ("Fate Tokens 1 -> 0", f"Health {health} -> 1")
    up = fate_spend("get back up", 1, 0, 2, health=3, health_max=8)
    assert not up.allowed and up.health_after is None
    dead = fate_spend("get back up", 1, 0, 2, health=-8, health_max=8)
    assert not dead.allowed and dead.reason.startswith("Dead")
    with pytest.raises(ValueError, match="health"):
        fate_spend("get back up", 1, 0, 2)


def test_refill_ki_fills_the_pool():
    # rules/004 "Refill Ki: Your whole pool, right now".
    s = fate_spend("refill ki", 1, 0, 2, ki=3, ki_pool=14)
    assert s.allowed and s.ki_after == 14
    assert not fate_spend("refill ki", 1, 0, 2, ki=14, ki_pool=14).allowed


def test_shrug_off_names_the_condition():
    # rules/004: "Shrug Off an Effect - Clear a condition for a moment".
    s = fate_spend("shrug off", 1, 0, 2, condition="Flustered")
    assert s.allowed and s.effect == "Flustered is cleared for a moment."
    with pytest.raises(ValueError, match="condition"):
        fate_spend("automatic success", 1, 0, 2, condition="Flustered")


def test_clear_off_balance_is_a_spend():
    # rules/000 "Rolling the Dice": "A Fate Token clears that, but never the rest of it."
    s = fate_spend("clear off balance", 1, 0, 0)
    assert s.allowed and "rest of the mishap stands" in s.effect


@given(st.integers(0, 40), st.integers(0, 10), st.integers(0, 5))
def test_gain_never_passes_the_cap_and_loses_the_rest(tokens, stamina, n):
    # rules/004: "Hold at most (Stamina x 3) + 1 ... A Token earned at the cap is lost."
    cap = fate_token_cap(stamina)
    g = fate_gain_for(tokens, stamina, n)
    assert g == fate_gain(tokens, cap, n)
    assert g.gained + g.lost == n
    assert g.tokens_after == max(tokens, min(cap, tokens + n))
    if tokens <= cap:
        assert g.tokens_after <= cap


def test_gain_at_the_cap_example():
    g = fate_gain(6, 7, 3)
    assert (g.tokens_after, g.gained, g.lost) == (7, 1, 2)
    assert g.changes == ("Fate Tokens 6 -> 7", "2 Fate Tokens lost: already holding the most (7)")


@given(
    st.sampled_from(sorted(FATE_SPENDS)),
    st.integers(0, 10),
    st.integers(0, 12),
    st.integers(0, 10),
    st.booleans(),
)
def test_spend_is_allowed_exactly_when_tokens_and_cap_allow(kind, tokens, counted, stamina, var):
    extra = {}
    if kind == "get back up":
        extra = dict(health=0, health_max=5)
    if kind == "refill ki":
        extra = dict(ki=0, ki_pool=5)
    s = fate_spend(kind, tokens, counted, stamina, stamina_only=var, **extra)
    cap = stamina if var else stamina + 1
    want = tokens >= 1 and (not FATE_SPENDS[kind].counted or counted < cap)
    assert s.allowed == want
    assert s.tokens_after == (tokens - 1 if want else tokens)
    assert s.counted_after == counted + (want and FATE_SPENDS[kind].counted)
    assert bool(s.reason) != want


def test_ki_spend_cost_exhausted_4_adds_one_per_spend():
    # rules/004 "Conditions": Exhausted "then +1 per Ki spend" (level 4), "then out cold" (5).
    assert [ki_spend_cost(1, e) for e in range(6)] == [1, 1, 1, 1, 2, 2]
    assert ki_spend_cost(2, 4) == 3
    assert ki_spend_cost(0, 4) == 0
    with pytest.raises(ValueError, match="exhausted"):
        ki_spend_cost(1, 6)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("nap", 1, 0, 2), "kind"),
        (("shrug off", -1, 0, 2), "tokens"),
        (("shrug off", 1, -1, 2), "counted_this_scene"),
        (("shrug off", 1, 0, 11), "stamina"),
    ],
)
def test_bad_input_names_the_argument(args, name):
    with pytest.raises(ValueError, match=name):
        fate_spend(*args)
