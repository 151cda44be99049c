"""The GM page's cookie token (issue 33, item 1): proves the key without being it."""

from __future__ import annotations

from tb_playground.service import CombatService


def test_the_token_opens_for_its_key_only_and_a_stale_one_locks_no_one_out(tmp_path):
    service = CombatService(tmp_path / "t.sqlite", gm_key="the-right-key-of-16")
    other = CombatService(tmp_path / "u.sqlite", gm_key="another-key-of-16!")
    token = service.gm_cookie()
    assert "the-right-key-of-16" not in token and token == service.gm_cookie()
    assert service.gm_cookie_ok(token)
    assert not service.gm_cookie_ok(other.gm_cookie())  # the key changed: the cookie is stale
    assert not service.gm_cookie_ok("") and not service.gm_cookie_ok(None)
    for _ in range(10):  # stale cookies are no guesses: the right key is still read at once
        service.gm_cookie_ok(other.gm_cookie())
    assert service.key_guard.wait("127.0.0.1") == 0
    assert service.gm_key_ok("the-right-key-of-16", "127.0.0.1")
