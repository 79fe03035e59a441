// Line of sight and distance between units and characters (movement text,
// Moving by initiative; README reading 6). Library functions used by
// initiative and command penalties.
#pragma once

#include <optional>
#include <string>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model.hpp"
#include "referee/warmaster/settings.hpp"

namespace referee::warmaster {

// Shortest distance between any stand of `a` and any stand of `b`, with the
// closest points (the evade direction and "closest enemy" use these).
ClosestPoints unit_distance(const Unit& a, const Unit& b);
// Shortest distance between a character's base and any stand of the unit.
ClosestPoints character_distance(const Character& c, const Unit& u);

struct SightAnswer {
  bool visible = false;
  std::optional<Segment> line;    // a clear line found, from a viewer's edge to the target
  std::string blocked_by;         // when not visible: what blocked the best candidate line ("unit orcs-2", "terrain wood-1")
  double distance = 0;            // unit_distance between them
};

// Can `viewer` see `target`? A line from the front edge of any viewer stand
// (any free edge when the viewer sees all round and `front_only` is false)
// to any part of a target stand, crossing no other unit's stand (characters
// never block) and no terrain except low features.
SightAnswer line_of_sight(const Battlefield& bf, const Unit& viewer, const Unit& target, const Settings& settings,
                          bool front_only = true);

}  // namespace referee::warmaster
