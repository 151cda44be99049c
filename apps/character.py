"""Character sheet: `panel serve apps/character.py`."""

import panel as pn

from tb_playground.views import character_page

pn.extension("tabulator", sizing_mode="stretch_width")

if pn.state.served:
    character_page().servable()
