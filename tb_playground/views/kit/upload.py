"""The upload box: a file is refused above a size said on the page, before it is read (issue 21).

Bokeh's file input reads any file whole and sends it in one websocket message (a 50 MB file
passed its 20 MB limit and left the page dead). ``UploadBox`` checks the size in the browser
first and says "NAME is 52.4 MB: files up to 1 MB are taken."; only a file within the limit is
read and sent, and the server checks its size again. The server's websocket messages are bounded
too (``serve_setup.SERVER_SETTINGS``).
"""

from __future__ import annotations

import base64
import binascii

import param
from panel.custom import JSComponent

from .css import UPLOAD_CSS
from .js import script

#: The largest file a page takes (bytes): a roster or encounter file is a few kilobytes.
MAX_UPLOAD = 1_000_000


def size_words(size: int) -> str:
    """A file size in words: "980 bytes", "12 kB", "52.4 MB"."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.0f} kB"
    return f"{size / 1_000_000:.1f} MB".replace(".0 MB", " MB")


def refusal(name: str, size: int, limit: int = MAX_UPLOAD) -> str:
    """What the page says of a file over ``limit``."""
    return f"{name} is {size_words(size)}: files up to {size_words(limit)} are taken."


class UploadBox(JSComponent):
    """A file picker that refuses a file over ``max_bytes`` before reading it.

    Like Panel's ``FileInput`` for one file: ``value`` (bytes or None), ``filename``,
    ``accept`` and ``clear()``. The limit is said next to the button.
    """

    value = param.Bytes(default=None, allow_None=True, doc="The file's content, once taken.")

    filename = param.String(default="", doc="The name of the file taken.")

    accept = param.String(default="", doc="The file types offered, e.g. '.yaml,.json'.")

    max_bytes = param.Integer(default=MAX_UPLOAD, bounds=(1, None), doc="The largest file taken.")

    limit_text = param.String(default="", doc="The sentence that says the limit.")

    refused = param.String(default="", doc="Why the last file was not taken ('' if it was).")

    _esm = script("upload.js")

    _stylesheets = [UPLOAD_CSS]

    def __init__(self, **params):
        params.pop("multiple", None)  # one file, as every page here takes
        super().__init__(**params)
        if not self.limit_text:
            self.limit_text = f"Files up to {size_words(self.max_bytes)}."

    def _handle_msg(self, data) -> None:
        """A file the browser read: taken if it is within the limit (checked again here)."""
        if not isinstance(data, dict) or not isinstance(data.get("data"), str):
            return
        name = str(data.get("name") or "upload")[:200]
        text = data["data"]
        if len(text) > (self.max_bytes * 4) // 3 + 4:
            self._refuse(refusal(name, len(text) * 3 // 4, self.max_bytes))
            return
        try:
            content = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            self._refuse(f"{name} could not be read: choose it again.")
            return
        if len(content) > self.max_bytes:
            self._refuse(refusal(name, len(content), self.max_bytes))
            return
        self.refused = ""
        self.filename = name
        self.value = content

    def _refuse(self, text: str) -> None:
        self.refused = text
        self._send_msg({"refused": text, "clear": True})

    def clear(self) -> None:
        """Forget the file (the same file may then be chosen again)."""
        self.value = None
        self.filename = ""
        self._send_msg({"clear": True})
