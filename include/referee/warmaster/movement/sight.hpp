// Line of sight and distance between units and characters (movement text,
// Moving by initiative; docs/rulings.md#warmaster-transit-line-of-sight). Library functions used by
// initiative and command penalties.
#pragma once

#include <optional>
#include "referee/warmaster/model/rule_ids.hpp"
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

// Shortest distance between any stand of `a` and any stand of `b`, with the
// closest points (the evade direction and "closest enemy" use these).
ClosestPoints unit_distance(const Unit& a, const Unit& b);
// The unit vector from `from`'s closest point to `to`'s (from centre to
// centre when they overlap): the way directly away from `from` for `to`, as
// drive backs and blunders' retreats go.
Vec2 direction_between(const Unit& from, const Unit& to);
// Shortest distance between a character's base and any stand of the unit.
ClosestPoints character_distance(const Character& c, const Unit& u);

struct SightAnswer {
  std::string rule = warmaster::rule_id::sight;
  bool visible = false;
  std::optional<Segment> line;    // a clear line found, from a viewer's edge to the target
  std::string blocked_by;         // when not visible: what blocked the best candidate line ("unit orcs-2", "terrain wood-1")
  double distance = 0;            // unit_distance between them
  std::string reason;             // readable: which line, or what blocks
};

// Can `viewer` see `target`? A line from the front edge of any viewer stand
// (any free edge when the viewer sees all round and `front_only` is false)
// to any part of a target stand, crossing no other unit's stand (characters
// never block) and no terrain except low features.
//
// How: a line is clear when it crosses no blocker's interior (grazing a
// corner or running along an edge is touching, not crossing). A few sample
// lines are tried first (edge points to target corners and centres); when
// they are all blocked, the exact search tries every line through two
// critical points (viewer edge ends, target corners, blocker vertices near
// both): if any clear line exists, one of these does too. Before it, when
// for every edge and target stand one convex blocker (a stand, a convex piece
// of terrain) lies across every line between them (the lines from the edge's
// ends to the target's corners each run 0.02 cm deep into it, so every line
// between does too), no line can be clear and the search stops.
// Terrain a stand is itself inside (overlaps) does not block its lines when
// settings.see_out_of_own_feature is set (the default; docs/rulings.md#warmaster-see-out-of-own-feature).
SightAnswer line_of_sight(const Battlefield& bf, const Unit& viewer, const Unit& target, const Settings& settings,
                          bool front_only = true);
// For each stand of the viewer listed in `asked`: does it see the target from
// its front edge, by the rule above applied to that stand alone? Shooting
// counts only the stands that do (docs/rulings.md#warmaster-shooting-range-per-stand).
// The blockers are gathered once for all of them, and each stand's search
// asks only whether (no line or reason is written). Stands not asked: false.
std::vector<char> stands_that_see(const Battlefield& bf, const Unit& viewer, const Unit& target,
                                  const Settings& settings, const std::vector<StandIndex>& asked);
// A character sees from any point of its base; characters never block and
// are seen like a stand of their own.
SightAnswer line_of_sight(const Battlefield& bf, const Character& viewer, const Unit& target, const Settings& settings);
SightAnswer line_of_sight(const Battlefield& bf, const Unit& viewer, const Character& target, const Settings& settings,
                          bool front_only = true);

// The edges of a unit's stands a line of sight may start from: front edges,
// or every free edge (not in contact with another stand of the unit) when
// the unit sees all round and `front_only` is false.
std::vector<Segment> sight_edges(const Unit& viewer, const Settings& settings, bool front_only = true);

}  // namespace referee::warmaster
