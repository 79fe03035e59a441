// Applying command-phase actions, and the initiative checks that need the
// game state (the rules themselves are in initiative.cpp).
#include <algorithm>
#include "referee/warmaster/model/rule_ids.hpp"
#include <cmath>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
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

}  // namespace

namespace validate_initiative_parts {

// Enemies the player chooses to ignore: fortified infantry and artillery,
// and enemies cut off by a barrier neither side can go round.
void validate_initiative_ignores(const WarmasterState& st, const Action& a, const Unit& u, const Unit& e,
                                 MoveScratch& scratch, Verdict& v) {
  for (const std::string& id : a.ignore) {
    const Unit* x = st.battlefield().find_unit(id);
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
    if (cut_off_by_barrier(st.battlefield(), u, *x, st.settings(), &scratch)) continue;
    v.add(warmaster::rule_id::initiative_ignore,
          fmt::format("{} may not be ignored: only fortified infantry or artillery, or enemies cut off by a barrier "
                      "neither unit can go round within a full pace move",
                      id));
  }
}

// Initiative acts on the closest visible enemy within range, not counting
// those ignored: false, with the violation, when the target is not it.
bool validate_initiative_target(const WarmasterState& st, const Action& a, const Unit& u, const Unit& e,
                                MoveScratch& scratch, Verdict& v) {
  const std::vector<InitiativeCandidate>& cands = st.initiative_targets(u.id, a.charge, scratch);
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
    return false;
  }
  if (!target->visible) {
    v.add(warmaster::rule_id::initiative_sight,
          fmt::format("unit {} cannot see {} from {} (blocked by {})", u.id, e.id,
                      a.charge || !u.sees_all_round ? "a front edge" : "any free edge",
                      target->blocked_by.empty() ? "nothing clear" : target->blocked_by));
    return false;
  }
  if (closest && to_hundredths_of_mm(closest->distance) < to_hundredths_of_mm(target->distance)) {
    v.add(warmaster::rule_id::initiative_closest,
          fmt::format("{} is {} away but {} is closer ({}): initiative acts on the closest visible enemy", e.id,
                      format_compared(target->distance, closest->distance, "cm").value, closest->enemy,
                      format_compared(target->distance, closest->distance, "cm").limit),
          {{"target", target->distance, "cm"}, {"closest", closest->distance, "cm"}});
    return false;
  }
  return true;
}

}  // namespace validate_initiative_parts

