"""An installed wheel (not an editable install) has every page's data and serves the pages.

The pages are served by the installed command, ``tb-playground serve`` (issue 34), from a
folder outside the checkout, with ``panel serve``'s options passed through.

The wheel is built from this checkout and installed, without its dependencies, into a fresh
venv; the dependencies come from this test's own environment through a ``.pth`` file that adds
its site-packages as a plain path (so its editable ``tb_playground``, if any, is not imported).
Everything then runs in that venv from a temporary folder, with no ``PYTHONPATH``: the package
under test is the installed one (issue 22).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import venv
from pathlib import Path

import pytest
from serving import free_port

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[1]
KEY = "wheel-test-gm-key-long"

CHECK = """
import json
import sys
from importlib import resources
from pathlib import Path

import tb_playground
from tb_playground import rules_names, rules_text
from tb_playground.models.roster import encounter_files, example_roster, roster_dir
from tb_playground.service import CombatService

css = resources.files("tb_playground") / "views" / "css"

service = CombatService(path=Path("tables.sqlite"), gm_key="k")
print(json.dumps({
    "file": tb_playground.__file__,
    "roster_dir": str(roster_dir()),
    "encounters": sorted(encounter_files()),
    "service_encounters": sorted(service.encounter_files()),
    "service_creatures": sorted(service.creature_files()),
    "characters": [c.name for c in example_roster().characters],
    "roster_problem": example_roster().problem,
    "rules_names": rules_names(),
    "rules_000": rules_text("000")[:2000],
    "rules_md": rules_text()[:2000],
    "css": sorted(p.name for p in css.iterdir() if p.name.endswith(".css")),
    "panel": "panel" in sys.modules,
}))
"""


def _can_build_offline() -> bool:
    """Whether this environment's setuptools builds a wheel by itself (70.1+, or ``wheel``)."""
    return any(
        importlib.util.find_spec(name) is not None
        for name in ("setuptools.command.bdist_wheel", "wheel")
    )


def _site_dirs() -> list[str]:
    """The site-packages folders this test imports its dependencies from (not the checkout)."""
    dirs = []
    for entry in sys.path:
        path = Path(entry or ".").resolve()
        # A venv inside the checkout (.venv, as the README makes it) counts: only the folder's
        # own .pth files (the editable install's finder) are left unread, as a plain path.
        if path.name in ("site-packages", "dist-packages"):
            dirs.append(str(path))
    return dirs


#: What a build never reads: a checkout's own build folder holds the modules of earlier builds
#: (a module moved or renamed since would ship twice and its Bokeh models clash), the venv, caches.
NOT_SOURCES = shutil.ignore_patterns(
    "build", "dist", ".venv", ".git", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
)


def _build_wheel(out: Path) -> Path:
    """The wheel of the checkout's sources as they are now, built from a clean copy of them."""
    source = out / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)]
    if _can_build_offline():
        # The test extra installs a setuptools that builds wheels: no download needed.
        cmd.insert(4, "--no-build-isolation")
    subprocess.run(cmd, check=True, cwd=out, capture_output=True, timeout=180)
    (wheel,) = out.glob("tb_playground-*.whl")
    return wheel


