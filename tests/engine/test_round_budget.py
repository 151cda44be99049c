"""Engine: the round's budget and the rolls of moving (rules/000, 001, 004; RULES.md)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tb_playground.engine import check_odds
from tb_playground.engine.round_budget import (
    ACTIONS,
    BRACKETS,
    TURN_CONDITIONS,
    bump_cost,
    check_next_action,
    distracted_fallback,
    distracted_odds,
    endurance_odds,
    footing_odds,
    footing_roll_needed,
    ground_cost,
    sprint_exhaustion_odds,
    validate_turn,
)

MR = 12  # Movement Rate 5 + Air 7


def ok(bracket, *plan, **kw):
    kw.setdefault("movement_rate", MR)
    return validate_turn(bracket, plan, **kw)


# -- rules/000 "Action Brackets", "Moving in a Round"; rules/001 "Moving in a Round" ----------


def test_fast_is_one_action():
    # rules/000 "Moving in a Round": "Fast: one action. Move your Movement Rate, or do
    # something else and don't move."
    assert ok("fast", "move", metres=12).ok
    assert ok("fast", "attack").ok
    r = ok("fast", "move", "attack")
    assert not r.ok and r.problems == ("A Fast round holds 1 action; this plan takes 2.",)
    assert not ok("fast", "move", metres=13).ok
    assert not ok("fast", "dash").ok


def test_normal_holds_a_move_and_an_action_or_a_dash_or_two_actions():
    # rules/000 "Moving in a Round": "Normal: a move and one other action. Or two moves - a
    # Dash, twice your Movement Rate. Or two other actions and no move at all."
    assert ok("normal", "move", "attack").ok
    assert ok("normal", "dash", metres=24).ok
    assert not ok("normal", "dash", metres=25).ok
    two = ok("normal", "move", "move", metres=24)
    assert two.ok and two.metres_allowed == 24 and two.actions_used == 2
    assert not ok("normal", "move", "move", "move").ok
    assert not ok("fast", "move", "move").ok
    # RULES.md "Where two texts disagree (decided)": a Normal round may hold two attacks.
    assert ok("normal", "attack", "attack").ok
    assert not ok("normal", "attack", "attack", "attack").ok
    assert not ok("normal", "dash", "attack").ok
    assert not ok("normal", "move", "dash").ok


def test_normal_split_move_stays_inside_the_movement_rate():
    # rules/001 "Moving in a Round": "move, attack and move again, as long as the total stays
    # within your Movement Rate. A Dash and a Sprint are all movement and don't split."
    r = ok("normal", "move", "attack", "move", metres=12)
    assert r.ok and r.metres_allowed == 12 and r.actions_used == 2
    assert not ok("normal", "move", "attack", "move", metres=13).ok


def test_slow_is_one_empowered_action_and_a_step_or_a_sprint():
    # rules/000 "Action Brackets": "Slow gets one empowered action ... and you can still take
    # a single step, one meter, before or after it."
    assert ok("slow", "step", "called shot", metres=1).ok
    assert ok("slow", "aim", "step", metres=1).ok
    assert not ok("slow", "aim", "step", metres=2).ok
    assert not ok("slow", "step", "aim", "step").ok
    # "You can't Aim and take a Called Shot in the same round."
    assert not ok("slow", "aim", "called shot").ok
    # "Slow: ... Or a Sprint: five times your Movement Rate, and nothing else."
    r = ok("slow", "sprint", metres=60)
    assert r.ok and r.metres_allowed == 60
    assert not ok("slow", "sprint", "step").ok
    assert not ok("slow", "sprint", "reckless").ok
    assert "Slow round moves only" in ok("slow", "move").problems[0]


def test_empowered_actions_need_a_slow_round():
    # rules/002 "How Do Called Shots Work?": "Called shots are legal only as a Slow Action
    # Bracket"; rules/001 "Empowered Actions".
    for bracket in ("fast", "normal"):
        for key in ("aim", "called shot", "study", "disarm"):
            assert "needs a Slow round" in ok(bracket, key).problems[0]


def test_bumps_move_the_band_and_keep_the_action():
    # rules/000: "1 Ki per step ... A bumped action keeps everything it was: a Called Shot
    # bumped to Fast is still a Called Shot." rules/001: a Sprint bumped 1 Ki runs in Normal.
    r = ok("slow", "called shot", bumps=2, ki=2)
    assert r.ok and r.band == "fast" and r.ki_cost == 2
    assert ok("slow", "sprint", bumps=1).band == "normal"
    assert not ok("normal", "attack", bumps=2).ok
    assert not ok("slow", "called shot", bumps=2, ki=1).ok
    # Exhausted 4: +1 per Ki spend (rules/004 "Conditions").
    assert ok("slow", "called shot", bumps=2, exhausted=4).ki_cost == 3
    assert bump_cost(1, 4) == 2


def test_exhausted_3_half_move_and_no_fast():
    # rules/004 "Conditions": "then half Move and no Fast"; rules/001 "Exhausted 3 halves it".
    r = ok("fast", "move", exhausted=3)
    assert not r.ok and r.problems[0] == "Exhausted 3: no Fast round."
    assert ok("normal", "move", exhausted=3).metres_allowed == 6
    assert ok("slow", "sprint", exhausted=3).metres_allowed == 30
    assert "no bumping into the Fast band" in ok("normal", "move", bumps=1, exhausted=3).problems[0]


def test_out_cold_takes_no_actions():
    # rules/004 "Conditions": Exhausted 5 "out cold"; Dying "Unconscious and out of the fight".
    assert ok("normal", exhausted=5).ok
    assert "out cold" in ok("normal", "attack", exhausted=5).problems[0]
    assert not ok("normal", "attack", conditions=["Dying"]).ok


def test_grabbed_prone_belly_down_squeezed():
    # rules/001 "Movement Rate": "Grabbed sets it to 0"; "escape first, then move".
    assert "Grabbed" in ok("normal", "move", conditions=["Grabbed"]).problems[0]
    assert ok("normal", "escape", "move", conditions=["Grabbed"]).ok
    assert not ok("normal", "move", "escape", conditions=["Grabbed"]).ok
    # rules/001 "Getting Low": Prone "can't attack ... Recovering from Prone takes one action".
    assert "Prone" in ok("normal", "attack", conditions=["Prone"]).problems[0]
    assert ok("normal", "recover from prone", "attack", conditions=["Prone"]).ok
    assert not ok("fast", "recover from prone", "attack", conditions=["Prone"]).ok
    # Belly Down is free; Crawl is moving Belly Down; Stand up takes one action.
    assert ok("normal", "move", "belly down", "attack").ok
    assert ok("normal", "crawl", "attack", conditions=["Belly Down"], metres=12).ok
    assert not ok("normal", "move", conditions=["Belly Down"]).ok
    assert ok("normal", "stand up", "move", conditions=["Belly Down"]).ok
    assert not ok("normal", "crawl").ok
    # rules/001 "Terrain and Footing": squeezed, "you can't attack".
    assert not ok("normal", "attack", conditions=["Squeezed"]).ok


def test_full_defense_and_reckless():
    # rules/001 "Combat Actions": Full Defense (Normal) "you can't attack ... Your other
    # action can still be a move"; Reckless has no action cost.
    assert ok("normal", "full defense", "move").ok
    assert not ok("normal", "attack", "full defense").ok
    assert not ok("fast", "full defense").ok
    r = ok("normal", "reckless", "attack", "attack")
    assert r.ok and r.actions_used == 2 and "Reckless" in r.notes[0]


def test_surprised_first_round_is_reported():
    # rules/002 "What Is Surprised?": Disadvantage "for the rest of the round they're caught in".
    r = ok("normal", "attack", first_round_surprised=True)
    assert r.ok and r.surprised and "Disadvantage" in r.notes[0]
    assert not ok("normal", "attack").surprised


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="bracket"):
        validate_turn("quick", [], movement_rate=10)
    with pytest.raises(ValueError, match="actions"):
        validate_turn("fast", ["teleport"], movement_rate=10)
    with pytest.raises(ValueError, match="conditions"):
        validate_turn("fast", [], movement_rate=10, conditions=["Sleepy"])
    with pytest.raises(ValueError, match="movement_rate"):
        validate_turn("fast", [], movement_rate=-1)


# -- an independent reading of the budget, enumerated -------------------------------------------

ORACLE_ACTIONS = (
    "move",
    "attack",
    "dash",
    "sprint",
    "step",
    "called shot",
    "aim",
    "skill",
    "reckless",
    "full defense",
)


def oracle(bracket, plan):
    """The budget as rules/000 "Moving in a Round" states it, written apart from the engine."""
    if bracket == "slow" and "sprint" in plan:
        return plan == ("sprint",)
    f = [a for a in plan if a != "reckless"]
    moves = f.count("move")
    core = [a for a in f if a != "move"]
    if bracket == "fast":
        if not core:
            return moves <= 1
        return moves == 0 and len(core) == 1 and set(core) <= {"attack", "skill"}
    if bracket == "normal":
        if "dash" in core:
            return core == ["dash"] and moves == 0
        if not core:
            return moves <= 2  # "Or two moves - a Dash"
        if "full defense" in core and "attack" in core:
            return False
        return len(core) + (moves > 0) <= 2 and set(core) <= {"attack", "skill", "full defense"}
    rest = [a for a in core if a != "step"]
    return (
        moves == 0
        and core.count("step") <= 1
        and len(rest) <= 1
        and set(rest) <= {"attack", "skill", "called shot", "aim"}
    )


@pytest.mark.parametrize("bracket", BRACKETS)
def test_validate_turn_accepts_exactly_the_plans_the_rules_allow(bracket):
    checked = 0
    for n in range(4):
        for plan in itertools.product(ORACLE_ACTIONS, repeat=n):
            got = validate_turn(bracket, plan, movement_rate=MR).ok
            assert got == oracle(bracket, plan), (bracket, plan)
            checked += 1
    assert checked == 1111


plans = st.lists(st.sampled_from(sorted(ACTIONS)), max_size=5)
turn_kw = st.fixed_dictionaries(
    {
        "movement_rate": st.integers(0, 20),
        "bumps": st.integers(0, 2),
        "exhausted": st.integers(0, 5),
        "conditions": st.lists(st.sampled_from(TURN_CONDITIONS), max_size=3),
        "first_round_surprised": st.booleans(),
        "metres": st.none() | st.integers(0, 60),
        "ki": st.none() | st.integers(0, 4),
    }
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(BRACKETS), plans, turn_kw)
def test_check_next_action_agrees_with_validate_turn(bracket, plan, kw):
    # metres is the movement spent so far, so it changes with the plan: leave it out here
    free = {**kw, "metres": None}
    full = validate_turn(bracket, plan, **free)
    steps = [check_next_action(bracket, plan[:i], plan[i], **free) for i in range(len(plan))]
    if validate_turn(bracket, [], **free).ok:
        assert full.ok == all(s is None for s in steps)
    if full.ok:
        # every beginning of an allowed plan is allowed
        for i in range(len(plan)):
            assert validate_turn(bracket, plan[:i], **free).ok
        assert full.actions_used <= {"fast": 1, "normal": 2, "slow": 1}[bracket]
        assert full.band == BRACKETS[BRACKETS.index(bracket) - kw["bumps"]]
    # the metres only ever add a problem
    with_metres = validate_turn(bracket, plan, **kw)
    assert set(full.problems) <= set(with_metres.problems)
    assert with_metres.ok == (
        full.ok
        and (
            kw["metres"] is None
            or kw["metres"] <= full.metres_allowed
            or not any(ACTIONS[a].moves for a in plan)
        )
    )


@given(st.sampled_from(BRACKETS), plans)
def test_accepted_plans_hold_at_most_their_actions(bracket, plan):
    r = validate_turn(bracket, plan, movement_rate=MR)
    counted = [a for a in plan if ACTIONS[a].cost and a not in ("move", "crawl")]
    if r.ok:
        assert len(counted) <= (2 if bracket == "normal" else 1)
        assert sum(ACTIONS[a].empowered for a in plan) <= (bracket == "slow")


# -- Bad ground, footing, Distracted ----------------------------------------------------------


def test_ground_costs():
    # rules/000 "Bad Ground": Rough 2 m a metre, Wild Land 3; "A success crosses Rough as if it
    # were clear, and Wild Land as if it were Rough - never better."
    assert [ground_cost(4, g) for g in ("clear", "rough", "wild")] == [4, 8, 12]
    assert [ground_cost(4, g, True) for g in ("clear", "rough", "wild")] == [4, 4, 8]
    assert ground_cost(4, "wild", False) == 12
    # rules/001 "Getting Low": Crawl 2 m per 1 m; Rough doesn't slow it; Wild Land costs 3.
    assert [ground_cost(3, g, crawling=True) for g in ("clear", "rough", "wild")] == [6, 6, 9]


def test_footing_and_push_through_are_athletics_at_6():
    # rules/001 "Terrain and Footing": "A Dash, Sprint or Bulldoze across it needs Athletics,
    # Difficulty 6".
    assert footing_roll_needed("dash") and not footing_roll_needed("move")
    for element, tier in itertools.product(range(11), range(5)):
        assert footing_odds(element, tier).p_success == check_odds(element, 6, tier).p_success


def brute_success(target, sign, crit=2):
    """P(success) by every face of 2d10 (or 3d10 keep two), independent of the engine."""
    n = 3 if sign else 2
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=n):
        kept = sorted(faces)
        kept = kept[:2] if sign > 0 else kept[-2:]
        total = sum(kept)
        hits += total <= crit or (total != 20 and total <= target)
    return Fraction(hits, 10**n)


@pytest.mark.parametrize(("atropos", "difficulty", "adv"), [(0, 0, 0), (3, 5, 0), (7, 6, -1)])
def test_distracted_odds_atropos_plus_difficulty(atropos, difficulty, adv):
    # rules/004 "Conditions": "Distracted: Atropos + Difficulty to hold a Slow action together".
    got = distracted_odds(atropos, difficulty, adv).exact("success")
    assert got == brute_success(atropos + difficulty, adv)
    # rules/001: "Distracted drops the action to a Normal one, and it loses what its
    # empowerment gave".
    assert distracted_fallback("called shot") == "attack"
    assert distracted_fallback("study") is None
    assert distracted_fallback("attack") == "attack"


# -- Sprint exhaustion (rules/000 "Chases", rules/001 "Chases") ---------------------------------


@cache
def brute_endurance(element, start, free, periods, level0):
    """Walk every success/failure branch; each roll's odds by brute force over the faces."""
    rolls = max(0, periods - free)

    def walk(k, level):
        if k == rolls or level == 5:  # out cold: the run is over
            return {level: Fraction(1)}
        q = brute_success(element + max(0, start - k), -1 if level >= 1 else 0)
        out = {}
        for p, nxt in ((q, level), (1 - q, level + 1)):
            for end, r in walk(k + 1, nxt).items():
                out[end] = out.get(end, Fraction(0)) + p * r
        return out

    return walk(0, level0)


