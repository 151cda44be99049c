"""The side record of acknowledged events, and the words for a loss it finds (a lost -wal).

Nothing inside the main file can know of events that only ever reached the WAL, so the store
keeps ``tables.sqlite-acked`` next to the file: after each commit, before ``apply`` returns,
one JSON line ``[table, seq, crc32 of the row]`` (O_APPEND, not synced); each complete
checkpoint rewrites it with one line per table. On open, a table whose file holds fewer events
than its last acknowledged seq, or whose row at that seq has another CRC, has lost events: an
error in the server's log, and a note in the table's own log (``loss_note``) with the GM's
longer words beside it (``gm_loss_words``). Notes: docs/notes/0008-table.md, "A lost -wal is
reported, never silent (session 8)".
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import zlib
from pathlib import Path

log = logging.getLogger(__name__)

#: The side record of what was acknowledged, next to the file: ``tables.sqlite-acked``.
ACKED_SUFFIX = "-acked"


def acked_path(path: Path) -> Path:
    """The side record of the events ``path`` acknowledged (``tables.sqlite-acked``)."""
    return path.with_name(path.name + ACKED_SUFFIX)


def _crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


def read_acked(path: Path) -> dict[str, list[int]]:
    """The side record: {table name: [last acknowledged seq, CRC-32 of its row]}; {} if none.

    One JSON line ``[name, seq, crc]`` per acknowledged command, the last line of a name
    counting; a line that cannot be read (a write cut by a crash) is skipped with a warning.
    """
    record = acked_path(path)
    try:
        text = record.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("%s cannot be read (%s): lost events cannot be checked this time", record, exc)
        return {}
    acked: dict[str, list[int]] = {}
    bad = 0
    for line in text.splitlines():
        try:
            name, seq, crc = json.loads(line)
            if not isinstance(name, str) or any(
                isinstance(x, bool) or not isinstance(x, int) for x in (seq, crc)
            ):
                raise ValueError(line)
        except (ValueError, TypeError):
            bad += 1
            continue
        acked[name] = [seq, crc]
    if bad:
        log.warning(
            "%s: %d line(s) cannot be read and were skipped (a write cut short?)", record, bad
        )
    return acked


def _record_lines(acked: dict[str, list[int]]) -> str:
    return "".join(json.dumps([name, *value]) + "\n" for name, value in acked.items())


def loss_words(had: int, acked: int, replaced: bool) -> str:
    """What a table lost, in words: the file holds ``had`` events, ``acked`` were acknowledged."""
    if replaced:
        return f"event {acked}, acknowledged, is not the one now in the file"
    if had == acked - 1:
        return f"event {acked}, acknowledged, is missing"
    return f"events {had + 1} to {acked}, acknowledged, are missing"


def loss_note(path: Path, words: str, version: int) -> str:
    """The note a table that lost ``words`` adds to its log (at ``version``), for everyone.

    It names the file by its name only (players read the log too; the server's log has the
    whole path).
    """
    return (
        f"The table file {path.name} lost what was saved: {words}. Its -wal part was "
        f"lost or damaged, or an older copy replaced it; the table goes on from event "
        f"{version}. The server's log gives the file's whole path; restore a backup "
        "if you have one."
    )


def gm_loss_words(path: Path, words: str, version: int) -> str:
    """The GM's words about a loss noted at ``version``: the whole path and what to do."""
    return (
        f"The table file {path} lost what was saved: {words}. Its -wal part "
        f"({path}-wal) was lost or damaged, or an older copy replaced the file. "
        "If you have a backup of that file newer than the loss, stop the server, put "
        "the backup in its place (with its -wal file, if it has one) and start the "
        f"server again; otherwise play on: the table goes on from event {version}."
    )


class AckedRecord:
    """The side record of the table file at ``path``: read when made, appended at each commit.

    Not thread-safe by itself: the store calls it holding its lock.

    Parameters
    ----------
    path : Path
        The table file (the record is ``acked_path(path)``).
    """

    def __init__(self, path: Path):
        self.path = path
        #: {table: [seq, crc]} of the last event each table acknowledged.
        self.acked = read_acked(path)
        self._fd: int | None = None  # the record, open for appending
        self._failed = False

    def losses(self, conn: sqlite3.Connection) -> dict[str, str]:
        """Compare the file (``conn``) with the record; {table: what it lost, in words}.

        A table has lost events when the file holds fewer than the record says were
        acknowledged, or when the row at the recorded seq is not the one acknowledged (its
        CRC-32 differs). Each loss is logged as an error naming the table and the file.
        """
        if not self.acked:
            return {}
        rows = conn.execute("SELECT tname, MAX(seq) FROM events GROUP BY tname").fetchall()
        last = dict(rows)
        losses = {}
        for name, (seq, crc) in self.acked.items():
            had = last.get(name, 0)
            replaced = False
            if had >= seq:
                row = conn.execute(
                    "SELECT body FROM events WHERE tname=? AND seq=?", (name, seq)
                ).fetchone()
                replaced = row is None or _crc(row[0]) != crc
                if not replaced:
                    continue
            losses[name] = loss_words(had, seq, replaced)
            log.error(
                "table %r in %s: %s (the file's -wal part was lost or damaged, or an older copy "
                "replaced the file); the table goes on from event %d",
                name, self.path, losses[name], had,
            )  # fmt: skip
        return losses

    def acknowledge(self, name: str, seq: int, body: str) -> None:
        """Keep ``seq`` as the table's last acknowledged event (``body``: its row).

        One line appended after each commit, before the command returns (a few microseconds;
        not synced: a record older than the file only misses a loss, it never reports one that
        did not happen). Each complete checkpoint rewrites the record compacted (``compact``);
        a process whose record was replaced by another's opens the new one.
        """
        self.acked[name] = [seq, _crc(body)]
        line = (json.dumps([name, seq, self.acked[name][1]]) + "\n").encode("utf-8")
        try:
            if self._fd is not None and os.fstat(self._fd).st_nlink == 0:
                os.close(self._fd)  # compacted by another process: append to the new one
                self._fd = None
            if self._fd is None:
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
                self._fd = os.open(acked_path(self.path), flags, 0o644)
            os.write(self._fd, line)
        except OSError as exc:
            if not self._failed:  # once, not at every command
                log.warning(
                    "%s cannot be written (%s): a lost -wal would go unnoticed",
                    acked_path(self.path), exc,
                )  # fmt: skip
            self._failed = True

    def compact(self) -> None:
        """Rewrite the record with one line per table (after a complete checkpoint)."""
        record = acked_path(self.path)
        if not record.exists():
            return
        spare = record.with_name(record.name + ".new")
        try:
            spare.write_text(_record_lines(read_acked(self.path)), encoding="utf-8")
            os.replace(spare, record)
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
        except OSError as exc:
            log.warning("%s cannot be rewritten (%s)", record, exc)

    def close(self) -> None:
        """Close the record if it is open for appending."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
