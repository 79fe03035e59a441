#include "referee/blightmeer/move.hpp"
#include "referee/blightmeer/rule_ids.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::blightmeer {

const char* to_string(StepType t) {
  switch (t) {
    case StepType::climb: return "climb";
    case StepType::ladder: return "ladder";
    case StepType::jump_down: return "jump_down";
    case StepType::jump_across: return "jump_across";
    default: return "walk";
  }
}

const char* to_string(OnFailure f) {
  switch (f) {
    case OnFailure::fall_at_landing: return "falls where it landed";
    case OnFailure::fall_from_takeoff: return "falls to the ground below where it jumped from";
    default: return "stays at the foot of the climb and its move ends (no fall)";
  }
}

bool armour_sinks(const Settings& s, Armour a) {
  return a == Armour::light || a == Armour::heavy || (a == Armour::mithril && s.mithril_sinks);
}

int overlapping_unit(const State& state, int self, Vec3 p, double radius) {
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    const Unit& o = state.units[i];
    if (static_cast<int>(i) == self || o.incapacitated) continue;
    if (std::abs(o.pos.z - p.z) >= 0.5) continue;
    if (distance(o.pos.xy(), p.xy()) < radius + o.radius() - kEps) return static_cast<int>(i);
  }
  return -1;
}

Allowance base_allowance(const Unit& u, bool run) {
  Allowance a;
  a.move = u.move;
  a.staggered = u.staggered;
  a.base = u.staggered ? (u.move + 1) / 2 : u.move;  // halved, rounded up
  a.run = run;
  a.multiplier = run ? 1.5 : 1.0;
  a.total = a.base * a.multiplier;
  return a;
}

Verdict may_move(const State& state, int self, bool run, std::vector<Ruling>* notes) {
  Verdict v;
  const Unit& u = state.units[static_cast<std::size_t>(self)];
  if (u.incapacitated) v.add(blightmeer::rule_id::move_incapacitated, u.id + " is Incapacitated and off the table");
  if (u.tried_to_engage) v.add(blightmeer::rule_id::move_engage_attempted, u.id + " attempted to Engage this turn and may not Move");
  if (u.stunned) v.add(blightmeer::rule_id::move_stunned, u.id + " is Stunned and may not Move");
  if (u.dazed) v.add(blightmeer::rule_id::move_dazed, u.id + " is Dazed and may not Move");
  std::vector<std::string> holding, disabled;
  for (const std::string& e : u.engaged_with) {
    int k = state.find(e);
    if (k < 0) continue;
    const Unit& en = state.units[static_cast<std::size_t>(k)];
    if (en.incapacitated) continue;
    (en.disabled() ? disabled : holding).push_back(e);
  }
  for (const std::string& e : holding)
    v.add(blightmeer::rule_id::move_engaged, fmt::format("{} is Engaged with {}, which is neither Stunned nor Dazed", u.id, e));
  if (notes && holding.empty() && !disabled.empty())
    notes->push_back({blightmeer::rule_id::move_leave_melee,
                      fmt::format("{} is Engaged only with Stunned or Dazed enemies ({}) and may leave the melee", u.id,
                                  fmt::join(disabled, ", ")),
                      {}});
  if (run && u.treasure) v.add(blightmeer::rule_id::run_treasure, u.id + " carries a Treasure token and cannot Run");
  return v;
}

namespace {

std::string in(double v) { return format_measure(v, "in"); }

struct PendingClimb {
  int step;
  double spent_before;
  double cost;
};

// Walks the path step by step, tracking where the unit is and what it
// crossed. Each step kind applies its own paragraph of the Move-phase text;
// the allowance (which depends on whether difficult ground was crossed
// anywhere) is settled after the whole path is known.
class Checker {
 public:
  Checker(const Terrain& t, const State& s, const MoveRequest& r) : t_(t), s_(s), req_(r) {}

