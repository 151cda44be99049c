"""Every event type, for every role, through the views and the pages' HTML (issue 21, "Leaks").

The list of event types is read from the code (``event_kinds``: every event a table handler emits),
so a new event type fails ``test_every_event_type_is_played`` until the script below plays it. The
script plays them with a hidden foe that acts, is shown, is hidden again, joins hidden and is
undone, and spends Ki, the foes' numbers not shared. After each step the views of the GM, each seat
and a spectator are drawn as the pages draw them (``views/combat/combat_render.py``) and searched
for hidden names and ids, and for foes' numbers; and at the end each event's line is drawn for each
reader: every type has its own words for the GM, and every type a player may see (all but the join
code's) shows to each of them at least once. Panel-free.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from table_helpers import ROSTER, encounter, new_table, roster, soak7
from test_table_leaks import _foe_numbers
from test_table_visibility import assert_no_trace, pages_html

from tb_playground.models import Creature, Gift, Ruleset
from tb_playground.models.creature import CreatureAttack
from tb_playground.models.files import parse
from tb_playground.service import DrawCache
from tb_playground.table import reader_view, table_log

TABLE = Path(table_log.__file__).parent

#: Events whose type is made from their command's ("short_rest" -> "short rest"), in fight_rules.py.
REST_KINDS = ("short rest", "full night", "end scene")

#: Made by the store itself, not by a handler.
STORE_KINDS = ("created",)

READERS = (("gm", None), ("player", "ronan"), ("player", "the-brick"), ("spectator", None))

#: Only the GM ever sees these (a player never reads the name of one hidden now).
GM_ONLY = {"code_rotated", "hidden"}

LURKER = "Zyxwv Lurker"  # hidden from the start
DRAGON = "Secret Dragon"  # joins hidden, is undone, joins hidden again


def event_kinds() -> set[str]:
    """Every event type a table module emits: the first item of each (type, data, changes).

    Read from the source of ``tb_playground/table/*.py``: a 3-tuple whose first item is a text
    (or a choice of two texts) and whose second is the event's data. The types built from a
    command's name (the rests) are ``REST_KINDS``; the test below checks there is no other.
    """
    kinds: set[str] = set(STORE_KINDS)
    built = []
    for path in sorted(TABLE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Tuple) and len(node.elts) == 3):
                continue
            first, data, changes = node.elts
            if not isinstance(data, (ast.Dict, ast.Name, ast.DictComp, ast.Call)):
                continue
            if not isinstance(changes, (ast.List, ast.Name, ast.ListComp, ast.BinOp, ast.Call)):
                continue
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                kinds.add(first.value)
            elif isinstance(first, ast.IfExp) and all(
                isinstance(x, ast.Constant) for x in (first.body, first.orelse)
            ):
                kinds.update((first.body.value, first.orelse.value))
            elif isinstance(first, ast.Call) and ast.unparse(first) == "kind.replace('_', ' ')":
                built.append(path.name)
    assert built == ["fight_rules.py"], built  # the rests: any other built type must be listed
    return kinds | set(REST_KINDS)


def _captain() -> Creature:
    return Creature(
        name="Captain Oriel Vance",
        named=True,
        soak=3,
        health=9,
        poise=6,
        ki=7,
        defense_physical=4,
        attacks=[CreatureAttack(name="Sabre", element=3, dice=2)],
    )


def _lurker() -> Creature:
    return Creature(
        name=LURKER,
        soak=3,
        health=9,
        ki=4,
        attacks=[CreatureAttack(name="Bite", element=3, dice=1)],
    )


def _gifted(ronan):
    ward = Gift(name="Iron Ward", level=2, dice=0, ki_cost=2, gift_check=True)
    loop = Gift(name="Feedback Loop", level=2, dice=4, kind="mental", ki_cost=2, gift_check=True)
    ronan.gifts = [*ronan.gifts, ward, loop]
    return ronan


def _dragon() -> dict:
    doc = parse((ROSTER / "guard_dog.yaml").read_text(), None, "guard_dog.yaml")
    doc["data"].update(name=DRAGON, ki=5)
    return doc


class Game:
    """A table, the events each step made, and the checks after each step."""

    def __init__(self, tmp_path):
        enc = encounter(
            _gifted(roster("ronan.json")),
            roster("the_brick.json"),
            foes=[soak7(), _captain(), _lurker()],
        )
        enc.ruleset = Ruleset(flustered_shaken_off=True)  # for the "shake_off" command
        _, self.t = new_table(tmp_path, enc, seed=982_451_653_127)
        self.cache = DrawCache()
        self.kinds: set[str] = {"created"}
        self.refused: list[tuple[dict, str]] = []
        self.ever_hidden: set[str] = set()
        self.do({"type": "hide", "combatant": "zyxwv-lurker"})

    def do(self, command: dict, role: str = "gm", seat: str | None = None) -> list[dict]:
        """Apply ``command`` as ``role``; the events it made, or [] when refused (noted)."""
        try:
            made = self.t.apply(command, role=role, seat=seat)
        except (ValueError, PermissionError) as err:
            self.refused.append((command, str(err)))
            return []
        self.kinds.update(e["type"] for e in made)
        self.check()
        return made

    def up(self, cid: str) -> None:
        """End turns (revealing first) until ``cid`` is up."""
        for _ in range(12):
            s = self.t.state
            if s["phase"] == "declare":
                self.do({"type": "reveal"})
            elif s["up"] == cid or s["phase"] != "resolve":
                return
            else:
                self.do({"type": "end_turn"})

    def secrets(self) -> list[str]:
        """Names and ids no player may see now (lower case)."""
        cs = self.t.state["combatants"]
        for cid, c in cs.items():
            if c["hidden"]:
                self.ever_hidden.add(cid)
        out = []
        for cid in self.ever_hidden:
            c = cs.get(cid)
            if c is not None and not c["hidden"]:
                continue
            out.append(cid)
            if c is not None:
                out.append(c["name"].lower())
        return out

    def check(self) -> None:
        t, state = self.t, self.t.state
        secrets = self.secrets()
        for role, seat in READERS[1:]:
            view = t.view_for(role, seat, lambda v, what: self.cache.part(t.name, v, what))
            assert view == reader_view.view_for(state, t.events, role, seat)
            text = (json.dumps(view) + pages_html(view)).lower()
            for secret in secrets:
                found = re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-]| \d)", text)
                assert not found, (role, seat, secret, [x["text"] for x in view["log"]])
            if not state["share_foes"]:
                for line in view["log"]:
                    assert _foe_numbers(state, line["text"], seat) is None, (role, seat, line)
                for c in view["combatants"]:
                    if c["foe"]:
                        assert c["vitals"] is None and c["ki"] is None
            assert_no_trace(state, view, seat)


def _finish(
    g: Game, boost: bool = True, prevent: int = 1, damage: int = 8, hit: tuple = (2, 3, 4, 5)
) -> None:
    """Play the attack or Gift Check under way to its end: typed faces that hit hard, a boost
    of the first die (else none), ``prevent`` Ki of prevention (else none)."""
    for _ in range(10):
        p = g.t.state["pending"]
        if p is None:
            return
        step = p["step"]
        target = g.t.state["combatants"][p["target"]]
        seat = ("player", p["target"]) if target["side"] == "Party" else ("gm", None)
        if step == "boost":
            if not (boost and g.do({"type": "boost", "dice": [0]})):
                g.do({"type": "boost", "dice": []})
        elif step == "prevent":
            if not g.do({"type": "prevent", "ki": prevent}, *seat):
                g.do({"type": "prevent", "ki": 0}, *seat)
        else:
            count = 2 + abs(p.get("advantage", 0)) if step != "damage" else p["dice"]
            faces = [damage] * count if step == "damage" else list(hit[:count])
            if not _roll(g, {"type": "roll"}, faces) and "approach" in g.refused[-1][1]:
                g.do({"type": "attack_ruling", "approach": "Earth"})  # the GM's nod


def _roll(g: Game, command: dict, faces: list[int]) -> list[dict]:
    """``command`` with ``faces``; if the table asks for another number of dice, that many."""
    made = g.do({**command, "faces": faces})
    if not made:
        said = re.search(r"(?:exactly|list of) (\d+) d10", g.refused[-1][1])
        if said:
            made = g.do({**command, "faces": [faces[0] if faces else 5] * int(said[1])})
    return made


def _fight(g: Game) -> None:  # noqa: PLR0915 - one script
    t = g.t
    do = g.do
    do({"type": "table_option", "option": "approach_nod", "on": True})
    do({"type": "note", "text": "The warehouse, at night."})
    do({"type": "rotate_code"})
    do({"type": "hide", "combatant": "opponent"})  # hidden a while, then in sight for good
    do({"type": "show", "combatant": "opponent"})
    do({"type": "set_condition", "combatant": "ronan", "condition": "Prone"})
    do({"type": "clear_condition", "combatant": "ronan", "condition": "Prone"})
    do({"type": "set", "combatant": "ronan", "field": "poise", "value": 3})
    do({"type": "undo"})
    do({"type": "redo"})
    do({"type": "undo"})
    do({"type": "set_range", "a": "ronan", "b": "opponent", "band": "melee"})
    do({"type": "set_range", "a": "ronan", "b": "zyxwv-lurker", "band": "melee"})
    do({"type": "set_distance", "a": "the-brick", "b": "captain-oriel-vance", "metres": 1})
    do({"type": "set_distance", "a": "the-brick", "b": "zyxwv-lurker", "metres": 1})
    # Before the fight: Skill rolls of every kind, stabilising (the hidden Lurker rolls too).
    do({"type": "skill_roll", "combatant": "ronan", "skill": "Athletics", "faces": [2, 9, 3]})
    do({"type": "opposed_roll", "actor": "ronan", "resister": "opponent", "actor_skill":
        "Stealth", "resister_skill": "Perception", "actor_faces": [5, 5],
        "resister_faces": [1, 1], "static": 5})  # fmt: skip
    do({"type": "group_roll", "members": ["ronan", "the-brick"], "skill": "Athletics",
        "faces": {"ronan": [5, 5, 5], "the-brick": [5, 5, 5]}})  # fmt: skip
    do({"type": "set", "combatant": "the-brick", "field": "health", "value": -2})
    do({"type": "stabilise", "combatant": "ronan", "target": "the-brick", "faces": [10, 10]})
    do({"type": "stabilise", "combatant": "ronan", "target": "the-brick", "faces": [1, 2]})
    do({"type": "set", "combatant": "the-brick", "field": "health", "value": 11})
    order = {"ronan": 10, "the-brick": 9, "opponent": 8, "captain-oriel-vance": 7}
    do({"type": "start", "initiative": {**order, "zyxwv-lurker": 6}})
    # Round 1: the Lurker bumps with Ki, hidden; the others declare, the GM reveals.
    do({"type": "declare", "combatant": "zyxwv-lurker", "bracket": "slow", "bumps": 1})
    do(
        {"type": "declare", "combatant": "ronan", "bracket": "normal", "bumps": 1},
        "player",
        "ronan",
    )
    do({"type": "declare", "combatant": "the-brick", "bracket": "normal"}, "player",
       "the-brick")  # fmt: skip
    do({"type": "declare", "combatant": "opponent", "bracket": "normal"})
    do({"type": "declare", "combatant": "captain-oriel-vance", "bracket": "slow"})
    g.up("ronan")
    loop = next(i for i, a in enumerate(t.state["combatants"]["ronan"]["attacks"])
                if a["name"].startswith("Feedback Loop"))  # fmt: skip
    do({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": loop,
        "approach": "Earth"}, "player", "ronan")  # fmt: skip
    _finish(g)
    do({"type": "table_option", "option": "approach_nod", "on": False})
    do({"type": "use_gift", "combatant": "ronan", "gift": "Iron Ward"}, "player", "ronan")
    _finish(g)
    do({"type": "end_turn"}, "player", "ronan")
    g.up("the-brick")
    do({"type": "grab", "attacker": "the-brick", "target": "captain-oriel-vance",
        "faces": [1, 1]}, "player", "the-brick")  # fmt: skip
    do({"type": "act", "combatant": "the-brick", "action": "ready", "trigger": "a foe moves",
        "what": "strike"}, "player", "the-brick")  # fmt: skip
    do({"type": "end_turn"}, "player", "the-brick")
    do({"type": "ready_fired", "combatant": "the-brick"})
    g.up("opponent")
    # A foe attacks the Brick: Ronan sees it, without its numbers.
    do({"type": "attack", "attacker": "opponent", "target": "the-brick", "attack": 0})
    _finish(g, damage=10, hit=(1, 1, 1, 1))  # a critical: Klotho's dice connect outright
    do({"type": "end_turn"})
    g.up("captain-oriel-vance")
    do({"type": "attack", "attacker": "captain-oriel-vance", "target": "ronan", "attack": 0})
    _finish(g, hit=(1, 1, 1, 1), damage=10)  # Ronan's jacket takes it, in sight
    do({"type": "escape", "combatant": "captain-oriel-vance", "faces": [1, 1],
        "holder_faces": [9, 9], "potence": 3})  # fmt: skip
    do({"type": "set", "combatant": "captain-oriel-vance", "field": "poise", "value": -2})
    do({"type": "spend_ki", "combatant": "captain-oriel-vance", "purpose": "restore poise"})
    do({"type": "end_turn"})
    g.up("zyxwv-lurker")
    # The hidden Lurker acts: attacks Ronan (his jacket takes it), spends Ki, is set Prone.
    do({"type": "attack", "attacker": "zyxwv-lurker", "target": "ronan", "attack": 0})
    _finish(g, prevent=0)
    do({"type": "set", "combatant": "zyxwv-lurker", "field": "poise", "value": -1})
    do({"type": "spend_ki", "combatant": "zyxwv-lurker", "purpose": "restore poise"})
    do({"type": "set_condition", "combatant": "zyxwv-lurker", "condition": "Prone"})
    do({"type": "clear_condition", "combatant": "zyxwv-lurker", "condition": "Prone"})
    # A dragon joins hidden, is undone, joins again; the Lurker shown, then hidden again.
    do({"type": "add", "document": _dragon(), "side": "Foes", "hidden": True})
    do({"type": "undo"})
    do({"type": "redo"})
    do({"type": "undo"})
    do({"type": "add", "document": _dragon(), "side": "Foes", "hidden": True})
    dragon = t.events[-1]["data"]["combatant"]
    do({"type": "add", "document": _dragon(), "side": "Foes"})  # one in sight: "Secret Dragon 2"
    do({"type": "set", "combatant": dragon, "field": "ki", "value": 1})
    do({"type": "show", "combatant": "zyxwv-lurker"})
    do({"type": "hide", "combatant": "zyxwv-lurker"})
    do({"type": "end_turn"})
    for _ in range(6):
        if t.state["phase"] == "declare":
            break
        do({"type": "end_turn"})
    # Round 2: moving, helping, armor repaired, Distracted, Fate, Shattered and led, scars.
    for cid in ("ronan", "the-brick", "opponent", "captain-oriel-vance", "zyxwv-lurker", dragon):
        slow = cid == "captain-oriel-vance"  # a Disarm is an empowered action
        do({"type": "declare", "combatant": cid, "bracket": "slow" if slow else "normal"})
    g.up("ronan")
    do({"type": "move", "combatant": "ronan", "metres": 1}, "player", "ronan")
    do({"type": "attack", "attacker": "ronan", "target": "opponent", "attack": 0}, "player",
       "ronan")  # fmt: skip
    _finish(g, damage=6)  # a 6 against the wall of 7: a boost lifts it over
    do({"type": "end_turn"}, "player", "ronan")
    g.up("the-brick")
    do({"type": "help", "combatant": "the-brick", "ally": "ronan"}, "player", "the-brick")
    do({"type": "set", "combatant": "the-brick", "field": "poise", "value": -1})
    do({"type": "shake_off", "combatant": "the-brick", "faces": [1, 1, 1]}, "player", "the-brick")
    do({"type": "end_turn"}, "player", "the-brick")
    do({"type": "set", "combatant": "the-brick", "field": "poise", "value": 3})
    g.up("captain-oriel-vance")
    do({"type": "disarm", "attacker": "captain-oriel-vance", "target": "the-brick",
        "attacker_faces": [1, 1], "defender_faces": [9, 9], "potence": 3})  # fmt: skip
    do({"type": "set", "combatant": "ronan", "field": "ki", "value": 0})
    do({"type": "repair_armor", "combatant": "ronan", "zone": "body"})
    do({"type": "set_condition", "combatant": "ronan", "condition": "Distracted"})
    # three dice: the Brick's Help gives Ronan's next roll Advantage (issue 32, item 1)
    do({"type": "distracted", "combatant": "ronan", "faces": [10, 10, 10]}, "player", "ronan")
    do({"type": "fate_gain", "combatant": "ronan", "reason": "flaw"}, "player", "ronan")
    do({"type": "fate_confirm", "combatant": "ronan", "accept": True})
    do({"type": "fate_gain", "combatant": "ronan", "reason": "flaw"}, "player", "ronan")
    do({"type": "fate_confirm", "combatant": "ronan", "accept": False})
    do({"type": "fate_gain", "reason": "milestone"})
    do({"type": "spend_fate", "combatant": "ronan", "spend": "refill ki"}, "player", "ronan")
    do({"type": "set", "combatant": "ronan", "field": "sanity", "value": -1})
    do({"type": "lead", "combatant": "ronan", "leader": "the-brick"})
    do({"type": "name_scar", "combatant": "ronan", "scar": 0, "effect": "a limp"})
    do({"type": "heal_scar", "combatant": "ronan", "scar": 0})
    do({"type": "scar_reading", "flaw_until_healed": True})
    do({"type": "set", "combatant": "ronan", "field": "sanity", "value": 5})
    do({"type": "share", "on": True})
    do({"type": "share", "on": False})
    do({"type": "foe_odds", "show": "none"})  # issue 31: what attackers see against foes
    do({"type": "foe_odds", "show": "words"})
    # A chase, then back; the fight ends, goes on, ends, closes with the Scene; rests.
    do({"type": "chase_start", "quarry": "ronan", "pursuers": ["opponent"], "metres": 6,
        "sight_m": 14})  # fmt: skip
    do({"type": "chase_ruling", "harder": 1})
    do({"type": "chase_end"})
    # The Opponent catches Ronan; then Ronan breaks sight and loses it.
    do({"type": "chase_start", "quarry": "ronan", "pursuers": ["opponent"], "metres": 3})
    do({"type": "chase_declare", "combatant": "opponent", "how": "move"})
    do({"type": "chase_declare", "combatant": "ronan", "how": "move"}, "player", "ronan")
    _roll(g, {"type": "chase_roll", "combatant": "opponent"}, [1, 1])
    _roll(g, {"type": "chase_roll", "combatant": "ronan"}, [9, 9, 9])
    # Ronan breaks sight and loses the Opponent (tests/table/test_table_chase.py's bear).
    do({"type": "chase_start", "quarry": "ronan", "pursuers": ["opponent"], "metres": 15,
        "sight_m": 20})  # fmt: skip
    for _ in range(3):
        if t.state["phase"] != "chase":
            break
        do({"type": "chase_declare", "combatant": "opponent", "how": "move"})
        do({"type": "chase_declare", "combatant": "ronan", "how": "move"}, "player", "ronan")
        _roll(g, {"type": "chase_roll", "combatant": "opponent"}, [9, 9])
        _roll(g, {"type": "chase_roll", "combatant": "ronan"}, [1, 1, 1])
        if t.state["phase"] == "chase" and t.state["chase"]["searching"]:
            do({"type": "chase_search", "pursuer": "opponent", "actor_faces": [1, 3],
                "static": 5})  # fmt: skip
    state = t.state  # one copy: each read of ``t.state`` deep-copies the table
    foes = [cid for cid in state["ids"] if state["combatants"][cid]["side"] == "Foes"]
    for cid in foes:
        do({"type": "set", "combatant": cid, "field": "health", "value": 0})
    do({"type": "continue"})
    do({"type": "set", "combatant": "opponent", "field": "health", "value": 5})
    do({"type": "set", "combatant": "opponent", "field": "health", "value": 0})
    do({"type": "end_scene"})
    do({"type": "short_rest"})
    do({"type": "full_night"})


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game(tmp_path_factory.mktemp("every"))
    _fight(g)
    return g


def test_every_event_type_is_played(game):
    missing = event_kinds() - game.kinds
    assert not missing, (sorted(missing), game.refused)


def test_every_event_type_has_words_for_every_reader(game):
    t = game.t
    fallback = {k: k.replace("_", " ").capitalize() + "." for k in event_kinds()}
    shown: dict[tuple, set] = {r: set() for r in READERS}
    for i, event in enumerate(t.events):
        for role, seat in READERS:
            lines = table_log.log_lines(t.state, t.events[: i + 1], role, seat, since=i)
            if lines:
                assert lines == [lines[0]] and lines[0] != fallback.get(event["type"])
                assert "_" not in lines[0].split(": ")[0], lines[0]  # no code name
                shown[role, seat].add(event["type"])
    kinds = {e["type"] for e in t.events}
    assert shown[READERS[0]] == kinds  # the GM sees every line
    for reader in READERS[1:]:
        assert kinds - GM_ONLY <= shown[reader], (reader, sorted(kinds - GM_ONLY - shown[reader]))
