// Applying command-phase actions, and the initiative checks that need the
// game state (the rules themselves are in initiative.cpp).
#include <algorithm>
#include "referee/warmaster/model/rule_ids.hpp"
#include <cmath>

#include <fmt/format.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/battle/command_state.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {

namespace {
bool any_stand_off_table(const Battlefield& bf, const Unit& u) {
  const Aabb t = bf.table();
  RotMemo rot;
  for (std::size_t i = 0; i < u.stands.size(); ++i)
    for (const Vec2& c : u.footprint(i, rot).corners())
      if (c.x < t.min.x - 1e-9 || c.y < t.min.y - 1e-9 || c.x > t.max.x + 1e-9 || c.y > t.max.y + 1e-9) return true;
  return false;
}

bool clear_of_other_units(const Battlefield& bf, const Unit& u, const std::vector<Stand>& stands, double tolerance) {
  for (const Unit& o : bf.units) {
    if (o.id == u.id) continue;
    for (std::size_t k = 0; k < o.stands.size(); ++k) {
      const OrientedRect other = o.footprint(k);
      for (const Stand& st : stands)
        if (overlaps(u.footprint_at(st.pose), other, tolerance)) return false;
    }
  }
  return true;
}

// Reading (docs/rulings.md#warmaster-command-characters-leaving-table): a
// that comes back appears "at the same point it left": where its straight
// line from start to end crossed the edge, pulled in by half its base so the
// base is wholly on the table.
Vec2 edge_where_left(const Battlefield& bf, const Character& c, Vec2 start) {
  const double r = c.stand_size ? std::max(c.stand_size->x, c.stand_size->y) / 2 : c.base_diameter / 2;
  const double lo_x = r, hi_x = bf.width - r, lo_y = r, hi_y = bf.height - r;
  const Vec2 end = c.pose.position;
  const Vec2 d = end - start;
  double t = 1.0;
  if (end.x > hi_x && d.x > 0) t = std::min(t, (hi_x - start.x) / d.x);
  if (end.x < lo_x && d.x < 0) t = std::min(t, (lo_x - start.x) / d.x);
  if (end.y > hi_y && d.y > 0) t = std::min(t, (hi_y - start.y) / d.y);
  if (end.y < lo_y && d.y < 0) t = std::min(t, (lo_y - start.y) / d.y);
  t = std::clamp(t, 0.0, 1.0);
  const Vec2 p = start + d * t;
  return {std::clamp(p.x, lo_x, std::max(lo_x, hi_x)), std::clamp(p.y, lo_y, std::max(lo_y, hi_y))};
}

// Reading (docs/rulings.md#warmaster-command-off-the-table): a unit that
// reappears "at the same point it left" is pushed straight back across the
// edge it crossed, just far enough to be wholly on the table, keeping its
// formation and facing. The text is silent when another unit now stands
// there: the unit then reappears at the nearest clear spot, sliding along
// the same edge first (0.5 cm steps, nearest first) and only then further
// in, so it never lands on top of another unit.
std::vector<Stand> back_on_table(const Battlefield& bf, const Unit& u, const std::vector<Stand>& parked,
                                 double tolerance) {
  Unit probe = u;
  probe.stands = parked;
  Aabb box{{1e18, 1e18}, {-1e18, -1e18}};
  for (std::size_t i = 0; i < probe.stands.size(); ++i) box = box.merged(probe.footprint(i).bounds());
  Vec2 shift{0, 0};
  if (box.min.x < 0) shift.x = -box.min.x;
  else if (box.max.x > bf.width) shift.x = bf.width - box.max.x;
  if (box.min.y < 0) shift.y = -box.min.y;
  else if (box.max.y > bf.height) shift.y = bf.height - box.max.y;
  box = {box.min + shift, box.max + shift};
  // Along the crossed edge, and inward from it.
  const bool side_edge = shift.x != 0;
  const Vec2 along = side_edge ? Vec2{0, 1} : Vec2{1, 0};
  const Vec2 inward = side_edge ? Vec2{shift.x > 0 ? 1.0 : -1.0, 0} : Vec2{0, shift.y >= 0 ? 1.0 : -1.0};
  const double edge_length = side_edge ? bf.height : bf.width;
  auto placed = [&](Vec2 offset) {
    std::vector<Stand> out = parked;
    for (Stand& st : out) st.pose.position += shift + offset;
    return out;
  };
  auto on_table = [&](Vec2 offset) {
    return box.min.x + offset.x >= 0 && box.min.y + offset.y >= 0 && box.max.x + offset.x <= bf.width &&
           box.max.y + offset.y <= bf.height;
  };
  constexpr double kStep = 0.5;
  for (double in = 0; in <= 20.0; in += kStep)
    for (double a = 0; a <= edge_length; a += kStep)
      for (double sign : {1.0, -1.0}) {
        const Vec2 offset = along * (a * sign) + inward * in;
        if (!on_table(offset)) continue;
        std::vector<Stand> out = placed(offset);
        if (clear_of_other_units(bf, u, out, tolerance)) return out;
        if (a == 0) break;
      }
  return placed({0, 0});  // a table packed this full is beyond the rules; keep the point it left
}
}  // namespace

