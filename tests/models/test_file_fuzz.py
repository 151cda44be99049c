"""5,000 malformed files: only ``FileFormatError`` (a ValueError), naming the field (issue 21).

A seeded generator takes the example files and puts a wrong value at a random place: a kind
that is a mapping or a list, numbers of thousands of digits, deep nesting, wrong types for a
field. Each goes through ``loads`` (as JSON or YAML text) or, for values no file can hold,
through ``validate_document`` and ``from_dict`` as Python data; every refusal names the field
(or ``kind``), deep nesting and long texts included. Call times: ``benchmarks/bench_fuzz.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from tb_playground.models import files
from tb_playground.models.files import KINDS, FileFormatError, from_dict, loads, validate_document

ROSTER = Path(__file__).resolve().parents[2] / "examples" / "roster"
N_FILES = 5_000
HUGE = "HUGE_NUMBER_PLACEHOLDER"


def _docs() -> list[dict]:
    out = []
    for path in sorted(ROSTER.iterdir()):
        text = path.read_text(encoding="utf-8")
        out.append(json.loads(text) if path.suffix == ".json" else yaml.safe_load(text))
    return out


def _deep(n: int) -> object:
    value: object = 1
    for i in range(n):
        value = [value] if i % 2 else {"x": value}
    return value


def _depth(value: object) -> int:
    """How many lists and mappings ``value`` nests (without recursion: some nest 5,000)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            todo.extend((v, depth + 1) for v in value)
        deepest = max(deepest, depth)
    return deepest


def _places(doc: dict) -> list[tuple[list, str]]:
    """Every (path of keys, path as the messages write it) inside ``doc["data"]``."""
    out = []
    todo = [(["data"], "data", doc["data"])]
    while todo:
        keys, shown, value = todo.pop()
        if isinstance(value, dict):
            for k, v in value.items():
                todo.append(([*keys, k], f"{shown}.{k}", v))
                out.append(([*keys, k], f"{shown}.{k}"))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                todo.append(([*keys, i], f"{shown}[{i}]", v))
                out.append(([*keys, i], f"{shown}[{i}]"))
    return out


def _put(doc: dict, keys: list, value: object) -> None:
    for k in keys[:-1]:
        doc = doc[k]
    doc[keys[-1]] = value


#: Values no field takes, as text (JSON) and as Python data only.
TEXT_BAD = [
    {"a": 1},
    [[1]],
    [{"x": [1]}],
    HUGE,
    10**7,
    -(10**7),
    _deep(40),
    {"type": {"a": 1}},
    {"type": ["character"]},
]
DATA_BAD = [
    *TEXT_BAD,
    10**4301,
    -(10**4301),
    {("a",): 1},
    {1: 2},
    object(),
    {"x"},
    b"bytes",
    _deep(5000),
    complex(1, 2),
]
KIND_BAD = [{"a": 1}, ["character"], {"character": 1}, 10**4301, 1.5, True, _deep(30), ""]


def _text(doc: dict, rng: random.Random) -> tuple[str, str | None]:
    digits = "9" * rng.choice([31, 4301, 50_000])
    text = json.dumps(doc).replace(f'"{HUGE}"', digits)
    return text, rng.choice([None, "json", "yaml"])


def test_malformed_files_are_refused_by_field(tmp_path):
    docs = _docs()
    rng = random.Random(21)
    for n in range(N_FILES):
        doc = json.loads(json.dumps(rng.choice(docs)))
        mode = rng.random()
        if mode < 0.15:
            doc["kind"] = rng.choice(KIND_BAD)
            expected = "kind"
        else:
            keys, expected = rng.choice(_places(doc))
            pool = TEXT_BAD if mode < 0.6 else DATA_BAD
            _put(doc, keys, rng.choice(pool))
        try:
            text, fmt = _text(doc, rng)
        except (TypeError, ValueError, RecursionError):  # not JSON: Python data only
            text = None
        if text is not None and (fmt != "yaml" or len(text) < files.MAX_YAML_CHARACTERS):
            with pytest.raises(FileFormatError) as info:
                loads(text, fmt)
            message = str(info.value)
        else:
            errors = validate_document(doc)
            assert errors, doc
            message = "\n".join(errors)
            if isinstance(doc.get("kind"), str) and doc["kind"] in KINDS:
                with pytest.raises(FileFormatError) as info:
                    from_dict(KINDS[doc["kind"]], doc["data"])
                inside = expected.removeprefix("data.").removeprefix("data")  # from "data"
                assert inside in str(info.value), (n, inside, str(info.value)[:500])
        if text is not None and _depth(doc) > 900:
            # Deeper than any parser reads (libyaml stops at 1,000 levels; Python 3.13's json
            # writes what 3.11's could not): refused before any field is read, in words.
            expected = "nested too deep"
        assert expected in message, (n, expected, message[:500])
