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


def test_wrong_codes_from_other_addresses_never_refuse_the_right_one(tmp_path):
    """Issue 33, item 2: 20 wrong codes a minute from 4 addresses left every join refused."""
    clock = Clock()
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    service.code_guard = Guard("join code", clock)
    table = service.create("T", encounter(roster("ronan.json")))
    for i in range(20):
        assert service.look_up(f"{i:09d}x", f"10.0.1.{i % 4}") is None
        clock.now += 2  # 20 in 40 s
    assert service.look_up(table.state["join_code"], "10.0.2.1") is table  # a fresh address
    assert service.code_guard.wait("10.0.2.1") == 0.0


def test_browsers_behind_one_address_are_counted_apart(tmp_path):
    """Issue 33, item 2: 6 wrong codes from one address refused the right one for everyone
    behind it (a hotspot, a school, a proxy); now only the browser that guessed waits."""
    clock = Clock()
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    service.code_guard = Guard("join code", clock)
    table = service.create("T", encounter(roster("ronan.json")))
    guesser = guard.client_key("10.0.0.1", guard.new_browser_cookie())
    player = guard.client_key("10.0.0.1", guard.new_browser_cookie())
    assert guesser != player and guesser.startswith("10.0.0.1 browser ")
    read = 0
    while True:  # 5 tries of its own, then 5 on its address's counter
        try:
            assert service.look_up(f"{read:09d}x", guesser) is None
        except SlowDownError:
            break
        read += 1
    assert read == 2 * guard.FREE_TRIES
    with pytest.raises(SlowDownError):
        service.look_up(table.state["join_code"], guesser)
    assert service.look_up(table.state["join_code"], player) is table  # another browser
    # (A page load without a cookie gets an id before its page is built: serve_setup's patch.)


def test_a_browser_id_buys_its_free_tries_and_no_more():
    """After its free tries a browser counts on its address's counter: new ids (a page load
    each) buy 5 tries apiece; an id the server did not sign is no id."""
    clock = Clock()
    g = Guard("join code", clock)
    for _ in range(3):  # three ids, each used up
        who = guard.client_key("10.0.0.1", guard.new_browser_cookie())
        while g.wait(who) == 0:
            g.failed(who)
    assert g.wait("10.0.0.1") == 60.0  # the address: 5 free, the sixth try waits
    assert guard.client_key("10.0.0.1", "abc.def") == "10.0.0.1"  # forged
    assert guard.browser_id(guard.new_browser_cookie()) is not None
    fresh = guard.client_key("10.0.0.1", guard.new_browser_cookie())
    assert g.wait(fresh) == 0.0  # a browser that made no wrong try is never slowed


def test_wrong_gm_keys_from_elsewhere_never_lock_the_gm_out(tmp_path):
    """Issue 33, item 2: 24 wrong GM keys from other addresses locked the GM out of /gm."""
    clock = Clock()
    service = CombatService(tmp_path / "t.sqlite", gm_key="right-key-of-sixteen")
    service.key_guard = Guard("GM key", clock)
    for i in range(24):
        assert not service.gm_key_ok("wrong", f"10.0.3.{i}")
    assert service.gm_key_ok("right-key-of-sixteen", "192.168.1.20")


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
    # One address: 5 tries per new browser id, one id per page load at PAGE_RATE (note 0025).
    assert guard.guesses_per_day() == 86_400 * guard.PAGE_RATE * guard.FREE_TRIES + 24 + 5
    assert guard.guesses_per_day() == 14_429
    assert guard.expected_days_to_find(10**9) > 90 * 365  # one table, one address: 95 years
    assert guard.expected_days_to_find(10**9, addresses=100) > 340  # 100 addresses: 347 days
