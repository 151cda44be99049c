"""The GM's table chooser: open a table the server keeps, or create one from an encounter.

A new table starts from an encounter file of the roster or one the GM uploads, and from roster
files of more combatants; someone the encounter holds already is kept once (the service merges
them, ``CombatService.create_with``). Notes: docs/notes/0009-combat-panel.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import panel as pn

from tb_playground.formatting import escape, reason_line
from tb_playground.models import Encounter, FileFormatError, load, loads

from ..kit import TextMultiChoice, UploadBox, button, html_pane, row, update
from .add_combatant import roster_labels

log = logging.getLogger(__name__)


class TableChooser:
    """The list of tables and the form for a new one, on one GM page session.

    Parameters
    ----------
    service : CombatService
        The process's tables and the roster's files.
    open_table : callable
        ``open_table(name)``: the page binds itself to the table ``name`` and shows it.
    notes : pn.pane.HTML
        Where the table's page says who was merged into the new table.
    """

    def __init__(self, service, open_table: Callable[[str], None], notes: pn.pane.HTML):
        self._service = service
        self._open_table = open_table
        self._notes = notes
        self.open_select = pn.widgets.Select(label="Tables", css_classes=["gm-tables"], width=260)
        self.open_button = button("Open table", "gm-open", "primary")
        self.open_button.on_click(lambda _e: self._open_table(self.open_select.value))
        files = service.encounter_files()
        self.encounter_select = pn.widgets.Select(
            label="Encounter", options={k: str(v) for k, v in files.items()},
            css_classes=["gm-encounter"], width=260,
        )  # fmt: skip
        self.encounter_upload = UploadBox(
            accept=".yaml,.yml,.json", css_classes=["gm-upload"], width=260
        )
        creatures = service.creature_files()
        self.extra = TextMultiChoice(
            label="Add from the roster", options=roster_labels(creatures),
            css_classes=["gm-extra"], sizing_mode="stretch_width",
        )  # fmt: skip
        self.new_name = pn.widgets.TextInput(label="Table name", css_classes=["gm-name"], width=260)
        self.create_button = button("Create table", "gm-create", "primary")
        self.create_button.on_click(lambda _e: self.create_table())
        self.message = html_pane("gm-chooser-message")
        self.layout = pn.Column(
            pn.pane.Markdown("## GM dashboard"),
            pn.pane.Markdown("### Open a table"),
            row(self.open_select, self.open_button),
            pn.pane.Markdown("### Or start a new one"),
            row(self.encounter_select, self.new_name, self.create_button),
            pn.pane.Markdown("An encounter file of your own (instead of the one above):"),
            self.encounter_upload,
            self.extra,
            pn.pane.Markdown(
                "Someone the encounter holds already (its party's roster files) is kept once, "
                "with the roster file's sheet.",
                css_classes=["gm-extra-note"],
            ),  # fmt: skip
            self.message,
            sizing_mode="stretch_width",
        )

    def refresh(self) -> None:
        """List the tables now, and name the new one after the encounter (not taken yet)."""
        names = self._service.names()
        update(self.open_select, options=list(reversed(names)))
        self.open_button.disabled = not names
        base = "The warehouse"
        if self.encounter_select.value:
            try:
                base = load(self.encounter_select.value, "encounter").name
            except (FileFormatError, OSError):
                pass
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base} {n}"
        self.new_name.value = name

    def encounter(self) -> tuple[Encounter, list]:
        """The encounter chosen (the upload, else the roster's) and the roster files added."""
        if self.encounter_upload.value:
            source = self.encounter_upload.filename or "upload"
            try:
                enc = loads(self.encounter_upload.value, None, "encounter", source)
            except ValueError as err:  # a FileFormatError is a ValueError
                log.warning("encounter upload %r refused: %s", source, reason_line(err))
                raise
        else:
            enc = load(self.encounter_select.value, "encounter")
        return enc, [load(path) for path in self.extra.value]

    def create_table(self) -> None:
        """Create a table from the chosen encounter (and roster files) and open it.

        A roster file of someone the encounter holds already is kept once (the service merges
        them); the table page then says who was.
        """
        try:
            table, merged = self._service.create_with(self.new_name.value, *self.encounter())
        except (ValueError, OSError) as err:  # FileFormatError is a ValueError
            self.refuse(err)
            return
        self._open_table(table.name)
        if merged:
            self._notes.object = "".join(
                f'<p class="status gm-merged">{escape(note)}</p>' for note in merged
            )

    def refuse(self, err: Exception) -> None:
        """Say why a table could not be opened or created."""
        self.message.object = f'<p class="err">{escape(err)}</p>'
