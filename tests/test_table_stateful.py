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

from tb_playground.models import Gift
from tb_playground.table import TableStore, fold
from tb_playground.table.commands import COMMANDS

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


_FACES = st.sampled_from([[1, 1], [10, 10], [5, 6], [9, 9], [3], [0, 4]])
_MOSTLY_RONAN = st.sampled_from(["ronan", "ronan", "ronan", *IDS])

#: Gifts and scars (issue 19): their commands with plausible fields, and overrides that move
#: the Vitals across 0.
gift_and_scar_commands = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("use_gift"),
            "combatant": _MOSTLY_RONAN,
            "gift": st.sampled_from([1, 1, "Iron Ward", 0, 2, "Onslaught", "nope", True]),
        },
        optional={
            "effect": st.text(max_size=10),
            "free": st.booleans(),
            "faces": _FACES,
            "target": st.sampled_from(["opponent", "the-brick"]),
        },
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("attack"),
            "attacker": _MOSTLY_RONAN,
            "target": st.sampled_from(["opponent", *IDS]),
            "attack": st.sampled_from([1, 2, 2, 0, 3]),
        }
    ),
    st.fixed_dictionaries({"type": st.just("roll")}, optional={"faces": _FACES}),
    st.fixed_dictionaries(
        {
            "type": st.just("name_scar"),
            "combatant": _MOSTLY_RONAN,
            "scar": st.sampled_from([0, 0, 1, 2, -1, 9]),
            "effect": st.sampled_from(["a limp", "A limp", "", "a tic"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("heal_scar"),
            "combatant": _MOSTLY_RONAN,
            "scar": st.sampled_from([0, 0, 1, -1, 9]),
        }
    ),
    st.fixed_dictionaries({"type": st.just("scar_reading"), "flaw_until_healed": st.booleans()}),
    st.fixed_dictionaries(
        {
            "type": st.just("set"),
            "combatant": _MOSTLY_RONAN,
            "field": st.sampled_from(["health", "sanity", "poise", "ki", "exhausted"]),
            "value": st.integers(-6, 4),
        }
    ),
)


def _gifted(ronan):
    """Ronan with a Gift that asks a Gift Check and makes no attack, and one that attacks."""
    ward = Gift(name="Iron Ward", level=2, dice=0, ki_cost=2, gift_check=True)
    loop = Gift(name="Feedback Loop", level=2, dice=4, kind="mental", ki_cost=2, gift_check=True)
    ronan.gifts = [*ronan.gifts, ward, loop]
    return ronan


class TableMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "t.sqlite"
        enc = encounter(_gifted(roster("ronan.json")), roster("the_brick.json"), foes=[soak7()])
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

    @rule(command=gift_and_scar_commands, who=st.sampled_from([("gm", None), *ROLES]))
    def gift_or_scar(self, command, who):
        role, seat = who
        before = json.dumps(self.table.state, sort_keys=True)
        version = self.table.version
        try:
            self.table.apply(command, role=role, seat=seat)
        except (ValueError, PermissionError):
            assert self.table.version == version
            assert json.dumps(self.table.state, sort_keys=True) == before

    @rule(attack=st.sampled_from([1, 2]), faces=_FACES)
    def gift_attack(self, attack, faces):
        """Drive the fight to Ronan's Gift attacks and their Gift Checks (issue 19)."""
        state = self.table.state
        if state["phase"] == "declare":
            self.table.apply({"type": "reveal"})
        state = self.table.state
        if state["phase"] != "resolve" or state["pending"] is not None:
            return
        if state["up"] != "ronan":
            self.table.apply({"type": "end_turn"})
            return
        for command in (
            {"type": "attack", "attacker": "ronan", "target": "opponent", "attack": attack},
            {"type": "roll", "faces": faces},
        ):
            self.gift_or_scar(command, ("player", "ronan"))

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
