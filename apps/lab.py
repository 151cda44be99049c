"""Rules lab: every rules reading side by side. `panel serve apps/lab.py`."""

import panel as pn

from tb_playground.views import lab_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    lab_page().servable()
