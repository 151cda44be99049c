"""Whole fights played by the live table itself: a check that cannot share the simulator's errors.

Issue 32, item 17. ``play_at_table(encounter, fights, seed, **policies)`` plays ``fights``
fights of ``encounter`` at a live ``Table`` (a ``TableStore`` in a temporary folder), every
command through ``Table.apply``, with the table's own seeded dice (one table a fight, its seed
drawn from ``seed``). The loop here only decides what a player or the GM would, by the
simulator's policies (``lab.fight_options``: brackets, targets, boosts, prevention, the
attack each picks: ``lab.prepare.attack_option``); everything else is the table's: Initiative,
band order, Surprised, Gift Ki and Gift Checks, to-hit, criticals, Off Balance, armor, damage,
the tracks, Exhausted, Shattered and led, and the end of the fight (its "over" phase, the
winner it names). Where the simulator's round and the table's rules disagree, the two
estimates disagree; ``lab.simulate``'s chance must lie inside this one's interval.

It sits above both the table and the lab (the lab may not import the live table: it reads
plain records), below the pages, which do not use it: tests and ``benchmarks/`` do.

Readings of the policies at the table (where the simulator's words leave a choice):

- A Shattered combatant is led at its turn by the first ally (encounter order) able on its
  own and not Humiliated (the simulator's ``Fights.acts``); the lead costs no action.
- Boosts after the roll: the dice a boost lifts over the wall, while the Ki left pays for one
  spend of them (Exhausted 4: one more) and the track still loses the level (``room``); one
  against armor (one level is all it can lose). Prevention: the defender's Ki policy through
  ``engine.take_attack`` on the Ki one spend can pay for; the Sanity level Poise's bottom costs
  is prevented by the same policy when Ki is left.
- The Distracted roll a Slow combatant hit in Health is asked is never rolled (asked and not
  rolled changes nothing, RULES.md "Distracted"), as the simulator plays no Distracted.
"""

from __future__ import annotations

import copy
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tb_playground.engine import take_attack
from tb_playground.engine.round_budget import bump_cost
from tb_playground.engine.validation import require_choice, require_int
from tb_playground.lab.fight_options import BOOST_POLICIES, BRACKET_POLICIES, TARGET_POLICIES
from tb_playground.lab.fight_result import wilson_interval
from tb_playground.lab.prepare import (
    COVER_SETTINGS,
    attack_option,
    plain_records,
    prepare,
    resolve_policy,
)
from tb_playground.table import TableStore
from tb_playground.table.boost_offer import room
from tb_playground.table.commands import decide
from tb_playground.table.fight_end import able
from tb_playground.table.fight_rules import can_act, ki_cost, states
from tb_playground.table.state import apply_changes, initial_state

#: Most fights one call plays (each is a table with its own file rows).
MAX_FIGHTS = 100_000

_VITALS = ("health", "poise", "sanity")
_ATTACKS = {"normal": 2, "fast": 1, "slow": 1}


@dataclass
class TablePlayed:
    """What the table's fights gave.

    Attributes
    ----------
    fights : int
        Fights played.
    sides : list of str
        The sides, in the encounter's order.
    wins : dict
        Side -> fights it won (the table's "fight over" winner).
    draws : int
        Fights still undecided after ``max_rounds`` rounds, or ended with no side standing.
    rounds : list of int
        The round each fight ended in (``max_rounds`` for a draw).
    refused : int
        Commands the table refused (a policy's choice the table does not allow); 0 expected.
    """

    fights: int
    sides: list
    wins: dict
    draws: int
    rounds: list = field(default_factory=list)
    refused: int = 0

    def p_win(self, side: str) -> float:
        """The share of fights ``side`` won."""
        return self.wins[side] / self.fights

    def interval(self, side: str, z: float = 1.96) -> tuple[float, float]:
        """The Wilson interval of ``side``'s chance to win (``z``: 1.96 for 95%)."""
        return wilson_interval(self.wins[side], self.fights, z)


class _Folded:
    """The table's own decision and fold without its file: ``decide`` then ``apply_changes``.

    What ``Table.apply`` does with a command, less the storing (the events are not kept):
    ``through="fold"`` plays this way, about ten times faster, with its own seeded dice.
    """

    def __init__(self, data: dict, seed: int):
        self._state = initial_state(data)
        self._rng = np.random.default_rng(seed)
        self.state = self._state

    def _roll(self, n: int) -> list[int]:
        return [int(x) for x in self._rng.integers(1, 11, size=n)]

    def apply(self, command: dict) -> None:
        for _kind, _data, changes in decide(self._state, command, "gm", None, self._roll):
            apply_changes(self._state, changes)


