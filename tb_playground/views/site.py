"""The site around the pages: one template, navigation on every page, the landing page, Rules.

Every page is built by ``page(title, main)``: Panel's ``FastListTemplate`` with the project's
colours, the mobile viewport meta tag (without it a phone lays the page out 980 px wide and
shrinks it), and a bar of links to every page at the top of the main area. ``landing_page`` is
served at ``/`` (``panel serve apps/*.py --index index``): one card per page, with a sentence
and a picture. ``rules_page`` shows the rule texts that ship with the package.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from importlib import resources

import panel as pn

from tb_playground.models.switches import switches_markdown
from tb_playground.texts import DIGEST, SOURCES, rules_names, rules_text

from .format import MARKDOWN_TABLE_CSS

#: The project's name, as a player would say it.
PROJECT = "20 Below playground"

#: The accent colour of every page.
ACCENT = "#2e8b57"

#: The mobile viewport: lay the page out at the device's width, unzoomed.
VIEWPORT = "width=device-width, initial-scale=1"

#: What a page's ``?theme=`` may say, and Panel's theme for it. Panel knows only "default" and
#: "dark"; "light" is what a person types for the first. Anything else is the default.
THEMES = {"default": "default", "light": "default", "dark": "dark"}


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

#: The navigation bar's CSS (inside its pane's shadow root).
NAV_CSS = """
nav { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline;
  padding: 4px 0 8px; border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
a { text-decoration: none; color: inherit; white-space: nowrap; padding: 2px 0; }
a:hover { text-decoration: underline; }
a.home { font-weight: 600; }
a[aria-current="page"] { border-bottom: 3px solid #2e8b57; }
"""

#: Site-wide CSS for a phone: the header's title shrinks and wraps onto two lines instead of
#: pushing the header wider than the screen, and a sidebar of controls sits above the page,
#: full width, instead of beside it (the menu button still hides it).
SITE_CSS = """
@media (max-width: 600px) {
  #header .title { font-size: 1.05em; line-height: 1.2; white-space: normal; flex: 1 1 auto;
    min-width: 0; max-height: 2.4em; overflow: hidden; }
  #header-items { flex: 0 1 auto; width: auto; min-width: 0; }
  #content { flex-direction: column; height: auto; width: 100%; }
  #sidebar { min-width: 0 !important; max-width: none !important; width: auto; height: auto;
    border-right: 0; border-bottom: 2px solid var(--neutral-fill-rest); }
  #main { height: auto; overflow-y: visible; padding: 0 6px; }
}
"""


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


def page(
    title: str,
    main: list,
    sidebar: list | None = None,
    current: str | None = None,
    raw_css: list[str] | None = None,
    heading: str | None = None,
    **kwargs,
) -> pn.template.BaseTemplate:
    """One page of the site: the shared template with the navigation on top of ``main``.

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
    **kwargs
        Passed to ``pn.template.FastListTemplate`` (``sidebar_width``, ``main_max_width``...).

    Returns
    -------
    pn.template.FastListTemplate
    """
    options = {"sidebar": sidebar} if sidebar else {}
    use_known_theme()
    return pn.template.FastListTemplate(
        title=heading or f"20 Below: {title}",
        main=[nav(current), *main],
        accent=ACCENT,
        meta_viewport=VIEWPORT,
        meta_description=f"{PROJECT}: {title}",
        raw_css=[SITE_CSS, *(raw_css or [])],
        **options,
        **kwargs,
    )


def picture_uri(name: str) -> str | None:
    """A picture from ``tb_playground/static/`` as a ``data:`` URI, or None if it is missing."""
    path = resources.files("tb_playground") / "static" / name
    if not path.is_file():
        return None
    kind = "jpeg" if name.endswith(".jpg") else "png"
    return f"data:image/{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


#: The landing page's cards: a grid that is one column on a phone (inside the pane's shadow root).
LANDING_CSS = """
.landing .intro { max-width: 60em; font-size: 1.1em; }
.landing .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr));
  gap: 16px; }
