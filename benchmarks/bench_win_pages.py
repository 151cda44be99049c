"""GM action -> 8 phones while the chance to win is worked out (issue 23, Bench).

``bench_combat.py pages`` with an action that changes the fight: the GM sets a guard dog's
Health (the two dogs in turn, values 1..6, so no state comes back within the Momentum's
memory of eight), each one a new version whose chance (20,000 fights, one worker process) is
worked out while the next action's fan-out runs. The GM page shows the chart
(views/combat/win_chart.py).
Target: p95 <= 150 ms, as without the chart. Also prints how long the GM's chart took to show
each action's chance (click -> "after event N" on the GM page; the runs of a fast action
sequence are cancelled by the next one, so this is the last action's).

Run: ``python benchmarks/bench_win_pages.py [--actions 30] [--priority 15] [--fights N]
[--off]`` (``--off``: the same actions with the chance turned off, to compare).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_combat import bench_pages  # noqa: E402


def ready(gm) -> None:
    """The GM's tools on the first guard dog, field Health; the chart on screen."""
    if os.environ.get("TB_WIN_FIGHTS") != "0":
        gm.locator(".win-now").wait_for()
    gm.locator(".gm-tool-who select").select_option(label="Guard dog 1")
    gm.locator(".gm-set-field select").select_option(label="Health")


def act(gm, i: int) -> None:
    """Set a dog's Health: Guard dog 1 and 2 in turn, 1..6 (a 12-step cycle)."""
    dog = "Guard dog 1" if i % 2 == 0 else "Guard dog 2"
    gm.locator(".gm-tool-who select").select_option(label=dog)
    gm.wait_for_timeout(200)  # the page sets the box to the dog's Health: then type
    box = gm.locator(".gm-set-value input")
    box.fill(str((i // 2) % 6 + 1))
    box.press("Enter")
    gm.locator(".gm-set button").click()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--priority", type=int, default=0)
    parser.add_argument("--off", action="store_true", help="no chance to win (TB_WIN_FIGHTS=0)")
    parser.add_argument("--fights", type=int, default=20_000)
    args = parser.parse_args()
    os.environ["TB_WIN_FIGHTS"] = "0" if args.off else str(args.fights)
    began = time.monotonic()
    result = bench_pages(args.actions, 8, args.priority, act=act, kind="set", ready=ready)
    result["seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
