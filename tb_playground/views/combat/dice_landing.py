"""The odds as the dice land, on the page of whoever types them (issue 23, item 5).

Rule: RULES.md, Core Roll and Attacks. While physical dice are typed into the dice box of a
to-hit or damage roll, one die at a time, the step shows the exact odds given the dice typed
so far (``engine/dice_landing.py`` through ``Table.pending_odds(role, seat, typed)``, shown to whom
the pending odds are shown: ``table/dice_typed.py``). The odds of one prefix are made once per
table version and shared by the pages of the same role and seat (``CombatService.drawing``).
Only the typist's page shows them: the dice typed so far are not a table event (note 0017).
"""

from __future__ import annotations

from tb_playground.engine.roll_reading import dice_needed
from tb_playground.formatting import escape, percent, plural

from .combat_render import bars, down_words

#: What each to-hit chance is called on the page, and the odds' key.
TO_HIT_WORDS = (("Hit", "p_hit"), ("Critical", "p_critical"), ("Catastrophe", "p_catastrophe"))


def typed_so_far(text: str | None) -> list[int] | None:
    """The faces typed so far ("3", "3 7", "3,7"); None while something else is typed.

    Parameters
    ----------
    text : str or None
        The dice box's text as it is being typed.

    Examples
    --------
    >>> typed_so_far("3, 7 ")
    [3, 7]
    >>> typed_so_far("3 x") is None
    True
    """
    parts = (text or "").replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


def dice_of(p: dict | None) -> int | None:
    """How many dice the roll due at the view's pending step ``p`` takes (None: no such roll).

    A damage roll's dice are read from its odds (one more level count than dice); on a
    critical hit half of them, rounded up, connect with no roll and are not typed.
    """
    if p is None:
        return None
    if p["step"] == "to_hit":
        return dice_needed(p["advantage"])
    levels = (p.get("odds") or {}).get("levels")
    if p["step"] == "damage" and levels:
        dice = len(levels) - 1
        return dice - ((dice + 1) // 2 if p["critical"] else 0)
    return None


def problem(typed: list[int], most: int | None) -> str:
    """What is wrong with ``typed`` for a roll of ``most`` dice, in plain words ("": nothing)."""
    if any(not 1 <= f <= 10 for f in typed):
        return "A die shows 1 to 10."
    if most is not None and len(typed) > most:
        return f"This roll takes {plural(most, 'die', 'dice')}."
    return ""


def _chance(label: str, css: str, p: float) -> str:
    return f'<span>{escape(label)} <b class="{css}" data-p="{float(p)!r}">{percent(p)}</b></span>'


def dice_landing_html(odds: dict | None, dice: int | None = None, vital: str | None = None) -> str:
    """The odds given the dice typed so far, as the step shows them ("" for none).

    Parameters
    ----------
    odds : dict or None
        ``Table.pending_odds(role, seat, typed)`` (with its "typed"), or None (not shown).
    dice : int, optional
        How many dice the roll takes (said as "2 of 3 dice typed").
    vital : str, optional
        The track the attack hits: the chance to go down names it (``down_words``).

    Returns
    -------
    str
        A to-hit roll: the chance to hit, of a critical and of a catastrophe, and of the target
        going down; a damage roll: the expected levels, the chance the target goes down and a
        bar for each level count. Each chance carries its exact value in ``data-p``.
    """
    if not odds or not odds.get("typed"):
        return ""
    typed = odds["typed"]
    if odds["step"] == "damage" and odds.get("armor"):
        return (
            '<div class="landing hint">Armor is in the way: the chances above do not follow '
            "the dice typed.</div>"
        )
    of = f" of {dice}" if dice is not None else ""
    head = (
        f'<div class="meta">So far {escape(", ".join(map(str, typed)))} '
        f"({len(typed)}{of} {'die' if (dice or len(typed)) == 1 else 'dice'} typed); "
        "the chances now:</div>"
    )
    items = []
    if "p_hit" in odds:
        items += [_chance(label, f"l-{key[2:]}", odds[key]) for label, key in TO_HIT_WORDS]
    else:
        expected = float(odds["expected_levels"])
        items.append(
            f'<span>Expected levels <b class="l-expected" data-x="{expected!r}">'
            f"{expected:.2f}</b></span>"
        )
    items.append(_chance(down_words(vital), "l-down", odds["p_down"]))
    body = f'<div class="odds">{"".join(items)}</div>'
    if odds["step"] == "damage":
        body += f'<div class="l-levels">{bars(odds["levels"])}</div>'
    return f'<div class="landing">{head}{body}</div>'


def dice_landing_odds(service, table, role: str, seat: str | None, typed: list[int]) -> dict | None:
    """``table.pending_odds(role, seat, typed)``, made once per table version and shared.

    None when this person is not shown the odds, or when no roll takes these dice now (the
    table moved on meanwhile).
    """

    def make():
        try:
            return table.pending_odds(role, seat, list(typed))
        except ValueError:
            return None

    key = (role, seat, tuple(typed))
    return service.drawing(table, table.version, "landing odds", key, make)


def for_page(page):
    """``odds(typed)`` for a combat page: its session's table, role and seat, now (or None)."""

    def odds(typed: list[int]) -> dict | None:
        s = page.session
        if s is None:
            return None
        return dice_landing_odds(page.service, s.table, s.role, s.seat, typed)

    return odds
