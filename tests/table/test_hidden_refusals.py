"""A player's command naming a hidden foe is refused as an unknown id is (issue 33, item 8).

A refusal that tells a hidden id apart from an unknown one (a name, "only for their own seat",
"not in reach") tells a player who is hiding. Every command, every field that names a
combatant, in each phase a player acts in: the refusal for a hidden foe's id and for an id
nobody has are the same words (with the id sent back). Then the cases where the id is what
decides: the same command naming the foe once shown is accepted.
"""

from __future__ import annotations

import pytest
from table_helpers import FIRST_RONAN, fight, new_table, run_to_turn, start_and_declare

from tb_playground.table.command_tools import ID_FIELDS, ID_LIST_FIELDS, WAY_FIELDS
from tb_playground.table.commands import FIELDS

HIDDEN = "nightmare"  # fight(): the Nightmare waits, hidden
NOBODY = "no-one-by-that-id"


def _refusal(t, command: dict) -> tuple[str, str] | None:
    """The kind and the words of ``command``'s refusal to Ronan's phone (None: accepted)."""
    try:
        t.apply(command, role="player", seat="ronan")
    except (ValueError, PermissionError) as err:
        return type(err).__name__, str(err)
    return None


def _pairs():
    for kind, fields in sorted(FIELDS.items()):
        for field in sorted(set(fields) & (ID_FIELDS | WAY_FIELDS | ID_LIST_FIELDS)):
            yield kind, field


def _named(field: str, cid: str):
    return [cid] if field in ID_LIST_FIELDS else cid


@pytest.fixture
def at_ronans_turn(tmp_path):
    _, t = new_table(tmp_path, fight())
    t.apply({"type": "hide", "combatant": HIDDEN})
    start_and_declare(t, {}, FIRST_RONAN)
    run_to_turn(t, "ronan")
    return t


@pytest.fixture
def before_the_fight(tmp_path):
    _, t = new_table(tmp_path, fight())
    t.apply({"type": "hide", "combatant": HIDDEN})
    return t


@pytest.mark.parametrize("when", ["before_the_fight", "at_ronans_turn"])
def test_every_field_that_names_a_combatant_refuses_a_hidden_one_as_an_unknown_one(when, request):
    t = request.getfixturevalue(when)
    version = t.version
    pairs = list(_pairs())
    assert len(pairs) >= 15  # the audit's 15 command/field pairs, and the rest
    for kind, field in pairs:
        for extra in ({}, {"combatant": "ronan"}, {"attacker": "ronan"}, {"actor": "ronan"}):
            if field in extra or not set(extra) <= set(FIELDS[kind]):
                continue
            hidden = _refusal(t, {"type": kind, **extra, field: _named(field, HIDDEN)})
            unknown = _refusal(t, {"type": kind, **extra, field: _named(field, NOBODY)})
            assert hidden is not None, (kind, field, extra)  # a hidden one is never accepted
            assert unknown is not None, (kind, field, extra)
            said = (hidden[0], hidden[1].replace(HIDDEN, "X"))
            assert said == (unknown[0], unknown[1].replace(NOBODY, "X")), (kind, field, extra)
            assert "Nightmare" not in hidden[1]
    assert t.version == version  # nothing was applied


@pytest.mark.parametrize(
    "command",
    [
        {"type": "attack", "attacker": "ronan", "target": HIDDEN},
        {"type": "stabilise", "combatant": "ronan", "target": HIDDEN, "faces": [1, 2]},
        {"type": "help", "combatant": "ronan", "ally": HIDDEN},
    ],
    ids=["attack", "stabilise", "help"],
)
def test_where_the_id_decides_the_hidden_one_reads_as_unknown(at_ronans_turn, command):
    t = at_ronans_turn
    if command["type"] == "stabilise":  # the Nightmare at 0, dying: first aid would reach it
        t.apply({"type": "set", "combatant": HIDDEN, "field": "health", "value": -1})
    field = next(k for k, v in command.items() if v == HIDDEN)
    hidden = _refusal(t, command)
    unknown = _refusal(t, {**command, field: NOBODY})
    assert hidden is not None and unknown is not None
    assert hidden[0] == unknown[0] == "ValueError"
    assert hidden[1] == f"{field} must be the id of a combatant at this table, got {HIDDEN!r}"
    assert unknown[1] == hidden[1].replace(HIDDEN, NOBODY)
    # The id is what decides: once the GM shows the Nightmare, the same command is taken
    # (or refused for a reason of the rules, never for the id).
    t.apply({"type": "show", "combatant": HIDDEN})
    shown = _refusal(t, command)
    assert shown is None or "must be the id of a combatant" not in shown[1], shown
