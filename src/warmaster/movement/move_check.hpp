// The move checker's own parts, shared by its files (src/warmaster/movement):
// the rule ids it cites, the terrain at the end of a move (terrain.cpp), the
// clear path and the search for an order of the stands (clear_path.cpp), the
// checks on the final poses (final_poses.cpp), the pace (pace.cpp), a
// character's move (character_move.cpp) and what one check keeps for the
// next (move_scenes.cpp); check_move and its steps are in movement.cpp. Not
// a public header: the movement room's API is
// include/referee/warmaster/movement/movement.hpp.
#pragma once

#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/ruling.hpp"
#include "referee/warmaster/movement/transit.hpp"

namespace referee::warmaster {

// What MoveScenes keeps from one check to the next (move_scenes.cpp): the
// scene last built, with what it was built for, and the formation last
// classified.
struct MoveScenes::Impl {
  std::uint64_t state = 0;  // MoveIndex::serial of the battlefield the scene was built on
  Settings settings;
  std::string unit;
  bool flying = false;
  bool evading = false;
  std::vector<std::string> ignore_units;
  Aabb region{};
  MoveScratch* scratch = nullptr;
  TransitScratch* transit() const { return scratch ? &scratch->transit : nullptr; }
  std::optional<TransitScene> scene;
  // The formation of the stands last classified (kept_formation): their
  // poses and size, the contact tolerance, and what they make (none yet:
  // formation_known false).
  bool formation_known = false;
  std::vector<Pose> formation_poses;
  double formation_width = 0, formation_depth = 0, formation_tolerance = 0;
  Formation formation = Formation::Irregular;
};

}  // namespace referee::warmaster

