"""The GM's combat dashboard: `panel serve apps/gm.py apps/table.py` (the key link is printed)."""

import panel as pn

from tb_playground.service import get_service
from tb_playground.views.combat.gm_page import gm_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")
get_service()  # the process's tables; prints the GM link once (at start with the README's --setup)

if pn.state.served:
    gm_page().servable()