  MoveReport run() {
    self_ = s_.find(req_.unit);
    if (self_ < 0) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", req_.unit));
    const Unit& u = unit();
    rep_.unit = u.id;
    who_may_move();
    pos_ = u.pos;
    unsigned bits = 0;
    for (std::size_t i = 0; i < req_.path.size(); ++i) {
      const Step& st = req_.path[i];
      std::string where = fmt::format("path[{}]", i);
      if (st.from && dist3(*st.from, pos_) > kPlaceTolerance)
        throw InputError(where + ".from", fmt::format("{} does not connect to where the previous step ended, {}",
                                                      position_words(*st.from), position_words(pos_)));
      StepReport sr;
      sr.index = static_cast<int>(i);
      sr.type = st.type;
      sr.from = pos_;
      bool ok = true;
      switch (st.type) {
        case StepType::walk: ok = walk(st, sr); break;
        case StepType::climb: ok = climb(st, sr); break;
        case StepType::ladder: ok = ladder(st, sr, where); break;
        case StepType::jump_down: ok = jump_down(st, sr); break;
        case StepType::jump_across: ok = jump_across(st, sr); break;
      }
      if (!ok) {
        rep_.complete = false;
        break;
      }
      sr.cost = sr.horizontal + sr.vertical;
      rep_.spent += sr.cost;
      bits |= sr.bits;
      pos_ = sr.to;
      rep_.steps.push_back(sr);
      if (st.type != StepType::walk && i + 1 < req_.path.size()) {
        int o = overlapping_unit(s_, self_, pos_, u.radius());
        if (o >= 0)
          rep_.verdict.add(blightmeer::rule_id::units_occupied,
                           fmt::format("step {} ({}) puts {} on {} at {}", i, to_string(st.type), u.id,
                                       s_.units[static_cast<std::size_t>(o)].id, position_words(pos_)));
      }
    }
    rep_.final_pos = pos_;
    settle_allowance(bits);
    finish_checks();
    final_position();
    return rep_;
  }

 private:
  const Unit& unit() const { return s_.units[static_cast<std::size_t>(self_)]; }
  static double dist3(Vec3 a, Vec3 b) { return std::sqrt(length_squared(a.xy() - b.xy()) + (a.z - b.z) * (a.z - b.z)); }

  // blightmeer.move.*: who may move at all.
  void who_may_move() {
    Verdict v = may_move(s_, self_, req_.run, &rep_.notes);
    for (Ruling& r : v.violations) rep_.verdict.add(std::move(r));
  }

  void units_on_line(Vec2 a, Vec2 b, double z, int step) {
    const Unit& u = unit();
    Segment seg{a, b};
    for (std::size_t i = 0; i < s_.units.size(); ++i) {
      const Unit& o = s_.units[i];
      if (static_cast<int>(i) == self_ || o.incapacitated || std::abs(o.pos.z - z) >= 0.5) continue;
      double d = distance(o.pos.xy(), seg);
      double need = u.radius() + o.radius();
      if (d >= need - kEps) continue;
      if (o.side != u.side) {
        rep_.verdict.add(blightmeer::rule_id::units_enemy,
                         fmt::format("step {} passes through enemy {}: bases {} apart, centres {} apart", step, o.id,
                                     format_compared(need, d, "in").value, format_compared(need, d, "in").limit),
                         {{"centre_distance", d, "in"}, {"bases_need", need, "in"}});
      } else if (!o.engaged_with.empty() || o.disabled()) {
        std::string why = !o.engaged_with.empty() ? "Engaged" : (o.stunned ? "Stunned" : "Dazed");
        rep_.verdict.add(blightmeer::rule_id::units_ally,
                         fmt::format("step {} passes through ally {}, which is {}", step, o.id, why),
                         {{"centre_distance", d, "in"}});
      }
    }
  }

  void common_scan(const Terrain::Scan& sc, int step, const char* what) {
    if (sc.impassable)
      rep_.verdict.add(blightmeer::rule_id::terrain_impassable,
                       fmt::format("step {} ({}) crosses impassable terrain", step, what));
    if (sc.leaves_table)
      rep_.verdict.add(blightmeer::rule_id::table_edge, fmt::format("step {} ({}) leaves the table", step, what));
  }

  void note_deep(const Terrain::Scan& sc, Vec3 a, Vec3 b, int step) {
    if (!(sc.bits & kDeep) || rep_.drown_step >= 0 || !armour_sinks(t_.settings, unit().armour)) return;
    rep_.drown_step = step;
    double tt = std::max(0.0, sc.deep_entry_t);
    rep_.drown_at = {a.x + (b.x - a.x) * tt, a.y + (b.y - a.y) * tt, b.z};
  }

