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
inline constexpr char game_over[] = "ancients.game.over";

}  // namespace referee::ancients::rule_id
