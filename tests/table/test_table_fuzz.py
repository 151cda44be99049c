"""20,000 malformed commands from every role: refused by field, and nothing changes (issue 21).

A seeded generator starts from a command that fills every field its type takes with a plausible
value (so the handler's deep paths are reached) and breaks exactly one part: a field's value
(wrong kind, unhashable, huge, deeply nested), a field the command does not take, the type, a
field's name, the whole command, ``expected_version``, or the sender (a role that is not one, a
seat that is not a character's). They go from the GM, the player of each seat and a spectator
to tables in setup, declaration, resolution and with an attack waiting for its roll. Only
ValueError, PermissionError or ConflictError come back; a refusal changes neither the state nor
the version; a ValueError names the field. Every command in ``commands.HANDLERS`` has its field
list, and the handlers read no field outside it. Call times: ``benchmarks/bench_fuzz.py``.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from table_helpers import encounter, new_table, roster, soak7, start_and_declare
from test_table_visibility import _game, _random_command

from tb_playground.table import commands
from tb_playground.table.command_tools import BOOL_FIELDS, ID_FIELDS, TEXT_FIELDS, WHOLE_FIELDS
from tb_playground.table.commands import COMMANDS, FIELDS, HANDLERS
from tb_playground.table.errors import ConflictError

IDS = ["ronan", "the-brick", "opponent"]
SENDERS = [("gm", None), ("player", "ronan"), ("player", "the-brick"), ("spectator", None)]
PHASES = ("setup", "declare", "resolve", "attack")
ALLOWED = (ValueError, PermissionError, ConflictError)
N_COMMANDS = 20_000

#: Plausible words for the text fields (some right for their field, some not).
WORDS = [
    "normal", "fast", "slow", "health", "poise", "ki", "Athletics", "Perception", "Prone",
    "Off Balance", "round", "manual", "body", "head", "Party", "Foes", "restore poise",
    "refill ki", "automatic success", "shrug off", "milestone", "whisper", "dash", "walk",
    "clear", "none", "Earth", "first aid", "reckless", "full defense", "small action", "a note",
]  # fmt: skip


def plausible(rng: random.Random, kind: str, field: str) -> object:
    """A value of the right kind for ``field`` (right or wrong for the rules)."""
    if field in ID_FIELDS:
        return rng.choice(IDS)
    if field in TEXT_FIELDS:
        return rng.choice(WORDS)
    if field in WHOLE_FIELDS:
        return rng.choice([0, 1, 2, 3, 5, 7])
    if field in BOOL_FIELDS:
        return rng.random() < 0.5
    if field.endswith("faces"):
        return [rng.randint(1, 10) for _ in range(rng.choice([1, 2, 3]))]
    if field in ("members", "pursuers", "surprised", "helpers"):
        return rng.sample(IDS, rng.randint(1, 2))
    if field == "initiative":
        return dict.fromkeys(IDS, 5) if kind == "start" else 5
    if field == "dice":
        return [0]
    return rng.choice([None, 0, 1, "x", *IDS])


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


def bad_value(rng: random.Random, field: str) -> object:
    """A value ``field`` never takes: wrong in kind, size or shape; the big ones are shared."""
    pool = [
        [["ronan"]], {"a": 1}, {1: "a"}, {("t",): 1}, ("ronan",), {"ronan"}, b"ronan", object(),
        float("nan"), float("inf"), -_HUGE, _HUGE, 10**20, complex(1, 2), range(3),
        _LONG[rng.choice(list(_LONG))], _DEEP[rng.choice(list(_DEEP))],
        _MANY[rng.choice(list(_MANY))], _WIDE,
    ]  # fmt: skip
    if field in ID_FIELDS or field in TEXT_FIELDS:
        pool += [["ronan"], 3, True, {}, ""]
    elif field in WHOLE_FIELDS:
        pool += ["3", 1.5, True, [1], -(10**12)]
    elif field in BOOL_FIELDS:
        pool += [0, 1, "true", [True]]
    else:
        pool += [[], {}, -1, 1.5, "nobody", [0, 12], [None]]
    return rng.choice(pool)


def malformed(rng: random.Random, version: int) -> tuple:
    """A command with one bad part: (command, expected_version, role, seat, names, repaired).

    ``names``: the fields a refusal may name; ``repaired``: the command without its bad part,
    when the bad part is in a field (a refusal that names no field must be the repaired
    command's refusal too: the rules refused it before its bad part was read).
    """
    kind = rng.choice(COMMANDS)
    fields = FIELDS.get(kind, ())
    command: dict = {"type": kind}
    for f in fields:
        if rng.random() < 0.7:
            command[f] = plausible(rng, kind, f)
    role, seat = rng.choice(SENDERS)
    expected = None
    repaired = dict(command)
    how = rng.random()
    if how < 0.45 and fields:  # one field with a value it never takes
        field = rng.choice(fields)
        command[field] = bad_value(rng, field)
    elif how < 0.55:  # a field the command does not take
        field = rng.choice(["reach", "zz", "Type", "combatant ", "attackers", "seat", "role"])
        field = field if field not in fields else "zz"
        command[field] = plausible(rng, kind, field)
        if rng.random() < 0.5:
            command = {field: command.pop(field), **command}
    elif how < 0.63:  # the type: unhashable, unknown or missing
        repaired = None
        bad = [[kind], {"t": kind}, {kind}, 5, None, kind.upper(), "", "undo ", _LONG[501]]
        command["type"] = rng.choice(bad)
        if rng.random() < 0.1:
            del command["type"]
    elif how < 0.70:  # a field's name that is not short text
        key = rng.choice([1, None, ("a",), 2.5, True, "x" * 600])
        command[key] = 1
        if rng.random() < 0.5:
            command = {key: 1, **command}
    elif how < 0.80:  # expected_version that is not this table's version
        repaired = None
        expected = rng.choice(["3", 2.0, [1], {"v": 1}, True, -1, _HUGE, object(), version - 1])
    elif how < 0.86:  # a whole command that is not a dict
        repaired = None
        command = rng.choice([[command], "start", None, 5, (kind,), _DEEP[5_000], b"{}"])
    elif how < 0.93:  # the sender: a role that is not one, a seat that is not a character's
        repaired = None
        role, seat = rng.choice(
            [("admin", None), (None, None), (["gm"], None), ("GM", None), ("gm", "ronan"),
             ("player", None), ("player", "opponent"), ("player", "nobody"),
             ("player", ["ronan"]), ("spectator", {"x": 1}), ("player", _HUGE)]
        )  # fmt: skip
    else:  # a huge command: many fields, or one huge text
        for i in range(rng.choice([120, 2_000])):
            command[f"f{i}"] = "y" * 200
    names = {"type", "command", "expected_version", "role", "seat", *fields}
    if isinstance(command, dict):
        names |= {k for k in command if isinstance(k, str)}
    return command, expected, role, seat, names, repaired


#: The refusal names a field first: "bumps: ...", "faces[1] must be ...", "role must be ...".
_NAMED = re.compile(r"^(?P<field>[A-Za-z_][\w ]*?)(\[\d+\]|\.\w+)*(:| must| is| has| of|,| -)")


def names_a_field(message: str, names: set) -> bool:
    m = _NAMED.match(message)
    return bool(m) and (m["field"] in names or m["field"].split(" ")[0] in names)


class Reads(dict):
    """A command that remembers which fields its handler asked for (``get``, ``[]``, ``in``)."""

    read: dict[str, set] = {}

    def _saw(self, key):
        Reads.read.setdefault(dict.get(self, "type"), set()).add(key)

    def get(self, key, default=None):
        self._saw(key)
        return dict.get(self, key, default)

    def __getitem__(self, key):
        self._saw(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        self._saw(key)
        return dict.__contains__(self, key)


def make_table(tmp_path, phase: str, n: int):
    party = (roster("ronan.json"), roster("the_brick.json"))
    where = tmp_path / f"{phase}-{n}"
    where.mkdir()
    _, table = new_table(where, encounter(*party, foes=[soak7()]), seed=3)
    if phase == "declare":
        table.apply({"type": "start", "initiative": dict.fromkeys(IDS, 5)})
    elif phase != "setup":
        start_and_declare(table, {})
    if phase == "attack":  # an attack waits for its to-hit roll
        up = table.state["up"]
        target = next(c for c in IDS if c != up)
        table.apply({"type": "attack", "attacker": up, "target": target})
    return table


def snapshot(table) -> str:
    return json.dumps(table._state, sort_keys=True)


def test_every_command_has_its_field_list():
    """A new command without a field list fails here (and refuses every field meanwhile)."""
    missing = sorted(set(HANDLERS) - set(FIELDS))
    assert not missing, f"commands without a field list in commands.FIELDS: {missing}"
    assert not set(FIELDS) - set(HANDLERS)
    for kind, fields in FIELDS.items():
        assert len(set(fields)) == len(fields) and "type" not in fields, kind
        assert all(isinstance(f, str) and f.isidentifier() for f in fields), kind


@pytest.mark.parametrize("role, seat", SENDERS)
def test_an_unknown_field_is_refused_by_name_for_every_command(tmp_path, role, seat):
    table = make_table(tmp_path, "resolve", 0)
    state, version = table.state, table.version
    for kind in COMMANDS:
        with pytest.raises(ValueError, match=r"^zz_unknown: the table does not know") as info:
            table.apply({"type": kind, "zz_unknown": 1}, role, seat)
        assert "zz_unknown" in str(info.value)
        for field in FIELDS.get(kind, ()):
            assert field in str(info.value)  # and says which fields it takes
    assert table.state == state and table.version == version


def test_handlers_read_only_their_declared_fields(tmp_path):
    """Every field a handler asks for, on a random game's paths and the fuzz's, is declared."""
    Reads.read = {}
    rng = random.Random(5)
    t = _game(tmp_path)
    t.apply({"type": "start"})
    for _ in range(1_500):
        cmd, role, seat = _random_command(rng, t)
        try:
            t.apply(Reads(cmd), role=role, seat=seat)
        except ALLOWED:
            pass
    undeclared = {
        kind: sorted(read - {"type", *FIELDS[kind]})
        for kind, read in Reads.read.items()
        if kind in FIELDS and read - {"type", *FIELDS[kind]}
    }
    assert not undeclared
    assert len(Reads.read) > 30  # most commands were reached


def test_malformed_commands_are_refused_by_field_and_change_nothing(tmp_path):
    tables = [make_table(tmp_path, phase, 0) for phase in PHASES]
    snapshots = [snapshot(t) for t in tables]
    rng = random.Random(21)
    Reads.read = {}
    refused, accepted, rebuilt, unnamed = {}, 0, 0, {}
    for n in range(N_COMMANDS):
        i = n % len(tables)
        table = tables[i]
        command, expected, role, seat, names, repaired = malformed(rng, table.version)
        if isinstance(command, dict) and not isinstance(command.get("type", ""), list | dict | set):
            command = Reads(command)
        version = table.version
        try:
            table.apply(command, role, seat, expected_version=expected)
        except ALLOWED as exc:
            name = type(exc).__name__
            refused[name] = refused.get(name, 0) + 1
            message = str(exc)
            assert message and len(message) < 2_000, (command, message[:300])
            assert table.version == version, str(command)[:300]
            assert snapshot(table) == snapshots[i], str(command)[:300]
            if type(exc) is ValueError and not names_a_field(message, names):
                # A rule's refusal in plain words: the same without the bad part.
                again = "accepted"
                try:
                    table.apply(repaired, role, seat) if repaired is not None else None
                except ALLOWED as other:
                    again = str(other)
                if again != message:
                    unnamed.setdefault(message[:160], f"{str(command)[:200]} -> {again[:100]}")
                if again == "accepted":
                    tables[i] = make_table(tmp_path, PHASES[i], n + 1)
                    snapshots[i] = snapshot(tables[i])
                    rebuilt += 1
            continue
        except Exception as exc:  # noqa: BLE001 - the failure names the command
            pytest.fail(f"{type(exc).__name__}: {exc} from {role} {seat}: {str(command)[:300]}")
        # Accepted: the broken part was one no path of this command reads (e.g. "faces" typed
        # for a roll the table makes anyway). A fresh table keeps the phase under test.
        accepted += 1
        tables[i] = make_table(tmp_path, PHASES[i], n + 1)
        snapshots[i] = snapshot(tables[i])
        rebuilt += 1
    undeclared = {
        kind: sorted(read - {"type", *FIELDS[kind]})
        for kind, read in Reads.read.items()
        if kind in FIELDS and read - {"type", *FIELDS[kind]}
    }
    print(f"\nrefused {refused}, accepted {accepted} (tables rebuilt {rebuilt})")
    assert not undeclared
    assert not unnamed, "\n".join(f"{m!r} <- {c}" for m, c in list(unnamed.items())[:25])
    assert accepted < N_COMMANDS // 50
    assert sum(refused.values()) + accepted == N_COMMANDS


def test_decide_itself_refuses_what_apply_would():
    """``decide`` (what a notebook may call directly) refuses a malformed shape by itself."""
    state = make_state()
    for command in ({"type": "note", "text": _DEEP[50]}, {"type": ["note"]}, [1], {1: 2}):
        with pytest.raises(ValueError):
            commands.decide(state, command, "gm", None, lambda n: [5] * n)


def make_state() -> dict:
    import tempfile
    from pathlib import Path

    return make_table(Path(tempfile.mkdtemp()), "setup", 0).state
