"""Issue 21, "nothing blocks the event loop": other sessions' latency under bad loads.

``watch``: a ``CombatService`` here with a page's session subscribed and a child process
applying commands to the same file: how long until the page hears of each (the service's
watcher, every ``WATCH_EVERY`` s; target <= 200 ms), and the watcher's idle CPU with 0 and with
10 watched tables.

``pages``: the README's serve command (``--setup tb_playground/serve_setup.py``) in a
subprocess; /odds's slider -> numbers latency in Chromium (timed inside the page, as
``bench_browser_latency.py``) while (1) nothing else happens, (2) another connection holds the
file's write lock and a GM page sends a note every second, (3) a page picks a 50 MB file every
second (refused), (4) four clients loop plain GETs of /odds. Target: p95 <= 250 ms each.

``builds`` (issue 33, item 9): the same server; another person (a browser keeping its cookie)
opens /odds once a second while four clients loop plain GETs of /odds; the time of each of the
person's page loads (the page's build). Target: p95 <= 250 ms.

``locked`` (issue 33, item 3): the same server; another connection holds the file's lock
(``BEGIN EXCLUSIVE``) for 20 s; a phone opens its join link, and a static file is asked for
meanwhile: how long each answer takes (target: the page within 2 s).

Run: ``python benchmarks/bench_loads.py [watch] [pages] [builds] [locked] [--moves 30]``.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "table"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_browser_latency import DONE, INSTALL, LATENCY, p95  # noqa: E402
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402
from table_helpers import encounter, roster, soak7  # noqa: E402
from test_table_processes import Child  # noqa: E402

from tb_playground.service import CombatService  # noqa: E402
from tb_playground.views.combat.combat_session import TableSession  # noqa: E402

KEY = "bench-gm-key-of-16-chars"


def watch(commands: int = 40) -> None:
    """Another process's command -> this process's page, through the watcher."""
    with tempfile.TemporaryDirectory() as tmp:
        service = CombatService(Path(tmp) / "tables.sqlite", gm_key=KEY)
        table = service.create("T", encounter(roster("ronan.json"), foes=[soak7()]))
        heard: list[tuple[int, float]] = []
        page = TableSession(table, "gm", None, lambda: heard.append((table.version, time.time())))
        child = Child(service.store.path)
        delays = []
        for i in range(commands):
            said = child.ask(op="apply", command={"type": "note", "text": f"n {i}"})
            while not heard or heard[-1][0] < said["version"]:
                time.sleep(0.002)
            delays.append(1000 * (heard[-1][1] - said["time"]))
            time.sleep(0.05 + (i % 7) * 0.013)  # not in step with the watcher's period
        child.close()
        page.close()
        print(f"watch: another process's command -> this process's page, {commands} commands")
        print(f"  median {statistics.median(delays):6.1f} ms   p95 {p95(delays):6.1f} ms   "
              f"max {max(delays):6.1f} ms   (target <= 200 ms)")  # fmt: skip

        def cpu(seconds: float = 10.0) -> float:
            start, wall = time.process_time(), time.monotonic()
            time.sleep(seconds)
            return 100 * (time.process_time() - start) / (time.monotonic() - wall)

        print(f"  idle CPU of this process, no table watched:  {cpu():5.2f} %")
        pages = []
        for n in range(10):
            other = service.create(f"W{n}", encounter(roster("ronan.json")))
            pages.append(TableSession(other, "gm", None, lambda: None))
        print(f"  idle CPU of this process, 10 tables watched: {cpu():5.2f} %")
        for p in pages:
            p.close()
        service.close()
        service.store.close()


def _serve(port: int, db: Path) -> subprocess.Popen:
    env = {**os.environ, "TB_TABLE_DB": str(db), "TB_GM_KEY": KEY, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve",
            str(ROOT / "apps" / "odds.py"), str(ROOT / "apps" / "gm.py"),
            str(ROOT / "apps" / "character.py"), str(ROOT / "apps" / "table.py"),
            "--setup", str(ROOT / "tb_playground" / "serve_setup.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}",
        ],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


#: In the GM page: send a note every second (each waits for the locked file, off the loop).
GM_NOTES = """() => {
  function find(root, sel) {
    const f = root.querySelector(sel); if (f) return f;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const g = find(n.shadowRoot, sel); if (g) return g; }
    }
    return null;
  }
  window.__notes = setInterval(() => {
    const box = find(document, '.gm-note');
    const input = box && (box.shadowRoot || box).querySelector('input');
    if (input) {  // the box is emptied after each note: a new one each time
      input.value = 'a note while the file is locked';
      input.dispatchEvent(new Event('change'));
    }
    const host = find(document, '.gm-note-go');
    const b = host && (host.shadowRoot || host).querySelector('button');
    if (b) b.click();
  }, 1000);
  return true;
}"""

#: In the character page: pick a 50 MB file every second (the page refuses it unread).
BIG_UPLOADS = """() => {
  function find(root, sel) {
    const f = root.querySelector(sel); if (f) return f;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const g = find(n.shadowRoot, sel); if (g) return g; }
    }
    return null;
  }
  const big = new File([new Uint8Array(50 * 1000 * 1000)], "huge.yaml");
  window.__uploads = setInterval(() => {
    const input = find(document, 'input[type=file]');
    if (!input) return;
    const dt = new DataTransfer(); dt.items.add(big);
    input.files = dt.files; input.dispatchEvent(new Event('change'));
  }, 1000);
  return true;
}"""


def _report(name: str, values: list[float]) -> None:
    med, top = statistics.median(values), max(values)
    print(f"  {name:26s} median {med:7.1f} ms   p95 {p95(values):7.1f} ms   max {top:7.1f} ms",
          flush=True)  # fmt: skip


def _slider(page, moves: int, pause: float) -> list[float]:
    page.wait_for_function(INSTALL, arg=[".pct", False], timeout=30_000)
    handles = [page.locator(".noUi-handle").nth(i) for i in (0, 1)]
    out = []
    for i in range(moves + 2):
        handles[(i // 2) % 2].press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
        page.wait_for_function(DONE, timeout=60_000)
        out.append(page.evaluate(LATENCY))
        time.sleep(pause)
    return out[2:]


def pages(moves: int, pause: float) -> None:
    """The /odds slider's p95 under each load."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tables.sqlite"
        service = CombatService(db, gm_key=KEY)
        service.create("Loads", encounter(roster("ronan.json"), foes=[soak7()]))
        service.close()
        service.store.close()
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = _serve(port, db)
        try:
            wait_for_http(f"{base}/odds", timeout=120)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                odds = browser.new_context().new_page()
                odds.goto(f"{base}/odds")
                odds.locator(".odds-headline .pct").first.wait_for(timeout=60_000)
                print(f"pages: /odds slider -> numbers, {moves} moves {pause} s apart "
                      "(p95 target 250 ms)", flush=True)  # fmt: skip
                _report("quiet", _slider(odds, moves, pause))

                gm = browser.new_context().new_page()
                gm.goto(f"{base}/gm?key={KEY}&table=Loads")
                gm.locator(".gm-log").first.wait_for(timeout=60_000)
                gm.locator(".gm-note input").first.fill("a note while the file is locked")
                locker = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
                locker.execute("BEGIN IMMEDIATE")
                gm.evaluate(GM_NOTES)
                time.sleep(1.5)
                try:
                    _report("write lock held elsewhere", _slider(odds, moves, pause))
                    err = gm.locator(".gm-message .err", has_text="locked").first
                    err.wait_for(timeout=15_000)
                    print("  the GM page said, the file locked:", err.inner_text().strip()[:200])
                finally:
                    gm.evaluate("() => clearInterval(window.__notes)")
                    locker.execute("ROLLBACK")
                    locker.close()

                uploader = browser.new_context().new_page()
                uploader.goto(f"{base}/character")
                uploader.locator(".upload").first.wait_for(timeout=60_000)
                uploader.evaluate(BIG_UPLOADS)
                time.sleep(1.5)
                _report("50 MB uploads refused", _slider(odds, moves, pause))
                uploader.evaluate("() => clearInterval(window.__uploads)")

                stop = threading.Event()
                gets = [0, 0]

                threads = [
                    threading.Thread(target=_get_loop, args=(f"{base}/odds", stop, gets, 30),
                                     daemon=True)
                    for _ in range(4)
                ]  # fmt: skip
                began = time.monotonic()
                for t in threads:
                    t.start()
                # The loops first spend the address's burst (``guard.PAGE_BURST`` pages at once,
                # 2-3 s of the loop); measured from the first refusal on: the steady state.
                while not gets[1] and time.monotonic() - began < 60:
                    time.sleep(0.05)
                time.sleep(1)
                _report("4 clients looping GETs", _slider(odds, moves, pause))
                stop.set()
                rate = [n / (time.monotonic() - began) for n in gets]
                for t in threads:
                    t.join(timeout=60)
                browser.close()
        finally:
            proc.kill()
            proc.wait()
        print(f"  (GET loops: {rate[0]:.1f} pages/s served, {rate[1]:.1f}/s refused with 429)")


