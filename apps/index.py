"""The landing page: `panel serve apps/*.py --index index` serves it at `/`."""

import panel as pn

from tb_playground.views import landing_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    landing_page().servable()
