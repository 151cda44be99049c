"""examples/character.ipynb runs top to bottom and shows the texts' numbers."""

from __future__ import annotations

import pytest
from test_notebooks import PANEL_MIME, outputs, run, text_of

pytestmark = pytest.mark.notebook


def test_character_notebook():
    nb = run("character.ipynb")
    assert not [o for o in outputs(nb) if o.get("output_type") == "error"]
    assert any(PANEL_MIME in o.get("data", {}) for o in outputs(nb)), "the sheet did not render"
    text = text_of(nb)
    # Ronan: Earth 6 + 8; 10 - Atropos 3; 5 + Air 3; Stamina 4 x 3 + 1.
    assert "Ki pool 14 | Physical Defense 7 | Movement Rate 8 | Fate cap 13" in text
    assert "Movement Rate 12 | Physical Defense 4" in text
    assert "Perception at Difficulty 5: 64.0%" in text  # Trained: TN Air 7 + 5 = 12
    # 2 x (5 + 3 + 4 + 4 + Atropos 6) / 5 = 8.8
    assert "Ki pool under the Quick Reference 9 | by default 15" in text
    # The changed copy has its own name: Ronan himself keeps Air 3 and Earth 6 + 8.
    assert "Ronan himself: Movement Rate 8 | Ki pool 14" in text
    # Earth 6 + the bear's Physical Defense 6; the skill table in plain words.
    assert "Onslaught (Gift 5, 7 dice) | Earth 6 | 12 | 64.0%" in text
    assert "Perception (Air, Trained) | 10.0% | 15.0% | 21.0% | 28.0%" in text
    assert "round trip: Quick Ronan 7 6" in text
    assert "data.air: a whole number from 0 to 10, got 12" in text
    assert "data.stamina: a whole number from 0 to 10, got -1" in text
