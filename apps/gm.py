"""The GM's combat dashboard: `panel serve apps/gm.py apps/table.py` (the key link is printed)."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("gm")
