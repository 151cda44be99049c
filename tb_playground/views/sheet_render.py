"""The character sheet's tables as text: HTML for the page, CSV for the downloads.

Pure functions from a ``Character`` (and a ``Creature`` or attack options) to a string; no
widgets, so they are tested without a browser. Every number comes from the ``Character``
model, which gets it from ``tb_playground.engine`` (RULES.md). Text the user typed (names,
Descriptors, notes) is escaped before it reaches the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from tb_playground.engine import DIFFICULTY_NAMES, STANDARD_DCS
from tb_playground.formatting import escape, percent
from tb_playground.models import Character, Creature
from tb_playground.models import names as display

from .kit import csv_text

#: Plain names of the kinds of Skill roll (the one table of display names).
KIND_NAMES = {k: display.name("roll_kind", k) for k in ("physical", "social", "mental")}

#: The sheet's code values that the display table names: the sheet's field -> its kind there.
DISPLAY_KINDS = {"kind": "attack_kind", "zone": "zone", "system": "system"}

#: The sheet's own words for the few values the display table does not hold.
PLAIN = {
    "sub_stat": {"": "(none)"},
    "approach": {"best": "The strongest allowed"},
}

#: Why a Skill cannot be rolled while Untrained (rules/000 and 001).
CANNOT_UNTRAINED = (
    "Can't be done Untrained (the rules: \"Swimming can't be done untrained\"): train it first."
)


def _stat(label: str, value: object, css: str) -> str:
    return (
        f'<div class="sheet-stat {css}"><span class="v">{escape(value)}</span>'
        f'<span class="l">{escape(label)}</span></div>'
    )


def _stats(cells: list[str]) -> str:
    return f'<div class="sheet-stats">{"".join(cells)}</div>'


def _shade(p: float) -> str:
    """A green background as strong as the probability (presentation only)."""
    return f"background: rgba(46, 139, 87, {0.08 + 0.5 * p:.2f})"


def summary_html(c: Character) -> str:
    """The sheet's answer in one line, at its top (issue 34: a phone showed inputs first).

    Defenses, Vitals now / maximum and Ki now / pool (RULES.md, Vitals), the numbers the
    "Derived" card details; it follows every input.
    """
    vitals = ", ".join(
        f"{vital.title()} {getattr(c, f'{vital}_now')} / {getattr(c, f'{vital}_max')}"
        for vital in ("health", "poise", "sanity")
    )
    text = (
        f"Defense {c.defense_physical} Physical, {c.defense_social} Social, "
        f"{c.defense_mental} Mental; {vitals}; Ki {c.ki_now} / {c.ki_pool}; moves "
        f"{c.movement.rate} m."
    )
    return (
        f'<p class="sheet-answer-line"><b>{escape(c.name or "This character")}:</b> '
        f"{escape(text)} The details and the Skills' odds are in the cards below.</p>"
    )


def defenses_html(c: Character) -> str:
    """The three Defenses and the three walls."""
    return _stats(
        [
            _stat("Physical Defense (10 - Atropos)", c.defense_physical, "d-defense-physical"),
            _stat("Social Defense (10 - Psyche)", c.defense_social, "d-defense-social"),
            _stat("Mental Defense (10 - Presence)", c.defense_mental, "d-defense-mental"),
            _stat("Soak wall (Physical)", c.soak, "d-wall-physical"),
            _stat("Presence wall (Social)", c.presence, "d-wall-social"),
            _stat("Psyche wall (Mental)", c.psyche, "d-wall-mental"),
        ]
    )


def vitals_html(c: Character) -> str:
    """Health, Poise and Sanity: now / maximum and the state."""
    cells = [
        _stat(
            f"{vital.title()} ({getattr(c, f'{vital}_state')})",
            f"{getattr(c, f'{vital}_now')} / {getattr(c, f'{vital}_max')}",
            f"d-{vital}",
        )
        for vital in ("health", "poise", "sanity")
    ]
    cells.append(_stat("Dead at Health", c.dead_at, "d-dead-at"))
    states = ", ".join(c.states) if c.states else "none"
    return _stats(cells) + f'<p class="sheet-note d-states">Conditions: {escape(states)}</p>'


def ki_html(c: Character) -> str:
    """Ki pool, current Ki, Short Rest Ki, the Gift Check."""
    check = c.gift_check
    return _stats(
        [
            _stat("Ki pool", c.ki_pool, "d-ki-pool"),
            _stat("Ki now", c.ki_now, "d-ki-now"),
            _stat("Short Rest Ki", c.short_rest_ki, "d-ki-rest"),
            _stat(f"Gift Check (TN {check.target})", percent(check.p_success), "d-gift-check"),
        ]
    )


def movement_html(c: Character) -> str:
    """Movement Rate, Dash, Sprint, Crawl, jumps and a day's travel."""
    m, t = c.movement, c.travel
    return _stats(
        [
            _stat("Movement Rate (m)", m.rate, "d-movement"),
            _stat("Dash (m)", m.dash, "d-dash"),
            _stat("Sprint (m)", m.sprint, "d-sprint"),
            _stat("Crawl (m)", m.crawl, "d-crawl"),
            _stat("Long jump (m)", f"{m.long_jump:g}", "d-jump"),
            _stat("Travel (km/h)", f"{t.speed_kmh:g}", "d-travel-speed"),
            _stat("Travel day (h)", t.day_hours, "d-travel-hours"),
            _stat("km a day", f"{t.day_km:g}", "d-travel-km"),
        ]
    )


