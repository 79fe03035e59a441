// The clear-path rule for one moving stand (docs/rulings.md#warmaster-transit-model): the gap rule
// itself as the transit model. Owned by the route-planning work; the move
// checker (movement.hpp) calls it for every leg.
//
// Model (docs/warmaster-geometry.md has the figures).
// - While moving, a stand may turn to fit any gap at least as wide as its
//   shortest edge, so in transit it is a disc of diameter = shortest edge
//   (radius r = 1.0 cm for a 40 x 20 mm stand) whose centre follows the legs.
//   The disc lies inside the footprint, so a stand that overlaps nothing at a
//   pose has a clear disc there: touching at the start and end is fine.
// - Obstacles: other units' stands (characters never), own stands that have
//   already moved or are engaged (set_own_blockers), terrain the troop type
//   may not enter (troops.hpp may_enter). The disc may touch an obstacle,
//   never overlap it (tolerance kTransitTolerance). A gap of exactly the
//   shortest edge passes; 1.9 cm does not, for a 2.0 cm edge.
// - Gates. For every enemy stand E and every other obstacle O within the
//   mover's frontage F (another stand of any side, own blockers, ANY terrain
//   feature, enterable or not, and the table edge), the gap E-O is not wider
//   than F, so the segment joining their closest points is a gate: the disc's
//   centre may not cross it. Passing "between" E and O means crossing that
//   segment, because E, the gate and O form one connected barrier. A stand
//   that goes through an enterable feature instead does not pass the gap.
//   Gaps of exactly F are closed ("more than 40 mm").
// - The table edge is a gap partner and bounds routes, but check_leg does not
//   itself report a stand leaving the table: that is warmaster.movement.off_table
//   (movement.hpp), decided by the move checker.
// - Characters (options.character, or the Character constructor): a disc of
//   the base's diameter (or the stand's shortest edge); units of their own side
//   never block them, enemy stands do; terrain as infantry.
// - Flyers (options.flying): terrain neither blocks them nor closes gaps; other
//   units' stands still block and enemy gaps still apply, unless
//   options.fly_over_stands is set. Where a flyer may end is the move
//   checker's question (troops.hpp flyer_may_end_in).
// - Evaders (options.evading): engaged units always block; friendly,
//   unengaged units listed in burst_through do not block, but a leg may not
//   end overlapping one (warmaster.movement.burst_through: the evader must
//   pass completely through).
// Rule ids: warmaster.movement.path (runs into a stand), warmaster.movement.gap
// (a gap too narrow, with its width and the width required),
// warmaster.movement.terrain (would enter terrain it may not: where it halts).
//
// A TransitScene finds the gates near each leg or route it is asked about
// and keeps them, so its calls that look at gates (check_leg, leg_clear,
// shortest_route, gates) are not const. Threads: a scene is used by one
// thread at a time, its const calls too (they use its scratch); build one
// per thread. Its working space is a TransitScratch that the caller owns and
// passes in (one per thread), or, when none is given, one of its own.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

class MoveIndex;  // movement.hpp

// Contact tolerance of the transit model (cm): a disc this close to an
// obstacle touches it. 0.005 mm, below the hundredth of a millimetre readings
// are taken to.
inline constexpr double kTransitTolerance = 0.0005;

struct TransitOptions {
  bool flying = false;        // flyers and flying characters pass over terrain; stands still block
  bool fly_over_stands = false;  // flyers also pass over stands (house rule; off by default)
  bool character = false;     // characters pass through everything on their own side and treat terrain as infantry
  bool evading = false;       // evaders may not pass through engaged units
  std::vector<std::string> burst_through;  // friendly unengaged units an evader may burst through
  std::vector<std::string> ignore_units;   // units whose stands do not block (e.g. the charge target at contact)
  // When set, only what is near this box becomes an obstacle: units with a
  // stand whose bounding circle meets it, terrain whose bounds meet it. A
  // scene for checking one move need not hold the whole battle.
  std::optional<Aabb> region;
  // With a region: the MoveIndex (movement.hpp) of the battlefield the scene
  // is built on, through which the units near the region are found instead
  // of by visiting every unit. The same obstacles, in the same order; the
  // cost follows the move, not the size of the battle. Read only while the
  // scene is built.
  const MoveIndex* index = nullptr;
};

