"""The table file's layout: where it is, how it is opened, its schema and the upgrade from 1.

One row per event (JSON), primary key (table, seq); a ``meta`` row holds the schema version and
a file of another version is refused. The ``tables`` row holds each table's current join code
(schema 2: the ``code`` column, written with the event that sets it; a schema-1 file is upgraded
when opened). WAL, ``synchronous=FULL``: a commit survives the process's death and a power cut.
The file is at ``TB_TABLE_DB`` or in the user's data directory. Notes: docs/notes/0008-table.md,
"Persistence", "Damage" and "Issue 21: the file is the authority" ("Join codes from the file").
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

#: The layout of the SQLite file; a file with another version is refused (1 is upgraded).
SCHEMA_VERSION = 2

#: Seconds a read waits for a lock (reads of a WAL file wait only in rare moments).
READ_WAIT = 5.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, created REAL NOT NULL, code TEXT);
CREATE TABLE IF NOT EXISTS events (
    tname TEXT NOT NULL REFERENCES tables(name),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (tname, seq)
) WITHOUT ROWID;
"""


def default_path() -> Path:
    """``TB_TABLE_DB`` if set, else ``tables.sqlite`` in the user's data directory."""
    env = os.environ.get("TB_TABLE_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tb_playground", appauthor=False)) / "tables.sqlite"


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the file at ``path``: WAL, synced at each commit, shared across threads.

    Autocommit (``isolation_level=None``): the store begins and ends its transactions itself.
    """
    conn = sqlite3.connect(path, timeout=READ_WAIT, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    # FULL in WAL mode: each commit syncs the WAL, so it survives a power cut too.
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Create the schema in a new file, upgrade a schema-1 one, refuse any other version.

    Raises a ValueError naming ``path`` (the file's) and both versions.
    """
    conn.executescript(_SCHEMA)
    row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None:
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    elif row[0] == "1":
        _upgrade_from_1(conn)
    elif row[0] != str(SCHEMA_VERSION):
        raise ValueError(
            f"path: {path} holds tables of schema version {row[0]}; "
            f"this version reads {SCHEMA_VERSION}"
        )
    conn.execute("CREATE INDEX IF NOT EXISTS tables_code ON tables(code)")


def _upgrade_from_1(conn: sqlite3.Connection) -> None:
    """Schema 1 had no join-code column: add it, filled from each table's events."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(tables)")]
        if "code" not in columns:
            conn.execute("ALTER TABLE tables ADD COLUMN code TEXT")
        rows = conn.execute(
            "SELECT tname, body FROM events WHERE body LIKE '%join_code%' ORDER BY tname, seq"
        ).fetchall()
        codes: dict[str, str] = {}
        for name, body in rows:
            try:
                code = code_after([json.loads(body)])
            except (ValueError, TypeError, KeyError):
                continue  # a damaged row: that table will say so when opened
            if code is not None:
                codes[name] = code
        conn.executemany(
            "UPDATE tables SET code=? WHERE name=?", [(c, n) for n, c in codes.items()]
        )
        conn.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def code_after(events: list[dict]) -> str | None:
    """The join code ``events`` set last, or None (only "created" and "code_rotated" set one).

    What the ``tables`` row's ``code`` column holds once ``events`` are written.
    """
    code = None
    for event in events:
        if event["type"] == "created":
            code = event["data"]["join_code"]
        for path, value in event["changes"]:
            if path == ["join_code"]:
                code = value
    return code


def parse_rows(path: Path, name: str, rows: list, after: int) -> list[dict]:
    """The events of ``rows`` ((seq, body) pairs following seq ``after``), checked.

    A row that is not a whole event raises a ValueError naming the table ``name``, the file
    ``path`` and the seq ("Damage": the other tables of the file still open).
    """
    events = []
    for seq, body in rows:
        try:
            event = json.loads(body)
            if not isinstance(event, dict) or event.get("seq") != seq:
                raise ValueError("not an event of this seq")
            for key in ("cmd", "type", "data", "changes"):
                event[key]  # noqa: B018 - present
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(
                f"table {name!r} in {path}: event {seq} is damaged ({exc}); "
                "the other tables are not affected"
            ) from None
        if seq != after + 1 + len(events):
            raise ValueError(
                f"table {name!r} in {path}: event {after + 1 + len(events)} is missing"
            )
        events.append(event)
    return events