Verdict CommandState::validate_initiative(const Action& a, MoveScratch& scratch,
                                          std::optional<MoveRequest>* move_out) const {
  Verdict v;
  require_no_pending_returns(v);
  if (step_ != CommandStep::Initiative || orders_begun_)
    v.add(warmaster::rule_id::initiative_before_orders,
          "initiative moves come before the first order: once an order has been given no unit may use initiative");
  if (a.units.size() > 1)
    v.add(warmaster::rule_id::initiative_brigade, "brigades cannot use initiative as a body: each unit moves on its own");
  const int ui = unit_index(a.unit);
  const int ti = unit_index(a.target);
  if (ui < 0) v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", a.unit));
  if (ti < 0) v.add(warmaster::rule_id::command_unknown, fmt::format("no enemy unit \"{}\"", a.target));
  if (ui < 0 || ti < 0) return v;
  const Unit& u = unit_at(ui);
  const Unit& e = unit_at(ti);
  const UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  if (u.side != side_) v.add(warmaster::rule_id::command_side, fmt::format("unit {} is not on the side moving", u.id));
  if (e.side == u.side) v.add(warmaster::rule_id::initiative_target, fmt::format("{} is not an enemy of {}", e.id, u.id));
  if (s.off_table || s.destroyed || units_[static_cast<std::size_t>(ti)].off_table ||
      units_[static_cast<std::size_t>(ti)].destroyed)
    v.add(warmaster::rule_id::command_off_table, "both units must be on the table");
  if (s.frozen)
    v.add(warmaster::rule_id::command_returned, fmt::format("unit {} came back onto the table and cannot move this turn", u.id));
  if (u.engaged) v.add(warmaster::rule_id::command_engaged, fmt::format("unit {} is engaged in combat", u.id));
  if (u.confused) v.add(warmaster::rule_id::command_confused, fmt::format("unit {} is confused and cannot move", u.id));
  if (s.used_initiative) v.add(warmaster::rule_id::initiative_once, fmt::format("unit {} has already used initiative", u.id));
  if (!s.near_enemy_at_start)
    v.add(warmaster::rule_id::initiative_range,
          fmt::format("unit {} was not within {} of an enemy at the start of the Command phase", u.id,
                      format_measure(kInitiativeRange, "cm")));
  if (a.charge && u.type == TroopType::Artillery)
    v.add(warmaster::rule_id::initiative_artillery, fmt::format("artillery ({}) may evade by initiative but never charge", u.id));
  if (!a.charge && u.type == TroopType::Flyer)
    v.add(warmaster::rule_id::initiative_flyer, fmt::format("flyers ({}) may charge by initiative but never evade", u.id));
  if (!v.legal()) return v;

  // Enemies the player chooses to ignore: fortified infantry and artillery,
  // and enemies cut off by a barrier neither side can go round.
  for (const std::string& id : a.ignore) {
    const Unit* x = bf_->find_unit(id);
    if (!x || x->side == u.side) {
      v.add(warmaster::rule_id::initiative_ignore, fmt::format("\"{}\" is not an enemy unit", id));
      continue;
    }
    if (id == e.id) {
      v.add(warmaster::rule_id::initiative_ignore, fmt::format("{} cannot be both ignored and the target", id));
      continue;
    }
    const bool fortified = x->fortified && (x->type == TroopType::Infantry || x->type == TroopType::Artillery);
    if (fortified) continue;
    if (cut_off_by_barrier(*bf_, u, *x, settings(), &scratch)) continue;
    v.add(warmaster::rule_id::initiative_ignore,
          fmt::format("{} may not be ignored: only fortified infantry or artillery, or enemies cut off by a barrier "
                      "neither unit can go round within a full pace move",
                      id));
  }
  if (!v.legal()) return v;

  const std::vector<InitiativeCandidate>& cands = initiative_targets(u.id, a.charge);
  const InitiativeCandidate* target = nullptr;
  const InitiativeCandidate* closest = nullptr;
  for (const InitiativeCandidate& c : cands) {
    if (std::find(a.ignore.begin(), a.ignore.end(), c.enemy) != a.ignore.end()) continue;
    if (c.enemy == e.id) target = &c;
    if (c.visible && !closest) closest = &c;
  }
  if (!target) {
    const double d = unit_distance(u, e).distance;
    v.add(warmaster::rule_id::initiative_range,
          fmt::format("{} is {} from {}: initiative reaches only the closest enemy within {}", e.id,
                      format_compared(d, kInitiativeRange, "cm").value, u.id,
                      format_compared(d, kInitiativeRange, "cm").limit),
          {{"distance", d, "cm"}, {"limit", kInitiativeRange, "cm"}});
    return v;
  }
  if (!target->visible) {
    v.add(warmaster::rule_id::initiative_sight,
          fmt::format("unit {} cannot see {} from {} (blocked by {})", u.id, e.id,
                      a.charge || !u.sees_all_round ? "a front edge" : "any free edge",
                      target->blocked_by.empty() ? "nothing clear" : target->blocked_by));
    return v;
  }
  if (closest && to_hundredths_of_mm(closest->distance) < to_hundredths_of_mm(target->distance)) {
    v.add(warmaster::rule_id::initiative_closest,
          fmt::format("{} is {} away but {} is closer ({}): initiative acts on the closest visible enemy", e.id,
                      format_compared(target->distance, closest->distance, "cm").value, closest->enemy,
                      format_compared(target->distance, closest->distance, "cm").limit),
          {{"target", target->distance, "cm"}, {"closest", closest->distance, "cm"}});
    return v;
  }

  std::optional<MoveRequest> req;
  if (a.charge) {
    if (a.moves.size() != 1) {
      v.add(warmaster::rule_id::initiative_charge, "a charge by initiative needs the charge move of the unit's stands");
      return v;
    }
    req = a.moves[0];
    req->mover = u.id;
    req->kind = MoveKind::Charge;
    req->charge_target = e.id;  // the charge may pass between the target's stands
    check_unit_move(*bf_, *req, v, scratch);
    if (!v.legal()) return v;
    check_charge_contact(*bf_, unit_after(u, *req), *req, e.id, settings(), v);
  } else if (a.moves.empty()) {
    req = plan_evade(*bf_, u, e, a.burst_through, settings(), &move_index(), &scratch);
    if (!req)
      v.add(warmaster::rule_id::initiative_evade,
            fmt::format("unit {} cannot evade {}: no straight move of {} to full pace ends at least {} from every "
                        "enemy and engaged unit on a clear path",
                        u.id, e.id, format_measure(kEvadeMinimum, "cm"), format_measure(kEvadeClearance, "cm")));
  } else if (a.moves.size() != 1) {
    v.add(warmaster::rule_id::initiative_evade, "an evade is one move of the unit's stands");
  } else {
    req = a.moves[0];
    MoveScenes scenes(&scratch);
    check_evade(*bf_, u, e, *req, a.burst_through, settings(), v, &move_index(), &scenes);
  }
  if (v.legal() && move_out) *move_out = req;
  return v;
}

