"""Seat claims (issue 20, "Seats"): one live phone per seat, the GM frees, a new code keeps seats.

Panel-free: ``SeatBook`` over a table file, with an injected clock (no test reads the real one).
"""

from __future__ import annotations

import pytest
from table_helpers import encounter, roster

from tb_playground.table import TableStore
from tb_playground.table.seats import BEAT, GRACE, STALE, SeatBook, new_token, token_ok


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def setup(tmp_path):
    store = TableStore(tmp_path / "t.sqlite")
    enc = encounter(roster("ronan.json"), roster("the_brick.json"), foes=[roster("guard_dog.yaml")])
    table = store.create("Friday", enc, seed=3)
    clock = Clock()
    book = SeatBook(store, clock)
    yield store, table, book, clock
    store.close()


def test_a_free_seat_is_claimed_and_a_second_phone_is_asked(setup):
    _, table, book, _ = setup
    a, b = new_token(), new_token()
    assert book.sit(table, "ronan", a, "page-a").outcome == "sat"
    assert book.holds("Friday", "ronan", "page-a")
    asked = book.sit(table, "ronan", b, "page-b")
    assert asked.outcome == "asked" and asked.connected and not asked.seated
    assert book.holds("Friday", "ronan", "page-a")  # asking changed nothing
    assert not book.holds("Friday", "ronan", "page-b")
    # Another seat is free for the second phone.
    assert book.sit(table, "the-brick", b, "page-b").outcome == "sat"


def test_takeover_moves_the_seat_and_the_first_page_loses_it(setup):
    _, table, book, _ = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    assert book.sit(table, "ronan", b, "page-b", take_over=True).outcome == "took"
    assert book.holds("Friday", "ronan", "page-b")
    assert not book.holds("Friday", "ronan", "page-a")
    assert book.lost("Friday", "ronan", a) == "taken"
    assert book.owner("Friday", "ronan", b) and not book.owner("Friday", "ronan", a)
    # The first phone choosing it again is asked in its turn.
    assert book.sit(table, "ronan", a, "page-a2").outcome == "asked"


def test_the_same_browser_comes_back_without_a_question(setup):
    _, table, book, clock = setup
    a = new_token()
    book.sit(table, "ronan", a, "page-a")
    book.away("page-a")  # the phone sleeps
    clock.now += 10 * GRACE  # long after the grace: nobody else took it
    assert book.sit(table, "ronan", a, "page-a-again").outcome == "back"
    assert book.holds("Friday", "ronan", "page-a-again")
    # A second tab of the same browser takes it without a question; the first tab lost it.
    assert book.sit(table, "ronan", a, "tab-2").outcome == "back"
    assert not book.holds("Friday", "ronan", "page-a-again")
    assert book.lost("Friday", "ronan", a) == "elsewhere"


def test_grace_then_expiry_with_an_injected_clock(setup):
    _, table, book, clock = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    claim = book.claims("Friday")["ronan"]
    assert claim.connected and claim.held and claim.away == 0
    book.away("page-a")
    clock.now += GRACE - 1
    claim = book.claims("Friday")["ronan"]
    assert not claim.connected and claim.held and claim.away == GRACE - 1
    asked = book.sit(table, "ronan", b, "page-b")
    assert asked.outcome == "asked" and not asked.connected  # asked, though the phone sleeps
    clock.now += 2
    assert not book.claims("Friday")["ronan"].held
    assert book.sit(table, "ronan", b, "page-b").outcome == "sat"  # free again: no question
    assert not book.owner("Friday", "ronan", a)


def test_a_process_that_stops_renewing_counts_as_gone(setup):
    _, table, book, clock = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    for _ in range(5):  # renewed while the process runs: connected however long
        clock.now += BEAT
        assert book.beat() == 1
    assert book.claims("Friday")["ronan"].connected
    clock.now += STALE  # no renewal: the process died with its page
    claim = book.claims("Friday")["ronan"]
    assert not claim.connected and claim.away == STALE and claim.held
    clock.now += GRACE
    assert book.sit(table, "ronan", b, "page-b").outcome == "sat"


def test_the_gm_frees_a_seat(setup):
    _, table, book, _ = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    told = []
    handle = book.watch(lambda t, s: told.append((t, s)))
    assert book.free("Friday", "ronan")
    assert told == [("Friday", "ronan")]
    assert not book.holds("Friday", "ronan", "page-a")
    assert book.lost("Friday", "ronan", a) == "freed"
    assert "ronan" not in book.claims("Friday")
    assert not book.free("Friday", "ronan")  # nothing left to free
    book.unwatch(handle)
    # Anyone may sit there now, the freed phone too.
    assert book.sit(table, "ronan", b, "page-b").outcome == "sat"
    assert told == [("Friday", "ronan")]


