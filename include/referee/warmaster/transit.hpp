// The clear-path rule for one moving stand: README reading 5, the gap rule
// itself as the transit model. Owned by the route-planning work; the move
// checker (movement.hpp) calls it for every leg.
//
// Model. While moving, a stand may turn to fit any gap at least as wide as
// its shortest edge, so in transit it is a disc of diameter = shortest edge
// whose centre follows the route. Obstacles: other units' stands (characters
// never), own stands that have already moved or are engaged, terrain the
// troop type may not enter, and the table edge. A gap with an enemy stand on
// either side must be strictly wider than the stand's frontage: such gaps
// are closed with "gates" before routing.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model.hpp"
#include "referee/warmaster/settings.hpp"

namespace referee::warmaster {

struct TransitOptions {
  bool flying = false;        // flyers and flying characters pass over terrain and stands? (no: stands still block)
  bool character = false;     // characters pass through everything on their own side and treat terrain as infantry
  bool evading = false;       // evaders may not pass through engaged units
  std::vector<std::string> burst_through;  // friendly unengaged units an evader may burst through
  std::vector<std::string> ignore_units;   // units whose stands do not block (e.g. the charge target at contact)
};

// Everything one unit's stands must avoid, built once per move and reused for
// each stand and leg. Uses a spatial index so its cost follows what is near
// the move, not the size of the battle.
class TransitScene {
 public:
  TransitScene(const Battlefield& bf, const Unit& mover, const Settings& settings, TransitOptions options = {});
  ~TransitScene();
  TransitScene(TransitScene&&) noexcept;
  TransitScene& operator=(TransitScene&&) noexcept;

  // Own stands that have already moved (at their final pose) or are engaged.
  void set_own_blockers(std::vector<OrientedRect> rects);

  // Violations of the straight leg from `from` to `to` (rules
  // warmaster.movement.path, warmaster.movement.gap, warmaster.movement.terrain),
  // each with figures. Empty when the leg is clear. `stand_label` is used in
  // reasons, e.g. "stand 2".
  std::vector<Ruling> check_leg(const Pose& from, const Pose& to, const std::string& stand_label) const;

  // The shortest route from `from` to `to` obeying the gap rule, as poses
  // including both ends, measured as reading 4 measures it (corners, leg by
  // leg). nullopt when no route exists within `max_length`.
  std::optional<std::vector<Pose>> shortest_route(const Pose& from, const Pose& to, double max_length) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// README reading 4: the distance a stand moves over a sequence of poses is
// the largest of its four corners' totals, each leg measured corner to
// corner in a straight line. Returns the per-corner totals (front-left,
// front-right, rear-right, rear-left).
std::array<double, 4> corner_distances(const std::vector<Pose>& poses, double width, double depth);
double route_distance(const std::vector<Pose>& poses, double width, double depth);

}  // namespace referee::warmaster