std::optional<MoveRequest> CommandState::compute_evade(const std::string& unit, const std::string& enemy,
                                                       const std::vector<std::string>& burst_through) const {
  MoveScratch scratch;
  return compute_evade(unit, enemy, burst_through, scratch);
}

std::optional<MoveRequest> CommandState::compute_evade(const std::string& unit, const std::string& enemy,
                                                       const std::vector<std::string>& burst_through,
                                                       MoveScratch& scratch) const {
  const Unit* u = bf_->find_unit(unit);
  const Unit* e = bf_->find_unit(enemy);
  if (!u || !e) return std::nullopt;
  return plan_evade(*bf_, *u, *e, burst_through, settings(), &move_index(), &scratch);
}

// After a unit's stands are placed: a unit partly off the table leaves it and
// rolls on the off-table chart (the movement engine's resolve_off_table).
void CommandState::place_after_move(int ui, const MoveRequest& req, const MoveAnswer& answer, Dice& dice,
                                    nlohmann::json* result) {
  (void)req;
  const Unit& u = unit_at(ui);
  if (!answer.leaves_table && !any_stand_off_table(*bf_, u)) return;
  UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  const OffTableResult r = resolve_off_table(u, dice);
  if (result)
    (*result)["off_table"].push_back({{"unit", u.id}, {"roll", r.roll}, {"modified", r.modified},
                                      {"outcome", to_string(r.outcome)}, {"ruling", r.ruling}});
  std::vector<Stand> left = u.stands;
  Battlefield& bf = mutable_battlefield();
  Unit& mu = bf.units[static_cast<std::size_t>(ui)];
  switch (r.outcome) {
    case OffTableOutcome::Destroyed:
      s.destroyed = true;
      s.parked = left;
      mu.stands.clear();
      break;
    case OffTableOutcome::GoneRollNextTurn:
      s.off_table = true;
      s.parked = left;
      mu.stands.clear();
      break;
    case OffTableOutcome::ReturnsCannotMove:
      mu.stands = back_on_table(bf, mu, left, settings().contact_tolerance);
      s.frozen = true;
      break;
    case OffTableOutcome::ReturnsMayMove:
      mu.stands = back_on_table(bf, mu, left, settings().contact_tolerance);
      break;
  }
}

