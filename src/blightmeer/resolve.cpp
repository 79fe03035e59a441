#include "referee/blightmeer/resolve.hpp"
#include "referee/blightmeer/rule_ids.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace referee::blightmeer {

const char* to_string(Injury i) {
  switch (i) {
    case Injury::dazed: return "Dazed";
    case Injury::stunned: return "Stunned";
    case Injury::incapacitated: return "Incapacitated";
    default: return "no effect";
  }
}

Injury injury_for(int total) {
  if (total >= 18) return Injury::incapacitated;
  if (total >= 15) return Injury::stunned;
  if (total >= 12) return Injury::dazed;
  return Injury::none;
}

int fall_modifier(double height) {
  double full = std::floor(height - 2 + 1e-9);
  return full > 0 ? 2 * static_cast<int>(full) : 0;
}

namespace {
std::string in(double v) { return format_measure(v, "in"); }

bool spot_free(const Terrain& t, const State& s, int self, Vec3 p, double r) {
  if (!t.on_table(p.xy()) || t.in_impassable(p.xy())) return false;
  if (std::abs(t.level_at(p.xy()) - p.z) > kPlaceTolerance) return false;
  return overlapping_unit(s, self, p, r) < 0;
}
}  // namespace

// The text: "If this spot would place it on top of another unit, instead place
// it so that it is next to (but not Engaged) with the unit. Determine a random
// direction if the place it would drop to is ambiguous." We move it straight
// away from the other unit's centre until the bases are `fall_clear_gap`
// apart; the direction is ambiguous only when the spot is that centre, and
// then a d8 picks one of eight compass directions. If that place is a wall,
// another unit or off the table, we turn 45 degrees clockwise and try again.
Vec3 place_after_fall(const Terrain& t, const State& s, int self, Vec3 spot, Dice& dice, std::vector<Ruling>& events,
                      const std::string& rule) {
  const Unit& u = s.units[static_cast<std::size_t>(self)];
  int o = overlapping_unit(s, self, spot, u.radius());
  if (o < 0) return spot;
  const Unit& other = s.units[static_cast<std::size_t>(o)];
  Vec2 away = spot.xy() - other.pos.xy();
  double deg;
  if (length(away) < 0.01) {
    int d = dice.roll(8, "fall direction");
    deg = (d - 1) * 45.0;
    events.push_back({rule,
                      fmt::format("{} lands on {}: the direction is ambiguous, d8 = {} gives {:.0f} degrees", u.id,
                                  other.id, d, deg),
                      {{"d8", static_cast<double>(d), ""}}});
  } else {
    deg = rad_to_deg(std::atan2(away.x, away.y));
  }
  double dist = u.radius() + other.radius() + t.settings.fall_clear_gap;
  // Nearest first: eight directions at the touching-plus-gap distance, then
  // further out in half-inch rings, so a crowd or a wall never leaves the
  // unit on top of another.
  for (int ring = 0; ring < 8; ++ring) {
    for (int k = 0; k < 8; ++k) {
      Rot r = Rot::from_degrees(deg + 45.0 * k);
      Vec2 p = other.pos.xy() + r.forward() * (dist + 0.5 * ring);
      Vec3 cand{p.x, p.y, t.level_at(p)};
      if (std::abs(cand.z - spot.z) < kPlaceTolerance && spot_free(t, s, self, cand, u.radius())) {
        events.push_back({rule,
                          fmt::format("{} would be placed on {}: put next to it instead, not Engaged, at {}", u.id,
                                      other.id, position_words(cand)),
                          {{"gap", t.settings.fall_clear_gap + 0.5 * ring, "in"}}});
        return cand;
      }
    }
  }
  events.push_back({rule,
                    fmt::format("{} would be placed on {} and no clear place was found next to it; it stays at {}",
                                u.id, other.id, position_words(spot)),
                    {}});
  return spot;
}

namespace {

void apply_water(const Terrain& t, Unit& u, std::vector<Ruling>& events) {
  if (u.incapacitated || !u.disabled()) return;
  unsigned bits = t.regions_at(u.pos.xy(), u.pos.z);
  if (bits & (kShallow | kDeep)) {
    u.incapacitated = true;
    events.push_back({blightmeer::rule_id::water_incapacitated,
                      fmt::format("{} is {} in water and is Incapacitated", u.id, u.stunned ? "Stunned" : "Dazed"), {}});
  }
}

// blightmeer.fall.*: Injury Roll with +2 per full inch above 2 and the unit's
// own modifier (Dwarves -2). A fall costs no Wound, but a unit with more than
// one Wound that would be Incapacitated is Stunned instead and loses one.
void fall(const Terrain& t, State& s, int self, Vec3 spot, double height, Dice& dice, std::vector<Ruling>& events) {
  Vec3 at = place_after_fall(t, s, self, spot, dice, events);
  Unit& u = s.units[static_cast<std::size_t>(self)];
  u.pos = at;
  int mod = fall_modifier(height) + u.fall_injury_modifier;
  int natural = dice.d20("injury roll (fall)");
  int total = natural + mod;
  Injury inj = injury_for(total);
  events.push_back({blightmeer::rule_id::fall_injury,
                    fmt::format("{} falls {} at {}: Injury Roll {} {:+d} = {}: {}", u.id, in(height), position_words(at),
                                natural, mod, total, to_string(inj)),
                    {{"height", height, "in"}, {"natural", static_cast<double>(natural), ""},
                     {"modifier", static_cast<double>(mod), ""}, {"total", static_cast<double>(total), ""}}});
  if (inj == Injury::incapacitated && u.wounds > 1) {
    u.wounds -= 1;
    u.stunned = true;
    events.push_back({blightmeer::rule_id::fall_wounds,
                      fmt::format("{} has more than 1 Wound: Stunned instead of Incapacitated, and loses a Wound ({} left)",
                                  u.id, u.wounds),
                      {{"wounds", static_cast<double>(u.wounds), ""}}});
  } else if (inj == Injury::incapacitated) {
    u.incapacitated = true;
  } else if (inj == Injury::stunned) {
    u.stunned = true;
  } else if (inj == Injury::dazed) {
    u.dazed = true;
  }
  apply_water(t, u, events);
}

}  // namespace

