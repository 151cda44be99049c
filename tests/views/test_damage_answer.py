"""The damage page's answer line above its controls (issue 34: a phone saw controls first)."""

from __future__ import annotations

from tb_playground.formatting import percent
from tb_playground.views.damage_explorer import DamageExplorer


def test_the_answer_line_heads_the_controls_and_follows_them():
    explorer = DamageExplorer()
    assert explorer.controls[0] is explorer._answer
    a = explorer.attack
    assert f"{percent(a.to_hit.p_hit)} to hit" in explorer._answer.object
    assert f"{a.expected_per_attack:.2f} Health levels per attack" in explorer._answer.object
    before = explorer._answer.object
    a.target_wall += 3
    assert explorer._answer.object != before
    assert f"{a.expected_per_attack:.2f} Health levels per attack" in explorer._answer.object
