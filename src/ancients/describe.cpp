// The one describer of Ancients: a report (report.hpp) in the words of the
// game log. Logs, golden playthroughs and replays compare this JSON byte for
// byte, so every key and reason stays as the log has always had it.
#include "referee/ancients/report.hpp"

#include <fmt/format.h>

#include "referee/ancients/rule_ids.hpp"
#include "referee/ancients/turn.hpp"

namespace referee::ancients {

namespace {

using Json = nlohmann::json;

Json hex(const Battle& b, int h) { return hex_json(b.board, h); }
const std::string& uid(const Battle& b, int u) { return unit_id(b, u); }
const std::string& lid(const Battle& b, int l) { return leader_id(b, l); }
const char* combat_name(bool close) { return close ? "close" : "ranged"; }

Json faces_json(const std::vector<Face>& faces) {
  Json j = Json::array();
  for (Face f : faces) j.push_back(face_name(f));
  return j;
}

Json hexes_json(const Battle& b, const std::vector<int>& path) {
  Json j = Json::array();
  for (int h : path) j.push_back(hex(b, h));
  return j;
}

Json banner_json(const Battle& b, const BannerReport& r) {
  const std::string what = r.leader ? "leader " + lid(b, r.piece) : "unit " + uid(b, r.piece);
  return {{"side", r.side}, {"for", what}, {"banners", r.banners}, {"needed", r.needed},
          {"rule", ancients::rule_id::victory_banners}};
}

Json leader_evade_json(const Battle& b, const LeaderEvadeReport& r) {
  Json j{{"leader", lid(b, r.leader)}, {"rule", ancients::rule_id::leader_evade}};
  if (r.to < 0) {
    j["escaped_off_the_board"] = true;
    j["reason"] = "no hex toward his own edge is open: he leaves the battle by his own edge, giving no banner";
    return j;
  }
  j["to"] = hex(b, r.to);
  if (r.attached_to >= 0) j["attached_to"] = uid(b, r.attached_to);
  return j;
}

Json leader_check_json(const Battle& b, const LeaderCheckReport& r) {
  Json j{{"leader", lid(b, r.leader)}, {"dice", faces_json(r.dice)}, {"killed", r.killed},
         {"rule", ancients::rule_id::leader_casualty},
         {"reason", r.unit_eliminated ? "his unit was eliminated: 1 die, killed on a leader helmet"
                                      : "his unit lost blocks: 2 dice, killed on two leader helmets"}};
  if (r.banner) j["banner"] = banner_json(b, *r.banner);
  if (r.evade) j["evade"] = leader_evade_json(b, *r.evade);
  return j;
}

Json blocks_json(const Battle& b, const BlocksLostReport& r) {
  Json j{{"blocks_lost", r.lost}, {"blocks_left", r.left}};
  if (r.eliminated) j["eliminated"] = true;
  if (r.banner) j["banner"] = banner_json(b, *r.banner);
  return j;
}

void path_into(const Battle& b, const PathReport& r, Json& j) {
  j["path"] = hexes_json(b, r.path);
  j["hexes"] = r.hexes;
  if (r.leader_attached >= 0) j["leader_attached"] = lid(b, r.leader_attached);
}

Json retreat_json(const Battle& b, const RetreatReport& r) {
  Json j{{"unit", uid(b, r.unit)}, {"demanded", r.demanded}, {"rule", ancients::rule_id::flag_retreat}};
  path_into(b, r.moved, j);
  if (r.loss) {
    Json loss = blocks_json(b, *r.loss);
    loss["rule"] = ancients::rule_id::flag_blocked;
    loss["reason"] = fmt::format("{} of {} could not be retreated: a block lost for each",
                                 count_of(r.unretreated, "hex", "hexes"), count_of(r.demanded, "hex", "hexes"));
    j["loss"] = loss;
  }
  if (r.leader_check) j["leader_check"] = leader_check_json(b, *r.leader_check);
  if (r.leader_evade) j["leader_evade"] = leader_evade_json(b, *r.leader_evade);
  return j;
}

const char* roll_rule(const AttackPlan& plan) {
  return plan.battle_back ? ancients::rule_id::battle_back
         : plan.evading   ? ancients::rule_id::evade_hits
         : plan.close     ? ancients::rule_id::battle_hits
                          : ancients::rule_id::battle_ranged;
}

Json roll_json(const Battle& b, const RollReport& r) {
  const AttackPlan& plan = r.plan;
  Json j{{"attacker", uid(b, plan.attacker)}, {"target", uid(b, plan.target)}, {"dice", plan.dice},
         {"rolled", faces_json(r.faces)}, {"dice_rule", ancients::rule_id::battle_dice}, {"hits", r.hits},
         {"hits_reason", hits_reason(b, plan)}, {"rule", roll_rule(plan)}};
  if (!plan.evading) j["flags"] = r.flags;
  if (plan.limited_by >= 0)
    j["terrain_dice"] = {{"terrain", b.terrain_types[static_cast<std::size_t>(plan.limited_by)].id},
                         {"dice_before", plan.dice_before_terrain}, {"rule", ancients::rule_id::battle_terrain_dice}};
  if (plan.hits[static_cast<std::size_t>(Face::leader)]) j["leader_hits_rule"] = ancients::rule_id::battle_leader_hits;
  return j;
}

// One end of a retreat or evasion the owner may choose.
Json option_json(const Battle& b, const RetreatOption& o) {
  Json e{{"to", hex(b, o.end)}, {"hexes", o.hexes}, {"blocks_lost", o.lost}};
  if (o.attaches_leader >= 0) e["leader_attaches"] = lid(b, o.attaches_leader);
  return e;
}

// The owner's choices for a unit's flags: each end hex, the hexes it
// retreats and the flags it ignores to get there (its own hex: it holds).
Json choices_json(const Battle& b, const std::vector<FlagChoice>& choices) {
  Json j = Json::array();
  for (const FlagChoice& c : choices) {
    Json e = option_json(b, c.option);
    e["flags_ignored"] = c.ignored;
    if (c.hexes == 0) e["holds"] = true;
    j.push_back(e);
  }
  return j;
}

Json awaiting_json(const Battle& b, const AwaitingReport& r) {
  Json j{{"side", r.side}, {"unit", uid(b, r.unit)}};
  switch (r.decision) {
    case Decision::evade: {
      Json options = Json::array();
      for (const RetreatOption& o : r.evade_options) options.push_back(option_json(b, o));
      j.update({{"decision", "evade"}, {"options", options}, {"rule", ancients::rule_id::evade_eligible}});
      break;
    }
    case Decision::retreat:
      j.update({{"decision", "retreat"}, {"flags", r.flags}, {"may_ignore", r.may_ignore},
                {"options", choices_json(b, r.retreat_options)}, {"rule", ancients::rule_id::flag_path}});
      break;
    case Decision::momentum:
      j.update({{"decision", "momentum"}, {"to", hex(b, r.to)}, {"rule", ancients::rule_id::momentum_advance}});
      break;
  }
  return j;
}

// The ignored flags with their reasons, support first, then the attached
// leader; those it might have ignored and did not; the retreat.
void flags_answer_into(const Battle& b, const FlagsAnswerReport& r, Json& j) {
  if (r.ignored > 0) {
    Json ig = Json::array();
    int left = r.ignored;
    if (r.supported) {
      ig.push_back({{"why", "supported by two adjacent friendly units"}, {"rule", ancients::rule_id::flag_support}});
      --left;
    }
    if (left > 0 && r.leader >= 0)
      ig.push_back({{"why", "leader " + lid(b, r.leader) + " is attached"}, {"rule", ancients::rule_id::flag_leader}});
    j["flags_ignored"] = ig;
  }
  if (r.declined > 0)
    j["flags_not_ignored"] = {{"flags", r.declined},
                              {"why", fmt::format("its owner chose to retreat rather than ignore {}",
                                                  count_of(r.declined, "flag", "flags"))},
                              {"rule", r.supported ? ancients::rule_id::flag_support : ancients::rule_id::flag_leader}};
  if (r.retreat) j["retreat"] = retreat_json(b, *r.retreat);
}

Json strike_json(const Battle& b, const StrikeReport& r);

void after_into(const Battle& b, const AfterDefenderReport& r, Json& j) {
  if (r.awaiting) j["awaiting"] = awaiting_json(b, *r.awaiting);
  if (!r.battle_back) return;
  const BattleBackReport& back = *r.battle_back;
  if (back.strike.empty())
    j["battle_back"] = {{"unit", uid(b, back.unit)}, {"dice", 0},
                        {"reason", fmt::format("a {} cannot battle back", b.unit_class(back.unit).name)},
                        {"rule", ancients::rule_id::battle_back}};
  else
    j["battle_back"] = strike_json(b, back.strike.front());
}

Json evade_move_json(const Battle& b, const EvadeMoveReport& r) {
  Json e{{"unit", uid(b, r.unit)}, {"rule", ancients::rule_id::evade_move}};
  if (r.removed) {
    e["removed"] = true;
    e["reason"] = "an evading war machine is removed from the battlefield; its crew escapes, giving no banner";
  }
  if (r.moved) path_into(b, *r.moved, e);
  return e;
}

Json strike_json(const Battle& b, const StrikeReport& r) {
  Json j = roll_json(b, r.roll);
  if (r.result) j["result"] = blocks_json(b, *r.result);
  if (r.evade) j["evade"] = evade_move_json(b, *r.evade);
  if (r.leader_check) j["leader_check"] = leader_check_json(b, *r.leader_check);
  if (r.leader_evade) j["leader_evade"] = leader_evade_json(b, *r.leader_evade);
  if (r.flags) flags_answer_into(b, *r.flags, j);
  if (r.awaiting) j["awaiting"] = awaiting_json(b, *r.awaiting);
  after_into(b, r.after, j);
  return j;
}

Json turn_end_json(const Battle& b, const TurnEndReport& r) {
  Json j{{"side", r.side}, {"card", card_id(b, r.card)}};
  if (r.reshuffled) j["reshuffled"] = {{"rule", ancients::rule_id::reshuffle}, {"cards", *r.reshuffled}};
  if (r.drew >= 0) j["drew"] = card_id(b, r.drew);
  j["next_side"] = r.next_side;
  return j;
}

// One function per kind of report, for describe's visit.

Json word(const Battle& b, const CardPlayReport& r) {
  Json j = r.plan ? plan_json(b, *r.plan, r.pieces) : Json::object();
  if (r.turn_skipped) {
    Json skipped = turn_end_json(b, *r.turn_skipped);
    skipped["rule"] = ancients::rule_id::card_orders_nothing;
    skipped["reason"] = "the card can order no unit or leader, so the turn skips straight to drawing";
    j["turn_skipped"] = std::move(skipped);
  }
  return j;
}

Json word(const Battle& b, const OrdersReport& r) {
  Json ids = Json::array();
  for (const OrderItem& it : r.ordered) ids.push_back(it.leader ? lid(b, it.index) : uid(b, it.index));
  return {{"ordered", ids}, {"orders_used", r.used}, {"orders_given", r.given}};
}

Json word(const Battle& b, const UnitMoveReport& r) {
  const Destination& d = r.destination;
  Json j{{"unit", uid(b, r.unit)}, {"from", hex(b, r.from)}, {"to", hex(b, r.to)}, {"path", hexes_json(b, r.path)},
         {"hexes", d.hexes}, {"may_battle", d.may_battle}, {"close_combat_compulsory", d.close_combat_compulsory}};
  if (r.leader_moved_with >= 0) j["leader_moved_with"] = lid(b, r.leader_moved_with);
  if (d.attaches_leader >= 0) j["leader_attached"] = lid(b, d.attaches_leader);
  return j;
}

Json word(const Battle& b, const LeaderMoveReport& r) {
  Json j{{"leader", lid(b, r.leader)}, {"from", hex(b, r.from)}, {"to", hex(b, r.to)}, {"path", hexes_json(b, r.path)},
         {"hexes", static_cast<int>(r.path.size()) - 1}};
  if (r.detached_from >= 0) j["detached_from"] = uid(b, r.detached_from);
  if (r.attached_to >= 0) {
    j["attached_to"] = uid(b, r.attached_to);
    j["unit_moves_no_further"] = r.unit_moves_no_further;
  }
  return j;
}

Json word(const Battle&, const BattlePhaseReport&) {
  return {{"battle_phase", true}, {"rule", ancients::rule_id::battle_phase}};
}

Json word(const Battle& b, const TurnEndReport& r) { return turn_end_json(b, r); }

Json word(const Battle& b, const DeclareReport& r) {
  Json j{{"unit", uid(b, r.unit)}, {"target", uid(b, r.target)}, {"combat", combat_name(r.close)},
         {"rule", r.close ? ancients::rule_id::battle_close : ancients::rule_id::battle_ranged}};
  if (r.bonus) j["bonus_close_combat"] = ancients::rule_id::momentum_bonus;
  if (r.awaiting) j["awaiting"] = awaiting_json(b, *r.awaiting);
  if (r.attack) j["attack"] = strike_json(b, *r.attack);
  return j;
}

Json word(const Battle& b, const LeaderAttackReport& r) {
  Json j{{"unit", uid(b, r.unit)}, {"target", lid(b, r.leader)}, {"combat", combat_name(r.close)},
         {"dice", static_cast<int>(r.faces.size())}, {"rolled", faces_json(r.faces)},
         {"dice_rule", ancients::rule_id::battle_dice}, {"hits", r.helmets},
         {"hits_reason", "only leader helmets hit a lone leader"}, {"rule", ancients::rule_id::battle_target},
         {"killed", r.helmets > 0}};
  if (r.banner) j["banner"] = banner_json(b, *r.banner);
  if (r.evade) j["evade"] = leader_evade_json(b, *r.evade);
  return j;
}

Json word(const Battle& b, const EvadeAnswerReport& r) {
  Json j{{"unit", uid(b, r.unit)}, {"evades", r.evades}};
  if (r.evades) j["rule"] = ancients::rule_id::evade_move;
  j["attack"] = strike_json(b, r.attack);
  return j;
}

// A retreat reads as the retreat; a unit that held says so.
Json word(const Battle& b, const RetreatAnswerReport& r) {
  Json answer = Json::object();
  flags_answer_into(b, r.answer, answer);
  Json j = answer.contains("retreat") ? std::move(answer["retreat"])
                                      : Json{{"unit", uid(b, r.unit)}, {"holds", true}, {"flags", r.flags},
                                             {"rule", answer["flags_ignored"][0]["rule"]}};
  for (const char* k : {"flags_ignored", "flags_not_ignored"})
    if (answer.contains(k)) j[k] = std::move(answer[k]);
  j["chosen_by"] = b.units[static_cast<std::size_t>(r.unit)].side;
  after_into(b, r.after, j);
  return j;
}

Json word(const Battle& b, const MomentumReport& r) {
  Json j{{"unit", uid(b, r.unit)}, {"advance", r.advance}, {"rule", ancients::rule_id::momentum_advance}};
  if (!r.advance) return j;
  j["from"] = hex(b, r.from);
  j["to"] = hex(b, r.to);
  j["bonus_close_combat"] = r.no_bonus == NoBonus::none;
  j["bonus_rule"] = ancients::rule_id::momentum_bonus;
  const UnitClass& c = b.unit_class(r.unit);
  switch (r.no_bonus) {
    case NoBonus::none: break;
    case NoBonus::made_already: j["no_bonus_reason"] = "it has made its bonus close combat this turn"; break;
    case NoBonus::needs_leader:
      j["no_bonus_reason"] =
          fmt::format("a {} advances but makes no bonus close combat without an attached leader", c.name);
      break;
    case NoBonus::terrain:
      j["no_bonus_reason"] =
          fmt::format("it entered {}, where a {} may not battle on entering", b.terrain_at(r.to)->name, c.name);
      break;
  }
  return j;
}

}  // namespace

nlohmann::json describe(const Battle& b, const Report& r) {
  return std::visit([&b](const auto& event) { return word(b, event); }, r.event);
}

}  // namespace referee::ancients
