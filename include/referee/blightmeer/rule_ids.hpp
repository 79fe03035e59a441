// Blightmeer's rule ids as constants, one for each entry of the rule catalogue
// (src/blightmeer/rules.cpp) and spelt as it spells them: code names a rule
// only through these, so a misspelt id fails to build. One constant per
// catalogue entry, in its order: a rule added there gets its constant here
// (source.check fails on a literal id anywhere else in src/, apps/ or include/).
#pragma once

namespace referee::blightmeer::rule_id {

inline constexpr char move_incapacitated[] = "blightmeer.move.incapacitated";
inline constexpr char move_engage_attempted[] = "blightmeer.move.engage_attempted";
inline constexpr char move_stunned[] = "blightmeer.move.stunned";
inline constexpr char move_dazed[] = "blightmeer.move.dazed";
inline constexpr char move_engaged[] = "blightmeer.move.engaged";
inline constexpr char move_leave_melee[] = "blightmeer.move.leave_melee";
inline constexpr char move_allowance[] = "blightmeer.move.allowance";
inline constexpr char run_treasure[] = "blightmeer.run.treasure";
inline constexpr char run_after[] = "blightmeer.run.after";
inline constexpr char units_enemy[] = "blightmeer.units.enemy";
inline constexpr char units_ally[] = "blightmeer.units.ally";
inline constexpr char units_end_on_unit[] = "blightmeer.units.end_on_unit";
inline constexpr char units_occupied[] = "blightmeer.units.occupied";
inline constexpr char walk_level[] = "blightmeer.walk.level";
inline constexpr char terrain_impassable[] = "blightmeer.terrain.impassable";
inline constexpr char table_edge[] = "blightmeer.table.edge";
inline constexpr char terrain_difficult[] = "blightmeer.terrain.difficult";
inline constexpr char terrain_low[] = "blightmeer.terrain.low";
inline constexpr char climb_check[] = "blightmeer.climb.check";
inline constexpr char climb_partway[] = "blightmeer.climb.partway";
inline constexpr char climb_no_height[] = "blightmeer.climb.no_height";
inline constexpr char climb_leeway[] = "blightmeer.climb.leeway";
inline constexpr char climb_not_climbable[] = "blightmeer.climb.not_climbable";
inline constexpr char climb_unreachable[] = "blightmeer.climb.unreachable";
inline constexpr char climb_placement[] = "blightmeer.climb.placement";
inline constexpr char ladder_end[] = "blightmeer.ladder.end";
inline constexpr char ladder_animal[] = "blightmeer.ladder.animal";
inline constexpr char jump_down_landing[] = "blightmeer.jump_down.landing";
inline constexpr char jump_down_not_lower[] = "blightmeer.jump_down.not_lower";
inline constexpr char jump_down_range[] = "blightmeer.jump_down.range";
inline constexpr char jump_down_over_higher[] = "blightmeer.jump_down.over_higher";
inline constexpr char jump_down_check[] = "blightmeer.jump_down.check";
inline constexpr char jump_across_landing[] = "blightmeer.jump_across.landing";
inline constexpr char jump_across_over_higher[] = "blightmeer.jump_across.over_higher";
inline constexpr char jump_across_short[] = "blightmeer.jump_across.short";
inline constexpr char jump_across_check[] = "blightmeer.jump_across.check";
inline constexpr char jump_across_automatic_failure[] = "blightmeer.jump_across.automatic_failure";
inline constexpr char fall_start[] = "blightmeer.fall.start";
inline constexpr char fall_placement[] = "blightmeer.fall.placement";
inline constexpr char fall_injury[] = "blightmeer.fall.injury";
inline constexpr char fall_wounds[] = "blightmeer.fall.wounds";
inline constexpr char water_difficult[] = "blightmeer.water.difficult";
inline constexpr char water_cover[] = "blightmeer.water.cover";
inline constexpr char water_deep[] = "blightmeer.water.deep";
inline constexpr char water_deep_armour[] = "blightmeer.water.deep_armour";
inline constexpr char water_incapacitated[] = "blightmeer.water.incapacitated";
inline constexpr char turn_not_your_turn[] = "blightmeer.turn.not_your_turn";
inline constexpr char move_once_per_turn[] = "blightmeer.move.once_per_turn";
inline constexpr char move_unknown_unit[] = "blightmeer.move.unknown_unit";
inline constexpr char path_disconnected[] = "blightmeer.path.disconnected";
inline constexpr char game_over[] = "blightmeer.game.over";
inline constexpr char state_staggered[] = "blightmeer.state.staggered";
inline constexpr char state_dazed[] = "blightmeer.state.dazed";
inline constexpr char state_stunned[] = "blightmeer.state.stunned";

}  // namespace referee::blightmeer::rule_id
