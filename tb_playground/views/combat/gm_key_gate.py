"""The GM key gate: the GM page shows only a prompt for its key until the key is given.

The key is checked by the service (``CombatService.gm_key_ok``); wrong keys are limited per
address (``guard.py``), and the page then says to slow down. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape
from tb_playground.guard import SlowDownError

from ..kit import button, client_address, html_pane, row


class GMKeyGate:
    """The prompt for the GM key of one GM page session.

    Parameters
    ----------
    service : CombatService
        The process's tables, which know the key.
    on_unlock : callable
        ``on_unlock(key)``: the key typed into the prompt was right.
    """

    def __init__(self, service, on_unlock: Callable[[str], None]):
        self._service = service
        self._on_unlock = on_unlock
        self.key_input = pn.widgets.PasswordInput(
            label="GM key", placeholder="the key printed when the server started",
            css_classes=["gm-key"], sizing_mode="stretch_width",
        )  # fmt: skip
        self.key_button = button("Enter", "gm-key-enter", "primary")
        self.message = html_pane("gm-key-message")
        self.key_button.on_click(lambda _e: self._try_key())
        self.layout = pn.Column(
            pn.pane.Markdown(
                "## GM dashboard\nThis page needs the GM key.", css_classes=["gm-prompt"]
            ),
            row(self.key_input, self.key_button),
            self.message,
            sizing_mode="stretch_width",
        )

    def _try_key(self) -> None:
        key = self.key_input.value
        self.key_input.value = ""
        if self.check(key):
            self._on_unlock(key)
        elif not self.message.object:
            self.message.object = '<p class="err">That is not the GM key.</p>'

    def check(self, key) -> bool:
        """The service's answer; wrong keys are limited per address (guard.py)."""
        self.message.object = ""
        try:
            return self._service.gm_key_ok(key, client_address())
        except SlowDownError as slowed:
            self.message.object = f'<p class="err">{escape(str(slowed))}</p>'
            return False
