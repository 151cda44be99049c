"""The suite's switches and shared fixtures.

Plain ``pytest`` is the fast loop: the engine, models, table, views and lab in this process,
no browser, no notebook kernel, no other process. The rest is opt-in, and deselected (not
skipped) without its flag; the README's test command turns every one on (``--all``):

- ``--ui``: browser tests (``tests/ui/``, Debian's Chromium through Playwright; Playwright's
  pytest plugin is blocked in pyproject.toml and loaded by ``-p playwright``);
- ``--notebooks``: the lessons in ``examples/`` run by a kernel;
- ``--servers``: tests that start other processes (servers, killed writers, a wheel build) or
  a server in this one;
- ``--slow``: the long property and random-game tests (the fast loop keeps a short case of each).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings
from slow_tests import SLOW as SLOW_TESTS

#: The folders of the tests, one per package (``tests/table/`` tests ``tb_playground/table/``):
#: a test module imports another's helpers by its name, whichever folder holds it.
FOLDERS = ("engine", "models", "table", "lab", "views", "service", "ui")
for _folder in FOLDERS:
    sys.path.insert(0, str(Path(__file__).parent / _folder))

# Property tests check what is true, not how fast: no per-example deadline (a busy machine or
# the other xdist worker would make one fail now and then). Speed lives in benchmarks/.
settings.register_profile("tb", deadline=None)
settings.load_profile("tb")

#: The long tests (``--slow``): ids, names without parameters, or whole files.
SLOW = frozenset(SLOW_TESTS)

#: Each opt-in marker and the flag that turns it on.
OPT_IN = {"ui": "--ui", "notebook": "--notebooks", "server": "--servers", "slow": "--slow"}


def pytest_addoption(parser):
    group = parser.getgroup("tb_playground", "tb_playground's opt-in tests")
    group.addoption("--ui", action="store_true", help="also run the browser tests (tests/ui/)")
    group.addoption("--notebooks", action="store_true", help="also run the lessons' notebooks")
    group.addoption(
        "--servers", action="store_true", help="also run tests that start servers or processes"
    )
    group.addoption("--slow", action="store_true", help="also run the long property tests")
    group.addoption("--all", action="store_true", help="every test (the README's command, CI)")


def _turned_on(config) -> set[str]:
    every = config.getoption("--all")
    return {marker for marker, flag in OPT_IN.items() if every or config.getoption(flag)}


def pytest_configure(config):
    if "ui" in _turned_on(config) and not config.pluginmanager.has_plugin("playwright"):
        raise pytest.UsageError(
            "browser tests need Playwright's pytest plugin, blocked by default: add -p playwright"
        )


#: Files not even imported without their flag (each imports what the fast loop never needs:
#: Playwright, a notebook kernel's client).
OPT_IN_FILES = {"ui": ("ui",), "notebook": ("test_notebooks.py", "test_character_notebook.py")}


def pytest_ignore_collect(collection_path, config):
    """Leave the browser tests' folder and the notebook tests unread when they are off."""
    on = _turned_on(config)
    here = collection_path.relative_to(config.rootpath).parts
    if len(here) == 2 and here[0] == "tests":
        for marker, names in OPT_IN_FILES.items():
            if marker not in on and here[1] in names:
                return True
    return None


def pytest_xdist_make_scheduler(config, log):
    """Keep every browser test on one xdist worker (one Chromium, one page load at a time).

    With ``-n auto`` (pyproject.toml) the other worker runs the engine, property, notebook and
    server tests beside them, so the suite takes about as long as the larger of the two
    halves. Letting the JupyterLab and ``panel serve`` tests run on the other worker made the
    whole run slower (1,128 s against about 850 s: two browsers and their servers on 2 cores;
    note 0023); so did two browser streams on three workers (1,082 s, each browser test about
    1.6 times as long, and load-sensitive tests failing: note 0024). xdist's own
    ``--dist loadgroup`` does not group under pytest 9 (the nodeid it rewrites is no longer the
    one reported), hence this scheduler.
    """
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.startswith("tests/ui/") else nodeid

    return BrowserTestsTogether(config, log)


def pytest_collection_modifyitems(config, items):
    """Deselect the opt-in tests not turned on; browser tests live in ``tests/ui/``.

    The long tests are listed in ``slow_tests.py``.
    """
    on = _turned_on(config)
    keep, drop = [], []
    for item in items:
        in_ui = item.nodeid.startswith("tests/ui/")
        if in_ui:
            item.add_marker(pytest.mark.ui)
        elif item.get_closest_marker("ui"):
            raise pytest.UsageError(f"{item.nodeid}: browser tests go in tests/ui/")
        if "serve" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.server)  # a server in this process
        path, _, rest = item.nodeid.partition("::")
        test_id = path.rsplit("/", 1)[-1] + (f"::{rest}" if rest else "")  # file names are unique
        if {test_id, test_id.split("[")[0], test_id.split("::")[0]} & SLOW:
            item.add_marker(pytest.mark.slow)
        wanted = {m.name for m in item.iter_markers()} & OPT_IN.keys()
        (drop if wanted - on else keep).append(item)
        part = next((marker for marker in OPT_IN if marker in wanted), "fast")
        item.user_properties.append(("part", part))  # for the time by part at the end
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run a test marked ``own_thread`` on a thread of its own.

    Such a test runs an event loop (``asyncio.run``, Bokeh's client, a notebook kernel's
    client); on an xdist worker that ran browser tests, Playwright's loop runs on the main
    thread for the rest of the session and would refuse a second one there.
    """
    if pyfuncitem.get_closest_marker("own_thread") is None:
        return None
    import threading

    kwargs = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    failed: list[BaseException] = []

    def run() -> None:
        try:
            pyfuncitem.obj(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run, name=f"test {pyfuncitem.name}")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return True


@pytest.fixture
def serve():
    """Serve a Panel app factory in this process; returns its URL. Stopped at teardown.

    ``serve(factory, path="app", **settings)``: ``settings`` go to the Bokeh server. The fixes
    under served pages are installed first, as the server's setup installs them.
    """
    import panel as pn
    from serving import free_port, wait_for_http

    from tb_playground.views.kit import patches

    patches.install()
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
    # A stopped server does not end its sessions; Panel would go on setting their pages' busy
    # indicators on every later click in this process ("Event loop is closed", note 0023).
    for indicator in list(getattr(pn.state, "_indicators", [])):
        patches.forget_busy_indicator(indicator)


#: Seconds of test time (setup, call and teardown, every worker) per part of the suite.
_PART_TIME: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """Count each test's time under its part: the first opt-in marker it has, else "fast"."""
    part = dict(getattr(report, "user_properties", ()) or ()).get("part", "fast")
    _PART_TIME[part] = _PART_TIME.get(part, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter):
    """One line: what each part of the suite cost (note 0023 quotes it)."""
    if _PART_TIME:
        parts = ", ".join(f"{part} {seconds:.0f} s" for part, seconds in _PART_TIME.items())
        terminalreporter.write_line(f"test time by part (all workers): {parts}")
