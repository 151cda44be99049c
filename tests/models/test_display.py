"""One table of display names (models/names.py): every code name has plain words; formatting.py."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from tb_playground import engine, formatting, lab
from tb_playground.engine import conditions as engine_conditions
from tb_playground.models import names
from tb_playground.models import ruleset as ruleset_module
from tb_playground.models.attack import SLOW_ACTIONS

# Every tuple of code names the engine and models hand out, with the kind that names it.
CODE_NAMES = [
    ("ki_policy", engine.KI_POLICIES),
    ("bracket_policy", lab.BRACKET_POLICIES),
    ("target_policy", lab.TARGET_POLICIES),
    ("boost_policy", lab.BOOST_POLICIES),
    ("fight_end", lab.ENDS),
    ("attack_kind", engine.ATTACK_KINDS),
    ("roll_kind", engine.ROLL_KINDS),
    ("dice_source", engine.DICE_SOURCES),
    ("element", engine.ELEMENTS),
    ("element", tuple(e.lower() for e in engine.ELEMENTS)),
    ("element", tuple(range(len(engine.ELEMENTS)))),
    ("outcome", engine.OUTCOMES),
    ("outcome", engine.CHASE_RESULTS),
    ("tier", engine.TIER_NAMES),
    ("tier", tuple(range(len(engine.TIER_NAMES)))),
    ("condition", engine.CONDITIONS),
    ("condition", engine.SET_CONDITIONS),
    ("condition", engine.TURN_CONDITIONS),
    ("bracket", engine.BRACKETS),
    ("timing", engine.TIMINGS),
    ("zone", engine.ZONES),
    ("vital", engine.VITALS),
    ("state", tuple(sorted({s for states in engine.STATE_NAMES.values() for s in states}))),
    ("grid_statistic", engine.GRID_STATISTICS),
    ("advantage", (-1, 0, 1)),
    ("slow_action", SLOW_ACTIONS),
    ("reach", engine_conditions.REACHES),
    ("cover", engine_conditions.COVERS),
    ("weapon_range", engine_conditions.WEAPON_RANGES),
    ("switch", ruleset_module.SWITCHES),
    ("system", ruleset_module.SYSTEMS),
]

CODE_LOOK = re.compile(r"[_`]|\(\)|\w=|^'|'$|\{|\}|Fraction|rules/\d")


@pytest.mark.parametrize(("kind", "keys"), CODE_NAMES, ids=lambda v: str(v)[:30])
def test_every_code_name_has_plain_words(kind, keys):
    assert keys, f"no keys for {kind}"
    for key in keys:
        words = names.name(kind, key)
        assert words and words.strip() == words
        assert not CODE_LOOK.search(words), f"{kind} {key!r} -> {words!r} looks like code"
        assert words[0].isupper() or words[0].isdigit(), f"{kind} {key!r} -> {words!r}"


def test_switch_names_are_the_ruleset_sentences():
    # Not duplicated: the very sentences models/ruleset.py shows.
    for key in ruleset_module.SWITCHES:
        assert names.name("switch", key) == ruleset_module.SWITCH_SENTENCES[key]


def test_the_names_the_issue_asks_for():
    assert names.label_for("element", "water", 5) == "Water: 5"
    assert names.label_for("element", 3, 5) == "Water: 5"
    assert names.name("ki_policy", "none") == "Never"
    assert names.name("ki_policy", "all") == "Every level while Ki lasts"
    assert names.name("ki_policy", "stay_up") == "Just enough to stay up"
    assert names.name("ki_policy", "stay_alive") == "Just enough to stay alive"
    assert names.name("attack_kind", "physical") == "Physical"
    assert names.name("slow_action", "called_shot") == "Called Shot"
    assert names.name("tier", 2) == "Adept"
    assert names.label_for("bracket", "slow") == "Slow"


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("ki_policy", "sometimes"),
        ("element", "Aether"),
        ("element", 5),
        ("tier", True),
        ("outcome", None),
        ("nonsense", "x"),
        ("switch", "no_such_switch"),
    ],
)
def test_an_unknown_name_is_a_value_error_that_says_what_is_known(kind, key):
    with pytest.raises(ValueError) as error:
        names.name(kind, key)
    assert not isinstance(error.value, KeyError)
    message = str(error.value)
    assert kind in message
    if kind == "ki_policy":
        assert "stay_up" in message and "sometimes" in message


def test_percent_and_fraction_text():
    assert formatting.percent(Fraction(11, 20)) == "55.0%"
    assert formatting.percent(Fraction(1, 1_000_000)) == "<0.1%"
    assert formatting.percent(Fraction(999_999, 1_000_000)) == ">99.9%"
    assert formatting.percent(0) == "0%" and formatting.percent(1) == "100%"
    assert formatting.fraction_text(Fraction(11, 20)) == "11/20"
    assert formatting.fraction_text(Fraction(1)) == "1"


def test_tables_escape_what_they_show():
    table = formatting.Table(["Skill", "D5"], [["<b>Ronan's</b>", "64.0%"]], caption="A & B")
    html = table._repr_html_()
    assert "&lt;b&gt;Ronan&#x27;s&lt;/b&gt;" in html and "<b>" not in html
    assert "A &amp; B" in html
    assert repr(table).splitlines() == [
        "A & B",
        "Skill" + " " * 9 + "  " + "   D5",
        "<b>Ronan's</b>  64.0%",
    ]
    with pytest.raises(ValueError, match="2 cells"):
        formatting.Table(["a", "b"], [["only one"]])


def test_odds_grid_writes_percentages():
    grid = formatting.odds_grid(["Perception"], [5, 6], [[0.64, 0.72]], corner="Skill")
    assert grid.header == ["Skill", "5", "6"]
    assert grid.rows == [["Perception", "64.0%", "72.0%"]]


def test_whole_percents_never_say_certain_or_impossible_when_not():
    """The menu's odds (digits=0): 0.996 is ">99%", not "100%"; 0.004 is "<1%", not "0%"."""
    assert formatting.percent(0.64, 0) == "64%"
    assert formatting.percent(0.996, 0) == ">99%"
    assert formatting.percent(0.004, 0) == "<1%"
    assert formatting.percent(0, 0) == "0%" and formatting.percent(1, 0) == "100%"
    assert formatting.percent(Fraction(9995, 10_000)) == ">99.9%"  # 99.95 rounds to 100.0
