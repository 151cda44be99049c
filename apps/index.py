"""The landing page: `panel serve apps/*.py --index index` serves it at `/`."""

import panel as pn

from tb_playground.views import landing_page

pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    landing_page().servable()
