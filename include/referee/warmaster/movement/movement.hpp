// Checking a Warmaster move (movement text; docs/rulings.md#warmaster-move-pace and after). Validation
// is pure: it never changes the battlefield. Applying a legal move is a
// separate step.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/dice.hpp"
#include "referee/core/geometry.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"
#include "referee/warmaster/movement/transit.hpp"

namespace referee::warmaster {

enum class MoveKind {
  Ordered,    // an order received: full pace (half for irregular formation or fortified)
  HalfPace,   // a failed first order: half pace, no charge
  Charge,     // full pace whatever the formation; ends in contact
  Evade,      // full pace whatever the formation
  Dice,       // distance decided by dice (home back, drive back): formation ignored
  Character,  // a character's own move: 60 cm, 100 cm flying
};
const char* to_string(MoveKind k);
std::optional<MoveKind> move_kind_from_string(const std::string& s);

struct StandPlan {
  StandIndex stand;              // index into the unit's stands
  std::vector<Pose> waypoints;   // optional intermediate poses
  Pose final_pose;
};

struct MoveRequest {
  std::string mover;             // unit id, or character id for MoveKind::Character
  MoveKind kind = MoveKind::Ordered;
  std::vector<StandPlan> stands; // one per stand that moves (a character: one, stand 0)
  std::vector<StandIndex> order; // order the stands move in; empty = the engine chooses
  std::optional<double> dice_distance;  // for MoveKind::Dice: the distance rolled
  // MoveKind::Charge: the enemy unit charged. Its stands do not block the
  // chargers' paths (they may move between its stands to reach it), but the
  // final poses may still only touch it.
  std::string charge_target;
};

struct StandRoute {
  StandIndex stand;
  std::vector<Pose> poses;       // start, waypoints, final
  double used = 0;               // cm, docs/rulings.md#warmaster-move-distance
  bool planned = false;          // the engine added waypoints to get round something
};

enum class Formation { Line, Column, Irregular };
const char* to_string(Formation f);

struct MoveAnswer {
  Verdict verdict;
  Formation formation = Formation::Irregular;  // at the start of the move
  double allowance = 0;          // cm each stand may move
  std::string pace;              // "full pace", "half pace", "dice"
  std::vector<StandIndex> order; // the order the stands were moved in
  std::vector<StandRoute> routes;
  bool leaves_table = false;     // warmaster.movement.off_table: roll with resolve_off_table()
};

// How far a check goes. Legality answers whether the move is legal, with
// the same routes for a legal move; for a refused one it may name fewer
// reasons or other figures. A stand's (or character's) route round what
// blocks its straight line is searched only up to the allowance, since any
// longer route is too long anyway, whereas Explain searches further, to show
// by how much a detour fails. For callers that need only the answer
// (simulations, search).
//
// Whether answers as Legality does whether the move is legal and whether it
// leaves the table, and stops once it knows: a refused move's verdict holds
// only the first violation Legality names (the same rule, reason and
// figures), and its routes, order and formation may be left out. For callers
// that ask the same move again and again and read only that (a drive back
// cut short, halving its distance).
enum class CheckDepth { Explain, Legality, Whether };

class MoveScenes;
struct MoveScenesDelete {
  void operator()(MoveScenes* s) const;
};
struct BattlefieldFacts;
struct BattlefieldFactsDelete {
  void operator()(BattlefieldFacts* f) const;
};

// Working space for checking moves, kept by the caller from one check to the
// next so that a warm check allocates little (the transit scenes' buffers
// and route caches; see TransitScratch). One per thread, owned by the
// caller, as the Ancients PathScratch: a simulation keeps one for all its
// games and passes it to every check (WarmasterState::apply, validate). The
// overloads without one make their own, which suits one-off questions.
//
// It also keeps the transit scene of the last unit checked (MoveScenes):
// the next check of the same unit on the same state (the same MoveIndex,
// by MoveIndex::serial, with the same settings), whose surroundings the
// scene covers, uses it again instead of building it anew, as a player
// dragging a unit or the opponent trying its moves checks one unit again
// and again. A scene holds what is near a move, so it answers as a new one
// would. So does the formation of the unit last checked, kept while its
// stands stand bit for bit where they stood.
struct MoveScratch {
  TransitScratch transit;
  std::unique_ptr<MoveScenes, MoveScenesDelete> kept;
  // What a WarmasterState worked out about its battlefield (the units
  // touching, the initiative targets), kept the same way (battle_state.hpp).
  std::unique_ptr<BattlefieldFacts, BattlefieldFactsDelete> facts;
};

MoveAnswer check_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings = {},
                      CheckDepth depth = CheckDepth::Explain);

