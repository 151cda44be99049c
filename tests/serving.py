"""Serving pages in tests and benchmarks: a free port, waiting for a page, Debian's Chromium."""

from __future__ import annotations

import os
import socket
import time
import urllib.request

import pytest

#: The browser every browser test and benchmark drives (never a downloaded one).
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, timeout: float = 30.0) -> None:
    """Block until ``url`` answers HTTP 200, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            # Wait for the one request to finish: a page can take seconds to build on a busy
            # machine, and a short timeout would only start another session behind it.
            left = max(deadline - time.monotonic(), 1.0)
            with urllib.request.urlopen(url, timeout=left) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{url} did not answer within {timeout} s")
        time.sleep(0.2)
