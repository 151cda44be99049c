"""A page for the memory benchmark: the serving process's memory, as one line of JSON.

Served next to the combat pages by ``bench_combat.py sessions`` (``panel serve apps/gm.py
apps/table.py benchmarks/memstats.py``); a client session opens ``/memstats`` and reads the text
of its one pane. Not part of the site.

Reports, after a full ``gc.collect()``: the resident set (``rss_mb``), the traced Python heap
(``traced_mb``, when the server runs with ``PYTHONTRACEMALLOC``), pymalloc's allocated blocks,
and what is still alive: Bokeh Documents and models, combat pages and table sessions, the
count of each type the garbage collector tracks (``kinds``); and the C
heap's bytes in use and free (glibc's ``mallinfo2``). With ``?trim=1`` it first asks glibc to
give freed heap back to the system (``malloc_trim``). Under ``PYTHONTRACEMALLOC=8``,
``?snap=start`` keeps a snapshot of the traced heap and ``?snap=diff`` lists what was allocated
since and is still alive (``survivors``), by traceback.
"""

import ctypes
import gc
import json
import tracemalloc

import panel as pn
from bokeh.document import Document
from bokeh.model import Model

from tb_playground.service import get_service
from tb_playground.views.combat.combat_session import TableSession
from tb_playground.views.combat.gm_page import GMPage
from tb_playground.views.combat.table_page import TablePage