// A spatial index of a battlefield's units and terrain, built once and reused
// for every move checked on that battlefield, so that a check looks only at
// what is near the move. Keep it with the Battlefield it was built from.
// Once built it is only read: several threads may query one index at once.
//
// Terrain and units each sit in a uniform grid (core GridIndex), so a query
// costs what is near the box asked about, not the size of the battle. The
// units' grid is laid out afresh for every index (each state of a game), so
// a battle of at most kScanUnitsUpTo units has none: their boxes are scanned.
class MoveIndex {
 public:
  explicit MoveIndex(const Battlefield& bf);
  // The index of `bf` when only its units' stands differ from the battlefield
  // `earlier` was built from (a move was applied): the terrain grid is shared
  // and the boxes of units whose stands did not move are kept.
  MoveIndex(const Battlefield& bf, const MoveIndex& earlier);
  // Indices into bf.units / bf.terrain whose bounds meet `box`, ascending.
  void units_near(const Aabb& box, std::vector<int>& out) const;
  void terrain_near(const Aabb& box, std::vector<int>& out) const;
  // Bounds of unit i's stands; nullopt when it has none on the table.
  std::optional<Aabb> unit_box(std::size_t i) const;
  // A number no other index made by this process has (each state of a game
  // has its own index): what MoveScratch keys its kept scene by.
  std::uint64_t serial() const { return serial_; }
  static constexpr std::size_t kScanUnitsUpTo = 64;
  // The largest half-diagonal of any unit's stands (cm): a stand whose centre
  // is within d of a box has its unit found by units_near(box inflated by
  // d + this).
  double max_stand_radius() const { return max_stand_radius_; }

 private:
  void index_units(const Battlefield& bf, const MoveIndex* earlier);
  std::vector<Aabb> unit_boxes_;
  std::vector<unsigned char> unit_present_;
  std::vector<std::size_t> first_pose_;  // unit i's stand poses are poses_[first_pose_[i] .. first_pose_[i + 1])
  std::vector<Pose> poses_;
  GridIndex units_;  // unit index -> unit_boxes_, units with stands only
  double max_stand_radius_ = 0;
  std::shared_ptr<const GridIndex> terrain_;
  std::uint64_t serial_ = 0;
};
MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req,
                      const Settings& settings = {}, CheckDepth depth = CheckDepth::Explain);
MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScratch& scratch, CheckDepth depth = CheckDepth::Explain);

// Moves of one unit probed one after another on one battlefield (the
// engine's evade tries slides of several lengths) may share a transit scene:
// the first check builds it, and a later one whose surroundings it already
// covers uses it again. Keep it with the battlefield and index it was used
// with. Its scenes work in `scratch` (see MoveScratch), which must outlive
// it; null: each scene makes its own.
class MoveScenes {
 public:
  explicit MoveScenes(MoveScratch* scratch = nullptr);
  ~MoveScenes();
  MoveScenes(const MoveScenes&) = delete;
  MoveScenes& operator=(const MoveScenes&) = delete;
  MoveScratch* scratch() const;
  // Scenes hold every unit and feature of the battle, not only those near
  // the move: slower, with the same answers (tests compare the two).
  bool whole_battle = false;
  struct Impl;
  std::unique_ptr<Impl> impl;
};
MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScenes& scenes, CheckDepth depth = CheckDepth::Explain);

// The formation of a unit's stands as they stand now (warmaster.movement.formation).
Formation classify_formation(const Unit& u, const Settings& settings = {});

// Every stand must touch another stand of its unit (movement text, Formation
// & Movement): the stands among `rects` that touch none (within `tolerance`),
// each with the nearest other stand and the gap to it.
struct StandApart {
  std::size_t stand = 0, nearest = 0;
  double gap = 0;  // cm
};
std::vector<StandApart> stands_apart(const std::vector<OrientedRect>& rects, double tolerance);
// "stand 1 touches no other stand of its unit{when} (nearest: stand 2, 20.0 mm away; ...)".
std::string describe_apart(const StandApart& a, double tolerance, std::string_view when = {});
// A battle's units deployed with a stand touching none of its unit
// (warmaster.movement.formation; docs/rulings.md#warmaster-deployment): one warning each. The
// battle still loads; such a unit's next move must re-form it.
std::vector<Ruling> formation_warnings(const Battlefield& bf, const Settings& settings);