namespace referee::warmaster::move_detail {

inline constexpr const char* kRulePace = warmaster::rule_id::movement_pace;
inline constexpr const char* kRuleFormation = warmaster::rule_id::movement_formation;
inline constexpr const char* kRuleDistance = warmaster::rule_id::movement_distance;
inline constexpr const char* kRuleTerrain = warmaster::rule_id::movement_terrain;
inline constexpr const char* kRuleOverlap = warmaster::rule_id::movement_overlap;
inline constexpr const char* kRuleConfused = warmaster::rule_id::movement_confused;

inline std::string cm(double v) { return format_measure(v, "cm"); }

// Does the stand's route move it (more poses than its start)?
inline bool moves(const StandRoute& r) { return r.poses.size() > 1; }

// Terrain at the end of the move (terrain.cpp).
bool rect_in_feature(const OrientedRect& r, const TerrainFeature& f, double tol);
bool disc_in_feature(Vec2 c, double radius, const TerrainFeature& f, double tol);
bool nobody_enters(TerrainKind k);
std::string feature_label(const TerrainFeature& f);
std::vector<const TerrainFeature*> terrain_near(const Battlefield& bf, const MoveIndex& index, const Aabb& box);
std::vector<bool> check_terrain(const std::vector<const TerrainFeature*>& terrain, const Unit& u,
                                const std::vector<StandRoute>& routes, const Settings& settings, bool explain,
                                RotMemo& rot, Verdict& verdict);

// Whether a footprint lies off the table, even in part (off_table.cpp).
bool off_table(const OrientedRect& r, const Battlefield& bf);

// The clear path and the search for an order of the stands (clear_path.cpp;
// docs/rulings.md#warmaster-transit-model).
bool any_leg_blocked(TransitScene& scene, const std::vector<Pose>& poses);

// Stands move one at a time in `order`. Each leg goes to TransitScene, which
// applies the gap rule; own stands block once they have moved (or when the
// unit is engaged). A stand sent without waypoints whose straight line is
// blocked gets the shortest route that obeys the gap rule, if one exists.
struct PathAttempt {
  std::vector<Ruling> violations;
  std::vector<StandRoute> routes;
  StandIndex failed = StandIndex::none();  // the first stand whose path failed
};

// Routes are searched within `search.route` and read as far as
// `search.read` (TransitScene::shortest_route). `search.reasons`: write the
// reasons of every stand with no route; otherwise the first one ends the
// attempt with a short reason.
struct RouteSearch {
  double route = 0;
  double read = 0;
  bool reasons = true;
};

// Where the unit's own stands stand as blockers (set_own_blockers): each at
// the end of its route once it has moved, and, for an engaged unit, each
// where it starts until then. Worked out once per check: every order traced
// reads the same footprints.
struct OwnFootprints {
  const std::vector<OrientedRect>& finals;  // final_footprints
  std::vector<OrientedRect> starts;         // engaged units only
  std::vector<OrientedRect> blockers;       // the list handed to the scene, reused stand after stand
  std::vector<char> moved;
  OwnFootprints(const Unit& u, const std::vector<OrientedRect>& final_rects, RotMemo& rot) : finals(final_rects) {
    if (u.engaged)
      for (std::size_t j = 0; j < u.stands.size(); ++j) starts.push_back(u.footprint(j, rot));
    blockers.reserve(finals.size());
  }
  // The own blockers of stand i, the stands marked in `moved` having moved.
  const std::vector<OrientedRect>& of(StandIndex i) {
    blockers.clear();
    for (std::size_t j = 0; j < finals.size(); ++j) {
      if (j == i.slot()) continue;
      if (moved[j]) blockers.push_back(finals[j]);
      else if (!starts.empty()) blockers.push_back(starts[j]);
    }
    return blockers;
  }
};

RouteSearch route_search(const Unit& u, const Pace& pace, double max_route, bool explain);

// The search for an order of the stands (and their routes) in which the
// move works: what it works with, and what it chose.
struct OrderSearch {
  const Unit& u;
  const std::vector<StandRoute>& routes;
  const std::vector<bool>& skip;
  const RouteSearch& search;
  const std::vector<StandIndex>& moving;
  double allowance = 0;
  bool other_orders = false;  // no order was asked for, and more than one stand moves
  std::vector<std::vector<StandIndex>> orders;  // the listed order first; the others only once needed
  OwnFootprints own;
  PathAttempt chosen;      // its routes are left empty when they are the routes as asked (`as_asked`)
  bool as_asked = false;   // the chosen routes are `routes`, nothing planned
  std::vector<StandIndex> order;  // the order chosen
  StandIndex first_blocked = StandIndex::none();  // in the listed order, the first stand whose straight legs are blocked
};

bool straight_in_some_order(TransitScene& scene, OrderSearch& s);
void no_route_in_any_order(OrderSearch& s);
void plan_in_some_order(TransitScene& planner, OrderSearch& s);

// Checks on the final poses (final_poses.cpp).
void check_distances(const Unit& u, const Pace& pace, Formation formation, MoveKind kind, bool explain,
                     RotMemo& rot, Verdict& verdict, std::vector<StandRoute>& routes);
void check_overlaps(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                    const std::vector<StandRoute>& routes, const std::vector<OrientedRect>& finals,
                    const Settings& settings, bool first_only, Verdict& verdict);
void check_end_formation(const std::vector<OrientedRect>& finals, const Settings& settings, Verdict& verdict);

// The unit's pace, and whether it may move at all (pace.cpp).
Pace check_pace(const Unit& u, const MoveRequest& req, Formation formation, MoveAnswer& a);

// A character's move (character_move.cpp).
MoveAnswer check_character_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings, CheckDepth depth,
                                TransitScratch* scratch, const MoveIndex* index = nullptr, bool whole_battle = false);

// What one check keeps for the next (move_scenes.cpp).
TransitOptions scene_options(const TransitOptions& opts, const MoveScenes& scenes);
Formation kept_formation(MoveScenes& scenes, const Unit& u, const Settings& settings);
TransitScene& kept_scene(MoveScenes& scenes, const Battlefield& bf, const MoveIndex& index, const Unit& u,
                         const Settings& settings, const TransitOptions& opts);

}  // namespace referee::warmaster::move_detail
