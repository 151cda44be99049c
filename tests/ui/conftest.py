"""The browser tests' fixtures: Debian's Chromium through Playwright, errors in the report."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect
from serving import CHROMIUM, CHROMIUM_ARGS

# One wait for every browser test's ``expect`` (Playwright's default is 5 s): a page built on a
# busy 2-core machine takes longer. It was set by five test modules at import, so the wait a
# test got depended on which modules were collected with it (note 0021).
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Drive Debian's Chromium (never a downloaded browser); fail loudly if it is missing."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it (apt-get install -y chromium) or set "
            "CHROMIUM_PATH. Browser tests are never skipped."
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


#: What the browsers of the running test printed as errors (console and uncaught), in order.
_BROWSER_ERRORS: list[str] = []

#: The browser contexts the running test opened (closed when it ends).
_CONTEXTS: list = []


@pytest.fixture(scope="session")
def browser(browser):
    """Playwright's browser; each new context reports its pages' errors and closes with its test.

    A page that silently stops updating may be a patch its BokehJS refused: the error is only
    in the browser's console, so ``pytest_runtest_makereport`` attaches them on failure. A
    context left open keeps its pages retrying a stopped server through the later tests.
    """
    new_context = browser.new_context

    def new_context_reporting(*args, **kwargs):
        context = new_context(*args, **kwargs)

        def console(msg):
            if msg.type == "error":
                _BROWSER_ERRORS.append(f"{msg.text} ({msg.page and msg.page.url})")

        context.on("console", console)
        context.on("weberror", lambda err: _BROWSER_ERRORS.append(f"uncaught: {err.error}"))
        _CONTEXTS.append(context)
        return context

    browser.new_context = new_context_reporting
    return browser


@pytest.fixture(autouse=True)
def _close_browser_contexts():
    """Close the browser contexts a test opened (a test that closed one: no harm).

    Then forget the busy indicators of the pages the test opened: a server a test stops does
    not end its sessions, and Panel would go on setting their indicators on every click of a
    later test's page ("Event loop is closed"; ``patches.forget_busy_indicator``).
    """
    yield
    while _CONTEXTS:
        try:
            _CONTEXTS.pop().close()
        except Exception:  # noqa: BLE001 - already closed, or its browser is gone
            pass
    import panel as pn

    from tb_playground.views.kit import patches

    for indicator in list(getattr(pn.state, "_indicators", [])):
        patches.forget_busy_indicator(indicator)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Attach the browser errors of a failed test to its report."""
    report = yield
    if call.when == "setup":
        _BROWSER_ERRORS.clear()
    if report.failed and _BROWSER_ERRORS:
        report.sections.append(("browser errors", "\n".join(_BROWSER_ERRORS[-50:])))
    if call.when == "teardown":
        _BROWSER_ERRORS.clear()
    return report
