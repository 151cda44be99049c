"""The encounter planner page: who wins, in how many rounds, and at what cost (issue 11).

Pick two sides from the example roster (``models.roster``) or a live table (with the GM key), say
how each side plays, and run ``tb_playground.lab.simulate`` in a thread (``lab.runs``: the run,
its progress, Cancel and the result's tables). The settings live in the URL; a link with few
fights (``AUTO_RUN_FIGHTS``) runs at once. Widgets and layout only: every number comes from the
lab.
"""

from __future__ import annotations

import io
from urllib.parse import quote

import holoviews as hv
import holoviews.plotting.bokeh  # noqa: F401 - the bars' options need the Bokeh backend
import panel as pn
import param

from tb_playground.engine import KI_POLICIES
from tb_playground.formatting import escape, percent
from tb_playground.lab import BOOST_POLICIES, BRACKET_POLICIES, ENDS, LEFT_OUT, TARGET_POLICIES
from tb_playground.lab.prepare import COVER_SETTINGS
from tb_playground.lab.runs import (
    FILE_NAMES,
    PlannerRun,
    ResultTable,
    plain_from_files,
    result_tables,
    sides_from_files,
    sides_from_table,
)
from tb_playground.models.names import options_for
from tb_playground.models.roster import build_encounter, encounter_choices, roster_choices

from .kit import (
    PHONE_CSS,
    PLANNER_CSS,
    READABLE_BUTTONS,
    TABLE_CSS,
    TextMultiChoice,
    csv_button,
    on_session_end,
    page,
    query_arg,
    served,
    sync_url,
)

#: A link with at most this many fights runs as soon as the page opens.
AUTO_RUN_FIGHTS = 5_000

#: The encounter file choice that starts from no file (the sides picked by hand).
NO_FILE = "No file: pick the sides yourself"

#: The answer before the first run (it sits above the controls on a phone).
NO_RUN = "No run yet: pick the sides and press Run."

#: Most fights one run of the page plays (a shared server's CPU is everyone's).
MAX_PAGE_FIGHTS = 200_000

#: After this many seconds a run shows its progress bar and a Cancel button.
SHOW_PROGRESS_AFTER = 1.0

#: How often the page looks at a running run, in milliseconds.
POLL_MS = 150

#: Colour of the rounds bars (3:1 or better on white and on the dark theme's #181818).
BAR_COLOR = "#2e8b57"


# -- the results in words ------------------------------------------------------------------


def _interval(low: float, high: float) -> str:
    return f"{percent(low)} to {percent(high)}"


