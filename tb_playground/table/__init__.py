"""The live table state of a combat: commands, an append-only event log, persistence, roles.

No Panel import: a whole fight runs from a script, a notebook or a test::

    from tb_playground.table import TableStore
    store = TableStore(path)               # a SQLite file, created if missing
    table = store.create(name, encounter)  # refuses a name that exists
    table.apply(command, role="gm", seat=None, expected_version=None)  # -> list of events
    table.view_for(role, seat=None)        # JSON-ready, filtered for that role

See docs/notes/0008-table.md for the commands, the events and the readings chosen.
"""

from .commands import COMMANDS, ROLES
from .errors import ConflictError
from .state import BRACKETS, fold
from .store import SCHEMA_VERSION, Table, TableStore, default_path

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