class _Fight:
    """One fight at ``table``, its choices made by the simulator's policies."""

    def __init__(self, table, prep, policy: dict):
        self.table = table
        self.prep = prep
        self.policy = policy
        self.refused = 0
        self.ids = list(table.state["ids"])
        self.hits: dict[str, int] = {}
        self.ended: int | None = None

    @property
    def state(self) -> dict:
        return self.table._state  # read only: a copy per read would cost more than the fight

    def send(self, command: dict) -> bool:
        in_play = self.state["round"]
        try:
            self.table.apply(command)
        except ValueError:
            self.refused += 1
            return False
        if self.over() and self.ended is None:
            # the round in play when it ended: a fight over as a round closes (a lead lapsing)
            # is over in that round, not the next the table has opened (the simulator's count)
            self.ended = in_play
        return True

    def over(self) -> bool:
        return self.state["phase"] == "over"

    def option(self, a: int, j: int) -> int:
        return attack_option(self.prep, a, j, self.state["combatants"][self.ids[a]]["ki"])

    def target(self, a: int) -> int | None:
        """The foe ``a`` attacks by its target policy (the simulator's ``choose_targets``)."""
        cs = self.state["combatants"]
        how = self.policy["target"][a]
        best = None
        for j, cid in enumerate(self.ids):
            c = cs[cid]
            g = self.option(a, j)
            if g < 0:
                continue
            if how == "finish":
                if c["out"] or c["now"]["health"] <= c["dead_at"]:
                    continue
            elif not able(c) or "Shattered" in states(c):  # able on its own (``Fights.can``)
                continue
            level = c["now"][_VITALS[self.prep.vital[g]]]
            key: tuple = (level, j)
            if how == "spread":
                key = (self.hits.get(cid, 0), level, j)
            elif how == "most_dangerous":
                key = (-round(float(self.prep.danger[a, j]) * 1000), level, j)
            best = key if best is None or key < best else best
        return None if best is None else best[-1]

    def bracket(self, a: int) -> tuple[str, int, str | None]:
        """(bracket, bumps, empowered choice) by ``a``'s bracket policy."""
        how = self.policy["bracket"][a]
        c = self.state["combatants"][self.ids[a]]
        if how == "fast":
            return "fast", 0, None
        if how == "aim":
            return "slow", 0, "aim"
        if how == "called_shot":
            return "slow", 0, "called shot"
        if how == "bump":
            ok = c["ki"] >= bump_cost(1, c["exhausted"]) and bool(self.prep.has_attack.reshape(
                len(self.ids), -1)[a].any())  # fmt: skip
            return "normal", int(ok), None
        if how == "slow_aim":
            j = self.target(a)
            if j is not None and self.prep.aim_better[self.option(a, j)]:
                return "slow", 0, "aim"
        return "normal", 0, None

    def lead(self, a: int) -> None:
        """A Shattered combatant at its turn is led by the first ally able to lead."""
        cs = self.state["combatants"]
        c = cs[self.ids[a]]
        if "Shattered" not in states(c) or c["carried"].get("led_by"):
            return
        for cid in self.ids:
            ally = cs[cid]
            if cid != c["id"] and ally["side"] == c["side"] and able(ally):
                if "Humiliated" not in states(ally):
                    self.send({"type": "lead", "combatant": c["id"], "leader": cid})
                    return

    def attack(self, a: int, j: int, empowered: str | None) -> None:
        cs = self.state["combatants"]
        attacker, target = self.ids[a], self.ids[j]
        g = self.option(a, j)
        index = int(self.prep.option_attack[g])
        command = {"type": "attack", "attacker": attacker, "target": target, "attack": index}
        if empowered is not None:
            command["empowered"] = empowered
        if self.policy["cover"][j] != "none":
            command["cover"] = self.policy["cover"][j]
        a_rec = cs[attacker]
        extra = ki_cost(1, a_rec["exhausted"]) - 1
        cap = self.policy["boost_cap"][a]
        if self.prep.boosts_before:  # 002: every boost the Ki allows, when one can lift a face
            zone = 1 if empowered == "called shot" else 0
            armor = cs[target]["armor"].get(("body", "head")[zone]) or {}
            on = self.prep.armor_on[g, zone] and armor.get("levels", 0) > 0
            useful = self.prep.armor_useful[g, zone] if on else self.prep.boost_useful[g]
            left = a_rec["ki"] - int(self.prep.ki_cost[g]) - extra  # the Gift is paid first
            dice = a_rec["attacks"][index]["dice"]
            command["boosts"] = max(min(left, dice, cap), 0) if useful else 0
        if not self.send(command):
            return
        self.hits[target] = self.hits.get(target, 0) + 1
        while self.state["pending"] is not None and not self.over():
            p = self.state["pending"]
            step = p["step"]
            if step in ("to_hit", "damage", "gift_check"):
                ok = self.send({"type": "roll"})
            elif step == "boost":
                ok = self.send({"type": "boost", "dice": self._boosts(p, a_rec, cap)})
            elif step == "prevent":
                ok = self.send({"type": "prevent", **self._prevent(p)})
            else:
                ok = False
            if not ok:
                break

    def _boosts(self, p: dict, a_rec: dict, cap: int) -> list[int]:
        seen = [f + p["klotho_added"] for f in p["faces"]]
        lift = [i for i, v in enumerate(seen) if v <= p["wall"] < v + p["bonus"]]
        budget = a_rec["ki"] - (ki_cost(1, a_rec["exhausted"]) - 1)
        if cap <= 0 or budget <= 0:
            return []
        if p.get("armor"):
            return lift[:1]
        counts = room(self.state, p) - p["levels"]  # the levels the track still loses
        return lift[: max(min(budget, counts, cap), 0)]

    def _prevent(self, p: dict) -> dict:
        t = self.state["combatants"][p["target"]]
        how = self.policy["ki"][self.ids.index(t["id"])]
        v002 = bool(self.state["ruleset"].get("vitals_002"))
        extra = ki_cost(1, t["exhausted"]) - 1
        budget = max(t["ki"] - extra, 0)
        vital = p["vital"]
        hit = take_attack(t["now"][vital], p["levels"], t["max"][vital], vital, budget, how, v002)
        out = {"ki": int(hit.prevented)}
        if hit.sanity_loss:
            left = t["ki"] - ki_cost(hit.prevented, t["exhausted"]) - extra
            s = take_attack(
                t["now"]["sanity"], 1, t["max"]["sanity"], "sanity", max(left, 0), how, v002
            )
            out["sanity_ki"] = bool(s.prevented)
        return out

    def play(self, max_rounds: int, surprised: list[str]) -> tuple[str | None, int]:
        """Play to the table's "fight over" (its winner and round), or a draw."""
        self.send({"type": "start", "surprised": surprised})
        cs = self.state["combatants"]
        while not self.over() and self.state["round"] <= max_rounds:
            empowered: dict[str, str | None] = {}
            for a, cid in enumerate(self.ids):
                if self.state["phase"] == "declare" and can_act(cs[cid]):
                    bracket, bumps, emp = self.bracket(a)
                    command = {"type": "declare", "combatant": cid, "bracket": bracket}
                    if bumps:
                        command["bumps"] = bumps
                    if not self.send(command):
                        self.send({"type": "declare", "combatant": cid, "bracket": "normal"})
                        bracket, emp = "normal", None
                    empowered[cid] = emp
            self.hits = {}
            round_no = self.state["round"]
            while self.state["round"] == round_no and not self.over():
                up = self.state["up"]
                if up is None:
                    break
                a = self.ids.index(up)
                self.lead(a)
                c = cs[up]
                for _ in range(_ATTACKS.get(c.get("bracket") or "normal", 2)):
                    if self.over() or not able(c):
                        break
                    j = self.target(a)
                    if j is None:
                        break
                    self.attack(a, j, empowered.get(up))
                if not self.over() and not self.send({"type": "end_turn"}):
                    break
        if self.over():
            return self.state["over"]["winner"], int(self.ended or self.state["over"]["round"])
        return None, max_rounds


