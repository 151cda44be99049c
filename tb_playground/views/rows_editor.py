"""A table that edits one list of rows of a ``Character`` (skills, weapons, Gifts...).

The character sheet's editor for its lists; the row class's parameters (bounds, choices) give
the column editors and are the validation (RULES.md).
"""

from __future__ import annotations

import pandas as pd
import panel as pn
import param

from tb_playground.engine import TIER_NAMES
from tb_playground.formatting import escape
from tb_playground.models import Character

from .kit import SHEET_CSS
from .sheet_render import DISPLAY_KINDS, PLAIN, plain


class RowsEditor(pn.viewable.Viewer):
    """A table editing one list of rows of a ``Character`` (skills, weapons, Gifts...).

    Column editors come from the row class's parameters (bounds, choices); an edit sets the
    row's parameter, so the character's bounds are the validation here too.

    Parameters
    ----------
    character : Character
        Whose list.
    field : str
        The list parameter ("skills", "weapons"...).
    row_class : type
        The row's ``Parameterized`` class.
    columns : dict
        Row parameter -> column title, in order.
    """

    def __init__(self, character: Character, field: str, row_class, columns: dict, **params):
        super().__init__(**params)
        self._character = character
        self._field = field
        self._row_class = row_class
        self._columns = columns
        self._writing = False
        self._row_watchers: list = []
        editors, formatters = {}, {}
        # Columns whose code values are shown in plain words (tiers by name, "physical" as
        # "Physical"...): value -> label, and back when a cell is edited.
        self._labels: dict[str, dict] = {}
        for name in columns:
            p = row_class.param[name]
            if name == "tier":
                self._labels[name] = dict(enumerate(TIER_NAMES))
            elif isinstance(p, param.Selector) and (name in PLAIN or name in DISPLAY_KINDS):
                self._labels[name] = {v: plain(name, v) for v in p.objects}
            if name in self._labels:
                editors[name] = {"type": "list", "values": list(self._labels[name].values())}
            elif isinstance(p, param.Boolean):
                editors[name] = {"type": "tickCross"}
                formatters[name] = {"type": "tickCross"}
            elif isinstance(p, param.Integer):
                low, high = p.bounds
                editors[name] = {"type": "number", "min": low, "max": high, "step": 1}
            elif isinstance(p, param.Selector):
                editors[name] = {"type": "list", "values": list(p.objects)}
            else:
                editors[name] = {"type": "input"}
        self._table = pn.widgets.Tabulator(
            self._frame(),
            editors=editors,
            formatters=formatters,
            titles=columns,
            show_index=False,
            selectable="checkbox",
            layout="fit_data_stretch",
            sizing_mode="stretch_width",
            css_classes=[f"rows-{field}"],
        )
        self._table.on_edit(self._on_edit)
        self._add = pn.widgets.Button(label="Add", color="primary", width=80)
        self._remove = pn.widgets.Button(label="Remove ticked", width=120)
        self._message = pn.pane.HTML("", stylesheets=[SHEET_CSS], sizing_mode="stretch_width")
        self._add.on_click(self._on_add)
        self._remove.on_click(self._on_remove)
        self._list_watcher = character.param.watch(self._on_list, [field])
        self._watch_rows()

    @property
    def rows(self) -> list:
        """The character's rows."""
        return getattr(self._character, self._field)

    def _frame(self) -> pd.DataFrame:
        records = []
        for row in self.rows:
            record = {}
            for name in self._columns:
                value = getattr(row, name)
                record[name] = (
                    self._labels[name].get(value, value) if name in self._labels else value
                )
            records.append(record)
        return pd.DataFrame(records, columns=list(self._columns))

    def dispose(self) -> None:
        """Stop watching the character and its rows (the editor is being thrown away)."""
        self._character.param.unwatch(self._list_watcher)
        for row, watcher in self._row_watchers:
            row.param.unwatch(watcher)
        self._row_watchers = []

    def _watch_rows(self) -> None:
        for row, watcher in self._row_watchers:
            row.param.unwatch(watcher)
        self._row_watchers = [
            (row, row.param.watch(self._on_row, list(self._columns))) for row in self.rows
        ]

    def _on_list(self, *events) -> None:
        self._watch_rows()
        self._refresh()

    def _on_row(self, *events) -> None:
        if not self._writing:
            self._refresh()

    def _refresh(self) -> None:
        self._table.value = self._frame()

    def _on_edit(self, event) -> None:
        name, index, value = event.column, event.row, event.value
        row = self.rows[index]
        if name in self._labels:
            back = {label: code for code, label in self._labels[name].items()}
            value = back.get(value, value)
        elif isinstance(row.param[name], param.Integer):
            try:
                value = int(value)
            except (TypeError, ValueError):
                pass
        elif isinstance(row.param[name], param.String) and value is None:
            value = ""
        try:
            self._writing = True
            setattr(row, name, value)
            self._message.object = ""
        except (ValueError, TypeError) as exc:
            self._message.object = f'<p class="bad">{escape(exc)}</p>'
            self._refresh()
        finally:
            self._writing = False

    def _on_add(self, event) -> None:
        setattr(self._character, self._field, [*self.rows, self._row_class()])

    def _on_remove(self, event) -> None:
        ticked = set(self._table.selection)
        kept = [row for i, row in enumerate(self.rows) if i not in ticked]
        self._table.selection = []
        setattr(self._character, self._field, kept)

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(
            self._table,
            pn.Row(self._add, self._remove),
            self._message,
            sizing_mode="stretch_width",
        )
