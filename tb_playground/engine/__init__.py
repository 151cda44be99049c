"""Pure maths of 20 Below: exact distributions with numpy, no Panel or param.

Every number a view shows comes from here. See ``RULES.md`` for the rules each module holds.
"""

from .core_roll import (
    OUTCOMES,
    TIER_NAMES,
    Odds,
    TierRules,
    check_odds,
    check_target,
    difficulty_step,
    one_more_point,
    roll_odds,
    success_curve,
    success_table,
    tier_rules,
)
from .dice import KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, TOTALS, advantage_sign
from .difficulty import DIFFICULTY_LADDER, DIFFICULTY_NAMES, PUBLISHED_TARGETS
from .gift_check import gift_check_odds, gift_check_target
from .group import TAKING_YOUR_TIME_SOURCES, group_odds, help_sources
from .opposed import contest, opposed_odds, versus_static
from .resource_check import ResourceOdds, resource_check_odds, resource_check_target

__all__ = [
    "DIFFICULTY_LADDER",
    "DIFFICULTY_NAMES",
    "KEPT_TOTAL_COUNTS",
    "KEPT_TOTAL_DENOMINATOR",
    "OUTCOMES",
    "PUBLISHED_TARGETS",
    "TAKING_YOUR_TIME_SOURCES",
    "TIER_NAMES",
    "TOTALS",
    "Odds",
    "ResourceOdds",
    "TierRules",
    "advantage_sign",
    "check_odds",
    "check_target",
    "contest",
    "difficulty_step",
    "one_more_point",
    "gift_check_odds",
    "gift_check_target",
    "group_odds",
    "help_sources",
    "opposed_odds",
    "resource_check_odds",
    "resource_check_target",
    "roll_odds",
    "success_curve",
    "success_table",
    "tier_rules",
    "versus_static",
]

# Attacks and Vitals (RULES.md, Attacks; Vitals): damage dice, armor, tracks, fights, Ki worth.
from .armor import (  # noqa: E402
    MAX_ARMOR_LEVELS,
    ZONES,
    Armor,
    armor_break_probability,
    armor_covers,
    armor_distribution,
    attack_zone,
)
from .attack_dice import (  # noqa: E402
    DICE_SOURCES,
    SOCIAL_DICE_BY_TIER,
    SOURCES_BY_KIND,
    attack_dice,
    social_dice,
)
from .damage import (  # noqa: E402
    MAX_BONUS,
    MAX_DICE,
    MAX_WALL,
    ROLL_LIMITS,
    TIMINGS,
    DamageRoll,
    damage_distribution,
    damage_sweep,
    damage_with_ki,
    roll_levels,
)
from .defense import (  # noqa: E402
    ATTACK_KIND_RULES,
    ATTACK_KINDS,
    ELEMENTS,
    AttackKind,
    ToHit,
    attack_elements,
    attack_kind,
    attack_to_hit,
    defense,
    to_hit_odds,
    to_hit_target,
)
from .ki_value import KiValue, ki_value, ki_value_table  # noqa: E402
from .rounds import (  # noqa: E402
    ATTACKS_PER_ROUND,
    BRACKETS,
    BUMP_STEPS,
    AttackProfile,
    FightOdds,
    down_by_round,
    fight_odds,
)
from .vitals import (  # noqa: E402
    KI_POLICIES,
    MAX_TRACK,
    STATE_NAMES,
    VITALS,
    AttackOnVital,
    VitalStep,
    critical_room,
    hit_room,
    ki_recovery,
    take_attack,
    track_range,
    vital_state,
    vital_step,
)

__all__ += [
    "ATTACK_KINDS",
    "ATTACK_KIND_RULES",
    "DICE_SOURCES",
    "ELEMENTS",
    "KI_POLICIES",
    "MAX_ARMOR_LEVELS",
    "MAX_BONUS",
    "MAX_DICE",
    "MAX_TRACK",
    "MAX_WALL",
    "ROLL_LIMITS",
    "SOCIAL_DICE_BY_TIER",
    "SOURCES_BY_KIND",
    "STATE_NAMES",
    "TIMINGS",
    "VITALS",
    "ZONES",
    "Armor",
    "AttackKind",
    "AttackOnVital",
    "ATTACKS_PER_ROUND",
    "BRACKETS",
    "BUMP_STEPS",
    "AttackProfile",
    "DamageRoll",
    "FightOdds",
    "KiValue",
    "ToHit",
    "VitalStep",
    "armor_break_probability",
    "armor_covers",
    "armor_distribution",
    "attack_dice",
    "attack_elements",
    "attack_kind",
    "attack_to_hit",
    "attack_zone",
    "damage_distribution",
    "damage_sweep",
    "damage_with_ki",
    "defense",
    "down_by_round",
    "fight_odds",
    "critical_room",
    "hit_room",
    "ki_recovery",
    "ki_value",
    "ki_value_table",
    "roll_levels",
    "social_dice",
    "take_attack",
    "to_hit_odds",
    "to_hit_target",
    "track_range",
    "vital_state",
    "vital_step",
]

