"""Combat pages under load (issue 9, section 3): fan-out latency and memory per session.

1. ``pages``: a GM action to visible on 8 player pages in Debian's Chromium. The server is
   ``panel serve`` in its own process, as the README serves (``serve``), with
   ``benchmarks/fanout.py`` next to the pages for the server's own clock. The GM page and eight
   /table pages (eight browser contexts, phone-sized) share one Chromium. Each GM click on
   "Share foes' numbers" stamps ``performance.timeOrigin + performance.now()`` in the GM page
   (a capture-phase click listener); a MutationObserver on each player page's header stamps
   the moment its "round N · event M" changes. One clock (epoch ms) for the browser and the
   server: latency = page stamp - GM stamp, split into the click reaching the server, the
   server's fan-out (that message to each page's update written) and the update reaching the
   page. Also the CPU time of the server and of Chromium per action. Target: p95 <= 150 ms.
   ``--priority N`` serves at ``nice -N`` (root), as if the pages ran on phones of their own.
2. ``sessions``: 50 concurrent sessions on one table. ``panel serve apps/gm.py apps/table.py``
   runs in a subprocess; 50 Bokeh client sessions (``bokeh.client.pull_session``, each on its
   own thread and loop) open /table with a seat; a GM client session toggles "Share foes'
   numbers" and each client stamps when its header's text arrives (same process, same clock).
   Reports the p95 update latency, the server's RSS per session (target <= 15 MB) and the RSS
   once every session is closed and reaped (target: within 10% of the start).

Run: ``python benchmarks/bench_combat.py [pages|sessions|both] [--actions 30] [--clients 50]
[--priority 15]`` (``BENCH_VERBOSE=1``: each action's pages, server steps and slow loop steps;
``BENCH_SERVER_LOG=file``: the server's stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.models import Encounter, load  # noqa: E402
from tb_playground.service import TRIM_DELAY, CombatService  # noqa: E402

KEY = "bench-key-of-sixteen"
ROSTER = ROOT / "examples" / "roster"

#: In the GM page: a click anywhere stamps ``__t0`` (epoch ms, sub-ms precision).
GM_INSTALL = """() => {
  window.__clicks = [];
  document.addEventListener('click', () => {
    window.__clicks.push(performance.timeOrigin + performance.now());
  }, true);
}"""

#: In a player page: each change of the header's text stamps (time, text).
PLAYER_INSTALL = """() => {
  function find(root) {
    const hit = root.querySelector('.tp-header');
    if (hit && hit.shadowRoot) return hit.shadowRoot;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const f = find(n.shadowRoot); if (f) return f; }
    }
    return null;
  }
  const root = find(document);
  if (!root) return false;
  window.__seen = [];
  const text = () => (root.querySelector('.counter') || {}).textContent;
  let last = text();
  new MutationObserver(() => {
    const now = text();
    if (now !== last) {
      last = now;
      window.__seen.push([performance.timeOrigin + performance.now(), now]);
    }
  }).observe(root, {subtree: true, childList: true, characterData: true});
  return true;
}"""


#: The players' pages are on phones (a 390 x 844 px screen).
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
         "has_touch": True}  # fmt: skip

#: When the page first showed the text ending with the argument (null if not yet).
FIRST_SEEN = "w => (window.__seen.find(s => s[1].endsWith(w)) || [null])[0]"


def party_of(n: int) -> Encounter:
    """``n`` copies of Ronan (one seat each) against two guard dogs."""
    enc = Encounter(name="Bench")
    ronan = load(ROSTER / "ronan.json")
    for i in range(n):
        who = load(ROSTER / "ronan.json")
        who.name = f"Ronan {i + 1}" if i else ronan.name
        enc.add(who, "Party")
    for _ in range(2):
        enc.add(load(ROSTER / "guard_dog.yaml"), "Foes")
    return enc


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc)."""
    parent = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += [c for c, pp in parent.items() if pp == p]
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (those still alive)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def percentiles(values: list[float]) -> tuple[float, float, float]:
    a = np.asarray(values)
    return float(np.median(a)), float(np.percentile(a, 95)), float(a.max())


