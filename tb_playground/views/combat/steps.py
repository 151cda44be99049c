"""The attack under way, one clear step at a time, on both combat pages (issue 20).

Each pending step (RULES.md, Attacks: the to-hit roll, the damage roll, the boosts after it;
Vitals: the target's prevention with Ki) says on every page whose move it is ("Waiting for
Ronan to roll damage"; a combatant hidden from the reader is "the GM"), and offers the one who
makes it one primary button and an explicit "no" ("Keep the dice as rolled", "Take the
damage"). Boost picks start empty at every boost step and the button says what they cost; the
prevention's levels start at none at every prevention step (a hasty tap spends no Ki: issue
31) and its button says the Ki the chosen levels cost. A player asked for a Distracted roll
(rules/002 "What Is Distracted?") rolls it here too. The last roll's result shows above the
step for a few seconds (a CSS fade: ``views/css/combat.css``) and stays as a line.
While dice are typed into the box one at a time, the step shows the exact odds given the dice
typed so far (issue 23, item 5: ``views/combat/dice_landing.py``), on the typist's page only.
The table decides what is offered (``table/boost_offer.py``) and who may see what
(``table/reader_view.py``); this module only draws and sends.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn

from tb_playground.formatting import dice_text, escape, plural

from ..kit import WRAP_BUTTONS, Slots, button, html_pane, row, update
from .combat_session import with_typed_faces
from .dice_landing import dice_landing_html, dice_of, problem, typed_so_far

#: What the one whose move it is does at each step.
STEP_DOING = {
    "to_hit": "roll to hit",
    "damage": "roll damage",
    "boost": "boost dice with Ki or keep them as rolled",
    "prevent": "prevent levels with Ki or take the damage",
    "gift_check": "roll the Gift Check",
    "approach": "confirm the attack's approach",
    "settle": "settle the hit",  # a foe's prevention as a phone sees it (issue 31)
}

#: What a player is asked when the GM asks for a Distracted roll (rules/002).
DISTRACTED_ASK = (
    '<div class="banner">The GM asks for a Distracted roll: Atropos + Difficulty, '
    "to hold your action together.</div>"
)

#: The roll button's words at each rolling step.
ROLL_WORDS = {"to_hit": "Roll to hit", "damage": "Roll damage", "gift_check": "Roll the Gift Check"}


def actor(p: dict) -> str | None:
    """Whose move the pending step ``p`` is (None: the GM's).

    The target prevents, the GM confirms an approach, the attacker does the rest.
    """
    if p["step"] == "prevent":
        return p["target"]
    if p["step"] in ("approach", "settle"):
        return None
    return p["attacker"]


def whose(view: dict, seat: str | None) -> tuple[str, bool]:
    """(The sentence saying whose move the pending step is, whether it is the reader's).

    ``seat`` is the player's seat (None for the GM or a spectator: the view's role tells).
    """
    p = view["pending"]
    if p is None:
        return "", False
    doing = STEP_DOING.get(p["step"], p["step"].replace("_", " "))
    who = actor(p)
    by_id = {c["id"]: c for c in view["combatants"]}
    c = by_id.get(who) if who else None
    if view["role"] == "gm":
        if c is None:
            return f"Your move: {doing}.", True
        if c["kind"] == "character":
            return f"Waiting for {c['name']} to {doing} (or do it here for them).", False
        return f"Your move for {c['name']}: {doing}.", True
    if who is not None and who == seat:
        return f"Your move: {doing}.", True
    name = c["name"] if c is not None else "the GM"  # someone hidden acts: the GM does
    return f"Waiting for {name} to {doing}.", False


def whose_html(view: dict, seat: str | None) -> str:
    """``whose`` as the line above the step."""
    text, mine = whose(view, seat)
    if not text:
        return ""
    return f'<div class="whose{" mine" if mine else ""}">{escape(text)}</div>'


def result_html(result: dict | None) -> str:
    """The last roll's result: its dice and its outcome, lit up while new (``data-seq``)."""
    if not result:
        return ""
    lines = []
    for line in result["lines"]:
        dice = "".join(f'<span class="die">{int(f)}</span>' for f in line["dice"])
        dice = f'<span class="dice">{dice}</span>' if dice else ""
        text, outcome = line["text"], line.get("outcome") or ""
        if outcome and text.endswith(outcome):
            body = f'{escape(text[: -len(outcome)])}<span class="outcome">{escape(outcome)}</span>'
        else:
            body = escape(text)
        lines.append(f"<div>{dice}{body}.</div>")
    seq = int(result["seq"])
    return f'<div class="result" data-seq="{seq}">{"".join(lines)}</div>'


def affordable(p: dict) -> int:
    """The most dice (or levels) the one at this step can pay for with their Ki."""
    costs, now = p.get("ki_costs") or [0], p.get("ki_now") or 0
    return max(n for n, cost in enumerate(costs) if cost <= now)


def _spend_label(p: dict | None, n: int, what: str, empty: str) -> tuple[str, bool]:
    """(A Ki button's words, whether it may be pressed) for ``n`` dice or levels (``what``)."""
    if not n or p is None:
        return empty, False
    costs = p.get("ki_costs") or []
    cost = costs[n] if n < len(costs) else None
    if cost is None:
        return what, True
    if cost > (p.get("ki_now") or 0):
        return f"Not enough Ki ({cost} needed)", False
    return f"{what} ({cost} Ki)", True


def boost_label(p: dict | None, picked: int) -> tuple[str, bool]:
    """(The boost button's words, whether it may be pressed) for ``picked`` dice."""
    return _spend_label(p, picked, f"Boost {dice_text(picked)}", "Boost: pick dice")


def prevent_label(p: dict | None, levels: int) -> tuple[str, bool]:
    """(The prevention button's words, whether it may be pressed) for ``levels``."""
    return _spend_label(p, levels, f"Prevent {plural(levels, 'level')}", "Prevent: choose levels")


class StepControls:
    """The pending step's sentence, the last result and the controls of whoever makes it.

    ``prefix`` starts every CSS class ("gm" or "tp": ``tp-roll``, ``gm-boost``, ``tp-keep``,
    ``tp-take``...). ``send(command, then=None)`` sends for the page (``then()`` once the
    table took it); ``message`` is the page's pane for what went wrong. The page places
    ``result`` (at the top of the area of play), ``whose`` (above the attack's details) and
    ``controls`` (below).
    The rows of controls are built the first time they show.

    Parameters
    ----------
    prefix : str
        "gm" or "tp".
    send : callable
        ``send(command, then=None)``.
    message : pn.pane.HTML
        Where a typed-dice mistake is said.
    typed_label, typed_button : str
        The words of the typed-dice box and of its button.
    odds : callable, optional
        ``odds(typed) -> dict | None``: the pending roll's odds given the faces ``typed`` so
        far, for this page's reader (``dice_landing.dice_landing_odds``); None shows no such odds.
    """

    def __init__(
        self,
        prefix: str,
        send: Callable[[dict], bool],
        message,
        typed_label: str = "Or type your dice",
        typed_button: str = "Use my dice",
        odds: Callable[[list[int]], dict | None] | None = None,
    ):
        self.prefix = prefix
        self._send = send
        self._odds = odds
        self._rolling: tuple | None = None  # the roll the dice box was last typed for
        self._kept: list[int] = []  # dice of that roll already put in, the box's come after
        self._message = message
        self._typed = (typed_label, typed_button)
        self._p: dict | None = None
        self._seat: str | None = None  # the player's seat, as the page verified it
        self._opened: tuple | None = None  # the boost or prevention step last set up
        self.result = html_pane(f"{prefix}-result")
        self.whose = html_pane(f"{prefix}-whose")
        self.controls = pn.Column(sizing_mode="stretch_width", margin=0)
        self.rows = Slots(
            self.controls,
            ["roll", "boost", "prevent", "distracted"],
            {
                "roll": self._build_roll, "boost": self._build_boost,
                "prevent": self._build_prevent, "distracted": self._build_distracted,
            },
        )  # fmt: skip

    # -- rows, built the first time they show --------------------------------------------------

    def _build_roll(self) -> pn.FlexBox:
        p = self.prefix
        self.roll_button = button("Roll (table dice)", f"{p}-roll", "primary")
        self.roll_button.width = 170
        self.faces = pn.widgets.TextInput(
            label=self._typed[0], placeholder="e.g. 3 7", css_classes=[f"{p}-faces"], width=160
        )
        self.faces_button = button(self._typed[1], f"{p}-faces-go")
        self.landing = html_pane(f"{p}-landing")
        self.roll_button.on_click(lambda _e: self._roll(typed=False))
        self.faces_button.on_click(lambda _e: self._roll(typed=True))
        self.faces.param.watch(lambda _e: self._show_landing(), "value_input")
        return pn.Column(
            row(self.roll_button, self.faces, self.faces_button),
            self.landing,
            sizing_mode="stretch_width",
            margin=0,
        )

    def _build_boost(self) -> pn.Column:
        p = self.prefix
        self.boost_ask = html_pane(f"{p}-boost-ask")
        self.boost_dice = pn.widgets.CheckButtonGroup(
            options={}, value=[], css_classes=[f"{p}-boost-dice"], stylesheets=[WRAP_BUTTONS],
            sizing_mode="stretch_width",
        )  # fmt: skip
        self.boost_button = button("Boost: pick dice", f"{p}-boost", "primary")
        self.boost_button.width = 190
        self.keep_button = button("Keep the dice as rolled", f"{p}-keep")
        self.keep_button.width = 190
        self.boost_dice.param.watch(lambda _e: self._label_boost(), "value")
        self.boost_button.on_click(lambda _e: self._boost(list(self.boost_dice.value)))
        self.keep_button.on_click(lambda _e: self._boost([]))
        return pn.Column(
            self.boost_ask,
            self.boost_dice,
            row(self.boost_button, self.keep_button),
            sizing_mode="stretch_width",
        )

    def _build_prevent(self) -> pn.Column:
        p = self.prefix
        self.prevent_ask = html_pane(f"{p}-prevent-ask")
        self.prevent_ki = pn.widgets.IntInput(
            label="Levels to prevent", value=0, start=0, width=130,
            css_classes=[f"{p}-prevent-ki"],
        )  # fmt: skip
        self.prevent_button = button("Prevent: choose levels", f"{p}-prevent", "primary")
        self.prevent_button.width = 190
        self.take_button = button("Take the damage", f"{p}-take")
        self.take_button.width = 160
        self.prevent_ki.param.watch(lambda _e: self._label_prevent(), "value")
        self.prevent_button.on_click(lambda _e: self._prevent(int(self.prevent_ki.value or 0)))
        self.take_button.on_click(lambda _e: self._prevent(0))
        return pn.Column(
            self.prevent_ask,
            row(self.prevent_ki, self.prevent_button, self.take_button),
            sizing_mode="stretch_width",
        )

    def _build_distracted(self) -> pn.Column:
        p = self.prefix
        self.distracted_ask = html_pane(f"{p}-distracted-ask")
        self.distracted_ask.object = DISTRACTED_ASK
        self.distracted_roll = button("Roll (table dice)", f"{p}-distracted", "primary")
        self.distracted_faces = pn.widgets.TextInput(
            label=self._typed[0], placeholder="e.g. 4 9", width=160,
            css_classes=[f"{p}-distracted-faces"],
        )  # fmt: skip
        self.distracted_faces_button = button(self._typed[1], f"{p}-distracted-faces-go")
        self.distracted_roll.on_click(lambda _e: self._distracted(typed=False))
        self.distracted_faces_button.on_click(lambda _e: self._distracted(typed=True))
        self.distracted_row = pn.Column(
            self.distracted_ask,
            row(self.distracted_roll, self.distracted_faces, self.distracted_faces_button),
            sizing_mode="stretch_width",
        )
        return self.distracted_row

    # -- sending -------------------------------------------------------------------------------

    def _roll(self, typed: bool) -> None:
        """Roll with the table's dice, or with the dice typed.

        Typed dice add to those already put in for this roll (issue 31: "So far 3, 7", then
        "2" is "So far 3, 7, 2"): fewer than the roll takes are kept, the box emptied for the
        next ones, and the landing says how many are still to come; the roll goes once all
        are in.
        """
        if typed and self._kept:
            so_far = typed_so_far(self.faces.value_input or self.faces.value)
            if so_far is None:
                text = "Type the faces as numbers from 1 to 10, e.g. 3 7."
                self._message.object = f'<p class="err">{escape(text)}</p>'
                return
            faces = self._kept + so_far
        else:
            command = with_typed_faces({"type": "roll"}, typed, self.faces, self._message)
            if command is None:
                return
            faces = command.get("faces")
        most = dice_of(self._p)
        if faces is not None and most is not None and 0 < len(faces) < most:
            if problem(faces, most):
                return self._show_landing()
            self._kept = list(faces)  # not all in yet: keep them, the next ones add
            update(self.faces, value="", value_input="")
            self._show_landing()
            return
        command = {"type": "roll"} if faces is None else {"type": "roll", "faces": faces}
        self._send(command, then=self._clear_faces)

    def _clear_faces(self) -> None:
        self._kept = []
        update(self.faces, value="", value_input="")
        update(self.landing, object="")

    def _distracted(self, typed: bool) -> None:
        command = {"type": "distracted", "combatant": self._seat}
        command = with_typed_faces(command, typed, self.distracted_faces, self._message)
        if command is not None:
            self._send(command, then=lambda: setattr(self.distracted_faces, "value", ""))

    def _boost(self, dice: list[int]) -> None:
        self._send(
            {"type": "boost", "dice": sorted(int(d) for d in dice)},
            then=lambda: setattr(self.boost_dice, "value", []),
        )

    def _prevent(self, levels: int) -> None:
        self._send({"type": "prevent", "ki": int(levels)})

    # -- drawing -------------------------------------------------------------------------------

    def _label_boost(self) -> None:
        label, ok = boost_label(self._p, len(self.boost_dice.value))
        update(self.boost_button, label=label, disabled=not ok)

    def _label_prevent(self) -> None:
        label, ok = prevent_label(self._p, int(self.prevent_ki.value or 0))
        update(self.prevent_button, label=label, disabled=not ok)

    def show(self, view: dict, seat: str | None) -> None:
        """Draw the step of ``view`` for this reader (``seat``: the player's seat or None)."""
        p = self._p = view["pending"]
        step = p["step"] if p else None
        update(self.result, object=result_html(view.get("result")))
        update(self.whose, object=whose_html(view, seat))
        who = actor(p) if p else None
        mine = p is not None and (view["role"] == "gm" or (seat is not None and who == seat))
        if self.rows.show("roll", mine and step in ROLL_WORDS):
            update(self.roll_button, label=f"{ROLL_WORDS[step]} (table dice)")
            rolling = (step, p.get("opened"), p["attacker"], p["target"])
            if rolling != self._rolling:  # another roll: the dice typed for the last are gone
                self._rolling = rolling
                self._clear_faces()
            else:
                self._show_landing()
        if self.rows.show("boost", mine and step == "boost"):
            self._show_boost(p)
        if self.rows.show("prevent", mine and step == "prevent"):
            self._show_prevent(p)
        # A player's own Distracted roll, when the GM asks for it (rules/002 "What Is
        # Distracted?"); the GM rolls anyone's from the GM tools.
        self._seat = seat
        me = next((c for c in view["combatants"] if c["id"] == seat), None) if seat else None
        self.rows.show("distracted", me is not None and any(x["to_roll"] for x in me["conditions"]))

    def _show_landing(self) -> None:
        """The odds given the dice typed so far, under the dice box (one pane's text)."""
        p = self._p
        typed = typed_so_far(self.faces.value_input)
        typed = None if typed is None else self._kept + typed
        html = ""
        if self._odds is not None and typed and p is not None and p["step"] in ("to_hit", "damage"):
            most = dice_of(p)
            wrong = problem(typed, most)
            if wrong:
                html = f'<div class="landing hint">{escape(wrong)}</div>'
            else:
                html = dice_landing_html(self._odds(typed), most, p.get("vital"))
        update(self.landing, object=html)

    def _new_step(self, p: dict) -> bool:
        """Whether ``p`` is a step other than the one last set up (picks start afresh)."""
        key = (p["step"], p.get("opened"), p.get("attacker"), tuple(p.get("faces") or ()))
        if key == self._opened:
            return False
        self._opened = key
        return True

    def _show_boost(self, p: dict) -> None:
        dice = (p.get("odds") or {}).get("dice") or []
        options = {
            f"Die {i + 1}: {d['face']}": i for i, d in enumerate(dice) if d.get("boost_lifts")
        }
        if self._new_step(p):
            update(self.boost_dice, value=[])  # empty at every boost step
        update(self.boost_dice, options=options)
        n, most = len(options), affordable(p)
        ask = (
            f"A boost lifts {dice_text(n)} over the wall; the Ki left pays for "
            f"{dice_text(most)}. Pick the dice to boost, or keep them as rolled."
        )
        update(self.boost_ask, object=f'<div class="hint">{escape(ask)}</div>')
        self._label_boost()

    def _show_prevent(self, p: dict) -> None:
        levels = int(p.get("levels") or 0)
        most = min(levels, affordable(p))
        if self._new_step(p):  # nothing chosen: a hasty tap spends no Ki (issue 31)
            update(self.prevent_ki, end=max(levels, 0), value=0)
        else:
            update(self.prevent_ki, end=max(levels, 0))
        ask = (
            f"Each level prevented costs Ki: the Ki left pays for {plural(most, 'level')} "
            f"of the {plural(levels, 'level')} coming. Choose how many to prevent, "
            "or take the damage."
        )
        update(self.prevent_ask, object=f'<div class="hint">{escape(ask)}</div>')
        self._label_prevent()
