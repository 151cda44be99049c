"""Sweeps on Dask (issue 11, section 3): the same results on a cluster as in one process.

A small sweep (builds, creatures, a rules reading, a policy per item) runs on a
``LocalCluster`` of 2 workers (threads, to keep the test quick), on a scheduler named by
address and by ``TB_DASK_SCHEDULER``, and inline; every array of every result must equal the
others and ``simulate`` called item by item.
"""

from __future__ import annotations

import numpy as np
import pytest
from table_helpers import roster

from tb_playground.lab import simulate, sweep
from tb_playground.lab.prepare import plain_encounter
from tb_playground.lab.sweep import SCHEDULER_ENV
from tb_playground.models import Encounter
from tb_playground.table import TableStore

FIGHTS = 300
SEED = 11
ARRAYS = ("winner", "rounds_taken", "timed_out", "final", "damage", "out_round", "dead_round")


def encounter(characters, creatures, name=None) -> Encounter:
    enc = Encounter(name=name or " and ".join(characters))
    for c in characters:
        enc.add(roster(c), "Party")
    for c in creatures:
        enc.add(roster(c), "Foes")
    return enc


@pytest.fixture(scope="module")
def items():
    bear = ["grizzly_bear.yaml"]
    return {
        "Ronan vs bear": encounter(["ronan.json"], bear),
        "Brick vs bear": encounter(["the_brick.json"], bear),
        "Ronan vs dogs": encounter(["ronan.json"], ["guard_dog.yaml", "guard_dog.yaml"]),
        # Ronan alone calls his shots: his Onslaught costs 1 Ki an attack, so when the bear
        # calls its shots at Advantage too, the reading now helps the bear more than him
        "Ronan vs bear, Called Shot": (
            encounter(["ronan.json"], bear),
            {"bracket_policy": {"Party": "called_shot"}},
        ),
        "Ronan vs bear, Called Shot, 002 reading": (
            encounter(["ronan.json"], bear),
            {
                "bracket_policy": {"Party": "called_shot"},
                "ruleset": {"slow_called_shot_advantage": True},
            },
        ),
        "Party vs captain, Slow with Aim": (
            encounter(["ronan.json", "nerdy_hacker.yaml"], ["guard_captain.yaml"]),
            {"bracket_policy": "slow_aim"},
        ),
    }


@pytest.fixture(scope="module")
def inline(items):
    return sweep(items, FIGHTS, SEED, scheduler="inline", ki_policy="all")


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as c:
        yield c


def same(a, b) -> None:
    assert a.sides == b.sides and a.ids == b.ids and a.attacks == b.attacks
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def test_inline_equals_simulate_item_by_item(items, inline):
    assert inline.labels == list(items) and inline.seed == SEED
    for label, item in items.items():
        enc, options = item if isinstance(item, tuple) else (item, {})
        same(inline[label], simulate(enc, FIGHTS, SEED, ki_policy="all", **options))
    # the reading reached its item: the 002 reading (a Called Shot at Advantage) helps Ronan
    plain = inline["Ronan vs bear, Called Shot"]
    reading = inline["Ronan vs bear, Called Shot, 002 reading"]
    assert reading.p_win["Party"] > plain.p_win["Party"]
    policy = inline["Party vs captain, Slow with Aim"].policies["bracket_policy"]
    assert set(policy.values()) == {"slow_aim"}
    rows = inline.rows()
    assert len(rows) == 2 * len(items)
    assert rows[0]["p_win"] == inline["Ronan vs bear"].p_win["Party"]


def test_local_cluster_of_two_workers_equals_one_process(items, inline):
    # The sweep starts its own LocalCluster of 2 workers (threads: quick to start here).
    found = sweep(items, FIGHTS, SEED, workers=2, processes=False, batch=1, ki_policy="all")
    assert found.where == "a local Dask cluster of 2 workers"
    assert found.labels == inline.labels
    for a, b in zip(found.results, inline.results, strict=True):
        same(a, b)


def test_scheduler_address_and_environment(items, inline, cluster, monkeypatch):
    by_address = sweep(items, FIGHTS, SEED, scheduler=cluster.scheduler_address, ki_policy="all")
    assert by_address.where == f"the Dask scheduler at {cluster.scheduler_address}"
    monkeypatch.setenv(SCHEDULER_ENV, cluster.scheduler_address)
    by_env = sweep(items, FIGHTS, SEED, batch=2, ki_policy="all")
    assert by_env.where == by_address.where
    for a, b, c in zip(by_address.results, by_env.results, inline.results, strict=True):
        same(a, c)
        same(b, c)


def test_plain_forms_play_as_the_encounter(tmp_path):
    enc = encounter(["ronan.json", "the_brick.json"], ["grizzly_bear.yaml", "guard_dog.yaml"])
    enc.sides = ["Foes", "Party"]  # side order differs from the combatants' order
    direct = simulate(enc, 400, 5)
    same(simulate(plain_encounter(enc), 400, 5), direct)
    # a live table's state (combatants by id, its sides and Ruleset) plays the same fight
    table = TableStore(tmp_path / "t.sqlite").create("T", enc)
    same(simulate(table.state, 400, 5), direct)
    assert direct.sides == ["Foes", "Party"]


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="encounters_or_builds"):
        sweep("warehouse", 10, 1, scheduler="inline")
    with pytest.raises(ValueError, match="at least one"):
        sweep({}, 10, 1, scheduler="inline")
    enc = encounter(["ronan.json"], ["guard_dog.yaml"])
    with pytest.raises(ValueError, match="options must be among"):
        sweep([(enc, {"colour": "red"})], 10, 1, scheduler="inline")
    with pytest.raises(ValueError, match="bracket_policy"):
        sweep([enc], 10, 1, scheduler="inline", bracket_policy="sideways")
    with pytest.raises(ValueError, match="fights"):
        sweep([enc], 0, 1, scheduler="inline")
    with pytest.raises(TypeError, match="scheduler"):
        sweep([enc], 10, 1, scheduler=42)
