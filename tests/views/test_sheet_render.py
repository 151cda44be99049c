"""The sheet's HTML and CSV builders (``views/sheet_render``) without a page or a browser.

Each builder gets a roster character or one with hostile names: typed text is escaped in the
HTML and comes back whole from the CSV, and the CSV's numbers (parsed) are the engine's.
"""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from pathlib import Path

import numpy as np
import pytest

from tb_playground.engine import (
    check_odds,
    damage_distribution,
    ki_pool,
    movement_rate,
    roll_odds,
    versus_static,
)
from tb_playground.engine.character_stats import defenses
from tb_playground.formatting import percent
from tb_playground.models import Character, Creature, Skill, Weapon, load
from tb_playground.models.creature import StaticNumber
from tb_playground.views.sheet_render import (
    CANNOT_UNTRAINED,
    attack_odds_csv,
    attack_table_html,
    attacks_html,
    creature_html,
    defenses_html,
    fate_html,
    ki_html,
    movement_html,
    plain,
    skill_conditions_html,
    skill_odds_csv,
    skill_odds_html,
    skill_odds_rows,
    versus_card_csv,
    vitals_html,
)

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"
TOL = 1e-12

#: Text that must never reach the page as markup.
HOSTILE = '<img src=x onerror="alert(1)"> & "quoted", too'


