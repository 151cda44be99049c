"""The character sheet editor: inputs grouped like a printed sheet, derived values live.

Rule: RULES.md (rules/000, 002, 004 through ``models.Character``). The sheet is made of its
inputs (``sheet_inputs``), its odds (``sheet_odds``: the derived values, the Skill odds, the
attacks on a creature), its file (``sheet_file``: downloads, uploads, the example roster) and
its cards (``sheet_layout``); this module ties them to one character: one redraw per change,
and the page URL that carries the character and the sheet's settings. The tables' HTML and
CSV are built in ``sheet_render``. Notes: docs/notes/0012-sheet.md.
"""

from __future__ import annotations

import panel as pn
import param

from tb_playground.engine import ELEMENTS
from tb_playground.formatting import escape
from tb_playground.models import Character, Creature, dumps
from tb_playground.models.roster import example_roster

from .kit import (
    SHEET_PAGE_CSS,
    pack_text,
    page,
    query_value,
    served,
    set_query,
    sync_url,
    unpack_text,
)
from .ruleset_badge import RulesetBadge
from .sheet_file import SheetFile
from .sheet_inputs import SheetInputs, ruleset_summary
from .sheet_layout import WIDE, CardDeck, label
from .sheet_odds import TARGET_CONDITIONS, SheetOdds