  bool walk(const Step& st, StepReport& sr) {
    Vec3 to{st.to.x, st.to.y, pos_.z};
    auto sc = t_.scan(pos_.xy(), st.to, pos_.z);
    if (sc.max_level > pos_.z + kEps || sc.min_level < pos_.z - kEps || (st.to_z && std::abs(*st.to_z - pos_.z) > kPlaceTolerance)) {
      double other = sc.max_level > pos_.z + kEps ? sc.max_level : sc.min_level;
      rep_.verdict.add(blightmeer::rule_id::walk_level,
                       fmt::format("step {} walks from the {} level across the {} level: a walk stays on one level "
                                   "(climb, use a ladder or jump)",
                                   sr.index, in(pos_.z), in(other)),
                       {{"from_level", pos_.z, "in"}, {"crosses_level", other, "in"}});
      return false;
    }
    common_scan(sc, sr.index, "walk");
    units_on_line(pos_.xy(), st.to, pos_.z, sr.index);
    sr.to = to;
    sr.horizontal = distance(pos_.xy(), st.to);
    sr.bits = sc.bits;
    note_deep(sc, pos_, to, sr.index);
    return true;
  }

  Edge check_edge(CheckNeed& c, bool extra_disadvantage, const std::string& extra_why) {
    const Unit& u = unit();
    c.advantage = u.agility_advantage;
    c.disadvantage = u.staggered || extra_disadvantage;
    if (u.agility_advantage) c.why.push_back("Advantage on Agility checks");
    if (u.staggered) c.why.push_back("Staggered: Disadvantage");
    if (extra_disadvantage) c.why.push_back(extra_why);
    if (c.advantage && c.disadvantage) c.why.push_back("Advantage and Disadvantage cancel");
    c.edge = combine(c.advantage, c.disadvantage);
    return c.edge;
  }

  void add_check(CheckNeed c) {
    c.target = unit().agility;
    c.chance = c.automatic_failure ? Chance{0, 20} : check_chance(c.target, c.edge);
    rep_.checks.push_back(std::move(c));
  }

  bool climb(const Step& st, StepReport& sr) {
    double lvl = t_.level_at(st.to);
    double z = st.to_z.value_or(lvl);
    if (std::abs(z - lvl) > kPlaceTolerance) {
      rep_.verdict.add(blightmeer::rule_id::climb_partway,
                       fmt::format("step {} ends the climb at {} where the level is {}: a unit cannot stop partway "
                                   "up a wall",
                                   sr.index, in(z), in(lvl)),
                       {{"asked", z, "in"}, {"level", lvl, "in"}});
      return false;
    }
    sr.to = {st.to.x, st.to.y, lvl};
    sr.horizontal = distance(pos_.xy(), st.to);
    sr.vertical = std::abs(lvl - pos_.z);
    if (sr.vertical < kEps)
      rep_.verdict.add(blightmeer::rule_id::climb_no_height,
                       fmt::format("step {} climbs from the {} level to the same level", sr.index, in(lvl)));
    if (sr.horizontal > t_.settings.climb_leeway + kEps)
      rep_.verdict.add(blightmeer::rule_id::climb_leeway,
                       fmt::format("step {} moves {} horizontally within a climb; {} is allowed", sr.index,
                                   format_compared(sr.horizontal, t_.settings.climb_leeway, "in").value,
                                   format_compared(sr.horizontal, t_.settings.climb_leeway, "in").limit),
                       {{"horizontal", sr.horizontal, "in"}, {"leeway", t_.settings.climb_leeway, "in"}});
    auto sc = t_.scan(pos_.xy(), st.to, lvl);
    if (sc.impassable)
      rep_.verdict.add(blightmeer::rule_id::terrain_impassable,
                       fmt::format("step {} climbs impassable terrain, which cannot be climbed", sr.index));
    if (sc.unclimbable_wall)
      rep_.verdict.add(blightmeer::rule_id::climb_not_climbable,
                       fmt::format("step {} climbs a side that is not climbable", sr.index));
    if (sc.leaves_table) rep_.verdict.add(blightmeer::rule_id::table_edge, fmt::format("step {} (climb) leaves the table", sr.index));
    sr.bits = t_.regions_at(st.to, lvl);
    CheckNeed c;
    c.step = sr.index;
    c.kind = "climb";
    c.rule = blightmeer::rule_id::climb_check;
    c.on_failure = OnFailure::stop_at_foot;
    c.failure_spot = pos_;
    check_edge(c, false, {});
    add_check(std::move(c));
    climbs_.push_back({sr.index, rep_.spent, sr.horizontal + sr.vertical});
    return true;
  }