// A copy of the battlefield with the move applied (stands at their final
// poses). Call only with a legal answer.
Battlefield apply_move(const Battlefield& bf, const MoveRequest& req);
// The same, on `bf` itself.
void place_move(Battlefield& bf, const MoveRequest& req);
// The unit as `req` leaves it: its stands at their final poses. The request
// was checked (its stand numbers exist).
Unit unit_after(const Unit& u, const MoveRequest& req);

// Every stand of `u` shifted by `shift`, keeping formation and facings.
MoveRequest slide_move(const Unit& u, Vec2 shift, MoveKind kind, std::optional<double> dice_distance = std::nullopt);

// A whole unit pushed straight along the unit vector `dir` by up to `dist`
// cm (a drive back, a combat's fall back): each stand keeps its facing and
// takes exactly the straight leg (a waypoint halfway, so nothing is planned
// round what blocks it), checked as a move by dice of that distance. Over
// the table edge: leaves_table, moved = dist. Refused: cut short to as far
// as it can go, halving to 0.01 cm, with the full distance's first reason.
struct StraightPush {
  double moved = 0;  // cm
  bool leaves_table = false;
  bool blocked = false;
  std::string why;  // blocked: the refusal's first reason
};
StraightPush push_straight(const Battlefield& bf, const MoveIndex& index, const Unit& u, Vec2 dir, double dist,
                           const Settings& settings, MoveScratch& scratch);

// --- Details of the checks, exposed for tests and other phases ----------------

// Moves are measured to a hundredth of a millimetre (docs/rulings.md#warmaster-move-distance): a
// stand may exceed its allowance by no more than this.
inline constexpr double kMeasureSlack = 0.001;

// The pace of a move (warmaster.movement.pace): the allowance in cm and a
// label such as "full pace" or "half pace (irregular formation)".
struct Pace {
  double allowance = 0;
  std::string label;
};
Pace move_pace(const Unit& u, MoveKind kind, Formation formation, std::optional<double> dice_distance = std::nullopt);

// The pose a stand has a fraction t (0..1) of the way along a leg: the
// centre moves in a straight line, the facing turns the short way round.
Pose interpolate(const Pose& from, const Pose& to, double t);

// Where a stand moving along `poses` first touches `blocked` terrain pieces:
// the last clear pose (it halts at the edge, movement text "Terrain") and how
// far its centre travelled to get there. nullopt when it never touches.
struct Halt {
  Pose pose;
  double travelled = 0;  // cm, centre path up to the halt
  std::size_t leg = 0;   // index of the leg it halts on
};
std::optional<Halt> halt_before(const std::vector<Pose>& poses, double width, double depth,
                                const std::vector<const Polygon*>& blocked, double tolerance);

// --- Units leaving the table (warmaster.movement.off_table) -------------------
enum class OffTableOutcome {
  Destroyed,          // 0 or less, or left while retreating from combat
  GoneRollNextTurn,   // 1-2: roll again at the start of its side's next turn
  ReturnsCannotMove,  // 3-4: back at the point it left, no further move this turn
  ReturnsMayMove,     // 5-6: back at the point it left; may move if at the start of a turn
};
const char* to_string(OffTableOutcome o);

struct OffTableResult {
  OffTableOutcome outcome = OffTableOutcome::Destroyed;
  int roll = 0;       // the D6 (0 when no roll: retreat from combat)
  int modified = 0;   // roll - stands lost
  Ruling ruling;      // rule warmaster.movement.off_table, with the figures
  std::vector<Roll> rolls;
};
// Rolls a D6 through `dice`, -1 per stand already lost, and applies the
// chart. A unit leaving while retreating from combat is destroyed, no roll.
OffTableResult resolve_off_table(const std::string& who, int stands_lost, Dice& dice,
                                 bool retreating_from_combat = false);
OffTableResult resolve_off_table(const Unit& u, Dice& dice, bool retreating_from_combat = false);

}  // namespace referee::warmaster
