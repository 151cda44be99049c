"""Sharing a view: settings kept in the page's URL, and tables as CSV (issue 11, section 3).

``sync_url(obj, {"element": "element", ...})`` keeps a Parameterized's settings in the address
bar (``pn.state.location``): a link opened later, or by someone else, starts from the same
settings. A value in the query that is out of range or of the wrong kind is skipped (the rest
still apply), so a hand-edited link never breaks a page.

``csv_text(header, rows)`` writes a table as CSV with plain column names and numbers to 15
significant digits (0.1, not 0.09999999999999999; read back, within 1e-15 of the engine's);
``csv_button(label, filename, make)`` is the "Download CSV" button that calls ``make`` when
clicked, so the file holds the numbers the table shows at that moment.

Presentation only: no maths here.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import weakref
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

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


def _as_text(p: param.Parameter, value: object) -> str:
    try:
        value = p.serialize(value)
    except Exception:  # noqa: BLE001 - a parameter without a serializer: its JSON
        pass
    return value if isinstance(value, str) else json.dumps(value)


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
        set_query(**{mapping[e.name]: _as_text(obj.param[e.name], e.new) for e in events})

    obj.param.watch(write, list(mapping))


def query_value(key: str) -> object:
    """The page URL's ``key`` value (parsed like Panel's: numbers, lists, booleans) or None."""
    if not served() or pn.state.location is None:
        return None
    return pn.state.location.query_params.get(key)


def set_query(**values: str | None) -> None:
    """Write ``values`` into the page URL's query (None removes one); others are kept."""
    query = _query_state()
    if query is None:
        return
    for key, value in values.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    search = "?" + urlencode(query) if query else ""
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


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table as CSV: the header, then the rows; floats to 15 significant digits."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([format(v, ".15g") if isinstance(v, float) else v for v in row])
    return out.getvalue()


def csv_button(label: str, filename: str, make: Callable[[], str], css: str) -> pn.Widget:
    """A "Download CSV" button: ``make()`` runs when it is clicked and its text is the file."""
    return pn.widgets.FileDownload(
        callback=lambda: io.StringIO(make()),
        filename=filename,
        label=label,
        color="primary",
        embed=False,
        css_classes=[css],
        margin=(4, 10),
        width=240,
        height=34,
        sizing_mode="fixed",
    )
