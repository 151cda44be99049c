"""A forged widget value: one log line per session, not two tracebacks each (issue 33, item 7).

The change goes through Panel's own path (``Reactive._process_events``, as a page's message
does) inside Bokeh's ``ProtocolHandler.handle`` (as the server handles the page's PATCH-DOC),
so both records the server logs are the real ones.
"""

from __future__ import annotations

import asyncio
import inspect
import logging

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.server.protocol_handler import ProtocolHandler
from panel.io.state import set_curdoc

from tb_playground.views.kit import refused_changes
from tb_playground.views.kit.refused_changes import BOKEH, PANEL, RefusedChanges


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class _Message:
    msgtype = "PATCH-DOC"


def _forge(select: pn.widgets.Select, doc: Document, value: str) -> None:
    """``value`` arrives for ``select`` as a page's change would, and is refused."""

    async def patch(message, connection):
        with set_curdoc(doc):
            select._process_events({"value": value})

    handler = ProtocolHandler()
    handler._handlers["PATCH-DOC"] = patch
    connection = type("Conn", (), {"error": lambda self, m, text: None})()
    asyncio.run(handler.handle(_Message(), connection))


@pytest.fixture(autouse=True)
def without_the_installed_filter():
    """A served page in another test of this process may have installed the filter: out here."""
    loggers = [logging.getLogger(PANEL[0]), logging.getLogger(BOKEH[0])]
    had = [refused_changes._FILTER in logger.filters for logger in loggers]
    for logger in loggers:
        logger.removeFilter(refused_changes._FILTER)
    yield
    for logger, was in zip(loggers, had, strict=True):
        if was:
            logger.addFilter(refused_changes._FILTER)


@pytest.fixture
def quiet():
    clock = _Clock()
    f = RefusedChanges(every=10.0, clock=clock)
    loggers = [logging.getLogger(PANEL[0]), logging.getLogger(BOKEH[0])]
    for logger in loggers:
        logger.addFilter(f)
    yield clock
    for logger in loggers:
        logger.removeFilter(f)


def _records(caplog):
    return [r for r in caplog.records if r.name in (PANEL[0], BOKEH[0])]


def test_without_the_filter_each_forged_value_logs_two_tracebacks(caplog):
    """What the filter is for: the libraries' own records (the test fails if they change)."""
    select = pn.widgets.Select(options=["a", "b"], label="Who gives chase")
    doc = Document()
    with caplog.at_level(logging.INFO):
        _forge(select, doc, "<forged>")
    got = _records(caplog)
    assert [r.levelno for r in got] == [logging.ERROR, logging.ERROR]
    assert all(r.exc_info for r in got)
    assert select.value == "a"  # refused: the page stays as the server has it


def test_forged_values_give_one_line_per_session_every_ten_seconds(caplog, quiet):
    select = pn.widgets.Select(options=["a", "b"], label="Who gives chase")
    one, two = Document(), Document()
    with caplog.at_level(logging.INFO):
        for _ in range(50):  # a page looping on a forged value
            _forge(select, one, "<forged>")
        _forge(select, two, "<other>")  # another page: its own line
        quiet.now = 11.0
        _forge(select, one, "<forged>")
    got = _records(caplog)
    assert len(got) == 3, [r.getMessage() for r in got]
    assert all(r.levelno == logging.WARNING and not r.exc_info and not r.exc_text for r in got)
    texts = [r.getMessage() for r in got]
    assert all("\n" not in t for t in texts)
    assert texts[0].startswith("a page sent a value its widget refused: ValueError")
    assert "Who gives chase" in texts[0] and "<forged>" in texts[0]
    assert "<other>" in texts[1]
    assert texts[2].endswith("(49 more like it left out)")  # the 49 after the first, in 10 s
    assert select.value == "a"


def test_other_errors_keep_their_traceback(caplog, quiet):
    logger = logging.getLogger(PANEL[0])
    with caplog.at_level(logging.INFO):
        try:
            raise RuntimeError("a bug in a watcher")
        except RuntimeError:
            logger.exception("Something else failed")
    (record,) = _records(caplog)
    assert record.levelno == logging.ERROR and record.exc_info


def test_the_filter_is_installed_once_and_reads_the_installed_libraries():
    import bokeh.server.protocol_handler as bokeh_handler
    import panel.reactive

    assert PANEL[1] in inspect.getsource(panel.reactive)  # the records it reads still exist
    assert BOKEH[1] in inspect.getsource(bokeh_handler)
    f = refused_changes.install()
    refused_changes.install()
    for name in (PANEL[0], BOKEH[0]):
        assert logging.getLogger(name).filters.count(f) == 1
