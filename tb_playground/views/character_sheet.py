"""The character sheet editor: inputs grouped like a printed sheet, derived values live.

Rule: RULES.md (rules/000, 002, 004 through ``models.Character``). The tables' HTML and CSV are
built in ``sheet_render``, the list editors are ``rows_editor.RowsEditor``; the sheet saves and
loads a JSON or YAML file. Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re

import panel as pn
import param

from tb_playground.engine import ELEMENTS
from tb_playground.engine.character_stats import SET_CONDITIONS
from tb_playground.formatting import escape, reason_line
from tb_playground.models import (
    ArmorItem,
    Character,
    Creature,
    Descriptor,
    FileFormatError,
    Flaw,
    Gift,
    Ruleset,
    Skill,
    Weapon,
    dumps,
    loads,
)
from tb_playground.models.files import saved_fields
from tb_playground.models.roster import example_roster
from tb_playground.models.ruleset import SWITCHES
from tb_playground.models.switches import SWITCH_LABELS

from .kit import (
    READABLE_BUTTONS,
    SHEET_CSS,
    SHEET_PAGE_CSS,
    TABLE_CSS,
    UploadBox,
    csv_button,
    pack_text,
    page,
    query_value,
    served,
    set_query,
    sync_url,
    unpack_text,
)
from .rows_editor import RowsEditor
from .ruleset_badge import RulesetBadge
from .sheet_render import (
    attack_odds_csv,
    attack_table_html,
    creature_html,
    defenses_html,
    fate_html,
    ki_html,
    movement_html,
    plain,
    skill_odds_csv,
    skill_odds_html,
    versus_card_csv,
    vitals_html,
)

#: Target conditions the attack table offers against a creature (rules/001 "Getting Low",
#: "Terrain and Footing"): the ones that change the odds of an attack against it.
TARGET_CONDITIONS = {
    "Prone": "Prone",
    "Belly Down": "Belly Down",
    "Squeezed (tight space)": "Squeezed",
}

#: The sheet's labels for the conditions a player or GM puts on a character.
CONDITION_LABELS = {("Squeezed (tight space)" if c == "Squeezed" else c): c for c in SET_CONDITIONS}

#: The roster picker's first entry (nothing picked yet).
PICK_PROMPT = "Choose a character..."

#: What a card's header says it does when clicked (the whole header opens and closes it).
OPEN, CLOSE = "\u25b8", "\u25be"

#: Cards grow from 380 px, so they sit side by side on a wide screen and stack on a phone.
CARD = {"sizing_mode": "stretch_width", "margin": (5, 5), "styles": {"flex": "1 1 380px"}}

#: Cards that want a whole row (the skill odds table, the attack table).
WIDE = {"styles": {"flex": "1 1 100%"}}


#: Panes that fill their card's width.
STRETCH = {"sizing_mode": "stretch_width"}


def _label(text: str) -> pn.pane.HTML:
    """A small title over a button group (button groups show no label of their own)."""
    return pn.pane.HTML(f"<b>{escape(text)}</b>", margin=(6, 10, 0, 10), **STRETCH)


def switch_help_html() -> str:
    """Where each Ruleset switch comes from: its label and the reading it switches to."""
    items = "".join(
        f"<li><b>{escape(SWITCH_LABELS[name])}</b>: {escape(Ruleset.param[name].doc)}</li>"
        for name in SWITCHES
    )
    return (
        '<details class="sheet-note"><summary>Where each switch comes from</summary>'
        f"<p>Off, every switch plays the main chapter's reading (rules/000 and 004).</p>"
        f"<ul>{items}</ul></details>"
    )


def default_creatures() -> list[Creature]:
    """The example roster's creatures (parsed once per process), or one default card.

    The roster's creatures are shared by every session and only read here.
    """
    return list(example_roster().creatures) or [Creature()]


def _file_name(name: str, suffix: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_").lower() or "character"
    return f"{stem}{suffix}"


#: The sheet's settings kept in the page URL (``/character?boosts=2&advantage=1``); the
#: character itself is ``sheet`` (its file, packed) and the creature ``vs`` (its name).
URL_KEYS = {
    "approach": "approach",
    "boosts": "boosts",
    "advantage": "advantage",
    "trained_only": "trained_only",
    "target_conditions": "creature_is",
}


class CharacterSheet(pn.viewable.Viewer):
    """The editor for one ``Character``, with every derived value live.

    Parameters
    ----------
    character : Character
        The sheet's character; a fresh one by default.
    creatures : list of Creature
        The roster the attack section picks a target from (default: ``examples/roster``).
    """

    character = param.ClassSelector(class_=Character, doc="The character on the sheet.")
    creatures = param.List(default=[], item_type=Creature, doc="Creatures to attack.")
    target = param.ClassSelector(class_=Creature, doc="The creature attacked.")
    approach = param.Selector(
        default="best",
        objects=["best", *ELEMENTS],
        doc="The Element for weapon and Gift attacks; best: the strongest one allowed.",
    )
    boosts = param.Integer(default=0, bounds=(0, 5), doc="Ki boosts per attack.")
    advantage = param.Integer(default=0, bounds=(-1, 1), doc="Disadvantage, normal, Advantage.")
    trained_only = param.Boolean(default=False, doc="Show only Skills at Trained or better.")
    target_conditions = param.ListSelector(
        default=[],
        objects=list(TARGET_CONDITIONS.values()),
        doc="The creature's conditions: Prone or Belly Down (in Melee) give Advantage, "
        "squeezed in a tight space Disadvantage.",
    )

    def __init__(self, **params):
        if params.get("character") is None:
            params["character"] = Character()
        if not params.get("creatures"):
            params["creatures"] = default_creatures()
        if params.get("target") is None:
            params["target"] = params["creatures"][0]
        super().__init__(**params)
        c = self.character
        self._build_identity(c)
        self._build_stats(c)
        self._build_derived()
        self._build_rows(c)
        self._build_play(c)
        self._build_attacks()
        self._build_files()
        self._ruleset_box = pn.Column(sizing_mode="stretch_width")
        self._switch_help = pn.pane.HTML(
            switch_help_html(), css_classes=["switch-help"], stylesheets=[SHEET_CSS], **STRETCH
        )
        self._ruleset_watcher = None
        self._cards: list[pn.Card] = []
        self._card_names: dict[int, str] = {}
        self._bind_ruleset()
        self._pending = False
        self._dirty = False
        self._link_text = self._link_token = ""
        self._attack_cache: dict[tuple, list] = {}
        # Inputs are watched after the model's own updates (they run first), so one change is
        # one redraw; derived values only for the changes that come from inside a row.
        self._inputs = [n for n, p in c.param.objects().items() if not p.constant]
        self._refreshed = self._inputs_key()
        self._refresh_derived()
        self._refresh_attacks(creature=True)
        self._character_watchers = [
            c.param.watch(self._on_character, self._inputs),
            c.param.watch(self._on_derived, [n for n in c.param if n not in self._inputs]),
            c.param.watch(self._bind_ruleset, ["ruleset"]),
        ]
        self.param.watch(
            self._on_attack_controls,
            ["target", "approach", "boosts", "advantage", "trained_only", "target_conditions"],
        )
        self._from_link()

    # -- the page URL ---------------------------------------------------------------------------

    def _from_link(self) -> None:
        """Start from the page URL's character, creature and settings, then keep them there."""
        token = query_value("sheet")
        if isinstance(token, str) and token:
            try:
                self.load_text(unpack_text(token), "the link")
            except ValueError as exc:
                self._file_message.object = f'<p class="bad">{escape(exc)}.</p>'
        wanted = query_value("vs")
        for label, creature in self._target.options.items():
            if wanted in (label, creature.name):
                self._target.value = creature  # the Select sets ``target``
                break
        sync_url(self, URL_KEYS)
        self._to_link()
        self.param.watch(self._to_link, ["target"])

    def _to_link(self, *events) -> None:
        """Write the character (its file, packed) and the creature into the page URL.

        Only in a served page, and the file is packed again only when its text changed.
        """
        if not served():
            return
        text = dumps(self.character, "json")
        if text != self._link_text:
            self._link_text = text
            self._link_token = pack_text(text)
        set_query(sheet=self._link_token, vs=self.target.name)

    # -- building ------------------------------------------------------------------------------

    def _html(self, css: str, **kwargs) -> pn.pane.HTML:
        kwargs.setdefault("sizing_mode", "stretch_width")
        return pn.pane.HTML(css_classes=[css], stylesheets=[SHEET_CSS, TABLE_CSS], **kwargs)

    def _build_identity(self, c: Character) -> None:
        text = pn.widgets.TextInput.from_param
        self._identity = [
            text(c.param.name, label="Name", css_classes=["sheet-name"]),
            text(c.param.player, label="Player"),
            text(c.param.concept, label="Concept"),
            pn.widgets.TextAreaInput.from_param(c.param.notes, label="Notes", height=70),
        ]
        roster = example_roster()
        self._roster_files = {f.name: f for f in roster.characters}
        self._roster_pick = pn.widgets.Select(
            label="Start from the example roster",
            options=[PICK_PROMPT, *self._roster_files],
            value=PICK_PROMPT,
            disabled=not self._roster_files,
            description=roster.problem
            or "Loads that character into the sheet, as uploading its file would.",
            sizing_mode="stretch_width",
            css_classes=["roster-pick"],
        )
        self._roster_pick.param.watch(self._on_roster_pick, ["value"])

    def _build_stats(self, c: Character) -> None:
        def spinner(name: str) -> pn.widgets.IntInput:
            return pn.widgets.IntInput.from_param(
                c.param[name.lower()],
                label=name,
                width=88,
                css_classes=[f"stat-{name.lower()}"],
            )

        self._elements = [spinner(name) for name in ELEMENTS]
        self._sub_stats = [
            spinner(name)
            for name in (
                "Soak", "Health", "Ferocity", "Potence", "Initiative",
                "Stamina", "Presence", "Psyche", "Klotho", "Atropos",
            )
        ]  # fmt: skip

    def _build_derived(self) -> None:
        self._defenses = self._html("sheet-defenses")
        self._vitals = self._html("sheet-vitals")
        self._ki = self._html("sheet-ki")
        self._movement = self._html("sheet-movement")
        self._fate = self._html("sheet-fate")
        self._skill_odds = self._html("skill-odds-pane")

    def _build_rows(self, c: Character) -> None:
        self._skills = RowsEditor(
            c, "skills", Skill, {"name": "Skill", "element": "Element", "tier": "Tier"}
        )
        self._weapons = RowsEditor(
            c,
            "weapons",
            Weapon,
            {"name": "Weapon", "dice": "Dice", "normal_range": "Range m", "long_range": "Long m"},
        )
        self._gifts = RowsEditor(
            c,
            "gifts",
            Gift,
            {
                "name": "Gift",
                "level": "Level",
                "dice": "Dice",
                "kind": "Kind",
                "ki_cost": "Ki",
                "gift_check": "Check",
            },
        )
        self._armor = RowsEditor(
            c,
            "armor",
            ArmorItem,
            {
                "name": "Armor",
                "hardness": "Hardness",
                "levels": "Levels",
                "zone": "Zone",
                "worn": "Worn",
            },
        )
        self._descriptors = RowsEditor(
            c,
            "descriptors",
            Descriptor,
            {"name": "Descriptor", "sub_stat": "Sub-stat", "element": "Argues"},
        )
        self._flaws = RowsEditor(c, "flaws", Flaw, {"name": "Flaw", "notes": "Notes"})

    def _build_play(self, c: Character) -> None:
        spin = pn.widgets.IntInput.from_param
        self._play = [
            spin(c.param[name], label=label, width=125, css_classes=[f"play-{name}"])
            for name, label in (
                ("ki_spent", "Ki spent"),
                ("ki_bonus", "Ki from XP"),
                ("fate_tokens", "Fate Tokens"),
                ("fate_spent_this_scene", "Fate spends"),
                ("health_lost", "Health lost"),
                ("poise_lost", "Poise lost"),
                ("sanity_lost", "Sanity lost"),
                ("exhausted", "Exhausted"),
            )
        ]
        self._flustered = pn.widgets.Checkbox.from_param(
            c.param.flustered_this_scene,
            label="Flustered this Scene (Poise was at 0)",
            css_classes=["play-flustered"],
        )
        self._end_scene = pn.widgets.Button(
            label="End the Scene", color="default", css_classes=["end-scene"]
        )
        self._end_scene.on_click(lambda event: self.character.end_scene())
        self._conditions = pn.widgets.CheckButtonGroup.from_param(
            c.param.conditions,
            options=CONDITION_LABELS,
            label="Conditions",
            color="warning",
            variant="outline",
            stylesheets=[READABLE_BUTTONS],
            orientation="horizontal",
            sizing_mode="stretch_width",
        )

    def _build_attacks(self) -> None:
        names = [k.name for k in self.creatures]
        self._target = pn.widgets.Select(
            label="Against",
            options={
                k.name if names.count(k.name) == 1 else f"{k.name} ({i + 1})": k
                for i, k in enumerate(self.creatures)
            },
            value=self.target,
            width=240,
            css_classes=["attack-target"],
        )
        self._target.param.watch(lambda event: setattr(self, "target", event.new), ["value"])
        self._approach = pn.widgets.Select.from_param(
            self.param.approach,
            label="Element for weapons and Gifts",
            options={plain("approach", a): a for a in self.param.approach.objects},
            width=200,
        )
        self._boosts = pn.widgets.IntSlider.from_param(self.param.boosts, label="Ki boosts")
        self._advantage = pn.widgets.RadioButtonGroup.from_param(
            self.param.advantage,
            options={"Disadvantage": -1, "Normal": 0, "Advantage": 1},
            color="success",
            variant="outline",
        )
        self._target_conditions = pn.widgets.CheckButtonGroup.from_param(
            self.param.target_conditions,
            options=TARGET_CONDITIONS,
            label="The creature is",
            color="warning",
            variant="outline",
            stylesheets=[READABLE_BUTTONS],
            css_classes=["attack-target-conditions"],
        )
        self._attacks = self._html("sheet-attacks")
        self._creature = self._html("sheet-creature")
        self._csv_attacks = csv_button(
            "Download attacks (CSV)",
            "attacks.csv",
            lambda: attack_odds_csv(self.character, self.attack_options()),
            "csv-attacks",
        )
        self._csv_card = csv_button(
            "Download the card odds (CSV)",
            "card-odds.csv",
            lambda: versus_card_csv(self.character, self.target),
            "csv-card",
        )
        self._csv_skills = csv_button(
            "Download Skill odds (CSV)",
            "skill-odds.csv",
            lambda: skill_odds_csv(self.character, self.trained_only),
            "csv-skills",
        )

    def _build_files(self) -> None:
        name = self.character.name
        self._download_json = pn.widgets.FileDownload(
            callback=lambda: self._file("json"),
            filename=_file_name(name, ".json"),
            label="Download JSON",
            color="primary",
            embed=False,
            css_classes=["download-json"],
        )
        self._download_yaml = pn.widgets.FileDownload(
            callback=lambda: self._file("yaml"),
            filename=_file_name(name, ".yaml"),
            label="Download YAML",
            embed=False,
        )
        self._upload = UploadBox(accept=".json,.yaml,.yml", multiple=False, css_classes=["upload"])
        self._upload.param.watch(self._on_upload, ["value"])
        self._file_message = self._html("file-message")

    def dispose(self) -> None:
        """Unwatch the character, its ruleset and its rows.

        Call it when the sheet is thrown away while its character lives on (a notebook cell
        run again, a shared character); the page does it when the session ends.
        """
        c = self.character
        for watcher in self._character_watchers:
            c.param.unwatch(watcher)
        self._character_watchers = []
        if self._ruleset_watcher is not None:
            c.ruleset.param.unwatch(self._ruleset_watcher)
            self._ruleset_watcher = None
        for editor in (
            self._skills,
            self._weapons,
            self._gifts,
            self._armor,
            self._descriptors,
            self._flaws,
        ):
            editor.dispose()

    def _bind_ruleset(self, *events) -> None:
        """Widgets for the character's ruleset; rebound if the character gets another one."""
        for event in events:
            if self._ruleset_watcher is not None:
                event.old.param.unwatch(self._ruleset_watcher)
        r = self.character.ruleset
        self._ruleset_watcher = r.param.watch(self._on_character, list(r.param))
        system = pn.widgets.RadioButtonGroup.from_param(
            r.param.system,
            options={plain("system", v): v for v in r.param.system.objects},
            color="success",
            variant="outline",
        )
        switches = [
            pn.widgets.Checkbox.from_param(r.param[name], label=SWITCH_LABELS[name])
            for name in SWITCHES
        ]
        self._ruleset_box.objects = [system, *switches, self._switch_help]
        self._title_cards()

    # -- updating ------------------------------------------------------------------------------

    def _inputs_key(self) -> tuple:
        """The character's inputs and its ruleset's switches, to tell one change from another."""
        c, r = self.character, self.character.ruleset
        return (*(getattr(c, n) for n in self._inputs), *(getattr(r, n) for n in r.param))

    def _on_character(self, *events) -> None:
        """An input or a ruleset switch moved: redraw once, after the model has settled.

        The model's own updates run before this watcher, so the derived values are current.
        A redraw already made for these inputs (a nested change, ``flustered_this_scene``) is
        not made again. On a server the redraw waits one event-loop tick, so the events of one
        browser message coalesce into one; in a notebook it is immediate.
        """
        self._attack_cache.clear()
        if self._dirty or self._inputs_key() != self._refreshed:
            self._schedule_refresh()

    def _on_derived(self, *events) -> None:
        """A derived value moved: redraw, unless an input change is on its way to the sheet.

        A change inside a row (a Skill's tier) moves derived values alone; an input's change
        moves them first and redraws once it reaches ``_on_character``.
        """
        self._attack_cache.clear()
        self._dirty = True
        if self._inputs_key() == self._refreshed:
            self._schedule_refresh()

    def _schedule_refresh(self) -> None:
        if not self._pending:
            self._pending = True
            pn.state.execute(self._refresh_all, schedule=True)

    def _refresh_all(self) -> None:
        self._pending = False
        self._dirty = False
        self._refreshed = self._inputs_key()
        name = self.character.name
        with pn.io.hold():
            self._download_json.filename = _file_name(name, ".json")
            self._download_yaml.filename = _file_name(name, ".yaml")
            self._refresh_derived()
            self._refresh_attacks(creature=True)
            self._title_cards()
        self._to_link()

    def _on_attack_controls(self, *events) -> None:
        names = {e.name for e in events}
        if "trained_only" in names:
            self._skill_odds.object = skill_odds_html(self.character, self.trained_only)
        if names - {"trained_only"}:
            self._refresh_attacks(creature="target" in names)

    def _refresh_derived(self) -> None:
        c = self.character
        with pn.io.hold():
            self._defenses.object = defenses_html(c)
            self._vitals.object = vitals_html(c)
            self._ki.object = ki_html(c)
            self._movement.object = movement_html(c)
            self._fate.object = fate_html(c)
            self._skill_odds.object = skill_odds_html(c, self.trained_only)

    def _refresh_attacks(self, creature: bool = False) -> None:
        """Redraw the attack table (and the creature's card when ``creature``).

        A move of the Ki-boosts slider or another attack control redraws only the table, from
        ``attack_options`` kept per control setting until the character changes, so moving back
        to a setting already seen costs no recomputation.
        """
        c = self.character
        key = (
            id(self.target),
            self.boosts,
            self.approach,
            self.advantage,
            tuple(self.target_conditions),
        )
        html = self._attack_cache.get(key)
        if html is None:
            html = self._attack_cache[key] = attack_table_html(c, self.attack_options())
        with pn.io.hold():
            if creature:
                self._creature.object = creature_html(c, self.target)
            self._attacks.object = html

    def attack_options(self) -> list:
        """``Character.attack_options`` for the sheet's creature and attack settings."""
        approach = None if self.approach == "best" else self.approach
        return self.character.attack_options(
            self.target, self.boosts, approach, self.advantage, self.target_conditions
        )

    def _file(self, fmt: str) -> io.BytesIO:
        return io.BytesIO(dumps(self.character, fmt).encode("utf-8"))

    def load_text(self, text: str | bytes, source: str = "file") -> None:
        """Replace the sheet's inputs with a character file's, or report every problem.

        Nothing changes unless the whole file is valid.
        """
        self._show_file(_read_character(text, source), source)

    def _show_file(self, outcome: Character | FileFormatError, source: str) -> None:
        """Load a character read from a file, or list the file's problems."""
        if isinstance(outcome, FileFormatError):
            items = "".join(f"<li>{escape(e)}</li>" for e in outcome.errors)
            self._file_message.object = (
                f'<div class="bad"><b>{escape(source)}</b>: nothing loaded.<ul>{items}</ul></div>'
            )
            return
        values = {name: getattr(outcome, name) for name in saved_fields(Character)}
        self.character.param.update(**values)
        # Poise climbing back from the old sheet's 0 must not mark the new one Flustered.
        self.character.flustered_this_scene = outcome.flustered_this_scene
        self._file_message.object = f"<p>Loaded <b>{escape(outcome.name)}</b>.</p>"

    def load_example(self, name: str) -> None:
        """Load one character of the example roster into the sheet, as an upload would."""
        file = self._roster_files[name]
        self.load_text(file.text, file.file_name)

    def _on_roster_pick(self, event) -> None:
        if event.new in self._roster_files:
            self.load_example(event.new)
            self._roster_pick.value = PICK_PROMPT  # so the same one can be picked again

    async def _on_upload(self, event) -> None:
        """Read an uploaded file on a worker thread, so other sessions never wait for it.

        The widget is cleared first: choosing the same file name again (after editing it)
        is a new upload and is read again.
        """
        if not event.new:
            return
        text, source = event.new, self._upload.filename or "upload"
        self._upload.clear()
        self._file_message.object = f"<p>Reading <b>{escape(source)}</b>...</p>"
        loop = asyncio.get_running_loop()
        outcome = await loop.run_in_executor(None, _read_character, text, source)
        if isinstance(outcome, FileFormatError):
            logging.getLogger(__name__).warning(
                "character upload %r refused: %s", source, reason_line(outcome)
            )
        self._show_file(outcome, source)

    # -- layout --------------------------------------------------------------------------------

    def _card(self, title: str, *objects, css: str = "", **kwargs) -> pn.Card:
        """A section that opens and closes from its header, and says which it is."""
        card = pn.Card(
            *objects,
            title=title,
            css_classes=[css] if css else [],
            collapsible=True,
            **{**CARD, **kwargs},
        )
        self._card_names[id(card)] = title
        card.param.watch(lambda event: self._title_card(event.obj), ["collapsed"])
        self._cards.append(card)
        self._title_card(card)
        return card

    def _card_title(self, card: pn.Card) -> str:
        title = self._card_names[id(card)]
        if title == "Ruleset":
            title = f"Ruleset: {self._ruleset_summary()}"
        if card.collapsed:
            return f"{OPEN} {title} (closed: click to show)"
        return f"{CLOSE} {title}"

    def _title_card(self, card: pn.Card) -> None:
        title = self._card_title(card)
        if card.title != title:
            card.title = title

    def _title_cards(self) -> None:
        for card in self._cards:
            self._title_card(card)

    def _ruleset_summary(self) -> str:
        r = self.character.ruleset
        on = len(r.variants_on)
        system = plain("system", r.system)
        switches = "no switches on" if on == 0 else f"{on} switch{'es' if on > 1 else ''} on"
        return f"{system}, {switches}"

    def __panel__(self) -> pn.viewable.Viewable:
        flex = {"sizing_mode": "stretch_width", "flex_wrap": "wrap"}
        identity = self._card("Who", self._roster_pick, *self._identity, css="card-identity")
        elements = self._card(
            "Elements",
            pn.FlexBox(*self._elements, **flex),
            css="card-elements",
        )
        sub_stats = self._card(
            "Sub-stats (independent, 0..10)",
            pn.FlexBox(*self._sub_stats, **flex),
            css="card-sub-stats",
        )
        derived = self._card(
            "Derived",
            pn.pane.Markdown("**Defenses and walls**", margin=(0, 5)),
            self._defenses,
            pn.pane.Markdown("**Vitals**", margin=(0, 5)),
            self._vitals,
            pn.pane.Markdown("**Ki**", margin=(0, 5)),
            self._ki,
            pn.pane.Markdown("**Movement and travel**", margin=(0, 5)),
            self._movement,
            pn.pane.Markdown("**Fate**", margin=(0, 5)),
            self._fate,
            css="card-derived",
        )
        skills = self._card(
            "Skills",
            self._skills,
            pn.widgets.Checkbox.from_param(self.param.trained_only, label="Trained or better only"),
            self._skill_odds,
            self._csv_skills,
            css="card-skills",
            **WIDE,
        )
        gear = self._card(
            "Weapons and armor",
            self._weapons,
            pn.pane.Markdown("Armor (one worn item per zone)", margin=(0, 5)),
            self._armor,
            css="card-gear",
        )
        gifts = self._card("Gifts", self._gifts, css="card-gifts")
        descriptors = self._card(
            "Descriptors and Flaws", self._descriptors, self._flaws, css="card-descriptors"
        )
        play = self._card(
            "In play",
            pn.FlexBox(*self._play, **flex),
            _label("Conditions on the character"),
            self._conditions,
            pn.FlexBox(self._flustered, self._end_scene, **flex),
            css="card-play",
        )
        attacks = self._card(
            "Attacks against a creature",
            pn.FlexBox(self._target, self._approach, **flex),
            self._boosts,
            _label("Circumstances"),
            self._advantage,
            _label("The creature is"),
            self._target_conditions,
            self._attacks,
            self._csv_attacks,
            self._creature,
            self._csv_card,
            css="card-attacks",
            **WIDE,
        )
        files = self._card(
            "File",
            pn.Row(self._download_json, self._download_yaml, sizing_mode="stretch_width"),
            pn.pane.Markdown("Load a character file (.json, .yaml):", margin=(0, 5)),
            self._upload,
            self._file_message,
            css="card-file",
        )
        ruleset = self._card(
            "Ruleset",
            self._ruleset_box,
            css="card-ruleset",
            collapsed=True,
        )
        return pn.FlexBox(
            identity,
            elements,
            sub_stats,
            derived,
            skills,
            gear,
            gifts,
            descriptors,
            play,
            attacks,
            files,
            ruleset,
            sizing_mode="stretch_width",
            flex_wrap="wrap",
            align_items="flex-start",
        )


def _read_character(text: str | bytes, source: str) -> Character | FileFormatError:
    """Parse and validate a character file (safe on any thread: it builds no widget)."""
    try:
        return loads(text, kind="character", source=source)
    except FileFormatError as exc:
        return exc


def character_page(
    character: Character | None = None, creatures: list[Creature] | None = None
) -> pn.template.BaseTemplate:
    """The whole "Character sheet" page, one per session."""
    sheet = CharacterSheet(character=character, creatures=creatures or [])
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.state.on_session_destroyed(lambda context: sheet.dispose())
    return page(
        "Character sheet",
        [RulesetBadge(owner=sheet.character), sheet],
        current="character",
        main_max_width="1400px",
        raw_css=[SHEET_PAGE_CSS],
    )