def fate_html(c: Character) -> str:
    """Fate Tokens held and their caps."""
    over = ' <span class="bad">over the cap</span>' if c.fate_tokens > c.fate_cap else ""
    return _stats(
        [
            _stat("Fate Tokens held", f"{c.fate_tokens} / {c.fate_cap}", "d-fate-held"),
            _stat("Counted spends a Scene", c.fate_spends_per_scene, "d-fate-scene"),
            _stat("Spends left this Scene", c.fate_spends_left, "d-fate-left"),
        ]
    ) + (f'<p class="sheet-note">A Token earned at the cap is lost.{over}</p>')


@dataclass(frozen=True)
class OddsRow:
    """One row of the Skill odds table: one Skill, or several whose odds are the same.

    Attributes
    ----------
    skills : tuple of str
        The Skills the row stands for, in sheet order.
    label : str
        What the row is called ("Perception", "Untrained (any Skill)"...).
    meta : str
        The line under the label ("Air 3 · Trained", or the Skills' names for a group).
    odds : tuple of float
        P(success) per column (empty when ``refused``).
    refused : str
        Why the Skill cannot be rolled ("" when it can).
    """

    skills: tuple[str, ...]
    label: str
    meta: str
    odds: tuple[float, ...]
    refused: str = ""


def skill_odds_rows(c: Character, trained_only: bool = False) -> list[OddsRow]:
    """The Skill odds table's rows: trained Skills first, then the rest grouped by equal odds.

    Skills with the same tier and exactly the same odds in every column share one row (a new
    sheet's 21 Untrained Skills are one "Untrained (any Skill)" row, since Untrained rolls the
    Difficulty alone, rules/000 "Skills"); conditions that reach only some kinds of roll split
    the groups. A Skill that cannot be rolled at all gets its own row with the reason:
    Swimming Untrained (rules/000 and 001, "Swimming can't be done untrained") or a condition.
    """
    groups: dict[tuple, list[int]] = {}
    refusals: dict[int, str] = {}
    for i, skill in enumerate(c.skills):
        if trained_only and skill.tier == 0:
            continue
        modifiers = c.skill_modifiers[i] if i < len(c.skill_modifiers) else None
        if modifiers is not None and not modifiers.allowed:
            refusals[i] = modifiers.describe()
        elif skill.tier == 0 and not skill.usable_untrained:
            refusals[i] = CANNOT_UNTRAINED
        odds = () if i in refusals else tuple(float(p) for p in c.skill_odds[i])
        key = (skill.tier, refusals.get(i, ""), odds) if skill.tier == 0 else (i,)
        groups.setdefault(key, []).append(i)
    untrained = [k for k in groups if len(k) > 1 and not k[1]]
    rows = []
    for _key, members in sorted(groups.items(), key=lambda kv: (len(kv[0]) > 1, kv[1][0])):
        skills = [c.skills[i] for i in members]
        first = members[0]
        where = sorted({f"{s.element} {c.element_score(s.element)}" for s in skills})
        meta = f"{', '.join(where)} \u00b7 {skills[0].tier_name}"
        odds = () if first in refusals else tuple(float(p) for p in c.skill_odds[first])
        if len(skills) == 1:
            rows.append(
                OddsRow((skills[0].name,), skills[0].name, meta, odds, refusals.get(first, ""))
            )
            continue
        kinds = {s.roll_kind for s in skills}
        if len(untrained) == 1:
            label = "Untrained (any Skill)"
        elif len(kinds) == 1:
            label = f"Untrained {KIND_NAMES.get(next(iter(kinds)), '')} Skills"
        else:
            label = "Untrained (other Skills)"
        names = tuple(s.name for s in skills)
        rows.append(OddsRow(names, label, ", ".join(names), odds, refusals.get(first, "")))
    return rows


