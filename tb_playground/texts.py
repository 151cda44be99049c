"""The rule texts the pages cite, shipped with the package (``tb_playground/rules/``).

``RULES.md`` is the digest the engine implements (it settles disagreements); the numbered
``.txt`` files are the source texts it quotes: rules/000 the main chapter, 001 movement, 002 the
question-and-answer quick reference, 003 the old roll-over draft, 004 the quick reference.
A clone, a wheel and a served page all have them.
"""

from __future__ import annotations

import re
from importlib import resources

#: The digest's file name.
DIGEST = "RULES.md"

#: Source texts by number: what each one is (RULES.md's table).
SOURCES = {
    "000": "Chapter 4, How to Play: the main rules text",
    "001": "Movement chapter: range bands, terrain, chases, actions",
    "002": "Player's Quick Reference (questions and answers); differs from the others in places",
    "003": "An older draft of a different dice system: 2d10 + skill, roll over a DC",
    "004": "20 Below at a Glance: the four-page table reference",
}


def rules_names() -> list[str]:
    """The file names of the packaged texts: the digest first, then the sources in order."""
    folder = resources.files("tb_playground") / "rules"
    texts = sorted(p.name for p in folder.iterdir() if p.name.endswith(".txt"))
    return [DIGEST, *texts]


def rules_text(name: str = DIGEST) -> str:
    """The text of one packaged rules file.

    Parameters
    ----------
    name : str
        ``"RULES.md"`` (the digest, the default), a source's number (``"000"``), or its file
        name with or without the ``rules/`` prefix (``"rules/000_dde7ba1e490b1c46.txt"``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``name`` names none of the packaged files.
    """
    if not isinstance(name, str):
        raise ValueError(f"name must be a rules file name or number, got {type(name).__name__}")
    names = rules_names()
    wanted = name.removeprefix("rules/")
    match = re.fullmatch(r"(\d{3})(_[0-9a-f]+)?(\.txt)?", wanted)
    if wanted not in names and match:
        wanted = next((n for n in names if n.startswith(match.group(1) + "_")), wanted)
    if wanted not in names:
        raise ValueError(f"name must be one of {', '.join(names)} or a number 000..004")
    return (resources.files("tb_playground") / "rules" / wanted).read_text(encoding="utf-8")