Verdict WarmasterState::validate_initiative(const Action& a, MoveScratch& scratch,
                                          std::optional<MoveRequest>* move_out) const {
  Verdict v;
  require_no_pending_returns(v);
  if (command_.step != CommandStep::Initiative || command_.orders_begun)
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

  validate_initiative_parts::validate_initiative_ignores(*this, a, u, e, scratch, v);
  if (!v.legal()) return v;

  if (!validate_initiative_parts::validate_initiative_target(*this, a, u, e, scratch, v)) return v;

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

std::optional<MoveRequest> WarmasterState::compute_evade(const std::string& unit, const std::string& enemy,
                                                       const std::vector<std::string>& burst_through) const {
  MoveScratch scratch;
  return compute_evade(unit, enemy, burst_through, scratch);
}

std::optional<MoveRequest> WarmasterState::compute_evade(const std::string& unit, const std::string& enemy,
                                                       const std::vector<std::string>& burst_through,
                                                       MoveScratch& scratch) const {
  const Unit* u = bf_->find_unit(unit);
  const Unit* e = bf_->find_unit(enemy);
  if (!u || !e) return std::nullopt;
  return plan_evade(*bf_, *u, *e, burst_through, settings(), &move_index(), &scratch);
}

// After a unit's stands are placed: a unit partly off the table leaves it and
// rolls on the off-table chart (the movement engine's resolve_off_table).
// --- Applying: one function per rule -------------------------------------------

// After a unit's stands are placed: a unit partly off the table leaves it and
// rolls on the off-table chart (the movement engine's resolve_off_table).
std::optional<UnitLeftTable> WarmasterState::place_after_move(int ui, const MoveAnswer& answer, Dice& dice) {
  const Unit& u = unit_at(ui);
  if (!answer.leaves_table && !any_stand_off_table(*bf_, u)) return std::nullopt;
  UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  UnitLeftTable out{ui, resolve_off_table(u, dice)};
  std::vector<Stand> left = u.stands;
  Battlefield& bf = mutable_battlefield();
  Unit& mu = bf.units[static_cast<std::size_t>(ui)];
  switch (out.roll.outcome) {
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
  // Back where it left, it may be touching an enemy (an evader returning
  // beside the unit it fled, say): it is then engaged, as after a charge.
  if (out.roll.outcome == OffTableOutcome::ReturnsCannotMove || out.roll.outcome == OffTableOutcome::ReturnsMayMove)
    refresh_engaged();
  return out;
}

// A unit that left the table on a 1-2 rolls again at the start of its side's
// turn (docs/rulings.md#warmaster-command-off-the-table).
OffTableResult WarmasterState::return_unit(int ui, Dice& dice) {
  UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  OffTableResult r = resolve_off_table(unit_at(ui), dice);
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
  return r;
}

// A Hero or Wizard that left the table on a 1-2 rolls again at the start of
// its side's turn (docs/rulings.md#warmaster-command-characters-leaving-table): 1-2
// and it stays off; 3-4 and it is back where it left but makes no move this
// turn; 5-6 and it is back and may move. It may issue orders once back.
CharacterOffTable WarmasterState::return_character(int ci, Dice& dice) {
  CharacterStatus& cs = chars_[static_cast<std::size_t>(ci)];
  CharacterOffTable out;
  const OffTableResult& r = *(out.roll = resolve_off_table(bf_->characters[static_cast<std::size_t>(ci)].id, 0, dice));
  cs.returns_next_turn = false;
  if (r.outcome == OffTableOutcome::Destroyed || r.outcome == OffTableOutcome::GoneRollNextTurn) return out;
  Battlefield& bf = mutable_battlefield();
  Character& mc = bf.characters[static_cast<std::size_t>(ci)];
  mc.pose.position = cs.return_point;
  cs.lost = false;
  cs.frozen = r.outcome == OffTableOutcome::ReturnsCannotMove;
  out.returned_at = mc.pose.position;
  return out;
}

// Home back (a flyer returning to a character): the D6 rolled sets the
// distance of the move it allows.
int WarmasterState::home_back(int ui, const std::string& character, Dice& dice) {
  const int d6 = dice.d6("home back");
  units_[static_cast<std::size_t>(ui)].homed_back = true;
  command_.pending = PendingMove{{ui}, MoveKind::Dice, 10.0 * d6, "home back", character};
  return d6;
}

// A charge or an evade by initiative, with the move checked (the engine's,
// for an evade left to it); an evade confuses the friends it bursts through.
std::optional<UnitLeftTable> WarmasterState::move_by_initiative(const Action& a, const MoveRequest& req, Dice& dice) {
  const int ui = unit_index(a.unit);
  Battlefield& bf = mutable_battlefield();
  place_move(bf, req);
  UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  s.used_initiative = s.moved = true;
  if (a.charge) s.charged = true;
  else
    for (const std::string& id : a.burst_through) bf.find_unit(id)->confused = true;
  std::optional<UnitLeftTable> left = place_after_move(ui, MoveAnswer{}, dice);
  // A charge engages the units it touches, unless it left the table.
  if (a.charge) refresh_engaged();
  return left;
}

// Which units may still be ordered after this order: a character's orders
// end when another begins; a unit or brigade's when another is ordered; a
// brigade divided after moving finishes one part, then the next.
void WarmasterState::follow_orders(const std::string& character, const std::vector<int>& group) {
  if (!command_.active_character.empty() && command_.active_character != character) {
    const int prev = character_index(command_.active_character);
    if (prev >= 0) chars_[static_cast<std::size_t>(prev)].finished = true;
    for (int ui : command_.family) units_[static_cast<std::size_t>(ui)].finished = true;
    command_.family.clear();
    command_.last_group.clear();
  }
  command_.active_character = character;
  const bool continuing = !command_.family.empty() && std::all_of(group.begin(), group.end(), [&](int ui) {
    return std::find(command_.family.begin(), command_.family.end(), ui) != command_.family.end();
  });
  if (!continuing) {
    for (int ui : command_.family) units_[static_cast<std::size_t>(ui)].finished = true;
    command_.family = group;
  } else {
    const bool disjoint = std::none_of(group.begin(), group.end(), [&](int ui) {
      return std::find(command_.last_group.begin(), command_.last_group.end(), ui) != command_.last_group.end();
    });
    if (disjoint)
      for (int ui : command_.last_group) units_[static_cast<std::size_t>(ui)].finished = true;
  }
  command_.last_group = group;
}

// docs/rulings.md#warmaster-command-blunders: a Hero or Wizard (never the General) rolling 12.
bool WarmasterState::blunders(const Character& c, const OrderRolled& t) const {
  return settings().blunders && c.role != CharacterRole::General && t.dice[0] + t.dice[1] == 12;
}

namespace {

// Would `u` shifted by `shift` touch an enemy unit?
bool blunder_touches_enemy(const Battlefield& bf, const Unit& u, Vec2 shift, double tolerance) {
  Unit moved = u;
  for (Stand& st : moved.stands) st.pose.position += shift;
  return !enemies_in_contact(bf, moved, tolerance).empty();
}

std::string blunder_cm(double v) { return format_measure(v, "cm"); }

// The enemy unit closest to any unit of `group` (indices into bf.units) among
// those `counts(unit, enemy, distance)` admits, and the unit of the group
// nearest it; -1 and -1 for none. The first found wins a tie; `counts` is
// asked only of an enemy closer than the best so far.
template <typename Counts>
std::pair<int, int> closest_enemy(const Battlefield& bf, const std::vector<int>& group, Counts counts) {
  int enemy = -1, by = -1;
  double closest = 0;
  for (int ui : group) {
    const Unit& u = bf.units[static_cast<std::size_t>(ui)];
    if (u.stands.empty()) continue;
    for (std::size_t k = 0; k < bf.units.size(); ++k) {
      const Unit& e = bf.units[k];
      if (e.side == u.side || e.stands.empty()) continue;
      const double d = unit_distance(u, e).distance;
      if ((enemy >= 0 && d >= closest) || !counts(u, e, d)) continue;
      enemy = static_cast<int>(k);
      by = ui;
      closest = d;
    }
  }
  return {enemy, by};
}

// The blunder's outcome in words, with the figures of every move made.
std::string blunder_moves_text(const OrderRolled& t) {
  std::vector<std::string> parts;
  for (const BlunderMove& m : t.blunder_moves) {
    std::string p;
    if (std::string_view(m.how) == "charge")
      p = fmt::format("{} charges {}, the nearest enemy ({} away), lined up edge to edge ({} moved)", m.unit, m.enemy,
                      blunder_cm(m.before), blunder_cm(m.moved));
    else if (std::string_view(m.how) == "retreat")
      p = fmt::format("{} retreats {} directly away from {}, the closest visible enemy ({} away, within a full pace "
                      "of {}): now {} away",
                      m.unit, blunder_cm(m.moved), m.enemy, blunder_cm(m.before), blunder_cm(m.pace),
                      blunder_cm(m.after));
    else
      p = fmt::format("{} cannot charge {}, the nearest enemy ({} away): it moves {} straight towards it, now {} away",
                      m.unit, m.enemy, blunder_cm(m.before), blunder_cm(m.moved), blunder_cm(m.after));
    if (m.blocked) p += fmt::format(" (cut short of its {}: {})", blunder_cm(m.pace), m.why);
    parts.push_back(std::move(p));
  }
  // The chart's ruling names the unit.
  for (const UnitLeftTable& l : t.blunder_left) parts.push_back(l.roll.ruling.reason);
  return fmt::format("{}", fmt::join(parts, "; "));
}
}  // namespace

// The blunder table's D6 (docs/rulings.md#warmaster-command-blunders): 1 no
// move and -1 Command for the rest of the game; 2-3 halt, or the retreat
// from a visible enemy within a full pace, made here; 4-5 half pace, no
// charge, left pending; 6 the move towards the nearest enemy, made here.
std::optional<MoveKind> WarmasterState::blunder_move(OrderRolled& t, const std::vector<int>& group, Dice& dice) {
  t.blunder = dice.d6("blunder");
  std::optional<MoveKind> kind;
  if (t.blunder == 1) {
    for (int ui : group) units_[static_cast<std::size_t>(ui)].blunder_penalty += 1;
    t.allows = "no move; -1 Command on orders for the rest of the game";
  } else if (t.blunder <= 3) {
    blunder_retreat(t, group, dice);
  } else if (t.blunder <= 5) {
    t.allows = "half pace, no charge";
    kind = MoveKind::HalfPace;
  } else {
    blunder_towards(t, group, dice);
  }
  if (t.blunder_text.empty()) t.blunder_text = t.blunder_moves.empty() ? t.allows : blunder_moves_text(t);
  return kind;
}

// 2-3: the closest enemy within a full pace (of the unit measuring) that one
// of the group's units sees (from any free edge for a unit that sees all
// round, as an evade); none, and it halts. Otherwise the group retreats as
// one body directly away from it, by a full pace (the smallest of a
// brigade's), which leaves it at least a full pace away
// (docs/rulings.md#warmaster-command-blunders).
void WarmasterState::blunder_retreat(OrderRolled& t, const std::vector<int>& group, Dice& dice) {
  const auto [from, by] = closest_enemy(*bf_, group, [&](const Unit& u, const Unit& e, double d) {
    return to_hundredths_of_mm(d) <= to_hundredths_of_mm(full_pace(u)) &&
           line_of_sight(*bf_, u, e, settings(), !u.sees_all_round).visible;
  });
  if (from < 0) {
    t.allows = "halt: no move";
    t.blunder_text = "halt: no visible enemy within a full pace move, so no move";
    return;
  }
  t.allows = "retreat a full pace directly away from the closest visible enemy";
  body_move(t, group, from, direction_between(unit_at(from), unit_at(by)), "retreat", dice);
}

// 6: the nearest enemy unit to any of the group's units, seen or not. Each
// unit, nearest first, charges it where the lined-up charge planner finds a
// legal charge (as initiative's charges); the others move as one body a full
// pace (the smallest of theirs) straight towards it, stopping short of
// contact (docs/rulings.md#warmaster-command-blunders).
void WarmasterState::blunder_towards(OrderRolled& t, const std::vector<int>& group, Dice& dice) {
  t.allows = "full pace towards the nearest enemy, charging if it can";
  const int target = closest_enemy(*bf_, group, [](const Unit&, const Unit&, double) { return true; }).first;
  if (target < 0) {
    t.blunder_text = "no enemy on the table: no move";
    return;
  }
  std::vector<int> order;
  for (int ui : group)
    if (!unit_at(ui).stands.empty()) order.push_back(ui);
  std::vector<double> dist(bf_->units.size(), 0);
  for (int ui : order) dist[static_cast<std::size_t>(ui)] = unit_distance(unit_at(ui), unit_at(target)).distance;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return dist[static_cast<std::size_t>(a)] < dist[static_cast<std::size_t>(b)]; });
  std::vector<int> body;
  for (int ui : order) {
    const Unit& u = unit_at(ui);
    const Unit& e = unit_at(target);
    const MoveIndex index(*bf_);
    MoveScratch scratch;
    std::optional<MoveRequest> req = plan_lined_up_charge(*bf_, u, e, settings(), &index, &scratch);
    if (req) {
      Verdict v;
      check_charge_contact(*bf_, unit_after(u, *req), *req, e.id, settings(), v);
      if (!v.legal()) req.reset();
    }
    if (req) blunder_charge(t, ui, target, dice, std::move(*req));
    else body.push_back(ui);
  }
  if (!body.empty())
    body_move(t, body, target, direction_between(unit_at(body.front()), unit_at(target)), "towards", dice);
}

