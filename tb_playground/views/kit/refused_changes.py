"""One line, not two tracebacks, for a change a page sent that its widget refused (issue 33).

A page can send any value for any widget (a forged message, a stale page, a bug in a browser):
the widget refuses it (``param`` checks the value) and the page stays as the server has it.
Panel then logs the refusal with a full traceback ("Callback failed for object named ...") and
Bokeh logs the same exception again with another ("error handling message"), at ERROR. A page
sending forged values in a loop filled the server's log with two tracebacks each.

This logging filter (the loggers' public API; no library code is changed) turns Panel's record
into one WARNING line naming the widget and the refusal, at most one line per session every
``EVERY`` seconds (the next line says how many were left out), drops Bokeh's second record of
the same exception, and keeps each traceback at DEBUG for whoever debugs the server.
"""

from __future__ import annotations

import logging
import time
from collections import deque

log = logging.getLogger(__name__)

#: The records it reads: Panel's for a widget's refused change, Bokeh's for the same exception.
PANEL = ("panel.reactive", "Callback failed for object named")
BOKEH = ("bokeh.server.protocol_handler", "error handling message")
#: Seconds between two lines for one session.
EVERY = 10.0


class RefusedChanges(logging.Filter):
    """The filter on ``PANEL``'s and ``BOKEH``'s loggers (``install``).

    Parameters
    ----------
    every : float
        Seconds between two lines for one session.
    clock : callable
        The time in seconds (``time.monotonic``; a test passes its own).
    """

    def __init__(self, every: float = EVERY, clock=time.monotonic):
        super().__init__()
        self.every = every
        self.clock = clock
        self._last: dict[object, tuple[float, int]] = {}  # session -> (time said, left out)
        self._told = deque(maxlen=64)  # the exceptions Panel's line told (Bokeh's repeats them)

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged (made one line when it is a refused change)."""
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        msg = str(record.msg)
        if record.name == BOKEH[0] and msg.startswith(BOKEH[1]):
            if any(exc is told for told in self._told):
                return False  # the second traceback of a refusal already told
            return self._one_line(record, "protocol", "a page sent a message the server refused")
        if record.name == PANEL[0] and msg.startswith(PANEL[1]):
            self._told.append(exc)
            return self._one_line(record, _session(), "a page sent a value its widget refused")
        return True

    def _one_line(self, record: logging.LogRecord, key: object, what: str) -> bool:
        exc = record.exc_info[1]
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s", record.getMessage(), exc_info=record.exc_info)
        now = self.clock()
        said, left_out = self._last.get(key, (None, 0))
        if said is not None and now - said < self.every:
            self._last[key] = (said, left_out + 1)
            return False
        for k, (t, _) in list(self._last.items()):  # forget sessions quiet for a minute
            if now - t > 60:
                del self._last[k]
        self._last[key] = (now, 0)
        said_by = " ".join(record.getMessage().split("\n", 1)[0].split())[:200]
        text = " ".join(str(exc).split())[:300]
        more = f" ({left_out} more like it left out)" if left_out else ""
        record.msg = "%s: %s: %s (%s)%s"
        record.args = (what, type(exc).__name__, text, said_by, more)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _session() -> object:
    """The session whose change is being handled (its document), or None."""
    try:
        import panel as pn

        return id(pn.state.curdoc) if pn.state.curdoc is not None else None
    except Exception:  # noqa: BLE001 - never fail a log record
        return None


_FILTER = RefusedChanges()


def install() -> RefusedChanges:
    """Put the filter on Panel's and Bokeh's loggers (idempotent); return it."""
    for name in (PANEL[0], BOKEH[0]):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    return _FILTER
