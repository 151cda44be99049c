"""Encounter planner: `panel serve apps/encounter.py` (who wins, in how many rounds)."""

import panel as pn

from tb_playground.views.encounter_planner import encounter_page

pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    encounter_page().servable()