def _ruleset(encounter) -> dict:
    """The table's Ruleset record of ``encounter`` (as ``TableStore.create`` makes it)."""
    ruleset = encounter.ruleset
    switches = {k: v for k, v in ruleset.param.values().items() if isinstance(v, bool)}
    return {"name": ruleset.name, **switches}


def play_at_table(
    encounter,
    fights: int = 100,
    seed: int = 0,
    *,
    bracket_policy="normal",
    target_policy="weakest",
    ki_policy="stay_up",
    boost_policy="lift",
    attack_policy="best",
    max_rounds: int = 50,
    folder: str | Path | None = None,
    through: str = "table",
    cover="none",
) -> TablePlayed:
    """Play ``encounter`` ``fights`` times at a live table (see the module docstring).

    Parameters
    ----------
    encounter : Encounter
        The fight (a table is made from it for every fight: ``TableStore.create``). Records
        holding "Surprised" among their conditions are marked Surprised when it starts.
    fights : int
        How many fights, 1..100,000.
    seed : int
        The seed of the tables' dice: the same seed, the same fights.
    bracket_policy, target_policy, ki_policy, boost_policy, attack_policy
        As ``lab.simulate`` takes them (one value or a dict by side, id or name).
    max_rounds : int
        Rounds before an undecided fight is called a draw (as ``lab.simulate``), 1..1000.
    folder : str or Path, optional
        Where the tables' file goes; default a temporary folder, removed afterwards.
    cover : {"none", "partial"} or dict
        As ``lab.simulate`` takes it: each attack against a combatant in cover says so to
        the table (the attack's "cover").
    through : {"table", "fold"}
        "table": every command through ``Table.apply`` (stored, folded, the table's dice).
        "fold": the same decision and fold (``table.commands.decide``,
        ``table.state.apply_changes``) without the file and the sheets the export reads, with
        dice from ``seed``: for the thousands of fights of ``benchmarks/bench_table_played.py``.

    Returns
    -------
    TablePlayed
    """
    fights = require_int("fights", fights, 1, MAX_FIGHTS)
    seed = require_int("seed", seed, 0, None)
    max_rounds = require_int("max_rounds", max_rounds, 1, 1000)
    through = require_choice("through", through, ("table", "fold"))
    records, _, sides = plain_records(encounter, None)
    prep = prepare(encounter, None, attack_policy, cover)
    caps = []
    for b in resolve_policy("boost_policy", boost_policy, records, BOOST_POLICIES, "lift"):
        caps.append(1000 if b == "lift" else 0 if b == "none" else require_int("boost", b, 0, 100))
    policy = {
        "bracket": resolve_policy("bracket_policy", bracket_policy, records, BRACKET_POLICIES, ""),
        "target": resolve_policy("target_policy", target_policy, records, TARGET_POLICIES, ""),
        "ki": resolve_policy("ki_policy", ki_policy, records, None, "stay_up"),
        "boost_cap": caps,
        "cover": resolve_policy("cover", cover, records, COVER_SETTINGS, "none"),
    }
    surprised = [r["id"] for r in records if "Surprised" in r.get("conditions", [])]
    seeds = np.random.SeedSequence(seed).generate_state(fights, dtype=np.uint64)
    result = TablePlayed(fights=fights, sides=list(sides), wins=dict.fromkeys(sides, 0), draws=0)

    def tally(fight: _Fight) -> None:
        winner, rounds = fight.play(max_rounds, surprised)
        if winner is None:
            result.draws += 1
        else:
            result.wins[winner] += 1
        result.rounds.append(rounds)
        result.refused += fight.refused

    if through == "fold":
        # the sheets ("document") only serve the export; the table copies each record it
        # changes, so leaving them out makes the fold several times faster and changes nothing
        plain = [{k: v for k, v in r.items() if k != "document"} for r in records]
        data = {
            "name": "played", "combatants": plain, "sides": list(sides),
            "ruleset": _ruleset(encounter), "seed": 0, "join_code": "000000",
        }  # fmt: skip
        for k in range(fights):
            tally(_Fight(_Folded(copy.deepcopy(data), int(seeds[k] >> 1)), prep, policy))
        return result
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        store = TableStore(Path(tmp) / "played.sqlite")
        try:
            for k in range(fights):
                table = store.create(f"fight {k + 1}", encounter, seed=int(seeds[k] >> 1))
                tally(_Fight(table, prep, policy))
        finally:
            store.close()
    return result


__all__ = ["MAX_FIGHTS", "TablePlayed", "play_at_table"]
