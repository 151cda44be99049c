"""Roll-under playground: `panel serve apps/odds.py`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("odds")
