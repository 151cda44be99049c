"""Browser latency of the roll-under playground: slider move -> updated percentages.

Serves ``odds_page`` in-process, drives Debian's Chromium with Playwright, presses an arrow key
on a slider handle and waits (polling every animation frame) until the headline percentage
changes. Prints the median and p95 over the moves. Target (issue 2): p95 <= 90 ms; Panel
batches browser events for about 50 ms, which is the floor.

Run: ``python benchmarks/bench_browser_latency.py [--moves 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import panel as pn
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.views import odds_page  # noqa: E402

#: Installs in-page timing: the keydown that moves a slider stamps ``__t0``; a
#: MutationObserver on the headline's shadow root stamps ``__t1`` when the first percentage
#: changes. The latency is ``__t1 - __t0``, measured by the browser's own clock, so the
#: Playwright round trip is not counted.
INSTALL = """() => {
  function find(root) {
    if (root.querySelector('.pct')) return root;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const f = find(n.shadowRoot); if (f) return f; }
    }
    return null;
  }
  const root = find(document);
  if (!root) return false;
  window.__t0 = null; window.__t1 = null;
  const text = () => root.querySelector('.pct').textContent;
  window.__old = text();
  window.addEventListener('keydown', () => {
    window.__t0 = performance.now(); window.__t1 = null; window.__old = text();
  }, true);
  new MutationObserver(() => {
    if (window.__t0 !== null && window.__t1 === null && text() !== window.__old) {
      window.__t1 = performance.now();
    }
  }).observe(root, {subtree: true, childList: true, characterData: true});
  return true;
}"""
DONE = "() => window.__t1 !== null"
LATENCY = "() => window.__t1 - window.__t0"


def measure(moves: int, pause: float, warmup: int) -> tuple[list[float], list[float]]:
    """Return the warm-up latencies and the timed ones, in milliseconds, one per move."""
    port = free_port()
    server = pn.serve(
        {"odds": odds_page},
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    try:
        wait_for_http(f"http://127.0.0.1:{port}/odds")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/odds")
            page.locator(".odds-headline .pct").first.wait_for()
            page.wait_for_function(INSTALL)
            time.sleep(1.0)
            handles = [page.locator(".noUi-handle").nth(i) for i in (0, 1)]
            latencies = []
            for i in range(warmup + moves):
                handle = handles[(i // 2) % 2]  # element, element, difficulty, difficulty, ...
                key = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
                handle.press(key)
                page.wait_for_function(DONE, timeout=10_000)
                latencies.append(page.evaluate(LATENCY))
                time.sleep(pause)
            browser.close()
        return latencies[:warmup], latencies[warmup:]
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="slider moves to time (30)")
    parser.add_argument(
        "--pause", type=float, default=0.3, help="seconds between moves, after each update (0.3)"
    )
    parser.add_argument(
        "--warmup", type=int, default=4, help="first moves after page load, reported apart (4)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every latency")
    args = parser.parse_args()
    cold, latencies = measure(args.moves, args.pause, args.warmup)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    print(f"slider -> percentages, {len(latencies)} moves in Chromium, {args.pause} s apart")
    print(f"  median {statistics.median(latencies):6.1f} ms")
    print(f"  p95    {p95:6.1f} ms   (target <= 90 ms)")
    print(f"  min    {ordered[0]:6.1f} ms   max {ordered[-1]:6.1f} ms")
    print("  warm-up moves (first after page load):", " ".join(f"{x:.0f}" for x in cold), "ms")
    if args.verbose:
        print("  each:", " ".join(f"{x:.0f}" for x in latencies))


if __name__ == "__main__":
    main()
