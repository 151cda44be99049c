"""Plain words for every code name a person might read, and small HTML tables for notebooks.

One table of display names (``DISPLAY_NAMES``), so a page, a notebook and a rich repr all say
"Water", "Just enough to stay up" or "Critical success" where the code says ``"water"``,
``"stay_up"`` or ``"critical"``. ``name(kind, key)`` looks one up; ``label_for(kind, key,
value)`` writes a labelled value ("Water: 5"). The Ruleset switches are described by the
sentences ``models/ruleset.py`` already holds (``SWITCH_SENTENCES``), imported when first
asked for, so this module imports neither Panel nor param and the engine's reprs may use it.

Presentation only: no maths here.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from tb_playground.engine.conditions import CONDITIONS

#: Display names by kind of code name. Keys are what the engine and models use.
DISPLAY_NAMES: dict[str, dict[object, str]] = {
    # The Elements: the engine's names (``ELEMENTS``), the Character's attributes, and their
    # order (0 Earth .. 4 Moira).
    "element": {
        **{e: e for e in ("Earth", "Air", "Fire", "Water", "Moira")},
        **{e.lower(): e for e in ("Earth", "Air", "Fire", "Water", "Moira")},
        **dict(enumerate(("Earth", "Air", "Fire", "Water", "Moira"))),
    },
    "attack_kind": {"physical": "Physical", "social": "Social", "mental": "Mental"},
    "roll_kind": {
        "physical": "Physical",
        "social": "Social",
        "mental": "Mental",
        "attack": "Attack",
        "gift check": "Gift Check",
        "other": "Other roll",
    },
    "dice_source": {"weapon": "Weapon", "gift": "Gift", "skill": "Skill tier (Social)"},
    "ki_policy": {
        "none": "Never",
        "all": "Every level while Ki lasts",
        "stay_up": "Just enough to stay up",
        "stay_alive": "Just enough to stay alive",
    },
    "timing": {"after": "After the roll", "before": "Before the roll"},
    "bracket": {"fast": "Fast", "normal": "Normal", "slow": "Slow"},
    "outcome": {
        "critical": "Critical success",
        "success": "Success",
        "failure": "Failure",
        "catastrophe": "Catastrophic failure",
    },
    "advantage": {-1: "Disadvantage", 0: "Normal", 1: "Advantage"},
    "tier": {
        **dict(enumerate(("Untrained", "Trained", "Adept", "Expert", "Master"))),
        **{t: t for t in ("Untrained", "Trained", "Adept", "Expert", "Master")},
    },
    "condition": {c: c for c in (*CONDITIONS, "Exhausted")},
    "vital": {"health": "Health", "poise": "Poise", "sanity": "Sanity"},
    "state": {
        "up": "Up",
        "steady": "Steady",
        "unconscious": "Unconscious",
        "dying": "Dying",
        "dead": "Dead",
        "flustered": "Flustered",
        "humiliated": "Humiliated",
        "overwhelmed": "Overwhelmed",
        "shattered": "Shattered",
        "reset": "Reset (at the bottom)",
    },
    "zone": {"body": "Body", "head": "Head"},
    "slow_action": {"none": "None", "aim": "Aim", "called_shot": "Called Shot"},
    "reach": {"melee": "Melee", "ranged": "Ranged"},
    "cover": {"none": "No cover", "partial": "Partial cover", "full": "Full cover"},
    "weapon_range": {"normal": "Normal range", "long": "Long range", "beyond": "Beyond range"},
    "grid_statistic": {"expected": "Expected levels", "any": "Chance of at least one level"},
    "system": {"20 Below": "20 Below (roll under)", "roll-over draft": "Roll-over draft"},
    # The rules lab's picker: each Ruleset switch, and the rules/003 draft, in a few words.
    "lab_switch": {
        "gift_check_ki_plus_stamina": "Gift Check against Ki + Stamina",
        "never_moira": "Moira never attacks",
        "boosts_before_roll": "Ki boosts chosen before the roll",
        "vitals_002": "Poise stops at 0 (the Q&A's Vitals)",
        "ki_pool_from_sub_stats": "Ki pool from five sub-stats",
        "short_rest_half_klotho": "Short Rest gives half Klotho in Ki",
        "fate_spends_stamina_only": "Fate spends per Scene: Stamina",
        "death_at_negative_health": "Death at the negative Health sub-stat",
        "slow_called_shot_advantage": "Slow Called Shot with Advantage",
        "advantage_from_expert": "Training Advantage from Expert",
        "below_zero_heals_per_rest": "Below 0, every rest heals a level",
        "flustered_shaken_off": "Flustered can be shaken off",
        "criticals_outrank": "Criticals outrank in opposed rolls",
        "deception_water": "Deception rolls Water",
        "roll_over_draft": "The roll-over draft (rules/003)",
    },
    # The encounter lab's policies (``tb_playground.lab``): how a side plays a simulated fight.
    "bracket_policy": {
        "normal": "Normal: two attacks",
        "fast": "Fast: one attack, first",
        "slow_aim": "Slow with Aim when it pays",
        "aim": "Slow with Aim, always",
        "called_shot": "Slow with a Called Shot",
        "bump": "Bump to Fast (1 Ki) while Ki lasts",
    },
    "target_policy": {
        "weakest": "The weakest foe",
        "spread": "Spread the attacks",
        "most_dangerous": "The most dangerous foe",
        "finish": "Finish off the fallen too",
    },
    "boost_policy": {
        "lift": "Boost dice up over the wall",
        "none": "Never boost",
    },
    "fight_end": {
        "down": "Until a side is all down",
        "dead": "Until a side is all dead",
    },
}

#: Kinds whose names come from ``models/ruleset.py`` (imported on first use).
_LAZY_KINDS = ("switch",)

#: Every kind ``name`` knows.
KINDS = tuple(DISPLAY_NAMES) + _LAZY_KINDS


def names(kind: str) -> Mapping[object, str]:
    """All display names of one kind, code name -> plain words.

    Parameters
    ----------
    kind : str
        One of ``KINDS`` ("element", "attack_kind", "ki_policy", "switch", ...).
    """
    if kind == "switch":
        from .models.ruleset import SWITCH_SENTENCES

        return SWITCH_SENTENCES
    if kind not in DISPLAY_NAMES:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind}")
    return DISPLAY_NAMES[kind]


def name(kind: str, key: object) -> str:
    """The plain words for one code name, e.g. ``name("ki_policy", "stay_up")``.

    Parameters
    ----------
    kind : str
        One of ``KINDS``.
    key : str or int
        The code name (or number, for Elements, tiers and Advantage).

    Raises
    ------
    ValueError
        For an unknown kind or key, naming the known keys.
    """
    table = names(kind)
    if isinstance(key, str | int) and not isinstance(key, bool) and key in table:
        return table[key]
    known = ", ".join(str(k) for k in table)
    raise ValueError(f"no display name for {key} as {kind}; known: {known}")


def label_for(kind: str, key: object, value: object = None) -> str:
    """A labelled value in plain words: ``label_for("element", "water", 5)`` -> "Water: 5".

    Without ``value`` it is ``name(kind, key)``.
    """
    label = name(kind, key)
    return label if value is None else f"{label}: {value}"


# --- numbers and small tables ---------------------------------------------------------------


def percent(p: float) -> str:
    """A probability as a percentage with one decimal ("55.0%").

    A non-zero value that would round to 0.0% is "<0.1%" (a Master's catastrophe is rare, not
    impossible); one that would round to 100.0% without being certain is ">99.9%".
    """
    p = float(p)
    if p <= 0:
        return "0%"
    if p < 0.0005:
        return "<0.1%"
    if p >= 1:
        return "100%"
    if p > 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%"


def dice_text(count: int) -> str:
    """A number of dice in words that agree with it: "1 die", "2 dice", "0 dice"."""
    count = int(count)
    return f"{count} {'die' if count == 1 else 'dice'}"


def fraction_text(value: Fraction) -> str:
    """An exact probability as "11/20" (whole numbers as "0" or "1")."""
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def escape(text: object) -> str:
    """HTML-escape any text that reaches a page or a notebook."""
    return html.escape(str(text), quote=True)


#: Inline style of the notebook tables (a notebook has no stylesheet of ours).
_TABLE_STYLE = "border-collapse:collapse;font-size:0.92em"
_CELL_STYLE = "padding:2px 8px;text-align:{align};border-bottom:1px solid #ccc"


def html_table(
    header: Sequence[object],
    rows: Iterable[Sequence[object]],
    *,
    caption: str | None = None,
    note: str | None = None,
    align: Sequence[str] | None = None,
) -> str:
    """A small HTML table; every caption, header, cell and note is escaped.

    Parameters
    ----------
    header : sequence
        Column titles.
    rows : iterable of sequences
        Cells, written with ``str``.
    caption, note : str, optional
        A title above and a sentence below.
    align : sequence of {"left", "right"}, optional
        Per column; default: the first column left, the others right.
    """
    header = list(header)
    align = list(align) if align is not None else ["left"] + ["right"] * (len(header) - 1)

    def cells(tag: str, values: Sequence[object]) -> str:
        return "".join(
            f'<{tag} style="{_CELL_STYLE.format(align=a)}">{escape(v)}</{tag}>'
            for v, a in zip(values, align, strict=True)
        )

    parts = [f'<table class="tb" style="{_TABLE_STYLE}">']
    if caption:
        parts.append(
            f'<caption style="text-align:left;font-weight:600">{escape(caption)}</caption>'
        )
    parts.append(f"<thead><tr>{cells('th', header)}</tr></thead><tbody>")
    parts.extend(f"<tr>{cells('td', list(row))}</tr>" for row in rows)
    parts.append("</tbody></table>")
    if note:
        parts.append(f'<p style="font-size:0.85em;margin:4px 0">{escape(note)}</p>')
    return "<div>" + "".join(parts) + "</div>"


class Table:
    """A titled table that shows as HTML in a notebook and as aligned text elsewhere.

    Parameters
    ----------
    header : sequence
        Column titles.
    rows : sequence of sequences
        The cells (already written as text, or anything ``str`` writes plainly).
    caption, note : str, optional
        A title above and a sentence below.
    align : sequence of {"left", "right"}, optional
        Per column; default: the first column left, the others right.
    """

    def __init__(
        self,
        header: Sequence[object],
        rows: Sequence[Sequence[object]],
        caption: str | None = None,
        note: str | None = None,
        align: Sequence[str] | None = None,
    ) -> None:
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        if any(len(row) != len(self.header) for row in self.rows):
            raise ValueError(f"every row must have {len(self.header)} cells, like the header")
        self.caption = caption
        self.note = note
        self.align = list(align) if align else ["left"] + ["right"] * (len(self.header) - 1)
        if len(self.align) != len(self.header) or set(self.align) - {"left", "right"}:
            raise ValueError("align must give left or right for each column")

    def _repr_html_(self) -> str:
        return html_table(
            self.header, self.rows, caption=self.caption, note=self.note, align=self.align
        )

    def __repr__(self) -> str:
        widths = [
            max(len(c) for c in column) for column in zip(self.header, *self.rows, strict=True)
        ]
        lines = [self.caption] if self.caption else []
        for row in [self.header, *self.rows]:
            cells = [
                c.ljust(w) if a == "left" else c.rjust(w)
                for c, w, a in zip(row, widths, self.align, strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)


def odds_grid(
    row_labels: Sequence[object],
    column_labels: Sequence[object],
    probabilities: Sequence[Sequence[float]],
    *,
    corner: str = "",
    caption: str | None = None,
    note: str | None = None,
) -> Table:
    """A grid of probabilities written as percentages (a skill odds table, a curve by TN).

    Parameters
    ----------
    row_labels, column_labels : sequence
        What each row and column is (a Skill name, a Difficulty, a TN...).
    probabilities : 2-D sequence of float
        One row per ``row_labels`` entry, one column per ``column_labels`` entry.
    corner : str
        The title of the label column.
    caption, note : str, optional
        A title above and a sentence below.
    """
    rows = [
        [label, *(percent(p) for p in row)]
        for label, row in zip(row_labels, probabilities, strict=True)
    ]
    return Table([corner, *column_labels], rows, caption=caption, note=note)
