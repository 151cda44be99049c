"""The GM's board: the live table as the GM sees it, drawn once per table version.

``draw_gm`` makes the GM page's HTML of a view (``Table.view_for("gm")``): the header with the
join code, the status, one card per combatant, the pending attack, the log and the ranges. It
is shared by every GM page at that version (``CombatService.drawn``) and by the replay;
``GMBoard`` holds the panes one page shows it in, plus what the table file lost (the GM's words
only). Notes: docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from tb_playground.formatting import escape

from ..kit import CardBoard, html_pane, update
from . import combat_render as render

#: The parts of ``draw_gm`` the replay shows, top to bottom ("cards": the board).
REPLAY_PANES = ["header", "status", "pending", "cards", "log"]


def draw_gm(v: dict) -> dict:
    """The GM page's HTML for the view ``v`` (shared by every GM page at this version)."""
    phase = v["phase"]
    head = (
        f'<div class="status"><b>{escape(v["table"])}</b> · '
        f'<span class="counter">{render.counter(v)}</span> · '
        f"{render.PHASE_WORDS.get(phase, phase)} · join code "
        f'<b class="join-code">{escape(v["join_code"])}</b></div>'
    )
    return {
        "view": v,
        "header": head,
        "status": render.fight_over(v) + render.declaration_status(v) + render.order_line(v),
        "cards": [render.card(c, v["phase"]) for c in v["combatants"]],
        "log": render.log(v),
        "pending": render.pending(v),
        "ranges": render.ranges(v),
    }


class GMBoard:
    """The panes of one GM page that show a table's drawing (``draw_gm``).

    The page places them among its controls: ``header``, ``status``, ``pending``, ``cards``
    (one pane per combatant), ``log``, and ``loss`` (what the table file lost).
    """

    def __init__(self):
        self.header = html_pane("gm-header")
        self.status = html_pane("gm-status")
        self.cards = CardBoard("gm-board")
        self.log = html_pane("gm-log")
        self.pending = html_pane("gm-pending")
        self.loss = html_pane("gm-loss")  # what the table file lost: the GM's words only

    def show(self, drawn: dict, loss: str) -> None:
        """Set what changed: the drawing ``drawn`` and the file's ``loss`` ("" when none)."""
        for pane in ("header", "status", "log", "pending"):
            update(getattr(self, pane), object=drawn[pane])
        update(self.loss, object=f'<p class="err">{escape(loss)}</p>' if loss else "")
        self.cards.show(drawn["cards"])