// A Hero or Wizard that left the table on a 1-2 rolls again at the start of
// its side's turn (docs/rulings.md#warmaster-command-characters-leaving-table): 1-2
// and it stays off; 3-4 and it is back where it left but makes no move this
// turn; 5-6 and it is back and may move. It may issue orders once back.
void CommandState::apply_character_return(int ci, Dice& dice, nlohmann::json* result) {
  CharacterStatus& cs = chars_[static_cast<std::size_t>(ci)];
  const Character& c = bf_->characters[static_cast<std::size_t>(ci)];
  const OffTableResult r = resolve_off_table(c.id, 0, dice);
  cs.returns_next_turn = false;
  if (result) {
    (*result)["roll"] = r.roll;
    (*result)["modified"] = r.modified;
    (*result)["outcome"] = to_string(r.outcome);
    (*result)["ruling"] = r.ruling;
  }
  if (r.outcome == OffTableOutcome::Destroyed || r.outcome == OffTableOutcome::GoneRollNextTurn) return;
  Battlefield& bf = mutable_battlefield();
  Character& mc = bf.characters[static_cast<std::size_t>(ci)];
  mc.pose.position = cs.return_point;
  cs.lost = false;
  cs.frozen = r.outcome == OffTableOutcome::ReturnsCannotMove;
  if (result) (*result)["returned_at"] = {mc.pose.position.x, mc.pose.position.y};
}

namespace {
// Facings are kept in [0, 360) everywhere (as the file parser gives them), so
// an action applied directly and the same action read back from a log give
// the same state.
Action canonical(const Action& in) {
  Action a = in;
  for (MoveRequest& r : a.moves)
    for (StandPlan& p : r.stands) {
      p.final_pose.facing_deg = normalize_degrees(p.final_pose.facing_deg);
      for (Pose& w : p.waypoints) w.facing_deg = normalize_degrees(w.facing_deg);
    }
  return a;
}
}  // namespace

ActionOutcome CommandState::apply(const Action& in, Dice& dice, Describe describe) {
  MoveScratch scratch;
  return apply(in, dice, describe, scratch);
}

ActionOutcome CommandState::apply(const Action& in, Dice& dice, Describe describe, MoveScratch& scratch) {
  Checked c = check(in, scratch, describe);
  ActionOutcome out;
  if (!c.verdict.legal()) {
    out.verdict = std::move(c.verdict);
    if (describe == Describe::Yes) out.result = nlohmann::json{{"refused", true}, {"violations", out.verdict.violations}};
    return out;
  }
  const std::size_t mark = dice.history().size();
  out.result = do_apply(std::move(c), dice, describe);
  out.rolls = dice.since(mark);
  return out;
}

CommandState::Checked CommandState::check(const Action& in, MoveScratch& scratch, Describe describe) const {
  Checked c;
  c.action = canonical(in);
  const Action& a = c.action;
  const CheckDepth depth = describe == Describe::Yes ? CheckDepth::Explain : CheckDepth::Legality;
  if (battle_over()) c.verdict = validate(a, scratch);
  else if (Verdict pv = validate_phase(a); !pv.legal()) c.verdict = std::move(pv);
  else if (a.type == ActionType::CharacterMove)
    c.verdict = validate_character_move(a, scratch, &c.character_answer, depth);
  else if (a.type == ActionType::Initiative) c.verdict = validate_initiative(a, scratch, &c.initiative_move);
  else if (a.type == ActionType::Move) c.verdict = validate_move(a, scratch, &c.move_plan, depth);
  else c.verdict = validate(a, scratch);
  return c;
}