Resolution resolve_move(const Terrain& t, State& s, const MoveRequest& req, Dice& dice) {
  return resolve_checked_move(t, s, req, check_move(t, s, req), dice);
}

Resolution resolve_checked_move(const Terrain& t, State& s, const MoveRequest& req, MoveReport report, Dice& dice) {
  Resolution res;
  res.report = std::move(report);
  int self = s.find(req.unit);
  res.before = s.units[static_cast<std::size_t>(self)];
  if (!res.report.verdict.legal()) {
    res.after = res.before;
    return res;
  }
  std::size_t mark = dice.history().size();
  res.applied = true;
  const MoveReport& rep = res.report;
  Vec3 pos = res.before.pos;
  bool drowned = false;
  std::size_t next_check = 0;
  for (const StepReport& st : rep.steps) {
    while (next_check < rep.checks.size() && rep.checks[next_check].step < st.index) ++next_check;
    if (next_check < rep.checks.size() && rep.checks[next_check].step == st.index) {
      const CheckNeed& c = rep.checks[next_check];
      bool passed = false;
      if (c.automatic_failure) {
        res.events.push_back({c.rule, fmt::format("step {}: the jump across fails automatically: {}", st.index,
                                                  c.automatic_reason), {}});
      } else {
        CheckRoll r = roll_check(dice, c.target, c.edge, "agility check (" + c.kind + ")");
        passed = r.passed;
        std::string dice_text = r.second ? fmt::format("{} and {}, keeps {}", r.first, r.second, r.kept)
                                         : fmt::format("{}", r.kept);
        res.events.push_back({c.rule,
                              fmt::format("step {} ({}): Agility {}+ check{}: rolled {}: {}", st.index, c.kind,
                                          c.target, c.edge == Edge::none ? "" : std::string(" with ") + to_string(c.edge),
                                          dice_text, passed ? "passed" : "failed"),
                              {{"target", static_cast<double>(c.target), ""}, {"kept", static_cast<double>(r.kept), ""}}});
      }
      if (!passed) {
        Unit& u = s.units[static_cast<std::size_t>(self)];
        if (c.on_failure == OnFailure::stop_at_foot) {
          // A climb may start where the unit passed through an ally; it is
          // then put next to that ally, as a fall would be.
          pos = place_after_fall(t, s, self, c.failure_spot, dice, res.events, blightmeer::rule_id::climb_placement);
          res.events.push_back({c.rule, fmt::format("{} stays at the foot, {}, and its move ends (no fall)", u.id,
                                                    position_words(pos)), {}});
        } else {
          res.events.push_back({blightmeer::rule_id::fall_start, fmt::format("{} {}", u.id, to_string(c.on_failure)), {}});
          fall(t, s, self, c.failure_spot, c.fall_height, dice, res.events);
          pos = s.units[static_cast<std::size_t>(self)].pos;
        }
        break;
      }
    }
    if (rep.drown_step == st.index) {
      pos = st.type == StepType::walk ? rep.drown_at : st.to;
      drowned = true;
      break;
    }
    pos = st.to;
  }
  Unit& u = s.units[static_cast<std::size_t>(self)];
  u.pos = pos;
  if (!u.incapacitated && (drowned || ((t.regions_at(pos.xy(), pos.z) & kDeep) && armour_sinks(t.settings, u.armour)))) {
    u.incapacitated = true;
    res.events.push_back({blightmeer::rule_id::water_deep_armour,
                          fmt::format("{} enters deep water in {} armour at {} and is Incapacitated", u.id,
                                      to_string(u.armour), position_words(pos)),
                          {}});
  }
  if (req.run) u.ran = true;
  if (!rep.steps.empty()) {
    // Moving away from a melee of Stunned or Dazed enemies ends it.
    for (const std::string& e : u.engaged_with) {
      int k = s.find(e);
      if (k < 0) continue;
      auto& theirs = s.units[static_cast<std::size_t>(k)].engaged_with;
      theirs.erase(std::remove(theirs.begin(), theirs.end(), u.id), theirs.end());
    }
    u.engaged_with.clear();
  }
  apply_water(t, u, res.events);
  res.rolls = dice.since(mark);
  res.after = u;
  return res;
}

}  // namespace referee::blightmeer
