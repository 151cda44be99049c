"""Whole fights, simulated many at once: the runner (RULES.md "Combat round", "Attacks", "Vitals").

``simulate(encounter, fights, seed, **policies)`` plays the encounter ``fights`` times: it
checks the arguments, builds the encounter's tables (``prepare``), resolves each combatant's
policies (``fight_options``) and plays the fights in chunks of ``CHUNK``, each a batch of
``vector_rules.Fights`` with its own generator spawned from the seed, in this process or in
worker processes (the same result either way). The loops are over rounds and over the acting
slots of a round, never over fights; the round itself, as the table plays it (Initiative once
per fight, the Brackets declared and resolved band by band, each attack, armor and the track;
rules/000 "Combat Order", "Action Brackets", "Harm and Recovery"), is ``vector_rules``'s.

A fight ends when at most one side has anyone left standing (``end="down"``: able to act;
``end="dead"``: not dead and not gone), or after ``max_rounds`` rounds: a **draw**, counted in
no side's ``p_win`` (so ``p_win`` sums to at most 1; ``p_draw`` is the rest). The result is an
``EncounterResult`` (``fight_result``).

A fight under way (``opening``, from ``lab.from_table``) starts from a live table's state
instead: the Initiative order as rolled, Off Balance, Flustered and who is out as they stand,
and for its first round what is already declared, the order once revealed and the turns left.

Readings where the texts are silent are in docs/notes/0010-lab.md.
"""

from __future__ import annotations

import numpy as np

from tb_playground.engine import KI_POLICIES
from tb_playground.engine.validation import require_bool, require_choice, require_int

from .fight_options import BOOST_POLICIES, BRACKET_POLICIES, ENDS, TARGET_POLICIES, FightOptions
from .fight_result import EncounterResult
from .prepare import Prepared, plain_records, prepare, resolve_policy
from .vector_rules import Fights

#: Most fights one ``simulate`` call accepts, and the most held in memory at once.
MAX_FIGHTS = 10_000_000
CHUNK = 50_000

#: Longest fight, in rounds.
MAX_ROUNDS = 1000


def _run_chunk(prep: Prepared, rows: int, seed, opts: FightOptions, tick=None) -> tuple[dict, int]:
    """Play ``rows`` fights with their own generator; return their arrays and attack count.

    ``tick(decided)``, if given, is called after every acting slot with the fights decided so far.
    """
    n = len(prep.names)
    out = {
        "winner": np.full(rows, -1, dtype=np.int64),
        "rounds_taken": np.zeros(rows, dtype=np.int64),
        "timed_out": np.zeros(rows, dtype=bool),
        "final": np.zeros((rows, n, 3), dtype=np.int64),
        "damage": np.zeros((rows, n), dtype=np.int64),
        "out_round": np.zeros((rows, n), dtype=np.int64),
        "dead_round": np.zeros((rows, n), dtype=np.int64),
    }
    f = Fights(prep, rows, np.random.default_rng(seed), opts)
    winner = np.full(rows, -1, dtype=np.int64)
    rounds = np.zeros(rows, dtype=np.int64)
    n = f.n
    f.check_over(np.arange(rows), 0, winner, rounds)

    def flush(done: np.ndarray) -> None:
        ids = f.fid[done]
        out["final"][ids] = np.stack([t[:, done].T for t in f.tracks], axis=-1)
        out["damage"][ids] = f.dealt[:, done].T
        out["out_round"][ids] = f.out_round[:, done].T
        out["dead_round"][ids] = f.dead_round[:, done].T

    opening = opts.opening
    first = None if opening is None else opening.get("first")
    for round_no in range(1, opts.max_rounds + 1):
        done = ~f.live
        if done.any():
            flush(done)
            f.keep(np.flatnonzero(f.live))
            if tick is not None:
                tick(rows - f.fid.size)
        if f.fid.size == 0:
            break
        if opts.spread:
            f.hit_count[:] = 0
        now = first if round_no == 1 else None
        order, attacks, emp = f.declare(round_no, now)
        # per combatant: its attacks and empowered choice as one contiguous row, or one number
        # when its policy gives every fight the same (no per-fight gather then)
        attacks, emp = attacks.T.copy(), emp.T.copy()
        same = [
            (int(attacks[i, 0]), int(emp[i, 0]))
            if attacks.shape[1]
            and (attacks[i] == attacks[i, 0]).all()
            and (emp[i] == emp[i, 0]).all()
            else None
            for i in range(n)
        ]
        for s in range(n):
            a = order[:, s].astype(np.int16)  # a stable sort of small ints is a radix sort
            by_actor = np.argsort(a, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(a, minlength=n))])
            for i in range(n):
                if now is not None and not now["turn"][i]:
                    continue  # acted already this round, or no turn in it
                group = by_actor[bounds[i] : bounds[i + 1]]
                act = group
                for k in range(2):
                    keep = f.live[act] & f.acts(act, i)
                    if same[i] is None:
                        keep &= attacks[i][act] > k
                    elif same[i][0] <= k:
                        break
                    act = act[keep]
                    if act.size == 0:
                        break
                    f.attack(act, i, emp[i][act] if same[i] is None else same[i][1], round_no,
                             winner, rounds)  # fmt: skip
                f.end_turn(group, i, round_no)
            if tick is not None:  # a stop asked for mid-round is heard within one slot
                tick(rows - int(f.live.sum()))
        f.end_round(round_no, winner, rounds)
    timed = f.live.copy()
    flush(np.ones(f.fid.size, dtype=bool))
    out["timed_out"][f.fid[timed]] = True
    rounds[f.fid[timed]] = opts.max_rounds
    out["winner"][:] = winner
    out["rounds_taken"][:] = rounds
    return out, f.attacks


