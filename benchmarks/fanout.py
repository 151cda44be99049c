"""A page for ``bench_combat.py pages``: the server's own clock on a GM action's fan-out.

Served next to the combat pages (``panel serve apps/gm.py apps/table.py benchmarks/fanout.py``).
The first time it runs in a process it wraps two methods, for the benchmark only:

- Bokeh's ``WSHandler.on_message``: when each browser message reached the server;
- ``TableSession.send`` and ``TableSession._refresh``: when a page sent a table command, and when
  each page's refresh had written its update to that page's websocket (and its CPU time);
- asyncio's ``Handle._run``: every event-loop step longer than 2 ms, with its CPU time and
  what ran (``BENCH_VERBOSE=1`` prints those of each action: a step whose wall time is far
  above its CPU time waited for a core).

Each record is one line of JSON appended to the file named by ``BENCH_FANOUT_FILE`` (the
benchmark reads it between actions, so no page load competes with the pages it measures):
``["received", t]``, ``["sent", t, command type]``, ``["refreshed", t, role, seat, cpu]``,
``["slow", t, ms, what]`` and ``["gc", t, ms, generation]`` (each collection of the cyclic
garbage collector), with CPU times in ms and ``t`` in epoch milliseconds, the clock the
browsers' ``performance.timeOrigin`` uses. With ``BENCH_PROFILE=file`` every refresh runs under
``cProfile`` and the stats are saved to that file every 45 refreshes (a diagnostic: it slows
them). Opening ``/fanout`` once installs the wrappers. Not
part of the site.
"""

import asyncio.events
import gc
import json
import os
import sys
import time
import types

import panel as pn
from bokeh.server.views import ws

from tb_playground.views.combat.combat_session import TableSession

_NAME = "_tb_bench_fanout"


def _install(now=time.time, cpu_now=time.thread_time) -> types.ModuleType:
    """The process's record (wrapping the methods once per process, not once per session).

    The wrappers use only local names: Bokeh clears a served script's globals once its
    session is done, and these outlive it.
    """
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    rec = types.ModuleType(_NAME)
    out = open(os.environ["BENCH_FANOUT_FILE"], "a", buffering=1)  # noqa: SIM115 - the process's
    dumps = json.dumps

    def write(*record):
        out.write(dumps(record) + "\n")

    rec.write = write
    on_message, send, refresh = ws.WSHandler.on_message, TableSession.send, TableSession._refresh

    async def timed_on_message(self, fragment):
        write("received", now() * 1000)
        return await on_message(self, fragment)

    def timed_send(self, command, expected_version=None):
        write("sent", now() * 1000, command.get("type"))
        return send(self, command, expected_version)

    profile_to = os.environ.get("BENCH_PROFILE")
    profile = __import__("cProfile").Profile() if profile_to else None
    refreshes = [0]

    def timed_refresh(self):
        cpu = cpu_now()
        if profile is None:
            refresh(self)
        else:
            profile.runcall(refresh, self)
            refreshes[0] += 1
            if refreshes[0] % 45 == 0:
                profile.dump_stats(profile_to)
        write("refreshed", now() * 1000, self.role, self.seat, (cpu_now() - cpu) * 1000)

    run = asyncio.events.Handle._run

    def timed_run(self):
        t, c = now(), cpu_now()
        run(self)
        d = (now() - t) * 1000
        if d > 2:
            task = getattr(self._callback, "__self__", None)
            coro = getattr(task, "get_coro", lambda: None)()
            where = getattr(coro, "cr_code", None) or getattr(self._callback, "__code__", None)
            name = (
                f"{where.co_qualname} {where.co_filename.rsplit('/', 2)[-1]}"
                if where
                else repr(self._callback)[:80]
            )
            write("slow", t * 1000, d, f"cpu {(cpu_now() - c) * 1000:.0f} {name}")

    gc_began = [0.0]

    def gc_timer(phase, info):
        if phase == "start":
            gc_began[0] = now()
        else:
            write("gc", gc_began[0] * 1000, (now() - gc_began[0]) * 1000, info["generation"])

    gc.callbacks.append(gc_timer)
    asyncio.events.Handle._run = timed_run
    ws.WSHandler.on_message = timed_on_message
    TableSession.send = timed_send
    TableSession._refresh = timed_refresh
    sys.modules[_NAME] = rec
    return rec


_install()
pn.pane.HTML("recording", css_classes=["fanout"]).servable()
