"""The package's one CSV writer keeps a spreadsheet from running a name (issue 33, item 6).

A character named "=HYPERLINK(...)" (or "+", "-", "@" first) went as it was into the night's
numbers and the other downloads, and a spreadsheet runs it. Every CSV of the package is written
by ``formatting.csv_text``: such a cell starts with "'" (shown as text), numbers stay numbers.
"""

from __future__ import annotations

import csv
import io

import pytest

from tb_playground.formatting import csv_cell, csv_text
from tb_playground.lab.reference_tables import render
from tb_playground.table import night

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_formula_is_written_as_text(name):
    shown = "'" + name.replace("\r", "\n")  # a carriage return is a line break in a cell
    assert csv_cell(name) == shown
    (row,) = list(csv.reader(io.StringIO(csv_text(["name"], [[name]]), newline="")))[1:]
    assert row == [shown]


@pytest.mark.parametrize("value", [-3, "-3", "-0.25", 0.1, "+4", "Ronan", "", None, "a=b"])
def test_numbers_and_plain_words_stay_as_they_are(value):
    assert csv_cell(value) == value


def test_the_nights_numbers_and_the_reference_tables_use_it():
    name = "=cmd|' /C calc'!A0"
    row = dict.fromkeys(night.COMBATANT_COLUMNS, 0)
    row.update(id="x", name=name, side="@Foes", dealt=None, took=None, spent=None)
    numbers = {"combatants": [row], "rolls": []}
    rows = list(csv.DictReader(io.StringIO(night.to_csv(numbers, "combatants"))))
    assert rows[0]["name"] == "'" + name and rows[0]["side"] == "'@Foes"
    table = render(["who", "p"], [[name, -0.5]], "csv")
    assert list(csv.reader(io.StringIO(table)))[1] == ["'" + name, "-0.5"]