def test_sprint_stamina_rounds_are_free():
    # rules/001 "Chases": "Stamina Rounds free, then Water + Difficulty each Round".
    for stamina in range(6):
        r = sprint_exhaustion_odds(stamina, 3, stamina)
        assert r.levels[0] == 1 and r.difficulties == ()
    r = sprint_exhaustion_odds(3, 3, 6)
    assert r.difficulties == (6, 5, 4)  # "starting at 6 and dropping by 1"


@pytest.mark.parametrize(
    ("water", "stamina", "rounds", "level0"),
    [(4, 2, 5, 0), (0, 0, 3, 0), (9, 1, 4, 2), (5, 0, 7, 3)],
)
def test_sprint_exhaustion_against_brute_force(water, stamina, rounds, level0):
    got = sprint_exhaustion_odds(stamina, water, rounds, exhausted=level0)
    want = brute_endurance(water, 6, stamina, rounds, level0)
    assert got.levels == tuple(want.get(level, Fraction(0)) for level in range(6))


def test_endurance_swimming_and_forced_march_start():
    # rules/000 "Swimming": "starting at 8 in calm water and 6 in rough"; "Travel": forced
    # march "starting at 7 and one step harder each Hour".
    assert endurance_odds(4, 8, 2, 5).difficulties == (8, 7, 6)
    assert endurance_odds(4, 7, 0, 9).difficulties == (7, 6, 5, 4, 3, 2, 1, 0, 0)
    r = endurance_odds(2, 6, 0, 40)
    assert r.p_out > 0.99 and r.by_period[-1][5] == pytest.approx(r.p_out, abs=1e-15)


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 12), st.integers(0, 5))
def test_endurance_levels_never_drop_and_sum_to_one(water, stamina, rounds, level0):
    r = sprint_exhaustion_odds(stamina, water, rounds, exhausted=level0)
    assert sum(r.levels) == 1
    assert all(p == 0 for p in r.levels[:level0])
    assert len(r.by_period) == rounds
    outs = [row[5] for row in r.by_period]
    assert outs == sorted(outs)
