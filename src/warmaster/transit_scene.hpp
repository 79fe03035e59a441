// Inside of TransitScene (include/referee/warmaster/transit.hpp): the
// obstacles, gates and spatial index, shared by check_leg, the route
// planner (transit_route.cpp) and reach (reach.cpp). Not a public header.
#pragma once

#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/transit.hpp"

namespace referee::warmaster {

struct TransitObstacle {
  enum class Kind { Stand, OwnStand, Terrain };
  Kind kind = Kind::Stand;
  Polygon poly;          // counter-clockwise
  Aabb box;
  std::string label;     // "orcs-1 stand 2", "wood-1"
  std::string unit_id;   // stands
  bool enemy = false;    // a stand of the other side
  bool blocks = true;    // false: enterable terrain, a gap partner only
  int feature = -1;      // index into Battlefield::terrain
  TerrainKind terrain = TerrainKind::Wood;
};

struct TransitGateData {
  Segment line;
  int a = -1;           // obstacle index (the enemy stand)
  int b = -1;           // obstacle index, or -1 for the table edge
  double width = 0;
};

struct TransitScene::Impl {
  double table_w = 180, table_h = 120;
  Settings settings;
  TransitOptions options;
  std::string mover_id;
  int side = 0;
  TroopType type = TroopType::Infantry;  // for terrain access (characters: infantry)
  bool character = false;
  double width = 4.0, depth = 2.0;  // the mover's footprint
  double r = 1.0;         // disc radius: half the shortest edge
  double frontage = 4.0;  // for enemy gaps
  double tol = kTransitTolerance;

  std::vector<TransitObstacle> obstacles;  // fixed ones, then own blockers
  std::size_t fixed_count = 0;
  GridIndex grid;                          // obstacle index -> box
  std::vector<TransitGateData> gates;
  std::vector<std::string> burst_units;    // burst_through units that really let the evader through
  std::vector<OrientedRect> burst_rects;
  std::vector<std::string> burst_labels;

  void add_fixed(const Battlefield& bf);
  void rebuild();  // index and gates, after obstacles change
  std::string gap_partner_label(int b) const { return b < 0 ? "the table edge" : obstacles[b].label; }
  // Obstacles (blocking or not) whose box meets `box`.
  void query(const Aabb& box, std::vector<int>& out) const { grid.query(box, out); }
  bool segment_clear(Vec2 a, Vec2 b, std::vector<int>& scratch) const;  // disc sweep + gates + table
  bool point_clear(Vec2 p, std::vector<int>& scratch) const;
};

}  // namespace referee::warmaster
