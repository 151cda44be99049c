"""Guessing join codes and the GM key is slowed (issue 21, "Guessing slowed"; guard.py)."""

from __future__ import annotations

import logging

import pytest
from table_helpers import encounter, roster

from tb_playground import guard
from tb_playground.guard import Guard, SlowDownError
from tb_playground.service import CombatService


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _try(g: Guard, clock: Clock, address: str) -> bool:
    """One wrong try if ``address`` may try now; False when it was refused unread."""
    try:
        g.check(address)
    except SlowDownError:
        return False
    g.failed(address)
    return True


def test_an_address_has_five_free_tries_then_a_doubling_wait():
    clock = Clock()
    g = Guard("join code", clock)
    for _ in range(5):
        assert _try(g, clock, "10.0.0.1")
    assert g.wait("10.0.0.1") == 60.0
    with pytest.raises(SlowDownError, match=r"Too many wrong join codes: try again in 60 s"):
        g.check("10.0.0.1")
    clock.now += 60
    assert _try(g, clock, "10.0.0.1")
    assert g.wait("10.0.0.1") == 120.0  # doubles
    clock.now += 120
    assert _try(g, clock, "10.0.0.1")
    assert g.wait("10.0.0.1") == 240.0
    assert g.wait("10.0.0.2") == 0.0  # another address is not slowed


def test_a_hundred_wrong_codes_from_one_address_take_days(tmp_path):
    """100 wrong codes, each tried as soon as allowed: 5 at once, then waits up to an hour."""
    clock = Clock()
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    service.code_guard = Guard("join code", clock)
    table = service.create("T", encounter(roster("ronan.json")))
    start, refused = clock.now, 0
    for n in range(100):
        while True:
            try:
                assert service.look_up(f"{n:09d}x", "10.0.0.1") is None
                break
            except SlowDownError as slowed:
                refused += 1
                clock.now += slowed.wait
    spent = clock.now - start
    waits = sum(min(3600, 60 * 2**k) for k in range(95))
    assert spent == waits  # 60 + 120 + ... + 3600 + 3600 ...: about 3.6 days
    assert spent > 3 * 24 * 3600 and refused == 95
    # Meanwhile the right code from another address still works, at once.
    assert service.look_up(table.state["join_code"], "10.0.0.9") is table
    assert service.look_up(table.state["join_code"], "10.0.0.9", "T") is table


def test_all_addresses_together_are_capped():
    clock = Clock()
    g = Guard("join code", clock)
    for i in range(guard.TOTAL_TRIES):
        assert _try(g, clock, f"10.0.1.{i}")
    assert not _try(g, clock, "10.0.2.1")  # a new address waits too
    assert g.wait("10.0.2.1") == 60.0
    clock.now += 60
    assert _try(g, clock, "10.0.2.1")


def test_an_address_quiet_for_a_day_starts_afresh():
    clock = Clock()
    g = Guard("GM key", clock)
    for _ in range(6):
        g.failed("10.0.0.1")
    assert g.wait("10.0.0.1") > 0
    clock.now += guard.FORGET_AFTER
    assert g.wait("10.0.0.1") == 0.0


def test_wrong_tries_are_logged(caplog):
    g = Guard("GM key", Clock())
    with caplog.at_level(logging.WARNING, logger="tb_playground.guard"):
        g.failed("10.0.0.7")
    assert "wrong GM key from 10.0.0.7" in caplog.text


def test_the_gm_key_is_guarded_when_a_page_passes_its_address(tmp_path):
    clock = Clock()
    service = CombatService(tmp_path / "t.sqlite", gm_key="right-key-of-sixteen")
    service.key_guard = Guard("GM key", clock)
    for _ in range(5):
        assert not service.gm_key_ok("wrong", "10.0.0.1")
    with pytest.raises(SlowDownError):
        service.gm_key_ok("right-key-of-sixteen", "10.0.0.1")  # not read while it waits
    assert service.gm_key_ok("right-key-of-sixteen", "10.0.0.2")
    assert service.gm_key_ok("right-key-of-sixteen")  # no address: a script or notebook


def test_join_codes_are_long_enough_for_the_limit(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    table = service.create("T", encounter(roster("ronan.json")))
    code = table.state["join_code"]
    assert len(code) == 9 and code.isdigit()
    table.apply({"type": "rotate_code"})
    assert len(table.state["join_code"]) == 9
    # With 1,000 tables in one file, an attacker at the total limit needs over a month.
    assert guard.expected_days_to_find(10**9, 1000) > 31