# -- 1. eight player pages in Chromium ------------------------------------------------------


def serve(
    db: Path, port: int, pymalloc: bool = False, trace: bool = False, priority: int = 0
) -> subprocess.Popen:
    """``panel serve`` of the combat pages (and memstats) in its own process, as the README does."""
    env = {**os.environ, "TB_TABLE_DB": str(db), "TB_GM_KEY": KEY}
    env["BENCH_FANOUT_FILE"] = str(fanout_file(db))
    if trace:
        env["PYTHONTRACEMALLOC"] = "1"
    if not pymalloc:  # as note 0009 advises serving: freed heap can go back to the system
        env.update(PYTHONMALLOC="malloc", MALLOC_ARENA_MAX="2")
    log = open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "w")  # the server's stderr
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "gm.py"),
            str(ROOT / "apps" / "table.py"), str(ROOT / "benchmarks" / "memstats.py"),
            str(ROOT / "benchmarks" / "fanout.py"),
            "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}", "--check-unused-sessions", "1000",
            "--unused-session-lifetime", "1000",
            "--setup", str(ROOT / "tb_playground" / "serve_setup.py"),
        ],
        env=env, start_new_session=os.environ.get("BENCH_SAME_SESSION") is None,
        stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    log.close()  # the server has its own copy
    if priority:
        # Linux groups processes by session ("autogroups") and shares the CPU between the groups
        # before nice values count; Chromium runs in a session of its own. So the server gets
        # its own session, and that group the priority.
        Path(f"/proc/{proc.pid}/autogroup").write_text(str(-priority))
        os.setpriority(os.PRIO_PROCESS, proc.pid, -priority)
    return proc


def fanout_file(db: Path) -> Path:
    """Where ``benchmarks/fanout.py`` writes the server's records, next to the table's file."""
    return db.parent / "fanout.jsonl"


def read_records(path: Path, offset: list[int]) -> dict:
    """The server's records written since ``offset[0]`` (advanced past the complete lines)."""
    with open(path, "rb") as f:
        f.seek(offset[0])
        data = f.read()
    data = data[: data.rfind(b"\n") + 1]
    offset[0] += len(data)
    rec = {"received": [], "sent": [], "refreshed": [], "slow": [], "gc": []}
    for line in data.splitlines():
        kind, *rest = json.loads(line)
        rec[kind].append(rest[0] if kind == "received" else rest)
    return rec


