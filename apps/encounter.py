"""Encounter planner: `panel serve apps/encounter.py` (who wins, in how many rounds)."""

import panel as pn

from tb_playground.views.encounter_planner import encounter_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    encounter_page().servable()
