"""The live table state of a combat: commands, an append-only event log, persistence, roles.

No Panel import: ``TableStore(path).create(name, encounter)`` then ``table.apply(command, role,
seat)`` and ``table.view_for(role, seat)`` run a whole fight from a script, a notebook or a test.
The commands, the events and the readings chosen: docs/notes/0008-table.md.
"""

from .commands import COMMANDS, ROLES
from .errors import ConflictError
from .live_table import Table
from .schema import SCHEMA_VERSION, default_path
from .state import BRACKETS, fold
from .store import TableStore

__all__ = [
    "BRACKETS",
    "COMMANDS",
    "ROLES",
    "SCHEMA_VERSION",
    "ConflictError",
    "Table",
    "TableStore",
    "default_path",
    "fold",
]