def bench_table(players: int) -> tuple[Path, str, list[str]]:
    """A SQLite file holding the table "Bench" (``players`` seats); its join code and seats."""
    db = Path(tempfile.mkdtemp()) / "bench.sqlite"
    service = CombatService(db, gm_key=KEY)
    table = service.create("Bench", party_of(players))
    code = table.view_for("gm")["join_code"]
    seats = [sid for sid, _ in table.seats()]
    service.store.close()
    return db, code, seats


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def bench_pages(
    actions: int, players: int = 8, priority: int = 0, act=None, kind: str = "share", ready=None
) -> dict:
    """GM clicks to visible on ``players`` player pages; the server is ``panel serve``.

    ``act(gm, i)`` clicks the GM's ``i``-th action (default: "Share foes' numbers"), a command
    of type ``kind``; ``ready(gm)`` prepares the GM page once (benchmarks/bench_win_pages.py).

    ``priority`` > 0 serves at that much higher CPU priority (``nice -priority`` of the server
    and of its Linux autogroup; root only), as if the players' pages ran on their own phones:
    Chromium's nine renderers share the server's 2 cores here. (Starting Chromium under
    ``nice`` does not do it: Chromium sets its own processes' priorities, its browser process
    at -8, and runs in a session, so an autogroup, of its own.)
    """
    from playwright.sync_api import sync_playwright

    db, code, seats = bench_table(players)
    port = free_port()
    proc = serve(db, port, priority=priority)
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    to_server: list[float] = []  # the GM's click (browser) to its message on the server
    fan_out: list[float] = []  # that message to each player page's update written (server)
    to_page: list[float] = []  # written to shown on the page (network and browser)
    refresh_cpu: list[float] = []  # the server's CPU time of each player page's refresh
    try:
        wait_for_http(f"{base}/table", timeout=90)
        with sync_playwright() as p:
            exe = CHROMIUM
            if os.environ.get("BENCH_USER_CHROMIUM"):
                wrapper = Path(tempfile.mkdtemp()) / "chromium"
                wrapper.write_text(
                    "#!/bin/sh\nexec setpriv --bounding-set -sys_nice --inh-caps -sys_nice "
                    f'{CHROMIUM} "$@"\n'
                )
                wrapper.chmod(0o755)
                exe = str(wrapper)
            browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
            gm = browser.new_context().new_page()
            gm.goto(f"{base}/gm?key={KEY}&table=Bench")
            gm.locator(".gm-share button").wait_for()
            pages = []
            for seat in seats:
                page = browser.new_context(**PHONE).new_page()
                page.goto(f"{base}/table?code={code}&seat={seat}")
                page.locator(".tp-header .counter").wait_for()
                assert page.evaluate(PLAYER_INSTALL)
                pages.append(page)
            if ready is not None:
                ready(gm)
            gm.evaluate(GM_INSTALL)
            header = gm.locator(".gm-header .counter")
            probe = browser.new_context()  # /fanout once: the server starts recording
            probe.new_page().goto(f"{base}/fanout")
            probe.pages[0].locator(".fanout").wait_for()
            probe.close()
            offset = [0]

            def server_record() -> dict:
                return read_records(fanout_file(db), offset)

            server_record()
            browsers = [p for p in descendants(os.getpid()) if p != os.getpid()]
            server_cpu = browser_cpu = 0.0
            missed = 0
            for i in range(actions + 3):
                before = int(re.search(r"event (\d+)", header.inner_text())[1])
                cpu_before = cpu_seconds([proc.pid]), cpu_seconds(browsers), time.monotonic()
                if act is None:
                    gm.locator(".gm-share button").click()
                else:
                    act(gm, i)
                want = f"event {before + 1}"
                # Each page stamps the change itself (its MutationObserver), so nothing asks
                # the pages while they update: every question goes through Chromium's browser
                # process, which competes with the pages and the server for the 2 cores. Ask
                # once the pages have settled, then every 0.1 s for a late one.
                seen = [None] * len(pages)
                deadline = time.monotonic() + 10
                time.sleep(max(0.0, cpu_before[2] + 0.6 - time.monotonic()))
                while True:
                    for k, page in enumerate(pages):
                        if seen[k] is None:
                            seen[k] = page.evaluate(FIRST_SEEN, want)
                    if None not in seen:
                        break
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"a player page never showed {want}")
                    time.sleep(0.1)
                if i >= 3:  # CPU of the action alone (not the /fanout page's loads)
                    server_cpu += cpu_seconds([proc.pid]) - cpu_before[0]
                    browser_cpu += cpu_seconds(browsers) - cpu_before[1]
                t0 = gm.evaluate("window.__clicks[window.__clicks.length - 1]")
                got = [stamp - t0 for stamp in seen]
                rec = server_record()
                if i >= 3:  # the first clicks warm up
                    latencies += got
                sent = next((t for t, what in rec["sent"] if what == kind), None)
                out = {seat: t for t, role, seat, _ in rec["refreshed"] if role == "player"}
                if sent is None or set(seats) - out.keys():  # not all in this record: no split
                    missed += 1
                elif i >= 3:
                    received = max(t for t in rec["received"] if t <= sent)
                    to_server.append(received - t0)
                    fan_out += [out[seat] - received for seat in seats]
                    refresh_cpu += [c for t, role, _, c in rec["refreshed"] if role == "player"]
                    to_page += [stamp - out[seat] for stamp, seat in zip(seen, seats, strict=True)]
                    if os.environ.get("BENCH_VERBOSE"):
                        steps = " ".join(
                            f"{role[0]}{t - received:.0f}({cpu:.0f})"
                            for t, role, _, cpu in rec["refreshed"]
                        )
                        print("pages:", " ".join(f"{g:.0f}" for g in got), "| server:", steps)
                        for t, d, what in rec.get("slow", []):
                            if received - 5 < t < received + 400:
                                print(f"    +{t - received:.0f} {d:.0f} ms {what}")
                        for t, d, gen in rec.get("gc", []):
                            if d > 5:
                                print(f"    gc generation {gen}: {d:.0f} ms at {t - t0:+.0f}")
                gm.locator(".gm-header .counter", has_text=want).wait_for()
                time.sleep(0.15)
            server_cpu, browser_cpu = server_cpu / actions, browser_cpu / actions
            browser.close()
    finally:
        stop(proc)
    median, p95, worst = percentiles(latencies)
    return {"actions": actions, "pages": players, "median_ms": median, "p95_ms": p95,
            "max_ms": worst, "priority": priority, "server_cpu_ms": 1000 * server_cpu,
            "browser_cpu_ms": 1000 * browser_cpu, "to_server": percentiles(to_server),
            "fan_out": percentiles(fan_out), "to_page": percentiles(to_page),
            "refresh_cpu": percentiles(refresh_cpu),
            "missed": missed}  # fmt: skip


