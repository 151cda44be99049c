"""The pages as the server runs them: one file per page, served at ``/NAME`` (floor 6).

``tb-playground serve`` (``tb_playground/__main__.py``) hands Panel's server every file of this
folder but this one; each is two lines, ``serve("NAME")``, which Panel runs for every session.
The files ``apps/*.py`` of a checkout run the same ``serve`` (the README's older command,
``panel serve apps/*.py``, still works). What ``serve`` does for one session is what each
``apps/`` file did itself before issue 34: the theme from the address, ``pn.extension``, the
combat service for ``/gm`` and ``/table``, then the page marked servable.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path


def _builders() -> dict[str, tuple[Callable, tuple[str, ...], bool]]:
    """Each page's name -> (its builder, its Panel extensions, whether it uses the service)."""
    from tb_playground.views import (
        character_page,
        damage_page,
        lab_page,
        landing_page,
        odds_page,
        rules_page,
    )
    from tb_playground.views.combat.gm_page import gm_page
    from tb_playground.views.combat.table_page import table_page
    from tb_playground.views.encounter_planner import encounter_page

    return {
        "index": (landing_page, (), False),
        "odds": (odds_page, (), False),
        "character": (character_page, ("tabulator",), False),
        "damage": (damage_page, (), False),
        "encounter": (encounter_page, (), False),
        "lab": (lab_page, (), False),
        "gm": (gm_page, (), True),
        "table": (table_page, (), True),
        "rules": (rules_page, (), False),
    }


#: The landing page, then the pages in the order of the site's navigation (``kit/shell.py``'s
#: ``PAGES``); each has its file ``NAME.py`` here.
NAMES = ("index", "odds", "damage", "character", "encounter", "gm", "table", "lab", "rules")


def serve(name: str) -> None:
    """Run page ``name`` for the session Panel is building (a page file's one call).

    Reads the theme from the address before any widget does (``?theme=light`` is the
    default), loads Panel's extensions, makes the combat service for ``/gm`` and ``/table``
    (the GM link is printed once, at start with the setup), then builds the page and marks it
    servable. Outside a served session (an import, a notebook) it builds nothing.

    Parameters
    ----------
    name : str
        One of ``NAMES``.

    Raises
    ------
    ValueError
        For a name that is no page.
    """
    import panel as pn

    from tb_playground.service import get_service
    from tb_playground.views.kit import use_known_theme

    builders = _builders()
    if name not in builders:
        raise ValueError(f"page: no page named {name!r}; the pages are {', '.join(NAMES)}")
    build, extensions, uses_service = builders[name]
    use_known_theme()
    pn.extension(*extensions, sizing_mode="stretch_width")
    if uses_service:
        get_service()
    # Not ``pn.state.served``: it asks whether its *caller's* module is the served script.
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        build().servable()


def page_files() -> list[Path]:
    """The page files the server serves (``NAME.py`` here, one per page), in ``NAMES`` order."""
    folder = Path(str(resources.files(__name__)))
    return [folder / f"{name}.py" for name in NAMES]