void WarmasterState::blunder_charge(OrderRolled& t, int ui, int enemy, Dice& dice, MoveRequest&& req) {
  const Unit& u = unit_at(ui);
  BlunderMove m;
  m.unit = u.id;
  m.how = "charge";
  m.enemy = unit_at(enemy).id;
  m.pace = full_pace(u);
  m.before = unit_distance(u, unit_at(enemy)).distance;
  for (const StandPlan& p : req.stands)
    m.moved = std::max(m.moved, length(p.final_pose.position - u.stands[p.stand.slot()].pose.position));
  m.move = std::move(req);
  place_move(mutable_battlefield(), m.move);
  UnitStatus& s = units_[static_cast<std::size_t>(ui)];
  s.moved = s.charged = true;
  m.after = unit_distance(unit_at(ui), unit_at(enemy)).distance;
  if (std::optional<UnitLeftTable> l = place_after_move(ui, MoveAnswer{}, dice))
    t.blunder_left.push_back(std::move(*l));
  refresh_engaged();
  t.blunder_moves.push_back(std::move(m));
}

// Units moved as one body straight along `dir` by the smallest full pace
// among them, each through the move checker as a drive back is
// (push_straight): the one furthest along the way first, each cut short where
// blocked (to 0.01 cm), and over the table edge, off it with a roll on the
// chart (docs/rulings.md#warmaster-command-blunders). Not being charges,
// the moves stop short of contact with any enemy.
void WarmasterState::body_move(OrderRolled& t, std::vector<int> body, int enemy, Vec2 dir, const char* how, Dice& dice) {
  std::erase_if(body, [&](int ui) { return unit_at(ui).stands.empty(); });
  if (body.empty()) return;
  double pace = full_pace(unit_at(body.front()));
  for (int ui : body) pace = std::min(pace, full_pace(unit_at(ui)));
  std::vector<double> lead(bf_->units.size(), -1e300);
  for (int ui : body)
    for (const Stand& st : unit_at(ui).stands)
      lead[static_cast<std::size_t>(ui)] = std::max(lead[static_cast<std::size_t>(ui)], dot(st.pose.position, dir));
  std::stable_sort(body.begin(), body.end(),
                   [&](int a, int b) { return lead[static_cast<std::size_t>(a)] > lead[static_cast<std::size_t>(b)]; });
  const double tol = settings().contact_tolerance;
  for (int ui : body) {
    const Unit& u = unit_at(ui);
    BlunderMove m;
    m.unit = u.id;
    m.how = how;
    m.enemy = unit_at(enemy).id;
    m.pace = pace;
    m.before = unit_distance(u, unit_at(enemy)).distance;
    const MoveIndex index(*bf_);
    MoveScratch scratch;
    const StraightPush push = push_straight(*bf_, index, u, dir, pace, settings(), scratch);
    m.moved = push.moved;
    m.blocked = push.blocked;
    m.why = push.why;
    if (!push.leaves_table && blunder_touches_enemy(*bf_, u, dir * m.moved, tol)) {
      double lo = 0, hi = m.moved;
      while (hi - lo > 0.01) {
        const double mid = (lo + hi) / 2;
        (blunder_touches_enemy(*bf_, u, dir * mid, tol) ? hi : lo) = mid;
      }
      m.moved = lo;
      m.blocked = true;
      m.why = "it stops short of contact with an enemy: a move into contact is a charge";
    }
    m.move = slide_move(u, dir * m.moved, MoveKind::Dice, m.moved);
    place_move(mutable_battlefield(), m.move);
    if (m.moved > 0) units_[static_cast<std::size_t>(ui)].moved = true;
    m.after = unit_distance(unit_at(ui), unit_at(enemy)).distance;
    MoveAnswer answer;
    answer.leaves_table = push.leaves_table;
    if (std::optional<UnitLeftTable> l = place_after_move(ui, answer, dice)) t.blunder_left.push_back(std::move(*l));
    t.blunder_moves.push_back(std::move(m));
  }
}

