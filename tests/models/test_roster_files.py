"""Files: JSON and YAML round trips, every bad field reported, nothing partial, the roster."""

from __future__ import annotations

import json
import os
from pathlib import Path

import param
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tb_playground.models import (
    Character,
    Creature,
    Encounter,
    FileFormatError,
    Ruleset,
    dumps,
    load,
    load_roster,
    loads,
    save,
)
from tb_playground.models import files as files_module
from tb_playground.models.files import (
    KINDS,
    SCHEMA_VERSION,
    _tagged_classes,
    from_dict,
    saved_fields,
    to_dict,
)

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"

# -- strategies built from the parameters themselves -------------------------------------------


def data_for(cls: type[param.Parameterized], depth: int = 0) -> st.SearchStrategy[dict]:
    """Every saved field of ``cls`` drawn inside its own bounds and choices."""
    fields = {name: field_strategy(p, depth) for name, p in saved_fields(cls).items()}
    return st.fixed_dictionaries(fields).map(lambda d, c=cls: fix(c, d))


def field_strategy(p: param.Parameter, depth: int) -> st.SearchStrategy:
    if isinstance(p, param.Boolean):
        return st.booleans()
    if isinstance(p, param.Integer):
        low, high = p.bounds
        return st.integers(low, high)
    if isinstance(p, param.String):
        return st.text(max_size=12)
    if isinstance(p, param.ListSelector):
        return st.lists(st.sampled_from(p.objects), unique=True, max_size=3)
    if isinstance(p, param.Selector):
        return st.sampled_from(p.objects)
    if isinstance(p, param.List):
        if p.item_type is str:
            return st.lists(st.text(min_size=1, max_size=8), unique=True, min_size=1, max_size=3)
        size = 3 if depth == 0 else 2
        return st.lists(data_for(p.item_type, depth + 1), max_size=size)
    if isinstance(p, param.ClassSelector):
        tags = _tagged_classes(p)
        if tags:
            return st.one_of(
                [
                    data_for(cls, depth + 1).map(lambda d, t=t: {"type": t, **d})
                    for t, cls in tags.items()
                ]
            )
        return data_for(p.class_, depth + 1)
    raise AssertionError(f"no strategy for {p}")


def fix(cls: type, data: dict) -> dict:
    """Make drawn data obey the rules that tie two fields together."""
    if cls is Encounter:
        for i, combatant in enumerate(data["combatants"]):
            combatant["side"] = data["sides"][i % len(data["sides"])]
    return data


