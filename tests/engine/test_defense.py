"""Defense by kind, the to-hit roll and its critical band, and attack dice sources."""

from __future__ import annotations

import pytest

from tb_playground.engine import (
    ATTACK_KINDS,
    SOCIAL_DICE_BY_TIER,
    attack_dice,
    attack_elements,
    attack_kind,
    attack_to_hit,
    defense,
    roll_odds,
    social_dice,
    to_hit_odds,
)


def test_defense_by_kind():
    # Physical 10 - Atropos, Social 10 - Psyche, Mental 10 - Presence
    assert defense("physical", 3) == 7
    assert defense("social", 0) == 10
    assert defense("mental", 10) == 0
    assert attack_kind("physical").defense_stat == "Atropos"
    assert attack_kind("social").defense_stat == "Psyche"
    assert attack_kind("mental").defense_stat == "Presence"


def test_walls_boosts_and_vitals_by_kind():
    rows = {k: attack_kind(k) for k in ATTACK_KINDS}
    assert [rows[k].wall_stat for k in ATTACK_KINDS] == ["Soak", "Presence", "Psyche"]
    assert [rows[k].boost_stat for k in ATTACK_KINDS] == ["Ferocity", "Presence", "Psyche"]
    assert [rows[k].vital for k in ATTACK_KINDS] == ["health", "poise", "sanity"]


def test_to_hit_is_a_core_roll_on_element_plus_defense():
    for element in range(11):
        for d in range(11):
            for advantage in (-2, 0, 1):
                hit = to_hit_odds(element, d, advantage)
                core = roll_odds(element + d, advantage)
                assert hit.target == element + d
                assert hit.p_hit == pytest.approx(core.p_success, abs=1e-15)
                assert hit.p_critical == pytest.approx(core.p_critical, abs=1e-15)
                assert hit.p_ordinary + hit.p_critical + hit.p_miss == pytest.approx(1.0)
                assert hit.p_catastrophe == pytest.approx(core.p_catastrophe)


def test_critical_band_feeds_the_critical_hit():
    plain = to_hit_odds(5, 5)
    assert plain.p_critical == pytest.approx(0.01)  # both dice 1
    advantage = to_hit_odds(5, 5, advantage=1)
    assert advantage.p_critical == pytest.approx(28 / 1000)  # at least two 1s among 3d10
    wide = to_hit_odds(5, 5, crit_max=3)
    assert wide.p_critical == pytest.approx(0.03)
    # a critical lands whatever the TN; a 20 misses whatever the TN
    assert to_hit_odds(0, 0).p_hit == pytest.approx(0.01)
    assert to_hit_odds(10, 10).p_miss == pytest.approx(0.01)


def test_attack_to_hit_uses_the_targets_sub_stat():
    hit = attack_to_hit("physical", 4, target_sub_stat=3, element_name="Earth", advantage=1)
    assert hit.target == 4 + 7
    assert hit.p_hit == pytest.approx(roll_odds(11, 1).p_success)


def test_moira_never_carries_a_physical_attack():
    assert "Moira" not in attack_elements("physical")
    assert "Moira" in attack_elements("social")
    assert "Moira" in attack_elements("mental")
    assert "Moira" not in attack_elements("mental", never_moira=True)  # variant 002
    with pytest.raises(ValueError, match="element_name"):
        attack_to_hit("physical", 4, 3, element_name="Moira")
    attack_to_hit("social", 4, 3, element_name="Moira")


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: defense("astral", 3), "kind"),
        (lambda: defense("physical", 11), "sub_stat"),
        (lambda: to_hit_odds(11, 3), "element"),
        (lambda: to_hit_odds(3, -1), "defense"),
        (lambda: to_hit_odds(3, 3, crit_max=4), "crit_max"),
        (lambda: to_hit_odds(3, 3, advantage=0.5), "advantage"),
    ],
)
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_attack_dice_sources():
    assert attack_dice("physical", "weapon", 3) == 3  # a knife
    assert attack_dice("physical", "gift", 7) == 7  # Ronan's Onslaught
    assert [attack_dice("social", "skill", t) for t in range(5)] == [1, 3, 4, 5, 6]
    assert SOCIAL_DICE_BY_TIER == (1, 3, 4, 5, 6)
    assert social_dice(2) == 4
    assert attack_dice("social", "gift", 5) == 5
    assert attack_dice("mental", "gift", 4) == 4


def test_mental_attacks_only_through_a_gift():
    for source in ("weapon", "skill"):
        with pytest.raises(ValueError, match="source"):
            attack_dice("mental", source, 3)
    with pytest.raises(ValueError, match="source"):
        attack_dice("social", "weapon", 3)
    with pytest.raises(ValueError, match="source"):
        attack_dice("physical", "skill", 3)
    with pytest.raises(ValueError, match="tier"):
        attack_dice("social", "skill", 5)
    with pytest.raises(ValueError, match="rating"):
        attack_dice("physical", "weapon", -1)
