"""The players' and GM's pages with seat claims, without a browser (issue 20, "Seats").

Pages built outside a server refresh in place, so a takeover or a freed seat shows on the page
that lost it at once. The server decides with the seat the page verified: a page that lost its
seat acts for no one, whatever its controls still send.
"""

from __future__ import annotations

import pytest
from table_helpers import FIRST_RONAN, fight

from tb_playground.service import CombatService
from tb_playground.views.combat.gm_page import GMPage
from tb_playground.views.combat.seat_session import LOST, SeatSession
from tb_playground.views.combat.table_page import WATCH, TablePage


@pytest.fixture
def world(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key="k" * 16)
    table = service.create("Seats", fight())
    table.apply({"type": "start", "initiative": FIRST_RONAN})
    yield service, table, table.view_for("gm")["join_code"]
    service.store.close()


def phone(service, table, code) -> TablePage:
    page = TablePage(service)
    page._found, page.code = table, code  # as ``find`` leaves it
    return page


def declare(page: TablePage, cid: str, bracket: str = "fast") -> str:
    """What the page's session answers a declaration for ``cid``."""
    return page.session.send({"type": "declare", "combatant": cid, "bracket": bracket})


def test_a_second_phone_is_asked_and_the_first_watches_after_a_takeover(world):
    service, table, code = world
    first, second = phone(service, table, code), phone(service, table, code)
    assert first.join("ronan")
    assert isinstance(first.session, SeatSession)
    assert not second.join("ronan")  # asked, not seated
    assert second.seat_prompt.seat == "ronan" and second.seat_prompt._layout.visible
    assert "open on another phone" in second.seat_prompt.ask.object
    assert second.session is None and first.session.role == "player"

    old = first.session
    assert second.join("ronan", take_over=True)
    assert second.session.seat == "ronan"
    # The first page heard of it (this process) and only watches now, saying why.
    assert first.session.role == "spectator" and first.session.seat is None
    assert "Another phone took over your seat (Ronan)" in first.seat_note.note.object
    # Its old session, should anything still hold it, acts for no one.
    version = table.version
    assert old.send({"type": "declare", "combatant": "ronan", "bracket": "fast"}) == LOST
    assert table.version == version
    assert declare(first, "ronan").startswith("Not allowed")  # a spectator
    assert table.version == version
    assert declare(second, "ronan") == ""  # the new holder acts
    assert table.version == version + 1


def test_the_gm_frees_a_seat_and_the_phone_may_sit_again(world):
    service, table, code = world
    gm = GMPage(service, key="k" * 16)
    gm.open_table("Seats")
    brick = phone(service, table, code)
    brick.join("the-brick")
    assert "The Brick</b>: a phone sits here, connected" in gm.seat_list.list.object
    assert gm.seat_list.which.options == {"The Brick": "the-brick"}
    gm.seat_list.which.value = "the-brick"
    gm.seat_list.free()
    assert "The Brick&#x27;s seat is free" in gm.seat_list.message.object
    assert "The Brick</b>: free" in gm.seat_list.list.object
    assert not gm.seat_list.free_row.visible
    assert brick.session.role == "spectator"
    assert "The GM freed your seat (The Brick)" in brick.seat_note.note.object
    brick._pick_again()
    assert brick.join("the-brick")  # free again: no question
    assert brick.session.seat == "the-brick"
    assert "The Brick</b>: a phone sits here, connected" in gm.seat_list.list.object
    gm.close()


def test_a_new_join_code_keeps_the_seated_and_drops_the_watchers(world):
    service, table, code = world
    ronan, watcher = phone(service, table, code), phone(service, table, code)
    ronan.join("ronan")
    watcher.join(WATCH)
    table.apply({"type": "rotate_code"})
    ronan.refresh()
    watcher.refresh()
    assert ronan.session is not None and ronan.session.seat == "ronan"
    assert watcher.session is None  # back to the join prompt
    assert "changed the join code" in watcher.join_message.object
    assert declare(ronan, "ronan") == ""

    # The same browser's next page (a reload) sits down again, its old code notwithstanding.
    again = TablePage(service)
    again.token = ronan.token
    ronan._session_ended()  # the old page closed
    looked = again._first_look(code, "Seats", "ronan", "127.0.0.1")  # off the loop when served
    assert looked[0] == "back"
    again._opened(code, "Seats", "ronan", looked)
    assert again.session.seat == "ronan" and again.code is None
    # Another browser with the old link gets nowhere near the seat.
    stranger = TablePage(service)
    looked = stranger._first_look(code, "Seats", "ronan", "127.0.0.1")
    assert looked[0] == "code" and looked[1] is None
    stranger._opened(code, "Seats", "ronan", looked)
    assert stranger.session is None


def test_leaving_the_table_frees_the_seat(world):
    service, table, code = world
    page = phone(service, table, code)
    page.join("ronan")
    assert "ronan" in service.seats.claims("Seats")
    page.drop("You left the table.")
    assert "ronan" not in service.seats.claims("Seats")


