// Commands & Colors: Ancients's rule ids as constants, one for each entry of the rule catalogue
// (src/ancients/rules.cpp) and spelt as it spells them: code names a rule
// only through these, so a misspelt id fails to build. One constant per
// catalogue entry, in its order: a rule added there gets its constant here
// (source.check fails on a literal id anywhere else in src/, apps/ or include/).
#pragma once

namespace referee::ancients::rule_id {

inline constexpr char order_sequence[] = "ancients.order.sequence";
inline constexpr char order_side[] = "ancients.order.side";
inline constexpr char order_not_ordered[] = "ancients.order.not_ordered";
inline constexpr char order_once[] = "ancients.order.once";
inline constexpr char card_not_in_hand[] = "ancients.card.not_in_hand";
inline constexpr char card_section[] = "ancients.card.section";
inline constexpr char card_troop[] = "ancients.card.troop";
inline constexpr char card_leadership[] = "ancients.card.leadership";
inline constexpr char card_spartacus[] = "ancients.card.spartacus";
inline constexpr char card_count[] = "ancients.card.count";
inline constexpr char card_eligible[] = "ancients.card.eligible";
inline constexpr char card_orders_nothing[] = "ancients.card.orders_nothing";
inline constexpr char movement_off_board[] = "ancients.movement.off_board";
inline constexpr char movement_allowance[] = "ancients.movement.allowance";
inline constexpr char movement_blocked[] = "ancients.movement.blocked";
inline constexpr char movement_terrain[] = "ancients.movement.terrain";
inline constexpr char leader_allowance[] = "ancients.leader.allowance";
inline constexpr char leader_blocked[] = "ancients.leader.blocked";
inline constexpr char leader_one_per_hex[] = "ancients.leader.one_per_hex";
inline constexpr char leader_off_board[] = "ancients.leader.off_board";
inline constexpr char leader_attach_stops[] = "ancients.leader.attach_stops";
inline constexpr char leader_detach_card[] = "ancients.leader.detach_card";
inline constexpr char leader_detach_after_move[] = "ancients.leader.detach_after_move";
inline constexpr char battle_phase[] = "ancients.battle.phase";
inline constexpr char battle_eligible[] = "ancients.battle.eligible";
inline constexpr char battle_once[] = "ancients.battle.once";
inline constexpr char battle_target[] = "ancients.battle.target";
inline constexpr char battle_close[] = "ancients.battle.close";
inline constexpr char battle_ranged[] = "ancients.battle.ranged";
inline constexpr char battle_sight[] = "ancients.battle.sight";
inline constexpr char battle_dice[] = "ancients.battle.dice";
inline constexpr char battle_hits[] = "ancients.battle.hits";
inline constexpr char battle_terrain_dice[] = "ancients.battle.terrain_dice";
inline constexpr char battle_leader_hits[] = "ancients.battle.leader_hits";
inline constexpr char battle_back[] = "ancients.battle.back";
inline constexpr char battle_compulsory[] = "ancients.battle.compulsory";
inline constexpr char battle_odds[] = "ancients.battle.odds";
inline constexpr char flag_retreat[] = "ancients.flag.retreat";
inline constexpr char flag_blocked[] = "ancients.flag.blocked";
inline constexpr char flag_support[] = "ancients.flag.support";
inline constexpr char flag_leader[] = "ancients.flag.leader";
inline constexpr char flag_path[] = "ancients.flag.path";
inline constexpr char evade_eligible[] = "ancients.evade.eligible";
inline constexpr char evade_move[] = "ancients.evade.move";
inline constexpr char evade_hits[] = "ancients.evade.hits";
inline constexpr char leader_casualty[] = "ancients.leader.casualty";
inline constexpr char leader_evade[] = "ancients.leader.evade";
inline constexpr char momentum_advance[] = "ancients.momentum.advance";
inline constexpr char momentum_bonus[] = "ancients.momentum.bonus";
inline constexpr char victory_banners[] = "ancients.victory.banners";
inline constexpr char decision_pending[] = "ancients.decision.pending";
inline constexpr char reshuffle[] = "ancients.card.reshuffle";
inline constexpr char game_over[] = "ancients.game.over";

}  // namespace referee::ancients::rule_id
