"""The character sheet's file: downloads, uploads and the example roster's picker.

The sheet saves its character as a JSON or YAML file and loads one (``models.files``): an
upload is read on a worker thread, so other sessions never wait for it, and nothing changes
unless the whole file is valid (every problem is listed). A character of the example roster
loads the same way. Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape, reason_line
from tb_playground.models import Character, FileFormatError, dumps, loads
from tb_playground.models.files import saved_fields
from tb_playground.models.roster import example_roster
from tb_playground.models.skills import switched_home_words

from .kit import UploadBox
from .sheet_layout import sheet_pane

#: The roster picker's first entry (nothing picked yet).
PICK_PROMPT = "Choose a character..."


def file_name(name: str, suffix: str) -> str:
    """The download's file name for a character called ``name``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_").lower() or "character"
    return f"{stem}{suffix}"


def read_character(text: str | bytes, source: str) -> Character | FileFormatError:
    """Parse and validate a character file (safe on any thread: it builds no widget)."""
    try:
        return loads(text, kind="character", source=source)
    except FileFormatError as exc:
        return exc


class SheetFile:
    """The file controls of one sheet: downloads, an upload, the roster picker, a message.

    Parameters
    ----------
    character : callable
        ``character()``: the sheet's character, which a loaded file's values replace.
    """

    def __init__(self, character: Callable[[], Character]):
        self._character = character
        roster = example_roster()
        self._roster_files = {f.name: f for f in roster.characters}
        self.roster_pick = pn.widgets.Select(
            label="Start from the example roster",
            options=[PICK_PROMPT, *self._roster_files],
            value=PICK_PROMPT,
            disabled=not self._roster_files,
            # The tooltip is read as Markdown (HTML): the problem may quote a file (issue 33).
            description=escape(roster.problem)
            or "Loads that character into the sheet, as uploading its file would.",
            sizing_mode="stretch_width",
            css_classes=["roster-pick"],
        )
        self.roster_pick.param.watch(self._on_roster_pick, ["value"])
        name = character().name
        self.download_json = pn.widgets.FileDownload(
            callback=lambda: self.contents("json"),
            filename=file_name(name, ".json"),
            label="Download JSON",
            color="primary",
            embed=False,
            css_classes=["download-json"],
        )
        self.download_yaml = pn.widgets.FileDownload(
            callback=lambda: self.contents("yaml"),
            filename=file_name(name, ".yaml"),
            label="Download YAML",
            embed=False,
        )
        self.upload = UploadBox(accept=".json,.yaml,.yml", multiple=False, css_classes=["upload"])
        self.upload.param.watch(self._on_upload, ["value"])
        self.message = sheet_pane("file-message")

    def name_files(self, name: str) -> None:
        """Name the downloads after the character ``name``."""
        self.download_json.filename = file_name(name, ".json")
        self.download_yaml.filename = file_name(name, ".yaml")

    def contents(self, fmt: str) -> io.BytesIO:
        """The character's file in the format ``fmt`` ("json" or "yaml")."""
        return io.BytesIO(dumps(self._character(), fmt).encode("utf-8"))

    def load_text(self, text: str | bytes, source: str = "file") -> None:
        """Replace the sheet's inputs with a character file's, or report every problem.

        Nothing changes unless the whole file is valid.
        """
        self._show_file(read_character(text, source), source)

    def _show_file(self, outcome: Character | FileFormatError, source: str) -> None:
        """Load a character read from a file, or list the file's problems."""
        if isinstance(outcome, FileFormatError):
            items = "".join(f"<li>{escape(e)}</li>" for e in outcome.errors)
            self.message.object = (
                f'<div class="bad"><b>{escape(source)}</b>: nothing loaded.<ul>{items}</ul></div>'
            )
            return
        character = self._character()
        values = {name: getattr(outcome, name) for name in saved_fields(Character)}
        character.param.update(**values)
        # Poise climbing back from the old sheet's 0 must not mark the new one Flustered.
        character.flustered_this_scene = outcome.flustered_this_scene
        ruleset = character.ruleset
        said = switched_home_words(outcome.skills, bool(ruleset and ruleset.deception_water))
        notes = "".join(f"<br>{escape(line)}" for line in said)  # issue 32 item 11
        self.message.object = f"<p>Loaded <b>{escape(outcome.name)}</b>.{notes}</p>"

    def load_example(self, name: str) -> None:
        """Load one character of the example roster into the sheet, as an upload would."""
        file = self._roster_files[name]
        self.load_text(file.text, file.file_name)

    def _on_roster_pick(self, event) -> None:
        if event.new in self._roster_files:
            self.load_example(event.new)
            self.roster_pick.value = PICK_PROMPT  # so the same one can be picked again

    async def _on_upload(self, event) -> None:
        """Read an uploaded file on a worker thread, so other sessions never wait for it.

        The widget is cleared first: choosing the same file name again (after editing it)
        is a new upload and is read again.
        """
        if not event.new:
            return
        text, source = event.new, self.upload.filename or "upload"
        self.upload.clear()
        self.message.object = f"<p>Reading <b>{escape(source)}</b>...</p>"
        loop = asyncio.get_running_loop()
        outcome = await loop.run_in_executor(None, read_character, text, source)
        if isinstance(outcome, FileFormatError):
            logging.getLogger(__name__).warning(
                "character upload %r refused: %s", source, reason_line(outcome)
            )
        self._show_file(outcome, source)
