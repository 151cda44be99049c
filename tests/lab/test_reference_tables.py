"""rules/004's quick-reference tables generated from the engine, checked against 004's text.

The text is parsed (tab-separated lines of rules/004 "20 Below at a Glance"); where 004 rounds
(whole percents), the engine's exact odds are compared rounded. Where 004 and the engine
disagree, RULES.md decides and the test names the line: 004's "Resting" rows leave out 000's
"minimum 1" (rules/000 "Above zero"; RULES.md "Where two texts disagree (decided)": the chapter
is the default over the summary), so at a sub-stat of 0 the engine gives 1 where 004 reads 0.
CSV round trips: every CSV reads back to the rows it was written from.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from tb_playground.engine import roll_odds
from tb_playground.lab.reference_tables import (
    TABLES,
    odds_rows,
    odds_table,
    read_csv,
    records_csv,
    render,
    resting_amounts_table,
    resting_rows,
    resting_table,
    social_dice_rows,
    social_dice_table,
)
from tb_playground.lab.rules_lab import advantage_as_tn, switch_report
from tb_playground.texts import rules_text

TEXT = rules_text("004")
LINES = TEXT.splitlines()


def tab_line(first: str, after: str | None = None) -> list[str]:
    """The cells of the first tab-separated line of 004 starting with ``first`` (after a line
    containing ``after``, when given)."""
    start = 0 if after is None else next(i for i, line in enumerate(LINES) if after in line)
    for line in LINES[start:]:
        cells = line.split("\t")
        if cells[0] == first and len(cells) > 1:
            return cells
    raise AssertionError(f"rules/004 has no line starting {first!r}")


# -- What Your Target Is Worth ------------------------------------------------------------------


def test_odds_table_matches_004():
    """rules/004 "What Your Target Is Worth": Target 5 8 11 14 17 / Succeeds 10% .. 94%."""
    targets = [int(c) for c in tab_line("Target")[1:]]
    printed = tab_line("Succeeds")[1:]
    assert targets == [r[0] for r in odds_rows()]
    assert printed == [r[1] for r in odds_rows()]
    # the generated Markdown carries the same two lines
    md = odds_table().splitlines()
    assert [c.strip() for c in md[0].strip("|").split("|")] == ["Target", *map(str, targets)]
    assert [c.strip() for c in md[2].strip("|").split("|")] == ["Succeeds", *printed]
    # rounded compare of the exact odds, independent of the table code
    for t, text in zip(targets, printed, strict=True):
        exact = roll_odds(t).exact("success")
        assert f"{round(float(exact) * 100)}%" == text


def test_full_odds_table_is_exact():
    header, rows = read_csv(odds_table("csv", range(1, 21)))
    assert header == ["Target", "Succeeds", "Probability"]
    for target, percent, probability in rows:
        exact = roll_odds(int(target)).exact("success")
        assert Fraction(probability) == exact  # exact decimal, no rounding
        assert percent == f"{math.floor(exact * 100 + Fraction(1, 2))}%"
    # RULES.md: TN 1 succeeds 1%, TN 20 succeeds 99%
    assert rows[0][1:] == ["1%", "0.01"] and rows[-1][1:] == ["99%", "0.99"]


# -- Social dice --------------------------------------------------------------------------------


def test_social_dice_match_004():
    """rules/004 "Social Attacks": 0 Untrained 1 die, 1 Trained 3, ... 4 Master 6."""
    printed = []
    for tier in range(5):
        cells = tab_line(str(tier), after="The dice are your training")
        printed.append((int(cells[0]), cells[1], int(re.match(r"\d+", cells[2]).group())))
    assert social_dice_rows() == printed
    header, rows = read_csv(social_dice_table("csv"))
    assert header == ["Tier", "Training", "Dice"]
    assert [(int(a), b, int(c)) for a, b, c in rows] == printed


# -- Resting ------------------------------------------------------------------------------------

#: 004's rates in words, read as numbers.
RATES = {
    "half your {}, round up": lambda s: -(-s // 2),
    "your {}": lambda s: s,
}


def rate_of(words: str, stat: str):
    for pattern, rate in RATES.items():
        if words == pattern.format(stat):
            return rate
    raise AssertionError(f"unknown rate {words!r}")


def test_resting_matches_004_where_000_agrees():
    generated = {r[0]: r for r in resting_rows()}
    amounts_header, amounts = read_csv(resting_amounts_table("csv"))
    for row, stat, column in (
        ("Health", "Health", 1),
        ("Poise", "Presence", 2),
        ("Sanity", "Psyche", 3),
        ("Ki", "Klotho", 4),
    ):
        _, short, full = tab_line(row, after="Resting")
        assert full == "full" == generated[row][2]
        # 004 line "<row>\t<short>\tfull" leaves out 000's "minimum 1"; RULES.md decides for
        # 000 ("Where two texts disagree (decided)"), so the generated words add it.
        assert generated[row][1] == f"{short}, minimum 1"
        rate = rate_of(short, stat)
        for s, values in enumerate(amounts):
            engine = int(values[column])
            if rate(s) >= 1:
                assert engine == rate(s), f"{row} at {stat} {s}"
            else:  # only at 0: 004 reads 0, 000 (the default) gives 1
                assert (s, engine) == (0, 1)
    assert amounts_header[0] == "Sub-stat"


def test_below_zero_matches_004():
    """rules/004: "Below 0 the rates stop. Health gets nothing from a Short Rest and exactly
    one Level from a full night. Poise and Sanity go back to 1 on either rest"."""
    sentence = next(line for line in LINES if line.startswith("Below 0 the rates stop"))
    assert "Health gets nothing from a Short Rest and exactly one Level from a full night" in (
        sentence
    )
    assert "Poise and Sanity go back to 1 on either rest" in sentence
    rows = {r[0]: r[1:] for r in resting_rows()}
    assert rows["Health below 0"] == ("nothing", "one level")
    assert rows["Poise below 0"] == ("back to 1", "back to 1")
    assert rows["Sanity below 0"] == ("back to 1", "back to 1")


