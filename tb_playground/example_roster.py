"""The example roster (Ronan, The Brick, the creatures...), found once and parsed once.

``examples/roster/`` in a checkout is the one source of truth; an installed package carries a
copy as package data in ``tb_playground/roster/`` (see setup.py). This module finds whichever
is there, parses it once per process (``load_roster`` takes one to several seconds on a busy
machine; every new page session used to pay it) and hands out:

- the creatures, shared read-only between sessions (never edit one in place: copy it);
- the characters as their file text, so each load builds a fresh ``Character`` that a session
  may edit freely, the same way an uploaded file is loaded.

If no roster is found (or a file in it is broken) the roster is empty and the pages fall back to
a default creature and no picker entries.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from .models import Creature, FileFormatError, load_roster
from .models.files import FORMATS, parse

_PACKAGE = Path(__file__).resolve().parent

#: Where the roster may be, in order: a checkout's examples, then the installed package data.
ROSTER_DIRS = (_PACKAGE.parent / "examples" / "roster", _PACKAGE / "roster")


@dataclass(frozen=True)
class CharacterFile:
    """One character file of the roster: its name on screen, its file name and its text."""

    name: str
    file_name: str
    text: bytes


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
    """

    directory: Path | None = None
    creatures: tuple[Creature, ...] = ()
    characters: tuple[CharacterFile, ...] = field(default_factory=tuple)
    problem: str = ""


_lock = threading.Lock()
_cache: dict[str, ExampleRoster] = {}


def roster_dir() -> Path | None:
    """The first roster folder that exists (``ROSTER_DIRS``), or None."""
    return next((d for d in ROSTER_DIRS if d.is_dir()), None)


def read_roster(directory: Path | None) -> ExampleRoster:
    """Parse one roster folder (uncached); an unreadable one gives an empty roster saying why."""
    if directory is None:
        return ExampleRoster(problem="No example roster was found next to the package.")
    try:
        loaded = load_roster(directory)
        # load_roster reads the files in name order; pair each character with its file so.
        character_files = [
            path
            for path in sorted(p for p in directory.iterdir() if p.suffix.lower() in FORMATS)
            if parse(path.read_bytes(), FORMATS[path.suffix.lower()], path.name).get("kind")
            == "character"
        ]
        characters = tuple(
            CharacterFile(character.name, path.name, path.read_bytes())
            for path, character in zip(character_files, loaded["character"], strict=True)
        )
    except (FileFormatError, OSError, ValueError, AttributeError) as exc:
        return ExampleRoster(directory, problem=f"The example roster could not be read: {exc}")
    return ExampleRoster(directory, tuple(loaded["creature"]), characters)


def example_roster() -> ExampleRoster:
    """The example roster, parsed once per process (thread-safe)."""
    with _lock:
        if "roster" not in _cache:
            _cache["roster"] = read_roster(roster_dir())
        return _cache["roster"]
