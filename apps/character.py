"""Character sheet: `panel serve apps/character.py`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("character")
