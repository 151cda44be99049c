"""A page for the memory benchmark: the serving process's memory, as one line of JSON.

Served next to the combat pages by ``bench_combat.py sessions`` (``panel serve apps/gm.py
apps/table.py benchmarks/memstats.py``); a client session opens ``/memstats`` and reads the text
of its one pane. Not part of the site.

Reports, after a full ``gc.collect()``: the resident set (``rss_mb``), the traced Python heap
(``traced_mb``, when the server runs with ``PYTHONTRACEMALLOC``), pymalloc's allocated blocks,
and what is still alive: Bokeh Documents and models, combat pages and table sessions. With
``?trim=1`` it first asks glibc to give freed heap back to the system (``malloc_trim``).
"""

import ctypes
import gc
import json
import tracemalloc

import panel as pn
from bokeh.document import Document
from bokeh.model import Model

from tb_playground.service import get_service
from tb_playground.views.combat_session import TableSession
from tb_playground.views.gm_page import GMPage
from tb_playground.views.table_page import TablePage


def rss_mb(kind: str = "VmRSS") -> float:
    """The resident set in MB ("VmRSS"), or its anonymous ("RssAnon") or file ("RssFile") part."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(f"{kind}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def stats(trim: bool) -> dict:
    gc.collect()
    if trim:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    alive = {"documents": 0, "models": 0, "pages": 0, "table_sessions": 0}
    for o in gc.get_objects():
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
        **alive,
    }


if pn.state.served:
    trim = (pn.state.session_args.get("trim") or [b""])[0] == b"1"
    pn.pane.Str(json.dumps(stats(trim)), css_classes=["memstats"]).servable()