# -- Markdown and CSV ---------------------------------------------------------------------------


@pytest.mark.parametrize("title", list(TABLES))
def test_every_table_round_trips_through_csv(title):
    make = TABLES[title]
    header, rows = read_csv(make("csv"))
    md = make("markdown").splitlines()
    assert md[1].startswith("| ---")
    if title == "What Your Target Is Worth":  # laid out across, as 004 prints it
        cells = [[c.strip() for c in line.strip("|").split("|")] for line in (md[0], md[2])]
        assert cells == [["Target", *(r[0] for r in rows)], ["Succeeds", *(r[1] for r in rows)]]
        return
    assert len(md) == 2 + len(rows)
    for line, row in zip(md[2:], rows, strict=True):
        assert [c.strip() for c in line.strip("|").split(" | ")] == row
    assert render(header, rows, "csv") == make("csv")


def test_resting_csv_quotes_commas_and_reads_back():
    text = resting_table("csv")
    assert '"half your Health, round up, minimum 1"' in text
    header, rows = read_csv(text)
    assert [tuple(r) for r in rows] == resting_rows()


def test_lab_records_round_trip_exactly():
    curve = switch_report("slow_called_shot_advantage").curves[0]
    header, rows = read_csv(records_csv(curve.rows()))
    assert header == list(curve.rows()[0])
    for row, record in zip(rows, curve.rows(), strict=True):
        assert int(row[0]) == record[header[0]]
        assert [float(v) for v in row[1:]] == [record[k] for k in header[1:]]  # repr: exact
    fit = advantage_as_tn()
    header, rows = read_csv(records_csv(fit.rows()))
    assert len(rows) == fit.levels.size * fit.targets.size
    assert float(rows[10][header.index("Best shift")]) == fit.rows()[10]["Best shift"]
    assert records_csv([]) == ""


def test_bad_formats_are_refused_by_name():
    with pytest.raises(ValueError, match="fmt"):
        odds_table("xlsx")
    with pytest.raises(ValueError, match="targets"):
        odds_table("csv", [0])
    with pytest.raises(TypeError, match="text"):
        read_csv(b"a,b")