nlohmann::json CommandState::do_apply(Checked&& c, Dice& dice, Describe describe) {
  const Action& a = c.action;
  std::optional<MoveRequest>& initiative_move = c.initiative_move;
  MovePlan& move_plan = c.move_plan;
  MoveAnswer& character_answer = c.character_answer;
  // Not described: the writes go to a scratch object only when cheap, and
  // the costly ones (moves, penalties, rulings) are skipped.
  const bool say = describe == Describe::Yes;
  nlohmann::json res;
  if (say) res = nlohmann::json::object();
  // Any action other than the move it allows ends a pending move: the units
  // that did not move stay where they are.
  if (a.type != ActionType::Move) pending_.reset();

  switch (a.type) {
    case ActionType::OffTableReturn: {
      if (!a.character.empty()) {
        apply_character_return(character_index(a.character), dice, say ? &res : nullptr);
        break;
      }
      const int ui = unit_index(a.unit);
      UnitStatus& s = units_[static_cast<std::size_t>(ui)];
      const OffTableResult r = resolve_off_table(unit_at(ui), dice);
      if (say) {
        res["roll"] = r.roll;
        res["modified"] = r.modified;
        res["outcome"] = to_string(r.outcome);
        res["ruling"] = r.ruling;
      }
      // A 1-2 waits off the table again: the flag is set anew when its
      // side's next Command phase begins.
      s.returns_next_turn = false;
      if (r.outcome == OffTableOutcome::Destroyed) {
        s.destroyed = true;
        s.off_table = false;
      } else if (r.outcome != OffTableOutcome::GoneRollNextTurn) {
        Battlefield& bf = mutable_battlefield();
        Unit& mu = bf.units[static_cast<std::size_t>(ui)];
        mu.stands = back_on_table(bf, mu, s.parked, settings().contact_tolerance);
        s.parked.clear();
        s.off_table = false;
        s.frozen = r.outcome == OffTableOutcome::ReturnsCannotMove;
        // Back where it left, it may be touching an enemy that has come up since.
        refresh_engaged();
      }
      break;
    }
    case ActionType::HomeBack: {
      const int ui = unit_index(a.unit);
      const int d6 = dice.d6("home back");
      units_[static_cast<std::size_t>(ui)].homed_back = true;
      pending_ = PendingMove{{ui}, MoveKind::Dice, 10.0 * d6, "home back", a.character};
      if (say) {
        res["roll"] = d6;
        res["distance"] = 10.0 * d6;
      }
      break;
    }
    case ActionType::Initiative: {
      const int ui = unit_index(a.unit);
      const MoveRequest& req = *initiative_move;
      Battlefield& bf = mutable_battlefield();
      place_move(bf, req);
      UnitStatus& s = units_[static_cast<std::size_t>(ui)];
      s.used_initiative = s.moved = true;
      if (say) res["move"] = to_json(req);
      if (a.charge) {
        s.charged = true;
      } else {
        for (const std::string& id : a.burst_through) {
          bf.find_unit(id)->confused = true;
          if (say) res["confused"].push_back(id);
        }
      }
      MoveAnswer none;
      place_after_move(ui, req, none, dice, say ? &res : nullptr);
      // A charge engages the units it touches, unless it left the table.
      if (a.charge) refresh_engaged();
      break;
    }
    case ActionType::Order: {
      if (!orders_begun_) {
        brigade_touching_ = touching_now();
        orders_begun_ = true;
        step_ = CommandStep::Orders;
      }
      const int ci = character_index(a.character);
      if (!active_character_.empty() && active_character_ != a.character) {
        const int prev = character_index(active_character_);
        if (prev >= 0) chars_[static_cast<std::size_t>(prev)].finished = true;
        for (int ui : family_) units_[static_cast<std::size_t>(ui)].finished = true;
        family_.clear();
        last_group_.clear();
      }
      active_character_ = a.character;
      std::vector<int> group;
      for (const std::string& id : a.units) group.push_back(unit_index(id));
      bool continuing = !family_.empty() && std::all_of(group.begin(), group.end(), [&](int ui) {
        return std::find(family_.begin(), family_.end(), ui) != family_.end();
      });
      if (!continuing) {
        for (int ui : family_) units_[static_cast<std::size_t>(ui)].finished = true;
        family_ = group;
      } else {
        const bool disjoint = std::none_of(group.begin(), group.end(), [&](int ui) {
          return std::find(last_group_.begin(), last_group_.end(), ui) != last_group_.end();
        });
        // A brigade divided after moving: finish one part, then the next.
        if (disjoint)
          for (int ui : last_group_) units_[static_cast<std::size_t>(ui)].finished = true;
      }
      last_group_ = group;
      // Validated already: only the factors are measured again, and the
      // penalties are written out only when the result is described.
      const OrderFactors factors = *order_factors_now(a.character, a.units);
      const std::optional<OrderTarget> target = say ? std::optional<OrderTarget>(order_target(factors)) : std::nullopt;
      const int needed = target ? target->needed : order_needed(factors);
      const int a1 = dice.d6("order test");
      const int a2 = dice.d6("order test");
      const bool passed = a1 + a2 <= needed;
      CharacterStatus& cs = chars_[static_cast<std::size_t>(ci)];
      cs.orders_issued += 1;
      cs.first_order_given = true;
      for (int ui : group) {
        units_[static_cast<std::size_t>(ui)].orders += 1;
        units_[static_cast<std::size_t>(ui)].ordered_by = a.character;
      }
      std::optional<MoveKind> kind;
      std::string allows;
      if (passed) {
        kind = MoveKind::Ordered;
        allows = "full pace";
      } else {
        cs.failed = true;
        if (bf_->characters[static_cast<std::size_t>(ci)].role == CharacterRole::General) general_failed_ = true;
        if (factors.previous_orders == 0 && settings().failed_first_order_moves_half_pace) {
          kind = MoveKind::HalfPace;
          allows = "half pace, no charge";
        } else {
          allows = "no move";
        }
      }
      pending_ = PendingMove{group, kind, 0, "order", {}};
      if (say) {
        res["dice"] = {a1, a2};
        res["total"] = a1 + a2;
        res["needed"] = needed;
        res["command"] = target->effective_command;
        nlohmann::json pen = nlohmann::json::array();
        for (const CommandPenalty& p : target->penalties)
          pen.push_back({{"rule", p.rule}, {"name", p.name}, {"value", p.value}, {"reason", p.reason}});
        res["penalties"] = pen;
        res["passed"] = passed;
        res["allows"] = allows;
        if (!passed) res["ruling"] = Ruling{warmaster::rule_id::command_failed_order,
                                           fmt::format("rolled {} against {} or less: {} fails; {}", a1 + a2,
                                                       needed, a.character,
                                                       general_failed_ ? "the General has failed, so no more orders"
                                                                       : "that character issues no more orders"),
                                           {{"rolled", static_cast<double>(a1 + a2), ""},
                                            {"needed", static_cast<double>(needed), ""}}};
      }
      break;
    }
    case ActionType::Move: {
      const PendingMove p = *pending_;
      pending_.reset();
      if (a.moves.empty()) {
        if (say) res["held"] = true;
        break;
      }
      // The battlefield after every move was worked out while validating.
      if (move_plan.after) replace_battlefield(std::move(move_plan.after));
      else
        for (const MoveRequest& req : move_plan.requests) place_move(mutable_battlefield(), req);
      for (std::size_t k = 0; k < move_plan.requests.size(); ++k) {
        const MoveRequest& req = move_plan.requests[k];
        const int ui = unit_index(req.mover);
        UnitStatus& s = units_[static_cast<std::size_t>(ui)];
        s.moved = true;
        if (req.kind == MoveKind::Charge) s.charged = true;
        if (say) res["moves"].push_back(to_json(req));
        place_after_move(ui, req, move_plan.answers[k], dice, say ? &res : nullptr);
        if (req.kind == MoveKind::Charge) refresh_engaged();
      }
      break;
    }
    case ActionType::EndOrders: {
      step_ = CommandStep::Characters;
      if (const int ci = character_index(active_character_); ci >= 0) chars_[static_cast<std::size_t>(ci)].finished = true;
      break;
    }
    case ActionType::CharacterMove: {
      const int ci = character_index(a.character);
      MoveRequest req = a.moves[0];
      req.mover = a.character;
      req.kind = MoveKind::Character;
      const Vec2 start_position = bf_->characters[static_cast<std::size_t>(ci)].pose.position;
      const MoveAnswer& ans = character_answer;
      Battlefield& bf = mutable_battlefield();
      place_move(bf, req);
      Character& c = bf.characters[static_cast<std::size_t>(ci)];
      c.joined_unit = a.join;
      chars_[static_cast<std::size_t>(ci)].moved = true;
      if (say) res["move"] = to_json(req);
      // Movement text, "Units which move off the table": a character that
      // joined a unit shares the unit's fate (its unit rolls); one on its own
      // rolls the same D6 chart. Reading
      // (docs/rulings.md#warmaster-command-characters-leaving-table): 2 or
      // less and it is lost for the
      // rest of the game (the 1-2 re-roll is not modelled for characters);
      // 3-6 and it is put back at once at the point of the edge where it left.
      if (ans.leaves_table) {
        const OffTableResult r = resolve_off_table(c.id, 0, dice);
        if (say) res["off_table"] = {{"roll", r.roll}, {"outcome", to_string(r.outcome)}, {"ruling", r.ruling}};
        const bool gone = r.outcome == OffTableOutcome::Destroyed || r.outcome == OffTableOutcome::GoneRollNextTurn;
        if (gone) {
          chars_[static_cast<std::size_t>(ci)].lost = true;
          chars_[static_cast<std::size_t>(ci)].return_point = edge_where_left(bf, c, start_position);
          if (say) res["off_table"]["lost"] = true;
          if (c.role == CharacterRole::General)
            end_battle(fmt::format("the General {} left the table and did not return at once: his army withdraws",
                                   c.id),
                       1 - c.side, say ? &res : nullptr);
        } else {
          c.pose.position = edge_where_left(bf, c, start_position);
          if (say) res["off_table"]["returned_at"] = {c.pose.position.x, c.pose.position.y};
        }
      }
      break;
    }
    case ActionType::EndPhase: {
      if (phase_ == Phase::Combat) {
        resolve_combat_phase(a.decisions, dice, say ? &res : nullptr);
        pass_turn(say ? &res : nullptr);
        break;
      }
      // Confused units recover at the end of their own Command phase
      // (public facts, "Confusion"); the side's Shooting phase follows.
      bool any_confused = false;
      for (const Unit& u : bf_->units) any_confused |= u.side == side_ && u.confused;
      if (any_confused) {
        Battlefield& bf = mutable_battlefield();
        for (Unit& u : bf.units)
          if (u.side == side_ && u.confused) {
            u.confused = false;
            if (say) res["recovered"].push_back(u.id);
          }
      }
      phase_ = Phase::Shooting;
      step_ = CommandStep::Characters;
      refresh_engaged();
      break;
    }
    case ActionType::Shoot: {
      apply_shooting(a.targets, dice, say ? &res : nullptr);
      phase_ = Phase::Combat;
      refresh_engaged();
      break;
    }
  }
  if (!battle_over()) check_break_points(say ? &res : nullptr);
  // What comes next, after an action that ends a phase.
  if (say && (a.type == ActionType::EndPhase || a.type == ActionType::Shoot))
    res["next"] = battle_over() ? std::string("the battle is over")
                                : fmt::format("turn {}, side {}: {} phase", turn_, side_, to_string(phase_));
  return res;
}

