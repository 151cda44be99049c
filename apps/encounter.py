"""Encounter planner: `panel serve apps/encounter.py` (who wins, in how many rounds)."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("encounter")
