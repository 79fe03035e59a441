// Formation plans: a unit's stands set out in a formation, as a move request
// the move check takes (movement.hpp). Pure geometry: nothing is checked
// here. The built-in opponent moves with them, and the board's formation
// helpers (the `formation_plan` query) show them before a player makes them.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

// The compass facing (0 = +y, clockwise) of the direction v.
double compass_of(Vec2 v);

// The mean of the unit's stand centres (the origin for an empty unit).
Vec2 stands_centre(const Unit& u);

// The length of a polyline, in cm.
double path_length(const std::vector<Vec2>& path);

// The point `d` cm along the path, and the heading there (a unit vector,
// looking a few points ahead, so a staircase of grid cells reads as a
// line). A d below 0 lies on the first segment carried back past the start;
// a d past the end is the end. The heading is zero for a path with fewer
// than two distinct points.
std::pair<Vec2, Vec2> point_along(const std::vector<Vec2>& path, double d);

// The unit's stands placed about a new centre, turned to `facing` (the
// formation wheeled about its centre) or keeping their facings.
MoveRequest place_unit(const Unit& u, Vec2 new_centre, std::optional<double> facing, MoveKind kind);

// A line facing `toward`: the stands side by side, touching edge to edge
// (Warmaster's line: stands placed side by side with their front edges in
// one line), centred on the unit's centre (stands_centre), each facing the
// compass way from that centre to `toward`. The stands take their places in
// their order across the new line, so that their paths do not cross. The
// engine chooses the order they move in. nullopt when `toward` is within a
// millimetre of the centre (no way to face) or the unit has no stands.
std::optional<MoveRequest> line_facing(const Unit& u, Vec2 toward, MoveKind kind);

// A column along a path: the stands one behind another, the lead `lead_at`
// cm along the path (default: at its end), each touching the one ahead of
// it front to back and facing the way where it stands. Each place goes to
// the nearest stand not yet placed, the lead first, and the stands move in
// that order. A stand behind the path's start stands on its first segment
// carried back. nullopt when the path has no length or the unit no stands.
std::optional<MoveRequest> column_along(const Unit& u, const std::vector<Vec2>& path, MoveKind kind,
                                        std::optional<double> lead_at = std::nullopt);

}  // namespace referee::warmaster
