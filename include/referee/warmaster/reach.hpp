// Where a unit's stands can reach with one move (movement text: pace,
// formation, the gap rule, terrain, the table edge), as polygons for
// answers and as an SVG drawn over the battlefield.
//
// The area is the set of points a stand's CENTRE can reach keeping its
// facing, by a path that obeys the transit model (transit.hpp): the disc of
// diameter = shortest edge, gates closing enemy gaps, terrain the mover may
// not enter, the table edge. Keeping the facing, every corner moves as far as
// the centre (reading 4), so the path length is the distance moved. The union
// over the unit's stands is one multi-source distance field.
//
// Method: a grid over the move's bounding box (cell 0.5 cm, coarser for long
// moves so the grid stays under ~40 000 cells); cells whose centre is not
// clear for the disc are blocked, and so are cells within 1.5 cells of a gate
// (a band no grid step can jump). A Dijkstra with 16 neighbours (steps of
// (1,0), (1,1) and (2,1) cells, in flat arrays) gives path lengths at most
// 2.7% longer than the true shortest path (worst at 13 degrees off a grid
// axis) and never shorter, so the area drawn errs on the small side. Marching squares
// on (allowance - distance) trace the boundary, interpolated between cells.
// Final poses are not checked: a stand whose centre can reach a point may
// still overlap something there (the move checker decides).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/model.hpp"
#include "referee/warmaster/settings.hpp"

namespace referee::warmaster {

enum class ReachKind { Ordered, HalfPace, Charge, Evade, Character };
const char* to_string(ReachKind k);
std::optional<ReachKind> reach_kind_from_string(const std::string& s);

struct ReachRequest {
  std::string mover;                     // unit id, or character id for ReachKind::Character
  ReachKind kind = ReachKind::Ordered;
  std::optional<double> allowance;       // override the pace (cm)
  double cell = 0.5;                     // grid cell (cm); coarsened for long moves
};

struct ReachAnswer {
  std::string mover;
  ReachKind kind = ReachKind::Ordered;
  double allowance = 0;                  // cm
  std::string pace;                      // "full pace", "half pace (irregular formation)", ...
  double cell = 0.5;                     // the cell actually used
  std::vector<Polygon> boundary;         // closed rings: outer boundaries counter-clockwise, holes clockwise
  double area = 0;                       // cm^2 of the region (centres reachable)
  std::vector<Pose> starts;              // the stands' poses
  double clearance = 1;                  // the transit disc radius
  std::vector<Segment> gates;            // closed enemy gaps near the move
};

// Throws InputError when the mover does not exist.
ReachAnswer reach(const Battlefield& bf, const ReachRequest& req, const Settings& settings = {});

void to_json(nlohmann::json& j, const ReachAnswer& a);
std::string explain(const ReachAnswer& a);
// The battlefield seen from above with the reach area over it.
std::string reach_svg(const Battlefield& bf, const ReachAnswer& a);

}  // namespace referee::warmaster