// An order: the first of the phase begins ordered movement (its brigades are
// those touching now), then the test on 2D6, whose move is left pending.
OrderRolled WarmasterState::give_order(const Action& a, std::vector<std::vector<int>>&& touching, Dice& dice) {
  if (!command_.orders_begun) {
    // From check(); measured here for a Checked made without it.
    command_.brigade_touching = touching.empty() && !bf_->units.empty() ? measure_touching() : std::move(touching);
    command_.orders_begun = true;
    command_.step = CommandStep::Orders;
  }
  const int ci = character_index(a.character);
  std::vector<int> group;
  for (const std::string& id : a.units) group.push_back(unit_index(id));
  follow_orders(a.character, group);
  // Validated already: only the factors are measured again.
  OrderRolled t;
  t.factors = *order_factors_now(a.character, a.units);
  t.needed = order_needed(t.factors);
  t.dice[0] = dice.d6("order test");
  t.dice[1] = dice.d6("order test");
  t.passed = t.dice[0] + t.dice[1] <= t.needed;
  CharacterStatus& cs = chars_[static_cast<std::size_t>(ci)];
  cs.orders_issued += 1;
  cs.first_order_given = true;
  for (int ui : group) {
    units_[static_cast<std::size_t>(ui)].orders += 1;
    units_[static_cast<std::size_t>(ui)].ordered_by = a.character;
  }
  std::optional<MoveKind> kind;
  if (t.passed) {
    kind = MoveKind::Ordered;
    t.allows = "full pace";
  } else {
    cs.failed = true;
    if (bf_->characters[static_cast<std::size_t>(ci)].role == CharacterRole::General) command_.general_failed = true;
    if (blunders(bf_->characters[static_cast<std::size_t>(ci)], t)) {
      kind = blunder_move(t, group, dice);
    } else if (t.factors.previous_orders == 0 && settings().failed_first_order_moves_half_pace) {
      kind = MoveKind::HalfPace;
      t.allows = "half pace, no charge";
    } else {
      t.allows = "no move";
    }
  }
  command_.pending = PendingMove{group, kind, 0, "order", {}};
  return t;
}