@pytest.fixture(scope="module")
def installed():
    """The wheel installed in a fresh venv, serving its pages from a scratch folder.

    Yields (its python, its site-packages, the scratch folder, the environment, the server's
    address, the server); the server starts here so that it boots while the first test runs.
    """
    # Not pytest's tmp_path: its folders are rotated away by other pytest runs on the machine.
    with tempfile.TemporaryDirectory(prefix="tb-wheel-") as tmp:
        base = Path(tmp)
        wheel = _build_wheel(base)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        venv.EnvBuilder(with_pip=False).create(base / "venv")
        python = base / "venv" / "bin" / "python"
        site = Path(
            subprocess.run(
                [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                check=True, capture_output=True, text=True, env=env,
            ).stdout.strip()
        )  # fmt: skip
        subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
             "--no-index", "-q", str(wheel)],
            check=True, capture_output=True, timeout=120, env=env,
        )  # fmt: skip
        assert (site / "tb_playground" / "__init__.py").is_file()
        # Then the dependencies: this environment's site-packages as plain paths, after the
        # venv's own (no .pth file of theirs is run, so an editable tb_playground stays out).
        (site / "deps.pth").write_text("".join(f"{p}\n" for p in _site_dirs()))
        work = base / "work"
        work.mkdir()
        env.update(TB_TABLE_DB=str(work / "tables.sqlite"), TB_GM_KEY=KEY, PYTHONNOUSERSITE="1")
        port = free_port()
        # The installed command, as a user types it; a session of a plain GET lives a minute
        # here (the setup's 5 s, overridden on the command line: the options pass through).
        server = subprocess.Popen(
            [base / "venv" / "bin" / "tb-playground", "serve", "--port", str(port),
             "--address", "127.0.0.1", "--allow-websocket-origin", f"127.0.0.1:{port}",
             "--unused-session-lifetime", "60000"],
            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            yield python, site, work, env, f"127.0.0.1:{port}", server
        finally:
            server.kill()  # a throwaway server: no need for its orderly shutdown
            server.wait(timeout=30)


def test_the_installed_package_has_its_data(installed):
    python, site, work, env, _address, _server = installed
    out = subprocess.run(
        [python, "-c", CHECK], cwd=work, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    # The installed copy, not the checkout.
    assert Path(found["file"]).is_relative_to(site), found["file"]
    assert Path(found["roster_dir"]) == site / "tb_playground" / "roster"
    # /gm's encounter list and roster, /character's roster picker.
    assert "warehouse" in found["encounters"]
    assert found["service_encounters"] == found["encounters"]
    assert {"ronan.json", "the_brick.json", "guard_dog.yaml"} <= set(found["service_creatures"])
    assert {"Ronan", "The Brick"} <= set(found["characters"]), found["roster_problem"]
    # /rules' texts.
    assert found["rules_names"][0] == "RULES.md"
    assert [n[:3] for n in found["rules_names"][1:]] == ["000", "001", "002", "003", "004"]
    assert found["rules_000"].strip() and found["rules_md"].strip()
    # The pages' stylesheets.
    shipped = sorted(p.name for p in (ROOT / "tb_playground" / "views" / "css").glob("*.css"))
    assert found["css"] == shipped
    assert not found["panel"]  # (the check stays quick: the Panel pages are served below)


def _get(url: str, server: subprocess.Popen, timeout: float = 60.0) -> str:
    """The page at ``url`` (HTTP 200), once the server answers."""
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            pytest.fail(f"tb-playground serve stopped: {server.stdout.read()}")
        try:
            with urllib.request.urlopen(url, timeout=max(deadline - time.monotonic(), 1)) as r:
                assert r.status == 200
                return r.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _document_text(url: str, html: str) -> str:
    """Every property value of the page's document, as the browser that got ``html`` sees it.

    The client joins the session the HTML request made (its token is in the page), so the page
    is built once.
    """
    import panel.models.tabulator  # noqa: F401 - the sheet's tables, known to the client
    from bokeh.client import pull_session
    from bokeh.util.token import get_session_id

    import tb_playground.views.combat.gm_key_gate  # noqa: F401 - the GM key's cookie (issue 33)
    import tb_playground.views.combat.seat_session  # noqa: F401 - the phone's seat token
    import tb_playground.views.kit  # noqa: F401 - the pages' own models (the upload box)

    token = re.search(r'"token":"([^"]+)"', html).group(1)
    with pull_session(url=url.split("?")[0], session_id=get_session_id(token)) as session:
        values = [m.properties_with_values(include_defaults=False) for m in session.document.models]
        return " ".join(str(v) for props in values for v in props.values())


@pytest.mark.own_thread
def test_the_installed_package_serves_its_pages(installed):
    _python, _site, _work, _env, address, server = installed
    pages = {
        name: (url, _get(url, server))
        for name, url in [
            ("gm", f"http://{address}/gm?key={KEY}"),
            ("character", f"http://{address}/character"),
            ("rules", f"http://{address}/rules"),
            ("index", f"http://{address}/"),
            ("odds", f"http://{address}/odds"),
            ("table", f"http://{address}/table"),
        ]
    }
    # The site's pages have their title in the HTML; the GM page sets it once loaded.
    assert "20 Below: Character sheet" in pages["character"][1]
    assert "20 Below: Rules" in pages["rules"][1]
    # What a browser's session receives: /gm offers the warehouse encounter and the roster...
    gm = _document_text(*pages["gm"])
    assert "GM dashboard" in gm
    gm_words = gm.lower()  # the roster picker shows the sheets' names (issue 31), not files
    assert "warehouse" in gm_words and "guard dog" in gm_words
    # ...the sheet its roster picker...
    character = _document_text(*pages["character"])
    assert "Start from the example roster" in character
    assert "Ronan" in character and "The Brick" in character
    # ...and /rules the digest and every source text.
    rules = _document_text(*pages["rules"])
    assert all(f"rules/00{n}" in rules for n in range(5))
    # Every other page too, the landing page at / linking them all.
    assert "Roll-under playground" in _document_text(*pages["odds"])
    assert "At the table" in _document_text(*pages["table"])
    index = _document_text(*pages["index"])
    assert all(f"./{name}" in index for name in ("odds", "gm", "table", "encounter", "lab"))


def test_the_command_says_how_to_use_it(installed):
    python, _site, work, env, _address, _server = installed
    out = subprocess.run(
        [python, "-m", "tb_playground", "--help"],
        cwd=work, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "tb-playground serve" in out.stdout and "--allow-websocket-origin" in out.stdout
