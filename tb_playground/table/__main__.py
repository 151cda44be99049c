"""Back up, export and import table files: ``python -m tb_playground.table --help``.

``backup FILE DEST`` copies the whole file with SQLite's backup API (safe while a server runs);
``export FILE TABLE`` writes one table's events as JSON lines; ``import FILE`` reads them from
standard input. Notes: docs/notes/0008-table.md, "Issue 21: the file is the authority".
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from .store import TableStore


def _existing(path: str) -> Path:
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"FILE: there is no table file at {file}")
    return file


def backup(args) -> str:
    """Copy FILE to DEST (refuses a DEST that exists)."""
    store = TableStore(_existing(args.file))
    try:
        store.backup(args.dest)
    finally:
        store.close()
    check = sqlite3.connect(args.dest)
    try:
        ok = check.execute("PRAGMA integrity_check").fetchone()[0]
        names = check.execute("SELECT count(*) FROM tables").fetchone()[0]
        events = check.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        check.close()
    if ok != "ok":
        raise ValueError(f"DEST: the copy at {args.dest} fails its integrity check: {ok}")
    return f"copied {names} tables ({events} events) from {args.file} to {args.dest}"


def export(args) -> str:
    """Write TABLE's events to standard output, one JSON object a line."""
    store = TableStore(_existing(args.file))
    try:
        events = store.export_events(args.table)
    finally:
        store.close()
    for event in events:
        sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    return f"exported {len(events)} events of {args.table!r}"


def import_(args) -> str:
    """Add the table whose events are on standard input (refuses a name that exists)."""
    events = []
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except ValueError as exc:
            raise ValueError(f"line {number} of the input is not JSON: {exc}") from None
    store = TableStore(args.file)
    try:
        table = store.import_events(events, args.name)
        return f"imported {table.name!r} ({table.version} events) into {args.file}"
    finally:
        store.close()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; 0 on success, 1 with a plain message on an error."""
    parser = argparse.ArgumentParser(
        prog="python -m tb_playground.table", description="Back up, export and import tables."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("backup", help="copy a table file (safe while a server runs)")
    p.add_argument("file", metavar="FILE", help="the table file (tables.sqlite)")
    p.add_argument("dest", metavar="DEST", help="the copy to make (must not exist)")
    p.set_defaults(run=backup)
    p = commands.add_parser("export", help="write one table as JSON lines to standard output")
    p.add_argument("file", metavar="FILE", help="the table file")
    p.add_argument("table", metavar="TABLE", help="the table's name")
    p.set_defaults(run=export)
    p = commands.add_parser("import", help="add a table from JSON lines on standard input")
    p.add_argument("file", metavar="FILE", help="the table file (created if missing)")
    p.add_argument("--name", help="a new name for the table (default: its own)")
    p.set_defaults(run=import_)
    args = parser.parse_args(argv)
    try:
        said = args.run(args)
    except (ValueError, OSError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(said, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
