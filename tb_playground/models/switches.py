"""Each Ruleset switch, written once: its name, sentence, labels, source and what it touches.

``SWITCH_LIST`` is the one list every table of switches (Ruleset, names, sheet, rules lab, Rules
page) is read from. A new switch is a ``Switch`` here, its ``param.Boolean`` on ``Ruleset`` and
its engine argument; docs/notes/0014-rules-lab.md tells the lab's part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

#: The kinds of switch: a reading of rules/002 (the Quick Reference), a reading of 000/004 where
#: they are silent or differ, and the whole rules/003 system (the lab's roll-over draft).
GROUPS = ("variant", "reading", "system")

#: How the fight simulator (``lab.simulate``) plays a switch: itself, by rebuilding the
#: characters' sheets, or not at all (``fights_note`` says why).
FIGHTS = ("simulator", "sheet", "none")


@dataclass(frozen=True)
class Switch:
    """One way of reading the rules, and every word a page or the lab says about it.

    Attributes
    ----------
    name : str
        The ``Ruleset`` parameter (code name).
    group : {"variant", "reading", "system"}
        rules/002's reading, a reading of 000/004, or the rules/003 system.
    sentence : str
        What is true when it is on, as a page shows it ("Deception rolls Water, not Fire.").
    doc : str
        The help text of its ``Ruleset`` parameter, shown on the character sheet in plain
        words: the reading and the default it replaces (no code names: the engine argument
        it sets is in ``Ruleset``'s properties, issue 34).
    label : str
        A few words for the sheet's checkbox.
    title : str
        A few words for the rules lab's picker.
    source : tuple of (str, str, str)
        Where it comes from: the rules file's number, its heading, the words quoted verbatim.
    touches : frozenset of str
        The rules lab's quantities its rule changes (``lab.lab_switches.QUANTITY_NAMES``).
    inputs : tuple of (str or None, str or None, str or None)
        What the lab's report inputs (element, stat, dice) mean for it; None: not read.
    fights : {"simulator", "sheet", "none"}
        How the fight simulator plays it.
    fights_note : str
        Why the fight simulator cannot play it (when ``fights`` is "none").
    source_note : str
        What the default does where the quoted text is silent (optional).
    """

    name: str
    group: str
    sentence: str
    label: str
    title: str
    source: tuple[str, str, str]
    touches: frozenset[str]
    inputs: tuple[str | None, str | None, str | None]
    fights: str = "none"
    fights_note: str = ""
    source_note: str = ""
    doc: str = ""

    def __post_init__(self) -> None:
        if self.group != "system" and not self.doc:
            raise ValueError(f"{self.name}: a switch needs the doc of its Ruleset parameter")
        if self.group not in GROUPS:
            raise ValueError(f"group must be one of {GROUPS}, got {self.group!r}")
        if self.fights not in FIGHTS:
            raise ValueError(f"fights must be one of {FIGHTS}, got {self.fights!r}")
        if (self.fights == "none") != bool(self.fights_note):
            raise ValueError(f"{self.name}: a fights_note says why, exactly when fights is none")

    @property
    def input_words(self) -> dict[str, str | None]:
        """``inputs`` by the lab report's argument name: element, stat, dice."""
        return dict(zip(("element", "stat", "dice"), self.inputs, strict=True))

    @property
    def source_text(self) -> str:
        """Where it comes from, in words: 'rules/002, "How Do I Attack?": "..."'."""
        number, heading, quote = self.source
        extra = f" {self.source_note}" if self.source_note else ""
        return f'rules/{number}, "{heading}": "{quote}"{extra}'


SWITCH_LIST: list[Switch] = [
    Switch(
        name="gift_check_ki_plus_stamina",
        group="variant",
        sentence="A Gift Check's target is Ki plus Stamina, and a failed one costs 1 Ki.",
        doc=(
            "Variant 002 (RULES.md, Core Roll: Gift Check): a Gift Check's TN is current Ki + "
            "Stamina instead of current Ki, and a failed one loses 1 Ki (rules/002 'How Do I "
            "Use a Gift?')."
        ),
        label="Gift Check TN is Ki + Stamina",
        title="Gift Check against Ki + Stamina",
        source=(
            "002",
            "How Do I Use a Gift?",
            "a resource-risk roll against your own Ki and Stamina combined",
        ),
        touches=frozenset({"gift_check"}),
        inputs=(None, "Stamina", None),
        fights_note="The encounter planner's fights roll Gift Checks under this switch, as the "
        "table does; the rules lab has no suggested fight for it yet.",
    ),
    Switch(
        name="never_moira",
        group="variant",
        sentence="Moira never carries an attack.",
        doc=(
            "Variant 002 (RULES.md, Attacks): Moira carries no attack at all. Default: never a "
            "Physical one, but Social and Mental ones readily."
        ),
        label="Moira never attacks",
        title="Moira never attacks",
        source=(
            "002",
            "How Do I Attack?",
            "Earth, Air, Fire, or Water - whichever matches how you're actually attempting the "
            "attack, not your weapon, and never Moira",
        ),
        touches=frozenset({"social_to_hit"}),
        inputs=("Moira", "Best other Element", "Damage dice"),
        fights="simulator",
    ),
    Switch(
        name="boosts_before_roll",
        group="variant",
        sentence="Ki boosts are chosen before the damage dice are rolled.",
        doc=(
            "Variant 002 (RULES.md, Attacks: Ki boost): boosted dice are chosen before the roll. "
            "Default: roll first, then boost the dice worth it."
        ),
        label="Ki boosts chosen before the roll",
        title="Ki boosts chosen before the roll",
        source=(
            "002",
            "How Do I Deal Damage?",
            "decided before any of the attack's dice are rolled, not chosen afterward to salvage "
            "a bad one",
        ),
        touches=frozenset({"damage"}),
        inputs=(None, "What a boost adds (Ferocity, Presence or Psyche)", "Damage dice"),
        fights="simulator",
    ),
    Switch(
        name="vitals_002",
        group="variant",
        sentence="Poise stops at 0, Ki cannot stop a Poise hit, and 1 Ki refills Poise at 0.",
        doc=(
            "Variant 002 (RULES.md, Vitals): Poise stops at 0; Ki cannot prevent a Poise hit; at "
            "0 Poise, 1 Ki refills it to full."
        ),
        label="Poise stops at 0; Ki refills it",
        title="Poise stops at 0 (the Q&A's Vitals)",
        source=("002", "What Happens to My Poise?", "Poise can't go below 0"),
        # 002 "What Happens to My Sanity?": at 0, 1 Ki "also fills Sanity back to full" (the
        # engine's ki_recovery); RULES.md's digest names only Poise's refill.
        touches=frozenset({"poise_ki_recovery", "poise_step", "sanity_ki_recovery"}),
        inputs=(None, "Defender's Ki", None),
        fights="simulator",
    ),
    Switch(
        name="ki_pool_from_sub_stats",
        group="variant",
        sentence="The Ki pool is twice the average of five sub-stats.",
        doc=(
            "Variant 002 (RULES.md, Vitals): Ki pool = 2 x average(Soak, Initiative, Ferocity, "
            "Stamina, Atropos). Default: strongest Element + 8."
        ),
        label="Ki pool from sub-stats",
        title="Ki pool from five sub-stats",
        source=(
            "002",
            "How Does Ki Work?",
            "average your Soak, Initiative, Ferocity, Stamina, and Atropos sub-stats, then double "
            "the result",
        ),
        touches=frozenset({"ki_pool"}),
        inputs=("Strongest Element", None, None),
        fights="sheet",
    ),
    Switch(
        name="short_rest_half_klotho",
        group="variant",
        sentence="A Short Rest gives back half Klotho in Ki.",
        doc=(
            "Variant 002 (RULES.md, Vitals): a Short Rest gives half Klotho, rounded up. Default:"
            " Klotho, minimum 1."
        ),
        label="Short Rest: half Klotho",
        title="Short Rest gives half Klotho in Ki",
        source=(
            "002",
            "How Does Ki Work?",
            "A Short Rest gives back half your Klotho, rounded up.",
        ),
        touches=frozenset({"short_rest_ki"}),
        inputs=(None, None, None),
        fights_note="There is no rest inside a fight: the simulator cannot show this.",
    ),
    Switch(
        name="fate_spends_stamina_only",
        group="variant",
        sentence="Fate Tokens spent per Scene: Stamina.",
        doc=(
            "Variant 002 (rules/002 'How Does Fate Work?'): Stamina counted Fate Token spends per"
            " Scene. Default (rules/004): Stamina + 1."
        ),
        label="Fate spends per Scene: Stamina",
        title="Fate spends per Scene: Stamina",
        source=("002", "How Does Fate Work?", "your Stamina score sets that cap"),
        touches=frozenset({"fate_spends"}),
        inputs=(None, None, None),
        fights_note="The fight simulator does not spend Fate Tokens.",
    ),
    Switch(
        name="death_at_negative_health",
        group="variant",
        sentence="Death comes at the negative Health sub-stat.",
        doc=(
            "Variant 002 (rules/002 'What Happens to My Health?'): dead at or below the negative "
            "Health sub-stat. Default (rules/000, 004): at -maximum, the bottom."
        ),
        label="Dead at -Health sub-stat",
        title="Death at the negative Health sub-stat",
        source=(
            "002",
            "What Happens to My Health?",
            "at or below your negative Health sub-stat) and you die",
        ),
        touches=frozenset({"death"}),
        inputs=(None, None, None),
        fights_note="Who wins cannot change: a fighter at 0 Health or below is already out of the "
        "fight, wherever death comes. The encounter planner's chance of a death "
        "follows the switch (an encounter whose rules have it on).",
    ),
    Switch(
        name="slow_called_shot_advantage",
        group="variant",
        sentence="A Slow Called Shot also has Advantage.",
        doc=(
            "Variant 002 ('How Do Action Brackets Work?', 'How Do Called Shots Work?': the Slow "
            "Bracket 'allows called shots and gets Advantage on the attack'): a Called Shot, made"
            " in the Slow Bracket, also has Advantage. Default (rules/000): a Slow action is Aim "
            "(Advantage) or a Called Shot, not both."
        ),
        label="Slow Called Shot has Advantage",
        title="Slow Called Shot with Advantage",
        source=(
            "002",
            "How Do Action Brackets Work?",
            "it allows called shots and gets Advantage on the attack",
        ),
        touches=frozenset({"called_shot"}),
        inputs=("Element", None, "Damage dice"),
        fights="simulator",
    ),
    Switch(
        name="advantage_from_expert",
        group="variant",
        sentence="Training gives Advantage from Expert, not from Adept.",
        doc=(
            "Variant 002 ('What Are Advantage and Disadvantage?': 'an Expert or Master Skill "
            "Training Tier'): a tier's own Advantage starts at Expert, so an Adept rolls plainly."
            " Default (rules/000, 004): from Adept."
        ),
        label="Tier Advantage from Expert",
        title="Training Advantage from Expert",
        source=(
            "002",
            "What Are Advantage and Disadvantage?",
            "an Expert or Master Skill Training Tier",
        ),
        touches=frozenset({"check"}),
        inputs=("Element", None, None),
        fights_note="The fight simulator's attacks roll Element + Defense with no training tier, "
        "so this switch cannot change its P(win).",
    ),
    Switch(
        name="below_zero_heals_per_rest",
        group="variant",
        sentence="Below 0 Health, any rest, Short or Full, heals one level.",
        doc=(
            "Variant 002 ('What Happens to My Health?': 'If you're already below 0 ... 1 Health "
            "Level per rest, Short or Full'): below 0 Health each rest of either kind heals one "
            "level. Default (rules/000 'Harm and Recovery', 004): a Short Rest heals nothing "
            "below 0, a Full Night's Rest one level."
        ),
        label="Below 0: any rest heals 1",
        title="Below 0, every rest heals a level",
        source=(
            "002",
            "What Happens to My Health?",
            "1 Health Level per rest, Short or Full, until you're back up to 0",
        ),
        touches=frozenset({"short_rest_health"}),
        inputs=(None, "Health sub-stat", None),
        fights_note="There is no rest inside a fight: the simulator cannot show this.",
    ),
    Switch(
        name="flustered_shaken_off",
        group="variant",
        sentence="Rolling Presence against a Difficulty can end Flustered early.",
        doc=(
            "Variant 002 ('What Happens to My Poise?': 'spend an action to roll Presence against "
            "a Difficulty to shake it off early'): an action rolling Presence against a "
            "Difficulty ends Flustered on a success. Default (rules/000, 004): Flustered lasts "
            "until the Scene ends."
        ),
        label="Presence roll ends Flustered",
        title="Flustered can be shaken off",
        source=(
            "002",
            "What Happens to My Poise?",
            "You can spend an action to roll Presence against a Difficulty to shake it off early",
        ),
        touches=frozenset({"shake_off"}),
        inputs=(None, "Presence", None),
        fights_note="The fight simulator does not spend actions shaking off Flustered.",
    ),
    Switch(
        name="criticals_outrank",
        group="reading",
        sentence="In an opposed roll a critical beats any ordinary success.",
        doc=(
            "Reading of rules/000 'Opposed Rolls' (silent on criticals): when both succeed, a "
            "critical success beats any ordinary success whatever the margins. Default: a "
            "critical's margin is its TN minus its kept total, like any success (a critical at TN"
            " 8 with a kept 2 is 6 under)."
        ),
        label="Opposed: a critical beats any success",
        title="Criticals outrank in opposed rolls",
        source=(
            "000",
            "Opposed Rolls",
            "If you both succeed, whoever came in further under their target number wins.",
        ),
        source_note="The text is silent on criticals; by default a critical's margin counts like "
        "any other, and the switch lets a critical beat any ordinary success.",
        touches=frozenset({"opposed"}),
        inputs=("Resister's Element (their TN is it + 5)", None, None),
        fights_note="The fight simulator rolls no opposed rolls.",
    ),
    Switch(
        name="deception_water",
        group="reading",
        sentence="Deception rolls Water, not Fire.",
        doc=(
            "Reading of rules/004 ('Water carries Deception'): Deception's home Element is Water."
            " Default (rules/000 'Which Skill, and Which Element'): Fire, with the other Social "
            "Skills."
        ),
        label="Deception rolls Water",
        title="Deception rolls Water",
        source=("004", "Social Attacks", "Water carries Deception."),
        touches=frozenset({"deception"}),
        inputs=("Fire", "Water", None),
        fights_note="The fight simulator's attacks come with their Element already chosen; "
        "Deception's home Element is not played.",
    ),
]

ROLL_OVER_DRAFT = Switch(
    name="roll_over_draft",
    group="system",
    sentence="2d10 + Skill at or over a DC; Advantages stack as re-rolls; damage is the margin, "
    "capped by the weapon rating.",
    label="Roll-over draft",
    title="The roll-over draft (rules/003)",
    source=("003", "Taking Actions and Rolling Dice", "If you meet or exceed the DC, you succeed."),
    touches=frozenset({"draft_attack", "draft_check"}),
    inputs=(
        "Element (the draft: Skill Rating)",
        "Wall (Soak)",
        "Damage dice (the draft: weapon rating)",
    ),
    fights_note="The fight simulator plays 20 Below's dice only; the roll-over draft has no "
    "Vitals, Ki or brackets to fight with, so no P(win) is given for it.",
)


def switch_list(*, draft: bool = False) -> tuple[Switch, ...]:
    """Every switch in ``SWITCH_LIST`` now, with the rules/003 draft last if ``draft``."""
    return (*SWITCH_LIST, ROLL_OVER_DRAFT) if draft else tuple(SWITCH_LIST)


def switch_names(group: str | None = None, *, draft: bool = False) -> tuple[str, ...]:
    """The names of the switches (of one ``group``), in the list's order.

    Parameters
    ----------
    group : {"variant", "reading", "system"}, optional
        Only this kind; default every kind.
    draft : bool
        Include the rules/003 draft (the rules lab compares it too).
    """
    return tuple(s.name for s in switch_list(draft=draft) if group in (None, s.group))


def get_switch(name: str, *, draft: bool = True) -> Switch:
    """The ``Switch`` called ``name``; a ValueError names the known ones."""
    for s in switch_list(draft=draft):
        if s.name == name:
            return s
    known = ", ".join(switch_names(draft=draft))
    raise ValueError(f"no switch called {name!r}; known: {known}")


class SwitchColumn(Mapping):
    """One field of every switch by name, read from ``SWITCH_LIST`` at each look-up.

    A read-only mapping (name -> ``getattr(switch, field)``) that never goes stale: a switch
    added to the list is in it at once.

    Parameters
    ----------
    field : str
        A ``Switch`` attribute ("sentence", "label", "touches", ...).
    draft : bool
        Include the rules/003 draft.
    keep : callable, optional
        Only the switches for which it is true.
    """

    def __init__(
        self, field: str, *, draft: bool = False, keep: Callable[[Switch], bool] | None = None
    ) -> None:
        self._field, self._draft, self._keep = field, draft, keep

    def _rows(self) -> dict[str, object]:
        return {
            s.name: getattr(s, self._field)
            for s in switch_list(draft=self._draft)
            if self._keep is None or self._keep(s)
        }

    def __getitem__(self, name: str) -> object:
        return self._rows()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows())

    def __len__(self) -> int:
        return len(self._rows())

    def __repr__(self) -> str:
        return f"SwitchColumn({self._field!r}: {self._rows()!r})"


#: Each switch in plain words, for pages to show which are on (no code names).
SWITCH_SENTENCES: Mapping[str, str] = SwitchColumn("sentence")

#: Short labels for the sheet's checkboxes.
SWITCH_LABELS: Mapping[str, str] = SwitchColumn("label")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def switches_markdown() -> str:
    """The table of switches for the Rules page: each one, what it says, and where from."""
    rows = [
        "| Switch | When it is on | Where it comes from |",
        "| --- | --- | --- |",
    ]
    rows += [
        f"| {_cell(s.label)} | {_cell(s.sentence)} | {_cell(s.source_text)} |"
        for s in switch_list()
    ]
    return "\n".join(rows)
