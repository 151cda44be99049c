"""No Python repr in what a user reads (issue 20, "plain words").

A few refusals put a value on screen as Python writes it (``'Perception'``, ``'bob'``): they
are sentences now. Each is driven through ``Table.apply`` and shown as the pages show it
(``combat_render.refusal_words``), then searched for code words as tests/table/test_refusal_words.py
does. A guard reads table/ and views/: a ``!r`` in a message is only the "got ..." tail of a
field's check, which the pages drop.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from table_helpers import encounter, new_table, roster
from test_refusal_words import shown

from tb_playground.views.combat import combat_render as render

PACKAGE = Path(__file__).resolve().parents[1] / "tb_playground"


@pytest.fixture
def table(tmp_path):
    party = (roster("ronan.json"), roster("the_brick.json"))
    return new_table(tmp_path, encounter(*party, foes=[roster("grizzly_bear.yaml")]))[1]


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            {"type": "opposed_roll", "actor": "ronan", "resister": "grizzly-bear",
             "actor_skill": "Perception", "resister_skill": "Stealth"},
            "Grizzly bear's card gives no number against Perception: the GM types the card's "
            "number, 0 to 10",
        ),
        (
            {"type": "group_roll", "members": ["ronan"], "skill": "Athletics",
             "faces": {"the-brick": [5, 5]}},
            "Dice were typed for someone who is not in the group.",
        ),
        (
            {"type": "chase_start", "quarry": "grizzly-bear", "pursuers": ["ronan"],
             "metres": 10, "scores": {"ronan": 5}},
            "A Chase number was given for someone who is not a creature in this chase.",
        ),
    ],
    ids=["card number", "group faces", "chase scores"],
)  # fmt: skip
def test_refusals_in_words(table, command, words):
    with pytest.raises(ValueError) as err:
        table.apply(command)
    text = render.refusal_words(err.value)
    assert words in text
    assert "'" not in text.replace("'s ", " ")  # no quoted repr
    assert shown(text) == []


def test_helpers_not_at_the_table(table):
    table.apply({"type": "start", "initiative": {"ronan": 10, "the-brick": 2, "grizzly-bear": 1}})
    for cid in ("ronan", "the-brick", "grizzly-bear"):
        table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    if table.state["phase"] == "declare":
        table.apply({"type": "reveal"})
    command = {"type": "attack", "attacker": "ronan", "target": "grizzly-bear", "attack": 0,
               "helpers": ["nobody-here"]}  # fmt: skip
    with pytest.raises(ValueError) as err:
        table.apply(command)
    text = render.refusal_words(err.value)
    assert text == "One of the helpers named is not at this table."
    assert "nobody-here" not in text and shown(text) == []


def test_a_table_name_in_quotes(tmp_path):
    store, _ = new_table(tmp_path, encounter(roster("ronan.json")), name="Friday's game")
    with pytest.raises(ValueError) as err:
        store.create("Friday's game", encounter(roster("ronan.json")))
    assert 'a table called "Friday\'s game" already exists' in str(err.value)


#: A ``!r`` allowed in a message: the "got ..." tail the pages drop (``refusal_words``), data
#: attributes of HTML (numbers for tests, not shown), the command line tool, and a damaged
#: file's messages for the one who keeps it (schema.py, live_table.py, store.py: the file's
#: path, the failure as Python names it; tests/table/test_table_durability.py reads them).
ALLOWED = re.compile(
    r"got \{[^}]*!r\}|data-[a-z]+=\"\{[^}]*!r\}|table \{(self\.)?name!r\} in |\(\{exc!r\}\)"
)


def test_no_repr_in_messages():
    found = []
    for folder in ("table", "views"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            if path.name == "__main__.py":
                continue
            for i, line in enumerate(path.read_text().splitlines(), 1):
                if "!r}" in ALLOWED.sub("", line):
                    found.append(f"{path.relative_to(PACKAGE)}:{i}: {line.strip()}")
    assert found == []