# -- 2. fifty Bokeh client sessions against `panel serve` ----------------------------------


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Client(threading.Thread):
    """One Bokeh client session on its own thread and loop; stamps header text changes."""

    def __init__(self, url: str, arguments: dict, css: str):
        super().__init__(daemon=True)
        self.url, self.arguments, self.css = url, arguments, css
        self.ready = threading.Event()
        self.seen: list[tuple[float, str]] = []
        self.session = None
        self.loop = None
        self.error: Exception | None = None

    def run(self) -> None:
        """Open the session, watch the header, serve the loop until closed."""
        import panel.models  # noqa: F401 - the client must know Panel's Bokeh models
        from bokeh.client import pull_session

        import tb_playground.views.combat.seat_session  # noqa: F401

        # ... and the pages' own components (the seat's cookie, the code box, the upload box).
        import tb_playground.views.kit.code_input  # noqa: F401
        import tb_playground.views.kit.upload  # noqa: F401

        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        try:
            self.session = pull_session(url=self.url, arguments=self.arguments)
            doc = self.session.document
            header = next(
                m for m in doc.models if self.css in (getattr(m, "css_classes", None) or [])
            )
            header.on_change(
                "text", lambda _a, _o, new: self.seen.append((time.perf_counter(), new))
            )
            self.doc = doc
        except Exception as err:  # noqa: BLE001 - reported by the caller
            self.error = err
            self.ready.set()
            return
        self.ready.set()
        self.session._loop_until_closed()  # Bokeh 3 keeps this one private

    def model(self, css: str):
        """The session's Bokeh model with the CSS class ``css``."""
        return next(m for m in self.doc.models if css in (getattr(m, "css_classes", None) or []))

    def close(self) -> None:
        """Close the session from any thread."""
        if self.session is not None:
            self.session._connection._loop.add_callback(self.session.close)


def memstats(base: str, trim: bool = False, why: bool = False) -> dict:
    """The server's memory and what is alive there (``benchmarks/memstats.py``)."""
    import html
    import json

    args = {"trim": "1"} if trim else {}
    if why:
        args["why"] = "1"
    c = Client(f"{base}/memstats", args, "memstats")
    c.start()
    c.ready.wait(60)
    if c.error:
        raise c.error
    text = re.sub(r"<[^>]+>", "", html.unescape(html.unescape(c.model("memstats").text)))
    c.close()
    c.join(30)
    return json.loads(text)


def settled(base: str, timeout: float = 90.0) -> dict:
    """Memory once the server has reaped every closed session (none of ours alive)."""
    deadline = time.monotonic() + timeout
    while True:
        m = memstats(base)
        if m["live_sessions"] == 0 and m["pages"] == 0 and m["table_sessions"] == 0:
            return m
        if time.monotonic() > deadline:
            held = memstats(base, why=True)["holders"]
            alive = {k: m[k] for k in ("live_sessions", "pages", "table_sessions")}
            raise TimeoutError(f"sessions still alive after {timeout} s: {alive}; held by {held}")
        time.sleep(1)


