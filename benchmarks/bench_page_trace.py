"""Where a phone's browser spends an update of the players' page (issue 9, note 0009).

One /table page, phone-sized, in Debian's Chromium; the GM is a Bokeh client session that
toggles "Share foes' numbers" once a second (so the only page in Chromium is the player's).
Chromium's own trace (``devtools.timeline``) of ``--updates`` updates is summed per thread and
event: the renderer's main thread per update (``RunTask``), and inside it script, layout,
style, paint, HTML parsing and garbage collection.

Run: ``python benchmarks/bench_page_trace.py [--updates 10] [--page table|gm]`` (``gm``: the GM's
page, 1280 px wide, while a second GM session makes the changes).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
import bench_combat as b  # noqa: E402
from serving import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

SHOWN = ("RunTask", "FunctionCall", "Layout", "UpdateLayoutTree", "Paint", "PrePaint",
         "ParseHTML", "MinorGC", "Commit")  # fmt: skip


def trace_updates(updates: int, which: str = "table") -> dict:
    """Per-update milliseconds by (process type, thread, event) over ``updates`` GM actions.

    ``which`` is the page traced: "table" (a player's, phone-sized) or "gm" (the GM's, 1280 px).
    """
    from playwright.sync_api import sync_playwright

    db, code, seats = b.bench_table(8)
    port = free_port()
    proc = b.serve(db, port)
    base = f"http://127.0.0.1:{port}"
    out = Path(tempfile.mkdtemp()) / "trace.json"
    try:
        wait_for_http(f"{base}/table", timeout=120)
        gm = b.Client(f"{base}/gm", {"key": b.KEY, "table": "Bench"}, "gm-header")
        gm.start()
        gm.ready.wait(120)
        toggle = gm.model("gm-share")

        def act():
            gm.doc.add_next_tick_callback(lambda: setattr(toggle, "active", not toggle.active))
            time.sleep(1.0)

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if which == "gm":
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                page.goto(f"{base}/gm?key={b.KEY}&table=Bench")
                page.locator(".gm-header .counter").wait_for()
            else:
                page = browser.new_context(**b.PHONE).new_page()
                page.goto(f"{base}/table?code={code}&seat={seats[0]}")
                page.locator(".tp-header .counter").wait_for()
            for _ in range(3):  # warm up
                act()
            browser.start_tracing(
                page=page,
                path=str(out),
                categories=["devtools.timeline", "disabled-by-default-devtools.timeline", "v8"],
            )
            for _ in range(updates):
                act()
            browser.stop_tracing()
            browser.close()
        gm.close()
    finally:
        b.stop(proc)
    events = json.loads(out.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    threads, kinds = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "process_name":
            kinds[e["pid"]] = e["args"]["name"]
    total: collections.Counter = collections.Counter()
    for e in events:
        if e.get("ph") == "X" and "dur" in e:
            key = (kinds.get(e["pid"], "?"), threads.get((e["pid"], e["tid"]), "?"), e["name"])
            total[key] += e["dur"] / 1000 / updates
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--page", choices=("table", "gm"), default="table")
    args = parser.parse_args()
    total = trace_updates(args.updates, args.page)
    main_thread = {name: ms for (kind, th, name), ms in total.items()
                   if kind == "Renderer" and th == "CrRendererMain"}  # fmt: skip
    what = "players' page at 390 px" if args.page == "table" else "GM page at 1280 px"
    print(f"{what}, {args.updates} updates: main thread per update, ms")
    print("  " + ", ".join(f"{n} {main_thread.get(n, 0):.1f}" for n in SHOWN))
    other = collections.Counter()
    for (kind, th, name), ms in total.items():
        if name == "RunTask" and th != "CrRendererMain":
            other[f"{kind} {th}"] += ms
    print("other threads' tasks per update, ms: "
          + ", ".join(f"{k} {v:.1f}" for k, v in other.most_common(4)))  # fmt: skip


if __name__ == "__main__":
    main()