def _get_loop(url: str, stop, gets: list, timeout: float) -> None:
    """Plain GETs of ``url`` until ``stop``: ``gets`` counts the answered and the 429s."""
    while not stop.is_set():
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                r.read()
            gets[0] += 1
        except urllib.error.HTTPError as refused:
            gets[1] += refused.code == 429
        except OSError:
            pass


def _timed_get(opener, url: str) -> float:
    began = time.monotonic()
    with opener.open(url, timeout=60) as answer:
        answer.read()
    return 1000 * (time.monotonic() - began)


def _started(db: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(port, db)
    wait_for_http(f"{base}/odds", timeout=120)
    return proc, base


def builds(samples: int = 30) -> None:
    """Another person's /odds page loads while four clients loop plain GETs of /odds."""
    import http.cookiejar

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = _started(Path(tmp) / "tables.sqlite")
        try:
            person = urllib.request.build_opener(
                urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
            )
            quiet = [_timed_get(person, f"{base}/odds") for _ in range(10)]
            stop, gets = threading.Event(), [0, 0]

            threads = [
                threading.Thread(target=_get_loop, args=(f"{base}/odds", stop, gets, 60),
                                 daemon=True)
                for _ in range(4)
            ]  # fmt: skip
            for t in threads:
                t.start()
            began = time.monotonic()
            during = []  # while the loops spend their address's burst (PAGE_BURST pages)
            while gets[0] < 40 and time.monotonic() - began < 300:
                during.append(_timed_get(person, f"{base}/odds"))
                time.sleep(1.0)
            loaded = []  # then: the steady state
            for _ in range(samples):
                loaded.append(_timed_get(person, f"{base}/odds"))
                time.sleep(1.0)
            stop.set()
            rate = [n / (time.monotonic() - began) for n in gets]
        finally:
            proc.kill()
            proc.wait()
        print(f"builds: another person's /odds page loads, {samples} (p95 target 250 ms)")
        _report("quiet", quiet)
        _report("4 loops, their burst", during)
        _report("4 loops, steady", loaded)
        print(f"  (GET loops: {rate[0]:.2f} pages/s served, {rate[1]:.2f}/s refused with 429)")


def locked(hold: float = 20.0) -> None:
    """A join link and a static file while another program holds the file's lock."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tables.sqlite"
        service = CombatService(db, gm_key=KEY)
        code = service.create("Locked", encounter(roster("ronan.json"))).state["join_code"]
        service.close()
        service.store.close()
        proc, base = _started(db)
        opener = urllib.request.build_opener()
        try:
            _timed_get(opener, f"{base}/table")
            other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
            other.execute("BEGIN EXCLUSIVE")
            began = time.monotonic()
            page = _timed_get(opener, f"{base}/table?code={code}&seat=ronan")
            static = []
            while time.monotonic() - began < hold:
                static.append(_timed_get(opener, f"{base}/static/js/bokeh.min.js"))
                time.sleep(0.25)
            other.execute("ROLLBACK")
            other.close()
        finally:
            proc.kill()
            proc.wait()
        print(f"locked: the file's lock held elsewhere for {hold:.0f} s")
        print(f"  the join link's page answered in {page:7.1f} ms")
        _report("static file", static)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", nargs="*", choices=["watch", "pages", "builds", "locked"],
        default=["watch", "pages"],
    )  # fmt: skip
    parser.add_argument("--moves", type=int, default=30, help="slider moves per load (30)")
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between moves (0.3)")
    args = parser.parse_args()
    if "watch" in args.what:
        watch()
    if "pages" in args.what:
        pages(args.moves, args.pause)
    if "builds" in args.what:
        builds()
    if "locked" in args.what:
        locked()


if __name__ == "__main__":
    main()
