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
from tb_playground.table.armor_at_table import REPAIR_FIELDS
from tb_playground.table.attack_options import ATTACK_FIELDS, RULING_FIELDS
from tb_playground.table.commands import COMMANDS, FIELDS
from tb_playground.table.help_action import HELP_FIELDS

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
        "type": st.sampled_from(
            [*COMMANDS, "end_turn", "end_turn", "roll", "roll", "continue", "bogus"]
        ),
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
        "condition": st.sampled_from(
            ["Prone", "Off Balance", "Belly Down", "Distracted", "Exhausted", "Shattered", "Nope"]
        ),
        "purpose": st.sampled_from(["restore poise", "restore sanity"]),
        "spend": st.sampled_from(
            ["refill ki", "get back up", "shrug off", "automatic success", "kotodama", "wish"]
        ),
        "leader": st.sampled_from(IDS),
        "reason": st.sampled_from(["nature", "flaw", "disadvantage", "milestone", "gm", "luck"]),
        "accept": st.sampled_from([True, False, "yes"]),
        "fact": st.sampled_from(["The door is unlocked.", ""]),
        "magnitude": st.integers(-1, 3),
        "range": st.integers(0, 2),
        "plausibility": st.sampled_from(["whisper", "murmur", "shout", "scream"]),
        "difficulty": st.integers(-1, 11),
        "action": st.sampled_from(["skill", "study", "reckless", "full defense", "fly"]),
        "empowered": st.sampled_from([None, None, "aim", "called shot"]),
        "band": st.sampled_from(["melee", "close", "far"]),
        "a": st.sampled_from(IDS),
        "b": st.sampled_from(IDS),
        # issue 19: the attack's options, Help, the GM's ruling, table options, armor repair
        "ally": st.sampled_from(IDS),
        "approach": st.sampled_from(["Earth", "Fire", "Moira", "Aether"]),
        "off_hand": st.booleans(),
        "helpers": st.lists(st.sampled_from(IDS), max_size=2),
        "situational": st.lists(
            st.fixed_dictionaries(
                {
                    "name": st.sampled_from(["Dark", "Rain", ""]),
                    "effect": st.sampled_from(["advantage", "disadvantage", "both"]),
                    "reason": st.just("the GM says so"),
                }
            ),
            max_size=2,
        ),
        "cover": st.sampled_from(["none", "partial", "full", "wall"]),
        "zone": st.sampled_from(["head", "body", "tail"]),
        "distance": st.integers(-1, 60),
        "option": st.sampled_from(["approach_nod", "share_chance", "fog"]),
        "levels": st.integers(-1, 4),
    }
)

#: Well-formed commands for the rules of issue 19 (items 5, 6, 8).
known = st.sampled_from(
    [
        {"type": "set", "combatant": "ronan", "field": "sanity", "value": -1},
        {"type": "set", "combatant": "opponent", "field": "health", "value": 0},
        {"type": "set", "combatant": "the-brick", "field": "exhausted", "value": 5},
        {"type": "set", "combatant": "the-brick", "field": "poise", "value": -1},
        {"type": "lead", "combatant": "ronan", "leader": "the-brick"},
        {"type": "set_condition", "combatant": "ronan", "condition": "Distracted"},
        {"type": "distracted", "combatant": "ronan", "faces": [10, 10]},
        {"type": "distracted", "combatant": "the-brick", "faces": [2, 3]},
        {"type": "spend_fate", "combatant": "ronan", "spend": "automatic success"},
        {"type": "spend_fate", "combatant": "ronan", "spend": "shrug off",
         "condition": "Shattered"},
        {"type": "spend_fate", "combatant": "ronan", "spend": "kotodama", "fact": "Rain.",
         "magnitude": 0, "range": 1, "plausibility": "murmur"},
        {"type": "fate_gain", "combatant": "ronan", "reason": "flaw"},
        {"type": "fate_gain", "combatant": "ronan", "reason": "disadvantage"},
        {"type": "fate_gain", "reason": "milestone"},
        {"type": "fate_confirm", "combatant": "ronan", "accept": True},
        {"type": "attack", "attacker": "ronan", "target": "opponent", "empowered": "aim"},
        {"type": "attack", "attacker": "the-brick", "target": "opponent", "attack": 3},
        {"type": "foe_odds", "show": "none"},
        {"type": "foe_odds", "show": "exact"},
        {"type": "continue"},
        {"type": "end_scene"},
        {"type": "chase_start", "quarry": "ronan", "pursuers": ["opponent"], "metres": 6,
         "sight_m": 12},
        {"type": "chase_declare", "combatant": "ronan", "how": "sprint"},
        {"type": "chase_declare", "combatant": "opponent", "how": "dash"},
        {"type": "chase_roll", "combatant": "ronan", "faces": [1, 2, 3]},
        {"type": "chase_roll", "combatant": "opponent", "faces": [10, 10]},
        {"type": "chase_search", "pursuer": "opponent", "actor_faces": [4, 5], "static": 5},
        {"type": "chase_ruling", "broken": True},
        {"type": "chase_end"},
    ]
)  # fmt: skip

