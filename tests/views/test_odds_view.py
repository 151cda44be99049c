"""The playground view without a browser: its panes say what the engine says."""

from __future__ import annotations

import html
import re

import pytest

from tb_playground.engine import check_odds
from tb_playground.formatting import percent
from tb_playground.models import Check
from tb_playground.views import OddsPlayground


def shown_percentages(view: OddsPlayground) -> list[str]:
    found = re.findall(r'<span class="pct"[^>]*>([^<]+)</span>', view._headline.object)
    return [html.unescape(text) for text in found]


def test_headline_follows_every_parameter():
    view = OddsPlayground()
    check = view.check
    for changes in (
        {"element": 8},
        {"difficulty": 2},
        {"tier": 0},
        {"tier": 3},
        {"advantage_sources": 2},
        {"disadvantage_sources": 3},
        {"tier": 4, "element": 10, "difficulty": 10},
    ):
        check.param.update(**changes)
        odds = check_odds(
            check.element,
            check.difficulty,
            check.tier,
            check.advantage_sources - check.disadvantage_sources,
        )
        assert shown_percentages(view) == [
            percent(odds.p_success),
            percent(odds.p_critical),
            percent(odds.p_failure),
            percent(odds.p_catastrophe),
        ]
        # Outside a server the plots follow at once.
        assert view.plotted_odds is check.odds


def test_summary_names_the_tier_even_when_the_odds_do_not_change():
    # Trained with one Advantage source and Adept with none roll the same dice: same Odds.
    view = OddsPlayground(check=Check(tier=1, advantage_sources=1))
    before = view.check.odds
    view.check.param.update(tier=2, advantage_sources=0)
    assert view.check.odds is before
    assert "Adept" in view._summary.object
    assert "Trained" not in view._summary.object


def test_master_catastrophe_is_rare_not_impossible():
    view = OddsPlayground(check=Check(tier=4))
    assert shown_percentages(view)[3] == "<0.1%"
    assert "rerolled once" in view._summary.object


@pytest.mark.parametrize(
    ("p", "text"),
    [(0.0, "0%"), (0.0001, "<0.1%"), (0.55, "55.0%"), (0.99995, ">99.9%"), (1.0, "100%")],
)
def test_percent_format(p, text):
    assert percent(p) == text


def test_ladder_highlights_the_difficulty():
    view = OddsPlayground(check=Check(difficulty=0))
    assert re.search(
        r'<tr class="current"><td>0</td><td>Nearly Impossible</td>', view._ladder.object
    )
    view.check.difficulty = 10
    assert re.search(r'<tr class="current"><td>10</td><td>Trivial</td>', view._ladder.object)
