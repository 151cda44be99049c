"""Tables as CSV files: the text, and the "Download CSV" button (issue 11, section 3).

``csv_text(header, rows)`` writes plain column names and numbers to 15 significant digits (0.1,
not 0.09999999999999999; read back, within 1e-15 of the engine's); ``csv_button(label, filename,
make)`` calls ``make`` when clicked, so the file holds the numbers the table shows at that moment;
``text_button`` is the same for any text file (Markdown, JSON).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence

import panel as pn

from tb_playground import formatting


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table as CSV: the header, then the rows; floats to 15 significant digits.

    Written by ``formatting.csv_text`` (a name that reads as a formula is kept as text).
    """
    return formatting.csv_text(
        header, ([format(v, ".15g") if isinstance(v, float) else v for v in row] for row in rows)
    )


def csv_button(label: str, filename: str, make: Callable[[], str], css: str) -> pn.Widget:
    """A "Download CSV" button: ``make()`` runs when it is clicked and its text is the file."""
    return pn.widgets.FileDownload(
        callback=lambda: io.StringIO(make()),
        filename=filename,
        label=label,
        color="primary",
        embed=False,
        css_classes=[css],
        margin=(4, 10),
        width=240,
        height=34,
        sizing_mode="fixed",
    )


def text_button(label: str, filename: str, make: Callable[[], str], css: str) -> pn.Widget:
    """A download button for any text file (Markdown, JSON...): ``make()`` runs on the click."""
    button = csv_button(label, filename, make, css)
    button.color = "default"
    return button
