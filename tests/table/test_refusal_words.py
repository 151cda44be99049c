"""Every refusal the table gives, as a page shows it, is in plain words (issue 20).

Many refused commands are driven through ``Table.apply`` (the random game of
tests/table/test_table_visibility.py, with fuzz-like bad values in random fields); each refusal goes
through ``combat_render.refusal_words``, which is what ``TableSession.send`` shows. The shown
text holds no field name, Python value or exception class name. So do the action panel's
refusals (``table/menu.py``'s reasons), the steps' (boost, prevent, rolls at the wrong step or
with bad dice) and what a phone reads when its seat is lost.
"""

from __future__ import annotations

import random
import re

import pytest
from test_table_visibility import _game, _random_command

from tb_playground.table import ConflictError
from tb_playground.views.combat import combat_render as render
from tb_playground.views.combat.combat_session import TableSession

#: Bad values a command's fields get at random: wrong kinds, out of range, odd text.
BAD = [None, -1, 0, 11, 12, 10**9, 1.5, True, False, "", "x", "🙂", [], {}, [1, 2, 12], {"a": 1}]

#: Texts a player must never read in a refusal.
CODE_WORDS = [
    "metres:", "faces[", "dice[", "expected_version", "combatant must be", "must be the id",
    "[", "]", "{", "}", "None", "True", "False", "got ", "()", "_", "ValueError", "TypeError",
    "KeyError", "PermissionError", "ConflictError", "Traceback", "unhashable", "dict",
    " id ", "ids", "type:", "type must",
]  # fmt: skip

#: A field name in front of the message, as the table writes it ("bumps: ...").
FIELD_PREFIX = re.compile(r"^[a-z_]+(\[\d+\])?: ")


def shown(text: str) -> list[str]:
    """The code words found in ``text`` (empty: plain)."""
    found = [w for w in CODE_WORDS if w in text]
    if FIELD_PREFIX.match(text):
        found.append("field prefix")
    return found


def refusals(seed: int, steps: int = 600) -> dict[str, BaseException]:
    """The table's refusals of a random game with bad values, by message."""
    rng = random.Random(seed)
    import tempfile
    from pathlib import Path

    t = _game(Path(tempfile.mkdtemp()))
    t.apply({"type": "start"})
    out: dict[str, BaseException] = {}
    for _ in range(steps):
        cmd, role, seat = _random_command(rng, t)
        for _ in range(rng.choice([0, 0, 1, 2])):
            key = rng.choice(list(cmd))
            if key != "type":
                cmd[key] = rng.choice(BAD)
        if rng.random() < 0.1:
            cmd["faces"] = rng.choice([*BAD, [3, 12], [0, 5], [4]])
        if rng.random() < 0.03:
            cmd["type"] = rng.choice(["bogus", None, 3, ["attack"]])
        expected = t.version - 1 if rng.random() < 0.03 else None
        try:
            t.apply(cmd, role=role, seat=seat, expected_version=expected)
        except Exception as err:  # noqa: BLE001 - every refusal, whatever its class
            out.setdefault(f"{type(err).__name__}: {err}", err)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_every_refusal_of_a_random_game_is_in_plain_words(seed):
    found = refusals(seed)
    assert len(found) > 60  # many different refusals, not one repeated
    bad = {}
    for message, err in found.items():
        text = render.refusal_words(err)
        assert text and (text[0].isupper() or text[0].isdigit()) and text.rstrip()[-1] in '.!?)"', (
            message,
            text,
        )
        if words := shown(text):
            bad[message] = (text, words)
    assert not bad, "\n".join(f"{m}\n  -> {t}  {w}" for m, (t, w) in list(bad.items())[:20])


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("metres: A Fast round holds 1 action; this plan takes 2.",
         "A Fast round holds 1 action; this plan takes 2."),
        ("faces[1] must be from 1 to 10, got 12", "Die 2 must be a whole number from 1 to 10."),
        ("bracket must be one of ('fast', 'normal', 'slow'), got 1.5",
         "Pick the bracket from the choices offered: fast, normal or slow."),
        ("target must be the id of a combatant at this table, got None",
         "Pick the target from the list: that one is not at this table."),
        ("type: this command belongs to the declare phase; the table is in the resolve phase",
         "That can be done only while brackets are declared; the table is playing out the round."),
    ],
)  # fmt: skip
def test_the_table_s_messages_read_as_sentences(message, expected):
    assert render.refusal_words(ValueError(message)) == expected


