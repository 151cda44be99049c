"""What moves the odds (issue 35, item 4): each lever once, sorted by its effect."""

from __future__ import annotations

import pytest

from tb_playground.lab.levers import levers
from tb_playground.models.roster import build_encounter

PARTY = ["ronan.json", "the_brick.json", "nerdy_hacker.yaml"]


def test_every_lever_once_sorted_by_effect_and_the_encounter_untouched():
    enc = build_encounter("", PARTY, ["guard_dog.yaml", "guard_dog.yaml#2", "nightmare.yaml"])
    before = [(c.who.name, c.who.health) for c in enc.combatants]
    table = levers(enc, fights=300, seed=4)
    changes = [r.change for r in table.rows]
    assert sorted(changes) == sorted(
        [
            "One Guard dog more",
            "One Guard dog fewer",
            "Guard dog's Health 25% up",
            "Guard dog's Health 25% down",
            "One Nightmare more",
            "One Nightmare fewer",
            "Nightmare's Health 25% up",
            "Nightmare's Health 25% down",
            "The party not rested",
            "Ronan absent",
            "The Brick absent",
            "The Nerdy Hacker absent",
        ]
    )
    sizes = [abs(r.effect) for r in table.rows]
    assert sizes == sorted(sizes, reverse=True)
    for r in table.rows:
        assert r.effect == pytest.approx(r.p_win - table.p_win)
    assert [(c.who.name, c.who.health) for c in enc.combatants] == before
    words = dict((c, e) for c, _, e in table.rows_in_words())
    assert words["One Nightmare more"].endswith("points")


def test_a_named_foe_has_no_more_and_a_worn_party_can_rest():
    enc = build_encounter("", PARTY[:2], ["guard_captain.yaml"])
    enc.combatants[0].who.health_lost = 2
    table = levers(enc, fights=200)
    changes = {r.change for r in table.rows}
    assert "One Captain Oriel Vance more" not in changes
    assert "One Captain Oriel Vance fewer" not in changes  # the only foe stays
    assert "The party rested" in changes


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="encounter"):
        levers("warehouse")
