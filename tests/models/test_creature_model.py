"""Creatures and encounters: cards, named and unnamed at 0, one ruleset for the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tb_playground.engine import party_travel
from tb_playground.models import Character, Creature, Encounter, Ruleset, load
from tb_playground.models.creature import StaticNumber

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"


def test_unnamed_creatures_leave_the_fight_at_zero():
    rat = Creature(name="Rat", health=4)
    assert rat.status == "up"
    rat.health_lost = 4
    assert (rat.health_now, rat.status) == (0, "out")
    boss = Creature(name="Vance", named=True, health=4, health_lost=4)
    assert boss.status == "unconscious"
    boss.health_lost = 6
    assert boss.status == "dying"
    boss.health_lost = 8
    assert boss.status == "dead"


def test_card_numbers():
    dog = load(ROSTER / "guard_dog.yaml")
    assert dog.static_number("Stealth").value == 7  # rules/001: "Perception 7 vs. Stealth"
    assert dog.defense_for("social") == dog.defense_social
    assert dog.wall_for("mental") == dog.psyche
    assert dog.track_max("social") == dog.poise
    assert dog.draft_defense_for("physical") == 11 + dog.defense_physical
    assert dog.static_number("Insight") is None
    c = Creature(static_numbers=[StaticNumber(name="Stealth", value=6, versus="Perception")])
    assert c.static_number("Perception").value == 6


def test_encounter_shares_one_ruleset_and_tracks_standing():
    ronan = load(ROSTER / "ronan.json")
    dog = load(ROSTER / "guard_dog.yaml")
    encounter = Encounter(name="Car park")
    encounter.add(ronan)
    encounter.add(dog)
    assert ronan.ruleset is encounter.ruleset
    assert encounter.standing == [("Ronan", "Party", "up"), ("Guard dog", "Foes", "up")]
    encounter.ruleset.ki_pool_from_sub_stats = True
    assert ronan.ki_pool != 14  # the table's switch reaches the sheet
    encounter.ruleset = Ruleset()
    assert ronan.ruleset is encounter.ruleset and ronan.ki_pool == 14
    dog.health_lost = dog.health
    assert encounter.standing[1] == ("Guard dog", "Foes", "out")
    ronan.health_lost = ronan.health_max + 1
    assert encounter.standing[0] == ("Ronan", "Party", "dying")
    assert [c.label for c in encounter.on_side("Foes")] == ["Guard dog"]
    assert encounter.creatures == [dog] and encounter.characters == [ronan]


def test_party_travels_at_the_slowest_pace():
    encounter = Encounter()
    fast = Character(name="Fast", air=10, stamina=1)
    slow = Character(name="Slow", air=0, stamina=10)
    encounter.add(fast)
    encounter.add(slow)
    encounter.scene.ground = "rough"
    day = encounter.party_travel()
    assert day == party_travel([(10, 1), (0, 10)], "rough")
    assert (day.speed_kmh, day.day_hours, day.day_km) == (3.0, 5, pytest.approx(7.5))
