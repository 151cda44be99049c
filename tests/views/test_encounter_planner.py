"""The encounter planner's view without a browser (issue 11, sections 3 and 4).

- Its numbers are ``simulate``'s: the same sides, policies, fights and seed give the same
  result; each side's policies reach that side only.
- CSV round trips: every table's CSV, parsed back, equals the result's numbers exactly.
- Cancel stops a run in its thread, long before it would have finished.
- "Send to the combat panel" needs the GM key and opens a table with the chosen sides; a live
  table's fight is simulated as it stands, read-only.
"""

from __future__ import annotations

import csv
import io
import time

import numpy as np
import pytest

from tb_playground.lab import simulate
from tb_playground.lab.runs import PlannerRun, plain_from_files, result_tables
from tb_playground.models.roster import build_encounter, roster_choices
from tb_playground.service import CombatService
from tb_playground.views import encounter_planner
from tb_playground.views.encounter_planner import EncounterPlanner, PlannerSettings

KEY = "planner-key"


@pytest.fixture(autouse=True)
def outside_a_session(monkeypatch):
    """These tests drive the view as a notebook would: no browser session, no URL.

    (Another test in the same process may leave Panel's current document set; the view must
    not read that test's URL or start threads here.)
    """
    monkeypatch.setattr(encounter_planner, "served", lambda: False)
    monkeypatch.setattr(encounter_planner, "query_arg", lambda _name: None)


@pytest.fixture
def service(tmp_path):
    return CombatService(tmp_path / "tables.sqlite", gm_key=KEY)


def planner(service, **settings) -> EncounterPlanner:
    view = EncounterPlanner(service, PlannerSettings(**settings))
    view.__panel__()
    return view


def test_roster_choices_offer_copies_of_unnamed_creatures_only():
    choices = roster_choices()
    assert choices["Ronan (character)"] == "ronan.json"
    assert choices["Guard dog, a second"] == "guard_dog.yaml#2"
    assert "Captain Oriel Vance, a second" not in choices  # named: one of a kind
    enc = build_encounter("", ["ronan.json"], ["guard_dog.yaml", "guard_dog.yaml#2"])
    assert [c.who.name for c in enc.combatants] == ["Ronan", "Guard dog", "Guard dog"]
    assert [c.side for c in enc.combatants] == ["Party", "Foes", "Foes"]
    with pytest.raises(ValueError, match="No roster file"):
        build_encounter("", ["nobody.json"], ["guard_dog.yaml"])


def test_the_page_shows_simulates_numbers_and_policies_reach_their_side(service):
    view = planner(
        service,
        party=["ronan.json", "nerdy_hacker.yaml"],
        foes=["grizzly_bear.yaml", "guard_dog.yaml"],
        party_bracket="slow_aim",
        foes_target="most_dangerous",
        party_ki="all",
        fights=600,
        seed=42,
    )
    run = view.start(wait=True)
    assert run.result is not None and not run.error
    enc = build_encounter(
        "", ["ronan.json", "nerdy_hacker.yaml"], ["grizzly_bear.yaml", "guard_dog.yaml"]
    )
    expected = simulate(
        enc, 600, 42,
        bracket_policy={"Party": "slow_aim", "default": "normal"},
        target_policy={"Party": "weakest", "default": "most_dangerous"},
        ki_policy={"Party": "all", "default": "stay_up"},
    )  # fmt: skip
    np.testing.assert_array_equal(run.result.winner, expected.winner)
    np.testing.assert_array_equal(run.result.final, expected.final)
    brackets = run.result.policies["bracket_policy"]
    assert brackets == {"ronan": "slow_aim", "the-nerdy-hacker": "slow_aim",
                        "grizzly-bear": "normal", "guard-dog": "normal"}  # fmt: skip
    # the headline carries the exact numbers and says them in words
    for side in ("Party", "Foes"):
        assert f'data-p="{expected.p_win[side]!r}"' in view.wins.object
        assert f"Victory: {side}" in view.wins.object
    assert "enc-done" in view.status.object


