"""Roll-under playground: `panel serve apps/odds.py`."""

import panel as pn

from tb_playground.views import odds_page

pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    odds_page().servable()
