"""The players' page: join a live table with its code (`panel serve apps/gm.py apps/table.py`)."""

import panel as pn

from tb_playground.service import get_service
from tb_playground.views.combat.table_page import table_page
from tb_playground.views.kit import use_known_theme

use_known_theme()  # before any widget reads it: ?theme=light is the default
pn.extension(sizing_mode="stretch_width")
get_service()  # the process's tables (the same service as /gm)

if pn.state.served:
    table_page().servable()
