"""How fast open pages come back after the server was gone (issue 31, "Coming back").

The README's serve command runs in a subprocess over a table file; a GM page and three phone
pages (390 px) are open in Debian's Chromium. The server is killed (SIGKILL), stays down for
``--outage`` seconds (a laptop lid, a slow restart), and is started again on the same port and
file. For each page: the seconds from the restarted server answering HTTP to the page's
document being back (Bokeh's ``client_reconnected``, stamped in the page with the browser's
clock, read against the same clock). Target: <= 5 s for every page, whatever the outage.

Run: ``python benchmarks/bench_reconnect.py [--outage 20] [--phones 3]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.models import Encounter, load  # noqa: E402
from tb_playground.service import CombatService  # noqa: E402

KEY = "bench-key-of-sixteen"
ROSTER = ROOT / "examples" / "roster"
SEATS = ("ronan", "the-brick", "the-nerdy-hacker")
#: Stamps the moment the page's document is back (epoch ms, the browser's clock).
BACK = """() => { window.__back = null;
  Bokeh.documents[0].on_event("client_reconnected",
    () => { window.__back = performance.timeOrigin + performance.now() }) }"""


def _serve(port: int, db: Path) -> subprocess.Popen:
    env = {**os.environ, "TB_TABLE_DB": str(db), "TB_GM_KEY": KEY, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "gm.py"),
            str(ROOT / "apps" / "table.py"),
            "--setup", str(ROOT / "tb_playground" / "serve_setup.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _listening(port: int, timeout: float = 120.0) -> float:
    """Wait until the restarted server accepts connections; the epoch time it first did."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return time.time()
        except OSError:
            time.sleep(0.02)
    raise SystemExit(f"the server did not come back within {timeout} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, default=20.0, help="seconds the server is down")
    parser.add_argument("--phones", type=int, default=3, choices=range(1, 4))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp())
    db = tmp / "tables.sqlite"
    enc = Encounter(name="Reconnect")
    for name in ("ronan.json", "the_brick.json", "nerdy_hacker.yaml"):
        enc.add(load(ROSTER / name), "Party")
    enc.add(load(ROSTER / "guard_dog.yaml"), "Foes")
    service = CombatService(db, gm_key=KEY)
    code = service.create("Bench", enc).view_for("gm")["join_code"]
    service.close()
    service.store.close()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(port, db)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            wait_for_http(f"{base}/table", timeout=90)
            gm = browser.new_context().new_page()
            gm.goto(f"{base}/gm?key={KEY}&table=Bench")
            gm.locator(".gm-log").wait_for(timeout=60_000)
            pages = {"GM": gm}
            for seat in SEATS[: args.phones]:
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                page.goto(f"{base}/table?code={code}&seat={seat}")
                page.locator(".tp-header .counter").wait_for(timeout=30_000)
                pages[seat] = page
            for page in pages.values():
                page.evaluate(BACK)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            end = time.time() + args.outage
            while time.time() < end:  # the pages' own timers run meanwhile
                gm.wait_for_timeout(250)
            proc = _serve(port, db)
            up = _listening(port) * 1000
            back = {}
            for name, page in pages.items():
                page.wait_for_function("() => window.__back !== null", timeout=120_000)
                back[name] = (page.evaluate("() => window.__back") - up) / 1000
            browser.close()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
    print(f"outage {args.outage:.0f} s; seconds from the server answering to each page back:")
    for name, s in back.items():
        print(f"  {name:10s} {s:5.2f} s")
    worst = max(back.values())
    print(f"worst {worst:.2f} s (target <= 5 s): {'met' if worst <= 5 else 'MISSED'}")


if __name__ == "__main__":
    main()
