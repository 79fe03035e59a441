#include <algorithm>
#include "referee/warmaster/model/rule_ids.hpp"
#include <cmath>

#include <fmt/format.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

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