def display_names(names: list[str]) -> list[str]:
    """Names told apart: a name that appears more than once gets its number ("Guard dog 2")."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if names.count(name) == 1 else f"{name} {seen[name]}")
    return out


def _table_html(table: ResultTable, headers: tuple[str, ...], words: int = 1) -> str:
    """A result table in words: ``words`` text columns, a percentage, its 95% interval.

    The percentage's exact value is in the cell's ``data-p``; the interval is one column.
    """
    head = "".join(f"<th>{escape(h)}</th>" for h in headers[:words])
    head += "".join(f'<th class="num">{escape(h)}</th>' for h in headers[words:])
    body = []
    for row in table.rows:
        text, numbers_ = row[:words], row[words:]
        cells = [f"<td>{escape(v)}</td>" for v in text]
        cells.append(
            f'<td class="num" data-p="{float(numbers_[0])!r}">{escape(percent(numbers_[0]))}</td>'
        )
        if len(numbers_) == 3:
            cells.append(f'<td class="num">{escape(_interval(numbers_[1], numbers_[2]))}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    return f'<div class="enc-table"><table class="tb"><tr>{head}</tr>{"".join(body)}</table></div>'


def _damage_html(table: ResultTable) -> str:
    names = display_names([row[0] for row in table.rows])
    shown = ResultTable(
        table.title,
        table.file_name,
        table.columns,
        tuple((name, row[2], *row[3:]) for name, row in zip(names, table.rows, strict=True)),
    )
    return _table_html(shown, ("Combatant", "Side", "Share", "95% interval"), words=2)


def _rounds_html(table: ResultTable) -> str:
    rows = ResultTable(table.title, table.file_name, table.columns, table.rows)
    return (
        '<details class="enc-rounds-table"><summary>Every round as a table</summary>'
        f"{_table_html(rows, ('Round', 'Chance the fight ends in it'))}</details>"
    )


def wins_html(result) -> str:
    """The headline: each side's chance to win with its interval, and the draws."""
    cells = []
    for i, side in enumerate(result.sides):
        low, high = result.p_win_interval[side]
        p = result.p_win[side]
        cells.append(
            f'<div class="enc-stat {"foe" if i else "party"} win-{i}">'
            f'<span class="pct" data-p="{p!r}">{escape(percent(p))}</span>'
            f'<span class="lbl">Victory: {escape(side)}</span>'
            f'<span class="ci">95%: {escape(_interval(low, high))}</span></div>'
        )
    if result.p_draw > 0:
        low, high = result.p_draw_interval
        cells.append(
            f'<div class="enc-stat draw"><span class="pct" data-p="{result.p_draw!r}">'
            f'{escape(percent(result.p_draw))}</span><span class="lbl">Nobody wins within '
            f'{result.max_rounds} rounds</span><span class="ci">95%: '
            f"{escape(_interval(low, high))}</span></div>"
        )
    r = result.rounds
    rounds = (
        f"A fight lasts {r.mean:.2f} rounds on average (95%: {r.mean_interval[0]:.2f} to "
        f"{r.mean_interval[1]:.2f})."
        if r.mean == r.mean
        else "No fight ended."
    )
    return (
        f'<div class="enc-stats">{"".join(cells)}</div>'
        f'<p class="enc-note enc-rounds">{escape(rounds)} {result.fights:,} '
        f"fight{'s' if result.fights != 1 else ''}, seed {escape(result.seed)}.</p>"
    )


def rounds_plot(result) -> hv.Histogram:
    """The rounds distribution as bars on a numeric axis: P(the fight ends in round r), %."""
    rows = result_tables(result)["rounds"].rows
    edges = [r - 0.5 for r, _ in rows] + [rows[-1][0] + 0.5]
    return hv.Histogram(
        (edges, [100 * p for _, p in rows]),
        kdims=["Round"],
        vdims=["Chance the fight ends in it (%)"],
    ).opts(
        color=BAR_COLOR,
        line_color=None,
        responsive=True,
        min_height=240,
        height=260,
        toolbar=None,
        default_tools=["hover"],
        fontsize={"labels": "10pt", "xticks": "9pt", "yticks": "9pt"},
        ylim=(0, None),
        xlim=(0.5, max(rows[-1][0], 5) + 0.5),
    )


# -- the settings and the page ---------------------------------------------------------------


