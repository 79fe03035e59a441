// Inside of TransitScene (include/referee/warmaster/movement/transit.hpp): the
// obstacles, gates and spatial index, shared by check_leg, the route
// planner (transit_route.cpp) and reach (reach.cpp). Not a public header.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"

namespace referee::warmaster {

struct TransitObstacle {
  enum class Kind { Stand, OwnStand, Terrain };
  Kind kind = Kind::Stand;
  Polygon poly;          // counter-clockwise
  Aabb box;
  std::string name;      // terrain: the feature id
  std::string unit_id;   // stands
  int stand = -1;        // stands: index in the unit
  // "orcs-1 stand 2" (numbered from 1 in readable text), "wood-1"; own
  // stands are described where they stand. Made only when a reason is
  // written: scenes are built far more often than they refuse.
  std::string label() const;
  bool enemy = false;    // a stand of the other side
  bool blocks = true;    // false: enterable terrain, a gap partner only
  int feature = -1;      // index into Battlefield::terrain
  TerrainKind terrain = TerrainKind::Wood;
  Vec2 centre;           // bounding circle, for quick rejects
  double radius = 0;
  std::optional<OrientedRect> rect;  // stands: the footprint, for the fast kernels
  void finish();         // fills box and the bounding circle from poly
  // Does the segment come closer than `thr`? check_leg and the planner
  // both decide clearance with this, so they agree.
  bool within(const Segment& s, double thr) const { return rect ? fast_within(s, *rect, thr) : fast_within(s, poly, thr); }
};

struct TransitGateData {
  Segment line;
  int a = -1;           // obstacle index (the enemy stand)
  int b = -1;           // obstacle index, or -1 for the table edge
  double width = 0;
  Aabb box = line.bounds();  // tested against every leg: kept, not worked out each time
};

// Outline storage of obstacles: outlines are made and dropped by the
// thousand as scenes come and go (a stand is four points), so their storage
// is used again rather than going back to malloc each time. The points
// themselves are always written afresh.
class PointStore {
 public:
  std::vector<Vec2> take() {
    if (spare_.empty()) return {};
    std::vector<Vec2> v = std::move(spare_.back());
    spare_.pop_back();
    return v;
  }
  void give(std::vector<Vec2>&& v) {
    if (v.capacity() > 0 && spare_.size() < kKeep) spare_.push_back(std::move(v));
  }

 private:
  static constexpr std::size_t kKeep = 4096;
  std::vector<std::vector<Vec2>> spare_;
};

// Id lists for the scene's queries, reused so that a query allocates
// nothing once they have grown. Each list has one user, and none of those
// calls another that uses the same list.
struct SceneScratch {
  std::vector<int> leg, gate_enemies, gate_near, own_near, point, units, features;
};

// The route planner's buffers (transit_route.cpp), made on first use.
struct RouteScratch;
struct RouteScratchDelete {
  void operator()(RouteScratch* s) const;
};

// The lists of a scene that is gone, emptied but with their storage, for
// the next scene to use (scenes come and go with every move checked).
struct SceneStorage {
  std::vector<TransitObstacle> obstacles;
  GridIndex grid;
  std::vector<TransitGateData> gates;
  std::vector<char> gates_done;
  std::vector<Aabb> gates_regions;
};

struct TransitScratch::Impl {
  PointStore points;
  SceneScratch lists;
  std::vector<SceneStorage> spare_scenes;  // a few: scenes of one thread that are alive at once
  std::unique_ptr<RouteScratch, RouteScratchDelete> route;
};

struct TransitScene::Impl {
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();  // hands the obstacles' point storage and the lists back for reuse
  void take_storage();  // the lists of a scene gone before, from the scratch
  std::unique_ptr<TransitScratch> own_scratch;  // when the caller gave none
  TransitScratch::Impl* scratch = nullptr;      // the caller's, or own_scratch
  double table_w = 180, table_h = 120;
  Settings settings;
  TransitOptions options;
  std::string mover_id;
  int side = 0;
  TroopType type = TroopType::Infantry;  // for terrain access (characters: infantry)
  bool character = false;
  double width = 4.0, depth = 2.0;  // the mover's footprint
  // The disc in transit. Its radius is half the shortest edge less the
  // contact tolerance (docs/rulings.md#warmaster-transit-model): a pose whose
  // footprint overlaps something by no more than the tolerance counts as
  // touching, so the disc, which lies inside the footprint shrunk by the
  // tolerance, must be clear there too. One tolerance governs end poses and
  // transit alike, so a stand may always move into a spot where it would
  // only touch.
  double half_edge = 1.0; // half the shortest edge, for reasons
  double r = 1.0;         // disc radius
  void set_disc(double half_shortest_edge, double contact_tolerance) {
    half_edge = half_shortest_edge;
    r = std::max(half_shortest_edge - contact_tolerance, half_shortest_edge / 4);
  }
  double frontage = 4.0;  // for enemy gaps
  double tol = kTransitTolerance;

  std::vector<TransitObstacle> obstacles;  // fixed ones, then own blockers
  std::size_t fixed_count = 0;
  Aabb fixed_extent{};                     // the bounds of the fixed obstacles
  // Fixed obstacle index -> box (own blockers are few: scanned). Laid over
  // the fixed obstacles only, so its cells follow the move, not the table.
  GridIndex grid;
  // Gates are found lazily, per enemy stand, for the region a query touches,
  // so a scene's cost follows what is near the move. ensure_gates(region)
  // adds them; a const reader of `gates` (check_leg's report_gates, the
  // route search's gather_near) needs it called first for its region. So
  // the scene's calls that look at gates are not const: they find what they
  // need, then read.
  std::vector<TransitGateData> gates;
  std::vector<char> gates_done;    // per obstacle: its gates are in `gates`
  std::vector<Aabb> gates_regions; // regions whose gates are all in `gates` (a few)
  void ensure_gates(const Aabb& region);
  std::vector<std::string> burst_units;    // burst_through units that really let the evader through
  std::vector<OrientedRect> burst_rects;
  std::vector<std::string> burst_labels;

  void add_fixed(const Battlefield& bf);
  void build_index();  // once, over the fixed obstacles
  void own_gates(std::size_t first);  // gates between enemy stands and own blockers from `first` on
  // Obstacles (fixed from the index, then own blockers by a scan) whose box meets `box`.
  void query(const Aabb& box, std::vector<int>& out) const {
    grid.query(box, out);
    for (std::size_t k = fixed_count; k < obstacles.size(); ++k)
      if (obstacles[k].box.overlaps(box)) out.push_back(static_cast<int>(k));
  }
  std::string gap_partner_label(int b) const { return b < 0 ? "the table edge" : obstacles[b].label(); }
  // Disc sweep + gates + table; finds the gates near the segment first.
  bool segment_clear(Vec2 a, Vec2 b, std::vector<int>& scratch);
  bool point_clear(Vec2 p, std::vector<int>& scratch) const;
};

}  // namespace referee::warmaster
