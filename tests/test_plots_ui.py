"""The odds and damage pages at a phone's, a tablet's and a desktop's width, in both themes.

Checked in Debian's Chromium (issue 10, "Tests"): the document is exactly as wide as the
viewport (no sideways scrolling); no two controls overlap; every chart's data lies inside its
axes after every control is moved to both ends (Bokeh model ranges against the data sources,
read from page JS); the dark theme's tables and headlines keep a text contrast of at least
4.5:1 (WCAG AA, from computed styles). Screenshots of each page at each width and theme are
saved into ``screenshots/`` (the folder the README names) by the run.
"""

from __future__ import annotations

import io
from pathlib import Path

import panel as pn
import pytest
from conftest import free_port, wait_for_http
from playwright.sync_api import expect

from tb_playground.views import damage_page, odds_page

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "screenshots"  # the folder the README names
WIDTHS = (390, 768, 1280)
PAGES = {"odds": (odds_page, ".odds-headline .pct"), "damage": (damage_page, ".dmg-hit .v")}

#: The text whose dark-theme contrast is measured, per page (inside shadow roots).
TEXT = {
    "odds": ".odds-stat .pct, .odds-stat .lbl, .odds-sum, table.target-worth td, "
    "table.target-worth th, table.difficulty-ladder td, table.difficulty-ladder th",
    "damage": ".dmg-stat .v, .dmg-stat .l, .dmg-summary, table.ronan td, table.ronan th, "
    ".ronan-levels",
}

#: Helpers run in the page: shadow-piercing queries, the widgets' boxes, the charts' ranges
#: and data, moving every control, and contrast ratios from computed styles.
JS_HELPERS = """
window.__tb = (() => {
  const deepAll = (selector, root = document) => {
    const out = [...root.querySelectorAll(selector)];
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) out.push(...deepAll(selector, el.shadowRoot));
    }
    return out;
  };
  const views = () => {
    const seen = new Set();
    const walk = (v) => {
      if (!v || seen.has(v)) return;
      seen.add(v);
      let kids = [];
      try { kids = [...v.children()]; } catch (e) {}
      kids.forEach(walk);
    };
    Object.values(Bokeh.index).forEach(walk);
    return [...seen];
  };
  const CONTROL = /Slider|RadioButtonGroup|Checkbox|MultiChoice|Select|Button/;
  const controlBoxes = () => views()
    .filter(v => v.model && CONTROL.test(v.model.type))
    .map(v => {
      const r = v.el.getBoundingClientRect();
      return {name: v.model.title || v.model.label || v.model.type,
              x: r.x, y: r.y, w: r.width, h: r.height};
    })
    .filter(b => b.w > 0 && b.h > 0);
  const models = () => [...Bokeh.documents[0]._all_models.values()];
  const numeric = (rng) => typeof rng.start === "number" && typeof rng.end === "number";
  const spec = (glyph, name) => {
    const p = glyph.properties[name];
    if (!p) return null;
    const v = p.get_value();
    return v && typeof v === "object" && "field" in v ? v.field : null;
  };
  const column = (source, field) =>
    field == null ? [] : [...(source.data[field] || [])].filter(Number.isFinite);
  const X = ["x", "left", "right", "x0", "x1"], Y = ["y", "top", "bottom", "y0", "y1"];
  // Every chart: its title, ranges, and the extent of the data it draws.
  const charts = () => models().filter(m => m.type === "Figure").map(fig => {
    const xs = [], ys = [];
    for (const r of fig.renderers) {
      if (r.type !== "GlyphRenderer" || !r.visible) continue;
      const g = r.glyph, src = r.data_source;
      for (const n of X) xs.push(...column(src, spec(g, n)));
      for (const n of Y) ys.push(...column(src, spec(g, n)));
      if (g.type === "Image") {
        const x = column(src, spec(g, "x")), dw = column(src, spec(g, "dw"));
        const y = column(src, spec(g, "y")), dh = column(src, spec(g, "dh"));
        x.forEach((v, i) => xs.push(v + dw[i]));
        y.forEach((v, i) => ys.push(v + dh[i]));
      }
    }
    for (const a of [...fig.center, ...fig.renderers]) {
      if (a.type === "Span" && a.visible && Number.isFinite(a.location)) {
        (a.dimension === "height" ? xs : ys).push(a.location);
      }
    }
    return {
      title: fig.title ? fig.title.text : "",
      x: numeric(fig.x_range) ? [fig.x_range.start, fig.x_range.end] : null,
      y: numeric(fig.y_range) ? [fig.y_range.start, fig.y_range.end] : null,
      data_x: xs.length ? [Math.min(...xs), Math.max(...xs)] : null,
      data_y: ys.length ? [Math.min(...ys), Math.max(...ys)] : null,
    };
  });
  // Every control to one end: sliders, button groups, check boxes, selects, multi-choices.
  const moveAll = (high) => {
    for (const m of models()) {
      const t = m.type || "";
      if (m.disabled) continue;
      if (t === "Slider") {
        const v = high ? m.end : m.start;
        m.value = v;
        if ("value_throttled" in m) m.value_throttled = v;
      } else if (t.endsWith("RadioButtonGroup")) {
        m.active = high ? m.labels.length - 1 : 0;
      } else if (t === "Checkbox") {
        m.active = high;
      } else if (t.endsWith("Select") && Array.isArray(m.options) && m.options.length) {
        const o = m.options[high ? m.options.length - 1 : 0];
        m.value = Array.isArray(o) ? o[0] : o;
      } else if (t === "MultiChoice") {
        m.value = high ? m.options.map(o => Array.isArray(o) ? o[0] : o).slice(0, 2) : [];
      }
    }
  };
  const rgba = (s) => {
    const m = s.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const parentOf = (el) => el.parentElement || (el.getRootNode() && el.getRootNode().host) || null;
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = parentOf(e)) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = out.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
    return out;
  };
  const lum = (c) => {
    const l = c.slice(0, 3).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  };
  const contrast = (selector) => deepAll(selector)
    .filter(el => el.getBoundingClientRect().width > 0 && el.textContent.trim())
    .map(el => {
      const bg = background(el);
      const fg = rgba(getComputedStyle(el).color);
      const shown = bg.map((v, i) => fg[i] * fg[3] + v * (1 - fg[3]));
      const [a, b] = [lum(shown), lum(bg)].sort((p, q) => q - p);
      return {text: el.textContent.trim().slice(0, 30), ratio: (a + 0.05) / (b + 0.05)};
    });
  return {controlBoxes, charts, moveAll, contrast};
})();
"""


