"""The errors a table raises: bad commands, refused roles, and stale versions."""

from __future__ import annotations


class ConflictError(ValueError):
    """A command was sent against an older version of the table than the current one.

    The message says what happened since, so the sender can look again and resend.
    """

    def __init__(self, expected: int, version: int, since: list[str]):
        self.expected = expected
        self.version = version
        self.since = since
        told = "; ".join(since[-5:]) if since else "nothing visible to you"
        super().__init__(
            f"expected_version {expected} is out of date: the table is at event {version}. "
            f"Since then: {told}."
        )


class RaceError(ConflictError):
    """Another process kept writing to the same table while this one decided, too many times.

    The command was decided again on the fresh state after each of the other's writes; none of
    those tries could be stored, so nothing changed. Sending it again is safe.
    """

    def __init__(self, table: str, path: object, tries: int):
        ValueError.__init__(
            self,
            f'table "{table}" in {path}: another process kept changing it while this command '
            f"was decided ({tries} tries); nothing was changed, send it again",
        )
        self.table = table
        self.expected = None
        self.version = None
        self.since = []


class TableFileError(ValueError):
    """The table file could not be written (or read): locked, full, read-only or failing.

    Nothing was changed (the table's state is as before the command). The message is plain
    words for the GM: the file's path, what is wrong and what to do; ``kind`` is one of
    ``KINDS``.
    """

    #: What went wrong, and the sentence that says what to do about it.
    KINDS = {
        "locked": (
            "is locked by another program (a second server or a notebook on the same file?)",
            "Close the other program, or wait a moment and try again.",
        ),
        "full": (
            "cannot grow: the disk is full",
            "Free some space on that disk, then try again.",
        ),
        "read-only": (
            "is read-only (or its folder is)",
            "Let this server write to it (or serve another file with TB_TABLE_DB), then try again.",
        ),
        "failing": (
            "could not be written",
            "Check the disk and the file (python -m tb_playground.table backup makes a copy), "
            "then try again.",
        ),
    }

    def __init__(self, kind: str, path: object, detail: str = ""):
        self.kind = kind if kind in self.KINDS else "failing"
        self.path = str(path)
        self.detail = detail
        what, todo = self.KINDS[self.kind]
        super().__init__(f"The table file {self.path} {what}; nothing was changed. {todo}")
