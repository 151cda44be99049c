"""Who may see what at the table: the privacy policy every view, log line and number follows.

The GM sees everything; players and spectators see no hidden combatant, and a foe's numbers
(Health, Ki, its Defense in a TN) only as labels unless the GM shares them. Rule: RULES.md "The
table"; rules/004 (a label instead of numbers). Readings: docs/notes/0008-table.md (issue 20
"Leaks closed", issue 21).
"""

from __future__ import annotations

#: Foe labels (rules/004: a label instead of numbers), from every track: Health, Poise, Sanity.
LABELS = ("unhurt", "hurt", "bloodied", "down")

#: The tracks a foe's label follows (issue 31: Sanity or Poise harm shows too).
LABEL_TRACKS = ("health", "poise", "sanity")


def label(c: dict) -> str:
    """unhurt, hurt, bloodied or down, in words that give no number (rules/004).

    down: out of the fight or Health at 0 or below; unhurt: every track (Health, Poise,
    Sanity) full; bloodied: some track at or under half; hurt: any other harm. Issue 31: the
    label follows every track, so Sanity or Poise harm no longer leaves a foe "unhurt".
    """
    if c["out"] or c["now"]["health"] <= 0:
        return "down"
    worst = "unhurt"
    for track in LABEL_TRACKS:
        now, top = c["now"].get(track), c["max"].get(track)
        if now is None or top is None or now >= top:
            continue
        if 2 * now <= top:
            return "bloodied"
        worst = "hurt"
    return worst


#: What an attacker's page shows of its odds against a foe whose numbers are not shared: the
#: GM's choice (issue 31; the texts are silent on whether a player knows a foe's Defense).
FOE_ODDS = ("exact", "words", "none")

#: Until the GM chooses: the exact odds, as every table had them before the switch (a table in
#: play keeps what its players know; new players learn the roll-under curve from the numbers).
#: A GM who keeps the foes' Defense secret turns it to "words" beside "share the foes' numbers".
FOE_ODDS_DEFAULT = "exact"

#: What each choice reveals, for the GM's switch (its help) and the log.
FOE_ODDS_WORDS = {
    "exact": "the exact odds and the TN, from which the foe's Defense can be worked out",
    "words": 'the chance to hit in words only ("a long shot" under 30%, "a fair chance" under '
    '70%, "likely"): each covers at least 4 TNs, so the foe\'s Defense stays a guess',
    "none": "nothing: no TN, no chance",
}


def foe_odds(state: dict) -> str:
    """What an attacker sees of its odds against a foe: "exact", "words" or "none" (issue 31)."""
    return state.get("foe_odds", FOE_ODDS_DEFAULT)


def attacker_odds(state: dict, d: dict, role: str, seat: str | None) -> str:
    """How ``role`` at ``seat`` sees the odds of an attack ``d``: "exact", "words" or "none".

    The GM's switch (``foe_odds``) for a player attacking a foe whose numbers are not shared;
    "exact" for anyone else (whether they see the odds at all is ``attack_numbers``).
    """
    if sees_all(role) or state["share_foes"] or seat is None or seat != d.get("attacker"):
        return "exact"
    t = state["combatants"].get(d.get("target")) if d.get("target") else None
    if t is None or t["id"] == seat or not foe(state, t):
        return "exact"
    return foe_odds(state)


def sees_all(role: str) -> bool:
    """Whether ``role`` sees everything (the GM)."""
    return role == "gm"


def visible(state: dict, cid: str, role: str) -> bool:
    """Whether ``role`` sees ``cid``; one no longer at the table (undone) only the GM."""
    if sees_all(role):
        return True
    c = state["combatants"].get(cid)
    return c is not None and not c["hidden"]


def unseen(state: dict, value: object, role: str) -> bool:
    """Whether ``value`` is the id of a combatant ``role`` may not see."""
    return (
        isinstance(value, str) and value in state["combatants"] and not visible(state, value, role)
    )


def foe(state: dict, c: dict) -> bool:
    """Whether ``c`` is not on the party's side (its numbers are the GM's unless shared)."""
    return c["side"] != state["party_side"]


def may_read_numbers(state: dict, cid: str | None, role: str) -> bool:
    """Whether ``role`` may read ``cid``'s numbers (the cards' rule: a foe's only if shared)."""
    c = state["combatants"].get(cid) if cid else None
    return sees_all(role) or state["share_foes"] or c is None or not foe(state, c)


def card_name(state: dict, cid: str, role: str = "gm") -> str:
    """``cid``'s name as its card shows it: two of one name (an old table) take their number.

    A table numbers combatants of the same name when it makes them ("Guard dog 2"); one made
    before that may hold two "Guard dog"s: each then takes the number at the end of its id
    ("guard-dog-2" -> "Guard dog 2", else 1), as the pages' selects do. Only the combatants
    ``role`` sees count, so a hidden namesake changes no name.
    """
    c = state["combatants"].get(cid)
    if c is None:
        return cid
    same = 0
    for other in state["combatants"].values():
        if other["name"] == c["name"] and visible(state, other["id"], role):
            same += 1
    if same < 2:
        return c["name"]
    tail = cid.rsplit("-", 1)[-1]
    return f"{c['name']} {tail if tail.isdigit() else 1}"


def attack_numbers(state: dict, d: dict, role: str, seat: str | None) -> bool:
    """Whether ``role`` may read the TN and odds of the attack of ``d`` (attacker, target).

    The GM, the attacker and the target always; everyone when the GM shares the foes' numbers
    or when no foe is in it. A foe's attack on another player shows without them (issue 20).
    The attacker on a foe only when the GM lets attackers see exact odds (issue 31).
    """
    if sees_all(role) or state["share_foes"] or seat in (d.get("attacker"), d.get("target")):
        return attacker_odds(state, d, role, seat) == "exact"  # the GM's switch (issue 31)
    for key in ("attacker", "target"):
        c = state["combatants"].get(d.get(key)) if d.get(key) else None
        if c is not None and foe(state, c):
            return False
    return True
