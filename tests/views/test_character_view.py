"""The character sheet view without a browser: table edits, files, escaping, the draft."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tb_playground.engine import check_odds
from tb_playground.formatting import percent
from tb_playground.models import Character, Creature, Weapon, dumps, load
from tb_playground.views import CharacterSheet
from tb_playground.views.sheet_render import attacks_html, skill_odds_html

RONAN = Path(__file__).resolve().parents[2] / "examples" / "roster" / "ronan.json"


@pytest.fixture
def sheet() -> CharacterSheet:
    return CharacterSheet(character=load(RONAN), creatures=[Creature(name="Dummy")])


def edit(editor, column: str, row: int, value) -> None:
    editor._on_edit(SimpleNamespace(column=column, row=row, value=value))


def test_a_table_edit_sets_the_row_and_the_odds_follow(sheet):
    c = sheet.character
    index = next(i for i, s in enumerate(c.skills) if s.name == "Stealth")
    edit(sheet.inputs.skills, "tier", index, "Expert")
    assert c.skill("Stealth").tier == 3
    assert c.skill_odds_at("Stealth", 4) == pytest.approx(check_odds(c.air, 4, 3).p_success)
    assert percent(check_odds(c.air, 4, 3).p_success) in sheet.odds.skill_odds.object
    edit(sheet.inputs.skills, "element", index, "Water")
    assert c.skill("Stealth").element == "Water"


def test_a_bad_table_edit_is_refused_with_its_range(sheet):
    edit(sheet.inputs.weapons, "dice", 0, 99)
    assert sheet.character.weapons[0].dice == 1
    assert "99" in sheet.inputs.weapons._message.object
    assert sheet.inputs.weapons._table.value.loc[0, "dice"] == 1


def test_rows_are_added_and_removed(sheet):
    c = sheet.character
    before = len(c.gifts)
    sheet.inputs.gifts._on_add(None)
    assert len(c.gifts) == before + 1
    assert len(sheet.inputs.gifts._table.value) == before + 1
    edit(sheet.inputs.gifts, "dice", before, 6)
    assert any(a.label.startswith("Onslaught") for a in c.attacks)
    sheet.inputs.gifts._table.selection = [before]
    sheet.inputs.gifts._on_remove(None)
    assert len(c.gifts) == before


def test_loading_a_file_in_place(sheet):
    c = sheet.character
    widgets_character = sheet.inputs.elements[1]
    other = Character(name="Ash", air=9, atropos=8)
    sheet.load_text(dumps(other, "yaml"), "ash.yaml")
    assert sheet.character is c  # the same object, so every widget stays bound
    assert (c.name, c.air, c.defense_physical, c.movement_rate) == ("Ash", 9, 2, 14)
    assert widgets_character.value == 9
    assert "Loaded <b>Ash</b>" in sheet.file.message.object
    sheet.load_text('{"kind": "character", "schema_version": 1, "data": {"air": 99}}', "x.json")
    assert c.air == 9
    assert "data.air: a whole number from 0 to 10, got 99" in sheet.file.message.object


def test_user_text_is_escaped():
    c = Character(name="<script>alert(1)</script>", weapons=[Weapon(name="<img src=x>", dice=2)])
    c.skill("Stealth").name = "<b>Sneak</b>"
    target = Creature(name="<i>Rat</i>")
    html = attacks_html(c, target, c.attack_options(target)) + skill_odds_html(c)
    assert "<img" not in html and "<b>Sneak" not in html and "<i>Rat" not in html
    assert "&lt;img src=x&gt;" in html and "&lt;i&gt;Rat&lt;/i&gt;" in html
    sheet = CharacterSheet(character=c, creatures=[target])
    sheet.load_text("kind: character\nschema_version: 1\ndata: {name: 3}\n", "<u>f</u>.yaml")
    assert "<u>" not in sheet.file.message.object


def test_derived_panes_follow_the_model_and_the_draft(sheet):
    c = sheet.character
    c.air = 8
    assert 'd-movement"><span class="v">13<' in sheet.odds.movement.object
    c.ruleset.system = "roll-over draft"
    assert "DC 14" in sheet.odds.skill_odds.object
    assert "Expected damage" in sheet.odds.attacks.object
    sheet.trained_only = True
    assert "Swimming" not in sheet.odds.skill_odds.object


def test_download_is_the_models_file(sheet):
    text = sheet.file.contents("json").getvalue().decode()
    assert text == dumps(sheet.character, "json")
    assert sheet.file.download_json.filename == "ronan.json"
    sheet.character.name = "Ronan the Second!"
    assert sheet.file.download_json.filename == "ronan_the_second.json"


def test_a_new_ruleset_rebinds_the_switches(sheet):
    from tb_playground.models import Ruleset
    from tb_playground.models.ruleset import VARIANT_SWITCHES

    old = sheet.character.ruleset
    new = Ruleset()
    sheet.character.ruleset = new
    switches = sheet.inputs.ruleset_box.objects[1:]
    switches[VARIANT_SWITCHES.index("ki_pool_from_sub_stats")].value = True  # drives the new one
    assert new.ki_pool_from_sub_stats and not old.ki_pool_from_sub_stats
    assert sheet.character.ki_pool == 8  # 2 x (Soak 5 + 3 + 4 + 4 + Atropos 3) / 5 = 7.6
    assert 'd-ki-pool"><span class="v">8<' in sheet.odds.ki.object


def test_dispose_stops_the_sheet_following_its_character():
    from tb_playground.models import Character
    from tb_playground.views.character_sheet import CharacterSheet

    c = Character(air=3)

    def watchers() -> int:
        return sum(len(w) for d in c._param__private.watchers.values() for w in d.values())

    before = watchers()
    sheet = CharacterSheet(character=c)
    live = watchers()
    shown = sheet.odds.movement.object
    c.air = 6
    assert sheet.odds.movement.object != shown  # live: Movement Rate 8 -> 11
    sheet.dispose()
    shown = sheet.odds.movement.object
    c.air = 9
    assert sheet.odds.movement.object == shown  # disposed: no longer redrawn
    # The sheet's own watchers (character, rows, ruleset) are gone; what remains are the
    # links Panel's from_param widgets keep, which go with the character.
    assert watchers() - before < (live - before) / 3


# -- issue 10: the roster picker, grouped odds rows, closed cards, plain words ------------------


def test_the_roster_picker_loads_ronan_like_an_upload():
    from tb_playground.views.sheet_file import PICK_PROMPT

    sheet = CharacterSheet(creatures=[Creature(name="Dummy")])
    c = sheet.character
    assert {"Ronan", "The Brick", "The Nerdy Hacker"} <= set(sheet.file.roster_pick.options)
    sheet.file.roster_pick.value = "Ronan"
    ronan = load(RONAN)
    assert sheet.character is c  # loaded in place, as an upload is
    assert (c.name, c.ki_pool, c.defense_physical) == ("Ronan", 14, 7)
    assert c.skill("Perception").tier == ronan.skill("Perception").tier == 1
    assert "Loaded <b>Ronan</b>" in sheet.file.message.object
    assert sheet.file.roster_pick.value == PICK_PROMPT  # ready to pick again
    # Edits stay in this sheet: a second sheet picking Ronan gets the file's values.
    c.skill("Stealth").tier = 4
    other = CharacterSheet(creatures=[Creature(name="Dummy")])
    other.load_example("Ronan")
    assert other.character.skill("Stealth").tier == ronan.skill("Stealth").tier != 4
    sheet.file.roster_pick.value = "Ronan"  # picking again restores the file's Ronan
    assert c.skill("Stealth").tier == ronan.skill("Stealth").tier


def test_the_example_roster_is_parsed_once_and_shared_read_only():
    from tb_playground.models.roster import example_roster
    from tb_playground.views.character_sheet import default_creatures

    roster = example_roster()
    assert example_roster() is roster
    names = [k.name for k in roster.creatures]
    assert "Grizzly bear" in names and not roster.problem
    first, second = CharacterSheet(), CharacterSheet()
    assert first.target is second.target is roster.creatures[0]  # one parse, shared
    assert default_creatures() == list(roster.creatures)
    assert default_creatures() is not default_creatures()  # a session's own list


def test_without_a_roster_the_sheet_falls_back(monkeypatch, tmp_path):
    import tb_playground.models.roster as er

    empty = er.read_roster(None)
    assert empty.creatures == () and "No example roster" in empty.problem
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "x.json").write_text("{not json")
    assert "could not be read" in er.read_roster(broken).problem
    monkeypatch.setattr(er, "ROSTER_DIRS", (tmp_path / "nowhere",))
    monkeypatch.setattr(er, "_cache", {})
    sheet = CharacterSheet()
    assert sheet.file.roster_pick.disabled and list(sheet.file.roster_pick.options) == [
        sheet.file.roster_pick.value
    ]
    assert [k.name for k in sheet.creatures] == [Creature().name]


@pytest.mark.server
def test_an_installed_package_carries_the_roster(tmp_path):
    """setup.py maps examples/roster to tb_playground/roster: a build holds every file."""
    import shutil
    import subprocess
    import sys

    from tb_playground.models.roster import read_roster

    root = Path(__file__).resolve().parents[2]
    src = tmp_path / "src"
    shutil.copytree(root / "tb_playground", src / "tb_playground")
    shutil.copytree(root / "examples" / "roster", src / "examples" / "roster")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(root / name, src / name)
    build = tmp_path / "build"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
        cwd=src,
        check=True,
        capture_output=True,
    )
    shipped = build / "tb_playground" / "roster"
    assert sorted(p.name for p in shipped.iterdir()) == sorted(
        p.name for p in (root / "examples" / "roster").iterdir()
    )
    roster = read_roster(shipped)
    assert "Ronan" in [f.name for f in roster.characters] and roster.creatures


def test_a_new_sheet_groups_its_untrained_skills_into_one_row():
    from tb_playground.engine import check_odds
    from tb_playground.views.sheet_render import CANNOT_UNTRAINED, skill_odds_rows

    c = Character()
    rows = skill_odds_rows(c)
    assert [r.label for r in rows] == ["Untrained (any Skill)", "Swimming"]
    group, swimming = rows
    assert len(group.skills) == len(c.skills) - 1
    assert group.odds == pytest.approx(
        [check_odds(3, d, 0).p_success for d in range(11)], abs=1e-12
    )
    assert swimming.refused == CANNOT_UNTRAINED and "Swimming can't be done untrained" in (
        swimming.refused
    )
    html = skill_odds_html(c)
    assert html.count('class="skill-row') == 2
    assert "Perception" in html and "0%" not in html.split("Swimming")[-1]


def test_trained_skills_keep_their_rows_and_every_skill_is_findable(sheet):
    from tb_playground.views.sheet_render import skill_odds_rows

    c = sheet.character
    rows = skill_odds_rows(c)
    trained = [s.name for s in c.skills if s.tier > 0]
    assert [r.skills[0] for r in rows[: len(trained)]] == trained
    assert all(len(r.skills) == 1 for r in rows[: len(trained)])
    assert sorted(n for r in rows for n in r.skills) == sorted(s.name for s in c.skills)
    for r in rows:  # each row's odds are each of its Skills' odds
        for name in r.skills:
            i = [s.name for s in c.skills].index(name)
            assert r.refused or r.odds == tuple(c.skill_odds[i])
    perception = next(r for r in rows if r.skills == ("Perception",))
    assert perception.meta == "Air 3 \u00b7 Trained"
    # Training Swimming gives it its own row of odds.
    c.skill("Swimming").tier = 1
    swimming = next(r for r in skill_odds_rows(c) if "Swimming" in r.skills)
    assert not swimming.refused and swimming.odds[5] > 0


def test_a_condition_on_one_kind_of_roll_splits_the_untrained_group():
    from tb_playground.views.sheet_render import skill_odds_rows

    c = Character()
    c.poise_lost = c.poise_max + 1  # Humiliated: Leadership and company refused; Flustered
    rows = skill_odds_rows(c)
    labels = [r.label for r in rows]
    assert "Untrained (any Skill)" not in labels
    refused = [r for r in rows if r.refused and "Humiliated" in r.refused]
    assert refused and "Leadership" in refused[0].skills
    assert "Physical Skills" not in skill_odds_html(c)  # the reason lines stay per kind
    assert "Social Skills: Disadvantage: Flustered" in skill_odds_html(c)


def test_closed_cards_say_so_and_the_ruleset_card_says_what_is_on(sheet):
    from tb_playground.views.sheet_layout import CLOSE, OPEN

    sheet.__panel__()  # the cards are made with the layout
    ruleset = next(card for card in sheet.deck.cards if "Ruleset" in card.title)
    assert ruleset.collapsed
    assert (
        ruleset.title
        == f"{OPEN} Ruleset: 20 Below (roll under), no switches on (closed: click to show)"
    )
    ruleset.collapsed = False
    assert ruleset.title.startswith(f"{CLOSE} Ruleset") and "click" not in ruleset.title
    sheet.character.ruleset.never_moira = True
    sheet._refresh_all()
    assert ruleset.title == f"{CLOSE} Ruleset: 20 Below (roll under), 1 switch on"
    skills = next(card for card in sheet.deck.cards if "Skills" in card.title)
    assert skills.title == f"{CLOSE} Skills"
    skills.collapsed = True
    assert skills.title == f"{OPEN} Skills (closed: click to show)"


def test_plain_words_in_the_tables_and_selectors(sheet):
    c = sheet.character
    assert "<td>Physical</td>" in sheet.odds.attacks.object
    assert "<td>physical</td>" not in sheet.odds.attacks.object
    assert list(sheet.inputs.gifts._table.value["kind"]) == ["Physical"]
    assert list(sheet.inputs.armor._table.value["zone"]) == ["Body"]
    edit(sheet.inputs.gifts, "kind", 0, "Mental")
    assert c.gifts[0].kind == "mental"
    assert "The strongest allowed" in sheet.odds.approach.options
    system = sheet.inputs.ruleset_box.objects[0]
    assert set(system.options) == {"20 Below (roll under)", "Roll-over draft"}


def test_the_attack_table_is_kept_per_setting_until_the_character_changes(sheet):
    from tb_playground.views.sheet_render import attack_table_html

    c = sheet.character
    calls = []
    original = c.attack_options

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    c.attack_options = counted
    shown = {}
    for boosts in (1, 2, 1, 0, 2):
        sheet.boosts = boosts
        shown.setdefault(boosts, sheet.odds.attacks.object)
        assert sheet.odds.attacks.object == shown[boosts]
    assert len(calls) == 2  # 1 and 2 computed once each; 0 was drawn when the sheet was built
    c.earth = 8  # the character changed: computed again, and the table follows
    assert len(calls) > 2 and sheet.odds.attacks.object != shown[2]
    assert sheet.odds.attacks.object == attack_table_html(c, original(sheet.target, 2, None, 0, []))


def _count_redraws(sheet: CharacterSheet) -> list:
    calls = []
    original = sheet._refresh_all

    def counted():
        calls.append(1)
        original()

    sheet._refresh_all = counted
    return calls


@pytest.mark.parametrize("fresh", [True, False], ids=["fresh", "ronan"])
def test_one_change_is_one_redraw(fresh):
    """Issue 22: an Element moved three redraws (its own and two derived updates)."""
    sheet = CharacterSheet(character=None if fresh else load(RONAN))
    calls = _count_redraws(sheet)
    c = sheet.character
    changes = [
        lambda: setattr(c, "earth", 7),  # Ki pool and Skill odds follow
        lambda: setattr(c, "earth", 2),
        lambda: setattr(c, "presence", 8),  # Defense, Poise, wall
        lambda: setattr(c, "poise_lost", 20),  # Poise to 0: a condition
        lambda: setattr(c, "poise_lost", 0),  # back: Flustered set inside the update
        lambda: setattr(c.skills[0], "tier", 3),  # inside a row: derived values only
        lambda: setattr(c.ruleset, "ki_pool_from_sub_stats", True),
        lambda: setattr(c, "name", "Someone"),
        c.end_scene,
    ]
    for change in changes:
        calls.clear()
        change()
        assert len(calls) == 1
    calls.clear()
    sheet.boosts = 2  # an attack control redraws the attack table only
    assert calls == []


def test_after_a_move_the_sheet_shows_what_the_engine_computes():
    """Every pane after a few moves equals a character computed from scratch (same file)."""
    from tb_playground.models import loads
    from tb_playground.views.sheet_render import (
        attack_table_html,
        creature_html,
        defenses_html,
        fate_html,
        ki_html,
        movement_html,
        vitals_html,
    )

    for character in (None, load(RONAN)):
        sheet = CharacterSheet(character=character)
        c = sheet.character
        for stat, value in (("earth", 4), ("earth", 5), ("moira", 6), ("psyche", 1)):
            setattr(c, stat, value)
        c.skills[1].tier = 2
        for boosts in (1, 2, 3, 2):
            sheet.boosts = boosts
        anew = loads(dumps(c, "json"), kind="character")
        assert anew.ki_pool == c.ki_pool and (anew.skill_odds == c.skill_odds).all()
        assert sheet.odds.defenses.object == defenses_html(anew)
        assert sheet.odds.vitals.object == vitals_html(anew)
        assert sheet.odds.ki.object == ki_html(anew)
        assert sheet.odds.movement.object == movement_html(anew)
        assert sheet.odds.fate.object == fate_html(anew)
        assert sheet.odds.skill_odds.object == skill_odds_html(anew)
        assert sheet.odds.creature.object == creature_html(anew, sheet.target)
        options = anew.attack_options(sheet.target, 2)
        assert sheet.odds.attacks.object == attack_table_html(anew, options)
        skill = c.skills[1]  # no condition on it: the plain check of the engine
        expected = check_odds(c.element_score(skill.element), 5, skill.tier)
        assert c.skill_odds[1, 5] == pytest.approx(float(expected.p_success), rel=1e-12)
