"""A served page knows its client: the proxy's address, and its browser (issue 33, item 2).

With the setup's page-load patch, a page load without a browser cookie gets one (signed,
HttpOnly), and the page built in that same request already counts its guesses by it; served
with ``--use-xheaders`` the address is the one ``X-Forwarded-For`` names.
"""

from __future__ import annotations

import urllib.request

import panel as pn
import pytest
from serving import free_port, wait_for_http

from tb_playground import guard
from tb_playground.views.kit import client_address, patches


@pytest.fixture
def page_load_patch(monkeypatch):
    """The setup's page-load patch, taken out again after the test."""
    from panel.io import server

    monkeypatch.setattr(server.DocHandler, "get", server.DocHandler.get)
    patches.PAGE_LOAD_LIMIT.state = "not tried"
    patches.install((patches.PAGE_LOAD_LIMIT,))
    yield
    patches.PAGE_LOAD_LIMIT.state = "not tried"


def _get(url: str, headers: dict) -> tuple[str, str | None]:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        r.read()
        return r.status, r.headers.get("Set-Cookie")


@pytest.mark.server
def test_a_page_counts_its_browser_behind_the_proxys_address(page_load_patch):
    seen: list[str | None] = []

    def app():
        seen.append(client_address())
        return pn.pane.Markdown("hello")

    port = free_port()
    url = f"http://127.0.0.1:{port}/app"
    server = pn.serve({"app": app}, port=port, address="127.0.0.1", threaded=True, show=False,
                      websocket_origin=[f"127.0.0.1:{port}"], use_xheaders=True)  # fmt: skip
    try:
        wait_for_http(url)
        proxied = {"X-Forwarded-For": "198.51.100.7"}
        status, set_cookie = _get(url, proxied)
        assert status == 200 and set_cookie.startswith(f"{guard.BROWSER_COOKIE}=")
        assert "httponly" in set_cookie.lower()
        cookie = set_cookie.split(";")[0]
        first = seen[-1]
        assert first.startswith("198.51.100.7 browser ")  # the proxy's client, its new id
        status, again = _get(url, {**proxied, "Cookie": cookie})
        assert status == 200 and again is None and seen[-1] == first  # the same browser
        _get(url, {**proxied, "Cookie": f"{guard.BROWSER_COOKIE}=0123.forged"})
        assert seen[-1] != first and seen[-1].startswith("198.51.100.7 browser ")
    finally:
        server.stop()