void CommandState::end_battle(const std::string& reason, int winner, nlohmann::json* result) {
  battle_over_reason_ = reason;
  winner_ = winner;
  if (result) {
    (*result)["battle_over"] = reason;
    (*result)["winner"] = winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner);
  }
}

// docs/rulings.md#warmaster-break-point: an army that has lost its break
// point in units withdraws at once, and the battle ends. Both at once (the
// texts never say how) is a draw.
void CommandState::check_break_points(nlohmann::json* result) {
  bool broken[2] = {false, false};
  int lost[2] = {0, 0}, points[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    lost[side] = units_lost(side);
    points[side] = break_point(side);
    broken[side] = points[side] > 0 && lost[side] >= points[side];
  }
  if (!broken[0] && !broken[1]) return;
  auto army = [&](int side) {
    const std::vector<Army>& armies = bf_->armies;
    return static_cast<std::size_t>(side) < armies.size() && !armies[static_cast<std::size_t>(side)].name.empty()
               ? armies[static_cast<std::size_t>(side)].name
               : fmt::format("army {}", side);
  };
  auto says = [&](int side) {
    int units = 0;
    for (const Unit& u : game_->start.units) units += u.side == side && !u.stands.empty();
    return fmt::format("{} has lost {} {} of {}, reaching its break point of {}: it withdraws", army(side),
                       lost[side], lost[side] == 1 ? "unit" : "units", units, points[side]);
  };
  if (broken[0] && broken[1]) end_battle(says(0) + "; " + says(1), -1, result);
  else end_battle(says(broken[0] ? 0 : 1), broken[0] ? 1 : 0, result);
}

