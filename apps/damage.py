"""Damage against walls: `panel serve apps/damage.py`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("damage")