// The move an order or a home back allows, as checked: the battlefield after
// every move was worked out while validating (or the moves are placed).
std::vector<UnitLeftTable> WarmasterState::move_ordered_units(MovePlan& plan, Dice& dice) {
  if (plan.after) replace_battlefield(std::move(plan.after));
  else
    for (const MoveRequest& req : plan.requests) place_move(mutable_battlefield(), req);
  std::vector<UnitLeftTable> left;
  for (std::size_t k = 0; k < plan.requests.size(); ++k) {
    const MoveRequest& req = plan.requests[k];
    const int ui = unit_index(req.mover);
    UnitStatus& s = units_[static_cast<std::size_t>(ui)];
    s.moved = true;
    if (req.kind == MoveKind::Charge) s.charged = true;
    if (std::optional<UnitLeftTable> l = place_after_move(ui, plan.answers[k], dice)) left.push_back(std::move(*l));
    if (req.kind == MoveKind::Charge) refresh_engaged();
  }
  return left;
}

void WarmasterState::end_orders() {
  command_.step = CommandStep::Characters;
  if (const int ci = character_index(command_.active_character); ci >= 0) chars_[static_cast<std::size_t>(ci)].finished = true;
}

namespace {
MoveRequest character_request(const Action& a) {
  MoveRequest req = a.moves[0];
  req.mover = a.character;
  req.kind = MoveKind::Character;
  return req;
}
}  // namespace