  bool ladder(const Step& st, StepReport& sr, const std::string& where) {
    int li = t_.ladder_index(st.ladder);
    if (li < 0) throw InputError(where + ".ladder", fmt::format("no ladder \"{}\" on the battlefield", st.ladder));
    const Ladder& L = t_.ladders[static_cast<std::size_t>(li)];
    const double reach = t_.settings.climb_leeway + 0.5;
    auto near_end = [&](Vec3 e) { return std::abs(e.z - pos_.z) < kPlaceTolerance && distance(e.xy(), pos_.xy()) <= reach + kEps; };
    Vec3 nearv, farv;
    if (near_end(L.bottom)) {
      nearv = L.bottom;
      farv = L.top;
    } else if (near_end(L.top)) {
      nearv = L.top;
      farv = L.bottom;
    } else {
      double d = std::min(distance(L.bottom.xy(), pos_.xy()), distance(L.top.xy(), pos_.xy()));
      throw InputError(where + ".ladder",
                       fmt::format("ladder \"{}\" does not connect to {}: its ends are {} and {} ({} away at the "
                                   "nearest, within {} on the same level is needed)",
                                   L.id, position_words(pos_), position_words(L.bottom), position_words(L.top), in(d), in(reach)));
    }
    if (st.has_to) {
      Vec3 want{st.to.x, st.to.y, st.to_z.value_or(farv.z)};
      if (distance(want.xy(), farv.xy()) > kPlaceTolerance || std::abs(want.z - farv.z) > kPlaceTolerance) {
        // Is it partway up this ladder?
        double lo = std::min(L.bottom.z, L.top.z), hi = std::max(L.bottom.z, L.top.z);
        double t = hi > lo ? (want.z - L.bottom.z) / (L.top.z - L.bottom.z) : -1;
        Vec2 on = L.bottom.xy() + (L.top.xy() - L.bottom.xy()) * t;
        if (t > 0 && t < 1 && distance(on, want.xy()) <= 0.5) {
          rep_.verdict.add(blightmeer::rule_id::ladder_end,
                           fmt::format("step {} stops at {} on ladder \"{}\": a move may not end on a ladder",
                                       sr.index, in(want.z), L.id),
                           {{"height", want.z, "in"}});
          return false;
        }
        throw InputError(where + ".to", fmt::format("{} is not on ladder \"{}\", whose far end is {}", position_words(want),
                                                    L.id, position_words(farv)));
      }
    }
    sr.to = farv;
    sr.horizontal = distance(pos_.xy(), nearv.xy()) + distance(nearv.xy(), farv.xy());
    sr.vertical = std::abs(farv.z - nearv.z);
    sr.bits = t_.regions_at(farv.xy(), farv.z) | t_.regions_at(nearv.xy(), nearv.z);
    if (unit().animal) {
      CheckNeed c;
      c.step = sr.index;
      c.kind = "ladder";
      c.rule = blightmeer::rule_id::ladder_animal;
      c.on_failure = OnFailure::stop_at_foot;
      c.failure_spot = pos_;
      check_edge(c, false, {});
      add_check(std::move(c));
      climbs_.push_back({sr.index, rep_.spent, sr.horizontal + sr.vertical});
    }
    return true;
  }

  bool landing_level(const Step& st, StepReport& sr, const char* rule, double& lvl) {
    lvl = t_.level_at(st.to);
    if (st.to_z && std::abs(*st.to_z - lvl) > kPlaceTolerance) {
      rep_.verdict.add(rule,
                       fmt::format("step {} lands at {} where the level is {}: a unit must land where it can stand",
                                   sr.index, in(*st.to_z), in(lvl)),
                       {{"asked", *st.to_z, "in"}, {"level", lvl, "in"}});
      return false;
    }
    return true;
  }

