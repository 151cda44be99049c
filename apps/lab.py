"""Rules lab: every rules reading side by side. `panel serve apps/lab.py`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("lab")
