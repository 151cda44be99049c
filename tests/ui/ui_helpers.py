"""Layout checks shared by the browser tests of every page (issue 10, "Tests").

Run in the page (``JS_HELPERS`` defines ``window.__tb``): shadow-piercing queries, the Bokeh
views of the controls and their boxes, the charts' ranges against their data, moving every
control to one end, and WCAG contrast ratios from computed styles. ``check_layout`` is the one
check per page and width: the document exactly as wide as the viewport, no two controls
overlapping or leaving the screen, the dark theme's text at least 4.5:1, and a screenshot in
``screenshots/`` (the folder the README names). ``open_link`` opens /odds, /damage or
/character from a link with settings in its query and checks the view is the link's (issue
11, section 3), so a layout test's page load also tests a shared link.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.sync_api import expect

from tb_playground.engine import check_odds
from tb_playground.engine.defense import attack_to_hit
from tb_playground.formatting import percent
from tb_playground.models import load
from tb_playground.models.files import dumps
from tb_playground.views.kit import pack_text

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"  # the folder the README names
ROSTER = ROOT / "examples" / "roster"
WIDTHS = (390, 768, 1280)

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
  // Only charts on the page: a replaced chart may linger among the document's models.
  const charts = () => [...new Set(views().map(v => v.model))]
    .filter(m => m && m.type === "Figure").map(fig => {
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
  // Computed colours: "rgb(r, g, b)", "rgba(r, g, b, a)" or, from color-mix(), "color(srgb
  // r g b / a)" with channels 0..1. Anything else throws (a colour the test cannot read).
  const rgba = (s) => {
    const srgb = s.match(/^color\\(srgb ([^)]+)\\)$/);
    const m = srgb || s.match(/^rgba?\\(([^)]+)\\)$/);
    if (!m) throw new Error("unreadable colour: " + s);
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    const k = srgb ? 255 : 1;
    return [p[0] * k, p[1] * k, p[2] * k, p.length > 3 ? p[3] : 1];
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
  // Each text's contrast against what is behind it, that background's luminance, and
  // whether it is one of the ``accent`` elements (the same bright colour in either theme).
  const contrast = (selector, accent = "") => deepAll(selector)
    .filter(el => el.getBoundingClientRect().width > 0 && el.textContent.trim())
    .map(el => {
      const bg = background(el);
      const fg = rgba(getComputedStyle(el).color);
      const shown = bg.map((v, i) => fg[i] * fg[3] + v * (1 - fg[3]));
      const [a, b] = [lum(shown), lum(bg)].sort((p, q) => q - p);
      return {text: el.textContent.trim().slice(0, 30), ratio: (a + 0.05) / (b + 0.05),
              background: lum(bg), accent: !!(accent && el.closest(accent))};
    });
  // The luminance of the page behind the navigation (every page has it): 0 black, 1 white.
  const pageBackground = () => lum(background(deepAll(".site-nav")[0]));
  // Every control's value, by its title (sliders, selects...) or its type (button groups).
  // A select's value is its option's label; a button group's, its chosen label(s).
  const controlValues = () => models()
    .map(m => [m, (m.type || "").split(".").pop()])
    .filter(([m, t]) => CONTROL.test(t) && t !== "Selection" && !t.endsWith("Button"))
    .map(([m, t]) => {
      let value = m.value;
      if (t.endsWith("ButtonGroup") && !Array.isArray(m.active)) value = m.labels[m.active];
      else if (t.endsWith("ButtonGroup")) value = m.active.map(i => m.labels[i]);
      else if (t === "Checkbox") value = m.active;
      else if (t.endsWith("Select") && Array.isArray(m.options)) {
        const o = m.options.find(o => (Array.isArray(o) ? o[0] : o) === m.value);
        value = Array.isArray(o) ? o[1] : m.value;
      }
      return {type: t, title: m.title || m.label || "", value};
    });
  return {controlBoxes, charts, moveAll, contrast, pageBackground, controlValues};
})();
"""


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of controls whose boxes share more than a pixel each way."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                found.append((a["name"], b["name"]))
    return found


def screenshot(page, name: str, width: int, theme: str, folder: Path = SHOTS) -> None:
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
    folder.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    image.save(folder / f"{name}-{width}-{theme}.png", optimize=True)


#: Text on the same bright colour in both themes (the turn banner and the current turn in the
#: order): exempt from the dark theme's "no light boxes" check, not from its contrast check.
ACCENTS = ".banner, .order span.up"


