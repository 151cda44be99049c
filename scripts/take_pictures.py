"""Take the landing page's pictures: each page in Chromium, saved to tb_playground/static/.

Serves every page in-process, opens each at 1280 x 800 in Debian's Chromium and saves the
visible part as a JPEG (small enough to ship with the package and embed in the landing page).
Run it again after a page changes: ``python scripts/take_pictures.py`` (every page) or
``python scripts/take_pictures.py encounter odds`` (those pages only).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import panel as pn
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS, free_port, wait_for_http  # noqa: E402

from tb_playground.models import load  # noqa: E402
from tb_playground.service import CombatService, set_service  # noqa: E402
from tb_playground.views import (  # noqa: E402
    PAGES,
    character_page,
    damage_page,
    lab_page,
    odds_page,
    rules_page,
)
from tb_playground.views.combat.gm_page import gm_page  # noqa: E402
from tb_playground.views.combat.table_page import table_page  # noqa: E402
from tb_playground.views.encounter_planner import encounter_page  # noqa: E402

#: The GM key the pictures' server uses (a throwaway table file, not the user's).
KEY = "pictures"

FACTORIES = {
    "odds": odds_page,
    "damage": damage_page,
    "character": lambda: character_page(load(ROOT / "examples" / "roster" / "ronan.json")),
    "rules": rules_page,
    "encounter": encounter_page,
    "lab": lab_page,
    "gm": gm_page,
    "table": table_page,
}

#: Where each picture is taken (the GM dashboard with its key).
URLS = {"gm": f"gm?key={KEY}", "encounter": "encounter?fights=2000&seed=1"}

#: Pages that show their picture's content only after a run: the element that says it is done.
DONE = {"encounter": ".enc-done"}


def main(routes: list[str] | None = None) -> None:
    """Save one picture per page in ``PAGES`` (only ``routes``, if given)."""
    import tempfile

    set_service(CombatService(Path(tempfile.mkdtemp()) / "tables.sqlite", gm_key=KEY))
    port = free_port()
    server = pn.serve(
        FACTORIES,
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    out = ROOT / "tb_playground" / "static"
    out.mkdir(exist_ok=True)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/odds", timeout=90)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            for info in PAGES:
                if routes and info.route not in routes:
                    continue
                page.goto(f"http://127.0.0.1:{port}/{URLS.get(info.route, info.route)}")
                page.locator(".site-nav").first.wait_for()
                page.wait_for_load_state("networkidle")
                if info.route in DONE:
                    page.locator(DONE[info.route]).wait_for(timeout=90_000)
                time.sleep(3)  # plots draw after the page settles
                path = out / info.picture
                page.screenshot(path=str(path), type="jpeg", quality=70)
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
