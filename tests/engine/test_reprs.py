"""Rich notebook reprs of the engine's results: exact fractions, plain words, no Python reprs."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pytest

from tb_playground.engine import (
    AttackProfile,
    check_odds,
    fight_odds,
    ki_value,
    roll_odds,
    to_hit_odds,
)

PYTHON_LOOK = re.compile(r"Fraction\(|array\(|np\.|\bnan\b|\binf\b|_|Odds\(|\{|\}")


class Cells(HTMLParser):
    """The text of each cell, row by row, and every other text (caption, note)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.texts: list[str] = []
        self._in_cell = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        self._in_cell = tag in ("td", "th")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._in_cell = False

    def handle_data(self, data):
        self.texts.append(data)
        if self._in_cell:
            self.rows[-1].append(data)


def plain(html: str) -> str:
    text = " ".join(Cells(html).texts)
    assert not PYTHON_LOOK.search(text), text
    return text


def test_odds_repr_keeps_its_text_form():
    # tests/engine/test_published_tables.py and the notebooks compare this text; it must not change.
    assert repr(roll_odds(11)) == (
        "Odds(target=11, advantage=+0, critical=0.0100, success=0.5500, "
        "failure=0.4400, catastrophe=0.0100)"
    )


def test_odds_html_shows_the_four_outcomes_exactly():
    odds = roll_odds(11)
    cells = Cells(odds._repr_html_())
    assert cells.rows[0] == ["Outcome", "What it counts", "Exactly", "Chance"]
    body = {row[0]: row[2:] for row in cells.rows[1:]}
    # rules/004 "What your target is worth": TN 11 succeeds 55%.
    assert body == {
        "Critical success": ["1/100", "1.0%"],
        "Success": ["11/20", "55.0%"],
        "Failure": ["11/25", "44.0%"],
        "Catastrophic failure": ["1/100", "1.0%"],
    }
    for outcome, (fraction, _) in zip(
        ("critical", "success", "failure", "catastrophe"), body.values(), strict=True
    ):
        assert Fraction(fraction) == odds.exact(outcome)
    text = plain(odds._repr_html_())
    assert "TN 11" in text and "plain roll (2d10)" in text
    # The headline numbers add to more than 100%: the note says which overlaps.
    assert "Success includes the critical successes" in text
    assert "Failure leaves out the catastrophic failures" in text
    assert (
        Fraction(body["Success"][0])
        + Fraction(body["Failure"][0])
        + Fraction(body["Catastrophic failure"][0])
        == 1
    )


def test_master_odds_html():
    # A Master at TN 11 (Element 5 + Difficulty 6): Advantage, a kept 2 or 3, the reroll.
    odds = check_odds(element=5, difficulty=6, tier=4)
    html = odds._repr_html_()
    text = plain(html)
    assert "1/1000000" in text and "&lt;0.1%" in html
    assert "A kept 2 or 3" in text and "Advantage (the lowest two of 3d10)" in text
    assert "Master&#x27;s one reroll" in html


def test_to_hit_html():
    hit = to_hit_odds(element=5, defense=6, advantage=1)
    cells = Cells(hit._repr_html_())
    body = {row[0]: Fraction(row[2]) for row in cells.rows[1:]}
    assert body["Hit"] == hit.odds.exact("success") == Fraction(157, 200)
    assert body["Critical hit"] + body["Ordinary hit"] == body["Hit"]
    assert body["Hit"] + body["Miss"] == 1
    assert body["Catastrophic failure"] == Fraction(1, 1000)
    assert float(body["Miss"]) == hit.p_miss
    text = plain(hit._repr_html_())
    assert "TN 11 (Element + Defense)" in text and "Off Balance" in text


def test_ki_value_html():
    # rules/000's Ronan: 7 dice against Soak 7, boosts of Ferocity 4.
    value = ki_value(7, 7, 4)
    cells = Cells(value._repr_html_())
    assert len(cells.rows) == 1 + 5
    for k, row in enumerate(cells.rows[1:]):
        assert row[0] == f"Boost {k + 1}"
        assert float(row[1]) == round(float(value.extra_levels[k]), 3)
        assert float(row[4]) == round(float(value.expected_levels[k + 1]), 3)
    text = plain(value._repr_html_())
    assert "With no boost: 2.100 levels expected" in text  # 7 dice x 3/10 over the wall


def test_ki_value_html_says_never_spent():
    # A wall of 10 stops every die, boosted or not: no boost is ever spent.
    text = plain(ki_value(3, 10, 0, max_boosts=2)._repr_html_())
    assert "never spent" in text


def test_fight_odds_html():
    profile = AttackProfile.from_to_hit(to_hit_odds(5, 4), dice=7, wall=7, boosts=2, bonus=4)
    fight = fight_odds(profile, maximum=6, rounds=30)
    cells = Cells(fight._repr_html_())
    assert len(cells.rows) == 1 + 12  # the first 12 rounds
    assert cells.rows[1][0] == "1"
    html = fight._repr_html_()
    text = plain(html)
    assert "the first 12 of 30 rounds" in text
    assert f"down after {fight.mean_rounds_to_down:.2f} rounds" in text
    assert np.isfinite(fight.mean_rounds_to_dead)
    assert (
        f"dead (for Poise and Sanity, at the bottom) after {fight.mean_rounds_to_dead:.2f}" in text
    )


def test_fight_odds_html_when_death_never_comes():
    # An attack that never lands never gets anywhere: both means are infinite.
    never = fight_odds(AttackProfile(dice=1, wall=0, p_hit=0.0), maximum=3, rounds=2)
    text = plain(never._repr_html_())
    assert "never certain" in text
    assert len(Cells(never._repr_html_()).rows) == 1 + 2


@pytest.mark.server
def test_reprs_keep_the_engine_free_of_param_and_panel():
    # The engine's reprs take their words from the engine and tb_playground.formatting, which
    # imports nothing of ours (neither Panel nor param).
    code = (
        "import sys\n"
        "import tb_playground.engine as e\n"
        "e.roll_odds(11)._repr_html_(); e.to_hit_odds(5, 5)._repr_html_()\n"
        "e.ki_value(3, 5, 2)._repr_html_()\n"
        "e.fight_odds(e.AttackProfile(dice=2, wall=5, p_hit=0.5), maximum=3)._repr_html_()\n"
        "print(sorted(m for m in ('param', 'panel', 'bokeh') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
