"""The page at ``/``, run by Panel for each session (``tb-playground serve``)."""

from tb_playground.pages import serve

serve("index")
