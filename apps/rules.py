"""The rules the pages follow: `panel serve apps/rules.py`."""

import panel as pn

from tb_playground.views import rules_page

pn.extension(sizing_mode="stretch_width")

if pn.state.served:
    rules_page().servable()
