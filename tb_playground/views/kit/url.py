"""The page's address: every setting a page keeps in its URL goes through here.

``sync_url`` keeps a Parameterized's settings in the address bar (bad values in a hand-edited
link are skipped); ``query_arg``, ``query_value`` and ``set_query`` read and write single values;
``pack_text`` makes a long text short and safe for a URL. Notes: docs/notes/0007-pages.md.
"""

from __future__ import annotations

import base64
import json
import weakref
import zlib
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

from tb_playground import guard

#: The largest character kept in a URL, decompressed (a sheet is about 3,500 characters).
MAX_SHEET_CHARS = 200_000


def served() -> bool:
    """Whether this code runs for a browser session of a server (not a notebook or a test)."""
    doc = pn.state.curdoc
    return doc is not None and doc.session_context is not None


def _coerce(p: param.Parameter, value: object) -> object:
    """A query value as the parameter wants it (URL numbers arrive as int or float)."""
    if isinstance(p, param.Integer) and isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(p, param.Integer) and isinstance(value, str):
        return int(value)
    if isinstance(p, param.List | param.ListSelector) and isinstance(value, str):
        return [value]
    return value


def apply_query(obj: param.Parameterized, mapping: Mapping[str, str], query: Mapping) -> list[str]:
    """Set ``obj``'s parameters from ``query`` one by one; return the names that were refused.

    ``mapping`` maps a parameter name to its query name. A value the parameter refuses (out of
    its bounds, not one of its choices) is left out and the parameter keeps its value.
    """
    refused = []
    for name, key in mapping.items():
        if key not in query:
            continue
        p = obj.param[name]
        try:
            value = _coerce(p, query[key])
            if getattr(obj, name) != value:
                obj.param.update({name: value})
        except Exception:  # noqa: BLE001 - any bad value in a link is skipped, never raised
            refused.append(key)
    return refused


def as_text(p: param.Parameter, value: object) -> str:
    """``value`` of the parameter ``p`` as the text the URL keeps (a string, or its JSON)."""
    try:
        value = p.serialize(value)
    except Exception:  # noqa: BLE001 - a parameter without a serializer: its JSON
        pass
    return value if isinstance(value, str) else json.dumps(value)


def settings_query(obj: param.Parameterized, mapping: Mapping[str, str]) -> dict[str, str]:
    """``obj``'s parameters (``{parameter: query name}``) as the URL's text, by query name."""
    return {key: as_text(obj.param[name], getattr(obj, name)) for name, key in mapping.items()}


def query_string(query: Mapping[str, str]) -> str:
    """The address's search part for ``query`` ("?a=1&b=x", or "" for none)."""
    return "?" + urlencode(query) if query else ""


#: Per page session, the query the page writes: its keys and their text, in order. The page
#: URL is written from it, never read back after the start (a browser's late echo of an older
#: address must not undo a newer setting).
_QUERIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _query_state() -> dict[str, str] | None:
    """The query of this session, started from the address the page was opened with."""
    if not served() or pn.state.location is None:
        return None
    location = pn.state.location
    if location not in _QUERIES:
        _QUERIES[location] = dict(parse_qsl((location.search or "").lstrip("?")))
    return _QUERIES[location]


def sync_url(obj: param.Parameterized, mapping: Mapping[str, str]) -> None:
    """Keep ``obj``'s parameters (``{parameter: query name}``) in the page URL.

    At the page's start the URL's values are applied (each one on its own, so one bad value
    does not stop the others); from then on every change is written into the URL (the keys
    the link gave and those changed since; a missing key is the default). Nothing happens
    outside a served session.
    """
    if _query_state() is None:
        return
    mapping = dict(mapping)
    apply_query(obj, mapping, pn.state.location.query_params)

    def write(*events) -> None:
        set_query(**{mapping[e.name]: as_text(obj.param[e.name], e.new) for e in events})

    obj.param.watch(write, list(mapping))


def query_arg(name: str) -> str | None:
    """The page URL's ``?name=`` value as its text (None outside a served session)."""
    args = getattr(pn.state, "session_args", None) or {}
    values = args.get(name)
    if not values:
        return None
    value = values[0]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def client_address() -> str | None:
    """Who the limits on guessing count (``guard.client_key``); None outside a server.

    The browser's address and, where the server gave it one (``serve_setup``'s page-load
    patch), its browser id: browsers behind one address are counted apart (issue 33, item 2).
    The address is the socket's peer, or the proxy's ``X-Forwarded-For`` when the server is
    started with ``--use-xheaders`` (Tornado's ``remote_ip``).
    """
    if not served():
        return None
    request = getattr(pn.state.curdoc.session_context, "request", None)
    cookies = getattr(request, "cookies", None) or {}
    return guard.client_key(getattr(request, "remote_ip", None), cookies.get(guard.BROWSER_COOKIE))


def cookie(name: str) -> str | None:
    """The ``name`` cookie the browser sent when it opened this page (None outside a server)."""
    if not served():
        return None
    value = (pn.state.cookies or {}).get(name)
    return value if isinstance(value, str) and value else None


def forget_query(*keys: str) -> None:
    """Leave ``keys`` out of the query this page writes from now on, without writing it.

    For a secret the address must not keep (the GM key, issue 33): the page's own script takes
    it out of the address bar with ``history.replaceState``, so no history entry keeps it.
    """
    query = _query_state()
    if query is not None:
        for key in keys:
            query.pop(key, None)


def query_value(key: str) -> object:
    """The page URL's ``key`` value (parsed like Panel's: numbers, lists, booleans) or None."""
    if not served() or pn.state.location is None:
        return None
    return pn.state.location.query_params.get(key)


def set_query(**values: str | None) -> None:
    """Write ``values`` into the page URL's query (None removes one); others are kept.

    A reload, or the link copied from the address bar, opens the page with them.
    """
    query = _query_state()
    if query is None:
        return
    for key, value in values.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    search = query_string(query)
    if pn.state.location.search != search:
        pn.state.location.search = search


def pack_text(text: str) -> str:
    """Text made short and safe for a URL: zlib, then URL-safe base64 without padding."""
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    return packed.rstrip("=")


def unpack_text(token: str, limit: int = MAX_SHEET_CHARS) -> str:
    """The text ``pack_text`` packed; ValueError for anything else or more than ``limit`` bytes.

    Decompression stops at ``limit`` bytes, so a crafted link cannot blow up in memory.
    """
    try:
        padded = (token + "=" * (-len(token) % 4)).encode("ascii")
        data = base64.b64decode(padded, altchars=b"-_", validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(data, limit + 1)
    except (ValueError, zlib.error) as exc:
        raise ValueError("the link's character is not readable") from exc
    if len(raw) > limit or inflater.unconsumed_tail:
        raise ValueError(f"the link's character is longer than {limit} characters")
    if not inflater.eof:
        raise ValueError("the link's character is cut short")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("the link's character is not readable") from exc
