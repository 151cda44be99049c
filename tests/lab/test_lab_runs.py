"""The planner's run without Panel (``lab.runs``, issue 18 item 6).

- A run in its thread gives ``simulate``'s numbers for the same sides, policies and seed.
- Cancel stops it long before its end; a failed run says why in a ValueError.
- ``lab.runs`` imports neither Panel nor the live table package.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tb_playground.lab import simulate
from tb_playground.lab.runs import (
    FILE_NAMES,
    PlannerRun,
    plain_from_files,
    result_tables,
    sides_from_files,
    sides_from_table,
)
from tb_playground.models.roster import build_encounter

ROOT = Path(__file__).resolve().parents[2]
PARTY = ["ronan.json", "the_brick.json"]
FOES = ["grizzly_bear.yaml", "guard_dog.yaml", "guard_dog.yaml#2"]
POLICIES = {
    "bracket_policy": {"Party": "slow_aim", "default": "normal"},
    "target_policy": {"Party": "weakest", "default": "most_dangerous"},
}


def test_a_run_gives_simulates_numbers():
    run = PlannerRun(sides_from_files("", PARTY, FOES), 500, 11, **POLICIES)
    assert not run.running and run.progress == 0
    result = run.start().outcome(timeout=120)
    expected = simulate(build_encounter("", PARTY, FOES), 500, 11, **POLICIES)
    np.testing.assert_array_equal(result.winner, expected.winner)
    np.testing.assert_array_equal(result.final, expected.final)
    assert result.p_win == expected.p_win
    assert run.progress == 1 and not run.running and not run.cancelled and not run.error
    assert run.decided == 500 and run.elapsed > 0
    tables = result_tables(result)
    assert {k: t.file_name for k, t in tables.items()} == FILE_NAMES
    assert tables["wins"].csv().splitlines()[1].startswith(f"Party,{result.p_win['Party']!r},")


def test_play_runs_in_the_callers_thread_and_a_table_is_read_as_it_stands():
    plain = plain_from_files("", PARTY, FOES)
    service = SimpleNamespace(open=lambda name: SimpleNamespace(state=plain))
    run = PlannerRun(sides_from_table(service, "Night shift"), 200, 5)
    run.play()
    expected = simulate(plain, 200, 5)
    np.testing.assert_array_equal(run.outcome().winner, expected.winner)
    assert plain == plain_from_files("", PARTY, FOES)  # the table's state is not changed


def test_cancel_stops_a_run():
    run = PlannerRun(sides_from_files("", PARTY, FOES), 200_000, 1).start()
    deadline = time.monotonic() + 60
    while run.decided == 0 and run.finished is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run.running and 0 < run.progress < 1
    run.cancel()
    assert run.wait(timeout=30)
    assert run.cancelled and run.result is None and not run.error and not run.running
    assert run.decided < 200_000
    with pytest.raises(ValueError, match="cancelled after"):
        run.outcome()


def test_errors_surface_as_a_clear_value_error():
    with pytest.raises(ValueError, match="at least one combatant for each side"):
        sides_from_files("", [], ["guard_dog.yaml"])
    run = PlannerRun(sides_from_files("", ["nobody.json"], ["guard_dog.yaml"]), 10, 1).start()
    with pytest.raises(ValueError, match="No roster file called nobody.json"):
        run.outcome(timeout=60)
    assert run.result is None and not run.cancelled
    bad = PlannerRun(plain_from_files("", PARTY, FOES), 10, 1, target_policy="nonsense")
    bad.play()
    with pytest.raises(ValueError, match="target_policy must be one of"):
        bad.outcome()
    waiting = PlannerRun(plain_from_files("", PARTY, FOES), 10, 1)
    with pytest.raises(ValueError, match="not finished"):
        waiting.outcome(timeout=0)


@pytest.mark.server
def test_the_run_needs_neither_panel_nor_the_live_table():
    code = (
        "import sys, tb_playground.lab.runs, tb_playground.lab;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('panel', 'bokeh')"
        " or m.startswith(('tb_playground.table', 'tb_playground.service',"
        " 'tb_playground.views')));"
        "print(bad)"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "[]"
