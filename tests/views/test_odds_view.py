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


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_the_page_states_the_rule_in_words_next_to_the_numbers():
    """Issue 34: "at or under", "low is good", keep the lowest two, critical and catastrophe."""
    view = OddsPlayground()
    rule = _text(view._rule.object)
    assert "at or under your Target Number" in rule and "Low is good." in rule
    assert "Target Number is 11 = Element 5 + Difficulty 6" in rule
    assert "a higher Element" in rule
    assert "critical success" in rule and "catastrophe" in rule
    view.check.advantage_sources = 1
    assert "keep the lowest two" in _text(view._rule.object)
    view.check.param.update(advantage_sources=0, disadvantage_sources=2)
    assert "keep the highest two" in _text(view._rule.object)
    view.check.tier = 0
    assert "the Difficulty alone" in _text(view._rule.object)
    view.check.tier = 3
    assert "A total of 2 or 3 is a critical success" in _text(view._rule.object)
    view.check.tier = 4
    assert "rerolls it once" in _text(view._rule.object)


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "tier", "said"),
    [
        (0, 0, 1, "0 Advantage and 0 Disadvantage: a normal roll."),
        (1, 0, 1, "1 Advantage and 0 Disadvantage: net Advantage."),
        (2, 2, 1, "2 Advantage and 2 Disadvantage: they cancel out: a normal roll."),
        (10, 0, 1, "Advantage is on or off"),
        (0, 1, 2, "1 Advantage (1 from your tier) and 1 Disadvantage: they cancel out"),
        (1, 3, 1, "net Disadvantage. More than one net source changes nothing"),
    ],
)
def test_advantage_sources_show_what_cancels_and_the_net_roll(advantage, disadvantage, tier, said):
    """Issue 34: 1, 3 or 10 sources give the same odds; the page says why (rules/004:30)."""
    view = OddsPlayground()
    view.check.param.update(
        advantage_sources=advantage, disadvantage_sources=disadvantage, tier=tier
    )
    assert said in _text(view._sources.object)


def test_the_answer_comes_before_the_controls_in_the_page():
    """Issue 34: a phone shows the page in order, so the odds come first (wide: side by side)."""
    layout = OddsPlayground().__panel__()
    first_row = layout[0]
    assert "odds-answer" in first_row[0].css_classes
    assert "odds-controls" in first_row[1].css_classes
