"""The night's numbers on the combat pages: a card per combatant, the luck, downloads.

Issue 23, item 4. The numbers are ``Table.night(role, seat, since)`` (``table/night.py``: what
each dealt, took, rolled and spent, the luck of every roll as its percentile in the engine's
exact distribution, turn times), as this page's role may see them; counted once per table
version in the service's ``DrawCache`` and on the tick after the click, never in the page's
first paint. They open by themselves when a fight ends ("fight over") and on demand.
Downloads: Markdown (campaign notes), CSV (combatants, rolls) and JSON. Rule: RULES.md, Core
Roll; note docs/notes/0017-replay-night-odds.md.
"""

from __future__ import annotations

import re

import panel as pn

from tb_playground.formatting import escape
from tb_playground.table import night as nights

from ..kit import button, row, update
from ..kit.download import csv_button, text_button
from .replay_panel import story_pane

#: The two spans of the numbers, as the buttons say them.
SINCE_LABELS = {"This fight": "fight", "The whole night": "night"}

#: The tracks, as a card names them.
TRACK_WORDS = {"health": "Health", "poise": "Poise", "sanity": "Sanity"}


def luck_words(luck: float | None) -> str:
    """A luck in plain words: "luck 92%: better than 92 of 100 rolls"."""
    if luck is None:
        return "no rolls counted"
    p = round(100 * luck)
    return f"luck {p}%: better than {p} of 100 rolls"


def _tracks(numbers: dict | None) -> str:
    if numbers is None:
        return "not shared"
    parts = [f"{n} {TRACK_WORDS[v]}" for v, n in numbers.items() if n]
    return ", ".join(parts) or "none"


def _seconds(s: float | None) -> str:
    if s is None:
        return "-"
    s = round(s)
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def _card(r: dict) -> str:
    spent = r["spent"]
    ki = "not shared" if spent is None else str(spent["ki"])
    fate = "not shared" if spent is None else str(spent["fate"])
    turns = (
        f"{r['turns']} turn(s), {_seconds(r['turn_seconds'])} in all, "
        f"longest {_seconds(r['longest_turn_seconds'])}"
        if r["turns"]
        else "none timed"
    )
    rows = [
        ("Dealt", _tracks(r["dealt"])),
        ("Took", _tracks(r["took"])),
        ("Hits", f"{r['hits']} (criticals {r['criticals']})"),
        ("Misses", f"{r['misses']} (catastrophes {r['catastrophes']})"),
        ("Ki spent", ki),
        ("Fate spent", fate),
        ("Rounds acted", str(r["rounds_acted"])),
        ("Turns", turns),
        ("Luck", f"{luck_words(r['average_luck'])} ({r['rolls']} roll(s))"),
    ]
    body = "".join(f"<dt>{k}</dt><dd>{escape(v)}</dd>" for k, v in rows)
    return (
        f'<div class="night-card" data-id="{escape(r["id"])}"><div class="name">'
        f'{escape(r["name"])}</div><div class="meta">{escape(r["side"])}</div>'
        f"<dl>{body}</dl></div>"
    )


def _roll(r: dict) -> str:
    faces = ", ".join(map(str, r["faces"])) or "no dice"
    what = f"kept {r['result']}" if r["kind"] == "to-hit" else f"{r['result']} level(s)"
    kind = "to-hit roll" if r["kind"] == "to-hit" else "damage roll"
    return (
        f"<li><b>{escape(r['name'])}</b>, round {r['round']}, {kind} against "
        f"{escape(r['target'])}: {faces} ({what}), {luck_words(r['luck'])}</li>"
    )


def night_html(numbers: dict) -> str:
    """The numbers as HTML: a card per combatant, each side's luck, the luckiest and unluckiest.

    Every name is escaped; a foe's numbers the GM does not share say "not shared".
    """
    title = "This fight's numbers" if numbers["since"] == "fight" else "The night's numbers"
    cards = "".join(_card(r) for r in numbers["combatants"])
    sides = "".join(
        f"<li>{escape(side)}: {luck_words(s['average_luck'])} on average ({s['rolls']} roll(s))"
        "</li>"
        for side, s in numbers["sides"].items()
    )
    parts = [
        f"<h3>{title}</h3>",
        f'<p class="status">{numbers["events"]} events, {numbers["rounds"]} round(s).</p>',
        f'<div class="night">{cards or "<p>No one to count yet.</p>"}</div>',
        f'<div class="night-luck"><h3>Luck</h3><ul>{sides}</ul>',
    ]
    lucky, unlucky = numbers["luckiest"], numbers["unluckiest"]
    if lucky and len(numbers.get("rolls", lucky)) <= len(lucky):  # the two lists the same
        parts.append(f"<b>The rolls, luckiest first</b><ul>{''.join(map(_roll, lucky))}</ul>")
    elif lucky:
        parts.append(f"<b>Luckiest rolls</b><ul>{''.join(map(_roll, lucky))}</ul>")
        parts.append(f"<b>Unluckiest rolls</b><ul>{''.join(map(_roll, unlucky))}</ul>")
    parts.append(
        '<p class="hint">Luck is where a roll fell among all the ways it could have fallen, '
        "from the exact odds of that roll: 50% is an average roll, 100% the best there is. "
        "Turn times run from when each command reached the table.</p></div>"
    )
    return "".join(parts)


