"""The server's drawing of the players' pages per GM action, without Panel (issue 9, note 0009).

A table of 8 seats (``bench_combat.party_of``) and two foes; each action toggles "Share foes'
numbers", then draws what each seat's page shows, as ``TablePage.refresh`` does: the shared
view and HTML (``CombatService.drawn`` with ``draw_table`` and ``CombatService.drawing``) and
the attack previews (cached on what they read), and the GM's view. Prints milliseconds per action,
the best and the median of ``--repeat`` runs of ``--actions`` actions (the best is the steadier
figure on a shared machine).

Run: ``python benchmarks/bench_draw.py [--actions 30] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
import bench_combat as b  # noqa: E402

from tb_playground.service import CombatService  # noqa: E402
from tb_playground.views.combat.table_page import attacks_html, draw_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    service = CombatService(Path(tempfile.mkdtemp()) / "draw.sqlite", gm_key="k")
    table = service.create("Bench", b.party_of(8))
    seats = [sid for sid, _ in table.seats()]

    def action() -> None:
        table.apply({"type": "share", "on": not table.state["share_foes"]})
        for seat in seats:
            d = service.drawn(
                table, "player", seat,
                lambda v, seat=seat: draw_table(
                    v, seat, partial(service.drawing, table, v["version"], "card")
                ),
            )  # fmt: skip
            v = d["view"]
            visible = [c["id"] for c in v["combatants"] if c["foe"]]
            service.drawn_previews(table, v["version"], seat, visible, partial(attacks_html, v=v))
        service.drawn(table, "gm", None, lambda v: {"view": v})

    for _ in range(5):  # warm up
        action()
    runs = []
    for _ in range(args.repeat):
        began = time.perf_counter()
        for _ in range(args.actions):
            action()
        runs.append((time.perf_counter() - began) / args.actions * 1000)
    print(
        f"drawing 8 seats' pages and the GM's view per action: best {min(runs):.1f} ms, median "
        f"{statistics.median(runs):.1f} ms ({args.repeat} runs of {args.actions} actions)"
    )


if __name__ == "__main__":
    main()
