"""Panel components (``pn.viewable.Viewer``) built on the models. No maths here."""

from .odds_playground import OddsPlayground, odds_page

__all__ = ["OddsPlayground", "odds_page"]
