"""The planner's tuner section: build the fight you want (issue 35, item 3).

Pick the party and a pool of creatures from the example roster and a difficulty (Easy 95%, Fair
80%, Hard 60%, Deadly 40% or a number); ``lab.tune.tune_encounter`` finds lineups, the three
best are shown with their numbers in words and figures, each can be sent to a live table (with
the planner's GM key) and its levers (``lab.levers``) shown. Widgets and layout only: every
number comes from the lab.
"""

from __future__ import annotations

from urllib.parse import quote

import panel as pn
import param

from tb_playground.formatting import escape, percent
from tb_playground.lab.levers import levers
from tb_playground.lab.tune import DIFFICULTIES, tune_encounter
from tb_playground.models.files import load
from tb_playground.models.roster import example_roster
from tb_playground.views.kit import TextMultiChoice

#: Lineups the section shows.
SHOWN = 3

#: Fights per run of the section's search and of its levers.
TUNE_FIGHTS, LEVER_FIGHTS = 3000, 1000

#: The difficulty choices: word -> the party's chance ("number": the GM's own).
CHOICES = {f"{word} ({chance:.0%})": word for word, chance in DIFFICULTIES.items()}
CHOICES["A number"] = "number"


def _roster_options(kind: str) -> dict[str, str]:
    return {e.name: e.file_name for e in example_roster().entries if e.kind == kind}


class TunerSettings(param.Parameterized):
    """What the tuner is asked."""

    party = param.List(default=[], item_type=str, doc="Roster files of the characters.")
    pool = param.List(default=[], item_type=str, doc="Roster files of the creatures on offer.")
    difficulty = param.Selector(
        default="Fair", objects=[*DIFFICULTIES, "number"], doc="How hard a fight."
    )
    chance = param.Number(
        default=70.0, bounds=(1.0, 99.0), doc="The party's chance to win, in percent (1..99)."
    )

    def target(self) -> float:
        """The party's chance to win asked for, 0..1."""
        if self.difficulty == "number":
            return self.chance / 100
        return DIFFICULTIES[self.difficulty]


def lineup_html(rank: int, lineup) -> str:
    """One lineup's numbers in words and figures (escaped names)."""
    low, high = lineup.p_win_interval
    rows = [
        ("The party wins", f"{percent(lineup.p_win)} ({percent(low)} to {percent(high)})"),
        ("A character goes down", percent(lineup.p_down)),
        ("A character is Dying at the end", percent(lineup.p_dying)),
        ("A character dies", percent(lineup.p_dead)),
        ("Rounds on average", f"{lineup.mean_rounds:.1f}"),
    ]
    if lineup.ki_spent is not None:
        rows.append(("Ki the party spends", f"{lineup.ki_spent:.1f}"))
    body = "".join(f"<tr><td>{escape(a)}</td><td>{escape(b)}</td></tr>" for a, b in rows)
    return (
        f'<div class="tune-lineup"><h4>{rank}. {escape(lineup.describe())}</h4>'
        f'<table class="tb">{body}</table></div>'
    )


