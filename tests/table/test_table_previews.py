"""The table's additions for the combat pages: attack previews, join codes, seats (issue 9)."""

from __future__ import annotations

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.engine import to_hit_odds
from tb_playground.table.previews import attack_previews, preview_pending


@pytest.fixture
def fight(tmp_path):
    enc = encounter(roster("ronan.json"), foes=[soak7(), roster("guard_dog.yaml")])
    _, t = new_table(tmp_path, enc)
    return t


@pytest.mark.parametrize("index", [0, 1, 2])
def test_preview_is_the_pending_attack_the_command_makes(fight, index):
    start_and_declare(fight, {}, {"ronan": 10, "opponent": 1, "guard-dog": 1})
    fight.apply({"type": "set_condition", "combatant": "opponent", "condition": "Prone"})
    before = fight.state
    expected = preview_pending(before, "ronan", "opponent", index)
    fight.apply({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": index})
    assert fight.state["pending"] == expected
    assert expected["advantage"] == 1  # a Prone target (rules/001)


def test_previews_odds_are_the_engines(fight):
    s = fight.state
    rows = attack_previews(s, "ronan", s["ids"])
    onslaught = rows[1]
    assert onslaught["dice"] == 7
    assert [r["target"] for r in onslaught["targets"]] == ["opponent", "guard-dog"]
    ronan = s["combatants"]["ronan"]
    for row in onslaught["targets"]:
        defense = s["combatants"][row["target"]]["defense"]["physical"]
        hit = to_hit_odds(ronan["elements"]["Earth"], defense, 0)  # the best physical Element
        assert row["p_hit"] == pytest.approx(hit.p_hit, abs=1e-12)
        assert row["p_critical"] == pytest.approx(hit.p_critical, abs=1e-12)
        assert 0 <= row["p_down"] <= row["p_hit"] + 1e-12


def test_a_prone_attacker_gets_a_reason_not_odds(fight):
    fight.apply({"type": "set_condition", "combatant": "ronan", "condition": "Prone"})
    s = fight.state
    row = attack_previews(s, "ronan", s["ids"])[0]["targets"][0]
    assert "Prone" in row["refused"] and "p_hit" not in row


def test_join_code_and_seats(fight):
    code = fight.view_for("gm")["join_code"]
    assert fight.code_matches(code) and fight.code_matches(f" {code} ")
    assert not fight.code_matches("000000" if code != "000000" else "111111")
    assert not fight.code_matches(None)
    fight.apply({"type": "rotate_code"})
    assert not fight.code_matches(code)
    assert fight.seats() == [("ronan", "Ronan")]
    fight.apply({"type": "hide", "combatant": "ronan"})
    assert fight.seats() == []
