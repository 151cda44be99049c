"""The planner's tuner section (issue 35, item 3): view level, no browser."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import pytest

from tb_playground.lab.tune import tune_encounter
from tb_playground.views import encounter_tuner
from tb_playground.views.encounter_tuner import EncounterTuner, TunerSettings


class FakeService:
    def __init__(self):
        self.made = {}

    def names(self):
        return list(self.made)

    def create(self, name, enc):
        self.made[name] = enc
        return SimpleNamespace(name=name)


def test_the_difficulty_words_and_a_number():
    s = TunerSettings()
    assert s.target() == 0.8
    s.difficulty = "Deadly"
    assert s.target() == 0.4
    s.param.update(difficulty="number", chance=55.0)
    assert s.target() == pytest.approx(0.55)


def test_search_shows_the_lineups_and_sends_one_with_the_gm_key(monkeypatch):
    monkeypatch.setattr(encounter_tuner, "tune_encounter", partial(tune_encounter, max_runs=2))
    planner = SimpleNamespace(_gm=False, service=FakeService())
    view = EncounterTuner(planner)
    assert view.search() is None
    assert "Pick a party" in view.message.object
    view.settings.param.update(party=["ronan.json", "the_brick.json"], pool=["guard_dog.yaml"])
    result = view.search()
    assert result is not None and result.runs <= 2
    html = view.lineups.object
    assert "The party wins" in html and "Guard dog" in html and "%" in html
    assert view.pick.visible and len(view.pick.options) == len(result.lineups[:3])
    assert view.send_to_table() is None
    assert "GM key" in view.message.object
    planner._gm = True
    assert view.send_to_table() == "Tuned encounter"
    assert view.send_to_table() == "Tuned encounter 2"
    assert planner.service.made["Tuned encounter"] is result.lineups[0].encounter