def test_a_page_that_lost_its_seat_to_its_own_browsers_old_page_sits_back_when_that_closes(world):
    """A reload while the old page's reconnection is still on its way (note 0021).

    The reloaded page sits first; the old page's reconnection, with the same browser token,
    sits after it and takes the seat ("elsewhere"); a moment later the old page closes. The
    page the player sees takes its seat back by itself, with no question.
    """
    service, table, code = world
    reloaded, old = phone(service, table, code), phone(service, table, code)
    assert reloaded.join("ronan")
    old.token = reloaded.token  # the same browser (its cookie)
    assert old.join("ronan")  # "back": the same browser's token, no question
    assert reloaded.session.role == "spectator"
    assert "open on another page of this browser" in reloaded.seat_note.note.object
    assert "sits back down by itself" in reloaded.seat_note.note.object

    old._session_ended()  # the old page's websocket closes
    assert reloaded.session.role == "player" and reloaded.session.seat == "ronan"
    assert not reloaded.seat_note._layout.visible
    assert service.seats.holds(table.name, "ronan", reloaded.page_id)
    assert declare(reloaded, "ronan") == ""
    assert reloaded._seat_watch is None  # no longer waiting


def test_a_page_waiting_for_its_seat_does_not_take_it_from_an_open_page(world):
    """While the browser's other page is open, or after another phone took the seat, the
    page that lost it only watches."""
    service, table, code = world
    first, second = phone(service, table, code), phone(service, table, code)
    assert first.join("ronan")
    second.token = first.token
    assert second.join("ronan")
    assert first.session.role == "spectator" and first._seat_watch is not None
    service.seats.beat()  # the open page renews its claim: still connected
    first._sit_back(table.name, "ronan")
    assert first.session.role == "spectator"
    third = phone(service, table, code)  # another phone takes it over, then closes
    assert third.join("ronan", take_over=True)
    third._session_ended()
    assert first.session.role == "spectator"  # not this browser's seat any more
    first.close()
    assert first._seat_watch is None


def test_the_ki_bumps_box_starts_at_0_each_round(world):
    # Issue 31: last round's bumps stayed in the box, so the next Fast declaration was refused.
    service, table, code = world
    gm = GMPage(service, key="k" * 16)
    gm.open_table("Seats")
    page = phone(service, table, code)
    assert page.join("ronan")
    page.refresh()
    page.bumps.value = 1
    page.bracket.value = "normal"
    page._declare()
    assert table.state["combatants"]["ronan"]["bumps"] == 1
    gm.refresh()
    gm.controls.declare_who.value = "the-brick"
    gm.controls.declare_bumps.value = 1
    for cid in table.state["ids"]:
        if table.state["phase"] == "declare" and cid != "ronan":
            table.apply({"type": "declare", "combatant": cid, "bracket": "normal"})
    first = table.state["round"]
    while table.state["round"] == first:
        table.apply({"type": "end_turn"})
    assert table.state["phase"] == "declare"
    page.refresh()
    gm.refresh()
    assert page.bumps.value == 0
    assert gm.controls.declare_bumps.value == 0
    page.bracket.value = "fast"
    page._declare()
    assert page.message.object == ""  # accepted: no "bumped at most 0 step(s)"
    gm.close()
    page.close()


def test_the_gm_sees_a_takeover_at_once_and_may_make_takeovers_wait(world):
    # Issue 31: after a takeover the GM's list said "a phone sits here, connected", no more.
    from tb_playground.views.combat.seat_list import SeatList

    service, table, code = world
    seats = SeatList(service)
    seats.show(table)
    first, second, third = (phone(service, table, code) for _ in range(3))
    assert first.join("ronan")
    assert "a phone sits here, connected" in seats.list.object
    assert second.join("ronan", take_over=True)
    assert "taken over by another phone just now" in seats.list.object  # heard at once
    assert "Ronan: the seat was taken over by another phone." in seats.message.object
    # The GM's switch: the next takeover waits for a yes.
    seats.ask_gm.value = True
    assert service.seats.asks_gm(table.name)
    assert not third.join("ronan", take_over=True)
    assert "The GM has been asked" in third.join_message.object
    assert second.session.seat == "ronan" and third.session is None
    assert seats.asking_row.visible and seats.asking.value == "ronan"
    assert "asks to take it over" in seats.list.object
    seats.yes_button.clicks += 1
    assert third.session.seat == "ronan" and second.session.role == "spectator"
    assert not seats.asking_row.visible
    assert "goes to the phone that asked" in seats.message.object
    for page in (first, second, third):
        page.close()
    seats.show(None)


def test_your_attacks_go_when_the_fight_is_over(world):
    """Issue 31: a downed foe stayed in "Your attacks" after the fight."""
    service, table, code = world
    page = phone(service, table, code)
    assert page.join("ronan")
    page.refresh()
    assert "Your attacks" in page.attacks.object
    for cid in ("guard-dog", "nightmare"):  # Exhausted 5: down, yet not out of the fight
        table.apply({"type": "set", "combatant": cid, "field": "exhausted", "value": 5})
    assert table.state["phase"] == "over"
    assert not table.state["combatants"]["guard-dog"]["out"]
    page.refresh()
    assert page.attacks.object == ""
    page.close()