// A character's own move. Movement text, "Units which move off the table": a
// character that joined a unit shares the unit's fate (its unit rolls); one
// on its own rolls the same D6 chart. Reading
// (docs/rulings.md#warmaster-command-characters-leaving-table): 2 or less and
// it is lost for the rest of the game (the 1-2 re-roll is not modelled for
// characters); 3-6 and it is put back at once at the point of the edge where
// it left.
CharacterOffTable WarmasterState::move_character(const Action& a, const MoveAnswer& answer, Dice& dice) {
  const int ci = character_index(a.character);
  const Vec2 start_position = bf_->characters[static_cast<std::size_t>(ci)].pose.position;
  Battlefield& bf = mutable_battlefield();
  place_move(bf, character_request(a));
  Character& c = bf.characters[static_cast<std::size_t>(ci)];
  c.joined_unit = a.join;
  chars_[static_cast<std::size_t>(ci)].moved = true;
  CharacterOffTable out;
  if (!answer.leaves_table) return out;
  const OffTableResult& r = *(out.roll = resolve_off_table(c.id, 0, dice));
  if (r.outcome == OffTableOutcome::Destroyed || r.outcome == OffTableOutcome::GoneRollNextTurn) {
    chars_[static_cast<std::size_t>(ci)].lost = true;
    chars_[static_cast<std::size_t>(ci)].return_point = edge_where_left(bf, c, start_position);
    if (c.role == CharacterRole::General)
      end_battle(fmt::format("the General {} left the table and did not return at once: his army withdraws", c.id),
                 1 - c.side);
  } else {
    c.pose.position = edge_where_left(bf, c, start_position);
    out.returned_at = c.pose.position;
  }
  return out;
}

// The end of the Command phase: confused units recover at the end of their
// own Command phase (public facts, "Confusion"); the side's Shooting phase
// follows. Returns the units that recovered.
std::vector<std::string> WarmasterState::end_command_phase() {
  std::vector<std::string> recovered;
  bool any_confused = false;
  for (const Unit& u : bf_->units) any_confused |= u.side == side_ && u.confused;
  if (any_confused) {
    Battlefield& bf = mutable_battlefield();
    for (Unit& u : bf.units)
      if (u.side == side_ && u.confused) {
        u.confused = false;
        recovered.push_back(u.id);
      }
  }
  phase_ = Phase::Shooting;
  command_.step = CommandStep::Characters;
  refresh_engaged();
  return recovered;
}