class PlannerSettings(param.Parameterized):
    """Everything the planner's URL keeps (``pn.state.location.sync``)."""

    source = param.Selector(
        default="files", objects=["files", "table"], doc="Where the sides come from."
    )
    encounter = param.String(default="", doc="An example encounter file to start from, or ''.")
    party = param.List(
        default=["ronan.json"], item_type=str,
        doc="Roster picks for the first side (file names, '#2' for a second copy).",
    )  # fmt: skip
    foes = param.List(
        default=["grizzly_bear.yaml", "guard_dog.yaml", "guard_dog.yaml#2"], item_type=str,
        doc="Roster picks for the second side.",
    )  # fmt: skip
    table = param.String(
        default="", allow_None=True, doc="The live table whose fight is planned (GM key)."
    )
    party_bracket = param.Selector(default="normal", objects=list(BRACKET_POLICIES),
                                   doc="How the first side picks its Bracket.")  # fmt: skip
    foes_bracket = param.Selector(default="normal", objects=list(BRACKET_POLICIES),
                                  doc="How the other sides pick their Bracket.")  # fmt: skip
    party_target = param.Selector(default="weakest", objects=list(TARGET_POLICIES),
                                  doc="Whom the first side attacks.")  # fmt: skip
    foes_target = param.Selector(default="weakest", objects=list(TARGET_POLICIES),
                                 doc="Whom the other sides attack.")  # fmt: skip
    party_ki = param.Selector(default="stay_up", objects=list(KI_POLICIES),
                              doc="When the first side spends Ki to prevent levels.")  # fmt: skip
    foes_ki = param.Selector(default="stay_up", objects=list(KI_POLICIES),
                             doc="When the other sides spend Ki to prevent levels.")  # fmt: skip
    party_boost = param.Selector(default="lift", objects=list(BOOST_POLICIES),
                                 doc="Whether the first side boosts damage with Ki.")  # fmt: skip
    foes_boost = param.Selector(default="lift", objects=list(BOOST_POLICIES),
                                doc="Whether the other sides boost damage with Ki.")  # fmt: skip
    party_cover = param.Selector(default="none", objects=list(COVER_SETTINGS),
                                 doc="The cover the first side fights from.")  # fmt: skip
    foes_cover = param.Selector(default="none", objects=list(COVER_SETTINGS),
                                doc="The cover the other sides fight from.")  # fmt: skip
    end = param.Selector(default="down", objects=list(ENDS), doc="When a side is beaten.")
    fights = param.Integer(default=2_000, bounds=(1, MAX_PAGE_FIGHTS), doc="Fights to play.")
    seed = param.Integer(default=1, bounds=(0, 2**31 - 1), doc="The dice's seed.")

    def policies(self, first_side: str) -> dict:
        """``simulate``'s policy arguments: the first side's choices, the rest's default."""

        def pair(party, foes):
            return {"default": foes, first_side: party}

        return {
            "bracket_policy": pair(self.party_bracket, self.foes_bracket),
            "target_policy": pair(self.party_target, self.foes_target),
            "ki_policy": pair(self.party_ki, self.foes_ki),
            "boost_policy": pair(self.party_boost, self.foes_boost),
            "cover": pair(self.party_cover, self.foes_cover),
            "end": self.end,
        }


#: The settings a link carries (all of them).
SYNCED = tuple(p for p in PlannerSettings.param if p != "name")


#: The cover a side fights from, in words (``lab.prepare.COVER_SETTINGS``; rules/001 "Cover").
COVER_WORDS = {"No cover": "none", "Partial cover (attacks against it at Disadvantage)": "partial"}


def left_out_html() -> str:
    """The rules the simulation leaves out, in words (``lab.LEFT_OUT``; issue 32, item 16)."""
    items = "".join(f"<li>{escape(words)}</li>" for words in LEFT_OUT)
    return (
        "<details><summary>What the simulation leaves out</summary>"
        '<p class="enc-note">The fights are played by the rules of an attack, the tracks, Ki, '
        "Gifts, armor, Initiative and the Brackets, Off Balance, Surprised, Exhausted and "
        "Shattered (led by an ally). These the table plays and the simulation does not:</p>"
        f"<ul>{items}</ul></details>"
    )


def _html(css_class: str, **kwargs) -> pn.pane.HTML:
    kwargs.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(css_classes=[css_class], stylesheets=[PLANNER_CSS, TABLE_CSS], **kwargs)


def _box(*objects, flex: str = "1 1 300px", **kwargs) -> pn.Column:
    return pn.Column(
        *objects, sizing_mode="stretch_width", styles={"flex": flex, "min-width": "0"}, **kwargs
    )


