"""CSV round trips of every table on /odds, /damage and /character, and links (issue 11, section 3).

Each CSV is parsed back and compared with the engine's own numbers, computed here from the
engine's functions (not from the page), to 1e-12. The URL helpers: a packed character comes
back unchanged, a crafted link is refused before it can grow, and a bad query value is skipped
while the others apply.
"""

from __future__ import annotations

import csv
import io
import zlib
from pathlib import Path

import numpy as np
import pytest

from tb_playground.engine import (
    DIFFICULTY_LADDER,
    PUBLISHED_TARGETS,
    check_odds,
    damage_distribution,
    one_more_point,
    roll_odds,
    success_curve,
)
from tb_playground.engine.damage_summary import damage_grid
from tb_playground.engine.defense import attack_to_hit
from tb_playground.models import Attack, Check, load
from tb_playground.models.files import dumps, loads
from tb_playground.views.character_sheet import CharacterSheet
from tb_playground.views.damage_explorer import grid_csv, levels_csv, ronan_csv
from tb_playground.views.kit import apply_query, csv_text, pack_text, unpack_text
from tb_playground.views.odds_playground import ladder_csv, odds_csv, worth_csv
from tb_playground.views.sheet_render import attack_odds_csv, skill_odds_csv, versus_card_csv

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"
TOL = 1e-12


def read(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    return reader.fieldnames, rows


def test_csv_numbers_are_plain_and_read_back_close():
    text = csv_text(["Name", "Chance"], [("a, b", 0.1 + 0.2), ("c", 1 / 3)])
    header, rows = read(text)
    assert header == ["Name", "Chance"]
    assert rows[0] == {"Name": "a, b", "Chance": "0.3"}  # not 0.30000000000000004
    assert abs(float(rows[1]["Chance"]) - 1 / 3) < TOL


# -- /odds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("element", "difficulty", "tier", "up", "down"),
    [(5, 6, 1, 0, 0), (7, 4, 3, 1, 0), (2, 9, 0, 0, 2), (10, 10, 4, 2, 1)],
)
def test_odds_headline_csv_is_the_engines(element, difficulty, tier, up, down):
    check = Check(
        element=element,
        difficulty=difficulty,
        tier=tier,
        advantage_sources=up,
        disadvantage_sources=down,
    )
    expected = check_odds(element, difficulty, tier, up - down)
    header, rows = read(odds_csv(check.odds))
    assert header == ["Outcome", "Chance"]
    got = [float(r["Chance"]) for r in rows]
    want = [expected.p_success, expected.p_critical, expected.p_failure, expected.p_catastrophe]
    assert np.allclose(got, want, rtol=0, atol=TOL)
    assert abs(got[0] + got[2] + got[3] - 1) < TOL  # the sentence under the headline


def test_worth_and_ladder_csv():
    header, rows = read(worth_csv())
    assert header[0] == "Target" and header[-1] == "One more point adds (Normal)"
    targets = np.array(PUBLISHED_TARGETS)
    assert [int(r["Target"]) for r in rows] == list(targets)
    for sign, name in ((-1, "Disadvantage"), (0, "Normal"), (1, "Advantage")):
        got = [float(r[f"{name} chance"]) for r in rows]
        assert np.allclose(got, success_curve(targets, sign), rtol=0, atol=TOL)
    step = [float(r["One more point adds (Normal)"]) for r in rows]
    assert np.allclose(step, one_more_point(targets), rtol=0, atol=TOL)
    # rules/004 "What Your Target Is Worth": TN 11 is 55% for a Normal roll.
    assert rows[list(targets).index(11)]["Normal chance"] == "0.55"
    header, rows = read(ladder_csv())
    assert header == ["Difficulty", "Name", "Something that hard"]
    assert [(int(r["Difficulty"]), r["Name"]) for r in rows] == [
        (d, name) for d, (name, _) in enumerate(DIFFICULTY_LADDER)
    ]


# -- /damage -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"weapon_rating": 6, "target_wall": 5, "boosts": 2, "bonus": 3},
        {"dice_source": "gift", "gift_dice": 9, "target_wall": 8, "klotho": 6, "boosts": 1},
    ],
)
def test_levels_csv_is_the_engines(settings):
    attack = Attack(**settings)
    header, rows = read(levels_csv(attack))
    assert header[0] == "Levels"
    dice, wall = attack.dice, attack.target_wall
    args = (attack.boosts, attack.bonus, attack.timing)
    hit = damage_distribution(dice, wall, *args)
    crit = damage_distribution(dice, wall, *args, critical=True, klotho=attack.klotho)
    odds = attack_to_hit(attack.kind, attack.element, attack.target_defense_stat,
                         element_name=attack.approach)  # fmt: skip
    # Per attack: a miss deals 0, an ordinary hit ``hit``, a critical ``crit``.
    p_plain = odds.p_hit - odds.p_critical
    per_attack = p_plain * hit + odds.p_critical * crit
    per_attack[0] += 1 - odds.p_hit
    for column, want in (
        ("Chance on an ordinary hit", hit),
        ("Chance on a critical hit", crit),
        ("Chance per attack", per_attack),
    ):
        got = [float(r[column]) for r in rows]
        assert np.allclose(got, want, rtol=0, atol=TOL), column
    assert [int(r["Levels"]) for r in rows] == list(range(dice + 1))


