"""docs/ARCHITECTURE.md names every module of the package, one line each (issue 30, item 4).

"What each room holds" has one sub-heading per package folder (``### table/``; the package's
own top is ``### tb_playground/``) and under it a list with one line per module,
"- `live_table.py`: one live table: ...". These tests read that section and the tree (pathlib
only, no import of the package): every ``.py`` file but ``__init__.py`` is named once, under
its own folder, with a description; a name with no file behind it is stale.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tb_playground"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
SECTION = "## What each room holds"

#: A package sub-heading: "### table/", "### views/kit/", "### tb_playground/".
HEADING = re.compile(r"^### (?P<folder>\S+/)\s*$")
#: A module's line: "- `name.py`: what it holds."
ITEM = re.compile(r"^- `(?P<name>[^`/]+\.py)`:(?P<text>.*)$")


def _section() -> list[str]:
    """The lines of "What each room holds", up to the next ``## `` heading."""
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    assert SECTION in lines, f"docs/ARCHITECTURE.md has no '{SECTION}' section"
    start = lines.index(SECTION) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def _folder(heading: str) -> str:
    """A heading's folder, relative to the package ("" for the package's own top)."""
    return "" if heading == "tb_playground/" else heading.rstrip("/")


def _shown(folder: str) -> str:
    """The sub-heading of ``folder``: "table/", "views/kit/", "tb_playground/"."""
    return f"{folder}/" if folder else "tb_playground/"


def documented() -> tuple[list[tuple[str, str, str]], list[str]]:
    """Each module line as (folder, file name, description), and the lines that do not parse.

    A line starting "- " under a package heading must be a module's line; text in paragraphs
    and list lines before the first heading are free.
    """
    found, bad = [], []
    folder = None
    for line in _section():
        heading = HEADING.match(line)
        if heading:
            folder = _folder(heading["folder"])
        elif line.startswith("### "):
            bad.append(f"{line!r}: a sub-heading here names one folder, as '### views/kit/'")
            folder = None
        elif folder is not None and line.startswith("- "):
            item = ITEM.match(line)
            if item:
                found.append((folder, item["name"], item["text"].strip()))
            else:
                bad.append(f"{line!r} under {_shown(folder)}: write '- `name.py`: what it holds.'")
    return found, bad


def modules() -> set[tuple[str, str]]:
    """Every module of the package as (folder, file name), ``__init__.py`` left out."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py" and "__pycache__" not in path.parts:
            folder = path.parent.relative_to(PACKAGE).as_posix()
            found.add(("" if folder == "." else folder, path.name))
    return found


def _by_folder(pairs) -> str:
    folders: dict[str, list[str]] = {}
    for folder, name in sorted(pairs):
        folders.setdefault(folder, []).append(name)
    return "; ".join(f"under '### {_shown(f)}': {', '.join(n)}" for f, n in folders.items())


def test_the_section_parses():
    found, bad = documented()
    assert found, f"no module lines found in docs/ARCHITECTURE.md '{SECTION}'"
    assert not bad, "docs/ARCHITECTURE.md, lines that do not parse:\n" + "\n".join(bad)


def test_every_module_is_named_and_every_name_is_a_module():
    found, _bad = documented()
    named = {(folder, name) for folder, name, _text in found}
    actual = modules()
    problems = []
    if actual - named:
        problems.append(
            "add a line for each module not in docs/ARCHITECTURE.md "
            f"('- `name.py`: what it holds.') {_by_folder(actual - named)}"
        )
    if named - actual:
        problems.append(
            f"remove (or move to its folder) each stale name: {_by_folder(named - actual)}"
        )
    assert not problems, "\n".join(problems)


def test_every_module_is_named_once():
    found, _bad = documented()
    twice = [pair for pair, n in Counter((f, name) for f, name, _t in found).items() if n > 1]
    assert not twice, f"named more than once, keep one line each: {_by_folder(twice)}"


def test_every_module_line_says_what_it_holds():
    found, _bad = documented()
    empty = [(folder, name) for folder, name, text in found if not text.rstrip(".")]
    assert not empty, f"write what each of these holds after its colon: {_by_folder(empty)}"


def test_every_heading_is_a_package_folder():
    headings = [_folder(m["folder"]) for line in _section() if (m := HEADING.match(line))]
    missing = [f for f in headings if not (PACKAGE / f).is_dir()]
    assert not missing, f"sub-headings with no such folder: {', '.join(map(_shown, missing))}"
    repeated = [f for f, n in Counter(headings).items() if n > 1]
    assert not repeated, f"one sub-heading per folder: {', '.join(map(_shown, repeated))}"
