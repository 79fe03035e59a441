// Warmaster's rule ids as constants, one for each entry of the rule catalogue
// (src/warmaster/rules.cpp) and spelt as it spells them: code names a rule
// only through these, so a misspelt id fails to build. One constant per
// catalogue entry, in its order: a rule added there gets its constant here
// (source.check fails on a literal id anywhere else in src/, apps/ or include/).
#pragma once

namespace referee::warmaster::rule_id {

inline constexpr char movement_pace[] = "warmaster.movement.pace";
inline constexpr char movement_formation[] = "warmaster.movement.formation";
inline constexpr char movement_distance[] = "warmaster.movement.distance";
inline constexpr char movement_path[] = "warmaster.movement.path";
inline constexpr char movement_gap[] = "warmaster.movement.gap";
inline constexpr char movement_terrain[] = "warmaster.movement.terrain";
inline constexpr char movement_overlap[] = "warmaster.movement.overlap";
inline constexpr char movement_off_table[] = "warmaster.movement.off_table";
inline constexpr char movement_confused[] = "warmaster.movement.confused";
inline constexpr char movement_burst_through[] = "warmaster.movement.burst_through";
inline constexpr char movement_reach[] = "warmaster.movement.reach";
inline constexpr char sight[] = "warmaster.sight";
inline constexpr char distance[] = "warmaster.distance";
inline constexpr char command_phase[] = "warmaster.command.phase";
inline constexpr char command_unknown[] = "warmaster.command.unknown";
inline constexpr char command_side[] = "warmaster.command.side";
inline constexpr char command_battle_over[] = "warmaster.command.battle_over";
inline constexpr char command_off_table[] = "warmaster.command.off_table";
inline constexpr char command_off_table_return[] = "warmaster.command.off_table_return";
inline constexpr char command_returned[] = "warmaster.command.returned";
inline constexpr char command_engaged[] = "warmaster.command.engaged";
inline constexpr char command_confused[] = "warmaster.command.confused";
inline constexpr char command_general_failed[] = "warmaster.command.general_failed";
inline constexpr char command_character_failed[] = "warmaster.command.character_failed";
inline constexpr char command_character_lost[] = "warmaster.command.character_lost";
inline constexpr char command_character_sequence[] = "warmaster.command.character_sequence";
inline constexpr char command_brigade_size[] = "warmaster.command.brigade_size";
inline constexpr char command_brigade_formed[] = "warmaster.command.brigade_formed";
inline constexpr char command_brigade_touching[] = "warmaster.command.brigade_touching";
inline constexpr char command_brigade_finish[] = "warmaster.command.brigade_finish";
inline constexpr char command_no_return[] = "warmaster.command.no_return";
inline constexpr char command_other_character[] = "warmaster.command.other_character";
inline constexpr char command_three_orders[] = "warmaster.command.three_orders";
inline constexpr char command_charge_ends_orders[] = "warmaster.command.charge_ends_orders";
inline constexpr char command_flyer_range[] = "warmaster.command.flyer_range";
inline constexpr char command_home_back[] = "warmaster.command.home_back";
inline constexpr char command_no_order[] = "warmaster.command.no_order";
inline constexpr char command_not_ordered[] = "warmaster.command.not_ordered";
inline constexpr char command_failed_order[] = "warmaster.command.failed_order";
inline constexpr char command_blunder[] = "warmaster.command.blunder";
inline constexpr char command_failed_charge[] = "warmaster.command.failed_charge";
inline constexpr char command_move_kind[] = "warmaster.command.move_kind";
inline constexpr char command_charge_contact[] = "warmaster.command.charge_contact";
inline constexpr char command_character_move[] = "warmaster.command.character_move";
inline constexpr char command_join[] = "warmaster.command.join";
inline constexpr char command_distance[] = "warmaster.command.distance";
inline constexpr char command_further_order[] = "warmaster.command.further_order";
inline constexpr char command_enemy_near[] = "warmaster.command.enemy_near";
inline constexpr char command_dense[] = "warmaster.command.dense";
inline constexpr char command_casualties[] = "warmaster.command.casualties";
inline constexpr char initiative_before_orders[] = "warmaster.initiative.before_orders";
inline constexpr char initiative_brigade[] = "warmaster.initiative.brigade";
inline constexpr char initiative_once[] = "warmaster.initiative.once";
inline constexpr char initiative_no_orders[] = "warmaster.initiative.no_orders";
inline constexpr char initiative_range[] = "warmaster.initiative.range";
inline constexpr char initiative_target[] = "warmaster.initiative.target";
inline constexpr char initiative_sight[] = "warmaster.initiative.sight";
inline constexpr char initiative_closest[] = "warmaster.initiative.closest";
inline constexpr char initiative_ignore[] = "warmaster.initiative.ignore";
inline constexpr char initiative_artillery[] = "warmaster.initiative.artillery";
inline constexpr char initiative_flyer[] = "warmaster.initiative.flyer";
inline constexpr char initiative_charge[] = "warmaster.initiative.charge";
inline constexpr char initiative_evade[] = "warmaster.initiative.evade";
inline constexpr char initiative_evade_direction[] = "warmaster.initiative.evade_direction";
inline constexpr char initiative_evade_distance[] = "warmaster.initiative.evade_distance";
inline constexpr char initiative_evade_order[] = "warmaster.initiative.evade_order";
inline constexpr char initiative_evade_clearance[] = "warmaster.initiative.evade_clearance";
inline constexpr char initiative_burst_through[] = "warmaster.initiative.burst_through";
inline constexpr char phase_sequence[] = "warmaster.phase.sequence";
inline constexpr char shooting_target[] = "warmaster.shooting.target";
inline constexpr char shooting_no_target[] = "warmaster.shooting.no_target";
inline constexpr char shooting_engaged[] = "warmaster.shooting.engaged";
inline constexpr char shooting_hits[] = "warmaster.shooting.hits";
inline constexpr char shooting_casualties[] = "warmaster.shooting.casualties";
inline constexpr char shooting_drive_back[] = "warmaster.shooting.drive_back";
inline constexpr char shooting_rout[] = "warmaster.shooting.rout";
inline constexpr char shooting_blocked[] = "warmaster.shooting.blocked";
inline constexpr char combat_engagement[] = "warmaster.combat.engagement";
inline constexpr char combat_attacks[] = "warmaster.combat.attacks";
inline constexpr char combat_hits[] = "warmaster.combat.hits";
inline constexpr char combat_support[] = "warmaster.combat.support";
inline constexpr char combat_casualties[] = "warmaster.combat.casualties";
inline constexpr char combat_result[] = "warmaster.combat.result";
inline constexpr char combat_draw[] = "warmaster.combat.draw";
inline constexpr char combat_retreat[] = "warmaster.combat.retreat";
inline constexpr char combat_artillery[] = "warmaster.combat.artillery";
inline constexpr char combat_blocked_retreat[] = "warmaster.combat.blocked_retreat";
inline constexpr char combat_pursuit[] = "warmaster.combat.pursuit";
inline constexpr char combat_pursuit_refused[] = "warmaster.combat.pursuit_refused";
inline constexpr char combat_stand[] = "warmaster.combat.stand";
inline constexpr char combat_fall_back[] = "warmaster.combat.fall_back";
inline constexpr char combat_advance[] = "warmaster.combat.advance";
inline constexpr char combat_round[] = "warmaster.combat.round";
inline constexpr char combat_decisions[] = "warmaster.combat.decisions";
inline constexpr char combat_charge_alignment[] = "warmaster.combat.charge_alignment";
inline constexpr char combat_characters[] = "warmaster.combat.characters";

}  // namespace referee::warmaster::rule_id
