"""Scrubbing on the served /gm page (issue 23, "Bench"): slider move -> the board drawn.

A seeded fight of six played to 10,000 events (``bench_replay.play``), served in-process with
/gm; Debian's Chromium opens the table replaying an event (``?at=``), then:

- ``jumps``: the replay slider's model set from page JS to random events (a drag released far
  away): the time from the change to the replayed header's counter reading the new event;
- ``keys``: an arrow key on the slider's handle (one event on): the same time.

The latency is measured by the browser's own clock (a MutationObserver on the replayed
header's shadow root), so the Playwright round trip is not counted. The server's share is
``ReplayPanel.drawn`` (``view_for("gm", at=n)`` and ``draw_gm``), timed in the same process.
Target: the view's p95 <= 100 ms (issue 23). Run:
``python benchmarks/bench_replay_page.py [events] [scrubs]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import panel as pn
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_replay import play  # noqa: E402
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.service import CombatService, set_service  # noqa: E402
from tb_playground.views.combat import replay_panel  # noqa: E402
from tb_playground.views.combat.gm_page import gm_page  # noqa: E402

KEY = "bench-gm-key-of-16-chars"

#: In-page timing: ``scrub(n)`` (or a keydown) stamps t0; the first change of the replayed
#: header's counter to "event N" resolves with the milliseconds since.
INSTALL = """() => {
  function find(root, selector) {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const f = find(n.shadowRoot, selector); if (f) return f; }
    }
    return null;
  }
  const counter = () => find(document, '.counter');
  const host = find(document, '.gm-replay-header');
  const root = counter().getRootNode();
  window.__wait = (n) => new Promise((resolve) => {
    const t0 = window.__t0;
    const done = () => {
      const c = root.querySelector('.counter');
      if (c && c.textContent.endsWith('event ' + n)) {
        obs.disconnect(); resolve(performance.now() - t0); return true;
      }
      return false;
    };
    const obs = new MutationObserver(done);
    obs.observe(root, {subtree: true, childList: true, characterData: true});
    done();
  });
  window.__slider = [...Bokeh.documents[0].all_models].find(
    (m) => m.type === 'Slider' && (m.css_classes || []).includes('gm-replay-slider'));
  window.__scrub = (n) => { window.__t0 = performance.now(); window.__slider.value = n;
                            return window.__wait(n); };
  window.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
  return !!host && !!window.__slider;
}"""


def pct(times: list[float], q: float) -> float:
    times = sorted(times)
    return times[max(int(q * len(times)) - 1, 0)]


def report(what: str, times: list[float]) -> None:
    print(f"{what:34s} p50 {statistics.median(times):6.1f} ms  p95 {pct(times, 0.95):6.1f} ms  "
          f"worst {max(times):6.1f} ms  ({len(times)})")  # fmt: skip


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    scrubs = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    drawn: list[float] = []
    original = replay_panel.ReplayPanel.drawn

    def timed(self, n):
        t0 = time.perf_counter()
        try:
            return original(self, n)
        finally:
            drawn.append(1000 * (time.perf_counter() - t0))

    shown: list[float] = []
    original_show = replay_panel.ReplayPanel.show

    def timed_show(self):
        t0 = time.perf_counter()
        try:
            return original_show(self)
        finally:
            shown.append(1000 * (time.perf_counter() - t0))

    replay_panel.ReplayPanel.drawn = timed
    replay_panel.ReplayPanel.show = timed_show
    with tempfile.TemporaryDirectory() as tmp:
        service = CombatService(Path(tmp) / "bench.sqlite", gm_key=KEY)
        set_service(service)
        start = time.perf_counter()
        table = play(service.store, events)
        count = table.version
        print(f"played {count} events in {time.perf_counter() - start:.1f} s")
        port = free_port()
        server = pn.serve({"gm": gm_page}, port=port, address="127.0.0.1", threaded=True,
                          show=False, websocket_origin=[f"127.0.0.1:{port}"])  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base}/gm")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                t0 = time.perf_counter()
                page.goto(f"{base}/gm?key={KEY}&table=bench&at={count // 2}")
                page.wait_for_selector(".gm-replay-slider .noUi-handle", timeout=60_000)
                print(f"page open at event {count // 2}: {time.perf_counter() - t0:.1f} s")
                assert page.evaluate(INSTALL)
                page.evaluate(f"window.__scrub({count})")  # the first scrub makes snapshots
                rng = random.Random(1)
                drawn.clear()
                shown.clear()
                jumps = [
                    page.evaluate(f"window.__scrub({rng.randint(1, count)})") for _ in range(scrubs)
                ]
                server_jumps, show_jumps = list(drawn), list(shown)
                drawn.clear()
                shown.clear()
                n = page.evaluate("window.__slider.value")
                keys = []
                handle = page.locator(".gm-replay-slider .noUi-handle")
                if n + scrubs > count:
                    n = count - scrubs - 1
                    page.evaluate(f"window.__scrub({n})")
                for _ in range(scrubs):  # one event on each time: never drawn before
                    n += 1
                    handle.press("ArrowRight")
                    keys.append(page.evaluate(f"window.__wait({n})"))
                server_keys, show_keys = list(drawn), list(shown)
                browser.close()
        finally:
            server.stop()
            set_service(None)
            replay_panel.ReplayPanel.drawn = original
            replay_panel.ReplayPanel.show = original_show
    report("slider jump -> board (browser)", jumps)
    report("  of which the view and its HTML", server_jumps)
    report("  of which the panes set (with it)", show_jumps)
    report("arrow key -> board (browser)", keys)
    report("  of which the view and its HTML", server_keys)
    report("  of which the panes set (with it)", show_keys)
    print("target: the view's p95 <= 100 ms (issue 23)")


if __name__ == "__main__":
    main()
