"""rules/004's quick-reference tables (odds, Social dice, Resting), generated from the engine.

Each is written as Markdown or CSV so a printed sheet and the software never disagree; the
resting words follow 000 where it differs from 004 (RULES.md, "Where two texts disagree
(decided)"). How the phrases are chosen: docs/notes/0014-rules-lab.md. No Panel here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from fractions import Fraction

from tb_playground.engine import (
    PUBLISHED_TARGETS,
    TIER_NAMES,
    full_night,
    roll_odds,
    short_rest,
    social_dice,
)
from tb_playground.engine.validation import require_choice, require_int
from tb_playground.formatting import csv_text

#: Output formats.
FORMATS = ("markdown", "csv")

#: Sub-stat values the rest phrases are checked against.
STAT_VALUES = range(11)

#: The rest rows 004 prints, with the sub-stat its Short Rest rate reads.
REST_ROWS = (("Health", "Health"), ("Poise", "Presence"), ("Sanity", "Psyche"), ("Ki", "Klotho"))


def _percent(p: Fraction) -> str:
    """A probability as 004 prints it: whole percents, halves rounded up ("55%")."""
    value = p * 100
    whole = int(value)
    if value - whole >= Fraction(1, 2):
        whole += 1
    return f"{whole}%"


def _decimal(p: Fraction) -> str:
    """A probability as an exact decimal (the dice's denominators are powers of ten)."""
    for digits in range(31):
        scaled = p * 10**digits
        if scaled.denominator == 1:
            break
    else:
        raise ValueError(f"not a finite decimal: {p}")
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled.numerator), 10**digits)
    return sign + (f"{whole}.{frac:0{digits}d}" if digits else str(whole))


def render(header: Sequence[str], rows: Sequence[Sequence[object]], fmt: str = "markdown") -> str:
    """A table as Markdown (a pipe table) or CSV (comma separated, a header line first)."""
    fmt = require_choice("fmt", fmt, FORMATS)
    cells = [[str(c) for c in row] for row in rows]
    if fmt == "csv":
        return csv_text(header, cells)

    def line(values):
        return "| " + " | ".join(v.replace("|", "\\|") for v in values) + " |"

    return (
        "\n".join(
            [line(list(header)), "| " + " | ".join("---" for _ in header) + " |", *map(line, cells)]
        )
        + "\n"
    )


