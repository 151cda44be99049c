"""20,000 malformed commands from every role: only ValueError, PermissionError or ConflictError.

A seeded generator (issue 21) sends wrong types for every field of every command (the fields in
``commands.FIELDS`` and those the older commands read), unhashable ids and types, deep nesting,
huge numbers and texts, and malformed ``expected_version``, to tables in setup, declaration and
resolution. A refused command changes nothing; no call takes a second (the p99 is printed).
"""

from __future__ import annotations

import json
import random
import time

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare

from tb_playground.table import fold
from tb_playground.table.commands import COMMANDS, FIELDS
from tb_playground.table.errors import ConflictError

#: The fields the commands without a ``FIELDS`` entry read.
OLDER_FIELDS = {
    "start": ("surprised", "initiative"),
    "declare": ("combatant", "bracket", "bumps"),
    "roll": ("faces", "roll", "boosts"),
    "boost": ("dice",),
    "prevent": ("ki", "sanity_ki"),
    "spend_ki": ("combatant", "purpose"),
    "set_condition": ("combatant", "condition", "until", "difficulty"),
    "clear_condition": ("combatant", "condition"),
    "set": ("combatant", "field", "value"),
    "hide": ("combatant",),
    "show": ("combatant",),
    "share": ("on",),
    "set_range": ("a", "b", "band"),
    "note": ("text",),
    "shake_off": ("combatant", "difficulty", "faces"),
    "add": ("document", "side", "hidden", "initiative"),
    "distracted": ("combatant", "difficulty", "faces"),
    "lead": ("combatant", "leader"),
    "spend_fate": ("combatant", "spend", "condition", "roll", "magnitude", "range"),
    "fate_gain": ("combatant", "reason"),
    "fate_confirm": ("combatant", "accept"),
}

IDS = ["ronan", "the-brick", "opponent"]
SENDERS = [("gm", None), ("player", "ronan"), ("player", "the-brick"), ("spectator", None)]
PHASES = ("setup", "declare", "resolve", "attack")
ALLOWED = (ValueError, PermissionError, ConflictError)
N_COMMANDS = 20_000


def _deep(n: int, leaf: object = 1) -> object:
    value = leaf
    for i in range(n):
        value = [value] if i % 2 else {"x": value}
    return value


_HUGE = 10**4301
_DEEP = {n: _deep(n) for n in (5, 50, 5_000)}
_LONG = {n: "x" * n for n in (501, 5_000, 100_000)}
_MANY = {n: list(range(n)) for n in (101, 10_000)}
_WIDE = {str(i): i for i in range(150)}


def _bad_value(rng: random.Random) -> object:
    """A value no field takes (each wrong in type, size or shape); the big ones are shared."""
    return rng.choice(
        [
            [],
            ["ronan"],
            [["ronan"]],
            {},
            {"a": 1},
            {1: "a"},
            {("t",): 1},
            ("ronan",),
            {"ronan"},
            b"ronan",
            object(),
            1.5,
            float("nan"),
            float("inf"),
            -_HUGE,
            _HUGE,
            10**20,
            _LONG[rng.choice(list(_LONG))],
            _DEEP[rng.choice(list(_DEEP))],
            _MANY[rng.choice(list(_MANY))],
            _WIDE,
            complex(1, 2),
            True,
            -1,
            "",
            "nobody",
            range(3),
        ]
    )


def _command(rng: random.Random) -> tuple[object, object]:
    """(command, expected_version): a command with at least one malformed part."""
    kind = rng.choice([*COMMANDS, *COMMANDS])
    fields = FIELDS.get(kind) or OLDER_FIELDS.get(kind) or ("combatant",)
    command: dict = {"type": kind}
    for f in rng.sample(fields, min(len(fields), rng.randint(0, 3))):
        command[f] = rng.choice([*IDS, 0, 1, 2, "normal", "fast", True, None])
    expected = None
    how = rng.random()
    if how < 0.55:  # a field of the command with a wrong value
        command[rng.choice(fields)] = _bad_value(rng)
    elif how < 0.65:  # an unhashable or unknown type
        command["type"] = rng.choice([[kind], {"t": kind}, {kind}, 5, None, kind.upper(), ""])
    elif how < 0.75:  # a field name that is not text, or nesting and size anywhere
        key = rng.choice([1, None, ("a",), 2.5, "x" * 600])
        command[key] = 1
        if rng.random() < 0.5:
            command = {key: 1, **command}
    elif how < 0.85:  # expected_version that is not a version
        expected = rng.choice(["3", 2.0, [1], {"v": 1}, None, True, -1, _HUGE, object()])
        if expected is None or rng.random() < 0.3:
            command[rng.choice(fields)] = _bad_value(rng)
    elif how < 0.92:  # a whole command that is not a dict
        command = rng.choice([[command], "start", None, 5, (kind,), _DEEP[5_000]])
    else:  # a huge command: many fields, or one huge text
        for i in range(rng.choice([120, 2_000])):
            command[f"f{i}"] = "y" * 200
    return command, expected


def _tables(tmp_path):
    party = (roster("ronan.json"), roster("the_brick.json"))
    made = []
    for phase in PHASES:
        _, table = new_table(tmp_path / phase, encounter(*party, foes=[soak7()]), seed=3)
        if phase == "declare":
            table.apply({"type": "start", "initiative": dict.fromkeys(IDS, 5)})
        else:
            start_and_declare(table, {})
        if phase == "attack":  # an attack waits for its to-hit roll
            up = table.state["up"]
            target = next(c for c in IDS if c != up)
            table.apply({"type": "attack", "attacker": up, "target": target})
        made.append(table)
    return made


def _snapshot(table) -> str:
    return json.dumps(table._state, sort_keys=True)


def test_malformed_commands_are_refused_by_name_and_change_nothing(tmp_path):
    for phase in PHASES:
        (tmp_path / phase).mkdir()
    tables = _tables(tmp_path)
    snapshots = [_snapshot(t) for t in tables]
    rng = random.Random(21)
    times, refused, accepted = [], {}, 0
    for n in range(N_COMMANDS):
        i = n % len(tables)
        table = tables[i]
        role, seat = rng.choice(SENDERS)
        command, expected = _command(rng)
        version = table.version
        start = time.perf_counter()
        try:
            table.apply(command, role, seat, expected_version=expected)
        except ALLOWED as exc:
            times.append(time.perf_counter() - start)
            refused[type(exc).__name__] = refused.get(type(exc).__name__, 0) + 1
            assert str(exc), command
            assert table.version == version, command
            if n % 97 == 0:
                assert _snapshot(table) == snapshots[i], command
            continue
        except Exception as exc:  # noqa: BLE001 - the failure names the command
            pytest.fail(f"{type(exc).__name__}: {exc} from {role} {seat}: {str(command)[:300]}")
        times.append(time.perf_counter() - start)
        accepted += 1  # a malformed field no path of this command reads: it did its job
        snapshots[i] = _snapshot(table)
    for table, snapshot in zip(tables, snapshots, strict=True):
        assert _snapshot(table) == snapshot
        assert fold(table.events) == table._state
    times.sort()
    p99 = times[int(len(times) * 0.99)]
    print(
        f"\nrefused {refused}, accepted {accepted}; "
        f"p99 {p99 * 1e3:.2f} ms, max {times[-1] * 1e3:.1f} ms"
    )
    assert accepted < N_COMMANDS // 50
    assert times[-1] < 1.0
