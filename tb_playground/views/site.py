"""The site's own pages: the landing page and the Rules.

``landing_page`` is served at ``/`` (``panel serve apps/*.py --index index``): one card per page
(``kit.PAGES``), with a sentence and a picture. ``rules_page`` shows the rule texts that ship
with the package. Every page's template and navigation are ``kit.page`` (``views/kit/shell.py``).
"""

from __future__ import annotations

import base64
import html
from importlib import resources

import panel as pn

from tb_playground.models.switches import switches_markdown
from tb_playground.texts import DIGEST, SOURCES, rules_names, rules_text

from .kit import (
    LANDING_CSS,
    MARKDOWN_TABLE_CSS,
    PAGES,
    PROJECT,
    RULES_TEXT_CSS,
    TABLE_CSS,
    page,
)


def picture_uri(name: str) -> str | None:
    """A picture from ``tb_playground/static/`` as a ``data:`` URI, or None if it is missing."""
    path = resources.files("tb_playground") / "static" / name
    if not path.is_file():
        return None
    kind = "jpeg" if name.endswith(".jpg") else "png"
    return f"data:image/{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


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


#: Where rules/004's "At a Glance" starts, and the heading of its next section.
GLANCE_START, GLANCE_END = "20 Below at a Glance", "Getting Around"

#: rules/004's headings inside "At a Glance" (shown as headings, not paragraphs).
GLANCE_HEADINGS = ("Advantage and Disadvantage", "What Your Target Is Worth")


def at_a_glance_html() -> str:
    """rules/004's "20 Below at a Glance", the core roll on one page, as HTML (issue 34).

    The text's own words (004:3-37), escaped: a tab-separated line is a table row, a heading
    of the text a heading, any other line a paragraph. The Rules page opens on it.
    """
    text = rules_text(next(n for n in rules_names() if n.startswith("004")))
    lines = text.split(GLANCE_START, 1)[1].split(GLANCE_END, 1)[0].splitlines()
    parts: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            head, *body = rows
            cells = "".join(f"<th>{html.escape(c)}</th>" for c in head)
            trs = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in body
            )
            parts.append(f'<table class="tb glance-table"><tr>{cells}</tr>{trs}</table>')
            rows.clear()

    for line in (raw.strip() for raw in lines):
        if "\t" in line:
            rows.append(line.split("\t"))
            continue
        flush()
        if line in GLANCE_HEADINGS:
            parts.append(f"<h3>{html.escape(line)}</h3>")
        elif line:
            parts.append(f"<p>{html.escape(line)}</p>")
    flush()
    return f'<div class="glance">{"".join(parts)}</div>'


def rules_page() -> pn.template.BaseTemplate:
    """The "Rules" page: "At a Glance", the digest, then each source text in its own section."""
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
            stylesheets=[RULES_TEXT_CSS],
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
    glance = pn.Column(
        pn.pane.Markdown("## 20 Below at a Glance", margin=(0, 10)),
        pn.pane.HTML(
            at_a_glance_html(),
            css_classes=["rules-glance"],
            sizing_mode="stretch_width",
            stylesheets=[TABLE_CSS],
        ),
        pn.pane.Markdown(
            "The game's own quick reference (rules/004). Below it: the digest the pages "
            "follow, which says which reading is the default where the texts disagree, the "
            "switches, and each source text whole.",
            sizing_mode="stretch_width",
        ),
        sizing_mode="stretch_width",
    )
    return page("Rules", [glance, digest, switches_pane(), *sources], current="rules")
