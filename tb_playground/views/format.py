"""How numbers from the engine are written on a page. Presentation only, no maths.

The pages' stylesheets are files in ``views/css/`` (``views/kit/css.py``).
"""

from __future__ import annotations

from tb_playground.display import escape, percent

__all__ = ["escape", "percent"]
