"""A ``simulate`` run played in a thread, with progress and Cancel, and its result as tables.

The encounter planner page (``views/encounter_planner.py``) shows these; nothing here needs
Panel, so a notebook or a test drives a run the same way. The sides come from the example roster
(``models.roster.build_encounter``) or from a live table's state, as plain data
(``prepare.plain_encounter``).
"""

from __future__ import annotations

import copy
import numbers
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from tb_playground.formatting import csv_text
from tb_playground.models.roster import build_encounter

from .prepare import plain_encounter
from .simulate import simulate

#: The CSV files of the four result tables.
FILE_NAMES = {
    "wins": "encounter-who-wins.csv",
    "rounds": "encounter-rounds.csv",
    "characters": "encounter-characters.csv",
    "damage": "encounter-damage-shares.csv",
}


# -- the sides as plain data -----------------------------------------------------------------


@lru_cache(maxsize=64)
def _plain_from_files(encounter_file: str, party: tuple, foes: tuple) -> dict:
    return plain_encounter(build_encounter(encounter_file, list(party), list(foes)))


def plain_from_files(encounter_file: str, party: list[str], foes: list[str]) -> dict:
    """``models.roster.build_encounter`` as plain data (cached per process; a copy each call)."""
    return copy.deepcopy(_plain_from_files(encounter_file, tuple(party), tuple(foes)))


def sides_from_files(encounter_file: str, party: list[str], foes: list[str]) -> Callable:
    """A callable giving the roster picks as plain data (for a run to call in its thread).

    Raises
    ------
    ValueError
        A side is empty and no encounter file brings it.
    """
    if (not party or not foes) and not encounter_file:
        raise ValueError("Pick at least one combatant for each side.")
    party, foes = list(party), list(foes)
    return lambda: plain_from_files(encounter_file, party, foes)


def sides_from_table(service, name: str) -> Callable:
    """A callable giving a live table's fight as it stands, as plain data (the table unchanged).

    Parameters
    ----------
    service : object
        Opens the table: ``service.open(name)`` (a ``CombatService``), in the run's thread.
    name : str
        The table's name.
    """
    return lambda: plain_encounter(copy.deepcopy(service.open(name).state))


# -- a run in a thread -----------------------------------------------------------------------


class RunCancelledError(Exception):
    """Raised inside a run's thread when its Cancel was pressed."""


class PlannerRun:
    """One ``simulate`` call played in a thread, with progress and a way to stop it.

    Parameters
    ----------
    encounter : object
        What ``simulate`` takes, or a callable returning it, called in the thread (building
        the sides from files then does not hold up the page).
    fights, seed : int
        As ``simulate``.
    **policies
        ``simulate``'s keyword arguments.
    """

    def __init__(self, encounter, fights: int, seed: int, **policies):
        self.encounter = encounter
        self.fights = fights
        self.seed = seed
        self.policies = policies
        self.decided = 0
        self.result = None
        self.error = ""
        self.cancelled = False
        self.started = None
        self.finished = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def progress(self) -> float:
        """The share of the fights decided so far, 0..1."""
        return 1.0 if self.result is not None else self.decided / max(self.fights, 1)

    @property
    def running(self) -> bool:
        """Started and not finished."""
        return self.started is not None and self.finished is None

    @property
    def elapsed(self) -> float:
        """Seconds since the start (to the end, once finished)."""
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started

    def _tick(self, decided: int, _total: int) -> None:
        self.decided = decided
        if self._stop.is_set():
            raise RunCancelledError

    def play(self) -> None:
        """Play the run in this thread (``start`` calls it in a new one)."""
        self.started = self.started or time.monotonic()
        try:
            encounter = self.encounter() if callable(self.encounter) else self.encounter
            if self._stop.is_set():
                raise RunCancelledError
            self.result = simulate(
                encounter, self.fights, self.seed, progress=self._tick, **self.policies
            )
        except RunCancelledError:
            self.cancelled = True
        except (ValueError, TypeError, KeyError, OSError) as err:
            self.error = str(err)
        finally:
            self.finished = time.monotonic()

    def start(self) -> PlannerRun:
        """Play the run in a daemon thread; returns at once."""
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self.play, name="encounter-run", daemon=True)
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop the run at its next round (the thread ends soon after)."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True once the run has finished."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.finished is not None

    def outcome(self, timeout: float | None = None):
        """The run's ``EncounterResult``, once finished (waits up to ``timeout`` seconds).

        Raises
        ------
        ValueError
            The run failed (its ``error`` in words), was cancelled, or has not finished.
        """
        if not self.wait(timeout):
            raise ValueError("The run has not finished.")
        if self.cancelled:
            raise ValueError(f"The run was cancelled after {self.decided:,} fights.")
        if self.error:
            raise ValueError(self.error)
        return self.result


# -- the result as tables --------------------------------------------------------------------


@dataclass(frozen=True)
class ResultTable:
    """One table of a result: a title, a file name, column names, and rows of plain values."""

    title: str
    file_name: str
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]

    def csv(self) -> str:
        """The table as CSV text (numbers written in full, so they read back exactly)."""
        return csv_text(self.columns, ([_cell(v) for v in row] for row in self.rows))


def _cell(value) -> object:
    """A CSV cell: a float in full (``repr``), a whole number as itself, text as it is."""
    if isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return repr(float(value))
    return value


def result_tables(result) -> dict[str, ResultTable]:
    """The four tables of an ``EncounterResult``: wins, rounds, characters, damage."""
    wins = [
        (side, result.p_win[side], *result.p_win_interval[side]) for side in result.sides
    ] + [(f"Draw (still going after {result.max_rounds} rounds)", result.p_draw,
          *result.p_draw_interval)]  # fmt: skip
    last = max((i + 1 for i, p in enumerate(result.rounds.distribution) if p > 0), default=1)
    rounds = [(r + 1, float(result.rounds.distribution[r])) for r in range(last)]
    characters = [
        ("Any character at 0 Health or below", result.p_character_down,
         *result.p_character_down_interval),
        ("Any character Dying", result.p_character_dying, *result.p_character_dying_interval),
        ("Any character dead", result.p_character_dead, *result.p_character_dead_interval),
    ]  # fmt: skip
    damage = [
        (name, cid, side, result.damage_share[cid], *result.damage_share_interval[cid])
        for name, cid, side in zip(result.names, result.ids, result.combatant_sides, strict=True)
    ]
    return {
        "wins": ResultTable(
            "Who wins",
            FILE_NAMES["wins"],
            ("side", "p_win", "low_95", "high_95"),
            tuple(wins),
        ),
        "rounds": ResultTable(
            "Rounds",
            FILE_NAMES["rounds"],
            ("round", "p_fight_ends_in_round"),
            tuple(rounds),
        ),
        "characters": ResultTable(
            "Characters hurt",
            FILE_NAMES["characters"],
            ("event", "p", "low_95", "high_95"),
            tuple(characters),
        ),
        "damage": ResultTable(
            "Damage shares",
            FILE_NAMES["damage"],
            ("combatant", "combatant_id", "side", "share", "low_95", "high_95"),
            tuple(damage),
        ),
    }


__all__ = [
    "FILE_NAMES",
    "PlannerRun",
    "ResultTable",
    "RunCancelledError",
    "plain_from_files",
    "result_tables",
    "sides_from_files",
    "sides_from_table",
]