def test_csv_round_trips(service):
    view = planner(service, fights=800, seed=3)
    result = view.start(wait=True).result
    tables = result_tables(result)

    def parse(key):
        rows = list(csv.reader(io.StringIO(view._csv(key).getvalue())))
        assert tuple(rows[0]) == tables[key].columns
        return rows[1:]

    wins = parse("wins")
    for row, side in zip(wins, result.sides, strict=False):
        assert row[0] == side
        assert float(row[1]) == result.p_win[side]
        assert (float(row[2]), float(row[3])) == result.p_win_interval[side]
    assert float(wins[-1][1]) == result.p_draw
    assert len(wins) == len(result.sides) + 1
    rounds = parse("rounds")
    dist = result.rounds.distribution
    assert [int(r[0]) for r in rounds] == list(range(1, len(rounds) + 1))
    assert [float(r[1]) for r in rounds] == list(dist[: len(rounds)])
    assert dist[len(rounds) :].sum() == 0  # nothing left off after the last round shown
    characters = parse("characters")
    assert [float(r[1]) for r in characters] == [
        result.p_character_down, result.p_character_dying, result.p_character_dead,
    ]  # fmt: skip
    assert (float(characters[0][2]), float(characters[0][3])) == (result.p_character_down_interval)
    damage = parse("damage")
    assert [r[0] for r in damage] == result.names
    assert [r[1] for r in damage] == result.ids
    assert [r[2] for r in damage] == ["Party", "Foes", "Foes", "Foes"]
    for row, cid in zip(damage, result.ids, strict=True):
        assert float(row[3]) == result.damage_share[cid]
        assert (float(row[4]), float(row[5])) == result.damage_share_interval[cid]
    assert sum(float(r[3]) for r in damage) == pytest.approx(1.0, abs=1e-12)
    # on the page, the two guard dogs are told apart
    assert ">Guard dog 1<" in view.tables["damage"].object
    assert ">Guard dog 2<" in view.tables["damage"].object


def test_cancel_stops_a_run():
    plain = plain_from_files(
        "", ["ronan.json", "the_brick.json", "nerdy_hacker.yaml"],
        ["grizzly_bear.yaml", "guard_dog.yaml", "guard_dog.yaml#2", "guard_captain.yaml"],
    )  # fmt: skip
    run = PlannerRun(plain, 200_000, 1).start()
    deadline = time.monotonic() + 60
    while run.decided == 0 and run.finished is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run.running and 0 < run.progress < 1
    run.cancel()
    assert run.wait(timeout=30)
    assert run.cancelled and run.result is None and not run.error
    assert run.decided < 200_000 and not run.running


def test_send_to_the_combat_panel_needs_the_key(service):
    view = planner(service, party=["ronan.json"], foes=["guard_dog.yaml", "guard_dog.yaml#2"])
    assert view.send_to_table() is None
    assert "GM key" in view.send_message.object and service.names() == []
    view.key_input.value = "wrong"
    view._try_key()
    assert "not the GM key" in view.send_message.object
    view.key_input.value = KEY
    view._try_key()
    name = view.send_to_table()
    assert name == "Planned encounter" and service.names() == [name]
    state = service.open(name).state
    cs = [state["combatants"][cid] for cid in state["ids"]]
    assert [(c["name"], c["side"]) for c in cs] == [
        ("Ronan", "Party"),
        ("Guard dog 1", "Foes"),
        ("Guard dog 2", "Foes"),
    ]  # fmt: skip  (numbered where the table makes its records, issue 20)
    assert 'href="./gm?table=Planned%20encounter"' in view.send_message.object
    assert view.send_to_table() == "Planned encounter 2"  # a second table, a new name


def test_a_live_tables_fight_as_it_stands(service):
    enc = build_encounter("warehouse.encounter.yaml", [], ["grizzly_bear.yaml"])
    table = service.create("Night shift", enc)
    version = table.version
    view = planner(service, source="table", fights=300, seed=9)
    run = view.start(wait=True)
    assert run is None and "GM key" in view.status.object  # locked without the key
    view.key_input.value = KEY
    view._try_key()
    assert view.table_select.options == ["Night shift"] and view.settings.table == "Night shift"
    result = view.start(wait=True).result
    expected = simulate(table.state, 300, 9)
    np.testing.assert_array_equal(result.winner, expected.winner)
    # the table's names: same-named combatants numbered once, at creation (issue 20)
    assert result.names == [table.state["combatants"][cid]["name"] for cid in table.state["ids"]]
    assert "Guard dog 1" in result.names and "Guard dog 2" in result.names
    assert table.version == version  # read, never written
    view.send_to_table()
    assert "on a table already" in view.send_message.object