// Working space for transit scenes and their route searches, kept from one
// scene to the next so that a warm check allocates nothing: the obstacles'
// outline storage, the id lists of leg checks and gate searches, and the
// route planner's buffers and corner cache (about 0.5 MB when full, made on
// the first route search). As Box2D's b2SimplexCache, it is the caller's:
// - one per thread; it is not safe to share between threads;
// - a scene keeps a pointer to the scratch it was built with and uses it in
//   every call, so the scratch must outlive the scene;
// - several scenes of one thread may share it, as their calls never overlap.
class TransitScratch {
 public:
  TransitScratch();
  ~TransitScratch();
  TransitScratch(TransitScratch&&) noexcept;
  TransitScratch& operator=(TransitScratch&&) noexcept;
  TransitScratch(const TransitScratch&) = delete;
  TransitScratch& operator=(const TransitScratch&) = delete;

  struct Impl;  // src/warmaster/transit_scene.hpp
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Everything one unit's stands must avoid, built once per move and reused for
// each stand and leg. Uses a spatial index so its cost follows what is near
// the move, not the size of the battle.
class TransitScene {
 public:
  // `scratch`: the caller's working space (see TransitScratch), or null for
  // a scene that makes its own (fine for one-off questions).
  TransitScene(const Battlefield& bf, const Unit& mover, const Settings& settings, TransitOptions options = {},
               TransitScratch* scratch = nullptr);
  // A character's own move: options.character is set for you; a flying
  // character also gets options.flying.
  TransitScene(const Battlefield& bf, const Character& mover, const Settings& settings, TransitOptions options = {},
               TransitScratch* scratch = nullptr);
  ~TransitScene();
  TransitScene(TransitScene&&) noexcept;
  TransitScene& operator=(TransitScene&&) noexcept;

  // Own stands that have already moved (at their final pose) or are engaged.
  void set_own_blockers(const std::vector<OrientedRect>& rects);

  // Violations of the straight leg from `from` to `to` (rules
  // warmaster.movement.path, warmaster.movement.gap, warmaster.movement.terrain),
  // each with figures. Empty when the leg is clear. `stand_label` is used in
  // reasons, e.g. "stand 2".
  std::vector<Ruling> check_leg(const Pose& from, const Pose& to, const std::string& stand_label);
  // check_leg(from, to, ...).empty(), without writing any reason: for
  // callers that only need to know whether the leg is clear.
  bool leg_clear(const Pose& from, const Pose& to);

  // The shortest route from `from` to `to` obeying the gap rule, as poses
  // including both ends, measured as docs/rulings.md#warmaster-move-distance measures it (corners, leg by
  // leg). nullopt when no route exists within `max_length`.
  // The search bounds the centre path by `max_length`; the measured corner
  // distance (route_distance) can be a little longer, and the caller
  // compares it with the allowance. Intermediate poses keep the start
  // facing except on the one leg where turning costs least (docs/rulings.md#warmaster-reach-facing).
  std::optional<std::vector<Pose>> shortest_route(const Pose& from, const Pose& to, double max_length);
  // The route shortest_route(from, to, read_length) gives when it is no
  // longer than max_length (<= read_length), found at the cost of a search
  // bounded by max_length: it reads the same obstacles, gates and points, in
  // the same order, and leaves out only what lies beyond max_length, so
  // equal routes are chosen alike. nullopt when that route is longer.
  std::optional<std::vector<Pose>> shortest_route(const Pose& from, const Pose& to, double max_length,
                                                  double read_length);

  // Radius of the disc a stand is in transit (half its shortest edge).
  double clearance() const;
  // Is a disc centred at `p` clear of every obstacle (and inside the table)?
  bool is_clear(Vec2 p) const;

  // The gates (closed enemy gaps) the scene found, for pictures and answers.
  struct Gate {
    Segment line;
    std::string a, b;   // e.g. "orcs-1 stand 2", "wood-1", "the table edge"
    double width = 0;   // cm
  };
  std::vector<Gate> gates();

  struct Impl;  // src/warmaster/transit_scene.hpp; reach.cpp builds on it
  const Impl& impl() const { return *impl_; }
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// docs/rulings.md#warmaster-move-distance: the distance a stand moves over a sequence of poses is
// the largest of its four corners' totals, each leg measured corner to
// corner in a straight line. Returns the per-corner totals (front-left,
// front-right, rear-right, rear-left).
std::array<double, 4> corner_distances(const std::vector<Pose>& poses, double width, double depth);
// The same, with the caller's memo of the last rotation (stands of a unit
// measured one after another nearly always share their facings).
std::array<double, 4> corner_distances(const std::vector<Pose>& poses, double width, double depth, RotMemo& rot);
double route_distance(const std::vector<Pose>& poses, double width, double depth);

}  // namespace referee::warmaster
