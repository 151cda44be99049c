"""The chance to win against fights the live table itself plays (issue 32, item 17).

``table_played.play_at_table`` plays whole fights through ``Table.apply`` (the table's own
dice, seeded) under the simulator's policies; ``lab.simulate``'s chance to win must lie inside
that estimate's Wilson interval for every example encounter: the warehouse, the party against
the Nightmare, and the warehouse with the Nightmare added. At small N here (z = 3.3, a check
fails by chance about once in 1,000); ``benchmarks/bench_table_played.py`` plays 1,000 and more.
Through ``Table.apply`` each encounter takes 15-60 s on a loaded machine, so those run with
``--slow``; the fast loop plays the cheapest one through the table's fold (``through="fold"``).
"""

from __future__ import annotations

import pytest

from tb_playground.lab import simulate
from tb_playground.models.roster import build_encounter
from tb_playground.table_played import play_at_table

#: The example encounters (examples/roster): (encounter file, party added, foes added).
ENCOUNTERS = {
    "warehouse": ("warehouse.encounter.yaml", [], []),
    "party-vs-nightmare": (
        "",
        ["ronan.json", "the_brick.json", "nerdy_hacker.yaml"],
        ["nightmare.yaml"],
    ),
    "warehouse-and-nightmare": ("warehouse.encounter.yaml", [], ["nightmare.yaml"]),
    "ronan-vs-bear-and-dog": ("", ["ronan.json"], ["grizzly_bear.yaml", "guard_dog.yaml"]),
}

Z = 3.3


@pytest.mark.parametrize("name", list(ENCOUNTERS))
def test_the_simulators_chance_lies_inside_the_tables(name):
    enc = build_encounter(*ENCOUNTERS[name])
    n = 30 if "nightmare" in name else 40
    played = play_at_table(enc, fights=n, seed=11, through="table")
    assert played.refused == 0  # the policies never asked the table for what it refuses
    sim = simulate(enc, fights=20_000, seed=11)
    for side in played.sides:
        low, high = played.interval(side, Z)
        assert low <= sim.p_win[side] <= high, (name, side, sim.p_win[side], (low, high))


def test_the_fold_plays_as_the_table_and_agrees_too():
    """The fast loop's case: the table's own decide and fold, without its file (``fold``)."""
    enc = build_encounter(*ENCOUNTERS["ronan-vs-bear-and-dog"])
    played = play_at_table(enc, fights=60, seed=12, through="fold")
    assert played.refused == 0
    sim = simulate(enc, fights=20_000, seed=12)
    for side in played.sides:
        low, high = played.interval(side, Z)
        assert low <= sim.p_win[side] <= high, (side, sim.p_win[side], (low, high))


def test_the_same_seed_plays_the_same_fights():
    enc = build_encounter(*ENCOUNTERS["ronan-vs-bear-and-dog"])
    a = play_at_table(enc, fights=5, seed=3, through="fold")
    b = play_at_table(enc, fights=5, seed=3, through="fold")
    assert (a.wins, a.rounds) == (b.wins, b.rounds)


def test_bad_arguments_are_refused_by_name():
    enc = build_encounter(*ENCOUNTERS["warehouse"])
    for kwargs, word in (
        ({"fights": 0}, "fights"),
        ({"through": "paper"}, "through"),
        ({"bracket_policy": "dance"}, "bracket_policy"),
    ):
        with pytest.raises(ValueError, match=word):
            play_at_table(enc, **kwargs)