  bool jump_down(const Step& st, StepReport& sr) {
    double lvl;
    if (!landing_level(st, sr, blightmeer::rule_id::jump_down_landing, lvl)) return false;
    if (lvl > pos_.z - kEps) {
      rep_.verdict.add(blightmeer::rule_id::jump_down_not_lower,
                       fmt::format("step {} jumps down from {} to {}: the landing must be lower", sr.index,
                                   in(pos_.z), in(lvl)),
                       {{"from", pos_.z, "in"}, {"to", lvl, "in"}});
      return false;
    }
    sr.to = {st.to.x, st.to.y, lvl};
    sr.horizontal = distance(pos_.xy(), st.to);
    double range = t_.settings.jump_down_range;
    if (sr.horizontal > range + kEps)
      rep_.verdict.add(blightmeer::rule_id::jump_down_range,
                       fmt::format("step {} lands {} from where it jumped down; at most {}", sr.index,
                                   format_compared(sr.horizontal, range, "in").value, format_compared(sr.horizontal, range, "in").limit),
                       {{"distance", sr.horizontal, "in"}, {"limit", range, "in"}});
    auto sc = t_.scan(pos_.xy(), st.to, lvl);
    if (sc.max_level > pos_.z + kEps)
      rep_.verdict.add(blightmeer::rule_id::jump_down_over_higher,
                       fmt::format("step {} jumps over terrain {} high, higher than the {} it jumped from", sr.index,
                                   in(sc.max_level), in(pos_.z)),
                       {{"obstacle", sc.max_level, "in"}, {"from", pos_.z, "in"}});
    common_scan(sc, sr.index, "jump down");
    sr.bits = t_.regions_at(st.to, lvl);
    if ((sr.bits & kDeep) && rep_.drown_step < 0 && armour_sinks(t_.settings, unit().armour)) {
      rep_.drown_step = sr.index;
      rep_.drown_at = sr.to;
    }
    double drop = pos_.z - lvl;
    CheckNeed c;
    c.step = sr.index;
    c.kind = "jump_down";
    c.rule = blightmeer::rule_id::jump_down_check;
    c.on_failure = OnFailure::fall_at_landing;
    c.failure_spot = sr.to;
    c.fall_height = drop;
    bool dis = drop >= t_.settings.disadvantage_drop - kEps;
    check_edge(c, dis,
               fmt::format("drop of {} ({} or more): Disadvantage", format_compared(drop, t_.settings.disadvantage_drop, "in").value,
                           format_compared(drop, t_.settings.disadvantage_drop, "in").limit));
    add_check(std::move(c));
    return true;
  }

  bool jump_across(const Step& st, StepReport& sr) {
    double lvl;
    if (!landing_level(st, sr, blightmeer::rule_id::jump_across_landing, lvl)) return false;
    sr.to = {st.to.x, st.to.y, lvl};
    double gap = distance(pos_.xy(), st.to);
    sr.horizontal = gap;
    double rise = lvl - pos_.z;
    auto sc = t_.scan(pos_.xy(), st.to, lvl);
    double top = std::max(pos_.z, lvl);
    if (sc.max_level > top + kEps)
      rep_.verdict.add(blightmeer::rule_id::jump_across_over_higher,
                       fmt::format("step {} jumps through terrain {} high, higher than both ends", sr.index,
                                   in(sc.max_level)),
                       {{"obstacle", sc.max_level, "in"}});
    common_scan(sc, sr.index, "jump across");
    sr.bits = t_.regions_at(st.to, lvl);
    const double reach = unit().jump_across_reach;
    if (gap <= t_.settings.free_jump_gap + kEps && rise <= 1 + kEps) {
      rep_.notes.push_back({blightmeer::rule_id::jump_across_short,
                            fmt::format("step {} jumps {}: {} or less needs no check", sr.index,
                                        format_compared(gap, t_.settings.free_jump_gap, "in").value,
                                        format_compared(gap, t_.settings.free_jump_gap, "in").limit),
                            {{"gap", gap, "in"}}});
      return true;
    }
    CheckNeed c;
    c.step = sr.index;
    c.kind = "jump_across";
    c.rule = blightmeer::rule_id::jump_across_check;
    c.on_failure = OnFailure::fall_from_takeoff;
    // "Falls to the ground below from where it attempted": the unit drops at
    // the edge it jumped from, its base just past the edge.
    Vec2 dir = normalized(st.to - pos_.xy());
    Vec2 spot = pos_.xy();
    if (sc.first_drop_t >= 0) {
      double along = sc.first_drop_t * gap;
      spot = pos_.xy() + dir * std::min(gap, along + unit().radius());
      if (t_.level_at(spot) > pos_.z - kEps) spot = pos_.xy() + dir * std::min(gap, along + 1e-3);
    }
    double fall_lvl = std::min(pos_.z, t_.level_at(spot));
    c.failure_spot = {spot.x, spot.y, fall_lvl};
    c.fall_height = pos_.z - fall_lvl;
    if (gap > reach + kEps || rise > 1 + kEps) {
      c.automatic_failure = true;
      c.rule = blightmeer::rule_id::jump_across_automatic_failure;
      c.automatic_reason = gap > reach + kEps ? fmt::format("gap {} is longer than {}", format_compared(gap, reach, "in").value,
                                                            format_compared(gap, reach, "in").limit)
                                              : fmt::format("landing is {} above the take-off, more than 1 in", in(rise));
    }
    check_edge(c, false, {});
    add_check(std::move(c));
    return true;
  }

