"""A hypothesis state machine sends random valid and invalid commands from every role.

After each step: the fold of the log equals the live state; a refused command changed nothing;
the version only grows; a reopened store gives the same state (checked at teardown).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from table_helpers import encounter, roster, soak7

from tb_playground.table import TableStore, fold
from tb_playground.table.commands import COMMANDS, FIELDS

IDS = ["ronan", "the-brick", "opponent", "nobody"]
ROLES = [
    ("gm", None),
    ("gm", None),
    ("player", "ronan"),
    ("player", "the-brick"),
    ("spectator", None),
]

commands = st.fixed_dictionaries(
    {
        "type": st.sampled_from([*COMMANDS, "end_turn", "end_turn", "roll", "roll", "bogus"]),
        "combatant": st.sampled_from(IDS),
        "attacker": st.sampled_from(IDS),
        "target": st.sampled_from(IDS),
        "bracket": st.sampled_from(["fast", "normal", "slow", "sideways"]),
        "bumps": st.integers(-1, 3),
        "attack": st.integers(0, 3),
        "dice": st.lists(st.integers(-1, 8), max_size=3),
        "ki": st.integers(-1, 4),
        "metres": st.integers(0, 20),
        "text": st.text(max_size=20),
        "field": st.sampled_from(["health", "poise", "sanity", "ki", "fate", "exhausted", "x"]),
        "value": st.integers(-15, 20),
        "on": st.booleans(),
        "condition": st.sampled_from(["Prone", "Off Balance", "Belly Down", "Nope"]),
        "purpose": st.sampled_from(["restore poise", "restore sanity"]),
        "spend": st.sampled_from(["refill ki", "get back up", "shrug off", "wish"]),
        "action": st.sampled_from(["skill", "study", "reckless", "full defense", "fly"]),
        "empowered": st.sampled_from([None, None, "aim", "called shot"]),
        "band": st.sampled_from(["melee", "close", "far"]),
        "a": st.sampled_from(IDS),
        "b": st.sampled_from(IDS),
    }
)


class TableMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "t.sqlite"
        enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[soak7()])
        self.store = TableStore(self.path)
        self.table = self.store.create("T", enc, seed=3)
        self.last_version = self.table.version

    @rule(command=commands, who=st.sampled_from(ROLES), faces=st.booleans())
    def send(self, command, who, faces):
        command = {k: v for k, v in command.items() if v is not None}
        if faces and command["type"] == "roll":
            command["faces"] = [1, 5, 10][
                : 2 + (self.table.state["pending"] or {}).get("advantage", 0) % 2
            ]
        role, seat = who
        before = json.dumps(self.table.state, sort_keys=True)
        version = self.table.version
        try:
            self.table.apply(command, role=role, seat=seat)
        except (ValueError, PermissionError):
            assert self.table.version == version
            assert json.dumps(self.table.state, sort_keys=True) == before

    @rule(
        kind=st.sampled_from(sorted(FIELDS)),
        who=st.sampled_from(ROLES),
        bogus=st.booleans(),
        data=st.data(),
    )
    def act_of_the_round(self, kind, who, bogus, data):
        """Issue 19's commands with only their own fields (and sometimes an unknown one)."""
        values = {
            "combatant": st.sampled_from(IDS),
            "attacker": st.sampled_from(IDS),
            "target": st.sampled_from(IDS),
            "actor": st.sampled_from(IDS),
            "resister": st.sampled_from(IDS),
            "a": st.sampled_from(IDS),
            "b": st.sampled_from(IDS),
            "toward": st.sampled_from(IDS),
            "action": st.sampled_from(["study", "reckless", "ready", "reload", "stand up"]),
            "trigger": st.just("when it moves"),
            "skill": st.sampled_from(["Athletics", "Research", "Swimming", "Nope"]),
            "actor_skill": st.just("Stealth"),
            "resister_skill": st.just("Perception"),
            "members": st.lists(st.sampled_from(IDS), max_size=3, unique=True),
            "metres": st.integers(0, 30),
            "difficulty": st.integers(-1, 11),
            "how": st.sampled_from(["move", "dash", "sprint", "first aid"]),
            "ground": st.sampled_from(["clear", "rough", "wild"]),
            "mode": st.sampled_from(["walk", "swim"]),
            "surprise": st.booleans(),
            "faces": st.lists(st.integers(1, 10), min_size=2, max_size=3),
            "potence_faces": st.lists(st.integers(1, 10), min_size=5, max_size=6),
        }
        command = {"type": kind}
        for field in FIELDS[kind]:
            if field in values and data.draw(st.booleans()):
                command[field] = data.draw(values[field])
        if bogus:
            command["bogus_field"] = 1
        role, seat = who
        before = json.dumps(self.table.state, sort_keys=True)
        version = self.table.version
        try:
            self.table.apply(command, role=role, seat=seat)
            assert not bogus
        except (ValueError, PermissionError) as err:
            assert not bogus or role == "spectator" or "bogus_field" in str(err)
            assert self.table.version == version
            assert json.dumps(self.table.state, sort_keys=True) == before

    @rule()
    def start(self):
        if self.table.state["phase"] == "setup":
            self.table.apply({"type": "start"})

    @invariant()
    def fold_matches(self):
        assert fold(self.table.events) == self.table.state

    @invariant()
    def version_grows(self):
        assert self.table.version >= self.last_version
        self.last_version = self.table.version

    def teardown(self):
        state = self.table.state
        self.store.close()
        again = TableStore(self.path).open("T")
        assert again.state == state
        again._store.close()
        self.dir.cleanup()


TableMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_table_machine = TableMachine.TestCase
