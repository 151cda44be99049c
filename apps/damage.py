"""Damage against walls: `panel serve apps/damage.py`."""

import panel as pn

from tb_playground.views import damage_page

pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    damage_page().servable()