def default_creatures() -> list[Creature]:
    """The example roster's creatures (parsed once per process), or one default card.

    The roster's creatures are shared by every session and only read here.
    """
    return list(example_roster().creatures) or [Creature()]


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
        self.deck = CardDeck()  # the cards, made with the layout (sheet_layout.py)
        self.file = SheetFile(lambda: self.character)  # downloads, uploads, the roster
        self.odds = SheetOdds(self)  # derived values, Skill odds, attacks (sheet_odds.py)
        self.odds.summary.styles = {"flex": "1 1 100%"}
        self.inputs = SheetInputs(c, self._on_character, self.deck.retitle)
        self._pending = False
        self._dirty = False
        self._link_text = self._link_token = ""
        # Inputs are watched after the model's own updates (they run first), so one change is
        # one redraw; derived values only for the changes that come from inside a row.
        self._inputs = [n for n, p in c.param.objects().items() if not p.constant]
        self._refreshed = self._inputs_key()
        self._character_watchers = [
            c.param.watch(self._on_character, self._inputs),
            c.param.watch(self._on_derived, [n for n in c.param if n not in self._inputs]),
            c.param.watch(self.inputs.bind_ruleset, ["ruleset"]),
        ]
        self._from_link()

    # -- the page URL ---------------------------------------------------------------------------

    def _from_link(self) -> None:
        """Start from the page URL's character, creature and settings, then keep them there."""
        token = query_value("sheet")
        if isinstance(token, str) and token:
            try:
                self.load_text(unpack_text(token), "the link")
            except ValueError as exc:
                self.file.message.object = f'<p class="bad">{escape(exc)}.</p>'
        wanted = query_value("vs")
        for label_, creature in self.odds.target.options.items():
            if wanted in (label_, creature.name):
                self.odds.target.value = creature  # the Select sets ``target``
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

    def dispose(self) -> None:
        """Unwatch the character, its ruleset and its rows.

        Call it when the sheet is thrown away while its character lives on (a notebook cell
        run again, a shared character); the page does it when the session ends.
        """
        c = self.character
        for watcher in self._character_watchers:
            c.param.unwatch(watcher)
        self._character_watchers = []
        self.inputs.dispose()

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
        self.odds.forget()
        if self._dirty or self._inputs_key() != self._refreshed:
            self._schedule_refresh()

    def _on_derived(self, *events) -> None:
        """A derived value moved: redraw, unless an input change is on its way to the sheet.

        A change inside a row (a Skill's tier) moves derived values alone; an input's change
        moves them first and redraws once it reaches ``_on_character``.
        """
        self.odds.forget()
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
        with pn.io.hold():
            self.file.name_files(self.character.name)
            self.odds.refresh_derived()
            self.odds.refresh_attacks(creature=True)
            self.deck.retitle()
        self._to_link()

    def attack_options(self) -> list:
        """``Character.attack_options`` for the sheet's creature and attack settings."""
        approach = None if self.approach == "best" else self.approach
        return self.character.attack_options(
            self.target, self.boosts, approach, self.advantage, self.target_conditions
        )

    def load_text(self, text: str | bytes, source: str = "file") -> None:
        """Replace the sheet's inputs with a character file's, or report every problem.

        Nothing changes unless the whole file is valid (``SheetFile.load_text``).
        """
        self.file.load_text(text, source)

    def load_example(self, name: str) -> None:
        """Load one character of the example roster into the sheet, as an upload would."""
        self.file.load_example(name)

    # -- layout --------------------------------------------------------------------------------

    def __panel__(self) -> pn.viewable.Viewable:
        card, inputs, odds, file = self.deck.card, self.inputs, self.odds, self.file
        flex = {"sizing_mode": "stretch_width", "flex_wrap": "wrap"}
        identity = card("Who", file.roster_pick, *inputs.identity, css="card-identity")
        elements = card(
            "Elements",
            pn.FlexBox(*inputs.elements, **flex),
            css="card-elements",
        )
        sub_stats = card(
            "Sub-stats (independent, 0..10)",
            pn.FlexBox(*inputs.sub_stats, **flex),
            css="card-sub-stats",
        )
        derived = card(
            "Derived",
            pn.pane.Markdown("**Defenses and walls**", margin=(0, 5)),
            odds.defenses,
            pn.pane.Markdown("**Vitals**", margin=(0, 5)),
            odds.vitals,
            pn.pane.Markdown("**Ki**", margin=(0, 5)),
            odds.ki,
            pn.pane.Markdown("**Movement and travel**", margin=(0, 5)),
            odds.movement,
            pn.pane.Markdown("**Fate**", margin=(0, 5)),
            odds.fate,
            css="card-derived",
        )
        skills = card(
            "Skills",
            inputs.skills,
            pn.widgets.Checkbox.from_param(self.param.trained_only, label="Trained or better only"),
            odds.skill_odds,
            odds.csv_skills,
            css="card-skills",
            **WIDE,
        )
        gear = card(
            "Weapons and armor",
            inputs.weapons,
            pn.pane.Markdown("Armor (one worn item per zone)", margin=(0, 5)),
            inputs.armor,
            css="card-gear",
        )
        gifts = card("Gifts", inputs.gifts, css="card-gifts")
        descriptors = card(
            "Descriptors and Flaws", inputs.descriptors, inputs.flaws, css="card-descriptors"
        )
        play = card(
            "In play",
            pn.FlexBox(*inputs.play, **flex),
            label("Conditions on the character"),
            inputs.conditions,
            pn.FlexBox(inputs.flustered, inputs.end_scene, **flex),
            css="card-play",
        )
        attacks = card(
            "Attacks against a creature",
            pn.FlexBox(odds.target, odds.approach, **flex),
            odds.boosts,
            label("Circumstances"),
            odds.advantage,
            label("The creature is"),
            odds.target_conditions,
            odds.attacks,
            odds.csv_attacks,
            odds.creature,
            odds.csv_card,
            css="card-attacks",
            **WIDE,
        )
        files = card(
            "File",
            pn.Row(file.download_json, file.download_yaml, sizing_mode="stretch_width"),
            pn.pane.Markdown("Load a character file (.json, .yaml):", margin=(0, 5)),
            file.upload,
            file.message,
            css="card-file",
        )
        ruleset = card(
            "Ruleset",
            inputs.ruleset_box,
            css="card-ruleset",
            subtitle=lambda: ruleset_summary(self.character.ruleset),
            collapsed=True,
        )
        return pn.FlexBox(
            odds.summary,  # the answer first (issue 34), a whole row
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


def character_page(
    character: Character | None = None, creatures: list[Creature] | None = None
) -> pn.template.BaseTemplate:
    """The whole "Character sheet" page, one per session."""
    sheet = CharacterSheet(character=character, creatures=creatures or [])
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.state.on_session_destroyed(lambda context: sheet.dispose())
    return page(
        "Character sheet",
        # One card for both: the answer starts higher on a phone (issue 34).
        [pn.Column(RulesetBadge(owner=sheet.character), sheet, sizing_mode="stretch_width")],
        current="character",
        main_max_width="1400px",
        raw_css=[SHEET_PAGE_CSS],
    )
