"""The ruleset badge: every page says which switches are on, in plain words."""

from __future__ import annotations

import re

from tb_playground.models import Attack, Character, Ruleset
from tb_playground.views import character_page, damage_page, odds_page
from tb_playground.views.ruleset_badge import RulesetBadge, badge_text


def test_badge_text():
    assert badge_text(Ruleset()) == "**Rules:** as written (no optional reading switched on)"
    one = badge_text(Ruleset(deception_water=True))
    assert one == "**Rules:** 1 switch on — Deception rolls Water, not Fire."
    two = badge_text(Ruleset(never_moira=True, criticals_outrank=True))
    assert two.startswith("**Rules:** 2 switches on — ")
    assert "Moira never carries an attack." in two and "critical beats" in two
    assert not re.search(r"[a-z]_[a-z]", two)  # no code names
    assert "roll-over draft" in badge_text(Ruleset.roll_over_draft())


def test_badge_follows_its_owner_and_the_switches():
    c = Character()
    badge = RulesetBadge(owner=c)
    assert "as written" in badge.text
    c.ruleset.flustered_shaken_off = True
    assert "1 switch on" in badge.text and "Flustered" in badge.text
    c.ruleset = Ruleset.quick_reference()
    assert "12 switches on" in badge.text
    old = c.ruleset
    badge.dispose()
    old.never_moira = False
    assert "12 switches on" in badge.text  # no longer watching
    a = Attack()
    assert "as written" in RulesetBadge(owner=a).text
    assert "as written" in RulesetBadge().text


def _badges(page):
    """The badge lines on a page (a template holds the badge's Markdown pane)."""
    found = []
    for top in page.main:  # the badge may sit in the page's card (issue 34): look inside too
        for obj in top.select(lambda o: "ruleset-badge" in getattr(o, "css_classes", [])):
            if "Rules:" in str(getattr(obj, "object", "")) and obj not in found:
                found.append(obj)
    return found


def test_every_page_shows_a_badge():
    for page in (odds_page(), damage_page(), character_page()):
        assert len(_badges(page)) == 1


def test_the_badge_names_no_file():
    """Issue 34: "Rules: default reading (rules/000 and 004)" named files, not rules."""
    for ruleset in (Ruleset(), Ruleset.roll_over_draft()):
        assert "rules/" not in badge_text(ruleset)