class EncounterTuner(pn.viewable.Viewer):
    """The tuner section of the planner page.

    Parameters
    ----------
    planner : EncounterPlanner, optional
        The page's planner: its service and GM key send a lineup to a table.
    """

    def __init__(self, planner=None, **params):
        super().__init__(**params)
        self.planner = planner
        self.settings = TunerSettings()
        self.result = None
        self._build()

    def _build(self) -> None:
        s = self.settings
        self.party_pick = TextMultiChoice.from_param(
            s.param.party, options=_roster_options("character"), label="Party"
        )
        self.pool_pick = TextMultiChoice.from_param(
            s.param.pool, options=_roster_options("creature"), label="Creatures on offer"
        )
        self.difficulty = pn.widgets.Select.from_param(
            s.param.difficulty, options=CHOICES, label="Difficulty"
        )
        self.chance = pn.widgets.FloatInput.from_param(
            s.param.chance, label="The party's chance (%)", visible=False
        )
        s.param.watch(lambda e: setattr(self.chance, "visible", e.new == "number"), "difficulty")
        self.find = pn.widgets.Button(label="Find lineups", color="primary")
        self.find.on_click(lambda _e: self.search())
        self.message = pn.pane.HTML("", css_classes=["tune-message"])
        self.lineups = pn.pane.HTML("", css_classes=["tune-lineups"])
        self.pick = pn.widgets.Select(label="Lineup", options={}, visible=False)
        self.send = pn.widgets.Button(label="Send to the combat panel", visible=False)
        self.send.on_click(lambda _e: self.send_to_table())
        self.show_levers = pn.widgets.Button(label="What moves the odds", visible=False)
        self.show_levers.on_click(lambda _e: self.levers())
        self.levers_table = pn.pane.HTML("", css_classes=["tune-levers"])

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(
            pn.pane.Markdown("### Build the fight you want"),
            pn.pane.Markdown(
                "Pick the party, the creatures on offer and how hard a fight: the planner "
                "looks for lineups (how many of each creature, their Health scaled by at most "
                "half) the party wins that often, and plays each one thousands of times."
            ),
            self.party_pick,
            self.pool_pick,
            pn.Row(self.difficulty, self.chance),
            self.find,
            self.message,
            self.lineups,
            pn.Row(self.pick, self.send, self.show_levers),
            self.levers_table,
            sizing_mode="stretch_width",
        )

    def search(self):
        """Tune lineups for the chosen party, pool and difficulty; show the three best."""
        s = self.settings
        if not s.party or not s.pool:
            self.message.object = '<p class="enc-note err">Pick a party and creatures.</p>'
            return None
        roster = example_roster()
        try:
            party = [load(roster.path(f)) for f in s.party]
            pool = [load(roster.path(f)) for f in s.pool]
            self.find.disabled = True
            self.message.object = '<p class="enc-note">Looking for lineups...</p>'
            result = tune_encounter(party, pool, s.target(), fights=TUNE_FIGHTS, lineups=SHOWN)
        except (ValueError, OSError) as err:
            self.message.object = f'<p class="enc-note err">{escape(err)}</p>'
            return None
        finally:
            self.find.disabled = False
        self.result = result
        with pn.io.hold():
            self.message.object = f'<p class="enc-note">{escape(result.note)}</p>'
            self.lineups.object = "".join(
                lineup_html(i + 1, lu) for i, lu in enumerate(result.lineups[:SHOWN])
            )
            self.pick.options = {
                f"{i + 1}. {lu.describe()}": i for i, lu in enumerate(result.lineups[:SHOWN])
            }
            self.pick.value = 0
            self.levers_table.object = ""
            for w in (self.pick, self.send, self.show_levers):
                w.visible = True
        return result

    def chosen(self):
        """The lineup picked (None before a search)."""
        if self.result is None or self.pick.value is None:
            return None
        return self.result.lineups[self.pick.value]

    def levers(self):
        """The chosen lineup's levers as a small table, largest effect first."""
        lineup = self.chosen()
        if lineup is None:
            return None
        table = levers(lineup.encounter, fights=LEVER_FIGHTS)
        rows = "".join(
            f"<tr><td>{escape(c)}</td><td>{escape(p)}</td><td>{escape(e)}</td></tr>"
            for c, p, e in table.rows_in_words()
        )
        self.levers_table.object = (
            f'<p class="enc-note">As it stands the party wins {percent(table.p_win)}.</p>'
            '<table class="tb"><tr><th>Change</th><th>The party wins</th><th>Effect</th></tr>'
            f"{rows}</table>"
        )
        return table

    def send_to_table(self) -> str | None:
        """Open a table with the chosen lineup (the planner's GM key); returns its name."""
        lineup = self.chosen()
        planner = self.planner
        if lineup is None:
            return None
        if planner is None or not getattr(planner, "_gm", False):
            self.message.object = (
                '<p class="enc-note err">Enter the GM key first: only the GM opens tables.</p>'
            )
            return None
        try:
            names = set(planner.service.names())
            name, n = "Tuned encounter", 1
            while name in names:
                n += 1
                name = f"Tuned encounter {n}"
            table = planner.service.create(name, lineup.encounter)
        except (ValueError, OSError) as err:
            self.message.object = f'<p class="enc-note err">{escape(err)}</p>'
            return None
        self.message.object = (
            f'<p class="enc-note">Table <b>{escape(table.name)}</b> is open. '
            f'<a class="enc-link" href="./gm?table={escape(quote(table.name))}">Run it on the '
            "GM dashboard</a> (it asks for the GM key).</p>"
        )
        return table.name


__all__ = ["EncounterTuner", "TunerSettings", "lineup_html"]