#: Commands that refuse a field they do not take: the machine sends them their own fields
#: (or, when ``strict`` is off, everything, which they must refuse).
OWN_FIELDS = {
    "attack": ATTACK_FIELDS,
    "help": HELP_FIELDS,
    "attack_ruling": RULING_FIELDS,
    "table_option": ("type", "option", "on"),
    "repair_armor": REPAIR_FIELDS,
}


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

    @rule(
        command=commands,
        who=st.sampled_from(ROLES),
        faces=st.booleans(),
        strict=st.sampled_from([True, True, True, False]),
        keep=st.sets(st.sampled_from(sorted({f for fs in OWN_FIELDS.values() for f in fs}))),
    )
    def send(self, command, who, faces, strict, keep):
        command = {k: v for k, v in command.items() if v is not None}
        own = OWN_FIELDS.get(command["type"])
        if own and strict:  # its own fields, each there or not
            command = {k: v for k, v in command.items() if k in own and (k in keep or k == "type")}
        if faces and command["type"] in ("roll", "distracted"):
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
            return
        # a command holding a field it does not take is refused, whoever sends it
        assert not (own and set(command) - set(own)), command

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
            # the chase (chase_phase.FIELDS)
            "quarry": st.sampled_from(IDS),
            "pursuers": st.lists(st.sampled_from(IDS), max_size=2),
            "pursuer": st.sampled_from(IDS),
            "harder": st.integers(-1, 3),
            "sight_m": st.integers(0, 40),
            "broken": st.booleans(),
            "gear": st.booleans(),
            "lost": st.booleans(),
            "actor_faces": st.lists(st.integers(1, 10), min_size=2, max_size=3),
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

    @rule(
        faces=st.sampled_from([[1, 1, 2], [10, 10, 10], [5, 6, 4], [9, 9, 1]]),
        how=st.sampled_from(["move", "dash", "sprint"]),
        who=st.sampled_from([("gm", None), ("player", "ronan")]),
    )
    def chase(self, faces, how, who):
        """Drive a chase (chase_phase): start it, declare, roll, search, from its due list."""
        state = self.table.state
        if state["phase"] != "chase":
            command = {"type": "chase_start", "quarry": "ronan", "pursuers": ["opponent"],
                       "metres": 6, "sight_m": 14}  # fmt: skip
            self.gift_or_scar(command, ("gm", None))
            return
        due = self.table.view_for("gm")["chase"]["due"]
        if due["search"]:
            command = {
                "type": "chase_search",
                "pursuer": due["search"][0],
                "actor_faces": faces[:2],
                "static": 5,  # the card gives no number against Stealth
            }
            self.gift_or_scar(command, ("gm", None))
        elif due["declare"]:
            command = {"type": "chase_declare", "combatant": due["declare"][0], "how": how}
            self.gift_or_scar(command, who)
        elif due["roll"]:
            for count in (2, 3):
                command = {
                    "type": "chase_roll",
                    "combatant": due["roll"][0],
                    "faces": faces[:count],
                }
                self.gift_or_scar(command, who)
        else:
            self.gift_or_scar({"type": "chase_end"}, ("gm", None))

    @rule()
    def start(self):
        if self.table.state["phase"] == "setup":
            self.table.apply({"type": "start"})

    @rule(command=known, who=st.sampled_from(ROLES))
    def send_known(self, command, who):
        """Well-formed commands of the new rules (Distracted, leading, Fate, the end of a
        fight), from every role: each goes through or is refused and changes nothing."""
        self.send(command, who, faces=False, strict=False, keep=set())

    @invariant()
    def over_means_one_side_left(self):
        state = self.table.state
        if state["phase"] == "over":
            assert state["over"]["phase"] in ("declare", "resolve")

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
