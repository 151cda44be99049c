"""Characters, creatures and encounters as JSON or YAML files, with a schema version.

A file is a document ``{"kind": "character", "schema_version": 1, "data": {...}}``. ``data``
holds every input parameter of the object (never a derived one); rows (skills, weapons...) and
nested objects are nested mappings. Missing fields take their defaults.

Loading validates the *whole* document before building anything, against the parameters' own
definitions (bounds, selector choices, item types) plus the few rules that tie two fields
together (``cross_checks``). Every problem is reported as ``field.path: allowed range, got X``
in one ``ValueError``; nothing partial is ever returned.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Callable, Mapping
from pathlib import Path

import param
import yaml

from .character import Character
from .creature import Creature
from .encounter import Combatant, Encounter
from .ruleset import Ruleset

#: The version this code writes and reads.
SCHEMA_VERSION = 1

#: Document kinds and their classes.
KINDS: dict[str, type[param.Parameterized]] = {
    "character": Character,
    "creature": Creature,
    "encounter": Encounter,
    "ruleset": Ruleset,
}

#: Longest text a field may hold.
MAX_TEXT = 5000

#: Most rows a list may hold (a small file of YAML aliases must not build a million rows).
MAX_ROWS = 200

#: File suffixes and their formats.
FORMATS = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


class _YamlDumper(yaml.SafeDumper):
    """PyYAML's safe dumper, writing awkward text double-quoted so it reads back exactly."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # PyYAML writes NEL and the Unicode line and paragraph separators raw in plain and
    # single-quoted scalars, then reads them back as line breaks (folded to spaces); control
    # characters fare no better. Double quotes escape them all.
    if any(c in text for c in "\x85\u2028\u2029") or any(ord(c) < 32 and c != "\n" for c in text):
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
    return dumper.represent_str(text)


_YamlDumper.add_representer(str, _represent_text)


class FileFormatError(ValueError):
    """A file that cannot be loaded; ``errors`` lists every problem found."""

    def __init__(self, errors: list[str], source: str = "file"):
        self.errors = list(errors)
        heading = (
            f"{source}: {len(errors)} problem{'s' if len(errors) != 1 else ''}, nothing loaded"
        )
        super().__init__("\n".join([heading, *(f"  {e}" for e in errors)]))


# -- which parameters a file holds -------------------------------------------------------------


def saved_fields(cls: type[param.Parameterized]) -> dict[str, param.Parameter]:
    """The parameters of ``cls`` a file holds: every input, never a derived (constant) one."""
    transient = getattr(cls, "_transient", ())
    return {
        name: p
        for name, p in cls.param.objects("existing").items()
        if not p.constant and name not in transient
    }


def _tagged_classes(p: param.Parameter) -> dict[str, type] | None:
    """For a ClassSelector over several classes: tag -> class (the tag is the kind's name)."""
    if isinstance(p, param.ClassSelector) and isinstance(p.class_, tuple):
        return {tag: cls for tag, cls in KINDS.items() if cls in p.class_}
    return None


# -- saving -------------------------------------------------------------------------------------


def to_dict(obj: param.Parameterized) -> dict:
    """The inputs of ``obj`` as plain data (dicts, lists, str, int, bool, None)."""
    out = {}
    for name, p in saved_fields(type(obj)).items():
        out[name] = _value_to_data(p, getattr(obj, name))
    return out


def _value_to_data(p: param.Parameter, value: object) -> object:
    if isinstance(value, param.Parameterized):
        tags = _tagged_classes(p)
        if tags:
            tag = next(t for t, cls in tags.items() if isinstance(value, cls))
            return {"type": tag, **to_dict(value)}
        return to_dict(value)
    if isinstance(value, list | tuple):
        return [_value_to_data(p, v) for v in value]
    return value


def document(obj: param.Parameterized) -> dict:
    """The whole file content for ``obj``: kind, schema version and data."""
    kind = next((k for k, cls in KINDS.items() if type(obj) is cls), None)
    if kind is None:
        raise ValueError(f"obj must be one of {tuple(c.__name__ for c in KINDS.values())}")
    return {"kind": kind, "schema_version": SCHEMA_VERSION, "data": to_dict(obj)}


