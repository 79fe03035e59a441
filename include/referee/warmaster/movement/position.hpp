// A unit's position against shooting and in combat: open, defended or
// fortified (play sheet, "SHOOTING" and "COMBAT"), from the terrain its stands
// are in or behind (docs/rulings.md#warmaster-shooting-position). Both phases
// read it, so it lives below them.
#pragma once

#include <optional>
#include <string>

#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

// docs/rulings.md#warmaster-shooting-position
enum class Position { Open, Defended, Fortified };
const char* to_string(Position p);
std::optional<Position> position_from_string(const std::string& s);
// The unit's position against shooting and in combat, with the reason.
struct PositionAnswer {
  Position position = Position::Open;
  std::string reason;
};
PositionAnswer position_of(const Battlefield& bf, const Unit& u, const Settings& settings = {});
// The D6 score needed to hit a unit in this position, shooting or in
// combat: 4, 5 or 6.
int to_hit(Position p);

}  // namespace referee::warmaster