#: ROUND_TRIP_EXAMPLES=500 for a longer search than the suite's quick one.
EXAMPLES = int(os.environ.get("ROUND_TRIP_EXAMPLES", "25"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(data_for(Character))
def test_character_round_trip(data):
    character = from_dict(Character, data)
    assert to_dict(character) == data
    for fmt in ("json", "yaml"):
        again = loads(dumps(character, fmt), fmt)
        assert to_dict(again) == data
        assert again.ki_pool == character.ki_pool
        assert (again.skill_odds == character.skill_odds).all()


@SETTINGS
@given(data_for(Creature))
def test_creature_round_trip(data):
    creature = from_dict(Creature, data)
    assert to_dict(creature) == data
    for fmt in ("json", "yaml"):
        assert to_dict(loads(dumps(creature, fmt))) == data


@settings(
    max_examples=max(EXAMPLES // 2, 1), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data_for(Encounter))
def test_encounter_round_trip(data):
    encounter = from_dict(Encounter, data)
    assert to_dict(encounter) == data
    again = loads(dumps(encounter, "yaml"))
    assert to_dict(again) == data
    assert all(c.ruleset is again.ruleset for c in again.characters)


def test_files_hold_inputs_only():
    data = to_dict(Character())
    assert "ruleset" not in data and "ki_pool" not in data and "defense_physical" not in data
    assert set(KINDS) == {"character", "creature", "encounter", "ruleset"}


def test_save_and_load_by_suffix(tmp_path):
    c = Character(name="Ash <b>", air=8)
    for suffix in (".json", ".yaml", ".yml"):
        path = save(c, tmp_path / f"ash{suffix}")
        assert to_dict(load(path)) == to_dict(c)
    assert json.loads((tmp_path / "ash.json").read_text())["schema_version"] == SCHEMA_VERSION
    assert yaml.safe_load((tmp_path / "ash.yaml").read_text())["kind"] == "character"
    with pytest.raises(ValueError, match="path must end in"):
        save(c, tmp_path / "ash.txt")


# -- invalid files -----------------------------------------------------------------------------


def bad_document() -> dict:
    data = to_dict(Character(name="Broken", stamina=2))
    data["air"] = 12
    data["atropos"] = -1
    data["moira"] = "lots"
    data["skills"][0]["tier"] = 7
    data["skills"][3]["element"] = "Metal"
    data["gifts"] = [{"name": "Blast", "kind": "psychic", "dice": 50}]
    data["conditions"] = ["Prone", "Sleepy"]
    data["favourite_colour"] = "blue"
    return {"kind": "character", "schema_version": 1, "data": data}


def test_every_bad_field_is_reported_with_its_range(monkeypatch):
    built = []
    monkeypatch.setattr(files_module, "_build", lambda *a: built.append(a))
    with pytest.raises(FileFormatError) as info:
        loads(json.dumps(bad_document()), source="broken.json")
    errors = info.value.errors
    expected = [
        "data.air: a whole number from 0 to 10, got 12",
        "data.atropos: a whole number from 0 to 10, got -1",
        "data.moira: a whole number from 0 to 10, got 'lots'",
        "data.skills[0].tier: a whole number from 0 to 4, got 7",
        "data.skills[3].element: one of ('Earth', 'Air', 'Fire', 'Water', 'Moira'), got 'Metal'",
        "data.gifts[0].dice: a whole number from 0 to 40, got 50",
        "data.gifts[0].kind: one of ('physical', 'social', 'mental'), got 'psychic'",
        "data.conditions[1]: one of ('Off Balance', 'Distracted', 'Surprised', 'Prone', "
        "'Belly Down', 'Grabbed', 'Squeezed'), got 'Sleepy'",
    ]
    for line in expected:
        assert line in errors
    assert any(e.startswith("data.favourite_colour: not a Character field") for e in errors)
    assert len(errors) == len(expected) + 1
    assert str(info.value).startswith("broken.json: 9 problems, nothing loaded")
    assert isinstance(info.value, ValueError)
    assert built == []  # nothing was built, not even partly


def test_whatever_the_sheet_can_hold_loads_back():
    # The sheet can reach these states (Add twice on the armor table, lower Stamina under the
    # Tokens held, type a short long range): the file it saves must load back as it was.
    c = Character(stamina=3, fate_tokens=10)
    c.stamina = 2  # the cap is now 7: the sheet shows the Tokens over it
    data = to_dict(c)
    data["armor"] = [
        {"name": "Vest", "zone": "body", "worn": True},
        {"name": "Plate", "zone": "body", "worn": True},  # the first worn item counts
    ]
    data["weapons"] = [{"name": "Bow", "normal_range": 60, "long_range": 20}]
    again = from_dict(Character, data)
    assert again.fate_tokens == 10
    assert [(a.zone, a.worn) for a in again.armor] == [("body", True), ("body", True)]
    assert (again.weapons[0].normal_range, again.weapons[0].long_range) == (60, 20)
    assert to_dict(from_dict(Character, to_dict(again))) == to_dict(again)


def test_field_and_cross_field_errors_are_reported_together():
    data = to_dict(Encounter())
    data["name"] = 5
    data["combatants"] = [{"side": "Nobody", "who": {"type": "creature"}}]
    with pytest.raises(FileFormatError) as info:
        from_dict(Encounter, data)
    assert info.value.errors[0].startswith("name: ")
    assert info.value.errors[1].startswith("combatants[0].side: one of the sides")


def test_a_combatant_without_a_side_takes_the_default_side():
    data = to_dict(Encounter())
    data["combatants"] = [{"who": {"type": "creature"}}]
    assert from_dict(Encounter, data).combatants[0].side == "Party"


def test_add_refuses_a_side_the_encounter_does_not_have():
    with pytest.raises(ValueError, match="side must be one of the sides"):
        Encounter().add(Creature(), side="Nobody")


@pytest.mark.parametrize("text", ["[" * 100_000, "- " * 5_000 + "x", "a: " + "[" * 20_000])
def test_deep_nesting_is_a_file_error_not_a_crash(text):
    with pytest.raises(FileFormatError, match="nested"):
        loads(text)


def test_saved_names_are_the_declared_defaults():
    data = to_dict(Encounter())
    assert data["name"] == "An encounter"
    assert data["ruleset"]["name"] == "Default (rules/000 and 004)"
    assert data["scene"]["name"] == "The scene"
    assert to_dict(Creature())["name"] == "A creature"
    assert to_dict(Encounter()) == to_dict(Encounter())  # saving twice gives the same file


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"kind": "character", "schema_version": 2, "data": {}}', "schema_version: 1, got 2"),
        ('{"kind": "spaceship", "schema_version": 1, "data": {}}', "says it holds a spaceship"),
        ('{"kind": "character", "schema_version": 1}', "data: the object's fields, got nothing"),
        ("[1, 2]", "This file holds a list, not a"),
        ('{"kind": "character", ', "JSON error on line 1, column 23"),
        ("kind: character\nschema_version: 1\ndata: [1]\n", "data: a mapping of Character"),
        (b"\xff\xfe", "UTF-8 text"),
    ],
)
def test_broken_documents(text, message):
    with pytest.raises(FileFormatError, match=message.replace("(", r"\(").replace("[", r"\[")):
        loads(text)


def test_a_missing_field_takes_its_default():
    c = loads('{"kind": "character", "schema_version": 1, "data": {"name": "Min", "air": 9}}')
    assert (c.name, c.air, c.earth, len(c.skills)) == ("Min", 9, 3, 21)


def test_kind_can_be_required():
    with pytest.raises(FileFormatError, match="This file holds a creature, not a character."):
        loads(dumps(Creature()), kind="character")


def test_encounter_sides_must_exist():
    e = Encounter()
    e.add(Creature(name="Rat"))
    data = to_dict(e)
    data["combatants"][0]["side"] = "Nobody"
    data["combatants"].append({"side": "Party", "who": {"type": "dragon"}})
    with pytest.raises(FileFormatError) as info:
        from_dict(Encounter, data)
    assert "combatants[1].who.type: one of ('character', 'creature'), got 'dragon'" in (
        info.value.errors
    )
    data["combatants"].pop()
    with pytest.raises(FileFormatError) as info:
        from_dict(Encounter, data)
    assert info.value.errors == [
        "combatants[0].side: one of the sides ('Party', 'Foes'), got 'Nobody'"
    ]


# -- the roster ---------------------------------------------------------------------------------


def test_example_roster_loads():
    roster = load_roster(ROSTER)
    names = {kind: [o.name for o in objects] for kind, objects in roster.items()}
    assert {"Ronan", "The Brick", "The Nerdy Hacker"} <= set(names["character"])
    assert len(names["creature"]) >= 3
    ronan = next(c for c in roster["character"] if c.name == "Ronan")
    assert ronan.ki_pool == 14  # Earth 6 + 8
    assert ronan.skill("Research").tier == 2
    # rules/000: the Brick "dumps 10 points into earth and ... into Soak".
    brick = next(c for c in roster["character"] if c.name == "The Brick")
    assert (brick.earth, brick.soak, brick.ki_pool) == (10, 10, 18)
    nightmare = next(c for c in roster["creature"] if c.name == "Nightmare")
    assert nightmare.attacks[0].automatic and nightmare.attacks[0].kind == "mental"
    serpent = next(c for c in roster["creature"] if c.name == "River serpent")
    assert serpent.movement_rates["swim"] == 14  # rules/001: "14m swimming"
    (warehouse,) = roster["encounter"]
    assert [side for _, side, _ in warehouse.standing].count("Party") == 3


def test_a_bad_roster_file_loads_nothing(tmp_path):
    for path in ROSTER.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "zz_broken.yaml").write_text(
        "kind: creature\nschema_version: 1\ndata: {soak: 11}\n"
    )
    (tmp_path / "zz_garbage.json").write_text("{nope")
    with pytest.raises(FileFormatError) as info:
        load_roster(tmp_path)
    assert "zz_broken.yaml: data.soak: a whole number from 0 to 10, got 11" in info.value.errors
    assert any(e.startswith("zz_garbage.json: JSON error on line 1") for e in info.value.errors)


def test_ruleset_documents():
    r = Ruleset.quick_reference()
    again = loads(dumps(r, "yaml"))
    assert again.variants_on == r.variants_on and again.boost_timing == "before"


def test_yaml_aliases_cannot_build_a_huge_sheet():
    rows = ", ".join(["*s"] * 5000)
    text = f"kind: character\nschema_version: 1\ndata:\n  descriptors: [&s {{name: x}}, {rows}]\n"
    with pytest.raises(FileFormatError, match="more than 1,000 aliases"):
        loads(text)
    rows = ", ".join(["*s"] * 500)  # few enough aliases: the list's own bound refuses it
    text = f"kind: character\nschema_version: 1\ndata:\n  descriptors: [&s {{name: x}}, {rows}]\n"
    with pytest.raises(FileFormatError, match="descriptors: a list of at most 200 entries"):
        loads(text)
