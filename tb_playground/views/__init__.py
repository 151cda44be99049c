"""Panel components (``pn.viewable.Viewer``) built on the models. No maths here.

Each page is a module an app builds; what pages share is the page kit (``views/kit``), and no
page imports another (tests/views/test_page_kit.py).
"""

from .notebook import extension
from .odds_playground import OddsPlayground, odds_page

__all__ = ["OddsPlayground", "extension", "odds_page"]

from .damage_explorer import DamageExplorer, damage_page  # noqa: E402

__all__ += ["DamageExplorer", "damage_page"]

from .character_sheet import CharacterSheet, character_page  # noqa: E402

__all__ += ["CharacterSheet", "character_page"]

from .kit import PAGES, page  # noqa: E402
from .site import landing_page, rules_page  # noqa: E402

__all__ += ["PAGES", "landing_page", "page", "rules_page"]

from .rules_lab import RulesLab, lab_page  # noqa: E402

__all__ += ["RulesLab", "lab_page"]
