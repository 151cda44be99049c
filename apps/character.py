"""Character sheet: `panel serve apps/character.py`."""

import panel as pn

from tb_playground.views import character_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension("tabulator", sizing_mode="stretch_width")

if pn.state.served:
    character_page().servable()
