"""The one page shell: every page is ``page(title, main, ...)``, with the navigation on top.

The site's pages get Panel's ``FastListTemplate`` with the project's colours, the header and
its theme switch, and the mobile viewport meta tag (without it a phone lays the page out 980 px
wide and shrinks it). The combat pages (``light=True``) get a bare template with the same
viewport tag and navigation and nothing else: a phone at the table holds less per page
(note 0009). Every page says "Connection lost, reconnecting..." when the server is gone and
comes back by itself (``keep_connected``, note 0018). ``PAGES`` lists every page for the
navigation and the landing page.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import panel as pn
from bokeh.models import CustomJS
from panel.theme.fast import Fast as PanelFast

from . import patches, refused_changes
from .css import NAV_CSS, SITE_CSS
from .js import script

#: The project's name, as a player would say it.
PROJECT = "20 Below playground"

#: The accent colour of every page.
ACCENT = "#2e8b57"

#: The mobile viewport: lay the page out at the device's width, unzoomed.
VIEWPORT = "width=device-width, initial-scale=1"

#: What a page's ``?theme=`` may say, and Panel's theme for it. Panel knows only "default" and
#: "dark"; "light" is what a person types for the first. Anything else is the default.
THEMES = {"default": "default", "light": "default", "dark": "dark"}


#: The pages' font: the device's own (no web font to fetch; issue 34).
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"


class Fast(PanelFast):
    """Panel's Fast design without its web font (Open Sans from Google's servers).

    Every page asked for it; offline (a table without internet) the request failed and the
    page fell back quietly to another font. The pages use the device's own font (``FONT``)
    instead (issue 34). The class keeps the name ``Fast``: Panel builds the addresses of the
    design's own files from it.
    """

    _resources = {kind: res for kind, res in PanelFast._resources.items() if kind != "font"}


@dataclass(frozen=True)
class PageInfo:
    """One page of the site.

    Attributes
    ----------
    route : str
        Its address under the server (``/odds``), without the slash.
    title : str
        Its name in the navigation and on its card.
    summary : str
        One sentence a player understands: what the page is for.
    picture : str
        The file name of its picture in ``tb_playground/static/``.
    """

    route: str
    title: str
    summary: str
    picture: str


#: Every page, in the order the navigation and the landing page list them.
PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "odds",
        "Roll-under playground",
        "Move an Element, a Difficulty, a training tier and Advantage, and watch the exact odds "
        "of a 2d10 roll-under check change.",
        "odds.jpg",
    ),
    PageInfo(
        "damage",
        "Damage against walls",
        "Pick an attack and a target: the chance to hit, how many levels get over the wall, "
        "what each Ki boost is worth and how many rounds the target lasts.",
        "damage.jpg",
    ),
    PageInfo(
        "character",
        "Character sheet",
        "Fill in a character and see Defenses, Vitals, Ki and every Skill's odds follow; save "
        "it as a file and load it again.",
        "character.jpg",
    ),
    PageInfo(
        "encounter",
        "Encounter planner",
        "Pick the party and the foes and how each side plays: the chance each side wins, in "
        "how many rounds, how often a character goes down, and who does the damage.",
        "encounter.jpg",
    ),
    PageInfo(
        "gm",
        "GM dashboard",
        "Run a fight: open a table from an encounter file, reveal the brackets, resolve each "
        "attack step by step with its exact odds. Needs the GM key the server prints.",
        "gm.jpg",
    ),
    PageInfo(
        "table",
        "At the table",
        "For the players' phones: join with the GM's code, pick your seat, declare in secret and "
        "see your odds before every roll.",
        "table.jpg",
    ),
    PageInfo(
        "lab",
        "Rules lab",
        "Pick a rules reading and see exactly what it changes: odds and damage side by side, "
        "what Advantage is worth as a flat bonus, who wins the same fight, and the quick "
        "reference tables.",
        "lab.jpg",
    ),
    PageInfo(
        "rules",
        "Rules",
        "The rules these pages follow: the digest, and the texts it quotes.",
        "rules.jpg",
    ),
)


def nav_html(current: str | None = None) -> str:
    """The navigation bar: the project's name (home, ``/``) and a link to every page.

    Links are relative (``./odds``), so they work under any prefix the server is given.
    """
    links = [f'<a class="home" href="./">{html.escape(PROJECT)}</a>']
    for info in PAGES:
        here = ' aria-current="page"' if info.route == current else ""
        links.append(
            f'<a class="nav-{info.route}" href="./{info.route}"{here}>{html.escape(info.title)}</a>'
        )
    return f'<nav aria-label="Pages">{"".join(links)}</nav>'


def theme_from_query(arguments: dict[str, list[bytes]]) -> str:
    """The Panel theme a page's query asks for: "dark" or "default".

    ``?theme=light`` is the default theme, and so is a missing, empty or unknown value (a
    shared link with ``?theme=blue`` shows the page, not an error). Case, spaces and quotes
    around the value do not matter.

    Parameters
    ----------
    arguments : dict of str to list of bytes
        The request's query arguments (``pn.state.session_args``).
    """
    values = arguments.get("theme") or [b""]
    value = values[0].decode("utf-8", "replace").strip().strip("'\"").strip().lower()
    return THEMES.get(value, "default")


def use_known_theme() -> str:
    """Rewrite this session's ``?theme=`` to a theme Panel knows, and return it.

    Panel reads the query itself, in two places: the page template looks the value up and
    fails on one it does not know (``?theme=light`` gave an error page), and ``pn.config.theme``
    (the widgets' and charts' theme) falls back to the default. Writing the value back into
    the session's arguments, before the template is made, gives both the same known theme.
    """
    arguments = pn.state.session_args
    theme = theme_from_query(arguments)
    if "theme" in arguments:
        arguments["theme"] = [theme.encode("ascii")]
    return theme


def nav(current: str | None = None) -> pn.pane.HTML:
    """The navigation bar as a pane (its own object in each session)."""
    return pn.pane.HTML(
        nav_html(current),
        css_classes=["site-nav"],
        sizing_mode="stretch_width",
        margin=(0, 10),
        stylesheets=[NAV_CSS],
    )


#: The combat pages' bare template: the viewport tag, the page, and the URL's ``location``.
#: Panel 1.10 gives a page its theme (the ``--panel-*`` colours) as the template's stylesheets
#: rather than each component's, so the bare template links them (Panel 1.9 has them twice).
LIGHT_TEMPLATE = """{% extends base %}
{% block preamble %}
<meta name="viewport" content="width=device-width, initial-scale=1">
{% if template_resources is defined %}{% for css in template_resources['css'].values() %}
<link rel="stylesheet" href="{{ css }}">{% endfor %}{% endif %}
{% endblock %}
{% block contents %}{{ embed(roots.main) }}{{ embed(roots.location) }}
{% if notifications %}{{ embed(roots.notifications) }}{% endif %}{% endblock %}"""

#: What an open page says while the server is unreachable (Panel adds the seconds left).
DISCONNECTED = "Connection lost, reconnecting..."


#: Browser side, each time the connection is lost: (1) the session token the page reconnects
#: with gets the address bar's arguments, so the session a restarted server makes for it
#: opens what the page showed (the table, the join code, the seat the page added to its
#: address), not what it was first opened with (Bokeh's token keeps the first); only an
#: unsigned token, as ``panel serve`` makes by default, can be changed; (2) once Bokeh's five
#: tries (over about 30 s) are spent, try again every 5 s, so a server that takes longer to
#: come back still finds its pages.
RECONNECT_JS = script("reconnect.js")


def keep_connected() -> None:
    """Make the session's page say when the server is gone, and reconnect (issue 21).

    Panel's reconnect support: Bokeh tries again at once, then after 2, 4, 8 and 16 s, and
    then every 5 s (``RECONNECT_JS``); a server that came back makes the page anew for the
    address the browser shows (the table, the code and the seat the page put there).
    """
    if pn.state.curdoc is None or pn.state.curdoc.session_context is None:
        return  # a notebook or a test: no server to lose
    patches.install()  # the fixes under served pages, if the server's setup did not (issue 29)
    refused_changes.install()  # a forged value: one log line, not two tracebacks (issue 33)
    doc = pn.state.curdoc
    declared = doc in pn.state._extensions_  # the app's script called pn.extension in it
    # As ``pn.extension`` (its "notifications" loads the toaster's script for this session).
    pn.extension("notifications", disconnect_notification=DISCONNECTED, reconnect=True)
    if not declared:
        # Nothing named this session's extensions (a page served without its app script):
        # Panel then sends the script of every extension imported, the Tabulator's among them.
        # ``pn.extension`` just started a list holding "notifications" alone, so the sheet's
        # tables failed ("Tabulator is not defined") and the page stopped rendering; drop it.
        del pn.state._extensions_[doc]
    parts = patches.reconnect_js_parts()  # the parts shown on the BokehJS served
    doc.js_on_event("connection_lost", CustomJS(code=RECONNECT_JS, args=parts))
    if str(getattr(doc.session_context.request, "path", "")).endswith("/ws"):
        # A session a reconnecting page made (no HTML page was served for it): Panel leaves its
        # stylesheets on its CDN, out of reach of a table without internet; use the server's.
        doc.add_next_tick_callback(lambda: _served_stylesheets(doc))
        # Nor does the page say "loaded" again (it was, long ago): without this, ``pn.state.onload``
        # callbacks and periodic callbacks never started and events held for the page were never
        # sent (the planner's Run showed nothing, its address stayed as before the restart).
        doc.add_next_tick_callback(lambda: pn.state._schedule_on_load(doc, None))


def _served_stylesheets(doc) -> None:
    """Point the stylesheets of ``doc``'s models at the server's copies (as a served page)."""
    from panel.io.resources import LOCAL_DIST, patch_model_css

    for root in doc.roots:
        patch_model_css(root, dist_url=LOCAL_DIST)


def page(
    title: str,
    main: list,
    sidebar: list | None = None,
    current: str | None = None,
    raw_css: list[str] | None = None,
    heading: str | None = None,
    light: bool = False,
    **kwargs,
) -> pn.template.BaseTemplate:
    """One page of the site: a template with the navigation on top of ``main``.

    Parameters
    ----------
    title : str
        The page's name, shown after "20 Below: " in the header and the browser tab.
    main : list
        What the page shows.
    sidebar : list, optional
        Controls for the template's sidebar (a menu button on a phone).
    current : str, optional
        The page's route, marked in the navigation.
    raw_css : list of str, optional
        The page's own CSS, added to the site's.
    heading : str, optional
        The whole header and tab title instead of "20 Below: " + ``title``.
    light : bool, optional
        The bare template of the combat pages: no header, sidebar or theme switch; the tab
        title is set when the page loads.
    **kwargs
        Passed to ``pn.template.FastListTemplate`` (``sidebar_width``, ``main_max_width``...).

    Returns
    -------
    pn.template.BaseTemplate
    """
    keep_connected()  # every page says when the server is gone, and comes back (issue 21)
    if light:
        return _light_page(main, heading or f"20 Below: {title}", current)
    options = {"sidebar": sidebar} if sidebar else {}
    use_known_theme()
    template = pn.template.FastListTemplate(
        title=heading or f"20 Below: {title}",
        main=[nav(current), *main],
        accent=ACCENT,
        design=Fast,
        font=FONT,
        meta_viewport=VIEWPORT,
        meta_description=f"{PROJECT}: {title}",
        raw_css=[SITE_CSS, *(raw_css or [])],
        **options,
        **kwargs,
    )
    on_session_end(lambda: patches.forget_busy_indicator(template.busy_indicator))
    return template


def _light_page(main: list, title: str, current: str | None) -> pn.Template:
    """``main`` under the navigation, on a bare page phones lay out at their own width."""
    dark = use_known_theme() == "dark"
    theme = pn.theme.DarkTheme if dark else pn.theme.DefaultTheme
    template = pn.Template(LIGHT_TEMPLATE, location=True, theme=theme)
    template.add_panel("main", pn.Column(nav(current), *main, sizing_mode="stretch_width"))
    if pn.state.notifications is not None:  # "Connection lost, reconnecting..." (keep_connected)
        template.add_panel("notifications", pn.state.notifications)
        template.add_variable("notifications", True)
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        pn.state.onload(lambda: setattr(doc, "title", title))
    return template


def on_session_end(callback: Callable[[], None]) -> None:
    """Run ``callback`` when this browser session ends (nothing outside a served session)."""
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.state.on_session_destroyed(lambda _context: callback())