def read_csv(text: str) -> tuple[list[str], list[list[str]]]:
    """A CSV written by ``render`` read back: the header and the rows, as strings."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise ValueError("text must hold a CSV table with a header line, got nothing")
    return rows[0], rows[1:]


def records_csv(records: Sequence[dict]) -> str:
    """A list of dicts with the same keys (the lab's ``rows()``) as CSV; floats exact (repr)."""
    records = list(records)
    if not records:
        return ""
    header = list(records[0])
    rows = [[repr(r[k]) if isinstance(r[k], float) else r[k] for k in header] for r in records]
    return render(header, rows, "csv")


# --- What Your Target Is Worth ----------------------------------------------------------------


def odds_rows(targets: Sequence[int] = PUBLISHED_TARGETS) -> list[tuple[int, str, str]]:
    """(TN, rounded percent as 004 prints it, exact probability) of a plain roll per TN."""
    out = []
    for t in targets:
        t = require_int("targets", t, 1, 20)
        p = roll_odds(t).exact("success")
        out.append((t, _percent(p), _decimal(p)))
    return out


def odds_table(
    fmt: str = "markdown", targets: Sequence[int] = PUBLISHED_TARGETS, across: bool = True
) -> str:
    """rules/004 "What Your Target Is Worth", from the engine's exact odds.

    Markdown ``across`` is laid out as 004 prints it (a "Target" row over a "Succeeds" row);
    otherwise, and always in CSV, one row per TN: Target, Succeeds (rounded), Probability
    (exact decimal).
    """
    rows = odds_rows(targets)
    if require_choice("fmt", fmt, FORMATS) == "csv" or not across:
        return render(("Target", "Succeeds", "Probability"), rows, fmt)
    return render(("Target", *(str(r[0]) for r in rows)), [("Succeeds", *(r[1] for r in rows))])


# --- Social dice ------------------------------------------------------------------------------


def social_dice_rows() -> list[tuple[int, str, int]]:
    """(tier, tier name, dice) for each training tier (rules/004 "Social Attacks")."""
    return [(tier, TIER_NAMES[tier], social_dice(tier)) for tier in range(len(TIER_NAMES))]


def social_dice_table(fmt: str = "markdown") -> str:
    """The dice a Social attack rolls at each training tier, from ``engine.social_dice``."""
    return render(("Tier", "Training", "Dice"), social_dice_rows(), fmt)


# --- Resting ----------------------------------------------------------------------------------


def _rest_gain(row: str, stat: int, short: bool) -> int:
    """Levels (or Ki) one rest gives back from 0 (Ki 0) with ``stat`` in the rate's sub-stat."""
    values = dict.fromkeys(("health_stat", "presence", "psyche", "klotho"), 0)
    key = {"Health": "health_stat", "Poise": "presence", "Sanity": "psyche", "Ki": "klotho"}[row]
    values[key] = stat
    rest = (short_rest if short else full_night)(
        health=0,
        health_max=15,
        poise=0,
        poise_max=15,
        sanity=0,
        sanity_max=15,
        ki=0,
        ki_pool=20,
        **values,
    )
    return {"Health": rest.health, "Poise": rest.poise, "Sanity": rest.sanity, "Ki": rest.ki}[row]


def _candidates(stat_name: str) -> list[tuple[str, Callable[[int], int]]]:
    """004's phrasings (and 000's "minimum 1"), each with the rate it means."""
    return [
        (f"half your {stat_name}, round up", lambda s: -(-s // 2)),
        (f"half your {stat_name}, round up, minimum 1", lambda s: max(1, -(-s // 2))),
        (f"your {stat_name}", lambda s: s),
        (f"your {stat_name}, minimum 1", lambda s: max(1, s)),
    ]


def rest_phrase(row: str, short: bool) -> str:
    """The words for one cell of the resting table, checked against the engine.

    Parameters
    ----------
    row : {"Health", "Poise", "Sanity", "Ki"}
        The row of 004's table.
    short : bool
        The Short Rest column (else the Full Night).

    Raises
    ------
    RuntimeError
        When no phrasing fits the engine for every sub-stat 0..10.
    """
    row = require_choice("row", row, tuple(r for r, _ in REST_ROWS))
    stat_name = dict(REST_ROWS)[row]
    gains = [_rest_gain(row, s, short) for s in STAT_VALUES]
    if not short:
        full = 20 if row == "Ki" else 15
        if all(g == full for g in gains):
            return "full"
    else:
        for words, rate in _candidates(stat_name):
            if all(g == rate(s) for s, g in zip(STAT_VALUES, gains, strict=True)):
                return words
    raise RuntimeError(f"no phrase fits the engine's {row} rest: {gains}")


def _below_zero_phrases() -> list[tuple[str, str, str]]:
    """rules/004 "Below 0 the rates stop": what each rest does below 0, from the engine."""

    def health_after(short: bool) -> int:
        rest = short_rest if short else full_night
        return rest(
            health=-3, health_max=8, poise=1, poise_max=8, sanity=1, sanity_max=8,
            health_stat=3, presence=3, psyche=3, ki=0, ki_pool=10, klotho=3,
        ).health  # fmt: skip

    def words_health(short: bool) -> str:
        gained = health_after(short) + 3
        return "nothing" if gained == 0 else ("one level" if gained == 1 else f"{gained} levels")

    def back_to(row: str, short: bool) -> str:
        rest = short_rest if short else full_night
        kwargs = {"poise": 1, "sanity": 1, row.lower(): -4}
        after = getattr(
            rest(health=1, health_max=8, poise_max=8, sanity_max=8, health_stat=3, presence=3,
                 psyche=3, ki=0, ki_pool=10, klotho=3, **kwargs),
            row.lower(),
        )  # fmt: skip
        return f"back to {after}"

    return [
        ("Health below 0", words_health(True), words_health(False)),
        ("Poise below 0", back_to("Poise", True), back_to("Poise", False)),
        ("Sanity below 0", back_to("Sanity", True), back_to("Sanity", False)),
    ]


def resting_rows() -> list[tuple[str, str, str]]:
    """(what, Short Rest, Full Night) as words: 004's four rows, then the below-0 rows."""
    rows = [(row, rest_phrase(row, True), rest_phrase(row, False)) for row, _ in REST_ROWS]
    return rows + _below_zero_phrases()


def resting_table(fmt: str = "markdown") -> str:
    """rules/004 "Resting", its words generated from the engine's rest functions."""
    return render(("Recovers", "Short Rest", "Full Night"), resting_rows(), fmt)


def resting_amounts_table(fmt: str = "markdown") -> str:
    """What a Short Rest gives back at 0 or above, per sub-stat value 0..10 (the engine's)."""
    header = ("Sub-stat", *(f"{row} (half {stat})" if row != "Ki" else "Ki (Klotho)"
                            for row, stat in REST_ROWS))  # fmt: skip
    rows = [(s, *(_rest_gain(row, s, True) for row, _ in REST_ROWS)) for s in STAT_VALUES]
    return render(header, rows, fmt)


#: Every table of the sheet: its title and its function.
TABLES: dict[str, Callable[[str], str]] = {
    "What Your Target Is Worth": odds_table,
    "Every Target Number": lambda fmt="markdown": odds_table(fmt, range(1, 21), across=False),
    "Social Attacks: dice by training": social_dice_table,
    "Resting": resting_table,
    "Short Rest by sub-stat": resting_amounts_table,
}
