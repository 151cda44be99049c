"""User text in option labels shows as text, never as HTML (issue 33, item 1).

Bokeh's ``MultiChoice`` draws its labels with Choices.js as HTML: a name like
``<img src=x onerror=...>`` would run on the GM page ("Who gives chase"). The pages use the kit's
``TextMultiChoice``, whose labels reach the browser escaped while the values stay as they are.
The browser check is ``tests/ui/test_hostile_names_ui.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import tb_playground.views
from tb_playground.views.kit import TextMultiChoice

HOSTILE = '<img src=x onerror="window.__xss=1">'
VIEWS = Path(tb_playground.views.__file__).parent


def test_labels_reach_the_browser_escaped_and_the_values_stay():
    widget = TextMultiChoice(options={HOSTILE: "mal", "Tom & Jerry": "tom"}, value=["mal"])
    model = widget.get_root()
    escaped = "&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;"
    assert model.options == [escaped, "Tom &amp; Jerry"]
    assert model.value == [escaped]
    # What the browser sends back (the labels it was given) maps to the same values.
    assert widget._process_property_change({"value": ["Tom &amp; Jerry", escaped]}) == {
        "value": ["tom", "mal"]
    }
    assert widget.value == ["mal"]


def test_a_list_of_names_keeps_the_names_as_values():
    widget = TextMultiChoice(options=[HOSTILE, "Ronan"], value=[HOSTILE])
    model = widget.get_root()
    assert HOSTILE not in model.options and "<" not in "".join(model.options)
    assert widget._process_property_change({"value": [model.options[0]]}) == {"value": [HOSTILE]}


def test_no_page_uses_a_multi_choice_that_renders_html():
    """Every multi-choice of the pages is the kit's text-only one."""
    plain = re.compile(r"\bpn\.widgets\.MultiChoice\b|\bwidgets\.MultiChoice\b")
    found = [
        f"{path.relative_to(VIEWS)}:{n}"
        for path in VIEWS.rglob("*.py")
        if path.name != "panes.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if plain.search(line)
    ]
    assert found == []