def test_the_other_kinds_of_refusal():
    assert render.refusal_words(PermissionError("only the GM may undo")) == (
        "Not allowed: only the GM may undo."
    )
    moved = render.refusal_words(ConflictError(4, 6, ["Ronan moves 3 m"]))
    assert moved.startswith("The table moved on while you looked") and "Ronan moves" in moved
    assert not shown(moved)
    assert render.refusal_words(TypeError("unhashable type: 'dict'")) == render.UNREADABLE


def test_a_page_shows_the_plain_words(tmp_path):
    """``TableSession.send``, which both pages show, says the refusal in plain words."""
    t = _game(tmp_path)
    session = TableSession(t, "player", "ronan", lambda: None)
    for cmd in (
        {"type": "declare", "combatant": "ronan", "bracket": "sideways"},
        {"type": "start"},
        {"type": "declare", "combatant": "ronan", "bracket": "fast", "bumps": 9},
        {"type": "distracted", "combatant": "ronan", "faces": [3, 12]},
        {"type": "move", "combatant": {"a": 1}, "metres": 3},
    ):
        text = session.send(cmd)
        assert text and not shown(text), (cmd, text)
    session.close()


def _plain(text: str) -> bool:
    """A sentence in plain words: capitalised, ended, no code word."""
    return bool(text) and text[0].isupper() and text.rstrip()[-1] in '.!?)"' and not shown(text)


@pytest.mark.parametrize("seed", [1, 3])
def test_the_action_panel_s_refusals_are_plain(seed):
    """What the action panel says of an action it may not take now (table/menu.py's reasons,
    shown through ``action_panel._refusal``) and why the panel is closed, over a random game."""
    import tempfile
    from pathlib import Path

    from tb_playground.table.menu import menu
    from tb_playground.views.combat.action_panel import _refusal

    rng = random.Random(seed)
    t = _game(Path(tempfile.mkdtemp()))
    t.apply({"type": "start"})
    said: dict[str, str] = {}
    for i in range(400):
        cmd, role, seat = _random_command(rng, t)
        try:
            t.apply(cmd, role=role, seat=seat)
        except (ValueError, PermissionError):
            pass
        if i % 4:
            continue
        for who, where in (("gm", None), ("player", "ronan"), ("player", "the-brick")):
            m = menu(t.state, who, where)
            if m["why"]:
                said.setdefault(m["why"], "why")
            for entry in m["actions"]:
                if not entry["allowed"]:
                    said.setdefault(_refusal(entry), entry["reason"])
    assert len(said) > 15
    bad = {text: reason for text, reason in said.items() if not _plain(text)}
    assert not bad, list(bad.items())[:10]


def test_the_steps_refusals_are_plain(tmp_path):
    """A boost, a keep, a prevention and a roll sent at the wrong step or with bad dice."""
    t = _game(tmp_path)
    t.apply({"type": "start"})
    for cid in t.state["ids"]:
        if t.state["phase"] == "declare":
            t.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    session = TableSession(t, "player", "ronan", lambda: None)
    gm = TableSession(t, "gm", None, lambda: None)
    while t.state["up"] != "ronan":
        gm.send({"type": "end_turn"})
    for cmd in (
        {"type": "boost", "dice": [0]},
        {"type": "prevent", "ki": 2},
        {"type": "roll", "faces": [3, 4]},
    ):
        text = session.send(cmd)
        assert _plain(text), (cmd, text)
    assert not session.send({"type": "attack", "attacker": "ronan", "target": "opponent"})
    for cmd in (
        {"type": "roll", "faces": [3, 12]},
        {"type": "roll", "faces": [3]},
        {"type": "prevent", "ki": 1},
        {"type": "boost", "dice": [99]},
        {"type": "end_turn"},
    ):
        text = session.send(cmd)
        assert _plain(text), (cmd, text)
    session.close()
    gm.close()


def test_the_seats_words_are_plain():
    """What a phone reads when its seat is taken, freed or open elsewhere, and the question."""
    from tb_playground.views.combat.seat_session import LOST_WORDS

    for words in LOST_WORDS.values():
        assert _plain(words.format(name="Ronan")), words
