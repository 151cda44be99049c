"""How long a malformed command or file takes to be refused (issue 21: no call over 100 ms).

Run: ``python benchmarks/bench_fuzz.py [--commands 20000] [--files 5000]``. Sends the malformed
commands of ``tests/table/test_table_fuzz.py`` (every role, tables in four phases) through
``Table.apply`` and the malformed files of ``tests/models/test_file_fuzz.py`` through ``loads`` (or
``validate_document`` for data no text can hold), timing each call. Prints the median, p99 and
maximum call time of each, and the slowest files timed again (best of 3: on a busy machine a
single time may hold another process's turn).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import test_file_fuzz as ff  # noqa: E402
import test_table_fuzz as tf  # noqa: E402

from tb_playground.models import files  # noqa: E402

#: The target: no refusal takes longer (issue 21).
TARGET_MS = 100.0


def commands(n: int) -> list[tuple[float, str]]:
    """(seconds, what) of ``n`` malformed commands, each refused or taken."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tables = [tf.make_table(tmp, phase, 0) for phase in tf.PHASES]
        rng = random.Random(21)
        for i in range(n):
            k = i % len(tables)
            command, expected, role, seat, _names, _repaired = tf.malformed(rng, tables[k].version)
            start = time.perf_counter()
            try:
                tables[k].apply(command, role, seat, expected_version=expected)
                taken = True
            except tf.ALLOWED:
                taken = False
            took = time.perf_counter() - start
            kind = command.get("type") if isinstance(command, dict) else type(command).__name__
            out.append((took, f"{str(kind)[:20]} from {role} in {tf.PHASES[k]}"))
            if taken:  # a fresh table keeps the phase under test
                tables[k] = tf.make_table(tmp, tf.PHASES[k], i + 1)
    return out


def _load(text: str | None, fmt: str | None, doc: dict) -> None:
    if text is not None and (fmt != "yaml" or len(text) < files.MAX_YAML_CHARACTERS):
        try:
            files.loads(text, fmt)
        except ValueError:
            pass
    else:
        files.validate_document(doc)


def documents(n: int) -> list[tuple[float, str]]:
    """(seconds, what, again) of ``n`` malformed files, each refused; ``again()`` re-times it."""
    docs = ff._docs()
    rng = random.Random(21)
    out = []
    for _ in range(n):
        doc = json.loads(json.dumps(rng.choice(docs)))
        if rng.random() < 0.15:
            doc["kind"] = rng.choice(ff.KIND_BAD)
            where = "kind"
        else:
            keys, where = rng.choice(ff._places(doc))
            ff._put(doc, keys, rng.choice(ff.DATA_BAD if rng.random() < 0.5 else ff.TEXT_BAD))
        try:
            text, fmt = ff._text(doc, rng)
        except (TypeError, ValueError, RecursionError):
            text, fmt = None, "data"
        start = time.perf_counter()
        _load(text, fmt, doc)
        took = time.perf_counter() - start
        size = f"{len(text):,} characters" if text is not None else "data"

        def again(text=text, fmt=fmt, doc=doc) -> float:
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                _load(text, fmt, doc)
                best = min(best, time.perf_counter() - start)
            return best

        # Only the slowest cases keep their file (thousands kept alive would slow the
        # collector, and so every later call).
        out.append((took, f"{fmt or 'guessed'} {size}, bad {where}", again))
        if len(out) % 500 == 0:
            keep = {id(t) for t in sorted(out, key=lambda t: t[0])[-5:]}
            out = [t if id(t) in keep else t[:2] for t in out]
    return out


def report(name: str, timed: list[tuple]) -> bool:
    ms = sorted(t[0] * 1e3 for t in timed)
    p99 = ms[int(len(ms) * 0.99)]
    print(
        f"{name}: {len(ms):,} calls, median {statistics.median(ms):.2f} ms, "
        f"p99 {p99:.2f} ms, max {ms[-1]:.1f} ms (target: none over {TARGET_MS:.0f} ms)"
    )
    slowest = sorted(timed, key=lambda t: t[0], reverse=True)[:5]
    for took, what, *again in slowest:
        best = f"  (again, best of 3: {again[0]() * 1e3:.1f} ms)" if again else ""
        print(f"   {took * 1e3:7.1f} ms  {what}{best}")
    return ms[-1] <= TARGET_MS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=tf.N_COMMANDS)
    parser.add_argument("--files", type=int, default=ff.N_FILES)
    args = parser.parse_args()
    ok = report("commands", commands(args.commands))
    ok = report("files", documents(args.files)) and ok
    print("every call within the target" if ok else "SOME CALLS OVER THE TARGET")


if __name__ == "__main__":
    main()
