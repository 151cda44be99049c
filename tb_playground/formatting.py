"""Text and HTML helpers for reprs, notebooks and pages: percentages, dice, small tables.

Pure formatting: this module imports nothing of tb_playground, so every floor (the engine's rich
reprs included) may use it. Plain words for code names live in ``models/names.py``.
"""

from __future__ import annotations

import csv
import html
import io
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction


def percent(p: float | None, digits: int = 1, *, words: bool = False) -> str:
    """A probability as a percentage with ``digits`` decimals ("55.0%"; digits=0: "55%").

    A non-zero value that would round to 0 is "<0.1%" ("<1%" with no decimals: a Master's
    catastrophe is rare, not impossible); one that would round to 100 without being certain
    is ">99.9%" (">99%"); with ``words`` "under 1%" and "over 99%", for a sentence ("over 99%
    chance to win"). No value (None or NaN) is "–". The one percent formatter of the package
    (issue 30).
    """
    if p is None or math.isnan(p):
        return "–"
    p = float(p)
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    shown = f"{100 * p:.{digits}f}"
    step = 10.0**-digits  # the smallest percentage shown
    if float(shown) == 0:
        return f"under {step:.{digits}f}%" if words else f"<{step:.{digits}f}%"
    if float(shown) == 100:
        return f"over {100 - step:.{digits}f}%" if words else f">{100 - step:.{digits}f}%"
    return f"{shown}%"


#: The chance bands in words (issue 31), as (below this chance, the words); the last has no top.
#: Three bands 30% and 40% wide: for any attacking Element and any Advantage, each covers at
#: least 4 consecutive TNs (4 Defense values), so the words never pin a foe's Defense down.
CHANCE_BANDS = ((0.3, "a long shot"), (0.7, "a fair chance"), (None, "likely"))


def chance_words(p: float) -> str:
    """A chance in words from ``CHANCE_BANDS``: "a long shot", "a fair chance" or "likely"."""
    for top, words in CHANCE_BANDS:
        if top is None or float(p) < top:
            return words
    raise AssertionError("the last band has no top")