def bench_sessions(clients: int, actions: int, trace: bool = False, pymalloc: bool = False) -> dict:
    db, code, seats = bench_table(8)
    port = free_port()
    proc = serve(db, port, pymalloc=pymalloc, trace=trace)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/table", timeout=90)

        def open_players(n: int, watch: bool = False) -> list[Client]:
            out = []
            for i in range(n):
                # One live page per seat (issue 20, "Seats"): the pages beyond the seats watch
                # (and the warm-up's, whose seats would wait for them after they close).
                seat = seats[i] if i < len(seats) and not watch else "__watch__"
                c = Client(f"{base}/table", {"code": code, "seat": seat}, "tp-header")
                c.start()
                c.ready.wait(120)
                if c.error:
                    raise c.error
                out.append(c)
            return out

        def close_all(cs: list[Client]) -> None:
            for c in cs:
                c.close()
            for c in cs:
                c.join(30)

        # Warm up: a few sessions and a GM page opened and closed, so imports and caches are in
        # the baseline: the table's own chance to win, worked out for every event once a GM
        # page shows it, stays with the table (about 28,000 objects) whoever watches.
        warm_gm = Client(f"{base}/gm", {"key": KEY, "table": "Bench"}, "gm-header")
        warm_gm.start()
        warm_gm.ready.wait(120)
        close_all([*open_players(3, watch=True), warm_gm])
        settled(base)
        time.sleep(5 * TRIM_DELAY + 2)  # the server's own trims, as after the 50 close
        start = memstats(base)
        gm = Client(f"{base}/gm", {"key": KEY, "table": "Bench"}, "gm-header")
        gm.start()
        gm.ready.wait(120)
        if gm.error:
            raise gm.error
        with_gm = rss_mb(proc.pid)
        players = open_players(clients)
        time.sleep(2)
        loaded = memstats(base)

        toggle = gm.model("gm-share")
        latencies: list[float] = []
        for i in range(actions + 2):
            counts = [len(c.seen) for c in players]
            stamp: list[float] = []

            def act(toggle=toggle, stamp=stamp):
                stamp.append(time.perf_counter())
                toggle.active = not toggle.active

            gm.doc.add_next_tick_callback(act)
            deadline = time.monotonic() + 30
            while any(len(c.seen) <= n for c, n in zip(players, counts, strict=True)):
                if time.monotonic() > deadline:
                    raise TimeoutError("a client never saw the update")
                time.sleep(0.005)
            if i >= 2:
                latencies += [
                    (c.seen[n][0] - stamp[0]) * 1000 for c, n in zip(players, counts, strict=True)
                ]
            time.sleep(0.2)

        close_all(players)
        gm.close()
        gm.join(30)
        settled(base)  # the server reaps the closed sessions (checked every second)
        time.sleep(5 * TRIM_DELAY + 2)  # and trims its heap after the last ones (twice)
        after = memstats(base)
        trimmed = memstats(base, trim=True)
    finally:
        stop(proc)
    median, p95, worst = percentiles(latencies)
    return {
        "clients": clients,
        "actions": actions,
        "median_ms": median,
        "p95_ms": p95,
        "max_ms": worst,
        "rss_start_mb": start["rss_mb"],
        "rss_gm_mb": with_gm,
        "rss_loaded_mb": loaded["rss_mb"],
        "mb_per_session": (loaded["rss_mb"] - with_gm) / clients,
        "rss_after_close_mb": after["rss_mb"],
        "after_vs_start": after["rss_mb"] / start["rss_mb"] - 1,
        "rss_after_trim_mb": trimmed["rss_mb"],
        "trim_vs_start": trimmed["rss_mb"] / start["rss_mb"] - 1,
        "traced_mb": [m["traced_mb"] for m in (start, loaded, after)],
        "anon_file_mb": [(m["rss_anon_mb"], m["rss_file_mb"]) for m in (start, loaded, after)],
        "blocks": [m["blocks"] for m in (start, loaded, after)],
        "malloc_mb": [
            (m.get("malloc_used_mb", float("nan")), m.get("malloc_free_mb", float("nan")))
            for m in (start, loaded, after)
        ],
        "alive_after": {k: after[k] for k in ("documents", "models", "pages", "table_sessions")},
        "gc_tracked": [m["gc_tracked"] for m in (start, loaded, after)],
        "kinds_gained": sorted(
            ((n - start["kinds"].get(k, 0), k) for k, n in after["kinds"].items()), reverse=True
        )[:12],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="?", default="both", choices=("pages", "sessions", "both"))
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument(
        "--priority",
        type=int,
        default=0,
        help="serve at nice -PRIORITY (root), as if the pages ran on their own phones (pages)",
    )
    parser.add_argument(
        "--trace", action="store_true", help="run the server under tracemalloc (traced heap)"
    )
    parser.add_argument(
        "--pymalloc", action="store_true", help="serve with CPython's own small-object allocator"
    )
    args = parser.parse_args()
    if args.which in ("pages", "both"):
        r = bench_pages(args.actions, priority=args.priority)
        print(
            f"GM action -> visible on {r['pages']} player pages ({r['actions']} actions): "
            f"median {r['median_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms"
            + (f" (served at nice -{r['priority']})" if r["priority"] else "")
        )
        print(
            f"CPU per action (0.6 s from the click): server {r['server_cpu_ms']:.0f} ms, "
            f"Chromium {r['browser_cpu_ms']:.0f} ms (GM page, 8 player pages, and Playwright's "
            "driver)"
        )
        for key, what in (
            ("to_server", "the GM's click to its message on the server"),
            ("fan_out", "the server: that message to each player page's update sent"),
            ("to_page", "the update sent to shown on the player page"),
            ("refresh_cpu", "the server's CPU time of one player page's refresh"),
        ):
            median, p95, worst = r[key]
            print(f"  {what}: median {median:.0f} ms, p95 {p95:.0f} ms, max {worst:.0f} ms")
        if r["missed"]:
            print(f"  ({r['missed']} action(s) without the server's record: not in the split)")
    if args.which in ("sessions", "both"):
        r = bench_sessions(args.clients, args.actions, args.trace, args.pymalloc)
        print(
            f"{r['clients']} client sessions on one table ({r['actions']} GM actions): update "
            f"median {r['median_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms"
        )
        print(
            f"server RSS: {r['rss_start_mb']:.0f} MB at start, {r['rss_gm_mb']:.0f} MB with the "
            f"GM, {r['rss_loaded_mb']:.0f} MB with {r['clients']} sessions "
            f"({r['mb_per_session']:.2f} MB per session), {r['rss_after_close_mb']:.0f} MB after "
            f"they closed ({100 * r['after_vs_start']:+.1f}% of the start), "
            f"{r['rss_after_trim_mb']:.0f} MB after one more malloc_trim "
            f"({100 * r['trim_vs_start']:+.1f}%)"
        )
        parts = " -> ".join(f"{a:.0f} + {f:.0f}" for a, f in r["anon_file_mb"])
        print(f"RSS anonymous + file-backed, MB (start -> {r['clients']} open -> closed): {parts}")
        heap = " -> ".join(f"{u:.0f} + {f:.0f}" for u, f in r["malloc_mb"])
        print(f"C heap in use + free, MB (start -> {r['clients']} open -> closed): {heap}")
        blocks = " -> ".join(f"{b:,}" for b in r["blocks"])
        print(f"pymalloc blocks (start -> {r['clients']} open -> closed): {blocks}")
        if r["traced_mb"][0] is not None:
            traced = " -> ".join(f"{t:.1f}" for t in r["traced_mb"])
            print(f"traced Python heap, MB (start -> {r['clients']} open -> closed): {traced}")
        print(f"alive after close: {r['alive_after']}")
        tracked = " -> ".join(f"{n:,}" for n in r["gc_tracked"])
        print(f"objects the garbage collector tracks (start -> {r['clients']} open -> closed): "
              f"{tracked}")  # fmt: skip
        if os.environ.get("BENCH_VERBOSE"):
            print("types with more objects after than at the start:", r["kinds_gained"])


if __name__ == "__main__":
    main()
