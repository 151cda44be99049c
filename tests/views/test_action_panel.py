"""The action panel's widgets (views/combat/action_panel.py), without a browser (issue 20).

Made once and updated, never rebuilt; the primary button sends what the menu made from the
fields; a refused action shows the table's refusal in plain words and cannot be sent.
"""

from __future__ import annotations

from pathlib import Path

from tb_playground.models.files import load
from tb_playground.table import TableStore
from tb_playground.table.menu import menu
from tb_playground.views.combat.action_panel import ActionPanel

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"


def _table(tmp_path):
    table = TableStore(tmp_path / "t.sqlite").create(
        "W", load(ROSTER / "warehouse.encounter.yaml"), seed=5
    )
    ids = table.state["ids"]
    table.apply({"type": "start", "initiative": {i: 10 if i == "ronan" else 1 for i in ids}})
    for cid in ids:
        if table.state["phase"] == "declare":
            table.apply({"type": "declare", "combatant": cid, "bracket": "slow"})
    assert table.state["up"] == "ronan"
    return table


def test_the_panel_updates_its_widgets_and_sends_the_menus_command(tmp_path):
    table = _table(tmp_path)
    sent = []

    def send(command, then=None):
        sent.append(command)
        table.apply(command, role="player", seat="ronan")
        if then is not None:
            then()

    panel = ActionPanel(
        "tp", "End my turn", send, lambda ch: menu(table.state, "player", "ronan", None, ch)
    )
    panel.show(True)
    assert panel.row.visible and panel.go.label == "Attack"
    target = panel.fields["target"]
    panel.select("aim")
    assert panel.go.label == "Aim" and "-&gt;" in panel.detail.object
    assert panel.fields["target"] is target  # the same widget, updated
    assert panel.groups["empowered"].value == "aim" and panel.groups["act"].value is None
    target.value = "guard-dog-2"
    assert panel.menu["actions"][1]["command"]["target"] == "guard-dog-2"
    panel.go.clicks += 1
    assert sent[-1]["empowered"] == "aim" and sent[-1]["target"] == "guard-dog-2"
    assert table.state["pending"]["attacker"] == "ronan"
    panel.show(True)  # an attack under way: nothing to choose now
    assert not panel.row.visible


def test_a_refused_action_reads_in_plain_words_and_cannot_be_sent(tmp_path):
    table = _table(tmp_path)
    panel = ActionPanel(
        "gm",
        "End turn",
        lambda c, then=None: None,
        lambda ch: menu(table.state, "gm", None, None, ch),
    )
    panel.show(True)
    panel.select("escape")  # not Grabbed: not shown, so the panel keeps its choice
    assert panel.go.label != "Escape the hold"
    table.apply({"type": "act", "combatant": "ronan", "action": "study", "target": "guard-dog"})
    panel.refresh()
    panel.select("aim")
    assert panel.go.disabled
    assert "Slow round holds 1 action" in panel.detail.object
    assert "action:" not in panel.detail.object


def test_the_gms_nod_on_a_players_approach(tmp_path):
    """RULES.md, Attacks: the player names the Element, the GM confirms or changes it."""
    from tb_playground.views.combat.action_panel import ApproachNod

    table = _table(tmp_path)
    nod = ApproachNod(lambda c: bool(table.apply(c)), lambda: table.state)
    nod.show(table.state)
    assert not nod.switch.value and not nod.waiting.visible
    nod.switch.value = True
    assert table.state["options"]["approach_nod"]
    m = menu(table.state, "player", "ronan", None, {"approach": "Fire"})
    attack = m["actions"][0]
    assert any(f["label"] == "Approach (the GM nods)" for f in attack["fields"])
    table.apply(attack["command"], role="player", seat="ronan")
    assert table.state["pending"]["step"] == "approach"
    nod.show(table.state)
    assert nod.waiting.visible and nod.approach.value == "Fire"
    assert "Ronan attacks" in nod.ask.object
    nod.approach.value = "Earth"
    nod.confirm.clicks += 1
    p = table.state["pending"]
    assert p["step"] == "to_hit" and p["element"] == "Earth"
    nod.show(table.state)
    assert not nod.waiting.visible


def test_a_done_slow_action_leaves_no_red_refusal(tmp_path):
    """Issue 31: after a Slow round's one action the panel shows no error for it.

    rules/000 "Action Brackets": a Slow round holds one empowered action; once it is taken, the
    panel moves to what is still allowed (or shows nothing), never "holds 1 action; this plan
    takes 2" in red after a success.
    """
    table = _table(tmp_path)

    def send(command, then=None):
        table.apply(command, role="player", seat="ronan")
        if then is not None:
            then()

    panel = ActionPanel(
        "tp", "End my turn", send, lambda ch: menu(table.state, "player", "ronan", None, ch)
    )
    panel.show(True)
    panel.select("study")
    assert panel.go.label == "Study a Target" and not panel.go.disabled
    panel.go.clicks += 1
    assert table.state["combatants"]["ronan"]["actions"] == ["study"]
    panel.show(True)  # the page redraws after the table's change
    assert "err" not in panel.detail.object
    assert "holds" not in panel.detail.object
    entry = panel.entry()
    assert entry is None or entry["allowed"]
    panel.select("aim")  # a refused action chosen by hand still says why
    assert "Slow round holds 1 action" in panel.detail.object
