"""The fight's story on a combat page: its replay and its numbers, bound to the page's table.

Issue 23, items 3 and 4: ``ReplayPanel`` (replay_panel.py) and ``NightPanel`` (night_panel.py)
with their two buttons, following the page's session (table, role, seat) and view. A page adds
``openers`` to its controls, ``night`` under its board, and swaps its live controls for
``replay`` while ``on_change(True)``. A link's ``?at=N`` opens the replay at event N the first
time the replay may show. Note: docs/notes/0017-replay-night-odds.md.
"""

from __future__ import annotations

from collections.abc import Callable

from ..kit import query_arg, row
from .night_panel import NightPanel
from .replay_panel import ReplayPanel, query_event


class FightStory:
    """The replay and the night's numbers of one page session.

    Parameters
    ----------
    service : CombatService
        The page's service.
    draw : callable
        ``draw(view, seat)``: the page's own drawing of a view.
    panes : list of str
        The keys of the drawing the replay shows, top to bottom ("cards": the board).
    prefix : str
        The start of every CSS class ("gm" or "tp").
    on_change : callable
        ``on_change(replaying)``: the page shows ``replay`` (True) or its live controls.
    """

    def __init__(
        self,
        service,
        draw: Callable[[dict, str | None], dict],
        panes: list[str],
        prefix: str,
        on_change: Callable[[bool], None],
    ):
        self._draw = draw
        self.replay = ReplayPanel(service, lambda v: draw(v, None), panes, prefix, on_change)
        self.night = NightPanel(service, prefix)
        self.openers = row(self.replay.opener, self.night.opener)
        self._bound: tuple | None = None
        self._link: int | None = query_event(query_arg("at"))  # used once

    @property
    def at(self) -> int | None:
        """The event replayed (None: live); ``ReplayPanel.at`` is the param to watch."""
        return self.replay.at

    def follow(self, session, view: dict) -> None:
        """After the page's refresh: bound to its session's table, role and seat; the bounds."""
        key = None if session is None else (session.table, session.role, session.seat)
        if key != self._bound:
            self._bound = key
            table, role, seat = key or (None, "gm", None)
            self.replay.bind(table, role, seat, lambda v: self._draw(v, seat))
            self.night.bind(table, role, seat)
        if session is None:
            return
        self.replay.follow(self.replay.seen())
        self.night.follow(view)
        if self._link is not None:
            at, self._link = self._link, None
            self.replay.go(at)

    def stop(self) -> None:
        """Back to live (the fight went on, or the page left)."""
        self.replay.back_to_live()
