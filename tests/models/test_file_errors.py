"""Character-file errors in plain sentences, and YAML alias bombs refused while parsing.

Issue 10: the sheet showed Python reprs (``kind: one of ('character',), got 'creature'``,
PyYAML's ``"<unicode string>", line 1, column 8``, ``got 'this is not json {'``), and a YAML
file of a few kilobytes whose aliases expand hugely held the server for seconds.
"""

from __future__ import annotations

import pytest
import yaml

from tb_playground.models import Creature, files
from tb_playground.models.files import MAX_YAML_EXPANDED, FileFormatError, dumps, loads, parse

REPR_SIGNS = ("('", "<unicode string>", "got '", "\\t", "'<", "Traceback")


def _errors(text, **kwargs) -> list[str]:
    with pytest.raises(FileFormatError) as info:
        loads(text, **kwargs)
    for error in info.value.errors:
        for sign in REPR_SIGNS:
            assert sign not in error, (sign, error)
    return info.value.errors


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        (dumps(Creature()), "This file holds a creature, not a character."),
        ("this is not json {", "This is not a JSON or YAML character file."),
        ("12", "This is not a JSON or YAML character file."),
        (
            '{"kind": "character", ',
            "JSON error on line 1, column 23: Expecting property name enclosed in double quotes.",
        ),
        ("[1, 2]", "This file holds a list, not a character file (kind, schema_version and data)."),
        (b"\xff\xfe", "This file is not UTF-8 text: byte 1 cannot be read."),
        (
            '{"kind": "spaceship", "schema_version": 1, "data": {}}',
            "This file says it holds a spaceship, not a character (its kind must say which).",
        ),
        (
            '{"schema_version": 1, "data": {}}',
            "This file does not say what it holds: its kind must be character.",
        ),
    ],
)
def test_character_file_errors_are_plain_sentences(text, sentence):
    assert _errors(text, kind="character") == [sentence]


@pytest.mark.parametrize("loader", [yaml.SafeLoader, files._YAML_LOADER])
@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("name: a: b", "line 1, column 8", "mapping values are not allowed"),
        ("kind: character\ndata:\n\t- b", "line 3, column 1", "it is a tab: indent with spaces"),
        ("kind: [", "line ", "node content"),
        ('kind: "open', "line ", "quoted scalar"),
    ],
)
def test_yaml_errors_give_line_and_column_in_a_sentence(monkeypatch, loader, text, where, words):
    monkeypatch.setattr(files, "_YAML_LOADER", loader)
    (error,) = _errors(text, kind="character")
    assert error.startswith(f"YAML error on {where}") and error.endswith(".")
    assert words in error


def test_json_declared_file_reports_the_json_error():
    with pytest.raises(FileFormatError) as info:
        loads("kind: character", fmt="json", kind="character")
    assert info.value.errors == ["JSON error on line 1, column 1: Expecting value."]


def test_the_field_list_is_kept_as_it_is():
    text = '{"kind": "character", "schema_version": 1, "data": {"air": 99, "name": 3}}'
    assert sorted(_errors_with_fields(text)) == [
        "data.air: a whole number from 0 to 10, got 99",
        "data.name: text, got 3",
    ]


def _errors_with_fields(text):
    with pytest.raises(FileFormatError) as info:
        loads(text, kind="character")
    return info.value.errors


def _bomb(levels: int = 9, width: int = 9, leaf: int = 100) -> str:
    """The billion-laughs shape: each anchor names a list of ``width`` aliases to the last."""
    lines = [f'a0: &a0 ["{"x" * leaf}"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    lines.append(f"kind: character\nschema_version: 1\ndata: {{name: *a{levels}}}")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_is_refused_while_parsing_before_anything_is_built(monkeypatch):
    text = _bomb()
    assert len(text) < 1000  # a few hundred bytes that would expand to 9**9 * 100 characters
    built = []
    monkeypatch.setattr(files, "_build", lambda *a: built.append(a))
    constructed = []
    original = files._YAML_LOADER.construct_document
    monkeypatch.setattr(
        files._YAML_LOADER,
        "construct_document",
        lambda self, node: constructed.append(node) or original(self, node),
    )
    errors = _errors(text)  # no clock here: refused before any node is built (below)
    assert errors == [
        "This YAML file's aliases (*name) would make it more than 2,000,000 characters long; "
        "nothing was read from it."
    ]
    assert built == [] and constructed == []  # refused while composing the node graph


@pytest.mark.parametrize("loader", [yaml.SafeLoader, files._YAML_LOADER])
def test_the_bomb_is_refused_with_either_parser(monkeypatch, loader):
    monkeypatch.setattr(files, "_YAML_LOADER", loader)
    with pytest.raises(FileFormatError, match="would make it more than"):
        parse(_bomb())
    assert parse("a: &a [1, 2]\nb: *a\n") == {"a": [1, 2], "b": [1, 2]}


def test_an_anchor_inside_itself_is_refused():
    with pytest.raises(FileFormatError) as info:
        parse("a: &a [1, *a]\n")
    (error,) = info.value.errors
    assert error.startswith(("This YAML file has an alias", "YAML error on line"))


def test_a_big_yaml_file_is_refused_before_parsing(monkeypatch):
    text = "rows:\n" + "  - {name: row, value: 1}\n" * 10_000
    parsed = []  # no clock here: the YAML parser is never called
    monkeypatch.setattr(files, "_yaml_load", lambda t: parsed.append(t))
    with pytest.raises(FileFormatError, match="at most 100,000 are allowed"):
        parse(text)
    assert parsed == []


def test_too_many_aliases_are_refused():
    text = "a: &a x\nb: [" + ", ".join(["*a"] * 1001) + "]\n"
    with pytest.raises(FileFormatError, match="more than 1,000 aliases"):
        parse(text)


def test_aliases_that_stay_small_still_load():
    # An anchor used a few times expands to little: a hand-written file may do this.
    text = (
        "kind: character\nschema_version: 1\n"
        "data:\n  name: &n Ash\n  descriptors: [{name: *n}, {name: *n}]\n"
    )
    c = loads(text, kind="character")
    assert c.name == "Ash" and [d.name for d in c.descriptors] == ["Ash", "Ash"]


def test_the_expansion_bound_counts_each_alias_at_its_full_size():
    leaf = MAX_YAML_EXPANDED // 100
    just_under = "a: &a " + "x" * leaf + "\nb: [" + ", ".join(["*a"] * 98) + "]\n"
    assert len(parse(just_under)["b"]) == 98
    over = "a: &a " + "x" * leaf + "\nb: [" + ", ".join(["*a"] * 100) + "]\n"
    with pytest.raises(FileFormatError, match="aliases"):
        parse(over)
