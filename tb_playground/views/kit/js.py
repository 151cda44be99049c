"""The pages' browser-side scripts, read from ``views/js/*.js`` (shipped with the package)."""

from __future__ import annotations

from importlib import resources


def script(name: str) -> str:
    """The text of ``views/js/NAME``."""
    return (resources.files("tb_playground") / "views" / "js" / name).read_text(encoding="utf-8")