.landing a.card { display: block; text-decoration: none; color: inherit; border-radius: 8px;
  border: 1px solid rgba(128, 128, 128, 0.35); overflow: hidden; }
.landing a.card:hover { border-color: #2e8b57; }
.landing a.card img { display: block; width: 100%; aspect-ratio: 16 / 10; object-fit: cover;
  object-position: top left; border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
.landing a.card h2 { font-size: 1.2em; margin: 10px 12px 4px; }
.landing a.card p { margin: 0 12px 12px; }
"""


def landing_html() -> str:
    """The landing page's content: what the project is, and one card per page."""
    cards = []
    for info in PAGES:
        uri = picture_uri(info.picture)
        image = (
            f'<img src="{uri}" alt="The {html.escape(info.title)} page" loading="lazy">'
            if uri
            else ""
        )
        cards.append(
            f'<a class="card card-{info.route}" href="./{info.route}">{image}'
            f"<h2>{html.escape(info.title)}</h2><p>{html.escape(info.summary)}</p></a>"
        )
    intro = (
        "<p class='intro'>Pages to try the rules of <b>20 Below</b>, the tabletop game where "
        "every check is two ten-sided dice that must come in at or under a target number. Every "
        "number shown is exact, worked out from the rules.</p>"
    )
    return f'<div class="landing">{intro}<div class="cards">{"".join(cards)}</div></div>'


def landing_page() -> pn.template.BaseTemplate:
    """The page at ``/``: the project's name, and a card per page with its picture."""
    content = pn.pane.HTML(
        landing_html(),
        css_classes=["landing-pane"],
        sizing_mode="stretch_width",
        stylesheets=[LANDING_CSS],
    )
    return page(PROJECT, [content], heading=PROJECT)


def _digest_markdown() -> str:
    # The digest is Markdown; any raw HTML in it is shown as text, never run.
    return rules_text(DIGEST).replace("&", "&amp;").replace("<", "&lt;")


def rules_switches_markdown() -> str:
    """The Rules page's section on the switches: one row per Ruleset switch."""
    return (
        "## The switches\n\nEach is off by default (the reading of rules/000 and 004); a sheet, "
        "an encounter or the rules lab can turn it on.\n\n" + switches_markdown()
    )


def switches_pane() -> pn.pane.Markdown:
    """The switches' table as a pane (``rules_switches_markdown``)."""
    return pn.pane.Markdown(
        rules_switches_markdown(),
        css_classes=["rules-switches"],
        sizing_mode="stretch_width",
        stylesheets=[MARKDOWN_TABLE_CSS],
    )


def rules_page() -> pn.template.BaseTemplate:
    """The "Rules" page: the digest, then each source text in a section of its own."""
    digest = pn.pane.Markdown(
        _digest_markdown(),
        css_classes=["rules-digest"],
        sizing_mode="stretch_width",
        stylesheets=[MARKDOWN_TABLE_CSS],
    )
    sources = []
    for name in rules_names()[1:]:
        number = name[:3]
        body = pn.pane.HTML(
            f'<pre class="rules-text">{html.escape(rules_text(name))}</pre>',
            css_classes=[f"rules-{number}"],
            sizing_mode="stretch_width",
            stylesheets=[".rules-text { white-space: pre-wrap; overflow-wrap: anywhere; }"],
        )
        sources.append(
            pn.Card(
                body,
                title=f"rules/{number}: {SOURCES.get(number, name)}",
                collapsed=True,
                sizing_mode="stretch_width",
                css_classes=["rules-source"],
            )
        )
    intro = pn.pane.Markdown(
        "The digest below is what the pages implement; where the texts disagree it says which "
        "reading is the default and which are switches. The source texts follow (pages cite "
        "them as rules/000 to rules/004). Open a text below to read it whole.",
        sizing_mode="stretch_width",
    )
    return page("Rules", [intro, digest, switches_pane(), *sources], current="rules")