def check_layout(
    page, name: str, width: int, theme: str, text: str, min_controls: int = 5, min_texts: int = 10
) -> None:
    """At ``width``: no sideways scrolling, no overlapping controls, dark text >= 4.5:1, a picture.

    ``page`` has ``JS_HELPERS`` loaded; ``text`` is the CSS selector (inside shadow roots) of
    the tables and headlines whose contrast is measured in the dark theme. The page behind
    the navigation must be dark in the dark theme and light in the light one, and in the dark
    theme no measured text may sit on a light box (a background of luminance over 0.2, the
    ``ACCENTS`` aside): cards, chips and highlighted rows follow the theme.
    """
    page.set_viewport_size({"width": width, "height": 800})
    page.wait_for_timeout(600)
    screenshot(page, name, width, theme)  # first: a failure below leaves its picture
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll == [width, width], f"{name} at {width}px is {scroll[0]}px wide"
    boxes = page.evaluate("window.__tb.controlBoxes()")
    assert len(boxes) >= min_controls, boxes
    found = overlaps(boxes)
    assert not found, f"{name}: controls overlap at {width}px: {found}"
    for box in boxes:
        assert box["x"] >= -1 and box["x"] + box["w"] <= width + 1, (name, width, box)
    behind = page.evaluate("window.__tb.pageBackground()")
    if theme == "dark":
        assert behind < 0.05, f"{name}'s page is not dark in the dark theme ({behind:.2f})"
        ratios = page.evaluate(f"window.__tb.contrast({text!r}, {ACCENTS!r})")
        assert len(ratios) >= min_texts, (name, ratios)
        low = [r for r in ratios if r["ratio"] < 4.5]
        assert not low, f"dark theme text under 4.5:1 on {name} at {width}px: {low[:5]}"
        islands = [r for r in ratios if r["background"] > 0.2 and not r["accent"]]
        assert not islands, f"light boxes on {name}'s dark page at {width}px: {islands[:5]}"
    else:
        assert behind > 0.7, f"{name}'s page is not light in the light theme ({behind:.2f})"


def _controls(page) -> dict[str, object]:
    """Every titled control's value, and each button group's chosen label(s) under its type."""
    page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0")
    page.evaluate(JS_HELPERS)
    values: dict[str, object] = {}
    for c in page.evaluate("window.__tb.controlValues()"):
        values.setdefault(c["title"] or c["type"], []).append(c["value"])
    return values


def _odds_link(page, base: str, extra: str) -> None:
    page.goto(f"{base}/odds?element=7&difficulty=4&tier=3&advantage=1&{extra}")
    want = check_odds(7, 4, 3, 1)  # Expert, one situational source (and Expert's own)
    expect(page.locator(".odds-success .pct")).to_have_text(percent(want.p_success), timeout=30_000)
    expect(page.locator(".odds-critical .pct")).to_have_text(percent(want.p_critical))
    controls = _controls(page)
    assert controls["Element"] == [7] and controls["Difficulty"] == [4]
    assert controls["Advantage sources"] == [1]
    assert "Expert" in controls["RadioButtonGroup"]
    # A change goes into the address, so the link copied next shows it.
    page.evaluate(
        "Bokeh.documents[0].all_models.forEach(m => { if (m.title === 'Difficulty') "
        "{ m.value = 8; m.value_throttled = 8; } })"
    )
    expect(page).to_have_url(re.compile(r"difficulty=8"), timeout=20_000)
    assert "element=7" in page.url and "tier=3" in page.url


def _damage_link(page, base: str, extra: str) -> None:
    query = (
        "kind=physical&approach=Water&element=8&dice_source=weapon&weapon_rating=6"
        "&target_defense_stat=2&target_wall=5&boosts=2&cells=any&never_moira=true"
    )
    page.goto(f"{base}/damage?{query}&{extra}")
    want = attack_to_hit("physical", 8, 2, element_name="Water")
    hit = page.locator(".dmg-hit .v")
    expect(hit).to_have_text(percent(want.p_hit), timeout=30_000)
    expect(page.locator(".dmg-dice .v")).to_have_text("6")
    controls = _controls(page)
    assert controls["Water"] == [8] and controls["Weapon rating (dice)"] == [6]
    assert controls["Ki boosts per attack"] == [2]
    assert controls["Wall: Soak / Presence / Psyche"] == [5]
    groups = controls["RadioButtonGroup"]
    assert {"Physical", "Water", "Weapon", "Chance of at least one level"} <= set(groups)
    never_moira = next(k for k in controls if k.startswith("Moira"))
    assert controls[never_moira] == [True]


def _character_link(page, base: str, extra: str) -> None:
    ronan = load(ROSTER / "ronan.json")
    ronan.name, ronan.air = "Ronan from a link", 5
    query = f"sheet={pack_text(dumps(ronan, 'json'))}&boosts=2&advantage=1&vs=Nightmare"
    page.goto(f"{base}/character?{query}&{extra}")
    # Perception is Trained on Air: the link's Air 5, not the file's 3.
    want = check_odds(5, 6, 1).p_success
    cell = page.locator('.skill-odds tr[data-skill="Perception"] td.p').nth(6)
    expect(cell).to_have_text(percent(want), timeout=30_000)
    expect(page.locator(".sheet-name input")).to_have_value("Ronan from a link")
    controls = _controls(page)
    assert controls["Ki boosts"] == [2] and controls["Against"] == ["Nightmare"]
    assert "Advantage" in controls["RadioButtonGroup"]
    assert "sheet=" in page.url and "vs=Nightmare" in page.url


def open_link(page, base: str, name: str, extra: str = "") -> None:
    """Open a link to /odds, /damage or /character with settings in its query (plus ``extra``)
    and check the page shows them (issue 11, section 3: a link reproduces the view).

    The controls must show the link's settings and a headline number must be the engine's for
    them, computed here; on /odds a change must then reach the address bar.
    """
    {"odds": _odds_link, "damage": _damage_link, "character": _character_link}[name](
        page, base, extra
    )
