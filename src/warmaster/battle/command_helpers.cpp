#include <algorithm>
#include "referee/warmaster/model/rule_ids.hpp"
#include <cmath>

#include <fmt/format.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {
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
}  // namespace

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

bool normalise_move_kind(const PendingMove& p, MoveRequest& req, Verdict& v) {
  const MoveKind allowed = *p.kind;
  switch (allowed) {
    case MoveKind::Ordered:
      if (req.kind == MoveKind::Ordered || req.kind == MoveKind::Charge) return true;
      break;
    case MoveKind::HalfPace:
      if (req.kind == MoveKind::Charge) {
        v.add(warmaster::rule_id::command_failed_charge,
              fmt::format("unit {} failed its order: it may move at half pace but cannot charge", req.mover));
        return false;
      }
      if (req.kind == MoveKind::Ordered || req.kind == MoveKind::HalfPace) {
        req.kind = MoveKind::HalfPace;
        return true;
      }
      break;
    case MoveKind::Dice:
      if (req.kind == MoveKind::Dice || req.kind == MoveKind::Ordered) {
        req.kind = MoveKind::Dice;
        req.dice_distance = p.dice_distance;
        return true;
      }
      break;
    default:
      break;
  }
  v.add(warmaster::rule_id::command_move_kind,
        fmt::format("unit {}: a {} move is not what the {} allows ({})", req.mover, to_string(req.kind), p.source,
                    to_string(allowed)));
  return false;
}

void check_charge_contact(const Battlefield& bf, const Unit& moved, const MoveRequest& req, const std::string& target,
                          const Settings& settings, Verdict& v) {
  const std::vector<std::string> touching = enemies_in_contact(bf, moved, settings.contact_tolerance);
  if (req.kind == MoveKind::Charge) {
    if (touching.empty())
      v.add(warmaster::rule_id::command_charge_contact, fmt::format("unit {} charges but ends in contact with no enemy", moved.id));
    else if (!target.empty() && std::find(touching.begin(), touching.end(), target) == touching.end())
      v.add(warmaster::rule_id::command_charge_contact,
            fmt::format("unit {} charges {} but ends in contact with {} only", moved.id, target, touching.front()));
  } else if (!touching.empty()) {
    v.add(warmaster::rule_id::command_charge_contact,
          fmt::format("unit {} ends in contact with enemy {}: a move into contact is a charge", moved.id, touching.front()));
  }
}

void check_home_back_direction(const Battlefield& before, const Battlefield& after, int unit,
                               const std::string& character, Verdict& v) {
  const Character* c = before.find_character(character);
  if (!c) return;
  const Unit& u0 = before.units[static_cast<std::size_t>(unit)];
  const Unit& u1 = after.units[static_cast<std::size_t>(unit)];
  const double d0 = character_distance(*c, u0).distance;
  const double d1 = character_distance(*c, u1).distance;
  if (d1 > d0 + 1e-6)
    v.add(warmaster::rule_id::command_home_back,
          fmt::format("unit {} homes back toward {} but ends further away ({} > {})", u0.id, c->id,
                      format_compared(d1, d0, "cm").value, format_compared(d1, d0, "cm").limit),
          {{"before", d0, "cm"}, {"after", d1, "cm"}});
}

}  // namespace referee::warmaster