def _run_job(job):
    return _run_chunk(*job)


def simulate(
    encounter,
    fights: int = 10_000,
    seed: int | None = None,
    *,
    bracket_policy="normal",
    target_policy="weakest",
    ki_policy="stay_up",
    boost_policy="lift",
    attack_policy="best",
    end: str = "down",
    max_rounds: int = 50,
    off_balance: bool = True,
    ruleset: dict | None = None,
    workers: int = 1,
    progress=None,
    opening: dict | None = None,
    cover="none",
) -> EncounterResult:
    """Simulate ``encounter`` ``fights`` times (the round: ``lab.vector_rules``).

    Parameters
    ----------
    encounter : Encounter, list of dict or dict
        An Encounter (its sides, combatants and Ruleset), the live table's plain combatant
        records (``models.combatants.encounter_records``), a live table's state (its combatants as
        they are now and its Ruleset), or ``prepare.plain_encounter``'s form.
    fights : int
        How many fights, 1..10,000,000.
    seed : int, optional
        The random seed: the same seed (and arguments) gives the same result.
    bracket_policy, target_policy, ki_policy, boost_policy, attack_policy
        One value for everyone, or a dict keyed by side name, combatant id or name (the most
        specific wins; "default" for the rest). ``BRACKET_POLICIES``, ``TARGET_POLICIES``,
        ``engine.KI_POLICIES`` (how a defender spends Ki on prevention), ``BOOST_POLICIES`` or
        a whole number (most boosts per attack), and "best", "first" or an attack's index.
    end : {"down", "dead"}
        When a side is beaten (``ENDS``).
    max_rounds : int
        Rounds before an undecided fight is called a draw, 1..1000.
    off_balance : bool
        Play Off Balance after a catastrophe (the rule; off only to compare with a reckoning
        that leaves it out).
    ruleset : dict, optional
        Ruleset switches to override (``prepare.RULESET_SWITCHES``).
    workers : int
        Processes to share the fights, 1..64. The fights are played in chunks of ``CHUNK``,
        each with its own generator spawned from ``seed``, so the result is the same for any
        number of workers.
    progress : callable, optional
        ``progress(decided, fights)``, called as the fights are decided (after every round of
        every chunk in one process; after every chunk with ``workers`` > 1). An exception it
        raises stops the simulation and is raised from ``simulate``: that is how a page
        cancels a run. It never changes the result.
    opening : dict, optional
        A fight under way, as ``lab.from_table.opening`` gives it: the Initiative order,
        Off Balance, Flustered, who is out, the Fate Tokens, and the round in play (what is
        declared, the order once revealed, who has a turn left and how many attacks). Round
        1 of the result is then the table's round in play. None: a fight about to start.
    cover : {"none", "partial"} or dict
        The cover a side (or a combatant, by id or name) stands behind all fight:
        "partial" puts every attack against it at Disadvantage (``prepare.COVER_SETTINGS``;
        rules/001 "Cover").

    Returns
    -------
    EncounterResult
    """
    fights = require_int("fights", fights, 1, MAX_FIGHTS)
    if seed is not None:
        seed = require_int("seed", seed, 0, None)
    max_rounds = require_int("max_rounds", max_rounds, 1, MAX_ROUNDS)
    end = require_choice("end", end, ENDS)
    off_balance = require_bool("off_balance", off_balance)
    workers = require_int("workers", workers, 1, 64)
    prep = prepare(encounter, ruleset, attack_policy, cover)
    records, _, _ = plain_records(encounter, ruleset)
    brackets = resolve_policy("bracket_policy", bracket_policy, records, BRACKET_POLICIES, "normal")
    targets = resolve_policy("target_policy", target_policy, records, TARGET_POLICIES, "weakest")
    kis = resolve_policy("ki_policy", ki_policy, records, KI_POLICIES, "stay_up")
    boosts = resolve_policy("boost_policy", boost_policy, records, BOOST_POLICIES, "lift")
    for b in brackets + kis + targets:
        if not isinstance(b, str):
            raise ValueError(f"bracket, target and Ki policies are names, got {b!r}")
    cap = []
    for b in boosts:
        if b == "lift":
            cap.append(1000)
        elif b == "none":
            cap.append(0)
        else:
            cap.append(require_int("boost_policy", b, 0, 100))
    opts = FightOptions(
        bracket=brackets,
        target_code=np.array([TARGET_POLICIES.index(t) for t in targets]),
        spread="spread" in targets,
        ki_policy=kis,
        boost_cap=np.array(cap, dtype=np.int64),
        end=end,
        max_rounds=max_rounds,
        off_balance=off_balance,
        opening=opening,
    )
    chunks = [min(CHUNK, fights - start) for start in range(0, fights, CHUNK)]
    seeds = np.random.SeedSequence(seed).spawn(len(chunks))
    jobs = [(prep, rows, sq, opts) for rows, sq in zip(chunks, seeds, strict=True)]
    if workers > 1 and len(jobs) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=context) as pool:
            parts = []
            for part in pool.map(_run_job, jobs):
                parts.append(part)
                if progress is not None:
                    progress(sum(len(x[0]["winner"]) for x in parts), fights)
    else:
        parts = []
        for prep_, rows, sq, opts_ in jobs:
            before = sum(len(x[0]["winner"]) for x in parts)
            tick = None if progress is None else (lambda d, b=before: progress(b + d, fights))
            parts.append(_run_chunk(prep_, rows, sq, opts_, tick))
    out = {k: np.concatenate([part[0][k] for part in parts]) for k in parts[0][0]}
    attacks = sum(part[1] for part in parts)
    n = len(prep.names)
    ids = prep.ids
    return EncounterResult(
        fights=fights,
        seed=seed,
        max_rounds=max_rounds,
        end=end,
        sides=list(prep.sides),
        names=list(prep.names),
        ids=list(ids),
        is_character=prep.is_character,
        policies={
            "bracket_policy": dict(zip(ids, brackets, strict=True)),
            "target_policy": dict(zip(ids, targets, strict=True)),
            "ki_policy": dict(zip(ids, kis, strict=True)),
            "boost_policy": dict(zip(ids, boosts, strict=True)),
            "attack": {  # attacker id -> target id -> index of the attack it uses
                ids[i]: {
                    ids[j]: int(prep.attack_index[i * n + j])
                    for j in range(n)
                    if prep.attack_index[i * n + j] >= 0
                }
                for i in range(n)
            },
        },
        attacks=attacks,
        dead_at=prep.dead_at,
        combatant_sides=[prep.sides[int(i)] for i in prep.side],
        **out,
    )
