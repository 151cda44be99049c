"""The character sheet view without a browser: table edits, files, escaping, the draft."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tb_playground.engine import check_odds
from tb_playground.models import Character, Creature, Weapon, dumps, load
from tb_playground.views import CharacterSheet
from tb_playground.views.character_sheet import attacks_html, skill_odds_html
from tb_playground.views.format import percent

RONAN = Path(__file__).resolve().parents[1] / "examples" / "roster" / "ronan.json"


@pytest.fixture
def sheet() -> CharacterSheet:
    return CharacterSheet(character=load(RONAN), creatures=[Creature(name="Dummy")])


def edit(editor, column: str, row: int, value) -> None:
    editor._on_edit(SimpleNamespace(column=column, row=row, value=value))


def test_a_table_edit_sets_the_row_and_the_odds_follow(sheet):
    c = sheet.character
    index = next(i for i, s in enumerate(c.skills) if s.name == "Stealth")
    edit(sheet._skills, "tier", index, "Expert")
    assert c.skill("Stealth").tier == 3
    assert c.skill_odds_at("Stealth", 4) == pytest.approx(check_odds(c.air, 4, 3).p_success)
    assert percent(check_odds(c.air, 4, 3).p_success) in sheet._skill_odds.object
    edit(sheet._skills, "element", index, "Water")
    assert c.skill("Stealth").element == "Water"


def test_a_bad_table_edit_is_refused_with_its_range(sheet):
    edit(sheet._weapons, "dice", 0, 99)
    assert sheet.character.weapons[0].dice == 1
    assert "99" in sheet._weapons._message.object
    assert sheet._weapons._table.value.loc[0, "dice"] == 1


def test_rows_are_added_and_removed(sheet):
    c = sheet.character
    before = len(c.gifts)
    sheet._gifts._on_add(None)
    assert len(c.gifts) == before + 1
    assert len(sheet._gifts._table.value) == before + 1
    edit(sheet._gifts, "dice", before, 6)
    assert any(a.label.startswith("Onslaught") for a in c.attacks)
    sheet._gifts._table.selection = [before]
    sheet._gifts._on_remove(None)
    assert len(c.gifts) == before


def test_loading_a_file_in_place(sheet):
    c = sheet.character
    widgets_character = sheet._elements[1]
    other = Character(name="Ash", air=9, atropos=8)
    sheet.load_text(dumps(other, "yaml"), "ash.yaml")
    assert sheet.character is c  # the same object, so every widget stays bound
    assert (c.name, c.air, c.defense_physical, c.movement_rate) == ("Ash", 9, 2, 14)
    assert widgets_character.value == 9
    assert "Loaded <b>Ash</b>" in sheet._file_message.object
    sheet.load_text('{"kind": "character", "schema_version": 1, "data": {"air": 99}}', "x.json")
    assert c.air == 9
    assert "data.air: a whole number from 0 to 10, got 99" in sheet._file_message.object


def test_user_text_is_escaped():
    c = Character(name="<script>alert(1)</script>", weapons=[Weapon(name="<img src=x>", dice=2)])
    c.skill("Stealth").name = "<b>Sneak</b>"
    target = Creature(name="<i>Rat</i>")
    html = attacks_html(c, target, c.attack_options(target)) + skill_odds_html(c)
    assert "<img" not in html and "<b>Sneak" not in html and "<i>Rat" not in html
    assert "&lt;img src=x&gt;" in html and "&lt;i&gt;Rat&lt;/i&gt;" in html
    sheet = CharacterSheet(character=c, creatures=[target])
    sheet.load_text("kind: character\nschema_version: 1\ndata: {name: 3}\n", "<u>f</u>.yaml")
    assert "<u>" not in sheet._file_message.object


def test_derived_panes_follow_the_model_and_the_draft(sheet):
    c = sheet.character
    c.air = 8
    assert 'd-movement"><span class="v">13<' in sheet._movement.object
    c.ruleset.system = "roll-over draft"
    assert "DC 14" in sheet._skill_odds.object
    assert "Expected damage" in sheet._attacks.object
    sheet.trained_only = True
    assert "Swimming" not in sheet._skill_odds.object


def test_download_is_the_models_file(sheet):
    text = sheet._file("json").getvalue().decode()
    assert text == dumps(sheet.character, "json")
    assert sheet._download_json.filename == "ronan.json"
    sheet.character.name = "Ronan the Second!"
    assert sheet._download_json.filename == "ronan_the_second.json"


def test_a_new_ruleset_rebinds_the_switches(sheet):
    from tb_playground.models import Ruleset
    from tb_playground.models.ruleset import VARIANT_SWITCHES

    old = sheet.character.ruleset
    new = Ruleset()
    sheet.character.ruleset = new
    switches = sheet._ruleset_box.objects[1:]
    switches[VARIANT_SWITCHES.index("ki_pool_from_sub_stats")].value = True  # drives the new one
    assert new.ki_pool_from_sub_stats and not old.ki_pool_from_sub_stats
    assert sheet.character.ki_pool == 8  # 2 x (Soak 5 + 3 + 4 + 4 + Atropos 3) / 5 = 7.6
    assert 'd-ki-pool"><span class="v">8<' in sheet._ki.object


def test_dispose_stops_the_sheet_following_its_character():
    from tb_playground.models import Character
    from tb_playground.views.character_sheet import CharacterSheet

    c = Character(air=3)

    def watchers() -> int:
        return sum(len(w) for d in c._param__private.watchers.values() for w in d.values())

    before = watchers()
    sheet = CharacterSheet(character=c)
    live = watchers()
    shown = sheet._movement.object
    c.air = 6
    assert sheet._movement.object != shown  # live: Movement Rate 8 -> 11
    sheet.dispose()
    shown = sheet._movement.object
    c.air = 9
    assert sheet._movement.object == shown  # disposed: no longer redrawn
    # The sheet's own watchers (character, rows, ruleset) are gone; what remains are the
    # links Panel's from_param widgets keep, which go with the character.
    assert watchers() - before < (live - before) / 3
