"""The best play for one attacker against one target this round, exact, and its worth in a fight.

``compare_tactics`` scores the options ("normal", "slow_aim", "called_shot", "bump", "keep_ki")
from the engine's distributions; ``tactic_win_change`` plays the encounter once per option with
one seed. Rule: RULES.md, Combat round; rules/000 "Action Brackets". Notes: docs/notes/0010-lab.md,
"Tactics (exact)".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from tb_playground.engine import (
    VITALS,
    damage_with_ki,
    hit_room,
    roll_modifiers,
    take_attack,
    to_hit_odds,
)
from tb_playground.engine.conditions import CONDITIONS, split_states
from tb_playground.engine.validation import require_choice, require_int

from .fight_result import Z95, wilson_interval
from .prepare import plain_records, prepare
from .simulate import simulate

#: The options ``compare_tactics`` weighs.
TACTICS = ("normal", "slow_aim", "called_shot", "bump", "keep_ki")

#: Each option in plain words.
TACTIC_LABELS = {
    "normal": "Normal: two attacks, boosting while Ki lasts",
    "slow_aim": "Slow with Aim: one attack with Advantage",
    "called_shot": "Slow, Called Shot: one attack at the head",
    "bump": "Normal bumped to Fast (1 Ki): two attacks before the target acts",
    "keep_ki": "Normal, keeping the Ki: two attacks, no boosts",
}

#: (attacks, empowered, bump Ki, boosts allowed) of each option.
_SHAPE = {
    "normal": (2, "none", 0, True),
    "slow_aim": (1, "aim", 0, True),
    "called_shot": (1, "called shot", 0, True),
    "bump": (2, "none", 1, True),
    "keep_ki": (2, "none", 0, False),
}

#: What each option asks of ``simulate``'s policies.
_POLICY = {
    "normal": ("normal", "lift"),
    "slow_aim": ("aim", "lift"),
    "called_shot": ("called_shot", "lift"),
    "bump": ("bump", "lift"),
    "keep_ki": ("normal", "none"),
}


@dataclass(frozen=True)
class AttackOption:
    """One option's exact numbers for this round.

    Attributes
    ----------
    name, label : str
        The option's key (``TACTICS``) and its plain words.
    attacks : int
        Attacks it makes.
    advantage : int
        Net Advantage sources of each attack (``roll_modifiers``).
    p_hit, p_critical : float
        Each attack's to-hit bands.
    expected_levels : float
        Levels the target is expected to lose this round (after the track rules and its Ki).
    p_down : float
        P(the target can no longer act after this round's attacks).
    expected_ki_spent : float
        The attacker's expected Ki spent (bump and boosts).
    allowed : bool
        False when the conditions forbid the attack (then every number is 0).
    """

    name: str
    label: str
    attacks: int
    advantage: int
    p_hit: float
    p_critical: float
    expected_levels: float
    p_down: float
    expected_ki_spent: float
    allowed: bool = True


@dataclass(frozen=True)
class TacticsReport:
    """``compare_tactics``'s answer: every option, and the best by P(down) then levels."""

    attacker: str
    target: str
    attack: str
    vital: str
    options: dict[str, AttackOption]

    @property
    def best(self) -> str:
        """The option with the highest P(target down), then the most expected levels."""
        return max(
            self.options.values(), key=lambda o: (round(o.p_down, 12), o.expected_levels)
        ).name

    def table(self) -> list[dict]:
        """One plain row per option, for a page or a CSV."""
        return [
            {
                "option": o.label,
                "attacks": o.attacks,
                "P(hit)": round(o.p_hit, 4),
                "expected levels": round(o.expected_levels, 4),
                "P(target down this round)": round(o.p_down, 4),
                "expected Ki spent": round(o.expected_ki_spent, 4),
            }
            for o in self.options.values()
        ]


def _find(records: list[dict], who) -> int:
    for i, r in enumerate(records):
        if who in (r["id"], r["name"]):
            return i
    raise ValueError(f"combatant must be the id or name of one in the fight, got {who!r}")


def _states(record: dict) -> tuple[tuple[str, ...], int]:
    conds, exhausted = split_states([c for c in record.get("conditions", []) if c in CONDITIONS])
    return conds, max(exhausted, int(record.get("exhausted", 0)))


def _can_act(health: int, sanity: int, out: bool) -> bool:
    return health > 0 and sanity >= 0 and not out


def compare_tactics(
    encounter,
    attacker,
    target,
    *,
    attack: int | None = None,
    attacker_ki: int | None = None,
    ki_policy: str = "stay_up",
    studied: bool = False,
    ruleset: dict | None = None,
) -> TacticsReport:
    """Exact numbers of each option (``TACTICS``) for one attacker against one target.

    Parameters
    ----------
    encounter : Encounter or list of dict
        Where the two stand (their numbers and tracks now).
    attacker, target : str
        Combatant ids or names.
    attack : int, optional
        Which of the attacker's attacks; default the one ``prepare`` picks ("best").
    attacker_ki : int, optional
        The attacker's Ki for boosts and the bump; default its Ki now.
    ki_policy : str
        How the target spends Ki on prevention (``engine.KI_POLICIES``).
    studied : bool
        The attacker Studied the target last round (a Called Shot gains Advantage).
    ruleset : dict, optional
        Ruleset switches (``prepare.RULESET_SWITCHES``).

    Returns
    -------
    TacticsReport
    """
    records, switches, _ = plain_records(encounter, ruleset)
    a_i, t_i = _find(records, attacker), _find(records, target)
    a, t = records[a_i], records[t_i]
    if a["side"] == t["side"]:
        raise ValueError("target must be on another side than the attacker")
    prep = prepare(records, ruleset, "best" if attack is None else {a["id"]: attack})
    n = len(records)
    p = a_i * n + t_i
    if not prep.has_attack[p]:
        raise ValueError(f"attacker: {a['name']} has no attack")
    spec = a["attacks"][int(prep.attack_index[p])]
    kind = spec["kind"]
    vital = VITALS[int(prep.vital[p])]
    ki_now = (
        int(a["ki"]) if attacker_ki is None else require_int("attacker_ki", attacker_ki, 0, 200)
    )
    ki_policy = require_choice("ki_policy", ki_policy, ("none", "all", "stay_up", "stay_alive"))
    conds_a, ex_a = _states(a)
    conds_t, ex_t = _states(t)
    tn = int(prep.tn[p])
    defense = max(0, min(int(t["defense"][kind]), 10))
    dice = int(prep.dice[p])
    wall = max(0, min(int(t["wall"][kind]), 10))
    bonus = max(0, min(int(a["boost"][kind]), 10))
    klotho = max(0, min(int(a["klotho"]), 10))
    v002 = bool(switches["vitals_002"])
    timing = "before" if switches["boosts_before_roll"] else "after"
    useful = bool(prep.boost_useful[p])  # a boost lifts some face (after the roll: no matter)
    options = {}
    for name in TACTICS:
        attacks, empowered, bump, boosting = _SHAPE[name]
        mods = roll_modifiers(
            "attack",
            attack_kind=kind,
            reach="melee" if int(spec.get("reach", 1)) <= 1 else "ranged",
            conditions=conds_a,
            exhausted=ex_a,
            target_conditions=conds_t,
            target_exhausted=ex_t,
            aim=empowered == "aim",
            called_shot=empowered == "called shot",
            studied=studied and empowered == "called shot",
            slow_called_shot_advantage=switches["slow_called_shot_advantage"],
        )
        if bump > ki_now or not mods.allowed:
            options[name] = AttackOption(
                name, TACTIC_LABELS[name], attacks, mods.advantage, 0.0, 0.0, 0.0, 0.0, 0.0,
                allowed=False,
            )  # fmt: skip
            continue
        if spec["automatic"]:
            p_hit, p_crit = 1.0, 0.0
        else:
            hit = to_hit_odds(tn - defense, defense, mods.advantage)
            p_hit, p_crit = hit.p_hit, hit.p_critical
        # state: (track, Sanity, target Ki, attacker Ki) -> probability
        start = (int(t["now"][vital]), int(t["now"]["sanity"]), int(t["ki"]), ki_now - bump)
        states = {start: 1.0}
        tables: dict = {}
        expected = 0.0
        for _ in range(attacks):
            nxt: dict = defaultdict(float)
            for (track, sanity, tki, aki), prob in states.items():
                budget = min(aki, dice) if boosting and useful else 0
                # After the roll, boosts only while the track still loses the level: the
                # table offers no other (``engine.hit_room``; ``table/boost_offer.py``).
                room = int(hit_room(track, int(t["max"][vital]), vital, v002))
                for critical, weight in ((False, p_hit - p_crit), (True, p_crit)):
                    if weight <= 0:
                        continue
                    key = (budget, critical)
                    if key not in tables:
                        tables[key] = damage_with_ki(
                            dice, wall, budget, bonus, timing, critical, klotho
                        )
                    joint = tables[key]
                    for levels, spent in zip(*np.nonzero(joint), strict=True):
                        q = prob * weight * joint[levels, spent]
                        if timing == "after":
                            spent = spent - min(spent, max(int(levels) - room, 0))
                        after = take_attack(
                            track, int(levels), int(t["max"][vital]), vital, tki, ki_policy, v002
                        )
                        s_after, tki_after = sanity, tki - after.prevented
                        expected += q * after.taken
                        if after.sanity_loss:
                            lost = take_attack(
                                sanity, 1, int(t["max"]["sanity"]), "sanity", tki_after,
                                ki_policy, v002,
                            )  # fmt: skip
                            s_after, tki_after = lost.current, tki_after - lost.prevented
                            expected += q * lost.taken
                        nxt[(after.current, s_after, tki_after, aki - int(spent))] += q
                nxt[(track, sanity, tki, aki)] += prob * (1.0 - p_hit)
            states = nxt
        spent = down = 0.0
        h_now = int(t["now"]["health"])
        named = bool(t["named"])
        for (track, sanity, _tki, aki), prob in states.items():
            spent += prob * (ki_now - aki)
            health = track if vital == "health" else h_now
            sane = track if vital == "sanity" else sanity
            gone = vital == "health" and not named and health <= 0
            down += prob * (not _can_act(health, sane, gone))
        options[name] = AttackOption(
            name, TACTIC_LABELS[name], attacks, mods.advantage, p_hit, p_crit, expected, down,
            spent,
        )  # fmt: skip
    return TacticsReport(a["id"], t["id"], spec["name"], vital, options)


@dataclass(frozen=True)
class WinChange:
    """One option's P(win) over the whole fight (``tactic_win_change``).

    Attributes
    ----------
    p_win : float
        P(the combatant's side wins) when it plays this option every round.
    p_win_interval : tuple of float
        Wilson 95%.
    change : float
        ``p_win`` minus the "normal" option's, from the same seed's fights.
    change_interval : tuple of float
        95% interval of the change, from the paired fights.
    """

    p_win: float
    p_win_interval: tuple[float, float]
    change: float
    change_interval: tuple[float, float]


def tactic_win_change(
    encounter,
    combatant,
    options=TACTICS,
    *,
    fights: int = 20_000,
    seed: int = 0,
    **policies,
) -> dict[str, WinChange]:
    """P(win) of the combatant's side for each option played every round, and its change.

    Parameters
    ----------
    encounter : Encounter or list of dict
        The fight.
    combatant : str
        Id or name of the one whose play changes; everyone else keeps ``policies``.
    options : sequence of str
        From ``TACTICS``; "normal" is always played too (the baseline).
    fights, seed : int
        As for ``simulate``; every option is played with the same seed.
    **policies
        Passed to ``simulate`` (target_policy, ki_policy, end, max_rounds...).

    Returns
    -------
    dict
        Option -> ``WinChange``.
    """
    records, _, _ = plain_records(encounter, policies.get("ruleset"))
    cid = records[_find(records, combatant)]["id"]
    side = records[_find(records, combatant)]["side"]
    wanted = list(dict.fromkeys(["normal", *options]))
    for name in wanted:
        require_choice("options", name, TACTICS)
    brackets = policies.pop("bracket_policy", "normal")
    boosts = policies.pop("boost_policy", "lift")
    won = {}
    for name in wanted:
        bracket, boost = _POLICY[name]
        b = dict(brackets) if isinstance(brackets, dict) else {"default": brackets}
        o = dict(boosts) if isinstance(boosts, dict) else {"default": boosts}
        b[cid], o[cid] = bracket, boost
        result = simulate(encounter, fights, seed, bracket_policy=b, boost_policy=o, **policies)
        won[name] = (result.winner == result.sides.index(side)).astype(float)
    out = {}
    for name in wanted:
        w = won[name]
        diff = w - won["normal"]
        half = Z95 * diff.std(ddof=1) / np.sqrt(fights) if fights > 1 else 0.0
        out[name] = WinChange(
            float(w.mean()),
            wilson_interval(w.sum(), fights),
            float(diff.mean()),
            (float(diff.mean() - half), float(diff.mean() + half)),
        )
    return out
