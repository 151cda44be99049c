"""The landing page: `panel serve apps/*.py --index index` serves it at `/`."""

from tb_playground.pages import serve  # the page itself: tb_playground/pages/

serve("index")