// --- Describing: what the apply functions did, as the log's JSON ---------------

namespace {
void describe_roll(const OffTableResult& r, nlohmann::json& res) {
  res["roll"] = r.roll;
  res["modified"] = r.modified;
  res["outcome"] = to_string(r.outcome);
  res["ruling"] = r.ruling;
}

void describe_left_table(const Battlefield& bf, const UnitLeftTable& l, nlohmann::json& res) {
  res["off_table"].push_back({{"unit", bf.units[static_cast<std::size_t>(l.unit)].id},
                              {"roll", l.roll.roll},
                              {"modified", l.roll.modified},
                              {"outcome", to_string(l.roll.outcome)},
                              {"ruling", l.roll.ruling}});
}

void describe_character_return(const CharacterOffTable& r, nlohmann::json& res) {
  describe_roll(*r.roll, res);
  if (r.returned_at) res["returned_at"] = {r.returned_at->x, r.returned_at->y};
}

void describe_order(const Action& a, const OrderRolled& t, bool general_failed, const Battlefield& bf,
                    nlohmann::json& res) {
  const OrderTarget target = order_target(t.factors);
  const int total = t.dice[0] + t.dice[1];
  res["dice"] = {t.dice[0], t.dice[1]};
  res["total"] = total;
  res["needed"] = t.needed;
  res["command"] = target.effective_command;
  nlohmann::json pen = nlohmann::json::array();
  for (const CommandPenalty& p : target.penalties)
    pen.push_back({{"rule", p.rule}, {"name", p.name}, {"value", p.value}, {"reason", p.reason}});
  res["penalties"] = pen;
  res["passed"] = t.passed;
  res["allows"] = t.allows;
  if (!t.passed)
    res["ruling"] = Ruling{warmaster::rule_id::command_failed_order,
                           fmt::format("rolled {} against {} or less: {} fails; {}", total, t.needed, a.character,
                                       general_failed ? "the General has failed, so no more orders"
                                                      : "that character issues no more orders"),
                           {{"rolled", static_cast<double>(total), ""}, {"needed", static_cast<double>(t.needed), ""}}};
  if (t.blunder == 0) return;
  // docs/rulings.md#warmaster-command-blunders: the moves the engine made for 2-3 and 6.
  nlohmann::json moves = nlohmann::json::array();
  for (const BlunderMove& m : t.blunder_moves) {
    nlohmann::json j = {{"unit", m.unit},     {"how", m.how},       {"enemy", m.enemy}, {"pace", m.pace},
                        {"moved", m.moved},   {"before", m.before}, {"after", m.after}, {"blocked", m.blocked},
                        {"move", to_json(m.move)}};
    if (m.blocked) j["why"] = m.why;
    moves.push_back(std::move(j));
  }
  res["blunder"] = {{"roll", t.blunder},
                    {"result", t.allows},
                    {"moves", std::move(moves)},
                    {"text", fmt::format("Blunder! (D6 = {}): {}", t.blunder, t.blunder_text)},
                    {"ruling", Ruling{warmaster::rule_id::command_blunder,
                                      fmt::format("{} rolled 12: a blunder, D6 = {}: {}", a.character, t.blunder,
                                                  t.blunder_text),
                                      {{"blunder", static_cast<double>(t.blunder), ""}}}}};
  for (const UnitLeftTable& l : t.blunder_left) describe_left_table(bf, l, res);
}

void describe_initiative(const Action& a, const MoveRequest& move, const std::optional<UnitLeftTable>& left,
                         const Battlefield& bf, nlohmann::json& res) {
  res["move"] = to_json(move);
  if (!a.charge)
    for (const std::string& id : a.burst_through) res["confused"].push_back(id);
  if (left) describe_left_table(bf, *left, res);
}

void describe_moves(const std::vector<MoveRequest>& moves, const std::vector<UnitLeftTable>& left,
                    const Battlefield& bf, nlohmann::json& res) {
  for (const MoveRequest& req : moves) res["moves"].push_back(to_json(req));
  for (const UnitLeftTable& l : left) describe_left_table(bf, l, res);
}

void describe_character_move(const Action& a, const CharacterOffTable& r, nlohmann::json& res) {
  res["move"] = to_json(character_request(a));
  if (!r.roll) return;
  res["off_table"] = {{"roll", r.roll->roll}, {"outcome", to_string(r.roll->outcome)}, {"ruling", r.roll->ruling}};
  if (r.returned_at) res["off_table"]["returned_at"] = {r.returned_at->x, r.returned_at->y};
  else res["off_table"]["lost"] = true;
}

// The end of the battle, which only the action applied can have brought (a
// finished battle refuses every action), and what comes next after an
// action that ends a phase.
void describe_what_next(const WarmasterState& s, ActionType applied, nlohmann::json& res) {
  if (s.battle_over()) {
    res["battle_over"] = s.battle_over_reason();
    res["winner"] = s.winner() < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.winner());
  }
  if (applied == ActionType::EndPhase || applied == ActionType::Shoot)
    res["next"] = s.battle_over() ? std::string("the battle is over")
                                  : fmt::format("turn {}, side {}: {} phase", s.turn(), s.side(), to_string(s.phase()));
}
}  // namespace