def skill_odds_html(c: Character, trained_only: bool = False) -> str:
    """Each Skill x each Difficulty (or the draft's DCs): P(success), equal rows grouped."""
    columns = c.skill_odds_columns
    roll_over = c.ruleset.roll_over
    if roll_over:
        names = {dc: name for name, dc in STANDARD_DCS.items()}
        heads = "".join(
            f'<th class="c" title="{escape(names.get(dc, ""))}">DC {dc}</th>' for dc in columns
        )
    else:
        heads = "".join(
            f'<th class="c" title="{escape(DIFFICULTY_NAMES[d])}">{d}</th>' for d in columns
        )
    rows = []
    for row in skill_odds_rows(c, trained_only):
        if row.refused:
            cells = f'<td class="refused" colspan="{len(columns)}">{escape(row.refused)}</td>'
        else:
            cells = "".join(
                f'<td class="p" style="{_shade(p)}">{escape(percent(p))}</td>' for p in row.odds
            )
        if len(row.skills) == 1:
            rows.append(
                f'<tr class="skill-row" data-skill="{escape(row.skills[0])}">'
                f'<td class="name">{escape(row.label)}<span class="meta">{escape(row.meta)}'
                f"</span></td>{cells}</tr>"
            )
        else:
            rows.append(
                f'<tr class="skill-row skill-group" data-skills="{escape("|".join(row.skills))}">'
                f'<td class="name">{escape(row.label)}<span class="names">{escape(row.meta)}'
                f"</span></td>{cells}</tr>"
            )
    what = (
        "Roll-over draft (rules/003): 2d10 + rating at or over the DC; rating = the Element when "
        "Trained, Adept and up one re-roll Advantage."
        if roll_over
        else "Difficulty 0 (Nearly Impossible) .. 10 (Trivial): 2d10 at or under Element + "
        "Difficulty; Untrained rolls the Difficulty alone, so every Untrained Skill has the "
        "same odds (one row)."
    )
    return (
        f'<p class="sheet-note">{escape(what)}</p>{skill_conditions_html(c)}<div class="scroll">'
        f'<table class="tb skill-odds"><tr><th class="name">Skill</th>{heads}'
        f"</tr>{''.join(rows)}</table></div>"
    )


def skill_conditions_html(c: Character) -> str:
    """One line per kind of Skill roll the character's conditions change, and why.

    E.g. "Physical Skills: Disadvantage: Off Balance, Exhausted 1". The training tier's own
    Advantage (Adept and up) is left out here; each row's odds include it.
    """
    lines = []
    for kind, name in KIND_NAMES.items():
        text = c.roll_modifiers(kind).describe()
        if text:
            lines.append(f"{name} Skills: {text}")
    for note in c.roll_modifiers("other").notes:
        lines.append(note)
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<ul class="sheet-note cond skill-conditions">{items}</ul>'


def attacks_html(c: Character, creature: Creature, options) -> str:
    """Each attack's odds against ``creature``, and the character against its card."""
    return creature_html(c, creature) + attack_table_html(c, options)


def attack_table_html(c: Character, options) -> str:
    """The attack table: each of ``options`` (``Character.attack_options``) as one row."""
    roll_over = c.ruleset.roll_over
    rows = []
    for o in options:
        note = f'<br><span class="sheet-note">{escape(o.note)}</span>' if o.note else ""
        why = o.modifiers.describe() if o.modifiers is not None else ""
        if why:
            note += f'<br><span class="sheet-note cond attack-why">{escape(why)}</span>'
        if o.allowed:
            odds = (
                f'<td class="p">{o.target_number}</td>'
                f'<td class="p">{escape(percent(o.p_hit))}</td>'
                f'<td class="p">{escape(percent(o.p_critical))}</td>'
                f'<td class="p">{o.expected:.2f}</td>'
            )
        else:
            odds = f'<td class="refused" colspan="4">{escape(o.modifiers.reason)}</td>'
        rows.append(
            f'<tr class="attack-row"><td class="name">{escape(o.label)}{note}</td>'
            f"<td>{escape(plain('kind', o.kind))}</td><td>{escape(o.element)} {o.score}</td>"
            f"{odds}<td>{escape(o.vital.title())}</td></tr>"
        )
    tn = "Beat" if roll_over else "TN"
    expected = "Expected damage" if roll_over else "Expected levels"
    return (
        '<div class="scroll"><table class="tb attack-odds"><tr><th>Attack</th><th>Kind</th>'
        f'<th>Element</th><th class="c">{tn}</th><th class="c">Hit</th><th class="c">Crit</th>'
        f'<th class="c">{expected}</th><th>Track</th></tr>{"".join(rows)}</table></div>'
    )


