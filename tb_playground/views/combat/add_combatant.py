"""The GM's "add to the fight" control: a character or creature from a file joins the table.

The table does the work (its "add" command validates the file, makes the record and rolls
Initiative once the fight has started: docs/notes/0008-table.md); this view only reads the file
and sends the command.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import panel as pn

from tb_playground.formatting import escape, reason_line
from tb_playground.models.files import FORMATS, FileFormatError, parse

from ..kit import UploadBox, button, html_pane, row

log = logging.getLogger(__name__)

#: Longest file the control reads (a character or creature file is a few kilobytes).
MAX_FILE_BYTES = 200_000

#: The roster pickers' groups, in order (issue 31: characters and creatures apart).
GROUPS = {"character": "Characters", "creature": "Creatures"}


def _who(path: Path) -> tuple[str, str]:
    """(kind, name) of a roster file; its file name in words when it cannot be read."""
    try:
        doc = parse(path.read_bytes(), FORMATS.get(path.suffix.lower()), path.name)
        data = doc.get("data")
        kind, name = doc.get("kind"), data.get("name") if isinstance(data, dict) else None
    except (FileFormatError, OSError, ValueError, AttributeError):
        kind, name = None, None
    if not isinstance(name, str) or not name.strip():
        name = path.name.split(".")[0].replace("_", " ").capitalize()
    return (kind if kind in GROUPS else "creature"), name.strip()


def roster_groups(files: dict[str, Path]) -> dict[str, dict[str, str]]:
    """The roster's files for a picker: group ("Characters", "Creatures") -> name -> path.

    Issue 31: the GM picks by the names on the sheets, characters apart from creatures, never
    by file names ("ronan.json"). Two files of one name are told apart by their file names.
    """
    out: dict[str, dict[str, str]] = {group: {} for group in GROUPS.values()}
    for file_name, path in sorted(files.items()):
        kind, name = _who(Path(path))
        group = out[GROUPS[kind]]
        label = name if name not in group else f"{name} ({file_name})"
        group[label] = str(path)
    for group in out.values():
        ordered = dict(sorted(group.items(), key=lambda item: item[0].casefold()))
        group.clear()
        group.update(ordered)
    return {k: v for k, v in out.items() if v}


def roster_labels(files: dict[str, Path]) -> dict[str, str]:
    """``roster_groups`` flat, for a picker without groups: "Ronan (character)" -> path."""
    return {
        f"{name} ({group.lower().removesuffix('s')})": path
        for group, names in roster_groups(files).items()
        for name, path in names.items()
    }


#: The picker's choice of an uploaded file instead of the roster's.
UPLOAD_ONE = "(upload one)"


class AddCombatant(pn.viewable.Viewer):
    """Pick a roster file or upload one, choose the side, and add it to the fight.

    Parameters
    ----------
    send : callable
        ``send(command, then=None)``: the page's way of sending a command as the GM (it shows
        the table's refusal itself, and runs ``then()`` once the table took it).
    files : dict
        Roster files by file name (``CombatService.creature_files()``): the picker shows the
        names on the sheets, characters and creatures apart (``roster_groups``).
    """

    def __init__(self, send: Callable[..., None], files: dict[str, Path], **params):
        super().__init__(**params)
        self._send = send
        groups = {"Your own file": {UPLOAD_ONE: ""}, **roster_groups(files)}
        self.pick = pn.widgets.Select(
            label="Character or creature", groups=groups, css_classes=["gm-add-pick"], width=220
        )
        self.upload = UploadBox(accept=".yaml,.yml,.json", css_classes=["gm-add-upload"], width=220)
        self.side = pn.widgets.TextInput(
            label="Side", value="Foes", css_classes=["gm-add-side"], width=120
        )
        self.hidden = pn.widgets.Checkbox(
            label="Hidden from the players", css_classes=["gm-add-hidden"]
        )
        self.initiative = pn.widgets.IntInput(
            label="Initiative d10 (blank: the table rolls)", value=None, start=1, end=10,
            css_classes=["gm-add-initiative"], width=200,
        )  # fmt: skip
        self.go = button("Add to the fight", "gm-add-go")
        self.go.on_click(lambda _e: self.add())
        self.message = html_pane("gm-add-message")
        self._layout = pn.Column(
            row(self.pick, self.upload),
            row(self.side, self.initiative, self.hidden, self.go),
            self.message,
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout

    def _document(self) -> tuple[object, str]:
        if self.upload.value:
            data, source = self.upload.value, self.upload.filename or "upload"
        elif self.pick.value:
            path = Path(self.pick.value)
            data, source = path.read_bytes(), path.name
        else:
            raise ValueError("Pick a roster file or upload one first.")
        if len(data) > MAX_FILE_BYTES:
            raise ValueError(f"{source} is {len(data):,} bytes; a character or creature file is "
                             f"at most {MAX_FILE_BYTES:,}.")  # fmt: skip
        return parse(data, None, source), source

    def add(self) -> bool:
        """Send the "add" command for the chosen file; True when it was sent (the file read)."""
        try:
            doc, source = self._document()
        except (ValueError, OSError) as err:  # a FileFormatError is a ValueError
            if self.upload.value:
                log.warning("upload %r to add refused: %s", self.upload.filename, reason_line(err))
            self.message.object = f'<p class="err">{escape(err)}</p>'
            return False
        command = {
            "type": "add",
            "document": doc,
            "side": self.side.value,
            "hidden": self.hidden.value,
        }
        if self.initiative.value is not None:
            command["initiative"] = self.initiative.value

        def added() -> None:  # once the table took it (the page sends off the event loop)
            self.message.object = f"<p>Added from {escape(source)}.</p>"
            self.upload.value = None

        self.message.object = ""
        self._send(command, then=added)
        return True
