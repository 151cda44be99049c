"""``tb-playground serve`` (or ``python -m tb_playground serve``): serve every page (issue 34).

Runs Panel's own ``panel serve`` on the page files shipped in the package
(``tb_playground/pages/``), with the landing page at ``/`` (``--index index``) and the server's
setup (``--setup tb_playground/serve_setup.py``: the fixes, the limits, the GM link printed at
start). Every option after ``serve`` goes to ``panel serve`` as it is (``--port``,
``--address``, ``--allow-websocket-origin``, ...); one given twice, the last wins, so an option
typed here overrides the defaults above. ``tb-playground serve --help`` prints them all.

On Linux and other POSIX systems the command starts Python again with
``PYTHONMALLOC=malloc MALLOC_ARENA_MAX=2`` unless they are already set: they let the server
hand the memory of closed pages back to the system (docs/notes/0009-combat-panel.md); both must
be in place before Python starts.
"""

from __future__ import annotations

import os
import sys
from importlib import resources

USAGE = """\
usage: tb-playground serve [panel serve options]

Serve every page of the 20 Below playground (the landing page at /, /odds, /character, /damage,
/encounter, /lab, /gm, /table, /rules) in one process, then open http://localhost:5006.
Options are panel serve's, for example:
  --port 5006                          the port to listen on
  --address 0.0.0.0                    listen on every address (phones on the same network)
  --allow-websocket-origin=HOST:5006   the address the phones use
`tb-playground serve --help` lists every option.
"""

#: What the memory of closed pages needs from the start (README, "serve-command").
MEMORY_ENV = {"PYTHONMALLOC": "malloc", "MALLOC_ARENA_MAX": "2"}


def serve_argv(options: list[str]) -> list[str]:
    """The ``panel serve`` command line that serves every page with the setup.

    Parameters
    ----------
    options : list of str
        ``panel serve`` options, passed on as they are after the defaults.

    Returns
    -------
    list of str
        ``["panel", "serve", PAGE FILES..., "--index", "index", "--setup", SETUP, *options]``.
    """
    from tb_playground.pages import page_files

    setup = resources.files("tb_playground") / "serve_setup.py"
    pages = [str(path) for path in page_files()]
    return ["panel", "serve", *pages, "--index", "index", "--setup", str(setup), *options]


def _restart_with_memory_env(args: list[str]) -> None:
    """Start this command again with ``MEMORY_ENV`` set (POSIX only; the same process id)."""
    if os.name != "posix" or all(name in os.environ for name in MEMORY_ENV):
        return
    env = {**MEMORY_ENV, **os.environ}  # a value the user set wins
    os.execve(sys.executable, [sys.executable, "-m", "tb_playground", *args], env)


def main(argv: list[str] | None = None) -> int:
    """Run ``tb-playground``: ``serve`` and ``panel serve``'s options, or ``--help``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the command's name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 after ``--help``, 2 for a missing or unknown command (the server
        itself runs until it is stopped).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if not args or args[0] != "serve":
        what = f"unknown command {args[0]!r}" if args else "no command given"
        print(f"tb-playground: {what}; the command is 'serve'.\n\n{USAGE}", file=sys.stderr, end="")
        return 2
    if "-h" not in args and "--help" not in args:
        _restart_with_memory_env(args)
    from panel.command import main as panel_main

    sys.argv = serve_argv(args[1:])
    panel_main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