def test_a_fight_whose_rules_put_boosts_before_the_roll_is_planned(service):
    """The 002 switch boosts_before_roll is played, not refused (session 4)."""
    enc = build_encounter("", ["ronan.json"], ["grizzly_bear.yaml"])
    enc.ruleset.boosts_before_roll = True
    table = service.create("Variant night", enc)
    assert table.state["ruleset"]["boosts_before_roll"] is True
    view = planner(service, source="table", fights=400, seed=4)
    view.key_input.value = KEY
    view._try_key()
    run = view.start(wait=True)
    assert run.result is not None and not run.error
    expected = simulate(table.state, 400, 4)
    np.testing.assert_array_equal(run.result.winner, expected.winner)
    np.testing.assert_array_equal(run.result.final, expected.final)
    default = simulate(table.state, 400, 4, ruleset={"boosts_before_roll": False})
    assert not np.array_equal(default.final, expected.final)  # the switch was played


def test_an_empty_side_is_said_in_words(service):
    view = planner(service, party=[], foes=["guard_dog.yaml"])
    assert view.start(wait=True) is None
    assert "at least one combatant for each side" in view.status.object


def test_the_source_switch_shows_its_own_pickers(service):
    view = planner(service, source="table")
    assert view.table_select.visible and not view.party_pick.visible
    view.settings.source = "files"
    assert view.party_pick.visible and view.foes_pick.visible and not view.table_select.visible
    view.settings.encounter = "warehouse.encounter.yaml"
    assert view.file_note.visible
    assert "Ronan, The Brick, The Nerdy Hacker" in view.file_note.object
    view.settings.source = "table"
    assert not view.file_note.visible and not view.encounter_select.visible


def test_the_page_lists_in_words_every_rule_the_simulation_leaves_out(service):
    """Issue 32, item 16: the planner says what its fights do not play, in plain words."""
    from tb_playground.lab import LEFT_OUT

    page = planner(service)
    html = "".join(str(p.object) for p in page.__panel__().select(encounter_planner.pn.pane.HTML))
    assert "What the simulation leaves out" in html
    for words in ("Help", "Reckless", "Full Defense", "Cover", "Prone", "Belly Down", "Study",
                  "Grab", "Disarm", "Distracted", "Fate Tokens", "Movement"):  # fmt: skip
        assert any(words in line for line in LEFT_OUT), words
    for line in LEFT_OUT:
        assert encounter_planner.escape(line) in html
        assert "_" not in line and "policy" not in line  # plain words, no code names


def test_a_sides_cover_reaches_that_side_only(service):
    """Issue 32, item 16: partial cover as a side's setting (rules/001 "Cover")."""
    view = planner(
        service, party=["ronan.json"], foes=["guard_dog.yaml"], foes_cover="partial",
        fights=300, seed=4,
    )  # fmt: skip
    run = view.start(wait=True)
    assert run.result is not None and not run.error
    enc = build_encounter("", ["ronan.json"], ["guard_dog.yaml"])
    expected = simulate(enc, 300, 4, cover={"Party": "none", "default": "partial"})
    np.testing.assert_array_equal(run.result.final, expected.final)
    plain = simulate(enc, 300, 4)
    assert not np.array_equal(plain.final, expected.final)
    labels = [w.label for w in view.policy_widgets["foes"]]
    assert "Cover" in labels


def test_the_file_choice_says_no_file_in_words(service):
    """Issue 34: "Start from an encounter file" offered a literal ``None``."""
    labels = list(planner(service).encounter_select.options)
    assert "None" not in labels
    assert labels[0] == "No file: pick the sides yourself"


def test_the_answer_comes_before_the_controls_in_the_page(service):
    """Issue 34: a phone shows the page in order, so "Who wins" comes before the controls."""
    view = EncounterPlanner(service)
    boxes = view.__panel__()[1]
    assert view.wins in boxes[0]
    assert "enc-controls" in boxes[1].css_classes
