"""Every state a whole fight goes through fits the table's TypedDicts (``table/state_types``).

The fight of ``test_table_every_event`` (every event type played) is folded event by event;
each table, combatant, pending attack and chase holds every key its type requires and none it
does not declare.
"""

from __future__ import annotations

import typing

import pytest
from test_table_every_event import Game, _fight

from tb_playground.table.state import fold
from tb_playground.table.state_types import Chase, Combatant, PendingAttack, TableState


def _keys(kind) -> tuple[set[str], set[str]]:
    hints = typing.get_type_hints(kind, include_extras=True)
    optional = {k for k, v in hints.items() if typing.get_origin(v) is typing.NotRequired}
    return set(hints) - optional, set(hints)


def _fits(value: dict, kind, where: str) -> None:
    required, declared = _keys(kind)
    assert required <= set(value), (where, sorted(required - set(value)))
    assert set(value) <= declared, (where, sorted(set(value) - declared))


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    g = Game(tmp_path_factory.mktemp("types"))
    _fight(g)
    events = g.t.events
    return [fold(events[:i]) for i in range(1, len(events) + 1)]


def test_every_state_of_a_whole_fight_fits_its_types(states):
    seen = {"pending": 0, "chase": 0}
    for i, s in enumerate(states):
        _fits(s, TableState, f"table after event {i + 1}")
        for cid, c in s["combatants"].items():
            _fits(c, Combatant, f"{cid} after event {i + 1}")
        if s["pending"] is not None:
            seen["pending"] += 1
            _fits(s["pending"], PendingAttack, f"pending after event {i + 1}")
        if s["chase"] is not None:
            seen["chase"] += 1
            _fits(s["chase"], Chase, f"chase after event {i + 1}")
    assert seen["pending"] > 10 and seen["chase"] > 2  # the fight has attacks and a chase