// Side 0 moves first, so a turn is complete when side 1's Combat phase ends
// (docs/rulings.md#warmaster-turn-limit). The clock still moves on, so the
// state shows the turn that will not be played.
void CommandState::pass_turn(nlohmann::json* result) {
  side_ = 1 - side_;
  if (side_ == 0) ++turn_;
  phase_ = Phase::Command;
  begin_phase();
  if (side_ == 0 && turn_ > settings().turn_limit) {
    // docs/rulings.md#warmaster-end-of-battle: at the turn limit, the side
    // that has destroyed more enemy units wins; as many is a draw.
    const int lost0 = units_lost(0), lost1 = units_lost(1);
    const int winner = lost0 == lost1 ? -1 : lost0 > lost1 ? 1 : 0;
    end_battle(fmt::format("turn limit ({} turns): units lost {} to {}{}", settings().turn_limit, lost0, lost1,
                           winner < 0 ? ", a draw" : ""),
               winner, result);
  }
}

// The side's Combat phase (combat.hpp) on the current battlefield, with the
// units that charged this turn, and what it did carried into the state as
// apply_shooting does: resolve_combat drops the units it destroys and those
// that leave the table from its battlefield, while the state keeps every
// unit in its place with its status, and every character by id.
// The decisions are standing orders for the whole phase, for units of either
// side, taken as given: resolve_combat rules on one that does not fit what
// happens (docs/rulings.md#warmaster-combat-decisions).
void CommandState::resolve_combat_phase(const std::vector<CombatDecision>& decisions, Dice& dice,
                                        nlohmann::json* result) {
  CombatOptions options;
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (units_[i].charged) options.charged.push_back(bf_->units[i].id);
  options.decisions = decisions;
  CombatReport r = resolve_combat(*bf_, side_, dice, options, settings());
  if (result) {
    to_json((*result)["combats"], r);
    (*result)["text"] = explain(r);
  }
  if (r.engagements.empty()) return;  // nothing fought: the battlefield is as it was
  auto next = std::make_shared<Battlefield>(*bf_);
  for (std::size_t i = 0; i < next->units.size(); ++i) {
    Unit& u = next->units[i];
    if (u.stands.empty()) continue;  // already off the table or destroyed
    if (const Unit* after = r.after.find_unit(u.id)) {
      u = *after;
      continue;
    }
    UnitStatus& st = units_[i];
    const CombatMove* left = nullptr;
    for (const CombatRound& round : r.rounds)
      for (const CombatMove& m : round.moves)
        if (m.unit == u.id && m.left_table && m.off_table) left = &m;
    u.engaged = u.confused = false;
    if (left == nullptr || left->destroyed || left->off_table->outcome == OffTableOutcome::Destroyed) {
      // Destroyed: by its casualties, as artillery that had to retreat, or
      // retreating over the table edge.
      for (const CombatRound& round : r.rounds)
        for (const CombatCasualties& c : round.casualties)
          if (c.unit == u.id) u.stands_lost += c.stands_removed;
      u.stands.clear();
      st.destroyed = true;
      continue;
    }
    // A fall back, pursuit or advance off the table rolled on the chart
    // (docs/rulings.md#warmaster-combat-off-table-return): on 1-2 it waits
    // off the table; on 3 or more it comes back where it stood before the
    // phase, the nearest the stands of the table can say to where it left.
    if (left->off_table->outcome == OffTableOutcome::GoneRollNextTurn) {
      st.off_table = true;
      st.parked = u.stands;
      u.stands.clear();
    } else {
      u.stands = back_on_table(*next, u, u.stands, settings().contact_tolerance);
    }
  }
  // Characters by id: those that left the table with their unit are lost.
  for (std::size_t i = 0; i < next->characters.size(); ++i) {
    Character& c = next->characters[i];
    const auto it = std::find_if(r.after.characters.begin(), r.after.characters.end(),
                                 [&](const Character& a) { return a.id == c.id; });
    if (it != r.after.characters.end()) {
      c = *it;
    } else if (!chars_[i].lost) {
      chars_[i].lost = true;
      chars_[i].return_point = c.pose.position;
      if (c.role == CharacterRole::General)
        end_battle(fmt::format("the General {} left the table with his unit: his army withdraws", c.id), 1 - c.side,
                   result);
    }
  }
  replace_battlefield(std::move(next));
}

