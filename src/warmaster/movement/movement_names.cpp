// Names of move kinds, formations and off-table outcomes, as files and
// answers spell them. Kept apart from the checks so the parsers link alone.
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

const char* to_string(MoveKind k) {
  switch (k) {
    case MoveKind::Ordered: return "ordered";
    case MoveKind::HalfPace: return "half_pace";
    case MoveKind::Charge: return "charge";
    case MoveKind::Evade: return "evade";
    case MoveKind::Dice: return "dice";
    case MoveKind::Character: return "character";
  }
  return "?";
}

std::optional<MoveKind> move_kind_from_string(const std::string& s) {
  for (MoveKind k : {MoveKind::Ordered, MoveKind::HalfPace, MoveKind::Charge, MoveKind::Evade, MoveKind::Dice,
                     MoveKind::Character})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

const char* to_string(Formation f) {
  switch (f) {
    case Formation::Line: return "line";
    case Formation::Column: return "column";
    case Formation::Irregular: return "irregular";
  }
  return "?";
}

const char* to_string(OffTableOutcome o) {
  switch (o) {
    case OffTableOutcome::Destroyed: return "destroyed";
    case OffTableOutcome::GoneRollNextTurn: return "gone, roll again next turn";
    case OffTableOutcome::ReturnsCannotMove: return "returns, cannot move further this turn";
    case OffTableOutcome::ReturnsMayMove: return "returns, may move as normal";
  }
  return "?";
}

}  // namespace referee::warmaster
