"""Browser latency of every page's sliders: slider move -> updated numbers on the page.

Serves each page in-process, drives Debian's Chromium with Playwright, presses an arrow key on
a slider handle and waits until the page's numbers change. Prints the median and p95 over the
moves, per page:

- ``odds``: the roll-under playground's Element and Difficulty sliders -> the headline
  percentages (target, issue 2: p95 <= 90 ms; Panel batches browser events for about 50 ms,
  which is the floor);
- ``damage``: the damage explorer's first two sliders -> its headline;
- ``character``: the character sheet's Ki-boosts slider (Ronan against the roster's first
  creature) -> the attack table (issue 10: a move took about 570 ms on every other move).

Run: ``python benchmarks/bench_browser_latency.py [--pages odds damage character] [--moves 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import panel as pn
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.models import load  # noqa: E402
from tb_playground.views import character_page, damage_page, odds_page  # noqa: E402

#: Installs in-page timing: the keydown that moves a slider stamps ``__t0``; a
#: MutationObserver on the watched element's shadow root stamps ``__t1`` when its text first
#: changes (or, for a page with ``url``, when the server's answer writes the page URL, if that
#: comes first). The latency is ``__t1 - __t0``, measured by the browser's own clock, so the
#: Playwright round trip is not counted.
INSTALL = """([selector, url]) => {
  function find(root) {
    if (root.querySelector(selector)) return root;
    for (const n of root.querySelectorAll('*')) {
      if (n.shadowRoot) { const f = find(n.shadowRoot); if (f) return f; }
    }
    return null;
  }
  const root = find(document);
  if (!root) return false;
  window.__t0 = null; window.__t1 = null;
  const text = () => { const e = root.querySelector(selector); return e ? e.textContent : ''; };
  window.__old = text();
  window.addEventListener('keydown', () => {
    window.__t0 = performance.now(); window.__t1 = null; window.__old = text();
  }, true);
  if (url) {
    // The server's answer also writes the page URL: a move whose numbers stay the same
    // (a fresh sheet's one die takes one Ki boost at most) is timed to that answer.
    const push = window.history.pushState.bind(window.history);
    window.history.pushState = (...a) => {
      if (window.__t0 !== null && window.__t1 === null) window.__t1 = performance.now();
      return push(...a);
    };
  }
  new MutationObserver(() => {
    if (window.__t0 !== null && window.__t1 === null && text() !== window.__old) {
      window.__t1 = performance.now();
    }
  }).observe(root, {subtree: true, childList: true, characterData: true});
  return true;
}"""
DONE = "() => window.__t1 !== null"
LATENCY = "() => window.__t1 - window.__t0"


@dataclass(frozen=True)
class Page:
    """One page to time: how to build it, what shows it is ready, what to watch, which handles."""

    factory: object
    ready: str
    watched: str
    handles: tuple[int, ...]
    what: str
    #: Moves one way before turning back: 1 is there and back, 4 is four right then four
    #: left (steps the page has not shown yet, not only two positions it may have cached).
    sweep: int = 1
    #: The page's address when it is not the page's name.
    route: str = ""
    #: Also count the server's URL write as the answer (moves that leave the numbers as they
    #: were still end when the page has heard back).
    url: bool = False


def _ronan_sheet():
    return character_page(character=load(ROOT / "examples" / "roster" / "ronan.json"))


def _fresh_sheet():
    return character_page()


PAGES = {
    "odds": Page(odds_page, ".odds-headline .pct", ".pct", (0, 1), "Element/Difficulty"),
    "damage": Page(damage_page, ".dmg-headline .dmg-stats", ".dmg-stats", (0, 1), "first sliders"),
    "character": Page(_ronan_sheet, ".attack-odds", ".attack-odds", (0,), "Ki boosts (Ronan)"),
    # Issue 22: a fresh sheet (no character loaded), its first slider four steps each way.
    "character-fresh": Page(
        _fresh_sheet,
        ".attack-odds",
        ".attack-odds",
        (0,),
        "first (fresh sheet)",
        4,
        "character",
        True,
    ),
}


def measure(name: str, moves: int, pause: float, warmup: int) -> tuple[list[float], list[float]]:
    """Return the warm-up latencies and the timed ones, in milliseconds, one per move."""
    spec = PAGES[name]
    route = spec.route or name
    port = free_port()
    server = pn.serve(
        {route: spec.factory},
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    try:
        wait_for_http(f"http://127.0.0.1:{port}/{route}", timeout=120)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/{route}")
            page.locator(spec.ready).first.wait_for(timeout=60_000)
            page.wait_for_function(INSTALL, arg=[spec.watched, spec.url], timeout=30_000)
            time.sleep(1.0)
            handles = [page.locator(".noUi-handle").nth(i) for i in spec.handles]
            latencies = []
            for i in range(warmup + moves):
                # ``sweep`` moves right and as many back per handle, then the next handle.
                turn = 2 * spec.sweep
                handle = handles[(i // turn) % len(handles)]
                key = "ArrowRight" if i % turn < spec.sweep else "ArrowLeft"
                handle.press(key)
                page.wait_for_function(DONE, timeout=10_000)
                latencies.append(page.evaluate(LATENCY))
                time.sleep(pause)
            browser.close()
        return latencies[:warmup], latencies[warmup:]
    finally:
        server.stop()


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pages", nargs="+", choices=list(PAGES), default=list(PAGES), help="pages to time (all)"
    )
    parser.add_argument("--moves", type=int, default=30, help="slider moves to time (30)")
    parser.add_argument(
        "--pause", type=float, default=0.3, help="seconds between moves, after each update (0.3)"
    )
    parser.add_argument(
        "--warmup", type=int, default=4, help="first moves after page load, reported apart (4)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every latency")
    args = parser.parse_args()
    for name in args.pages:
        cold, latencies = measure(name, args.moves, args.pause, args.warmup)
        ordered = sorted(latencies)
        print(
            f"/{name}: {PAGES[name].what} slider -> numbers, {len(latencies)} moves in "
            f"Chromium, {args.pause} s apart"
        )
        print(f"  median {statistics.median(latencies):6.1f} ms")
        print(f"  p95    {p95(latencies):6.1f} ms   (target <= 90 ms)")
        print(f"  min    {ordered[0]:6.1f} ms   max {ordered[-1]:6.1f} ms")
        print("  warm-up moves (first after page load):", " ".join(f"{x:.0f}" for x in cold), "ms")
        if args.verbose:
            print("  each:", " ".join(f"{x:.0f}" for x in latencies))


if __name__ == "__main__":
    main()
