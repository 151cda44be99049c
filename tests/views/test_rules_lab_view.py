"""The rules lab's view (no browser): plain words, every switch drawable, the fight thread.

- Every switch and the draft draw their curves and heatmap; the picker shows plain words and
  no code names; inputs a switch does not read are hidden.
- The fight comparison runs off the calling thread, reports progress, can be cancelled, and
  its table matches ``win_comparison`` run directly with the same arguments.
"""

from __future__ import annotations

import threading
import time

import pytest

from tb_playground.lab.reference_tables import read_csv
from tb_playground.lab.rules_lab import (
    LAB_SWITCHES,
    SUGGESTED_FIGHTS,
    SWITCH_INPUTS,
    example_encounter,
    win_comparison,
)
from tb_playground.views.kit import apply_query
from tb_playground.views.rules_lab import URL_SETTINGS, RulesLab


@pytest.fixture(scope="module")
def lab():
    view = RulesLab()
    view.__panel__()
    return view


def test_every_switch_draws_in_plain_words(lab):
    assert set(lab._switch.options.values()) == set(LAB_SWITCHES)
    for label in lab._switch.options:
        assert "_" not in label and label[0].isupper()
    for switch in LAB_SWITCHES:
        lab.switch = switch
        report = lab._report
        assert report.switch == switch
        assert "_" not in lab._help.object
        for i, box in enumerate(lab._curve_boxes):
            assert box.visible == (i < len(report.curves))
        assert lab._heatmap.visible == (report.heatmap is not None)
        for key, widget in (("element", lab._element), ("stat", lab._stat), ("dice", lab._dice)):
            label = SWITCH_INPUTS[switch][key]
            assert widget.visible == (label is not None)
            if label is not None:
                assert widget.name == label
        header, rows = read_csv(lab._curve_csv_text(0))
        assert header == [report.curves[0].x_label, "Default", "Switched", "Difference"]
        assert len(rows) == len(report.curves[0].x)


def test_picking_a_rule_starts_from_its_suggested_fight(lab):
    lab.switch = "vitals_002"
    assert (tuple(lab.party), tuple(lab.foes)) == SUGGESTED_FIGHTS["vitals_002"]
    assert not lab._run.disabled
    lab.switch = "fate_spends_stamina_only"
    assert lab._run.disabled and "Fate" in lab._win.object


def test_a_link_with_a_bad_value_keeps_the_others(lab):
    refused = apply_query(lab, {k: k for k in URL_SETTINGS}, {"element": 2, "level": 9, "stat": 7})
    assert refused == ["level"]
    assert (lab.element, lab.stat) == (2, 7) and lab.level in (-3, -2, -1, 1, 2, 3)
    lab.param.update(system="20 Below", level=-3)
    assert lab._level.value == -1  # 20 Below counts only the sign


def wait_until(condition, timeout=60.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_fights_run_in_a_thread_with_progress_and_a_result():
    view = RulesLab(switch="vitals_002", party=["Ronan"], foes=["Guard dog"], fights=500)
    view.__panel__()
    seen = []
    view._progress.param.watch(lambda e: seen.append(e.new), "value")
    caller = threading.get_ident()
    threads = []
    original = view._set_progress

    def spy(fraction):
        threads.append(threading.get_ident())
        original(fraction)

    view._set_progress = spy
    view._start()
    assert view._running and not view._cancel.disabled and view._run.disabled
    wait_until(lambda: not view._running)
    assert threads and all(t != caller for t in threads)  # off the calling thread
    assert seen[-1] == 100 and seen == sorted(seen)
    direct = win_comparison(
        example_encounter(("Ronan",), ("Guard dog",)), "vitals_002", fights=500, seed=1,
        chunk=100,
    )  # fmt: skip
    assert view._win_result.default == direct.default
    assert view._win_result.switched == direct.switched
    assert "Party" in view._win.object and view._win_csv.visible
    assert view._win_csv_text().splitlines()[0].startswith("Side,Default")


def test_the_fights_can_be_cancelled_and_unplayable_switches_say_why():
    view = RulesLab(switch="never_moira", party=["Ronan"], foes=["Guard dog"], fights=20000)
    view.__panel__()
    view._start()
    view._stop()
    wait_until(lambda: not view._running)
    assert "Cancelled" in view._win.object and view._win_result is None
    assert not view._run.disabled and view._cancel.disabled
    view.switch = "deception_water"
    assert view._run.disabled and "home Element" in view._win.object
    view.switch = "boosts_before_roll"  # played by the simulator since session 4
    assert not view._run.disabled and "after the roll only" not in view._win.object