def rss_mb(kind: str = "VmRSS") -> float:
    """The resident set in MB ("VmRSS"), or its anonymous ("RssAnon") or file ("RssFile") part."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(f"{kind}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]  # fmt: skip


def malloc_mb() -> dict:
    """The C heap (glibc): bytes in use (small chunks and mmapped blocks) and free."""
    try:
        fn = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return {}
    fn.restype = _Mallinfo2
    info = fn()
    return {
        "malloc_used_mb": (info.uordblks + info.hblkhd) / 2**20,
        "malloc_free_mb": info.fordblks / 2**20,
    }


def stats(trim: bool) -> dict:
    gc.collect()
    if trim:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    alive = {"documents": 0, "models": 0, "pages": 0, "table_sessions": 0}
    kinds: dict[str, int] = {}
    for o in gc.get_objects():
        kind = f"{type(o).__module__}.{type(o).__qualname__}"
        kinds[kind] = kinds.get(kind, 0) + 1
        if isinstance(o, Document):
            alive["documents"] += 1
        elif isinstance(o, Model):
            alive["models"] += 1
        elif isinstance(o, GMPage | TablePage):
            alive["pages"] += 1
        elif isinstance(o, TableSession):
            alive["table_sessions"] += 1
    return {
        "rss_mb": rss_mb(),
        "rss_anon_mb": rss_mb("RssAnon"),
        "rss_file_mb": rss_mb("RssFile"),
        "traced_mb": tracemalloc.get_traced_memory()[0] / 2**20
        if tracemalloc.is_tracing()
        else None,
        "blocks": __import__("sys").getallocatedblocks(),
        "live_sessions": len(get_service().sessions),
        "gc_tracked": len(gc.get_objects()),
        "gc_frozen": gc.get_freeze_count(),
        **malloc_mb(),
        **alive,
        "kinds": kinds,
    }


#: The traced heap at ``?snap=start`` (``?snap=diff`` compares with it); this script runs
#: afresh in each session, so the snapshot lives in Panel's process-wide cache.
_SNAPSHOT: list = pn.state.cache.setdefault("memstats_snapshot", [])


def survivors(top: int = 25) -> list[str]:
    """What the traced heap holds now that it did not at ``?snap=start``, biggest first."""
    gc.collect()
    own = tracemalloc.Filter(False, tracemalloc.__file__)
    now = tracemalloc.take_snapshot().filter_traces([own])
    diff = now.compare_to(_SNAPSHOT[0], "traceback")
    out = []
    for stat in diff[:top]:
        frames = " | ".join(
            f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in stat.traceback[:6]
        )
        out.append(f"{stat.size_diff / 1024:+.1f} KiB {stat.count_diff:+d} {frames}")
    return out


#: Objects a chain of referrers may stop at: what the server's threads and loop hold.
_ROOT_TYPES = ("Thread", "Server", "Task", "TimerHandle", "Handle", "_UnixSelectorEventLoop")


def owners(kind: str, sample: int = 3000) -> list[tuple[int, str]]:
    """Who refers to the objects of type ``kind`` (a sample): referrer types, most first."""
    gc.collect()
    found = [o for o in gc.get_objects() if f"{type(o).__module__}.{type(o).__qualname__}" == kind]
    counts: dict[str, int] = {}
    chosen = found[-sample:]

    def label(ref, obj) -> str:
        text = f"{type(ref).__module__}.{type(ref).__qualname__}"
        if isinstance(ref, dict):
            keys = [k for k, v in ref.items() if v is obj][:1]
            text += f"[{str(keys[0])[:30]!r}]" if keys else ""
        return text

    skip = (found, chosen)
    for obj in chosen:
        for ref in gc.get_referrers(obj):
            if any(ref is s for s in skip) or (isinstance(ref, list) and len(ref) > 10000):
                continue
            text = label(ref, obj)
            if isinstance(ref, dict):  # one step further: what holds the dict
                up = [r for r in gc.get_referrers(ref) if not any(r is s for s in skip)][:1]
                text += " in " + (label(up[0], ref) if up else "?")
            counts[text] = counts.get(text, 0) + 1
    examples = [repr(o)[:80] for o in chosen[:: max(1, len(chosen) // 5)]]
    counts.update({f"example {e}": 0 for e in examples})
    for obj in chosen[:1]:  # the chain above one of them
        cur, steps = obj, []
        for _ in range(8):
            up = [
                r
                for r in gc.get_referrers(cur)
                if not any(r is s for s in skip)
                and not (isinstance(r, list) and len(r) > 10000)
                and r is not steps
            ]
            if not up:
                break
            cur = up[0]
            size = len(cur) if hasattr(cur, "__len__") else "-"
            steps.append(f"{type(cur).__qualname__} len {size}")
        counts["chain " + " / ".join(steps)] = 0
    del chosen
    del found
    ranked = sorted(((n, k) for k, n in counts.items() if n), reverse=True)[:15]
    return ranked + [(0, k) for k, n in counts.items() if not n]


def holders(depth: int = 40, kind: str = "") -> list[str]:
    """For each page or table session still alive, one chain of referrers up to a root."""
    import inspect
    import sys
    import types

    gc.collect()
    roots = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    out = []
    if kind:
        targets = [o for o in gc.get_objects()
                   if f"{type(o).__module__}.{type(o).__qualname__}" == kind][:3]  # fmt: skip
    else:
        targets = [o for o in gc.get_objects() if isinstance(o, GMPage | TablePage | TableSession)]
    for target in targets:
        seen = {id(target)}
        objs, paths = [target], [[type(target).__qualname__]]
        found = None
        for _ in range(depth):
            next_objs, next_paths = [], []
            for i in range(len(objs)):
                obj, path = objs[i], paths[i]
                for ref in gc.get_referrers(obj):
                    if ref is objs or ref is next_objs or ref is targets:
                        continue
                    if inspect.isframe(ref):
                        if ref.f_code.co_name in ("holders", "stats", "<module>"):
                            continue
                        found = [*path, f"frame({ref.f_code.co_name} {ref.f_code.co_filename})"]
                        break
                    if id(ref) in seen or (isinstance(ref, list) and len(ref) > 10000):
                        continue  # gc.get_objects() lists
                    seen.add(id(ref))
                    label = type(ref).__qualname__
                    if isinstance(ref, dict):
                        keys = [k for k, v in ref.items() if v is obj][:1]
                        label += f"[{keys[0]!r}]" if keys else ""
                    elif isinstance(ref, types.FunctionType | types.MethodType):
                        label += f"({getattr(ref, '__qualname__', '')})"
                    if id(ref) in roots or type(ref).__name__ in _ROOT_TYPES:
                        found = [*path, label]
                        break
                    next_objs.append(ref)
                    next_paths.append([*path, label])
                if found:
                    break
            if found or not next_objs:
                break
            objs, paths = next_objs[:400], next_paths[:400]
        out.append(" FROM ".join(found or paths[0]))
    out += _unexplained(targets)
    del targets
    return out


def _unexplained(targets: list) -> list[str]:
    """Objects that reach ``targets`` and are held by more than the collector can see.

    Running frames (3.11 keeps them outside the collector) and C structures hold references
    ``gc.get_referrers`` never lists: such an object's reference count exceeds its referrers.
    """
    import sys

    closure: dict[int, object] = {id(t): t for t in targets}
    todo = list(targets)
    while todo and len(closure) < 200_000:
        obj = todo.pop()
        for ref in gc.get_referrers(obj):
            if id(ref) in closure or ref is todo or ref is targets or isinstance(ref, type(sys)):
                continue
            if isinstance(ref, list) and len(ref) > 10000:
                continue
            if type(ref).__name__ == "frame":
                continue
            closure[id(ref)] = ref
            todo.append(ref)
    out = [f"closure of {len(closure)} objects"]
    for tid, frame in sys._current_frames().items():
        f = frame
        while f is not None:
            hits = [k for k, v in f.f_locals.items() if id(v) in closure]
            if hits:
                out.append(
                    f"thread {tid} frame {f.f_code.co_name} ({f.f_code.co_filename}:"
                    f"{f.f_lineno}) holds {hits}"
                )
            f = f.f_back
    from bokeh.io.state import curstate

    bk = curstate().document
    out.append(
        f"bokeh curstate().document reaches them: {id(bk) in closure} "
        f"destroyed={not hasattr(bk, '_roots')} context={bk.session_context!r}"
    )
    from panel.io.state import state as pstate

    for name in ("_curdoc",):
        var = getattr(pstate, name, None)
        got = var.get() if hasattr(var, "get") else var
        out.append(f"panel state.{name} reaches them: {id(got) in closure}")
    counted = []
    for obj in list(closure.values()):
        refs = gc.get_referrers(obj)
        n = len([r for r in refs if not isinstance(r, list) or (r is not todo and len(r) <= 10000)])
        extra = sys.getrefcount(obj) - 2 - n
        if extra > 0:
            counted.append(f"{type(obj).__module__}.{type(obj).__qualname__} +{extra}")
    out += counted[:40]
    return out


if pn.state.served:
    args = {k: v[0].decode() for k, v in pn.state.session_args.items()}
    result = stats(args.get("trim") == "1")
    if tracemalloc.is_tracing() and args.get("snap") == "start":
        gc.collect()
        _SNAPSHOT[:] = [tracemalloc.take_snapshot()]
    elif _SNAPSHOT and args.get("snap") == "diff":
        result["survivors"] = survivors()
    if args.get("owners"):
        result["owners"] = owners(args["owners"])
    if args.get("why"):
        result["holders"] = holders(kind="" if args["why"] == "1" else args["why"])
    pn.pane.Str(json.dumps(result), css_classes=["memstats"]).servable()
