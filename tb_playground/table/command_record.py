"""What a command of the table is: its record, the events it makes, and the reader of its words.

The lowest floor of ``table/``: it imports nothing from the package, so every rule module can
declare its commands (``COMMANDS``) with it and ``commands.py`` collects them (RULES.md "The
table"; docs/notes/0008-table.md; ARCHITECTURE.md "Adding a command").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .state_types import TableState

#: One event a command makes: (type, data, changes to the state).
Event = tuple[str, dict, list]

#: ``roll(n)``: n d10 faces from the table's generator.
Roller = Callable[[int], list[int]]

Handler = Callable[["TableState", dict, str, "str | None", Roller], list[Event]]


class Reader(Protocol):
    """One reader's eye on one event of the log: what a command's log words may ask.

    ``table_log`` makes it (RULES.md "The table"; docs/notes/0008-table.md): the GM sees every
    number, a player or a spectator a foe's numbers only when the GM shares them.
    """

    state: TableState
    role: str
    seat: str | None
    sees_all: bool

    def name(self, cid: str) -> str:
        """``cid``'s name as this reader's cards show it."""

    def shown(self, ids: Iterable[str]) -> str:
        """The names of those of ``ids`` this reader sees, comma separated."""

    def visible(self, cid: str) -> bool:
        """Whether this reader sees ``cid`` (now, and when the event happened)."""

    def numbers(self, cid: str | None) -> bool:
        """Whether this reader may read ``cid``'s numbers (a foe's only if shared)."""

    def attack_numbers(self, data: dict) -> bool:
        """Whether this reader may read the TN of the attack (or Grab) of ``data``."""


#: A log line: ``words(reader, data)`` -> the line, or None when this reader may not see it.
Words = Callable[[Reader, dict], "str | None"]


@dataclass(frozen=True)
class Command:
    """One command of the table, declared once in the rule module that holds its rule.

    ``commands.py`` collects every rule module's ``COMMANDS``: ``decide`` runs ``handler``
    after refusing any field not in ``fields``; the log reads each event's line from the
    ``words`` of the command that declares it, and an undo line names it by ``called``. The
    action panel's entries of a command are ``menu.MENU``'s, by command name (they need the
    odds and the Gifts, which the rule modules are: a menu builder in a rule module would
    close a circle).

    Parameters
    ----------
    name : str
        The command's "type", e.g. "grab".
    handler : callable
        ``handler(state, command, role, seat, roll)`` -> the events, or a refusal.
    fields : tuple of str
        The fields the command may carry besides "type" (any other is refused by name).
    words : mapping
        Event type -> ``words(reader, data)``, for the events whose rule this command holds.
    called : mapping
        Event type -> what an undo or redo line calls it ("an attack").
    """

    name: str
    handler: Handler
    fields: tuple[str, ...] = ()
    words: Mapping[str, Words] = field(default_factory=dict)
    called: Mapping[str, str] = field(default_factory=dict)