def file_stem(table: str, since: str) -> str:
    """A safe file name start for a table's numbers ("friday-fight")."""
    stem = re.sub(r"[^a-z0-9]+", "-", table.lower()).strip("-") or "table"
    return f"{stem[:40]}-{since}"


class NightPanel(pn.viewable.Viewer):
    """The night's numbers of one page session: a button, the cards and the downloads.

    Parameters
    ----------
    service : CombatService
        The page's service (its ``DrawCache`` keeps the numbers per table version).
    prefix : str
        The start of every CSS class ("gm" or "tp": ``gm-night-open``, ``tp-night-csv``).
    """

    def __init__(self, service, prefix: str, **params):
        super().__init__(**params)
        self.service = service
        self._prefix = prefix
        self.table = None
        self.role, self.seat = "gm", None
        self.is_open = False
        self._over = False  # whether the fight was over at the last ``follow``
        self._drawn_for: tuple | None = None
        self._view: pn.Column | None = None
        self.opener = button("The night's numbers", f"{prefix}-night-open")
        self.opener.on_click(lambda _e: self.open())
        self._layout = pn.Column(sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _build(self) -> None:
        p = self._prefix
        self.since = pn.widgets.RadioButtonGroup(
            options=SINCE_LABELS, value="fight", css_classes=[f"{p}-night-since"]
        )
        self.since.param.watch(lambda _e: self._later(), "value")
        self.close_button = button("Hide the numbers", f"{p}-night-close")
        self.close_button.on_click(lambda _e: self.close())
        self.body = story_pane(f"{p}-night")
        self.downloads = row(
            text_button("Markdown (notes)", "numbers.md",
                        lambda: nights.to_markdown(self.numbers()), f"{p}-night-md"),
            csv_button("CSV: combatants", "numbers.csv",
                       lambda: nights.to_csv(self.numbers(), "combatants"), f"{p}-night-csv"),
            csv_button("CSV: every roll", "rolls.csv",
                       lambda: nights.to_csv(self.numbers(), "rolls"), f"{p}-night-rolls"),
            text_button("JSON", "numbers.json",
                        lambda: nights.to_json(self.numbers()), f"{p}-night-json"),
        )  # fmt: skip
        self._view = pn.Column(
            row(self.since, self.close_button),
            self.body,
            self.downloads,
            sizing_mode="stretch_width",
        )

    # -- the table -----------------------------------------------------------------------------

    def bind(self, table, role: str, seat: str | None = None) -> None:
        """Count ``table``'s numbers as ``role`` (and ``seat``); closed until asked or over."""
        self.table, self.role, self.seat = table, role, seat
        self._over = False
        self._drawn_for = None
        self.close()

    def numbers(self) -> dict:
        """The numbers now (counted once per table version, shared by the pages alike)."""
        t = self.table
        since = self.since.value if self._view is not None else "fight"
        key = (self.role, self.seat, since)
        return self.service.drawing(
            t, t.version, "night", key, lambda: t.night(self.role, self.seat, since)
        )

    def follow(self, view: dict) -> None:
        """After a table change: open when the fight has just ended; redraw if open."""
        over = view.get("phase") == "over"
        ended = over and not self._over
        self._over = over
        if ended:
            self.open()
        elif self.is_open:
            self._later()

    def open(self) -> None:
        """Show the numbers (counted on the next tick, off this change's paint)."""
        if self.table is None:
            return
        if self._view is None:
            self._build()
        self.is_open = True
        if not self._layout.objects:
            self._layout.objects = [self._view]
        self._later()

    def close(self) -> None:
        """Hide the numbers."""
        self.is_open = False
        if self._layout.objects:
            self._layout.objects = []

    def _later(self) -> None:
        doc = pn.state.curdoc
        if doc is not None and doc.session_context is not None:
            if self._drawn_for is None:
                update(self.body, object='<p class="status">Counting…</p>')
            doc.add_next_tick_callback(self.draw)
        else:
            self.draw()

    def draw(self) -> None:
        """Count (or read the kept count) and show it."""
        if not self.is_open or self.table is None:
            return
        key = (self.table.version, self.since.value)
        if key == self._drawn_for:
            return
        numbers = self.numbers()
        self._drawn_for = key
        update(self.body, object=night_html(numbers))
        stem = file_stem(self.table.name, self.since.value)
        names = (f"{stem}.md", f"{stem}.csv", f"{stem}-rolls.csv", f"{stem}.json")
        for widget, name in zip(self.downloads.objects, names, strict=True):
            update(widget, filename=name)