def test_leaving_frees_only_the_seat_the_page_holds(setup):
    _, table, book, _ = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    book.sit(table, "ronan", b, "page-b", take_over=True)
    book.stand_up("Friday", "ronan", "page-a")  # the displaced page leaves: b keeps it
    assert book.holds("Friday", "ronan", "page-b")
    book.stand_up("Friday", "ronan", "page-b")
    assert "ronan" not in book.claims("Friday")


def test_a_new_join_code_keeps_the_seats(setup):
    _, table, book, _ = setup
    a = new_token()
    book.sit(table, "ronan", a, "page-a")
    old = table.state["join_code"]
    table.apply({"type": "rotate_code"})
    assert not table.code_matches(old)
    assert book.holds("Friday", "ronan", "page-a")
    assert book.owner("Friday", "ronan", a)  # a reload with the old link finds its seat
    book.away("page-a")
    assert book.sit(table, "ronan", a, "page-a2").outcome == "back"


def test_claims_are_in_the_file_for_every_process(setup, tmp_path):
    store, table, book, clock = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    other_store = TableStore(tmp_path / "t.sqlite")  # another process's connection
    try:
        other = SeatBook(other_store, clock)
        other_table = other_store.open("Friday")
        assert other.holds("Friday", "ronan", "page-a")
        assert other.sit(other_table, "ronan", b, "page-b").outcome == "asked"
        other.sit(other_table, "ronan", b, "page-b", take_over=True)
        assert not book.holds("Friday", "ronan", "page-a")  # seen here at once
    finally:
        other_store.close()


def test_bad_seats_and_tokens_are_refused(setup):
    _, table, book, _ = setup
    a = new_token()
    assert token_ok(a) and not token_ok("short") and not token_ok(None) and not token_ok("x" * 99)
    with pytest.raises(ValueError, match="seat"):
        book.sit(table, "guard-dog", a, "page-a")  # a foe is no seat
    with pytest.raises(ValueError, match="seat"):
        book.sit(table, "nobody", a, "page-a")
    with pytest.raises(ValueError, match="token"):
        book.sit(table, "ronan", "not a token!", "page-a")
    assert not book.owner("Friday", "ronan", "not a token!")
    assert book.claims("Friday") == {}


def test_a_takeover_shows_in_the_gms_claims_until_the_seat_is_freed(setup):
    # Issue 31: the GM's list said only "a phone sits here, connected" after a takeover.
    _, table, book, clock = setup
    a, b = new_token(), new_token()
    book.sit(table, "ronan", a, "page-a")
    assert book.claims("Friday")["ronan"].taken is None
    book.sit(table, "ronan", b, "page-b", take_over=True)
    clock.now += 90
    assert book.claims("Friday")["ronan"].taken == 90
    assert book.sit(table, "ronan", b, "page-b2").outcome == "back"
    assert book.claims("Friday")["ronan"].taken == 90  # the same phone, back: still taken
    book.free("Friday", "ronan")
    book.sit(table, "ronan", a, "page-a")
    assert book.claims("Friday")["ronan"].taken is None  # a free seat sat down in


def test_takeovers_wait_for_the_gms_yes_when_the_gm_says_so(setup):
    # Issue 31: "let the GM choose that takeovers wait for the GM's yes".
    _, table, book, _ = setup
    a, b, c = new_token(), new_token(), new_token()
    heard = []
    book.watch(lambda tname, seat: heard.append(seat))
    assert not book.asks_gm("Friday")
    book.set_ask_gm("Friday", True)
    assert book.asks_gm("Friday")
    with pytest.raises(ValueError, match="ask_gm"):
        book.set_ask_gm("Friday", "yes")
    book.sit(table, "ronan", a, "page-a")
    waiting = book.sit(table, "ronan", b, "page-b", take_over=True)
    assert waiting.outcome == "waiting" and not waiting.seated and waiting.connected
    assert book.holds("Friday", "ronan", "page-a") and book.waiting("Friday", "ronan", "page-b")
    assert list(book.requests("Friday")) == ["ronan"] and heard[-1] == "ronan"
    # A free seat needs no yes.
    assert book.sit(table, "the-brick", c, "page-c").outcome == "sat"
    # No: the seat stays; yes: it moves, as a takeover the GM's list shows.
    assert book.answer("Friday", "ronan", False)
    assert book.holds("Friday", "ronan", "page-a") and book.requests("Friday") == {}
    assert not book.answer("Friday", "ronan", True)  # nobody asks now
    book.sit(table, "ronan", b, "page-b", take_over=True)
    assert book.answer("Friday", "ronan", True)
    assert book.holds("Friday", "ronan", "page-b") and book.owner("Friday", "ronan", b)
    assert book.lost("Friday", "ronan", a) == "taken"
    assert book.claims("Friday")["ronan"].taken == 0
    # Turned off, a waiting takeover is dropped and the next one happens at once.
    book.sit(table, "ronan", a, "page-a", take_over=True)
    assert book.requests("Friday") == {"ronan": 0.0}
    book.set_ask_gm("Friday", False)
    assert book.requests("Friday") == {}
    assert book.sit(table, "ronan", a, "page-a", take_over=True).outcome == "took"
