"""The players' page: join a live table with its code (`panel serve apps/gm.py apps/table.py`)."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("table")
