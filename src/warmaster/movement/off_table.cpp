// Units which move off the table (movement text): whether a footprint lies
// off it, and the off-table chart, what becomes of a unit that leaves it.
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"

namespace referee::warmaster::move_detail {

bool off_table(const OrientedRect& r, const Battlefield& bf) {
  constexpr double eps = 1e-6;
  for (Vec2 c : r.corners())
    if (c.x < -eps || c.y < -eps || c.x > bf.width + eps || c.y > bf.height + eps) return true;
  return false;
}

}  // namespace referee::warmaster::move_detail


namespace referee::warmaster {

// The off-table chart (movement text, "Units which move off the table").
OffTableResult resolve_off_table(const std::string& who, int stands_lost, Dice& dice, bool retreating_from_combat) {
  OffTableResult r;
  r.ruling.rule = warmaster::rule_id::movement_off_table;
  if (retreating_from_combat) {
    r.outcome = OffTableOutcome::Destroyed;
    r.ruling.reason = fmt::format("'{}' left the table retreating from combat: destroyed, no roll", who);
    return r;
  }
  std::size_t mark = dice.history().size();
  r.roll = dice.d6("off-table: " + who);
  r.rolls = dice.since(mark);
  r.modified = r.roll - stands_lost;
  if (r.modified <= 0) r.outcome = OffTableOutcome::Destroyed;
  else if (r.modified <= 2) r.outcome = OffTableOutcome::GoneRollNextTurn;
  else if (r.modified <= 4) r.outcome = OffTableOutcome::ReturnsCannotMove;
  else r.outcome = OffTableOutcome::ReturnsMayMove;
  static constexpr const char* kMeaning[] = {
      "it leaves the battlefield and does not return: destroyed",
      "it leaves the battlefield; roll again at the start of its side's next turn, before initiative moves",
      "it reappears at the table edge at the same point it left, and cannot move further this turn",
      "it reappears at the same point on the table edge; at the start of a turn it may move as normal",
  };
  r.ruling.reason = fmt::format("'{}' left the table: rolled {}, -{} for stands lost = {}: {}", who, r.roll,
                                stands_lost, r.modified, kMeaning[static_cast<int>(r.outcome)]);
  r.ruling.figures = {{"roll", static_cast<double>(r.roll), ""},
                      {"stands_lost", static_cast<double>(stands_lost), ""},
                      {"result", static_cast<double>(r.modified), ""}};
  return r;
}

OffTableResult resolve_off_table(const Unit& u, Dice& dice, bool retreating_from_combat) {
  return resolve_off_table(u.id, u.stands_lost, dice, retreating_from_combat);
}

}  // namespace referee::warmaster
