"""Words on the GM's and the players' pages (issue 31, "Words on screen"), without a browser.

The roster pickers on /gm show the names on the sheets, characters apart from creatures, never
file names; the join box's grey hint fits the box on a 390 px phone.
"""

from __future__ import annotations

import re

from tb_playground.models.roster import creature_files
from tb_playground.views.combat.add_combatant import AddCombatant, roster_groups
from tb_playground.views.combat.gm_table_chooser import TableChooser

FILE_NAME = re.compile(r"\.(json|ya?ml)\b")


def test_the_roster_pickers_show_names_grouped():
    # Before: "ronan.json", "nerdy_hacker.yaml" ... characters and creatures mixed.
    files = creature_files()
    groups = roster_groups(files)
    assert list(groups) == ["Characters", "Creatures"]
    assert {"Ronan", "The Brick"} <= set(groups["Characters"])
    assert {"Grizzly bear", "Guard dog"} <= set(groups["Creatures"])
    assert not set(groups["Characters"]) & set(groups["Creatures"])
    assert sum(len(g) for g in groups.values()) == len(files)  # every file, once
    adder = AddCombatant(lambda command, then=None: None, files)
    assert list(adder.pick.groups) == ["Your own file", "Characters", "Creatures"]
    labels = list(adder.pick.options)
    assert not [label for label in labels if FILE_NAME.search(label)]
    assert adder.pick.value == ""  # an upload until the GM picks
    adder.pick.value = adder.pick.groups["Characters"]["Ronan"]
    assert adder.pick.value == str(files["ronan.json"])

    class Service:
        def encounter_files(self):
            return {}

        def creature_files(self):
            return files

    chooser = TableChooser(Service(), lambda name: None, None)
    extra = list(chooser.extra.options)
    assert not [label for label in extra if FILE_NAME.search(label)]
    assert "Ronan (character)" in extra and "Grizzly bear (creature)" in extra
    kinds = [label.rsplit("(", 1)[1] for label in extra]
    assert kinds == sorted(kinds)  # the characters first, then the creatures


def test_the_join_box_hint_fits_the_box(tmp_path):
    # Before: "the code the GM reads out" was cut at 390 px. The box: 220 px, 16 px type with
    # 0.1 em letter spacing, 8 px padding each side (views/kit/code_input.py); a character of
    # the hint is at most 0.6 em wide + the spacing (digits and lowercase letters).
    from tb_playground.service import CombatService
    from tb_playground.views.combat.table_page import TablePage

    service = CombatService(tmp_path / "tables.sqlite", gm_key="k")
    page = TablePage(service)
    box = page.code_input
    hint = box.placeholder
    assert hint and box.width <= 220
    assert len(hint) * 16 * (0.6 + 0.1) + 2 * 8 <= box.width
    page.close()
    service.store.close()