def dumps(obj: param.Parameterized, fmt: str = "json") -> str:
    """``obj`` as a JSON or YAML document."""
    doc = document(obj)
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if fmt == "yaml":
        return yaml.dump(doc, Dumper=_YamlDumper, sort_keys=False, allow_unicode=True, width=100)
    raise ValueError(f"fmt must be 'json' or 'yaml', got {fmt!r}")


def save(obj: param.Parameterized, path: str | Path) -> Path:
    """Write ``obj`` to ``path``; the suffix (.json, .yaml, .yml) picks the format."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"path must end in one of {tuple(FORMATS)}, got {path.name!r}")
    path.write_text(dumps(obj, fmt), encoding="utf-8")
    return path


# -- validating ---------------------------------------------------------------------------------


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _range(p: param.Number) -> str:
    low, high = p.bounds or (None, None)
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}"
    return "a whole number"


def _check_value(p: param.Parameter, value: object, path: str, errors: list[str]) -> None:
    """Append to ``errors`` every way ``value`` breaks parameter ``p``."""
    if value is None and p.allow_None and not _tagged_classes(p):
        return
    if isinstance(p, param.Boolean):
        if not isinstance(value, bool):
            errors.append(f"{path}: true or false, got {_show(value)}")
    elif isinstance(p, param.Integer):
        low, high = p.bounds or (None, None)
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Integral)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            errors.append(f"{path}: {_range(p)}, got {_show(value)}")
    elif isinstance(p, param.String):
        if not isinstance(value, str):
            errors.append(f"{path}: text, got {_show(value)}")
        elif len(value) > MAX_TEXT:
            errors.append(f"{path}: text of at most {MAX_TEXT} characters, got {len(value)}")
    elif isinstance(p, param.ListSelector):
        if not isinstance(value, list):
            errors.append(f"{path}: a list of {tuple(p.objects)}, got {_show(value)}")
            return
        for i, item in enumerate(value):
            if item not in p.objects:
                errors.append(f"{path}[{i}]: one of {tuple(p.objects)}, got {_show(item)}")
        if len(set(map(str, value))) != len(value):
            errors.append(f"{path}: each entry at most once, got {_show(value)}")
    elif isinstance(p, param.Selector):
        if value not in p.objects:
            errors.append(f"{path}: one of {tuple(p.objects)}, got {_show(value)}")
    elif isinstance(p, param.List):
        if not isinstance(value, list):
            errors.append(f"{path}: a list, got {_show(value)}")
            return
        if len(value) > MAX_ROWS:
            errors.append(f"{path}: a list of at most {MAX_ROWS} entries, got {len(value)}")
            return
        item_type = p.item_type
        for i, item in enumerate(value):
            if isinstance(item_type, type) and issubclass(item_type, param.Parameterized):
                errors.extend(validate(item_type, item, f"{path}[{i}]"))
            elif item_type is str and not isinstance(item, str):
                errors.append(f"{path}[{i}]: text, got {_show(item)}")
    elif isinstance(p, param.ClassSelector):
        tags = _tagged_classes(p)
        if tags:
            if not isinstance(value, Mapping) or value.get("type") not in tags:
                errors.append(f"{path}.type: one of {tuple(tags)}, got {_show(_get(value))}")
                return
            body = {k: v for k, v in value.items() if k != "type"}
            errors.extend(validate(tags[value["type"]], body, path))
        else:
            errors.extend(validate(p.class_, value, path))
    else:  # pragma: no cover - every saved parameter type is handled above
        errors.append(f"{path}: cannot be read from a file")


def _get(value: object) -> object:
    return value.get("type") if isinstance(value, Mapping) else value


def validate(cls: type[param.Parameterized], data: object, path: str = "") -> list[str]:
    """Every problem with ``data`` as the inputs of a ``cls``, as "path: allowed, got X".

    Parameters
    ----------
    cls : type
        A Parameterized class from ``KINDS`` or one of their rows.
    data : object
        What the file holds for it.
    path : str
        Where ``data`` sits in the file, for the messages.

    Returns
    -------
    list of str
        Empty when ``data`` is valid.
    """
    where = path or "data"
    if not isinstance(data, Mapping):
        return [f"{where}: a mapping of {cls.__name__} fields, got {_show(data)}"]
    fields = saved_fields(cls)
    errors = []
    for key in data:
        if key not in fields:
            errors.append(f"{_join(path, key)}: not a {cls.__name__} field ({', '.join(fields)})")
    invalid = set()
    for name, p in fields.items():
        if name in data:
            found: list[str] = []
            _check_value(p, data[name], _join(path, name), found)
            if found:
                invalid.add(name)
                errors.extend(found)
    # Rules across fields run whenever the fields they read are valid by themselves, so a
    # file with both kinds of problem reports both at once.
    check = CROSS_CHECKS.get(cls)
    if check is not None and not invalid & CROSS_CHECK_FIELDS[cls]:
        merged = {name: data.get(name, p.default) for name, p in fields.items()}
        errors.extend(check(merged, path))
    return errors


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


# -- rules that tie fields together ------------------------------------------------------------


def _encounter_checks(data: dict, path: str) -> list[str]:
    errors = []
    sides = data["sides"]
    for i, side in enumerate(sides):
        if sides.index(side) != i:
            errors.append(f"{_join(path, f'sides[{i}]')}: a side named once, got {_show(side)}")
    for i, combatant in enumerate(data["combatants"]):
        side = combatant.get("side", Combatant.param.side.default)
        if side not in sides:
            errors.append(
                f"{_join(path, f'combatants[{i}].side')}: one of the sides {tuple(sides)}, "
                f"got {_show(side)}"
            )
    return errors


#: Checks across fields, run once every field of the object is valid by itself.
CROSS_CHECKS: dict[type, Callable[[dict, str], list[str]]] = {
    Encounter: _encounter_checks,
}

#: The fields each cross check reads.
CROSS_CHECK_FIELDS: dict[type, set[str]] = {Encounter: {"sides", "combatants"}}


# -- loading ------------------------------------------------------------------------------------


def from_dict(cls: type[param.Parameterized], data: Mapping) -> param.Parameterized:
    """Build a ``cls`` from plain data, or raise ``FileFormatError`` listing every problem."""
    errors = validate(cls, data)
    if errors:
        raise FileFormatError(errors, cls.__name__)
    return _build(cls, data)


def _build(cls: type[param.Parameterized], data: Mapping) -> param.Parameterized:
    """Construct from data that ``validate`` accepted."""
    kwargs = {}
    for name, p in saved_fields(cls).items():
        if name in data:
            kwargs[name] = _data_to_value(p, data[name])
    return cls(**kwargs)


def _data_to_value(p: param.Parameter, value: object) -> object:
    if isinstance(p, param.ClassSelector) and isinstance(value, Mapping):
        tags = _tagged_classes(p)
        if tags:
            body = {k: v for k, v in value.items() if k != "type"}
            return _build(tags[value["type"]], body)
        return _build(p.class_, value)
    if isinstance(p, param.List) and not isinstance(p, param.ListSelector):
        item_type = p.item_type
        if isinstance(item_type, type) and issubclass(item_type, param.Parameterized):
            return [_build(item_type, item) for item in value]
        return list(value)
    if isinstance(p, param.ListSelector):
        return list(value)
    return value


#: Largest file accepted, in characters (a full sheet is about 10,000).
MAX_FILE_CHARACTERS = 2_000_000


def parse(text: str | bytes, fmt: str | None = None, source: str = "file") -> object:
    """Parse JSON or YAML text (``fmt`` None: JSON if it parses as JSON, else YAML)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FileFormatError(
                [f"{source}: UTF-8 text, got undecodable bytes ({exc})"]
            ) from None
    if fmt not in (None, "json", "yaml"):
        raise ValueError(f"fmt must be 'json', 'yaml' or None, got {fmt!r}")
    if len(text) > MAX_FILE_CHARACTERS:
        raise FileFormatError(
            [f"{source}: at most {MAX_FILE_CHARACTERS:,} characters, got {len(text):,}"], source
        )
    if fmt == "json" or (fmt is None and text.lstrip().startswith(("{", "["))):
        try:
            return json.loads(text)
        except RecursionError:
            raise FileFormatError([f"{source}: JSON nested at most a few hundred deep"]) from None
        except json.JSONDecodeError as exc:
            if fmt == "json":
                raise FileFormatError([f"{source}: valid JSON, got {exc}"], source) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise FileFormatError([f"{source}: valid JSON or YAML, got {exc}"], source) from None
    except RecursionError:
        raise FileFormatError(
            [f"{source}: JSON or YAML nested at most a few hundred deep"]
        ) from None