// --- apply, check, do_apply --------------------------------------------------------

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

ActionOutcome WarmasterState::apply(const Action& in, Dice& dice, Describe describe) {
  MoveScratch scratch;
  return apply(in, dice, describe, scratch);
}

ActionOutcome WarmasterState::apply(const Action& in, Dice& dice, Describe describe, MoveScratch& scratch) {
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

WarmasterState::Checked WarmasterState::check(const Action& in, MoveScratch& scratch, Describe describe) const {
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
  if (c.verdict.legal() && a.type == ActionType::Order && !command_.orders_begun) c.touching = touching_now(scratch);
  return c;
}

// Each action by the function of its rule, then what it did described for
// the log (not at all for Describe::No: simulations keep no log).
nlohmann::json WarmasterState::do_apply(Checked&& c, Dice& dice, Describe describe) {
  const Action& a = c.action;
  const bool say = describe == Describe::Yes;
  nlohmann::json res;
  if (say) res = nlohmann::json::object();
  // Any action other than the move it allows ends a pending move: the units
  // that did not move stay where they are.
  if (a.type != ActionType::Move) command_.pending.reset();

  switch (a.type) {
    case ActionType::OffTableReturn:
      if (!a.character.empty()) {
        const CharacterOffTable r = return_character(character_index(a.character), dice);
        if (say) describe_character_return(r, res);
      } else {
        const OffTableResult r = return_unit(unit_index(a.unit), dice);
        if (say) describe_roll(r, res);
      }
      break;
    case ActionType::HomeBack: {
      const int d6 = home_back(unit_index(a.unit), a.character, dice);
      if (say) {
        res["roll"] = d6;
        res["distance"] = 10.0 * d6;
      }
      break;
    }
    case ActionType::Initiative: {
      const std::optional<UnitLeftTable> left = move_by_initiative(a, *c.initiative_move, dice);
      if (say) describe_initiative(a, *c.initiative_move, left, *bf_, res);
      break;
    }
    case ActionType::Order: {
      const OrderRolled t = give_order(a, std::move(c.touching), dice);
      if (say) describe_order(a, t, command_.general_failed, *bf_, res);
      break;
    }
    case ActionType::Move: {
      command_.pending.reset();
      if (a.moves.empty()) {
        if (say) res["held"] = true;
        break;
      }
      const std::vector<UnitLeftTable> left = move_ordered_units(c.move_plan, dice);
      if (say) describe_moves(c.move_plan.requests, left, *bf_, res);
      break;
    }
    case ActionType::EndOrders: end_orders(); break;
    case ActionType::CharacterMove: {
      const CharacterOffTable r = move_character(a, c.character_answer, dice);
      if (say) describe_character_move(a, r, res);
      break;
    }
    case ActionType::EndPhase:
      if (phase_ == Phase::Combat) {
        const CombatReport r = fight_combat_phase(a.decisions, dice);
        if (say) describe_combat_phase(r, res);
        pass_turn();
      } else {
        const std::vector<std::string> recovered = end_command_phase();
        if (say)
          for (const std::string& id : recovered) res["recovered"].push_back(id);
      }
      break;
    case ActionType::Shoot: {
      const ShootingResult r = shoot(a.targets, dice);
      if (say) describe_shooting_phase(r, res);
      phase_ = Phase::Combat;
      refresh_engaged();
      break;
    }
  }
  if (!battle_over()) check_break_points();
  build_move_index();
  if (say) describe_what_next(*this, a.type, res);
  return res;
}

}  // namespace referee::warmaster
