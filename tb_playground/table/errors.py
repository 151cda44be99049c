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