from .damage import critical_split, p_die_over  # noqa: E402
from .damage_summary import GRID_STATISTICS, damage_grid, expected_levels, p_any_level  # noqa: E402

__all__ += [
    "GRID_STATISTICS",
    "critical_split",
    "damage_grid",
    "expected_levels",
    "p_any_level",
    "p_die_over",
]

# Character sheet maths and the rules/003 roll-over draft (issue: character sheet).
from .character_stats import (  # noqa: E402
    SET_CONDITIONS,
    SUB_STAT_NAMES,
    Movement,
    Travel,
    fate_spends_per_scene,
    fate_token_cap,
    ki_pool,
    movement,
    movement_rate,
    party_travel,
    skill_odds_table,
    travel,
    vital_maximum,
)
from .roll_over import (  # noqa: E402
    STANDARD_DCS,
    RollOverAttack,
    RollOverOdds,
    draft_defense,
    roll_over_attack,
    roll_over_odds,
    roll_over_table,
)

__all__ += [
    "SET_CONDITIONS",
    "STANDARD_DCS",
    "SUB_STAT_NAMES",
    "Movement",
    "RollOverAttack",
    "RollOverOdds",
    "Travel",
    "draft_defense",
    "fate_spends_per_scene",
    "fate_token_cap",
    "ki_pool",
    "movement",
    "movement_rate",
    "party_travel",
    "roll_over_attack",
    "roll_over_odds",
    "roll_over_table",
    "skill_odds_table",
    "travel",
    "vital_maximum",
]

from .circumstances import attack_advantage  # noqa: E402

__all__ += ["attack_advantage"]

# Rests, Fate, the round's budget and chases (issue 7, part 3).
from .chase import (  # noqa: E402
    CHASE_DIFFICULTY,
    CHASE_RESULTS,
    ChaseOutcome,
    ChaseRound,
    chase_result_odds,
    chase_round,
)
from .fate import (  # noqa: E402
    FATE_SPENDS,
    FateGain,
    FateSpend,
    FateSpendRule,
    fate_gain,
    fate_gain_for,
    fate_spend,
    ki_spend_cost,
)
from .rest import REST_KINDS, Rest, Stabilised, full_night, short_rest, stabilise, sunrise_fate  # noqa: E402
from .round_budget import (  # noqa: E402
    ACTIONS,
    BRACKET_ACTIONS,
    DISTRACTED_FALLBACK,
    TURN_CONDITIONS,
    ActionRule,
    EnduranceOdds,
    TurnCheck,
    bump_cost,
    check_next_action,
    distracted_fallback,
    distracted_odds,
    endurance_odds,
    footing_odds,
    footing_roll_needed,
    ground_cost,
    shake_off_flustered_odds,
    sprint_exhaustion_odds,
    validate_turn,
)

__all__ += [
    "ACTIONS",
    "BRACKET_ACTIONS",
    "CHASE_DIFFICULTY",
    "CHASE_RESULTS",
    "ChaseOutcome",
    "ChaseRound",
    "chase_result_odds",
    "chase_round",
    "DISTRACTED_FALLBACK",
    "TURN_CONDITIONS",
    "ActionRule",
    "EnduranceOdds",
    "TurnCheck",
    "bump_cost",
    "check_next_action",
    "distracted_fallback",
    "distracted_odds",
    "shake_off_flustered_odds",
    "endurance_odds",
    "footing_odds",
    "footing_roll_needed",
    "ground_cost",
    "sprint_exhaustion_odds",
    "validate_turn",
    "FATE_SPENDS",
    "REST_KINDS",
    "FateGain",
    "FateSpend",
    "FateSpendRule",
    "Rest",
    "Stabilised",
    "fate_gain",
    "fate_gain_for",
    "fate_spend",
    "full_night",
    "ki_spend_cost",
    "short_rest",
    "stabilise",
    "sunrise_fate",
]

# Conditions and circumstances: the Advantage sources of every roll (issue 7).
from .conditions import (  # noqa: E402
    CONDITION_RULES,
    CONDITIONS,
    ROLL_KINDS,
    ConditionRule,
    ExhaustedEffects,
    RollModifiers,
    Source,
    exhausted_effects,
    roll_modifiers,
    split_states,
    weapon_range_band,
)

__all__ += [
    "CONDITIONS",
    "CONDITION_RULES",
    "ROLL_KINDS",
    "ConditionRule",
    "ExhaustedEffects",
    "RollModifiers",
    "Source",
    "exhausted_effects",
    "roll_modifiers",
    "split_states",
    "weapon_range_band",
]
