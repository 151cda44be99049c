"""Widget options in plain words, from the project's one table of display names.

``tb_playground.display`` holds the names ("Called Shot" for ``"called_shot"``, "Just enough
to stay up" for ``"stay_up"``); this module turns a parameter's choices into a widget's
``options`` (plain words -> code name) in the model's order, and ``PlainButtons`` keeps a
button group's plain words when the choices change. Presentation only.
"""

from __future__ import annotations

from collections.abc import Iterable

import panel as pn

from tb_playground.display import name


def display_name(kind: str, key: object) -> str:
    """The plain words for one code name (``display_name("ki_policy", "stay_up")``).

    Parameters
    ----------
    kind : str
        A kind of ``tb_playground.display.DISPLAY_NAMES``: "attack_kind", "ki_policy", ...
    key : str
        The code name the models use.
    """
    return name(kind, key)


def options_for(kind: str, keys: Iterable[object]) -> dict[str, object]:
    """A widget's ``options``: plain words -> code name, in the models' order."""
    return {name(kind, key): key for key in keys}


class PlainButtons(pn.widgets.RadioButtonGroup):
    """A button group whose plain-word options follow a parameter's changing choices.

    Its labels come only from Python: a ``labels`` the browser sends back is dropped. In a
    notebook BokehJS echoes a relabelling over the comm, and Panel would take the echoed
    labels for the options themselves (the code names lost), set the value to None, and
    loop on a Selector that refuses None until RecursionError (issue 22).
    """

    def _process_property_change(self, msg: dict) -> dict:
        return super()._process_property_change({k: v for k, v in msg.items() if k != "labels"})
