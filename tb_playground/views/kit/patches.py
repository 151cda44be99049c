"""Every runtime patch of Panel's, Bokeh's and Tornado's internals, in one place (issue 29).

A patch is the last resort (the project's standards): each one here fixes a race or a gap
found under the pages, has a test that fails without it (``tests/views/test_patches.py``), and a
report an upstream maintainer can file as it stands (``docs/upstream/``). Each is a ``Patch``:
the versions it was shown on and, for each, the internal names it uses. ``install()`` puts a
patch in place only where the installed libraries have one of those versions *and* every one
of those names; anywhere else the patch stays out and says so in one log line (a new release
may have fixed the race, or moved what the patch relies on: its test tells which).

Who installs them: the server's setup (``serve_setup.py``), a page served by a server started
without it (``views/kit/shell.keep_connected``), and the tests' fixtures; never an import. The
one patch for notebooks (``notebook_inline_updates``) is put in place by
``tb_playground.views.notebook.extension``, which the lessons call instead of
``pn.extension``.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import math
import re
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial, wraps
from importlib import metadata
from pathlib import Path

from tb_playground import guard

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shown:
    """Versions a patch was shown on, and the internal names it uses with them.

    Parameters
    ----------
    versions : dict
        Distribution name -> exact version (``{"panel": "1.9.4"}``).
    names : tuple of str
        ``"module:attribute.path"`` for what must exist on the module, and
        ``"module:Class().attribute"`` for an attribute every instance gets in ``__init__``.
    """

    versions: dict[str, str]
    names: tuple[str, ...]


@dataclass
class Patch:
    """One runtime patch: what it fixes, where it was shown, how it is put in place.

    Parameters
    ----------
    name : str
        Its name in logs, tests and ``docs/upstream/<name>.md``.
    fixes : str
        What goes wrong without it, in a line.
    shown : tuple of Shown
        The version sets it was shown on (one must match).
    apply : callable
        Puts the patch in place, given the ``Shown`` that matched.
    upstream : bool
        Whether the race is still present upstream on a shown version (a report to file).
    """

    name: str
    fixes: str
    shown: tuple[Shown, ...]
    apply: Callable[[Shown], None]
    upstream: bool = True
    state: str = field(default="not tried")

    def match(self) -> tuple[Shown | None, str]:
        """The ``Shown`` the installed libraries match, or None and the reason why not."""
        reasons = []
        for shown in self.shown:
            installed = {dist: _version(dist) for dist in shown.versions}
            if installed != shown.versions:
                have = ", ".join(f"{d} {v}" for d, v in installed.items())
                reasons.append(have)
                continue
            missing = [name for name in shown.names if not _exists(name)]
            if missing:
                return None, f"{', '.join(missing)} missing"
            return shown, ""
        wanted = " or ".join(
            ", ".join(f"{d} {v}" for d, v in s.versions.items()) for s in self.shown
        )
        return None, f"shown on {wanted}, installed {reasons[0] if reasons else '?'}"


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _exists(name: str) -> bool:
    """Whether the internal ``name`` (see ``Shown``) exists in the installed library."""
    module_name, _, path = name.partition(":")
    try:
        target = importlib.import_module(module_name)
    except ImportError:
        return False
    parts = path.split(".")
    for i, part in enumerate(parts):
        if part.endswith("()"):  # an attribute every instance gets in __init__
            cls = getattr(target, part[:-2], None)
            attribute = parts[i + 1]
            return cls is not None and _init_sets(cls, attribute)
        if not hasattr(target, part):
            return False
        target = getattr(target, part)
    return True


def _init_sets(cls: type, attribute: str) -> bool:
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        try:
            source = inspect.getsource(init)
        except (OSError, TypeError):
            continue
        if re.search(rf"self\.{re.escape(attribute)}\b\s*(:[^=]*)?=", source):
            return True
    return False


# -- 1. Changes made while a browser renders the page (Panel 1.9) ---------------------------------


def _held_changes_reach_a_pulled_page(shown: Shown) -> None:
    from bokeh.document.events import DocumentPatchedEvent, MessageSentEvent
    from panel.io import document

    from .ticks import next_tick, on_the_loop_of

    drain = document._drain_unconnected_events

    @wraps(drain)
    def _drain_unconnected_events(doc, lock):
        session = getattr(getattr(doc, "session_context", None), "_session", None)
        if not getattr(session, "_subscribed_connections", None):
            return drain(doc, lock)  # no browser: the document goes out in full later
        with lock:  # the model changes out; the rest as Panel sorts it
            patches, rest = [], []
            for event in doc.callbacks._held_events or []:
                if isinstance(event, DocumentPatchedEvent) and not isinstance(
                    event, MessageSentEvent
                ):
                    patches.append(event)
                else:
                    rest.append(event)
            doc.callbacks._held_events = rest
        now = drain(doc, lock)
        if patches and session._pending_writes is not None and on_the_loop_of(doc):
            now.extend(patches)  # in the document's lock, on its thread: Bokeh writes them next
        elif patches:  # another thread, or outside the lock: on the document's next tick
            next_tick(doc, partial(document.retrigger_events, doc, patches))
        return now

    document._drain_unconnected_events = _drain_unconnected_events


HELD_CHANGES = Patch(
    name="held-changes-before-ready",
    fixes="a change made while a browser draws the page never reaches it (Panel 1.9)",
    shown=(
        Shown(
            {"panel": "1.9.4", "bokeh": "3.9.2"},
            (
                "panel.io.document:_drain_unconnected_events",
                "panel.io.document:_UNCONNECTED_EVENTS",
                "panel.io.document:retrigger_events",
                "bokeh.document.callbacks:DocumentCallbackManager()._held_events",
                "bokeh.server.contexts:BokehSessionContext()._session",
                "bokeh.server.session:ServerSession()._subscribed_connections",
                "bokeh.server.session:ServerSession()._pending_writes",
            ),
        ),
    ),
    apply=_held_changes_reach_a_pulled_page,
    upstream=False,  # Panel 1.10 keeps them once the document was sent (_client_has_document)
)


# -- 2. Panel's queued websocket writes, none left behind (Panel 1.9 and 1.10) -------------------


def _queued_writes_are_written(shown: Shown) -> None:
    from panel.io import document

    queue = next(n.rsplit(":", 1)[1] for n in shown.names if n.endswith(("_MSGS", "_EVENTS")))
    dispatch = document._dispatch_msgs

    @wraps(dispatch)
    async def _dispatch_msgs(doc) -> None:
        if doc in getattr(document, queue) and doc not in document._WRITE_BLOCK:
            log.info("queued messages without the write flag: written now (Panel would wait)")
            document._WRITE_BLOCK[doc] = True
        await dispatch(doc)

    _dispatch_msgs._tb_wraps = dispatch
    document._dispatch_msgs = _dispatch_msgs


QUEUED_WRITES = Patch(
    name="queued-writes-left-behind",
    fixes="messages queued while an earlier write is awaited stay unsent until the next change",
    shown=(
        Shown(
            {"panel": "1.9.4"},
            (
                "panel.io.document:_dispatch_msgs",
                "panel.io.document:_WRITE_MSGS",
                "panel.io.document:_WRITE_BLOCK",
            ),
        ),
        Shown(
            {"panel": "1.10.0"},
            (
                "panel.io.document:_dispatch_msgs",
                "panel.io.document:_WRITE_EVENTS",
                "panel.io.document:_WRITE_BLOCK",
            ),
        ),
    ),
    apply=_queued_writes_are_written,
)


# -- 3. A websocket closed while its session opens is let go (Bokeh 3.9 and 3.10) ----------------

#: Set on a handler by ``on_close``: the connection it released (None: none existed yet).
_RELEASED = "_tb_released"


def _closed_socket_lets_go(shown: Shown) -> None:
    from bokeh.server.views import ws

    handler = ws.WSHandler
    async_open, on_close = handler._async_open, handler.on_close

    @wraps(on_close)
    def _on_close(self) -> None:
        if self.connection is not None and getattr(self, _RELEASED, None) is self.connection:
            return  # released by ``_async_open`` below: Bokeh's would find no session
        setattr(self, _RELEASED, self.connection)
        on_close(self)

    @wraps(async_open)
    async def _async_open(self, token: str) -> None:
        try:
            await async_open(self, token)
        finally:
            closed_before = hasattr(self, _RELEASED) and getattr(self, _RELEASED) is None
            if closed_before and self.connection is not None:
                log.info("a websocket closed while its session opened: its connection released")
                setattr(self, _RELEASED, self.connection)
                self.connection.session.notify_connection_lost()
                self.application.client_lost(self.connection)

    handler._async_open, handler.on_close = _async_open, _on_close


_WS_NAMES = (
    "bokeh.server.views.ws:WSHandler._async_open",
    "bokeh.server.views.ws:WSHandler.on_close",
    "bokeh.server.views.ws:WSHandler().connection",
    "bokeh.server.tornado:BokehTornado.client_lost",
    "bokeh.server.session:ServerSession.notify_connection_lost",
)

CLOSED_WHILE_OPENING = Patch(
    name="socket-closed-while-opening",
    fixes="a websocket closed while its session is made keeps that session (and a seat) forever",
    shown=(Shown({"bokeh": "3.9.2"}, _WS_NAMES), Shown({"bokeh": "3.10.2"}, _WS_NAMES)),
    apply=_closed_socket_lets_go,
)


# -- 4. No Referer leaves a page; no traceback reaches a browser ---------------------------------


def _no_referrer(shown: Shown) -> None:
    import tornado.web

    clear = tornado.web.RequestHandler.clear

    @wraps(clear)
    def clear_and_set(self):
        clear(self)
        self.set_header("Referrer-Policy", "no-referrer")

    tornado.web.RequestHandler.clear = clear_and_set


NO_REFERRER = Patch(
    name="no-referrer",
    fixes="a page opened from /gm?key= would send the key to any site it links to (Referer)",
    shown=(
        Shown({"tornado": "6.6.1"}, ("tornado.web:RequestHandler.clear",)),
        Shown({"tornado": "6.5.2"}, ("tornado.web:RequestHandler.clear",)),
    ),
    apply=_no_referrer,
    upstream=False,  # a policy of this project's, not a defect of Tornado's
)


def _no_tracebacks(shown: Shown) -> None:
    error = importlib.import_module("bokeh.protocol.messages.error")  # the package hides it
    make = error.error.create.__func__

    def plain(cls, request_id, text, **metadata):
        log.warning("websocket message refused: %s", text)
        made = make(cls, request_id, "The server could not handle that message.", **metadata)
        made.content["traceback"] = None
        return made

    error.error.create = classmethod(plain)


NO_TRACEBACKS = Patch(
    name="no-tracebacks-to-browsers",
    fixes="a message the server cannot handle answers the browser with a traceback and paths",
    shown=(
        Shown({"bokeh": "3.9.2"}, ("bokeh.protocol.messages.error:error.create",)),
        Shown({"bokeh": "3.10.2"}, ("bokeh.protocol.messages.error:error.create",)),
    ),
    apply=_no_tracebacks,
    upstream=False,  # Bokeh sends tracebacks by design; this server shows none to players
)


# -- 5. The server's setup: its settings, a limit on page loads, model ids apart ------------------

#: The server's settings the README's command relies on (``server_settings``); the flag of the
#: same name on ``panel serve``'s command line wins.
SERVER_SETTINGS = {
    # --unused-session-lifetime: a session whose page never opened its websocket (a plain GET,
    # a crawler, a script looping on the page) is dropped after 5 s, checked every second.
    "unused_session_lifetime_milliseconds": 5_000,
    # --check-unused-sessions
    "check_unused_sessions_milliseconds": 1_000,
    # --websocket-max-message-size: an upload within ``kit.MAX_UPLOAD`` fits (base64 makes it a
    # third bigger); a bigger message closes its connection before it is read.
    "websocket_max_message_size_bytes": 4 * 1024 * 1024,
    # --session-token-expiration: a page open all evening reconnects after a restart (its token
    # makes the new session); Bokeh's default of 5 minutes would refuse it.
    "session_token_expiration": 7 * 24 * 3600,
}

_DEFAULT_NAMES = {
    "unused_session_lifetime_milliseconds": "DEFAULT_UNUSED_LIFETIME_MS",
    "check_unused_sessions_milliseconds": "DEFAULT_CHECK_UNUSED_MS",
    "websocket_max_message_size_bytes": "DEFAULT_WEBSOCKET_MAX_MESSAGE_SIZE_BYTES",
    "session_token_expiration": "DEFAULT_SESSION_TOKEN_EXPIRATION",
}


def _server_settings(shown: Shown) -> None:
    from bokeh.server import tornado

    init = tornado.BokehTornado.__init__
    defaults = {key: getattr(tornado, name) for key, name in _DEFAULT_NAMES.items()}

    @wraps(init)
    def with_settings(self, *args, **kwargs):
        for key, ours in SERVER_SETTINGS.items():
            if kwargs.get(key, defaults[key]) == defaults[key]:
                kwargs[key] = ours
        init(self, *args, **kwargs)

    tornado.BokehTornado.__init__ = with_settings


_SETTINGS_NAMES = ("bokeh.server.tornado:BokehTornado.__init__",) + tuple(
    f"bokeh.server.tornado:{name}" for name in _DEFAULT_NAMES.values()
)

SETTINGS = Patch(
    name="server-settings",
    fixes="`--setup` runs before the server exists: its settings go on the server's constructor",
    shown=(Shown({"bokeh": "3.9.2"}, _SETTINGS_NAMES), Shown({"bokeh": "3.10.2"}, _SETTINGS_NAMES)),
    apply=_server_settings,
    upstream=False,
)

#: How long a request refused as "too many" (a client over ``guard.MAX_PACE``) waits for its
#: answer: a client looping on a page then asks about once a second per connection, not
#: hundreds of times (``bench_loads.py``: 4 looping clients cost the loop 850 refusals a second).
REFUSED_WAIT = 1.0

#: What a client over ``guard.PageLoads``' pace is told (HTTP 429): only a client with more
#: than ``guard.MAX_PACE`` seconds of requests queued, never a person clicking through.
TOO_MANY_PAGES = "Too many pages opened from your browser at once: wait a moment, then reload."

#: The counter of page loads the installed limit uses (tests read ``refused`` and ``paced``),
#: and the gate its builds go through.
PAGE_LOADS: list[guard.PageLoads] = []
PAGE_GATES: list[guard.PageGate] = []

#: A year: the browser id's cookie lasts as long as the browser keeps it.
BROWSER_COOKIE_AGE = 365 * 24 * 3600


def _limit_page_loads(shown: Shown) -> None:
    from panel.io import server

    loads = guard.PageLoads(burst=guard.page_burst_from_env())
    gate = guard.PageGate()
    PAGE_LOADS[:], PAGE_GATES[:] = [loads], [gate]
    original = server.DocHandler.get

    @wraps(original)
    async def get(self, *args, **kwargs):
        # Who asks (issue 33, item 2): a browser by the id the server gave it, else an address;
        # a request without a valid id gets one now, which the page's session sees too.
        address = str(self.request.remote_ip or "unknown")
        cookie = self.request.cookies.get(guard.BROWSER_COOKIE)
        known = guard.browser_id(cookie.value if cookie is not None else None) is not None
        client = guard.client_key(address, cookie.value) if known else address
        wait = loads.reserve(client, browser=known)
        if wait is None:  # over the pace by more than MAX_PACE: a script's queue
            await asyncio.sleep(REFUSED_WAIT)
            self.set_status(429)
            self.set_header("Retry-After", str(math.ceil(guard.MAX_PACE)))
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(TOO_MANY_PAGES)
            return None
        if not known:
            value = guard.new_browser_cookie()
            self.set_cookie(guard.BROWSER_COOKIE, value, path="/", httponly=True,
                            samesite="Lax", max_age=BROWSER_COOKIE_AGE)  # fmt: skip
            self.request.cookies[guard.BROWSER_COOKIE] = value
        if wait > 0:  # its turn comes later: no session is made meanwhile
            await asyncio.sleep(wait)
        # One build at a time, the least busy client's first (issue 33, item 9).
        await gate.enter(loads.used(client))
        try:
            return await original(self, *args, **kwargs)
        finally:
            gate.leave()

    server.DocHandler.get = get


_LOAD_NAMES = ("panel.io.server:DocHandler.get",)

PAGE_LOAD_LIMIT = Patch(
    name="page-load-limit",
    fixes="a script looping plain GETs keeps the event loop busy (issues 21 and 33)",
    shown=(Shown({"panel": "1.9.4"}, _LOAD_NAMES), Shown({"panel": "1.10.0"}, _LOAD_NAMES)),
    apply=_limit_page_loads,
    upstream=False,
)


def _model_ids_apart(shown: Shown) -> None:
    from bokeh.util import serialization

    with serialization._simple_id_lock:
        serialization._simple_id = max(serialization._simple_id, int(time.time()) * 1_000_000)


_ID_NAMES = ("bokeh.util.serialization:_simple_id", "bokeh.util.serialization:_simple_id_lock")

MODEL_IDS = Patch(
    name="model-ids-apart",
    fixes="an old page's change after a restart lands on an unrelated model of the same number",
    shown=(Shown({"bokeh": "3.9.2"}, _ID_NAMES), Shown({"bokeh": "3.10.2"}, _ID_NAMES)),
    apply=_model_ids_apart,
)


# -- 6. Notebooks: every update's stylesheets inline (Panel 1.9) ----------------------------------

#: Per document, the inline copy of each of Panel's stylesheets (one Bokeh model, so an update
#: that sends the same stylesheets again changes nothing in the browser).
_INLINED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _inline_updates(shown: Shown) -> None:
    import panel as pn
    from bokeh.models import ImportedStyleSheet, InlineStyleSheet
    from panel.io.resources import CDN_DIST, DIST_DIR
    from panel.reactive import Reactive

    def _inlined(stylesheets: list, doc) -> list:
        cache = _INLINED.setdefault(doc, {}) if doc is not None else {}
        result = []
        for sheet in stylesheets:
            url = str(sheet.url) if isinstance(sheet, ImportedStyleSheet) else ""
            path = Path(DIST_DIR) / url[len(CDN_DIST) :].split("?")[0]
            if url.startswith(CDN_DIST) and path.is_file():
                if path not in cache:
                    cache[path] = InlineStyleSheet(css=path.read_text(encoding="utf-8"))
                sheet = cache[path]
            result.append(sheet)
        return result

    if "panel.io.notebook:replace_inline_css" in shown.names:  # Panel 1.10: its own cache
        from panel.io.notebook import replace_inline_css

        def inlined(stylesheets: list, doc) -> list:
            cache = pn.state._inline_stylesheets.setdefault(doc, {}) if doc is not None else {}
            return [
                replace_inline_css(sheet, cache) if isinstance(sheet, ImportedStyleSheet) else sheet
                for sheet in stylesheets
            ]
    else:
        inlined = _inlined

    def offline(doc) -> bool:  # inline mode, and a document no server serves
        return bool(pn.config.inline) and not (doc is not None and doc.session_context)

    get_properties, update_properties = Reactive._get_properties, Reactive._update_properties

    @wraps(get_properties)
    def _get_properties(self, doc, *args, **kwargs):
        properties = get_properties(self, doc, *args, **kwargs)
        if "stylesheets" in properties and offline(doc):
            properties["stylesheets"] = inlined(properties["stylesheets"], doc)
        return properties

    @wraps(update_properties)
    def _update_properties(self, *events, doc, **kwargs):
        properties = update_properties(self, *events, doc=doc, **kwargs)
        if "stylesheets" in properties and offline(doc):
            properties["stylesheets"] = inlined(properties["stylesheets"], doc)
        return properties

    Reactive._get_properties, Reactive._update_properties = _get_properties, _update_properties


_INLINE_NAMES = (
    "panel.reactive:Reactive._get_properties",
    "panel.reactive:Reactive._update_properties",
    "panel.io.resources:CDN_DIST",
    "panel.io.resources:DIST_DIR",
)

NOTEBOOK_INLINE = Patch(
    name="notebook-inline-updates",
    fixes="with pn.extension(inline=True) an updated pane links its stylesheets to the CDN",
    # Panel 1.10 inlines a first render's stylesheets per document (state._inline_stylesheets)
    # but not those an update sends again (Reactive._update_properties): still needed there,
    # with Panel's own per-document copies (the same models: nothing is sent twice).
    shown=(
        Shown({"panel": "1.9.4"}, _INLINE_NAMES),
        Shown(
            {"panel": "1.10.0"},
            (
                *_INLINE_NAMES,
                "panel.io.notebook:replace_inline_css",
                "panel.io.state:state._inline_stylesheets",
            ),
        ),
    ),
    apply=_inline_updates,
)


#: Where Panel's Jupyter server extension serves Panel's ``dist/`` and BokehJS (``/static/js``),
#: under a Jupyter server at its root (the one the lessons' README command starts).
JUPYTER_PANEL_ROOT = "/panel-preview/static/"
#: BokehJS on its CDN: ``https://cdn.bokeh.org/bokeh/release/bokeh-widgets-3.9.2.min.js``.
_BOKEH_CDN = re.compile(
    r"^https://cdn\.bokeh\.org/bokeh/(?:release|dev)/(?P<name>[a-z-]+?)-\d[^/]*?(?P<ext>(\.min)?\.js)$"
)


def local_url(url: str) -> str:
    """The address under the Jupyter server of a file Panel or Bokeh would load from a CDN.

    ``https://cdn.holoviz.org/panel/V/dist/X`` -> ``/panel-preview/static/extensions/panel/X``,
    ``https://cdn.bokeh.org/bokeh/release/bokeh-widgets-V.min.js`` ->
    ``/panel-preview/static/js/bokeh-widgets.min.js``; any other address is returned as it is.
    """
    from panel.io.resources import CDN_DIST

    if url.startswith(CDN_DIST):
        return f"{JUPYTER_PANEL_ROOT}extensions/panel/{url[len(CDN_DIST) :]}"
    bokeh = _BOKEH_CDN.match(url)
    if bokeh:
        return f"{JUPYTER_PANEL_ROOT}js/{bokeh['name']}{bokeh['ext']}"
    return url


def _local_notebook_resources(shown: Shown) -> None:
    from bokeh.embed.bundle import URL
    from bokeh.resources import CDN
    from panel.io import notebook
    from panel.io.resources import Resources, set_resource_mode

    bundle_resources = notebook.bundle_resources

    @wraps(bundle_resources)
    def _bundle_resources(roots, resources, notebook=False, **kwargs):
        if not (notebook and getattr(resources, "mode", None) == "inline"):
            return bundle_resources(roots, resources, notebook=notebook, **kwargs)
        # The notebook's loader (``load_notebook``, for Panel and for HoloViews): the files'
        # addresses instead of their text, then the Jupyter server's copies of them.
        with set_resource_mode("cdn"):
            cdn = Resources.from_bokeh(CDN, notebook=True)
            bundle = bundle_resources(roots, cdn, notebook=True, **kwargs)
        bundle.js_files = [URL(local_url(str(url))) for url in bundle.js_files]
        bundle.css_files = [URL(local_url(str(url))) for url in bundle.css_files]
        return bundle

    notebook.bundle_resources = _bundle_resources


#: What ``_local_notebook_resources`` uses, on Panel 1.9.4 and 1.10.0.
_LOCAL_NAMES = (
    "panel.io.notebook:bundle_resources",
    "panel.io.notebook:load_notebook",
    "panel.io.resources:CDN_DIST",
    "panel.io.resources:set_resource_mode",
    "panel.io.resources:Resources.from_bokeh",
    "panel.io.jupyter_server_extension:_load_jupyter_server_extension",
    "bokeh.embed.bundle:URL",
)

NOTEBOOK_LOCAL_RESOURCES = Patch(
    name="notebook-local-resources",
    fixes="pn.extension(inline=True) saves 6 MB of BokehJS into every notebook that ran it",
    # Panel 1.9 loads a notebook's JavaScript from the CDN or inlines it, though its Jupyter
    # server extension serves the same files (/panel-preview/static/). Panel 1.10 takes them
    # from its Jupyter server extension itself, but only when not inlined: with ``inline=True``
    # its loader (``load_notebook``) still bundles ``INLINE``, 6 MB. There the loader calls
    # ``bundle_resources(..., notebook=True)`` only when the kernel's Jupyter server serves
    # Panel's extension (``jupyter_endpoint_available``: ``PANEL_JUPYTER_ENDPOINT``, which the
    # extension sets for its kernels), and ``Resources.from_bokeh(CDN, notebook=True)`` then
    # names that server's copies (``/panel-preview/static/``), with the CDN as the loader's
    # fallback; elsewhere (no such server) the patch changes nothing and the files stay
    # inlined, offline. Not a race: no report upstream.
    shown=(
        Shown({"panel": "1.9.4"}, _LOCAL_NAMES),
        Shown(
            {"panel": "1.10.0"}, (*_LOCAL_NAMES, "panel.io.resources:jupyter_endpoint_available")
        ),
    ),
    apply=_local_notebook_resources,
    upstream=False,
)


# -- 7. The browser side: the reconnecting page's token and buffers (BokehJS) ---------------------

#: Which parts of ``views/js/reconnect.js`` run, by the BokehJS version served (the script
#: checks the names it uses too). The token: a reconnecting page asks for what its address
#: shows now, not what it was first opened with (3.9.2, 3.10.2). The buffers: BokehJS 3.9
#: re-read a restarted server's document without its binary buffers (fixed in 3.10).
#: The poll: tries again every second while the server is gone (its ``ClientConnection``'s
#: ``reconnect``, ``socket`` and ``closed_permanently``, the same in both).
RECONNECT_JS_PARTS = {
    "3.9.2": {"token": True, "buffers": True, "poll": True},
    "3.10.2": {"token": True, "buffers": False, "poll": True},
}


def reconnect_js_parts() -> dict[str, bool]:
    """The parts of the reconnect script shown on the installed Bokeh (none: an unknown one)."""
    version = _version("bokeh")
    parts = RECONNECT_JS_PARTS.get(version or "")
    if parts is None:
        _say_once("reconnect-js", f"the reconnect script stays out: not shown on bokeh {version}")
        return {"token": False, "buffers": False, "poll": False}
    return dict(parts)


# -- Panel's busy indicators of closed pages ----------------------------------------------------


def forget_busy_indicator(indicator) -> None:
    """Drop a closed page's busy indicator from the ones Panel updates on every click.

    Panel keeps each template's indicator (``state.sync_busy``) in one list for the process
    and never drops it: every busy change then sets the indicator of every page ever opened,
    and one whose server has stopped raises "Event loop is closed" in the click's handler
    (seen in the browser tests on Panel 1.10). Shown on Panel 1.9.4 and 1.10.0; anywhere
    without that list this does nothing.
    """
    import panel as pn

    indicators = getattr(pn.state, "_indicators", None)
    if isinstance(indicators, list) and indicator in indicators:
        indicators.remove(indicator)


# -- Installing -----------------------------------------------------------------------------------

#: Fixes of races under every served page (the setup, a served page, the tests).
SERVER_FIXES = (HELD_CHANGES, QUEUED_WRITES, CLOSED_WHILE_OPENING, NO_REFERRER, NO_TRACEBACKS)
#: What only the server's setup installs (they change every server of the process).
SETUP = (SETTINGS, PAGE_LOAD_LIMIT, MODEL_IDS)
#: Every patch, for the tests and the reports.
ALL = (*SERVER_FIXES, *SETUP, NOTEBOOK_INLINE, NOTEBOOK_LOCAL_RESOURCES)

_SAID: set[str] = set()


def _say_once(key: str, line: str) -> None:
    if key not in _SAID:
        _SAID.add(key)
        log.info(line)


def install(patches: tuple[Patch, ...] = SERVER_FIXES) -> dict[str, str]:
    """Put each of ``patches`` in place where it was shown; leave the others out (idempotent).

    Returns
    -------
    dict
        Patch name -> ``"installed"`` or ``"stays out: <why>"``.
    """
    for patch in patches:
        if patch.state == "installed" or patch.state.startswith("stays out"):
            continue
        shown, why = patch.match()
        if shown is None:
            patch.state = f"stays out: {why}"
            _say_once(patch.name, f"patch {patch.name} stays out: {why}")
            continue
        patch.apply(shown)
        patch.state = "installed"
        log.debug("patch %s installed (%s)", patch.name, patch.fixes)
    return {patch.name: patch.state for patch in patches}


def setup() -> dict[str, str]:
    """What ``serve_setup.py`` installs: the fixes and the server's own settings and limits."""
    return install(SERVER_FIXES + SETUP)
