"""The rules the pages follow: `panel serve apps/rules.py`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("rules")