// The side's Shooting phase (shooting.hpp) on the current battlefield, and
// what it did carried into the state: resolve_shooting removes the units it
// destroys, routs or drives off the table from its battlefield, while the
// state keeps every unit in its place with its status.
void CommandState::apply_shooting(const std::vector<TargetChoice>& choices, Dice& dice, nlohmann::json* result) {
  ShootingResult r = resolve_shooting(*bf_, side_, dice, settings(), choices);
  if (result) {
    to_json(*result, r);
    (*result)["text"] = explain(r);
  }
  if (r.shots.empty() && r.drive_backs.empty()) return;  // nothing shot: the battlefield is as it was
  auto next = std::make_shared<Battlefield>(*bf_);
  next->characters = r.after.characters;
  for (std::size_t i = 0; i < next->units.size(); ++i) {
    Unit& u = next->units[i];
    if (const Unit* after = r.after.find_unit(u.id)) {
      u = *after;
      continue;
    }
    const auto cas = std::find_if(r.casualties.begin(), r.casualties.end(),
                                  [&](const ShootingResult::Casualties& c) { return c.unit == u.id; });
    const auto db = std::find_if(r.drive_backs.begin(), r.drive_backs.end(),
                                 [&](const DriveBack& d) { return d.unit == u.id; });
    if (cas == r.casualties.end()) continue;  // not shot at: still there (cannot happen)
    u.stands_lost += std::min(cas->stands_removed, static_cast<int>(u.stands.size()));
    UnitStatus& st = units_[i];
    u.engaged = u.confused = false;
    if (cas->destroyed || db == r.drive_backs.end() || !db->left_table || !db->off_table ||
        db->off_table->outcome == OffTableOutcome::Destroyed) {
      // Destroyed by its casualties, routed, or driven off the table on 0 or less.
      u.stands.clear();
      st.destroyed = true;
      continue;
    }
    // Driven off the table (docs/rulings.md#warmaster-shooting-off-table): on
    // 1-2 (the chart's roll less the stands lost) it waits off the table and
    // rolls again at the start of its side's next turn; on 3 or more it comes
    // back at the point it left when the phase ends.
    if (db->off_table->outcome == OffTableOutcome::GoneRollNextTurn) {
      u.stands.clear();
      st.off_table = true;
      st.parked = db->left_at;
    } else {
      u.stands = back_on_table(*next, u, db->left_at, settings().contact_tolerance);
      if (db->confused) u.confused = true;
    }
  }
  replace_battlefield(std::move(next));
}

}  // namespace referee::warmaster
