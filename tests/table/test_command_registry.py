"""One home per command: each rule module declares its commands, ``commands.py`` collects them.

ARCHITECTURE.md "Adding a command": a command is one ``Command`` in the ``COMMANDS`` of its rule
module (handler, fields, the words of the events it makes). These tests fail for a command or an
event that lacks a part, or that has two homes.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
from test_table_every_event import event_kinds

import tb_playground.table as table_package
from tb_playground.table import commands, menu
from tb_playground.table.command_record import Command

#: Events the table words itself (``table_log``): the table's birth, an undo and a redo.
TABLE_OWN = {"created", "undone", "redone"}


def _modules_with_commands() -> set[str]:
    found = set()
    for info in pkgutil.iter_modules(table_package.__path__):
        module = importlib.import_module(f"tb_playground.table.{info.name}")
        if isinstance(getattr(module, "COMMANDS", None), tuple) and info.name != "commands":
            found.add(info.name)
    return found


def test_every_rule_module_with_commands_is_collected():
    collected = {m.__name__.rsplit(".", 1)[1] for m in commands.RULE_MODULES}
    assert _modules_with_commands() == collected


def test_every_event_a_rule_makes_has_words_in_one_command():
    """A new event without words (or words for an event nobody makes) fails here."""
    made = event_kinds()
    assert made - TABLE_OWN - set(commands.EVENT_WORDS) == set(), "events without words"
    assert set(commands.EVENT_WORDS) - made == set(), "words for events nobody makes"
    assert set(commands.EVENT_CALLED) <= made


def test_every_command_has_a_handler_and_plain_fields():
    for name, command in commands.REGISTRY.items():
        assert command.name == name and callable(command.handler), name
        assert isinstance(command.fields, tuple), name
        assert all(callable(w) for w in command.words.values()), name
    assert set(commands.COMMANDS) == {*commands.REGISTRY, "undo", "redo"}


def test_commands_py_only_collects():
    """No handler is written in commands.py: it holds the collection and ``decide``."""
    tree = ast.parse(Path(commands.__file__).read_text())
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert functions == {"collect", "event_words", "check_sender", "decide"}


def _module(*declared: Command):
    return type("Module", (), {"COMMANDS": declared})


def test_a_command_declared_twice_is_refused():
    def handler(state, command, role, seat, roll):
        return []

    one = Command("x", handler)
    with pytest.raises(RuntimeError, match="the command 'x' is declared twice"):
        commands.collect([_module(one), _module(Command("x", handler))])


def test_the_words_of_an_event_declared_twice_are_refused():
    def handler(state, command, role, seat, roll):
        return []

    def words(r, d):
        return "said"

    a = Command("a", handler, words={"said": words})
    b = Command("b", handler, words={"said": words})
    with pytest.raises(RuntimeError, match="the words of the event 'said' are declared twice"):
        commands.event_words(commands.collect([_module(a, b)]))


def test_the_menu_offers_commands_by_name():
    """Each entry builder of the action panel belongs to a command the table knows."""
    assert {name for name, _build in menu.MENU} <= set(commands.REGISTRY)
    assert len({id(build) for _name, build in menu.MENU}) == len(menu.MENU)
