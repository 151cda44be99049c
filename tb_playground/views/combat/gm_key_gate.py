"""The GM key gate: the GM page shows only a prompt for its key until the key is given.

The key is checked by the service (``CombatService.gm_key_ok``); wrong keys are limited per
address (``guard.py``), and the page then says to slow down. Once the key is accepted (typed, or
the printed link's ``?key=``) the page keeps a cookie for the browser's session and takes the
key out of its address (``KeyCookie``, issue 33): a reload opens the page without it, and no
history entry, bookmark or script on the page reads the key from the address. Notes:
docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn
import param
from panel.custom import JSComponent

from tb_playground.formatting import escape
from tb_playground.guard import SlowDownError

from ..kit import button, client_address, html_pane, row

#: The GM page's cookie: ``CombatService.gm_cookie()``, for the browser's session.
GM_COOKIE = "tb_gm"


class KeyCookie(JSComponent):
    """Keeps the GM's cookie in the browser and the key out of the page's address (issue 33).

    When ``token`` is set the page's script writes the cookie (``SameSite=Strict``, for this
    page's path only, ``Secure`` over https, gone when the browser closes) and replaces the
    address with itself minus ``?key=`` (``history.replaceState``: no history entry keeps the
    key). The cookie is written by the page's script, so it cannot be ``HttpOnly``: Panel
    builds the page over its websocket, where no HTTP answer sets a cookie. It holds a token
    signed under the key (``CombatService.gm_cookie``), never the key itself.
    """

    token = param.String(default="", doc="The cookie's value; empty: nothing written yet.")

    _esm = f"""
    export function render({{ model }}) {{
      const keep = () => {{
        if (!model.token) return
        const where = window.location.pathname
        let text = `{GM_COOKIE}=${{model.token}}; Path=${{where}}; SameSite=Strict`
        if (window.location.protocol === "https:") text += "; Secure"
        document.cookie = text
        const url = new URL(window.location.href)
        if (url.searchParams.has("key")) {{
          url.searchParams.delete("key")
          const clean = url.pathname + url.search + url.hash
          window.history.replaceState(window.history.state, "", clean)
        }}
      }}
      keep()
      model.on("token", keep)
    }}
    """

    def __init__(self, **params):
        params.setdefault("width", 0)
        params.setdefault("height", 0)
        params.setdefault("margin", 0)
        super().__init__(**params)


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
