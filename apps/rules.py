"""The rules the pages follow: `panel serve apps/rules.py`."""

import panel as pn

from tb_playground.views import rules_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    rules_page().servable()
