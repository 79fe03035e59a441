// The pace of a move (warmaster.movement.pace): the allowance for the kind of
// move and the formation, and whether the unit may move at all.
#include "referee/warmaster/movement/movement.hpp"

#include <fmt/format.h>

#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"

namespace referee::warmaster {

Pace move_pace(const Unit& u, MoveKind kind, Formation formation, std::optional<double> dice_distance) {
  double full = full_pace(u);
  switch (kind) {
    case MoveKind::Dice: return {dice_distance.value_or(0), "distance rolled"};
    case MoveKind::Charge: return {full, "full pace (charge)"};
    case MoveKind::Evade: return {full, "full pace (evade)"};
    case MoveKind::HalfPace: return {full / 2, "half pace (failed order)"};
    case MoveKind::Character: return {full, "full pace"};
    case MoveKind::Ordered: break;
  }
  if (u.fortified) return {full / 2, "half pace (fortified at the start)"};
  if (formation == Formation::Irregular) return {full / 2, "half pace (irregular formation)"};
  return {full, "full pace"};
}

}  // namespace referee::warmaster

namespace referee::warmaster::move_detail {

// The unit's pace in its formation (kept_formation), and whether it may move
// at all: a confused unit moves only by dice (warmaster.movement.confused); a
// machine needs its pace in its data.
Pace check_pace(const Unit& u, const MoveRequest& req, Formation formation, MoveAnswer& a) {
  a.formation = formation;
  Pace pace = move_pace(u, req.kind, a.formation, req.dice_distance);
  a.allowance = pace.allowance;
  a.pace = pace.label;
  if (u.confused && req.kind != MoveKind::Dice)
    a.verdict.add(kRuleConfused, fmt::format("unit '{}' is confused and cannot move in the Command phase", u.id));
  if (u.type == TroopType::Machine && u.machine_pace <= 0)
    a.verdict.add(kRulePace, fmt::format("machine '{}' has no pace in its data", u.id));
  return pace;
}

}  // namespace referee::warmaster::move_detail
