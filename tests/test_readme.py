"""Every Python block of the README runs as printed, on its own, and runs again (issue 22).

Each block is executed in a fresh namespace (as one notebook cell pasted into a new notebook),
twice, from a temporary working folder; the numbers its comments promise are checked here.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^ *```python\n(.*?)^ *```$", README.read_text(encoding="utf-8"), re.M | re.S)


def run(block: str) -> tuple[dict, str]:
    """Run one block as a cell: its namespace and what it printed."""
    namespace: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    return namespace, out.getvalue()


def test_the_readme_has_its_blocks():
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_block_runs_on_its_own_and_again(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = run(BLOCKS[index])
    second = run(BLOCKS[index])
    assert first[1] == second[1]


def test_the_blocks_print_what_their_comments_say(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace, printed = run(BLOCKS[1])
    assert printed.strip() == "TN 11: success 55.0%"
    assert str(namespace["roll_odds"](11).exact("success")) == "11/20"
    _, printed = run(BLOCKS[2])
    assert printed.strip() == "declare"
    namespace, printed = run(BLOCKS[3])
    result = namespace["result"]
    numbers = [float(n) for n in re.findall(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", printed)]
    expected = [result.p_win["Party"], *result.p_win_interval["Party"], result.rounds.mean]
    assert numbers == pytest.approx(expected, rel=1e-9)
    assert expected[1] <= expected[0] <= expected[2]
