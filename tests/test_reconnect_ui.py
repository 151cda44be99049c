"""A server killed and restarted: open pages say so and come back by themselves (issue 21).

The README's command (``panel serve apps/*.py --index index --setup tb_playground/serve_setup.py``)
runs in a subprocess over a table file; a GM page and a player page that joined by typing the
code are open. The server is killed (SIGKILL) and started again on the same port and file: each
page shows "Connection lost, reconnecting...", then reconnects and shows the same event, without
a reload (a marker set in the page's window survives). Also: an upload over the limit is refused
in the browser with its size named, and nothing is sent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import free_port, wait_for_http
from playwright.sync_api import expect

from tb_playground.models import Encounter, load
from tb_playground.service import CombatService
from tb_playground.views.kit import DISCONNECTED, MAX_UPLOAD

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[1]
ROSTER = ROOT / "examples" / "roster"
KEY = "test-gm-key-7-of-16"


def _fight() -> Encounter:
    enc = Encounter(name="Reconnect")
    enc.add(load(ROSTER / "ronan.json"), "Party")
    enc.add(load(ROSTER / "guard_dog.yaml"), "Foes")
    return enc


def _serve(port: int, db: Path, log: Path | None = None) -> subprocess.Popen:
    """The README's serve command over ``db``, on ``port`` (its output in ``log``)."""
    env = {**os.environ, "TB_TABLE_DB": str(db), "TB_GM_KEY": KEY, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve",
            *sorted(str(p) for p in (ROOT / "apps").glob("*.py")),
            "--index", "index", "--setup", str(ROOT / "tb_playground" / "serve_setup.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        cwd=ROOT, env=env, stdout=log.open("ab") if log else subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def test_a_restarted_server_brings_open_pages_back_without_a_reload(tmp_path, browser):
    db = tmp_path / "tables.sqlite"
    service = CombatService(db, gm_key=KEY)
    table = service.create("Restart", _fight())
    table.apply({"type": "note", "text": "before the crash"})
    code = table.view_for("gm")["join_code"]
    service.close()
    service.store.close()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    proc = _serve(port, db, log)
    gm, player = browser.new_context().new_page(), browser.new_context().new_page()
    try:
        wait_for_http(f"{base}/table", timeout=90)
        gm.goto(f"{base}/gm?key={KEY}")
        gm.locator(".gm-open button").click()  # the only table: opened from the chooser
        expect(gm.locator(".gm-log")).to_contain_text("before the crash")
        player.goto(f"{base}/table")  # joined by typing the code: not in the first address
        player.locator(".tp-code input").fill(code)
        player.locator(".tp-find button").click()
        player.locator(".tp-join button").click()
        expect(player.locator(".tp-log")).to_contain_text("before the crash")
        for page in (gm, player):
            page.evaluate("() => { window.__same_page = true }")
        counter = gm.locator(".gm-header .counter").inner_text()

        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        for page in (gm, player):
            expect(page.locator(".notyf__message").first).to_contain_text(
                DISCONNECTED, timeout=15_000
            )
        # Another process adds an event while the server is down: the pages show it after.
        again = CombatService(db, gm_key=KEY)
        again.open("Restart").apply({"type": "note", "text": "while it was down"})
        again.close()
        again.store.close()

        proc = _serve(port, db, log)
        wait_for_http(f"{base}/table", timeout=90)
        for page, log_css in ((gm, ".gm-log"), (player, ".tp-log")):
            expect(page.locator(log_css)).to_contain_text("while it was down", timeout=40_000)
            assert page.evaluate("() => window.__same_page === true"), "the page was reloaded"
        expect(player.locator(".tp-header .counter")).not_to_have_text(counter)
        said = log.read_text(errors="replace")  # the setup's settings, as the server logs them
        assert "Unused sessions last for 5000 milliseconds" in said
        assert "websocket_max_message_size set to 4194304 bytes" in said
        expect(gm.locator(".gm-header .counter")).to_have_text(
            player.locator(".tp-header .counter").inner_text()
        )
    except AssertionError:
        print(log.read_text()[-6000:])
        raise
    finally:
        _stop(proc)


def test_an_upload_over_the_limit_is_refused_with_its_size(tmp_path, browser):
    db = tmp_path / "tables.sqlite"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(port, db)
    big = tmp_path / "huge.yaml"
    big.write_bytes(b"#" * (3 * MAX_UPLOAD + 123))
    page = browser.new_context().new_page()
    frames: list = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    try:
        wait_for_http(f"{base}/character", timeout=90)
        page.goto(f"{base}/character")
        expect(page.get_by_text("Files up to 1 MB.")).to_be_visible(timeout=30_000)
        sent = sum(len(f) for f in frames)
        page.locator(".upload input[type=file]").set_input_files(str(big))
        expect(page.get_by_text("huge.yaml is 3 MB: files up to 1 MB are taken.")).to_be_visible()
        page.wait_for_timeout(500)
        assert sum(len(f) for f in frames) - sent < 10_000  # its content never left the page
        assert proc.poll() is None
    finally:
        _stop(proc)
