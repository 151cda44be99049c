"""Shared fixtures: Debian's Chromium for Playwright, and Panel apps served in-process."""

from __future__ import annotations

import os
import shutil
import socket
import time
import urllib.request

import pytest
from hypothesis import settings
from playwright.sync_api import expect

# Property tests check what is true, not how fast: no per-example deadline (a busy machine or
# the other xdist worker would make one fail now and then). Speed lives in benchmarks/.
settings.register_profile("tb", deadline=None)
settings.load_profile("tb")

# One wait for every browser test's ``expect`` (Playwright's default is 5 s): a page built on a
# busy 2-core machine takes longer. It was set by five test modules at import, so the wait a
# test got depended on which modules were collected with it (note 0021).
expect.set_options(timeout=20_000)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_xdist_make_scheduler(config, log):
    """Keep every browser test on one xdist worker (one Chromium, one page load at a time).

    With ``-n auto`` (pyproject.toml) the other worker runs the engine, property and notebook
    tests beside them, so the suite takes about as long as the larger of the two halves. The
    browser tests are the ``tests/*_ui.py`` files (``pytest_collection_modifyitems`` holds every
    ``ui`` test to that). xdist's own ``--dist loadgroup`` does not group under pytest 9 (the
    nodeid it rewrites is no longer the one reported), hence this scheduler.
    """
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.split("::", 1)[0].endswith("_ui.py") else nodeid

    return BrowserTestsTogether(config, log)


def pytest_collection_modifyitems(config, items):
    """Every browser test lives in a ``tests/*_ui.py`` file (the scheduler above relies on it)."""
    for item in items:
        if item.get_closest_marker("ui") and not item.nodeid.split("::")[0].endswith("_ui.py"):
            raise pytest.UsageError(f"{item.nodeid}: browser tests go in tests/*_ui.py files")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Drive Debian's Chromium (never a downloaded browser); fail loudly if it is missing."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it (apt-get install -y chromium) or set "
            "CHROMIUM_PATH. Browser tests are never skipped."
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, timeout: float = 30.0) -> None:
    """Block until ``url`` answers HTTP 200, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            # Wait for the one request to finish: a page can take seconds to build on a busy
            # machine, and a short timeout would only start another session behind it.
            left = max(deadline - time.monotonic(), 1.0)
            with urllib.request.urlopen(url, timeout=left) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{url} did not answer within {timeout} s")
        time.sleep(0.2)


@pytest.fixture
def serve():
    """Serve a Panel app factory in this process; returns its URL. Stopped at teardown.

    ``serve(factory, path="app", **settings)``: ``settings`` go to the Bokeh server.
    """
    import panel as pn

    from tb_playground import patches

    patches.install()  # the fixes under served pages, as the server's setup installs them
    servers = []

    def _serve(factory, path: str = "app", **settings) -> str:
        port = free_port()
        server = pn.serve(
            {path: factory},
            port=port,
            address="127.0.0.1",
            threaded=True,
            show=False,
            websocket_origin=[f"127.0.0.1:{port}"],
            **settings,
        )
        servers.append(server)
        url = f"http://127.0.0.1:{port}/{path}"
        wait_for_http(url)
        return url

    yield _serve
    for server in servers:
        server.stop()


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
    """Close the browser contexts a test opened (a test that closed one: no harm)."""
    yield
    while _CONTEXTS:
        try:
            _CONTEXTS.pop().close()
        except Exception:  # noqa: BLE001 - already closed, or its browser is gone
            pass


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
