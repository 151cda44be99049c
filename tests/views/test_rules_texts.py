"""The rule texts ship with the package (issue 10): a clone, a wheel and a page all have them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import panel as pn
import pytest
from panel.theme import DarkTheme, DefaultTheme

import tb_playground
from tb_playground import rules_names, rules_text
from tb_playground.views.kit import PAGES, nav_html, page
from tb_playground.views.site import at_a_glance_html, landing_html, rules_page

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tb_playground"


def test_every_text_is_there_digest_first():
    names = rules_names()
    assert names[0] == "RULES.md"
    assert [n[:4] for n in names[1:]] == ["000_", "001_", "002_", "003_", "004_"]
    for name in names:
        assert (PACKAGE / "rules" / name).is_file()


@pytest.mark.parametrize(
    ("name", "opening"),
    [
        ("RULES.md", "# 20 Below: the rules the engine implements"),
        ("000", "Chapter 4"),
        ("rules/004_2b8a935f13ec3ac4.txt", "Four pages, meant to be printed"),
        ("004_2b8a935f13ec3ac4.txt", "Four pages, meant to be printed"),
        ("rules/002", None),
    ],
)
def test_rules_text_opens_a_text_by_name_or_number(name, opening):
    text = rules_text(name)
    assert len(text) > 1000
    if opening:
        assert opening in text[:200]


def test_the_packaged_copy_matches_the_shared_one_when_there_is_one():
    shared = Path("/work/shared")
    if not shared.is_dir():  # a clone elsewhere: only the packaged copy exists
        return
    assert rules_text() == (shared / "RULES.md").read_text(encoding="utf-8")
    for name in rules_names()[1:]:
        assert rules_text(name) == (shared / "rules" / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["../../pyproject.toml", "/etc/passwd", "005", "", 3, None])
def test_rules_text_refuses_anything_else(name):
    with pytest.raises(ValueError, match="name must be"):
        rules_text(name)


def test_the_texts_and_pictures_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["tb_playground"]
    shipped = {p.relative_to(PACKAGE).as_posix() for pat in patterns for p in PACKAGE.glob(pat)}
    assert {f"rules/{n}" for n in rules_names()} <= shipped
    assert {f"static/{info.picture}" for info in PAGES} <= shipped
    assert tb_playground.rules_text is rules_text


def test_the_navigation_links_every_page_and_escapes_nothing_it_should_not():
    html = nav_html("damage")
    assert html.count("<a ") == len(PAGES) + 1
    assert 'href="./"' in html and 'aria-current="page"' in html
    for info in PAGES:
        assert f'href="./{info.route}"' in html


def test_the_landing_page_has_a_card_and_a_picture_per_page():
    html = landing_html()
    for info in PAGES:
        assert f'class="card card-{info.route}" href="./{info.route}"' in html
    assert html.count('<img src="data:image/jpeg;base64,') == len(PAGES)


def test_no_page_or_readme_cites_a_path_outside_the_project():
    for path in [ROOT / "README.md", *ROOT.glob("examples/*.ipynb"), *PACKAGE.rglob("*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize(
    ("query", "theme"),
    [
        (None, "default"),
        (b"light", "default"),  # what a person types; Panel's name is "default"
        (b"default", "default"),
        (b"dark", "dark"),
        (b" Dark ", "dark"),
        (b"'dark'", "dark"),
        (b"blue", "default"),  # unknown: the default, never an error page
        (b"", "default"),
        (b"\xff", "default"),
    ],
)
def test_a_page_takes_any_theme_in_its_address(monkeypatch, query, theme):
    """``?theme=light`` (or anything unknown) gives the light page, where Panel's template
    raised KeyError (and a widget, UnicodeDecodeError on bytes that are not UTF-8); the
    template, the widgets' theme (``pn.config.theme``) and the session's arguments then all
    say the same known theme."""
    arguments = {"theme": [query]} if query is not None else {}
    monkeypatch.setattr(type(pn.state), "session_args", property(lambda self: arguments))
    template = page("Odds", [], current="odds")  # nothing built before it, as in apps/
    assert template.theme is {"default": DefaultTheme, "dark": DarkTheme}[theme]
    assert pn.config.theme == theme
    assert arguments.get("theme", [theme.encode()]) == [theme.encode()]


def test_every_app_reads_the_theme_before_it_builds_a_widget():
    # A widget picks its theme when it is made, from the address: the page fixes it up first.
    # Every page is ``pages.serve(NAME)`` (issue 34), in apps/ and in the package alike.
    text = (ROOT / "tb_playground" / "pages" / "__init__.py").read_text(encoding="utf-8")
    assert 0 < text.find("use_known_theme()") < text.find("pn.extension(")
    for path in sorted(
        [*(ROOT / "apps").glob("*.py"), *(ROOT / "tb_playground/pages").glob("*.py")]
    ):
        if path.name != "__init__.py":
            assert f'serve("{path.stem}")' in path.read_text(encoding="utf-8"), path


def test_the_rules_page_opens_on_at_a_glance():
    """Issue 34: /rules opened on a table of hashed file names, not on "At a Glance"."""
    glance = at_a_glance_html()
    assert "Low is good." in glance and "keep the lowest two" in glance
    assert "<td>55%</td>" in glance and "Getting Around" not in glance
    first = rules_page().main[1]  # after the navigation
    assert first.objects[1].object == glance
