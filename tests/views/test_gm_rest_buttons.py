"""The GM's rest buttons follow the table's rule: no rest while a fight goes on (issue 32)."""

from __future__ import annotations

from table_helpers import FIRST_RONAN, fight, new_table

from tb_playground.views.combat.gm_fight_controls import FightControls


def test_the_rest_buttons_are_off_during_a_fight_and_on_after_it(tmp_path):
    # rules/000 line 295: "Short Rest: an hour of genuine downtime" (table/recovery.py).
    _, t = new_table(tmp_path, fight())
    controls = FightControls(lambda *a, **k: None, None, lambda: t.view_for("gm"))
    controls.show(t.view_for("gm"))
    assert not controls.short_rest.disabled and not controls.full_night.disabled
    t.apply({"type": "start", "initiative": FIRST_RONAN})
    controls.show(t.view_for("gm"))
    assert controls.short_rest.disabled and controls.full_night.disabled
    assert not controls.end_scene.disabled  # ending the Scene ends the fight
    t.apply({"type": "end_scene"})
    controls.show(t.view_for("gm"))
    assert not controls.short_rest.disabled