  void settle_allowance(unsigned bits) {
    Allowance a = base_allowance(unit(), req_.run);
    if (slows(bits)) {
      a.difficult = true;
      a.penalty = 2;
      a.total -= 2;
      bool water = (bits & (kShallow | kDeep)) != 0;
      rep_.notes.push_back({water ? blightmeer::rule_id::water_difficult : blightmeer::rule_id::terrain_difficult,
                            fmt::format("the move crosses {}: the whole allowance loses 2 in, once, after the Run "
                                        "multiplier ({} -> {})",
                                        water ? "water, which counts as difficult terrain" : "difficult terrain",
                                        in(a.total + 2), in(a.total)),
                            {{"penalty", 2, "in"}}});
    }
    if (bits & kLow)
      rep_.notes.push_back({blightmeer::rule_id::terrain_low, "low terrain (1 in high or less) is crossed at no extra cost", {}});
    rep_.allowance = a;
    if (rep_.spent > a.total + kEps)
      rep_.verdict.add(blightmeer::rule_id::move_allowance,
                       fmt::format("{} spends {} of {} allowed{}{}{}", unit().id, format_compared(rep_.spent, a.total, "in").value,
                                   format_compared(rep_.spent, a.total, "in").limit,
                                   a.staggered ? " (Staggered: Move halved, rounded up)" : "",
                                   a.run ? " (Run: x1.5)" : "", a.difficult ? " (difficult terrain: -2 in)" : ""),
                       {{"spent", rep_.spent, "in"}, {"allowed", a.total, "in"}});
    for (const PendingClimb& c : climbs_)
      if (c.spent_before + c.cost > a.total + kEps)
        rep_.verdict.add(blightmeer::rule_id::climb_unreachable,
                         fmt::format("step {}: a climb may not be attempted that cannot reach its destination this "
                                     "turn ({} already spent + {} climb = {} > {})",
                                     c.step, in(c.spent_before), in(c.cost), format_compared(c.spent_before + c.cost, a.total, "in").value,
                                     format_compared(c.spent_before + c.cost, a.total, "in").limit),
                         {{"needed", c.spent_before + c.cost, "in"}, {"allowed", a.total, "in"}});
  }

  void finish_checks() {
    Chance all{1, 1};
    for (const CheckNeed& c : rep_.checks) all = all * c.chance;
    rep_.all_checks = all;
  }

  void final_position() {
    const Unit& u = unit();
    if (!rep_.steps.empty()) {
      int o = overlapping_unit(s_, self_, pos_, u.radius());
      if (o >= 0)
        rep_.verdict.add(blightmeer::rule_id::units_end_on_unit,
                         fmt::format("{} would end its move on {} at {}", u.id, s_.units[static_cast<std::size_t>(o)].id,
                                     position_words(pos_)));
    }
    rep_.final_bits = t_.regions_at(pos_.xy(), pos_.z);
    if (req_.run)
      rep_.notes.push_back({blightmeer::rule_id::run_after, u.id + " ran: it may not shoot this turn, and its spells are 2 harder to cast",
                            {{"spell_penalty", 2, ""}}});
    if (rep_.final_bits & (kShallow | kDeep))
      rep_.notes.push_back({blightmeer::rule_id::water_cover, u.id + " ends in water and has Cover", {}});
    if (rep_.final_bits & kDeep)
      rep_.notes.push_back({blightmeer::rule_id::water_deep, u.id + " ends in deep water: it cannot shoot or cast", {}});
    if (rep_.drown_step >= 0)
      rep_.notes.push_back({blightmeer::rule_id::water_deep_armour,
                            fmt::format("{} enters deep water in {} armour at {} and is Incapacitated", u.id,
                                        to_string(u.armour), position_words(rep_.drown_at)),
                            {}});
  }

  const Terrain& t_;
  const State& s_;
  const MoveRequest& req_;
  int self_ = -1;
  Vec3 pos_;
  MoveReport rep_;
  std::vector<PendingClimb> climbs_;
};

}  // namespace

MoveReport check_move(const Terrain& terrain, const State& state, const MoveRequest& req) {
  return Checker(terrain, state, req).run();
}

}  // namespace referee::blightmeer
