"""The odds as the dice land, as the step shows them (issue 23, item 5), without a browser.

The numbers in ``dice_landing.dice_landing_html`` (its exact ``data-p`` values and its printed
percentages, read back with a tolerance) equal brute-force enumeration over the faces still to
come (itertools over d10 faces, ``read_core_roll`` and ``roll_levels``); the odds of a typed
prefix are made once per table version; someone not shown the odds sees none.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

import numpy as np
import pytest
from table_helpers import encounter, roster, soak7, start_and_declare

from tb_playground.engine import vital_step
from tb_playground.engine.damage import roll_levels
from tb_playground.engine.roll_reading import dice_needed, read_core_roll
from tb_playground.service import CombatService
from tb_playground.views.combat import dice_landing
from tb_playground.views.combat.dice_landing import (
    dice_landing_html,
    dice_of,
    problem,
    typed_so_far,
)


@pytest.fixture
def service(tmp_path):
    return CombatService(tmp_path / "t.sqlite", gm_key="secret-key-for-tests")


def _attack(service):
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7(health=8)])
    t = service.create("Landing", enc)
    start_and_declare(t, {})
    while t.state["up"] != "ronan":
        t.apply({"type": "end_turn"})
    t.apply({"type": "attack", "attacker": "ronan", "target": "opponent"})
    return t


def _shown(html: str) -> dict[str, tuple[float, float]]:
    """Each chance shown: its class -> (exact ``data-p``, the printed percentage / 100)."""
    out = {}
    for css, exact, printed in re.findall(
        r'<b class="(l-[a-z]+)" data-p="([^"]+)">([^<]+)</b>', html
    ):
        number = re.search(r"[\d.]+", printed)
        value = float(number.group()) / 100 if number else 0.0
        out[css] = (float(exact), value)
    return out


def _close(shown: tuple[float, float], expected: float) -> None:
    exact, printed = shown
    assert exact == pytest.approx(expected, abs=1e-12)
    assert printed == pytest.approx(expected, abs=0.0006)  # one decimal place, "<0.1%"


def _brute_hit(typed, tn, advantage):
    seen = Counter()
    for rest in itertools.product(range(1, 11), repeat=dice_needed(advantage) - len(typed)):
        seen[read_core_roll([*typed, *rest], tn, advantage).outcome] += 1
    total = sum(seen.values())
    return {
        "l-hit": (seen["critical"] + seen["success"]) / total,
        "l-critical": seen["critical"] / total,
        "l-catastrophe": seen["catastrophe"] / total,
    }


def test_the_to_hit_odds_shown_after_each_die(service):
    t = _attack(service)
    p = t.state["pending"]
    view_p = t.view_for("player", "ronan")["pending"]
    count = dice_of(view_p)
    assert count == dice_needed(p["advantage"])
    prefixes = [[f] for f in range(1, 11)] + [[3, 9], [10, 10], [1, 1]]
    for typed in prefixes:
        odds = dice_landing.dice_landing_odds(service, t, "player", "ronan", typed)
        shown = _shown(dice_landing_html(odds, count))
        for css, expected in _brute_hit(typed, p["tn"], p["advantage"]).items():
            _close(shown[css], expected)
        assert "l-down" in shown
        assert f"({len(typed)} of {count} dice typed)" in dice_landing_html(odds, count)


def _brute_levels(typed, p, boosts):
    out = np.zeros(p["dice"] + 1)
    rests = list(itertools.product(range(1, 11), repeat=p["dice"] - len(typed)))
    for rest in rests:
        levels, _ = roll_levels([*typed, *rest], p["wall"], boosts, p["bonus"], p["timing"])
        out[levels] += 1
    return out / len(rests)


def test_the_damage_odds_shown_after_each_die(service):
    t = _attack(service)
    t.apply({"type": "roll", "faces": [2] * dice_needed(t.state["pending"]["advantage"])})
    p = t.state["pending"]
    assert p["step"] == "damage" and not p["critical"]
    assert dice_of(t.view_for("gm")["pending"]) == p["dice"]
    boosts = min(t.state["combatants"]["ronan"]["ki"], p["dice"])
    target = t.state["combatants"]["opponent"]
    for k in range(1, p["dice"] + 1):
        typed = [(3 * i + 5) % 10 + 1 for i in range(k)]
        odds = dice_landing.dice_landing_odds(service, t, "gm", None, typed)
        html = dice_landing_html(odds, p["dice"])
        levels = _brute_levels(typed, p, boosts)
        # The bars' percentages, one per level count, read back.
        row = re.search(r'<div class="barpct">(.*?)</div>', html).group(1)
        for text, expected in zip(re.findall(r"<span>([^<]*)</span>", row), levels, strict=True):
            if text == "0":
                assert expected == 0
            elif text == "<1%":
                assert 0 < expected < 0.005
            else:
                assert float(text.rstrip("%")) / 100 == pytest.approx(expected, abs=0.0051)
        expected = float(np.dot(np.arange(len(levels)), levels))
        shown = re.search(r'class="l-expected" data-x="([^"]+)">([^<]+)<', html)
        assert float(shown.group(1)) == pytest.approx(expected, abs=1e-12)
        assert float(shown.group(2)) == pytest.approx(expected, abs=0.006)
        after = vital_step(target["now"]["health"], np.arange(len(levels)), target["max"]["health"])
        _close(_shown(html)["l-down"], float(levels[after.current <= 0].sum()))


def test_made_once_per_version_and_only_for_whom_the_odds_are_shown(service):
    t = _attack(service)
    first = dice_landing.dice_landing_odds(service, t, "player", "ronan", [4])
    assert dice_landing.dice_landing_odds(service, t, "player", "ronan", [4]) is first
    # A spectator is not shown the odds of an attack on a foe: nothing, not even the hint.
    assert dice_landing.dice_landing_odds(service, t, "spectator", None, [4]) is None
    assert dice_landing_html(None) == ""
    # Dice that do not fit the roll (the table moved on): no odds rather than an error.
    assert dice_landing.dice_landing_odds(service, t, "gm", None, [4, 4, 4, 4]) is None


def test_the_dice_box_as_it_is_typed():
    assert typed_so_far("") == []
    assert typed_so_far("7") == [7]
    assert typed_so_far(" 3,7 ") == [3, 7]
    assert typed_so_far("3 a") is None
    assert problem([3, 11], 2) == "A die shows 1 to 10."
    assert problem([3, 4, 5], 2) == "This roll takes 2 dice."
    assert problem([3, 4], 2) == ""


def test_typed_dice_add_to_those_put_in_before(service):
    """Issue 31: "So far 3, 7", then "2" is "So far 3, 7, 2" (typed dice never replace).

    Fewer dice than the roll takes are kept when "Use my dice" is pressed; the box empties for
    the next ones and the roll goes, with every die put in, once all are there.
    """
    import panel as pn

    from tb_playground.views.combat.steps import StepControls

    t = _attack(service)  # the to-hit roll: two dice or more
    dice = dice_needed(t.state["pending"]["advantage"])
    sent = []
    steps = StepControls(
        "gm", lambda command, then=None: sent.append(command) or (then and then()), pn.pane.HTML(),
        odds=lambda typed: dice_landing.dice_landing_odds(service, t, "gm", None, typed),
    )  # fmt: skip
    steps.show(t.view_for("gm"), None)
    steps.faces.value = steps.faces.value_input = "3"
    steps.faces_button.clicks += 1
    assert sent == [] and steps.faces.value_input == ""
    assert f"So far 3 (1 of {dice} dice typed)" in steps.landing.object
    steps.show(t.view_for("gm"), None)  # the page drawn again: the dice stay
    steps.faces.value_input = "7"
    assert f"So far 3, 7 (2 of {dice} dice typed)" in steps.landing.object
    rest = [7] + [1] * (dice - 2)
    steps.faces.value = steps.faces.value_input = " ".join(map(str, rest))
    steps.faces_button.clicks += 1
    assert sent == [{"type": "roll", "faces": [3, *rest]}]
    assert steps.landing.object == "" and steps._kept == []
