"""The example roster (characters, creatures, encounters): its one reader.

``roster_dir`` finds ``examples/roster/`` in a checkout or the installed package data; every
page, the service and the lab read the roster here (``example_roster`` parses it once a process).
Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from .creature import Creature
from .encounter import Encounter
from .files import FORMATS, FileFormatError, load, load_roster, parse

_PACKAGE = Path(__file__).resolve().parents[1]

#: Where the roster may be, in order: a checkout's examples, then the installed package data.
ROSTER_DIRS = (_PACKAGE.parent / "examples" / "roster", _PACKAGE / "roster")

#: What marks an encounter file's name ("warehouse.encounter.yaml").
ENCOUNTER_MARK = ".encounter."

#: Most copies of one unnamed creature a side may take from the roster.
COPIES = 4

_ORDINALS = {2: "a second", 3: "a third", 4: "a fourth"}


def roster_dir() -> Path | None:
    """The first roster folder that exists (``ROSTER_DIRS``), or None."""
    return next((d for d in ROSTER_DIRS if d.is_dir()), None)


def _files(directory: Path | None) -> list[Path]:
    """The roster's files in name order (those ``models.files`` reads)."""
    if directory is None:
        return []
    return sorted(p for p in directory.iterdir() if p.suffix.lower() in FORMATS)


def encounter_files(directory: Path | None = None) -> dict[str, Path]:
    """The example encounter files by label ("warehouse"), from ``directory`` or ``roster_dir``."""
    directory = directory or roster_dir()
    return {
        p.name.removesuffix(".encounter.yaml"): p
        for p in _files(directory)
        if ENCOUNTER_MARK in p.name
    }


def creature_files(directory: Path | None = None) -> dict[str, Path]:
    """The example character and creature files by file name."""
    directory = directory or roster_dir()
    return {p.name: p for p in _files(directory) if ENCOUNTER_MARK not in p.name}


@dataclass(frozen=True)
class CharacterFile:
    """One character file of the roster: its name on screen, its file name and its text."""

    name: str
    file_name: str
    text: bytes


@dataclass(frozen=True)
class RosterEntry:
    """One character or creature file of the roster, as the pickers offer it."""

    file_name: str
    name: str
    kind: str  # "character" or "creature"
    named: bool


@dataclass(frozen=True)
class ExampleRoster:
    """The parsed example roster.

    Attributes
    ----------
    directory : Path or None
        Where it was read from (None: no roster found).
    creatures : tuple of Creature
        Shared by every session: read them, never change them in place.
    characters : tuple of CharacterFile
        Each character's file, in file-name order.
    problem : str
        Why the roster is empty, when it is ("" otherwise).
    entries : tuple of RosterEntry
        Every character and creature file, in file-name order.
    encounters : tuple of str
        The encounter files' names, in order.
    """

    directory: Path | None = None
    creatures: tuple[Creature, ...] = ()
    characters: tuple[CharacterFile, ...] = field(default_factory=tuple)
    problem: str = ""
    entries: tuple[RosterEntry, ...] = ()
    encounters: tuple[str, ...] = ()

    def path(self, file_name: str) -> Path:
        """The path of one of the roster's files; a ValueError if it has none of that name."""
        if self.directory is None:
            raise ValueError(self.problem or "No example roster was found next to the package.")
        if file_name in self.encounters:
            return self.directory / file_name
        if file_name not in {e.file_name for e in self.entries}:
            raise ValueError(f"No roster file called {file_name}.")
        return self.directory / file_name


def read_roster(directory: Path | None) -> ExampleRoster:
    """Parse one roster folder (uncached); an unreadable one gives an empty roster saying why."""
    if directory is None:
        return ExampleRoster(problem="No example roster was found next to the package.")
    try:
        loaded = load_roster(directory)
        # load_roster reads the files in name order: pair each object with its file so.
        by_kind: dict[str, list[Path]] = {}
        for path in _files(directory):
            kind = parse(path.read_bytes(), FORMATS[path.suffix.lower()], path.name).get("kind")
            by_kind.setdefault(kind, []).append(path)
        character_paths = by_kind.get("character", [])
        creature_paths = by_kind.get("creature", [])
        characters = tuple(
            CharacterFile(character.name, path.name, path.read_bytes())
            for path, character in zip(character_paths, loaded["character"], strict=True)
        )
        entries = [
            RosterEntry(path.name, str(c.name), "character", True)
            for path, c in zip(character_paths, loaded["character"], strict=True)
        ] + [
            RosterEntry(path.name, str(c.name), "creature", bool(c.named))
            for path, c in zip(creature_paths, loaded["creature"], strict=True)
        ]
    except (FileFormatError, OSError, ValueError, AttributeError) as exc:
        return ExampleRoster(directory, problem=f"The example roster could not be read: {exc}")
    return ExampleRoster(
        directory,
        tuple(loaded["creature"]),
        characters,
        entries=tuple(sorted(entries, key=lambda e: e.file_name)),
        encounters=tuple(p.name for p in by_kind.get("encounter", [])),
    )


_lock = threading.Lock()
_cache: dict[str, ExampleRoster] = {}


def example_roster() -> ExampleRoster:
    """The example roster, parsed once per process (thread-safe)."""
    with _lock:
        if "roster" not in _cache:
            _cache["roster"] = read_roster(roster_dir())
        return _cache["roster"]


def encounter_choices() -> dict[str, str]:
    """The example encounter files for a picker: label ("Warehouse") -> file name."""
    return {
        name.split(ENCOUNTER_MARK)[0].replace("_", " ").capitalize(): name
        for name in example_roster().encounters
    }


def roster_choices() -> dict[str, str]:
    """The pickers' options, label -> value: each file, and extra copies of unnamed creatures.

    A value is the file name, with ``#2``, ``#3``... for a further copy ("Guard dog, a second").
    """
    out = {}
    for entry in example_roster().entries:
        label = entry.name if entry.kind == "creature" else f"{entry.name} (character)"
        out[label] = entry.file_name
        if not entry.named:
            for k in range(2, COPIES + 1):
                out[f"{entry.name}, {_ORDINALS[k]}"] = f"{entry.file_name}#{k}"
    return out


def build_encounter(encounter_file: str, party: list[str], foes: list[str]) -> Encounter:
    """An Encounter from an example encounter file (or none) and roster picks for each side.

    Every combatant is loaded afresh from its file, so the Encounter is the caller's to change.

    Parameters
    ----------
    encounter_file : str
        A file name of ``encounter_choices`` or "" for none.
    party, foes : list of str
        Roster values (``roster_choices``): added to the first side and to the second.

    Raises
    ------
    ValueError
        No roster, or a file name it does not hold.
    """
    roster = example_roster()
    if roster.problem:
        raise ValueError(roster.problem)
    if encounter_file:
        if encounter_file not in roster.encounters:
            raise ValueError(f"No example encounter file called {encounter_file}.")
        enc = load(roster.path(encounter_file), "encounter")
    else:
        enc = Encounter(name="Planned encounter")
    sides = list(enc.sides) if len(enc.sides) >= 2 else ["Party", "Foes"]
    for side, picks in ((sides[0], party), (sides[1], foes)):
        for value in picks:
            enc.add(load(roster.path(str(value).split("#")[0])), side)
    return enc


__all__ = [
    "ROSTER_DIRS",
    "CharacterFile",
    "ExampleRoster",
    "RosterEntry",
    "build_encounter",
    "creature_files",
    "encounter_choices",
    "encounter_files",
    "example_roster",
    "read_roster",
    "roster_choices",
    "roster_dir",
]