class EncounterPlanner(pn.viewable.Viewer):
    """The encounter planner page's content (see the module docstring).

    Parameters
    ----------
    service : CombatService, optional
        The server's tables (default: ``service.get_service()``, made on first use).
    settings : PlannerSettings, optional
        The settings to start from (a fresh one by default; synced with the URL when served).
    """

    def __init__(self, service=None, settings: PlannerSettings | None = None, **params):
        super().__init__(**params)
        self._service = service
        self.settings = settings or PlannerSettings()
        self.run: PlannerRun | None = None
        self.result = None
        self._result_parts: list = []
        self._poller = None
        self._gm = False
        self._build()
        self._sync_url()
        if self.service_key_ok(query_arg("key")):
            self._unlock()
        self._on_source()
        self._on_file()
        self.settings.param.watch(lambda _e: self._on_source(), ["source"])
        self.settings.param.watch(lambda _e: self._on_file(), ["encounter"])
        on_session_end(self.close)

    # -- service and key ----------------------------------------------------------------------

    @property
    def service(self):
        """The combat service (made on first use)."""
        if self._service is None:
            from tb_playground.service import get_service

            self._service = get_service()
        return self._service

    def service_key_ok(self, key) -> bool:
        """Whether ``key`` is the service's GM key (wrong keys limited per address: guard.py)."""
        from tb_playground.guard import SlowDownError

        from .kit import client_address

        try:
            return bool(key) and self.service.gm_key_ok(key, client_address())
        except SlowDownError:
            return False

    def _unlock(self) -> None:
        self._gm = True
        self.key_input.visible = False
        self.key_button.visible = False
        self._refresh_tables()

    def _try_key(self) -> None:
        key = self.key_input.value
        self.key_input.value = ""
        if self.service_key_ok(key):
            self._unlock()
            self.send_message.object = '<p class="enc-note">GM key accepted.</p>'
            self._on_source()
        else:
            self.send_message.object = '<p class="enc-note err">That is not the GM key.</p>'

    def _refresh_tables(self) -> None:
        names = list(reversed(self.service.names())) if self._gm else []
        self.table_select.options = names
        if names and self.settings.table not in names:
            self.settings.table = names[0]

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:  # one widget per control
        s = self.settings
        # no tooltip from the parameters' docs (a tooltip runs off a phone's screen)
        wide = {"sizing_mode": "stretch_width"}
        plain = {**wide, "description": None}
        self.source = pn.widgets.RadioButtonGroup.from_param(
            s.param.source, options={"Roster files": "files", "A live table": "table"},
            label="", color="success", variant="outline", css_classes=["enc-source"],
            **plain,
        )  # fmt: skip
        files = {NO_FILE: "", **encounter_choices()}
        self.encounter_select = pn.widgets.Select.from_param(
            s.param.encounter, options=files, label="Start from an encounter file",
            css_classes=["enc-encounter"], **plain,
        )  # fmt: skip
        choices = roster_choices()
        self.party_pick = TextMultiChoice.from_param(
            s.param.party, options=choices, label="Party (first side)",
            css_classes=["enc-party"], **plain,
        )  # fmt: skip
        self.foes_pick = TextMultiChoice.from_param(
            s.param.foes, options=choices, label="Foes (second side)",
            css_classes=["enc-foes"], **plain,
        )  # fmt: skip
        self.table_select = pn.widgets.Select.from_param(
            s.param.table, options=[], label="Table", css_classes=["enc-table-pick"], **plain
        )
        self.table_note = _html("enc-table-note")
        self.file_note = _html("enc-file-note")

        def policy(parameter, kind, label, css):
            return pn.widgets.Select.from_param(
                parameter, options=options_for(kind, parameter.objects), label=label,
                css_classes=[css], **plain,
            )  # fmt: skip

        self.policy_widgets = {}
        for who in ("party", "foes"):
            self.policy_widgets[who] = [
                policy(
                    s.param[f"{who}_bracket"], "bracket_policy", "Bracket", f"enc-{who}-bracket"
                ),
                policy(s.param[f"{who}_target"], "target_policy", "Target", f"enc-{who}-target"),
                policy(s.param[f"{who}_ki"], "ki_policy", "Ki to prevent levels", f"enc-{who}-ki"),
                policy(s.param[f"{who}_boost"], "boost_policy", "Ki boosts", f"enc-{who}-boost"),
                pn.widgets.Select.from_param(
                    s.param[f"{who}_cover"],
                    options=COVER_WORDS,
                    label="Cover",
                    css_classes=[f"enc-{who}-cover"],
                    **plain,
                ),  # fmt: skip
            ]
        self.end_select = policy(s.param.end, "fight_end", "Fight", "enc-end")
        self.fights_input = pn.widgets.IntInput.from_param(
            s.param.fights, label="Fights", step=1000, css_classes=["enc-fights"], **plain
        )
        self.seed_input = pn.widgets.IntInput.from_param(
            s.param.seed, label="Seed", css_classes=["enc-seed"], **plain
        )
        self.run_button = pn.widgets.Button(
            label="Run", color="primary", css_classes=["enc-run"], sizing_mode="stretch_width"
        )
        self.run_button.on_click(lambda _e: self.start())
        self.cancel_button = pn.widgets.Button(
            label="Cancel", color="danger", css_classes=["enc-cancel"], visible=False, **wide
        )
        self.cancel_button.on_click(lambda _e: self.cancel())
        self.progress = pn.indicators.Progress(
            value=0, max=100, visible=False, css_classes=["enc-progress"], **wide
        )
        self.status = _html("enc-status")
        self.wins = _html("enc-wins", object=f'<p class="enc-note enc-no-run">{escape(NO_RUN)}</p>')
        self.plot = pn.pane.HoloViews(None, css_classes=["enc-rounds-plot"], **wide)
        self.tables = {key: _html(f"enc-{key}") for key in ("rounds", "characters", "damage")}
        self.downloads = {}
        for key in ("wins", "rounds", "characters", "damage"):
            self.downloads[key] = csv_button(
                "Download CSV",
                FILE_NAMES[key],
                lambda key=key: self._csv(key).getvalue(),
                f"enc-csv-{key}",
            )
            self.downloads[key].visible = False
        # sending the sides to the combat panel
        self.key_input = pn.widgets.PasswordInput(
            label="GM key", placeholder="the key the server printed", css_classes=["enc-key"],
            **wide,
        )  # fmt: skip
        self.key_button = pn.widgets.Button(label="Enter key", css_classes=["enc-key-enter"])
        self.key_button.on_click(lambda _e: self._try_key())
        self.send_button = pn.widgets.Button(
            label="Send to the combat panel", color="success", css_classes=["enc-send"],
            stylesheets=[READABLE_BUTTONS], **wide,
        )  # fmt: skip
        self.send_button.on_click(lambda _e: self.send_to_table())
        self.send_message = _html("enc-send-message")

    def __panel__(self) -> pn.viewable.Viewable:
        files = pn.Column(
            self.encounter_select, self.file_note, self.party_pick, self.foes_pick, **_wide()
        )
        self._files_box = files
        self._table_box = pn.Column(self.table_select, self.table_note, **_wide())
        plays = pn.FlexBox(
            _box(pn.pane.Markdown("**The party plays**", margin=(0, 10)),
                 *self.policy_widgets["party"], flex="1 1 200px"),
            _box(pn.pane.Markdown("**The foes play**", margin=(0, 10)),
                 *self.policy_widgets["foes"], flex="1 1 200px"),
            **_wide(),
        )  # fmt: skip
        run = pn.FlexBox(
            _box(self.fights_input, flex="1 1 120px"),
            _box(self.seed_input, flex="1 1 150px"),
            _box(self.end_select, flex="2 1 220px"),
            **_wide(),
        )
        controls = _box(
            pn.pane.Markdown("### The sides", margin=(0, 10)),
            self.source,
            files,
            self._table_box,
            pn.pane.Markdown("### How each side plays", margin=(0, 10)),
            plays,
            pn.pane.Markdown("### The run", margin=(0, 10)),
            run,
            self.run_button,
            self.progress,
            self.cancel_button,
            self.status,
            flex="1 1 420px",
            css_classes=["enc-controls"],
        )

        def titled(title, pane, key):
            return pn.Column(
                pn.pane.Markdown(f"#### {title}", margin=(8, 10, 0, 10)),
                pane,
                self.downloads[key],
                **_wide(),
            )

        self._result_parts = [
            titled(
                "How many rounds", pn.Column(self.plot, self.tables["rounds"], **_wide()), "rounds"
            ),  # fmt: skip
            titled("The characters", self.tables["characters"], "characters"),
            titled("Who did the damage", self.tables["damage"], "damage"),
        ]
        for part in self._result_parts:
            part.visible = self.result is not None
        results = _box(
            pn.pane.Markdown("### Who wins", margin=(0, 10)),
            self.wins,
            self.downloads["wins"],
            *self._result_parts,
            _html("enc-left-out", object=left_out_html()),
            flex="2 1 340px",
        )
        send = _box(
            pn.pane.Markdown("### Play it at the table", margin=(0, 10)),
            _html(
                "enc-send-help",
                object='<p class="enc-note">Opens a table on the GM dashboard with these sides '
                "(needs the GM key the server printed).</p>",
            ),
            pn.FlexBox(
                _box(self.key_input, flex="1 1 200px"),
                pn.Column(self.key_button, styles={"flex": "0 0 auto", "align-self": "flex-end"}),
                **_wide(),
            ),
            self.send_button,
            self.send_message,
            flex="1 1 100%",
        )
        intro = pn.pane.Markdown(
            "Pick two sides and how they play, and the planner fights it out thousands of "
            "times: each side's chance to win (with its 95% interval), how many rounds it "
            "takes, how often a character goes down, and who does the damage. The settings "
            "are kept in the page's address: copy it to share the view.",
            css_classes=["enc-intro"],
            **_wide(),
        )
        # The answer first in the page (a phone shows it first, issue 34); on a wide screen
        # the controls on its left (planner.css).
        return pn.Column(
            intro,
            pn.FlexBox(results, controls, send, stylesheets=[PLANNER_CSS], **_wide()),
            **_wide(),
        )

    # -- URL -----------------------------------------------------------------------------------

    def _sync_url(self) -> None:
        """The settings in the URL, both ways (``share.sync_url``: a bad value is skipped)."""
        if not served() or pn.state.location is None:
            return
        given = set(pn.state.location.query_params) & set(SYNCED)
        sync_url(self.settings, {p: p for p in SYNCED})
        if given and self.settings.fights <= AUTO_RUN_FIGHTS:
            pn.state.onload(self.start)

    # -- the sides -----------------------------------------------------------------------------

    def _on_source(self) -> None:
        from_table = self.settings.source == "table"
        for w in (self.encounter_select, self.party_pick, self.foes_pick):
            w.visible = not from_table
        self.file_note.visible = not from_table and bool(self.settings.encounter)
        self.table_select.visible = self.table_note.visible = from_table
        self.send_button.disabled = from_table
        if from_table:
            self._refresh_tables()
            self.table_note.object = (
                '<p class="enc-note">The fight as it stands now: every combatant\'s Health, '
                "Poise, Sanity and Ki, and the table's rules. The table itself is not "
                "changed.</p>"
                if self._gm
                else '<p class="enc-note">A live table needs the GM key (below).</p>'
            )

    def _on_file(self) -> None:
        """Say who the chosen encounter file brings, side by side (the pickers add to them)."""
        name = self.settings.encounter
        if not name:
            self.file_note.object = ""
            self.file_note.visible = False
            return
        try:
            plain = plain_from_files(name, [], [])
        except (ValueError, OSError) as err:
            self.file_note.object = f'<p class="enc-note err">{escape(err)}</p>'
        else:
            by_side = {}
            for record in plain["combatants"]:
                by_side.setdefault(record["side"], []).append(record["name"])
            lines = "".join(
                f"<li><b>{escape(side)}</b>: {escape(', '.join(names))}</li>"
                for side, names in by_side.items()
            )
            self.file_note.object = (
                f'<div class="enc-note">The file brings<ul class="enc-brings">{lines}</ul>'
                "The pickers below add to its first and second side.</div>"
            )
        self.file_note.visible = self.settings.source == "files"

    def encounter_source(self):
        """A callable giving the chosen sides as plain data (run in the run's thread)."""
        s = self.settings
        if s.source == "table":
            if not self._gm:
                raise ValueError("A live table needs the GM key.")
            if not s.table:
                raise ValueError("No table is open on this server.")
            return sides_from_table(self.service, s.table)
        return sides_from_files(s.encounter, s.party, s.foes)

    def first_side(self) -> str:
        """The side the "party" policies apply to."""
        s = self.settings
        if s.source == "table" and self._gm and s.table:
            state = self.service.open(s.table).state
            return state.get("party_side") or state["sides"][0]
        if s.encounter:
            return plain_from_files(s.encounter, [], [])["sides"][0]
        return "Party"

    # -- running -------------------------------------------------------------------------------

    def make_run(self) -> PlannerRun:
        """A run of the current settings (not started)."""
        s = self.settings
        return PlannerRun(
            self.encounter_source(), s.fights, s.seed, **s.policies(self.first_side())
        )

    def start(self, wait: bool = False) -> PlannerRun | None:
        """Run the current settings in a thread (``wait``: play it here, then show it)."""
        if self.run is not None and self.run.running:
            return self.run
        try:
            run = self.make_run()
        except (ValueError, OSError) as err:
            self.status.object = f'<p class="enc-note err">{escape(err)}</p>'
            return None
        self.run = run
        self.run_button.disabled = True
        self.status.object = '<p class="enc-note">Running...</p>'
        if wait or not served():
            run.play()
            self._finish(run)
            return run
        run.start()
        self._poller = pn.state.add_periodic_callback(self._poll, period=POLL_MS)
        return run

    def cancel(self) -> None:
        """Stop the current run."""
        if self.run is not None:
            self.run.cancel()

    def _poll(self) -> None:
        run = self.run
        if run is None:
            return
        if run.finished is not None:
            self._finish(run)
            return
        if run.elapsed > SHOW_PROGRESS_AFTER:
            self.progress.visible = True
            self.cancel_button.visible = True
            self.progress.value = int(100 * run.progress)
            self.status.object = (
                f'<p class="enc-note">{run.decided:,} of {run.fights:,} fights decided...</p>'
                if run.decided
                else '<p class="enc-note">Setting up the fights...</p>'
            )

    def _stop_polling(self) -> None:
        if self._poller is not None:
            self._poller.stop()
            self._poller = None

    def _finish(self, run: PlannerRun) -> None:
        self._stop_polling()
        with pn.io.hold():
            self.run_button.disabled = False
            self.progress.visible = False
            self.cancel_button.visible = False
            if run.cancelled:
                self.status.object = (
                    f'<p class="enc-note enc-cancelled">Cancelled after {run.decided:,} of '
                    f"{run.fights:,} fights.</p>"
                )
            elif run.error:
                self.status.object = f'<p class="enc-note err">{escape(run.error)}</p>'
            elif run.result is not None:
                self.status.object = (
                    f'<p class="enc-note enc-done">Done in {run.elapsed:.1f} s.</p>'
                )
                self.show(run.result)

    def show(self, result) -> None:
        """Write ``result`` into the results panes."""
        self.result = result
        tables = result_tables(result)
        self.wins.object = wins_html(result)
        self.plot.object = rounds_plot(result)
        self.tables["rounds"].object = _rounds_html(tables["rounds"])
        self.tables["characters"].object = _table_html(
            tables["characters"], ("What happens", "Chance", "95% interval")
        )
        self.tables["damage"].object = _damage_html(tables["damage"])
        for download in self.downloads.values():
            download.visible = True
        for part in self._result_parts:
            part.visible = True

    def _csv(self, key: str) -> io.StringIO:
        return io.StringIO(result_tables(self.result)[key].csv())

    # -- the combat panel ----------------------------------------------------------------------

    def send_to_table(self) -> str | None:
        """Create a table on the service from the chosen sides; returns its name (or None)."""
        s = self.settings
        if not self._gm:
            self.send_message.object = (
                '<p class="enc-note err">Enter the GM key first: only the GM opens tables.</p>'
            )
            return None
        if s.source == "table":
            self.send_message.object = '<p class="enc-note">This fight is on a table already.</p>'
            return None
        try:
            enc = build_encounter(s.encounter, list(s.party), list(s.foes))
            names = set(self.service.names())
            base = str(enc.name) or "Planned encounter"
            name, n = base, 1
            while name in names:
                n += 1
                name = f"{base} {n}"
            table = self.service.create(name, enc)
        except (ValueError, OSError) as err:
            self.send_message.object = f'<p class="enc-note err">{escape(err)}</p>'
            return None
        self.send_message.object = (
            f'<p class="enc-note">Table <b>{escape(table.name)}</b> is open. '
            f'<a class="enc-link" href="./gm?table={escape(quote(table.name))}">Run it on the '
            "GM dashboard</a> (it asks for the GM key).</p>"
        )
        return table.name

    def close(self) -> None:
        """Stop the run and the polling (when the session ends)."""
        self.cancel()
        self._stop_polling()


def _wide() -> dict:
    return {"sizing_mode": "stretch_width"}


def encounter_page(service=None) -> pn.template.BaseTemplate:
    """The whole encounter planner page, one per session."""
    from .encounter_tuner import EncounterTuner

    planner = EncounterPlanner(service)
    return page(
        "Encounter planner",
        [planner, EncounterTuner(planner)],
        current="encounter",
        raw_css=[PHONE_CSS],
    )


__all__ = [
    "EncounterPlanner",
    "PlannerSettings",
    "encounter_page",
]