def dice_text(count: int) -> str:
    """A number of dice in words that agree with it: "1 die", "2 dice", "0 dice"."""
    count = int(count)
    return f"{count} {'die' if count == 1 else 'dice'}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """A count and the word that agrees with it: "1 level", "2 levels", "0 levels".

    ``words`` is the plural when it is not ``word`` + "s" ("die", "dice").
    """
    count = int(count)
    return f"{count} {word if count == 1 else (words or word + 's')}"


def advantage_words(net: int, sources: Iterable[Sequence]) -> str:
    """A roll's net Advantage as the rule reads it, with its sources: "" when it has none.

    RULES.md "Core Roll": sources count +1 / -1 and are summed; above 0 is Advantage, 0 a
    normal roll, below 0 Disadvantage: binary, never "Advantage 2" (issue 31). ``sources``
    are (label, sign) pairs. The wording is the engine's (``AttackModifiers.describe``):
    "Advantage: Aim, Target is Prone; against: Off Balance", "Normal roll: Aim cancels Off
    Balance".
    """
    plus = [str(label) for label, sign in sources if sign > 0]
    minus = [str(label) for label, sign in sources if sign < 0]
    if net == 0:
        if not plus and not minus:
            return ""
        if plus and minus:
            return f"Normal roll: {', '.join(plus)} cancels {', '.join(minus)}"
        return "Normal roll"
    main, other = (plus, minus) if net > 0 else (minus, plus)
    text = "Advantage" if net > 0 else "Disadvantage"
    if main:
        text += f": {', '.join(main)}"
    if other:
        text += f"; {'against' if net > 0 else 'for'}: {', '.join(other)}"
    return text


def empowered_words(empowered: str | None, zone: str | None = None) -> str:
    """An attack's Slow action in words: "Aim", "a Called Shot at the head", or "".

    RULES.md, Action Brackets: Slow holds one empowered action (Aim, a Called Shot); rules/002
    line 161: a Called Shot is the only way to target the Head zone.
    """
    if empowered == "aim":
        return "Aim"
    if empowered == "called shot":
        return f"a Called Shot at the {zone or 'head'}"
    return ""


def fraction_text(value: Fraction) -> str:
    """An exact probability as "11/20" (whole numbers as "0" or "1")."""
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def escape(text: object) -> str:
    """HTML-escape any text that reaches a page or a notebook."""
    return html.escape(str(text), quote=True)


#: Inline style of the notebook tables (a notebook has no stylesheet of ours).
_TABLE_STYLE = "border-collapse:collapse;font-size:0.92em"
_CELL_STYLE = "padding:2px 8px;text-align:{align};border-bottom:1px solid #ccc"


def reason_line(err: Exception, limit: int = 300) -> str:
    """Why ``err`` refused something, on one line of at most ``limit`` characters (a log line).

    A ``FileFormatError``'s problems are joined with "; " (its heading, which repeats the file's
    name, is left out); a long reason is cut and ends with "...".
    """
    problems = getattr(err, "errors", None) or [str(err)]
    text = " ".join("; ".join(str(p) for p in problems).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def html_table(
    header: Sequence[object],
    rows: Iterable[Sequence[object]],
    *,
    caption: str | None = None,
    note: str | None = None,
    align: Sequence[str] | None = None,
) -> str:
    """A small HTML table; every caption, header, cell and note is escaped.

    Parameters
    ----------
    header : sequence
        Column titles.
    rows : iterable of sequences
        Cells, written with ``str``.
    caption, note : str, optional
        A title above and a sentence below.
    align : sequence of {"left", "right"}, optional
        Per column; default: the first column left, the others right.
    """
    header = list(header)
    align = list(align) if align is not None else ["left"] + ["right"] * (len(header) - 1)

    def cells(tag: str, values: Sequence[object]) -> str:
        return "".join(
            f'<{tag} style="{_CELL_STYLE.format(align=a)}">{escape(v)}</{tag}>'
            for v, a in zip(values, align, strict=True)
        )

    parts = [f'<table class="tb" style="{_TABLE_STYLE}">']
    if caption:
        parts.append(
            f'<caption style="text-align:left;font-weight:600">{escape(caption)}</caption>'
        )
    parts.append(f"<thead><tr>{cells('th', header)}</tr></thead><tbody>")
    parts.extend(f"<tr>{cells('td', list(row))}</tr>" for row in rows)
    parts.append("</tbody></table>")
    if note:
        parts.append(f'<p style="font-size:0.85em;margin:4px 0">{escape(note)}</p>')
    return "<div>" + "".join(parts) + "</div>"


class Table:
    """A titled table that shows as HTML in a notebook and as aligned text elsewhere.

    Parameters
    ----------
    header : sequence
        Column titles.
    rows : sequence of sequences
        The cells (already written as text, or anything ``str`` writes plainly).
    caption, note : str, optional
        A title above and a sentence below.
    align : sequence of {"left", "right"}, optional
        Per column; default: the first column left, the others right.
    """

    def __init__(
        self,
        header: Sequence[object],
        rows: Sequence[Sequence[object]],
        caption: str | None = None,
        note: str | None = None,
        align: Sequence[str] | None = None,
    ) -> None:
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        if any(len(row) != len(self.header) for row in self.rows):
            raise ValueError(f"every row must have {len(self.header)} cells, like the header")
        self.caption = caption
        self.note = note
        self.align = list(align) if align else ["left"] + ["right"] * (len(self.header) - 1)
        if len(self.align) != len(self.header) or set(self.align) - {"left", "right"}:
            raise ValueError("align must give left or right for each column")

    def _repr_html_(self) -> str:
        return html_table(
            self.header, self.rows, caption=self.caption, note=self.note, align=self.align
        )

    def __repr__(self) -> str:
        widths = [
            max(len(c) for c in column) for column in zip(self.header, *self.rows, strict=True)
        ]
        lines = [self.caption] if self.caption else []
        for row in [self.header, *self.rows]:
            cells = [
                c.ljust(w) if a == "left" else c.rjust(w)
                for c, w, a in zip(row, widths, self.align, strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)


def odds_grid(
    row_labels: Sequence[object],
    column_labels: Sequence[object],
    probabilities: Sequence[Sequence[float]],
    *,
    corner: str = "",
    caption: str | None = None,
    note: str | None = None,
) -> Table:
    """A grid of probabilities written as percentages (a skill odds table, a curve by TN).

    Parameters
    ----------
    row_labels, column_labels : sequence
        What each row and column is (a Skill name, a Difficulty, a TN...).
    probabilities : 2-D sequence of float
        One row per ``row_labels`` entry, one column per ``column_labels`` entry.
    corner : str
        The title of the label column.
    caption, note : str, optional
        A title above and a sentence below.
    """
    rows = [
        [label, *(percent(p) for p in row)]
        for label, row in zip(row_labels, probabilities, strict=True)
    ]
    return Table([corner, *column_labels], rows, caption=caption, note=note)


#: How a spreadsheet tells a formula: a cell whose text starts with one of these (OWASP, "CSV
#: injection"; a name "=HYPERLINK(...)" in a downloaded table would run in the GM's spreadsheet).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """``value`` as a CSV cell a spreadsheet shows as text: a leading "'" before a formula.

    Numbers, and texts that read as one ("-3", "-0.25"), are left as they are. A carriage
    return becomes a line break (the writer quotes a cell holding one; a bare one would split
    the row).
    """
    if not isinstance(value, str):
        return value
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    if not value.startswith(FORMULA_STARTS):
        return text
    try:
        float(value)
    except ValueError:
        return "'" + text
    return text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table as CSV text: the header, then the rows, every cell through ``csv_cell``.

    The one CSV writer of the package (the pages' downloads, the lab's runs, the reference
    tables, the night's numbers); values are written as given (``str`` of a number).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in header])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()
