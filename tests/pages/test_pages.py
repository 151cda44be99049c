"""The pages the installed command serves and ``tb-playground`` itself (issue 34).

``tb_playground/pages/`` ships one two-line file per page (``serve("NAME")``) and ``apps/`` in a
checkout holds the same; ``tb-playground serve`` runs Panel's server on the packaged files with
the landing page at ``/`` and the setup. The command served from an installed wheel, outside
the checkout, is tests/test_wheel.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tb_playground import __main__ as cli
from tb_playground.pages import NAMES, page_files, serve
from tb_playground.views.kit.shell import PAGES

ROOT = Path(__file__).resolve().parents[2]


def _serve_call(path: Path) -> str | None:
    """The page name a file passes to ``serve``, if it calls it."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "serve":
            return node.args[0].value
    return None


def test_every_page_of_the_navigation_has_a_page_file():
    assert NAMES == ("index", *(p.route for p in PAGES))
    files = page_files()
    assert [f.stem for f in files] == list(NAMES)
    assert all(f.is_file() and _serve_call(f) == f.stem for f in files)


def test_the_apps_run_the_same_pages():
    apps = sorted((ROOT / "apps").glob("*.py"))
    assert sorted(a.stem for a in apps) == sorted(NAMES)
    assert all(_serve_call(a) == a.stem for a in apps)


def test_an_unknown_page_is_named_in_the_error():
    with pytest.raises(ValueError, match="no page named 'odd'"):
        serve("odd")


def test_the_serve_command_runs_panel_serve_on_every_page_with_the_setup():
    argv = cli.serve_argv(["--port", "5100", "--address", "0.0.0.0"])
    assert argv[:2] == ["panel", "serve"]
    pages = argv[2 : 2 + len(NAMES)]
    assert pages == [str(f) for f in page_files()]
    rest = argv[2 + len(NAMES) :]
    setup = ROOT / "tb_playground" / "serve_setup.py"
    assert rest[:4] == ["--index", "index", "--setup", str(setup)]
    # The user's options come last, so one given again wins over the defaults.
    assert rest[4:] == ["--port", "5100", "--address", "0.0.0.0"]


def test_help_and_bad_commands(capsys):
    assert cli.main(["--help"]) == 0
    assert "tb-playground serve" in capsys.readouterr().out
    assert cli.main([]) == 2
    assert "no command given" in capsys.readouterr().err
    assert cli.main(["serv"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'serv'" in err and "the command is 'serve'" in err


def test_the_server_starts_with_the_memory_settings(monkeypatch):
    started = []
    monkeypatch.setattr(cli.os, "execve", lambda *args: started.append(args))
    for name in cli.MEMORY_ENV:
        monkeypatch.delenv(name, raising=False)
    cli._restart_with_memory_env(["serve", "--port", "5100"])
    ((_python, argv, env),) = started
    assert argv[1:] == ["-m", "tb_playground", "serve", "--port", "5100"]
    assert env["PYTHONMALLOC"] == "malloc" and env["MALLOC_ARENA_MAX"] == "2"
    started.clear()
    monkeypatch.setenv("PYTHONMALLOC", "pymalloc")  # what a user sets is kept, no restart
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    cli._restart_with_memory_env(["serve"])
    assert not started