def read(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    return reader.fieldnames, rows


def cell(html: str, css: str) -> str:
    """The value shown in the stat cell of class ``css`` (unescaped)."""
    found = re.search(rf'class="sheet-stat {re.escape(css)}"><span class="v">([^<]*)</span>', html)
    assert found, css
    return unescape(found.group(1))


@pytest.fixture(scope="module")
def hacker() -> Character:
    return load(ROSTER / "nerdy_hacker.yaml")


@pytest.fixture(scope="module")
def creature() -> Creature:
    return load(ROSTER / "grizzly_bear.yaml")


@pytest.fixture
def hostile() -> tuple[Character, Creature]:
    c = Character(name=HOSTILE, air=4)
    c.skills = [*c.skills, Skill(name=HOSTILE, element="Air", tier=2)]
    c.weapons = [Weapon(name=HOSTILE, dice=2)]
    k = Creature(name=HOSTILE, static_numbers=[StaticNumber(name=HOSTILE, value=5)])
    return c, k


def assert_escaped(html: str) -> None:
    assert "<img" not in html and 'onerror="' not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &quot;quoted&quot;" in html


# -- the derived numbers ------------------------------------------------------------------------


def test_defenses_html_shows_the_engines_defenses_and_the_walls(hacker):
    html = defenses_html(hacker)
    want = defenses(hacker.atropos, hacker.psyche, hacker.presence)
    for kind in ("physical", "social", "mental"):
        assert int(cell(html, f"d-defense-{kind}")) == want[kind]
    assert int(cell(html, "d-wall-physical")) == hacker.soak
    assert int(cell(html, "d-wall-social")) == hacker.presence
    assert int(cell(html, "d-wall-mental")) == hacker.psyche


def test_vitals_html_shows_now_of_maximum_and_the_conditions(hacker):
    c = Character()
    c.health_lost = 2
    html = vitals_html(c)
    for vital in ("health", "poise", "sanity"):
        now, maximum = (int(v) for v in cell(html, f"d-{vital}").split(" / "))
        assert (now, maximum) == (getattr(c, f"{vital}_now"), getattr(c, f"{vital}_max"))
    assert c.health_now == c.health_max - 2
    assert int(cell(html, "d-dead-at")) == c.dead_at
    assert "Conditions: none" in vitals_html(hacker)


def test_ki_html_shows_the_pool_and_the_gift_check(hacker):
    html = ki_html(hacker)
    assert int(cell(html, "d-ki-pool")) == hacker.ki_pool
    elements = [hacker.earth, hacker.air, hacker.fire, hacker.water, hacker.moira]
    assert hacker.ki_pool == ki_pool(elements, bonus=hacker.ki_bonus)  # strongest + 8
    assert int(cell(html, "d-ki-now")) == hacker.ki_now
    assert int(cell(html, "d-ki-rest")) == hacker.short_rest_ki
    assert cell(html, "d-gift-check") == percent(hacker.gift_check.p_success)
    assert f"TN {hacker.gift_check.target}" in html


def test_movement_html_shows_the_rates(hacker):
    html = movement_html(hacker)
    assert int(cell(html, "d-movement")) == movement_rate(hacker.air) == hacker.movement.rate
    assert int(cell(html, "d-sprint")) == hacker.movement.sprint
    assert float(cell(html, "d-jump")) == hacker.movement.long_jump
    assert float(cell(html, "d-travel-km")) == hacker.travel.day_km


def test_fate_html_says_over_the_cap():
    c = Character()
    assert "over the cap" not in fate_html(c)
    held, cap = (int(v) for v in cell(fate_html(c), "d-fate-held").split(" / "))
    assert (held, cap) == (c.fate_tokens, c.fate_cap)
    c.fate_tokens = c.fate_cap + 1
    assert "over the cap" in fate_html(c)


# -- Skills --------------------------------------------------------------------------------------


def test_skill_rows_and_html_escape_a_skill_name(hostile):
    c, _ = hostile
    rows = skill_odds_rows(c)
    mine = next(r for r in rows if r.skills == (HOSTILE,))
    assert mine.label == HOSTILE and mine.odds == tuple(float(p) for p in c.skill_odds[-1])
    assert any(r.refused == CANNOT_UNTRAINED for r in rows)  # Swimming, Untrained
    assert_escaped(skill_odds_html(c))
    assert [r.skills for r in skill_odds_rows(c, trained_only=True)] == [(HOSTILE,)]


def test_skill_odds_html_shows_each_chance(hacker):
    html = skill_odds_html(hacker)
    for row in skill_odds_rows(hacker):
        for p in row.odds:
            assert f">{percent(p)}</td>" in html
    assert html.count('class="skill-row') == len(skill_odds_rows(hacker))


def test_skill_conditions_html_names_the_condition():
    c = Character()
    assert skill_conditions_html(c) == ""
    c.exhausted = 1
    text = skill_conditions_html(c)
    assert "Physical Skills" in text and "Exhausted" in text


def test_skill_odds_csv_is_the_engines_for_a_roster_character(hacker):
    header, rows = read(skill_odds_csv(hacker))
    assert header[3:14] == [f"Difficulty {d}" for d in range(11)]
    assert sorted(r["Skill"] for r in rows) == sorted(s.name for s in hacker.skills)
    for r in rows:
        skill = hacker.skill(r["Skill"])
        assert (r["Element"], r["Training"]) == (skill.element, skill.tier_name)
        if r["Cannot be rolled because"]:
            assert r["Cannot be rolled because"] == CANNOT_UNTRAINED
            assert all(r[f"Difficulty {d}"] == "" for d in range(11))
            continue
        score = hacker.element_score(skill.element)
        got = np.array([float(r[f"Difficulty {d}"]) for d in range(11)])
        want = np.array([check_odds(score, d, skill.tier).p_success for d in range(11)])
        assert np.allclose(got, want, rtol=0, atol=TOL), skill.name


def test_a_skill_name_comes_back_whole_from_the_csv(hostile):
    c, _ = hostile
    _, rows = read(skill_odds_csv(c, trained_only=True))
    assert [r["Skill"] for r in rows] == [HOSTILE]


# -- attacks and the creature ---------------------------------------------------------------------


def test_attack_odds_csv_is_the_engines_for_a_roster_character(hacker, creature):
    options = hacker.attack_options(creature, 0, None, 0, [])
    header, rows = read(attack_odds_csv(hacker, options))
    assert header[:5] == ["Attack", "Kind", "Element", "Element score", "Target Number"]
    assert [r["Attack"] for r in rows] == [o.label for o in options]
    defense = {
        "physical": creature.defense_physical,
        "social": creature.defense_social,
        "mental": creature.defense_mental,
    }
    wall = {"physical": creature.soak, "social": creature.presence, "mental": creature.psyche}
    for r, o in zip(rows, options, strict=True):
        kind = o.kind
        assert r["Kind"] == plain("kind", kind)
        target = int(r["Element score"]) + defense[kind]
        assert int(r["Target Number"]) == target  # rules/000: your Element + its Defense
        odds = roll_odds(target)
        assert abs(float(r["Hit chance"]) - odds.p_success) < TOL
        assert abs(float(r["Critical chance"]) - odds.p_critical) < TOL
        levels = np.arange(o.dice + 1)
        hit = damage_distribution(o.dice, wall[kind]) @ levels
        crit = damage_distribution(o.dice, wall[kind], critical=True, klotho=hacker.klotho)
        expected = (odds.p_success - odds.p_critical) * hit + odds.p_critical * (crit @ levels)
        assert abs(float(r["Expected levels"]) - expected) < 1e-9, o.label
        assert r["Track"] == o.vital.title() and r["Cannot attack because"] == ""


def test_versus_card_csv_is_the_engines(hacker, creature):
    header, rows = read(versus_card_csv(hacker, creature))
    assert header == ["You roll", "Against its", "Its number", "Chance to succeed"]
    assert len(rows) == len(creature.static_numbers) > 0
    for r, s in zip(rows, creature.static_numbers, strict=True):
        assert (r["You roll"], r["Against its"], int(r["Its number"])) == (
            s.versus,
            s.name,
            s.value,
        )
        skill = hacker.skill(s.versus)
        want = versus_static(hacker.element_score(skill.element), s.value, skill.tier).p_success
        assert abs(float(r["Chance to succeed"]) - want) < TOL


def test_attack_and_creature_html_escape_names(hostile):
    c, k = hostile
    options = c.attack_options(k, 0, None, 0, [])
    assert_escaped(attack_table_html(c, options))
    assert_escaped(creature_html(c, k))
    assert attacks_html(c, k, options) == creature_html(c, k) + attack_table_html(c, options)
    _, rows = read(attack_odds_csv(c, options))
    assert rows[0]["Attack"].startswith(HOSTILE)
    _, rows = read(versus_card_csv(c, k))
    assert rows[0]["Against its"] == HOSTILE


def test_attack_table_html_shows_each_options_numbers(hacker, creature):
    options = hacker.attack_options(creature, 1, None, 0, [])
    html = attack_table_html(hacker, options)
    assert html.count('class="attack-row"') == len(options)
    for o in options:
        assert f"<td>{plain('kind', o.kind)}</td>" in html
        assert f'<td class="p">{o.target_number}</td>' in html
        assert f'<td class="p">{o.expected:.2f}</td>' in html


def test_plain_names_codes_and_passes_the_unknown_through():
    assert plain("kind", "physical") == "Physical"
    assert plain("approach", "best") == "The strongest allowed"
    assert plain("sub_stat", "") == "(none)"
    assert plain("kind", "no such kind") == "no such kind"
    assert plain("anything", 3) == "3"
