"""The ruleset badge: one line that says which rules reading a page plays.

"The sheet and every page show which switches are on": "Rules: as written", or
"Rules: 2 switches on — ..." in plain words (``Ruleset.switches_on_text``).
"""

from __future__ import annotations

import panel as pn
import param

from tb_playground.models.ruleset import Ruleset


def badge_text(ruleset: Ruleset) -> str:
    """The badge's Markdown line for ``ruleset`` (plain sentences, no code names)."""
    if ruleset.roll_over:
        return "**Rules:** the older roll-over draft, a different dice system"
    sentences = ruleset.switches_on_text()
    if not sentences:
        return "**Rules:** as written (no optional reading switched on)"
    count = f"{len(sentences)} switch{'es' if len(sentences) > 1 else ''} on"
    return f"**Rules:** {count} — " + " ".join(sentences)


class RulesetBadge(pn.viewable.Viewer):
    """A Markdown line naming the switches that are on; it follows every change.

    Parameters
    ----------
    ruleset : Ruleset
        The ruleset shown; a fresh default one if neither it nor ``owner`` is given.
    owner : param.Parameterized, optional
        An object with a ``ruleset`` parameter (a Character, an Attack): the badge follows
        ``owner.ruleset``, also when the owner gets another ruleset.
    """

    ruleset = param.ClassSelector(class_=Ruleset, doc="The ruleset the badge describes.")

    def __init__(self, owner: param.Parameterized | None = None, **params):
        if owner is not None:
            params["ruleset"] = owner.ruleset
        elif params.get("ruleset") is None:
            params["ruleset"] = Ruleset()
        super().__init__(**params)
        self._owner = owner
        self._pane = pn.pane.Markdown(
            badge_text(self.ruleset), css_classes=["ruleset-badge"], margin=(0, 10)
        )
        self._ruleset_watcher = None
        self._owner_watcher = None
        if owner is not None:
            self._owner_watcher = owner.param.watch(self._on_owner, ["ruleset"])
        self._bind()

    def _on_owner(self, event) -> None:
        self.ruleset = event.new

    @param.depends("ruleset", watch=True)
    def _bind(self) -> None:
        if self._ruleset_watcher is not None:
            watched, watcher = self._ruleset_watcher
            watched.param.unwatch(watcher)
        r = self.ruleset
        self._ruleset_watcher = (r, r.param.watch(self._refresh, list(r.param)))
        self._refresh()

    def _refresh(self, *events) -> None:
        self._pane.object = badge_text(self.ruleset)

    @property
    def text(self) -> str:
        """The line now shown."""
        return self._pane.object

    def dispose(self) -> None:
        """Stop watching the ruleset and the owner (a page calls it when its session ends)."""
        if self._ruleset_watcher is not None:
            watched, watcher = self._ruleset_watcher
            watched.param.unwatch(watcher)
            self._ruleset_watcher = None
        if self._owner_watcher is not None:
            self._owner.param.unwatch(self._owner_watcher)
            self._owner_watcher = None

    def __panel__(self) -> pn.viewable.Viewable:
        return self._pane
