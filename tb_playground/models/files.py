"""Characters, creatures and encounters as JSON or YAML files, with a schema version.

``{"kind": ..., "schema_version": 1, "data": {...}}``: loading validates the whole document
against the parameters' own definitions and ``cross_checks`` before building anything, and reports
every problem in one ``ValueError``. Notes: docs/notes/0002-characters.md, docs/notes/0007-pages.md.
"""

from __future__ import annotations

import json
import numbers
import re
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

#: Fields version 1 gained after files were first written, with the default that reads an older
#: file exactly as before; so an old file loads unchanged and the version stays 1 (a change that
#: an old file could not be read under would need version 2 and a step from 1). Issue 19: a
#: Gift's ranges (0 and 0 is Melee, as every Gift attack was at the table).
ADDED_FIELDS: dict[str, object] = {"Gift.normal_range": 0, "Gift.long_range": 0}

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

#: Largest whole number (in size) a file may hold: no field needs more, and a number of
#: thousands of digits is refused as a field's problem, not a crash (issue 21).
MAX_NUMBER = 10**6

#: Most digits a number in a file may be written with before it is refused unread.
MAX_DIGITS = 30

#: Deepest a document may nest lists and mappings (a character file nests about six).
MAX_DEPTH = 16

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


class BigNumber:
    """A number written with more than ``MAX_DIGITS`` digits, kept unread.

    The field that holds it is then reported (Python refuses to read numbers of more than
    4,300 digits, with a ValueError that names no field).
    """

    def __init__(self, text: str):
        self.digits = len(text.lstrip("+-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits:,} digits"


def _show(value: object) -> str:
    text = _brief(value, 0)
    return text if len(text) <= 60 else text[:57] + "..."


def _brief(value: object, depth: int) -> str:
    """A short repr that never reads more than a few items or levels, nor a huge number."""
    if isinstance(value, str):
        return repr(value[:61])
    if isinstance(value, bool) or value is None or isinstance(value, float | BigNumber):
        return repr(value)
    if isinstance(value, numbers.Integral):
        if -(10**50) < value < 10**50:
            return repr(value)
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    if isinstance(value, list | tuple | Mapping):
        if depth >= 3:
            return "[...]" if not isinstance(value, Mapping) else "{...}"
        if isinstance(value, Mapping):
            items = [
                f"{_brief(k, depth + 1)}: {_brief(v, depth + 1)}"
                for k, v in list(value.items())[:20]
            ]
        else:
            items = [_brief(v, depth + 1) for v in value[:20]]
        more = [", ..."] if len(value) > 20 else []
        inner = ", ".join(items) + "".join(more)
        if isinstance(value, Mapping):
            return "{" + inner + "}"
        return (
            ("[" if isinstance(value, list) else "(")
            + inner
            + ("]" if isinstance(value, list) else ")")
        )
    return f"a {type(value).__name__}"


def _too_deep(doc: object) -> str | None:
    """The path of the first list or mapping nested deeper than ``MAX_DEPTH``, if any."""
    todo = [("", doc, 1)]
    while todo:
        path, value, depth = todo.pop()
        if isinstance(value, Mapping | list):
            if depth > MAX_DEPTH:
                return path or "data"
            pairs = value.items() if isinstance(value, Mapping) else enumerate(value)
            for key, item in pairs:
                where = f"{path}[{key}]" if isinstance(value, list) else _join(path, key)
                todo.append((where, item, depth + 1))
    return None


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
            or not -MAX_NUMBER < value < MAX_NUMBER
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
        if len(value) > MAX_ROWS:
            errors.append(f"{path}: a list of at most {MAX_ROWS} entries, got {len(value)}")
            return
        bad = False
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in p.objects:
                errors.append(f"{path}[{i}]: one of {tuple(p.objects)}, got {_show(item)}")
                bad = True
        if not bad and len(set(value)) != len(value):
            errors.append(f"{path}: each entry at most once, got {_show(value)}")
    elif isinstance(p, param.Selector):
        if not _is_plain(value) or value not in p.objects:
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
            if (
                not isinstance(value, Mapping)
                or not isinstance(value.get("type"), str)
                or value.get("type") not in tags
            ):
                errors.append(f"{path}.type: one of {tuple(tags)}, got {_show(_get(value))}")
                return
            body = {k: v for k, v in value.items() if k != "type"}
            errors.extend(validate(tags[value["type"]], body, path))
        else:
            errors.extend(validate(p.class_, value, path))
    else:  # pragma: no cover - every saved parameter type is handled above
        errors.append(f"{path}: cannot be read from a file")


def _is_plain(value: object) -> bool:
    """A value a selector may be compared with: text, a number or nothing (never a list)."""
    return value is None or isinstance(value, str | bool | float | numbers.Integral)


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
    name = key if isinstance(key, str) else _show(key)
    return f"{path}.{name}" if path else name


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

#: Largest YAML file accepted, in characters: a full sheet is about 2,000, and YAML parses
#: a hundred times slower than JSON (100,000 characters take about a quarter of a second,
#: much of it holding the interpreter, so a server's other sessions wait on it).
MAX_YAML_CHARACTERS = 100_000

#: Most YAML aliases (``*name``) a file may use; our own files use none.
MAX_YAML_ALIASES = 1000

#: Largest a YAML file may grow to with every alias spelled out, in characters and nodes
#: (the same bound as a file: aliases must not make a small file big).
MAX_YAML_EXPANDED = MAX_FILE_CHARACTERS

#: libyaml's parser when it is there (about ten times faster), else PyYAML's own.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlTooBigError(yaml.YAMLError):
    """A YAML file whose aliases would make it huge (an alias bomb), or refer to themselves."""


def _check_aliases(root: yaml.Node) -> None:
    """Refuse an alias bomb from the composed node graph, before any Python object is built.

    Each node's size with its aliases spelled out (one per node plus the characters of each
    scalar) is worked out once, so the check is linear in the file however far the aliases
    would expand; a node reached a second time is an alias. Past ``MAX_YAML_EXPANDED``, past
    ``MAX_YAML_ALIASES`` aliases, or for a node that contains itself, it raises
    ``YamlTooBigError``.
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    aliases = 0

    def size(node: yaml.Node) -> int:
        nonlocal aliases
        key = id(node)
        if key in sizes:
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise YamlTooBigError(
                    f"This YAML file uses more than {MAX_YAML_ALIASES:,} aliases (*name); "
                    "a character file needs none."
                )
            return sizes[key]
        if key in open_nodes:
            raise YamlTooBigError("This YAML file has an alias (*name) inside its own anchor.")
        open_nodes.add(key)
        if isinstance(node, yaml.ScalarNode):
            total = 1 + len(node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(item) for item in node.value)
        else:
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        open_nodes.discard(key)
        sizes[key] = total
        if total > MAX_YAML_EXPANDED:
            raise YamlTooBigError(
                "This YAML file's aliases (*name) would make it more than "
                f"{MAX_YAML_EXPANDED:,} characters long; nothing was read from it."
            )
        return total

    size(root)


def _read_int(text: str) -> int | BigNumber:
    """A JSON whole number, or ``BigNumber`` past ``MAX_DIGITS`` digits (left unread)."""
    return BigNumber(text) if len(text) > MAX_DIGITS else int(text)


class _Loader(_YAML_LOADER):  # type: ignore[valid-type,misc]
    """The YAML loader, leaving numbers of more than ``MAX_DIGITS`` digits unread."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> object:
        if len(node.value) > MAX_DIGITS:
            return BigNumber(node.value)
        return super().construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _yaml_load(text: str) -> object:
    """Compose the YAML node graph, check its aliases, and only then build the data."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliases(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _yaml_sentence(exc: yaml.YAMLError, text: str) -> str:
    """A YAML parser error as "YAML error on line L, column C: what went wrong."."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    if mark is None or problem is None:
        return "This is not a readable YAML file."
    context = getattr(exc, "context", None)
    said = f"{problem} ({context})" if context else problem
    said = said.replace("'<stream end>'", "the end of the file")
    said = said.replace(" '\\t'", "")
    said = re.sub(r"'<([a-z ]+)>'", r"\1", said)
    lines = text.splitlines()
    if mark.line < len(lines) and lines[mark.line][mark.column : mark.column + 1] == "\t":
        said += "; it is a tab: indent with spaces"
    return f"YAML error on line {mark.line + 1}, column {mark.column + 1}: {said}."


def _json_sentence(exc: json.JSONDecodeError) -> str:
    return f"JSON error on line {exc.lineno}, column {exc.colno}: {exc.msg}."


def parse(text: str | bytes, fmt: str | None = None, source: str = "file") -> object:
    """Parse JSON or YAML text (``fmt`` None: JSON if it parses as JSON, else YAML).

    Raises
    ------
    FileFormatError
        With one plain sentence: not UTF-8, too big, a JSON or YAML error with its line and
        column, or a YAML alias bomb (refused while parsing, before anything is built).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FileFormatError(
                [f"This file is not UTF-8 text: byte {exc.start + 1} cannot be read."], source
            ) from None
    if fmt not in (None, "json", "yaml"):
        raise ValueError(f"fmt must be 'json', 'yaml' or None, got {fmt!r}")
    if len(text) > MAX_FILE_CHARACTERS:
        raise FileFormatError(
            [
                f"This file holds {len(text):,} characters; "
                f"at most {MAX_FILE_CHARACTERS:,} are allowed."
            ],
            source,
        )
    looks_like_json = text.lstrip().startswith(("{", "["))
    if fmt == "yaml" or not looks_like_json:
        if len(text) > MAX_YAML_CHARACTERS:
            raise FileFormatError(
                [
                    f"This YAML file holds {len(text):,} characters; at most "
                    f"{MAX_YAML_CHARACTERS:,} are allowed (save it as JSON for more)."
                ],
                source,
            )
    if fmt == "json" or (fmt is None and looks_like_json):
        try:
            return json.loads(text, parse_int=_read_int)
        except RecursionError:
            raise FileFormatError(
                ["This JSON is nested too deep (at most a few hundred levels)."], source
            ) from None
        except json.JSONDecodeError as exc:
            if fmt == "json" or looks_like_json:
                raise FileFormatError([_json_sentence(exc)], source) from None
    try:
        return _yaml_load(text)
    except YamlTooBigError as exc:
        raise FileFormatError([str(exc)], source) from None
    except yaml.YAMLError as exc:
        if "nesting depth" in str(exc):  # libyaml's own bound (1,000 levels)
            mark = getattr(exc, "problem_mark", None)
            where = f" on line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            raise FileFormatError(
                [f"This YAML is nested too deep{where} (at most a few hundred levels)."], source
            ) from None
        raise FileFormatError([_yaml_sentence(exc, text)], source) from None
    except RecursionError:
        raise FileFormatError(
            ["This YAML is nested too deep (at most a few hundred levels)."], source
        ) from None


def _kind_words(kind: str | None) -> str:
    return kind if kind else "character, creature, encounter or ruleset"


def validate_document(doc: object, kind: str | None = None) -> list[str]:
    """Every problem with a whole document (envelope and data).

    What the file is (not a document, the wrong kind) is said in a plain sentence; the
    fields' problems follow as "field.path: allowed, got X".
    """
    if isinstance(doc, list):
        return [
            f"This file holds a list, not a {_kind_words(kind)} file "
            "(kind, schema_version and data)."
        ]
    if not isinstance(doc, Mapping):
        return [f"This is not a JSON or YAML {_kind_words(kind)} file."]
    errors = []
    for key in doc:
        if key not in ("kind", "schema_version", "data"):
            errors.append(f"{_join('', key)}: not a document field (kind, schema_version, data)")
    deep = _too_deep(doc)
    if deep:
        return [
            *errors,
            f"{deep}: nested too deep (at most {MAX_DEPTH} levels of lists and fields)",
        ]
    allowed = (kind,) if kind else tuple(KINDS)
    found = doc.get("kind")
    if found is not None and not isinstance(found, str):
        errors.append(f"kind: {_kind_words(kind)} (a word), got {_show(found)}")
    elif found not in allowed:
        if kind and found in KINDS:
            errors.append(f"This file holds a {found}, not a {kind}.")
        elif isinstance(found, str) and found:
            errors.append(
                f"This file says it holds a {found[:60]}, not a {_kind_words(kind)} "
                "(its kind must say which)."
            )
        else:
            errors.append(
                f"This file does not say what it holds: its kind must be {_kind_words(kind)}."
            )
    version = doc.get("schema_version")
    if not isinstance(version, int) or version != SCHEMA_VERSION or isinstance(version, bool):
        errors.append(f"schema_version: {SCHEMA_VERSION}, got {_show(version)}")
    if "data" not in doc:
        errors.append("data: the object's fields, got nothing")
    elif found in allowed:
        errors.extend(validate(KINDS[found], doc["data"], "data"))
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
            errors.extend(f"{path.name}: {e}" for e in exc.errors)
            continue
        errors.extend(f"{path.name}: {e}" for e in validate_document(doc))
        docs.append(doc)
    if errors:
        raise FileFormatError(errors, str(directory))
    out: dict[str, list] = {kind: [] for kind in KINDS}
    for doc in docs:
        out[doc["kind"]].append(_build(KINDS[doc["kind"]], doc["data"]))
    return out