def validate_document(doc: object, kind: str | None = None) -> list[str]:
    """Every problem with a whole document (envelope and data)."""
    if not isinstance(doc, Mapping):
        return [f"document: a mapping with kind, schema_version and data, got {_show(doc)}"]
    errors = []
    for key in doc:
        if key not in ("kind", "schema_version", "data"):
            errors.append(f"{key}: not a document field (kind, schema_version, data)")
    allowed = (kind,) if kind else tuple(KINDS)
    if doc.get("kind") not in allowed:
        errors.append(f"kind: one of {allowed}, got {_show(doc.get('kind'))}")
    version = doc.get("schema_version")
    if version != SCHEMA_VERSION or isinstance(version, bool):
        errors.append(f"schema_version: {SCHEMA_VERSION}, got {_show(version)}")
    if "data" not in doc:
        errors.append("data: the object's fields, got nothing")
    elif doc.get("kind") in allowed:
        errors.extend(validate(KINDS[doc["kind"]], doc["data"], "data"))
    return errors


def loads(
    text: str | bytes, fmt: str | None = None, kind: str | None = None, source: str = "file"
) -> param.Parameterized:
    """Build the object a JSON or YAML document describes.

    Parameters
    ----------
    text : str or bytes
        The file's content.
    fmt : {"json", "yaml"} or None
        None guesses from the text.
    kind : str, optional
        Require this kind ("character", "creature", "encounter", "ruleset").
    source : str
        The file's name, for the messages.

    Returns
    -------
    param.Parameterized

    Raises
    ------
    FileFormatError
        A ``ValueError`` listing every problem; nothing is built.
    """
    doc = parse(text, fmt, source)
    errors = validate_document(doc, kind)
    if errors:
        raise FileFormatError(errors, source)
    return _build(KINDS[doc["kind"]], doc["data"])