@pytest.fixture(scope="module")
def site():
    """Both pages served once for the module (each session still gets fresh objects)."""
    port = free_port()
    server = pn.serve(
        {"odds": odds_page, "damage": damage_page},
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
    )
    url = f"http://127.0.0.1:{port}"
    wait_for_http(f"{url}/odds", timeout=60)
    yield url
    server.stop()


def _open(page, url: str, name: str, dark: bool = False) -> None:
    page.goto(f"{url}/{name}" + ("?theme=dark" if dark else ""))
    expect(page.locator(PAGES[name][1]).first).not_to_have_text("", timeout=30_000)
    page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
    page.evaluate(JS_HELPERS)


def _overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of controls whose boxes share more than a pixel each way."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                found.append((a["name"], b["name"]))
    return found


def _screenshot(page, name: str, width: int, theme: str) -> None:
    """Save the whole page (the template scrolls inside; grow the viewport to show it all).

    Stored as a 256-colour PNG so the folder stays small.
    """
    from PIL import Image

    height = page.evaluate(
        "Math.max(...[document.documentElement, ...document.querySelectorAll('#main, "
        ".main, #content, #sidebar, .sidenav')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": width, "height": min(max(height, 700), 4000)})
    page.wait_for_timeout(400)
    png = page.screenshot()
    page.set_viewport_size({"width": width, "height": 800})
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    image.save(SHOTS / f"{name}-{width}-{theme}.png", optimize=True)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_widths_controls_contrast_and_screenshots(browser, site, name, theme):
    """One load per page and theme, then each width in turn (the layout is fluid)."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    try:
        _open(page, site, name, dark=theme == "dark")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            page.wait_for_timeout(600)
            scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert scroll == [width, width], f"{name} at {width}px is {scroll[0]}px wide"
            boxes = page.evaluate("window.__tb.controlBoxes()")
            assert len(boxes) >= 5
            assert not _overlaps(boxes), f"controls overlap at {width}px: {_overlaps(boxes)}"
            for box in boxes:
                assert box["x"] >= -1 and box["x"] + box["w"] <= width + 1, (width, box)
            if theme == "dark":
                ratios = page.evaluate(f"window.__tb.contrast({TEXT[name]!r})")
                assert len(ratios) >= 10
                low = [r for r in ratios if r["ratio"] < 4.5]
                assert not low, f"dark theme text under 4.5:1 on {name}: {low[:5]}"
            _screenshot(page, name, width, theme)
    finally:
        context.close()


def _settled_charts(page) -> list[dict]:
    """The charts once two reads a second apart agree (the server has answered)."""
    before = None
    for _ in range(60):
        page.wait_for_timeout(600)
        now = page.evaluate("window.__tb.charts()")
        if now == before:
            return now
        before = now
    return now


def _outside(chart: dict) -> list[str]:
    wrong = []
    for axis in ("x", "y"):
        rng, data = chart[axis], chart[f"data_{axis}"]
        if rng is None or data is None:
            continue
        lo, hi = min(rng), max(rng)
        if data[0] < lo - 1e-9 or data[1] > hi + 1e-9:
            wrong.append(f"{chart['title']!r}: {axis} data {data} outside {rng}")
    return wrong


@pytest.mark.parametrize("name", list(PAGES))
def test_chart_data_stays_inside_the_axes_at_both_ends(page, site, name):
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, site, name)
    start = _settled_charts(page)
    assert len(start) >= 2 and not [w for c in start for w in _outside(c)]
    for high in (True, False, True):
        page.evaluate(f"window.__tb.moveAll({'true' if high else 'false'})")
        charts = _settled_charts(page)
        assert len(charts) == len(start)
        assert any(c["data_x"] for c in charts)
        wrong = [w for c in charts for w in _outside(c)]
        assert not wrong, f"{name}, every control at the {'high' if high else 'low'} end: {wrong}"
