"""The rules lab page (/lab) in Debian's Chromium: a shared link reproduces the view.

One page load at 390 px: the switch, an input, the dice system and the Advantage level come
from the URL (``pn.state.location.sync``); the controls show them, the biggest change of the
curve equals a brute-force count over d10 faces done here, and the page is exactly as wide as
the viewport (no sideways scroll).
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from tb_playground.views import lab_page

pytestmark = pytest.mark.ui


def p_success(target: int, keep_lowest: bool) -> Fraction:
    """At or under the TN (a kept 2 always succeeds, a kept 20 always fails); 2d10, or the
    lowest two of 3d10 (Advantage), every face enumerated."""
    n = 3 if keep_lowest else 2
    hits = 0
    for roll in itertools.product(range(1, 11), repeat=n):
        total = sum(sorted(roll)[:2])
        hits += total == 2 or (total <= target and total != 20)
    return Fraction(hits, 10**n)


def test_a_shared_link_reproduces_the_view_at_390_px(page, serve):
    page.set_viewport_size({"width": 390, "height": 844})
    url = serve(lab_page, "lab")
    page.goto(f"{url}?switch=advantage_from_expert&element=4&system=roll-over+draft&level=-2")

    # the controls show the link's settings, in plain words
    expect(page.locator(".lab-switch select option:checked")).to_have_text(
        "Training Advantage from Expert"
    )
    expect(page.locator(".lab-help")).to_contain_text("an Expert or Master Skill Training Tier")
    expect(page.get_by_text("Element: 4")).to_be_visible()
    expect(page.locator(".lab-system .bk-btn.bk-active")).to_have_text("Roll-over draft")
    expect(page.locator(".lab-level select option:checked")).to_have_text("2 Disadvantages")
    expect(page.locator(".lab-overall")).to_contain_text("2 Disadvantages: one bonus shift")

    # one number, computed here: an Adept (Element 4) rolls at Advantage by default, plainly
    # under the switch; the biggest change over Difficulty 0..10
    changes = {
        d: p_success(4 + d, False) - p_success(4 + d, True) for d in range(11)
    }  # fmt: skip
    d = max(changes, key=lambda k: (abs(changes[k]), -k))
    before, after = p_success(4 + d, True), p_success(4 + d, False)
    expected = (
        f"Difficulty {d}, {100 * float(before):.1f}% → {100 * float(after):.1f}% "
        f"({100 * float(after - before):+.1f} percentage points)"
    )
    biggest = page.locator(".lab-change-0 .lab-biggest")
    expect(biggest).to_contain_text(expected)

    # the page is exactly as wide as the phone
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths == [390, 390]
    assert re.search(r"switch=advantage_from_expert", page.url)