def load(path: str | Path, kind: str | None = None) -> param.Parameterized:
    """Load a .json, .yaml or .yml file (see ``loads``)."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    return loads(path.read_bytes(), fmt, kind, path.name)


def load_roster(directory: str | Path) -> dict[str, list[param.Parameterized]]:
    """Every character, creature and encounter file in a directory, by kind.

    Every file is validated first; if any is bad, one ``FileFormatError`` lists every problem in
    every file and nothing is returned.

    Returns
    -------
    dict
        ``{"character": [...], "creature": [...], "encounter": [...], "ruleset": [...]}``, each
        sorted by file name.
    """
    directory = Path(directory)
    paths = sorted(p for p in directory.iterdir() if p.suffix.lower() in FORMATS)
    errors, docs = [], []
    for path in paths:
        try:
            doc = parse(path.read_bytes(), FORMATS[path.suffix.lower()], path.name)
        except FileFormatError as exc:
            errors.extend(exc.errors)
            continue
        errors.extend(f"{path.name}: {e}" for e in validate_document(doc))
        docs.append(doc)
    if errors:
        raise FileFormatError(errors, str(directory))
    out: dict[str, list] = {kind: [] for kind in KINDS}
    for doc in docs:
        out[doc["kind"]].append(_build(KINDS[doc["kind"]], doc["data"]))
    return out