def creature_html(c: Character, creature: Creature) -> str:
    """The creature's numbers, and the character's odds against its card's static numbers."""
    card = []
    for s in creature.static_numbers:
        p = c.versus_card(s.versus, s.value)
        card.append(
            f"<tr><td>{escape(s.versus)} vs its {escape(s.name)} {s.value}</td>"
            f'<td class="p">{escape(percent(p))}</td></tr>'
        )
    card_table = (
        '<table class="tb versus-card"><tr><th>You roll (20 Below; the card\'s number is '
        'your Difficulty)</th><th class="c">Succeed</th></tr>' + "".join(card) + "</table>"
        if card
        else ""
    )
    summary = (
        f"<b>{escape(creature.name)}</b> ({'named' if creature.named else 'unnamed'}): "
        f"Defense {creature.defense_physical} / {creature.defense_social} / "
        f"{creature.defense_mental}, walls Soak {creature.soak}, Presence {creature.presence}, "
        f"Psyche {creature.psyche}; Health {creature.health}, Poise {creature.poise}, Sanity "
        f"{creature.sanity}."
    )
    return f'<p class="creature-summary">{summary}</p>{card_table}'


def plain(kind: str, value: object) -> str:
    """A code value in plain words (``tb_playground.models.names``, else ``PLAIN``).

    Values neither table knows are shown as they are.
    """
    if kind in DISPLAY_KINDS:
        try:
            return display.name(DISPLAY_KINDS[kind], value)
        except ValueError:
            return str(value)
    return PLAIN.get(kind, {}).get(value, str(value))


# -- CSV: the numbers of the sheet's tables, one row per Skill / attack / card number -----------


def skill_odds_csv(c: Character, trained_only: bool = False) -> str:
    """The Skill odds table as CSV: one row per Skill, chances from 0 to 1.

    A grouped row of the page gives one row per Skill in it; a Skill that cannot be rolled has
    empty chances and the reason in the last column.
    """
    columns = c.skill_odds_columns
    word = "DC" if c.ruleset.roll_over else "Difficulty"
    rows = []
    for row in skill_odds_rows(c, trained_only):
        for name in row.skills:
            skill = c.skill(name)
            odds = [float(p) for p in row.odds] if not row.refused else [""] * len(columns)
            rows.append([name, skill.element, skill.tier_name, *odds, row.refused])
    header = ["Skill", "Element", "Training", *(f"{word} {d}" for d in columns)]
    return csv_text([*header, "Cannot be rolled because"], rows)


def attack_odds_csv(c: Character, options) -> str:
    """The attack table as CSV: each of ``options`` (``Character.attack_options``) as a row."""
    roll_over = c.ruleset.roll_over
    header = [
        "Attack", "Kind", "Element", "Element score", "Beat" if roll_over else "Target Number",
        "Hit chance", "Critical chance", "Expected damage" if roll_over else "Expected levels",
        "Track", "Cannot attack because",
    ]  # fmt: skip
    rows = []
    for o in options:
        if o.allowed:
            odds = [o.target_number, float(o.p_hit), float(o.p_critical), float(o.expected), ""]
        else:
            odds = ["", "", "", "", o.modifiers.reason]
        rows.append(
            [o.label, plain("kind", o.kind), o.element, o.score, *odds[:4], o.vital.title(),
             odds[4]]
        )  # fmt: skip
    return csv_text(header, rows)


def versus_card_csv(c: Character, creature: Creature) -> str:
    """The character against the creature's card numbers, as CSV."""
    return csv_text(
        ["You roll", "Against its", "Its number", "Chance to succeed"],
        [
            (s.versus, s.name, s.value, float(c.versus_card(s.versus, s.value)))
            for s in creature.static_numbers
        ],
    )
