"""The character sheet in plain words (issue 34, "Phones and plain words").

Its help (each input's description, the switches' help) named engine functions ("Engine
argument of tier_rules and check_odds", "Argument of skills.home_element"), a row added with
"Add" was named "Flaw10754", and the sheet's answer sat below screens of inputs.
"""

from __future__ import annotations

import re

import panel as pn
import pytest

from tb_playground.models import Character
from tb_playground.views import CharacterSheet
from tb_playground.views.sheet_inputs import switch_help_html

#: What a code name looks like: snake_case, a dotted call, "()", the engine's own words.
CODE = re.compile(r"[a-z]+_[a-z_]+|[a-z]\w*\.[a-z]\w*|\(\)|[Ee]ngine|[Aa]rgument of|issue \d")


def test_the_switches_help_names_no_code():
    text = re.sub(r"<[^>]+>", " ", switch_help_html())
    assert not CODE.findall(text)


def test_no_input_on_the_sheet_shows_a_code_name():
    layout = CharacterSheet().__panel__()
    for widget in layout.select(pn.widgets.Widget):
        for attribute in ("description", "name", "placeholder"):
            value = getattr(widget, attribute, None)
            if isinstance(value, str):
                assert not CODE.findall(value), (attribute, value)


@pytest.mark.parametrize("field", ["skills", "weapons", "gifts", "armor", "descriptors", "flaws"])
def test_a_row_added_with_add_has_a_name_in_words(field):
    sheet = CharacterSheet(character=Character(flaws=[]))
    editor = getattr(sheet.inputs, field)
    editor._on_add(None)
    name = getattr(sheet.character, field)[-1].name
    assert not re.search(r"\d{3,}", name), name


def test_the_answer_heads_the_sheet_and_follows_the_character():
    sheet = CharacterSheet()
    layout = sheet.__panel__()
    assert layout[0] is sheet.odds.summary
    c = sheet.character
    c.atropos = 2
    sheet._refresh_all()
    assert f"Defense {c.defense_physical} Physical" in sheet.odds.summary.object
    assert f"Health {c.health_now} / {c.health_max}" in sheet.odds.summary.object