@pytest.mark.parametrize("statistic", ["expected", "any"])
def test_grid_csv_is_the_engines(statistic):
    attack = Attack(boosts=2, bonus=4)
    header, rows = read(grid_csv(attack, statistic))
    assert header[:2] == ["Dice", "Wall"]
    grid = damage_grid(statistic, 12, 2, 4, attack.timing)
    assert len(rows) == grid.size
    for r in rows:
        assert abs(float(r[header[2]]) - grid[int(r["Dice"]) - 1, int(r["Wall"])]) < TOL


def test_ronan_csv_is_the_books_example():
    header, rows = read(ronan_csv())
    assert header == ["Levels", "Chance"]
    dist = damage_distribution(7, 7, critical=True, klotho=4)
    # rules/000, "Critical hits": "7 dice, divided by 2 is 3.5. Round it up and you have 4."
    assert [int(r["Levels"]) for r in rows] == list(range(4, 8))
    assert np.allclose([float(r["Chance"]) for r in rows], dist[4:], rtol=0, atol=TOL)
    assert abs(sum(float(r["Chance"]) for r in rows) - 1) < TOL


# -- /character ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sheet() -> CharacterSheet:
    return CharacterSheet(character=load(ROSTER / "ronan.json"))


def test_skill_odds_csv_is_the_engines(sheet):
    c = sheet.character
    header, rows = read(skill_odds_csv(c))
    assert header[:3] == ["Skill", "Element", "Training"]
    assert header[3:14] == [f"Difficulty {d}" for d in range(11)]
    assert len(rows) == len(c.skills)  # every Skill, grouped rows spelled out
    for r in rows:
        skill = c.skill(r["Skill"])
        if r["Cannot be rolled because"]:
            assert skill.name == "Swimming" and skill.tier == 0
            continue
        element = getattr(c, skill.element.lower())
        for d in range(11):  # check_odds adds the tier's own Advantage (Adept and up)
            want = check_odds(element, d, skill.tier).p_success
            assert abs(float(r[f"Difficulty {d}"]) - want) < TOL, (skill.name, d)
    trained = read(skill_odds_csv(c, trained_only=True))[1]
    assert {r["Skill"] for r in trained} == {s.name for s in c.skills if s.tier > 0}


def test_attack_and_card_csv_are_the_engines(sheet):
    c = sheet.character
    header, rows = read(attack_odds_csv(c, sheet.attack_options()))
    assert header[:5] == ["Attack", "Kind", "Element", "Element score", "Target Number"]
    onslaught = next(r for r in rows if r["Attack"].startswith("Onslaught"))
    target = sheet.target
    # rules/000: the creature's Defense plus your Element is your TN; Ronan attacks with Earth.
    odds = roll_odds(c.earth + target.defense_physical)
    assert int(onslaught["Target Number"]) == c.earth + target.defense_physical
    assert abs(float(onslaught["Hit chance"]) - odds.p_success) < TOL
    assert abs(float(onslaught["Critical chance"]) - odds.p_critical) < TOL
    fists = next(r for r in rows if r["Attack"] == "Fists (1 die)")
    hit = damage_distribution(1, target.soak)
    crit = damage_distribution(1, target.soak, critical=True, klotho=c.klotho)
    expected = (odds.p_success - odds.p_critical) * (hit @ np.arange(2)) + odds.p_critical * (
        crit @ np.arange(2)
    )
    assert abs(float(fists["Expected levels"]) - expected) < TOL
    header, rows = read(versus_card_csv(c, target))
    assert header == ["You roll", "Against its", "Its number", "Chance to succeed"]
    assert len(rows) == len(target.static_numbers)
    for r, s in zip(rows, target.static_numbers, strict=True):
        assert abs(float(r["Chance to succeed"]) - c.versus_card(s.versus, s.value)) < TOL


# -- links ---------------------------------------------------------------------------------------


def test_a_packed_character_comes_back_unchanged():
    ronan = load(ROSTER / "ronan.json")
    text = dumps(ronan, "json")
    token = pack_text(text)
    assert len(token) < 2000 and all(ch.isalnum() or ch in "-_" for ch in token)
    back = loads(unpack_text(token), kind="character")
    assert dumps(back, "json") == text


def test_a_crafted_link_is_refused_before_it_grows():
    import base64

    bomb = base64.urlsafe_b64encode(zlib.compress(b"{" * 50_000_000, 9)).decode().rstrip("=")
    assert len(bomb) < 100_000
    with pytest.raises(ValueError, match="longer than"):
        unpack_text(bomb)
    for bad in ("not base64 at all!", "eNo", pack_text("x")[:-3] + "$$$"):
        with pytest.raises(ValueError):
            unpack_text(bad)


def test_a_bad_query_value_is_skipped_and_the_others_apply():
    check = Check()
    keys = {"element": "element", "difficulty": "difficulty", "tier": "tier"}
    refused = apply_query(check, keys, {"element": 99, "difficulty": 4.0, "tier": "x"})
    assert refused == ["element", "tier"]
    assert (check.element, check.difficulty, check.tier) == (Check().element, 4, Check().tier)
    attack = Attack()
    apply_query(
        attack,
        {"kind": "kind", "approach": "approach", "target_conditions": "is"},
        {"kind": "social", "approach": "Fire", "is": ["Prone"]},
    )
    assert (attack.kind, attack.approach, attack.target_conditions) == ("social", "Fire", ["Prone"])
