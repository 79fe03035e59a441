// Blightmeer's battlefield and units. OpenSpiel split: `Terrain` is
// the immutable game description (table, raised surfaces, ladders, regions,
// settings, and the navigation graph compiled from them once); `State` is the
// cheap, cloneable part that moves change (the units).
//
// Geometry reading (docs/rulings.md#blightmeer-geometry): positions are 3D points in
// inches. A raised surface is a solid prism: its footprint polygon rises from
// the ground to its height, with vertical sides. Surfaces may stack (a tower on
// a roof), so the ground level at any point is the height of the highest
// footprint containing it, or 0. A unit stands where its centre is exactly at
// that level; lower is inside a wall, higher is in mid-air.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"

namespace referee::blightmeer {

// Heights and positions closer than this are the same (inches).
inline constexpr double kEps = 1e-6;
// A stated position may be this far from the level and still be on it.
inline constexpr double kPlaceTolerance = 0.01;
// Rounds in a game unless the battle file says otherwise (docs/rulings.md#blightmeer-game-end).
inline constexpr int kDefaultTurnLimit = 6;

struct Vec3 {
  double x = 0;
  double y = 0;
  double z = 0;
  constexpr Vec2 xy() const { return {x, y}; }
  constexpr bool operator==(const Vec3&) const = default;
};

// A position in words, in inches: "(12.0, 3.5, 0.0)". Rulings and reports
// say tenths (position_words(p)); an error about a position the input gave
// says hundredths (position_words(p, 2)), so that it reads as the file wrote it.
std::string position_words(Vec3 p, int decimals = 1);

enum class Armour { none, light, heavy, mithril };
enum class RegionKind { difficult, impassable, shallow_water, deep_water };

const char* to_string(Armour a);
const char* to_string(RegionKind k);

// Bits for the terrain a path touches.
enum TerrainBits : unsigned {
  kDifficult = 1u,
  kShallow = 2u,
  kDeep = 4u,
  kLow = 8u,
};
inline bool slows(unsigned bits) { return (bits & (kDifficult | kShallow | kDeep)) != 0; }

struct Surface {
  std::string id;
  Polygon footprint;
  double height = 0;
  bool climbable = true;  // its vertical sides may be climbed
  bool railing = false;   // a railing round its edge (stops Dazed/Stunned falls, docs/rulings.md#blightmeer-ledges)
  Aabb box;
};

// A ladder joins two levels; `bottom.z < top.z`, and each end lies on a level.
struct Ladder {
  std::string id;
  Vec3 bottom;
  Vec3 top;
};

// A region on the level `level` (0 is the ground). Impassable regions block at
// every height: "cannot be moved through or over".
struct Region {
  std::string id;
  RegionKind kind = RegionKind::difficult;
  Polygon area;
  double level = 0;
  Aabb box;
};

// Terrain 1 inch high or less: crossed freely (blightmeer.terrain.low).
struct LowTerrain {
  std::string id;
  Polygon area;
  double height = 1;
  Aabb box;
};

// Readings players may set differently (docs/rulings.md#blightmeer-climb-leeway and the entries after it).
struct Settings {
  double climb_leeway = 1.0;           // horizontal inches allowed within a climb
  bool mithril_sinks = true;           // mithril counts as armour in deep water
  double fall_clear_gap = 0.1;         // gap left between a fallen unit and the unit it missed
  double jump_down_range = 3.0;        // landing within this of the take-off
  double jump_across_reach = 3.0;      // default reach; a unit trait may raise it
  double free_jump_gap = 1.0;          // jumps this short need no check
  double disadvantage_drop = 4.0;      // jump-down drop from which the check has Disadvantage
};

struct Unit {
  std::string id;
  std::string name;
  std::string side;
  Vec3 pos;
  double base = 1.0;  // round base diameter
  int move = 6;
  int agility = 10;
  int wounds = 1;
  Armour armour = Armour::none;
  bool animal = false;
  bool large = false;
  // state
  bool dazed = false;
  bool stunned = false;
  bool staggered = false;
  bool tried_to_engage = false;
  bool treasure = false;
  bool incapacitated = false;
  bool ran = false;  // ran this turn: cannot shoot, spells 2 harder
  std::vector<std::string> engaged_with;
  // traits
  double jump_across_reach = 3.0;  // Wood Elves 6
  int fall_injury_modifier = 0;    // Dwarves -2
  bool agility_advantage = false;  // something grants Advantage on Agility checks

  double radius() const { return base / 2; }
  bool disabled() const { return dazed || stunned; }
};

struct NavGraph;  // route.hpp

// Most any battlefield holds (docs/rulings.md#blightmeer-caps): far above a
// real table, low enough that loading stays quick. A file over a cap is
// refused with an InputError naming the field and the cap.
inline constexpr std::size_t kMaxSurfaces = 5000;
inline constexpr std::size_t kMaxRegions = 2000;
inline constexpr std::size_t kMaxLowTerrain = 2000;
inline constexpr std::size_t kMaxLadders = 1000;
inline constexpr std::size_t kMaxUnits = 200;

// Which surfaces may hold a point, so that the level at a point and the
// profile under a line read only the surfaces near them, not every one: a
// uniform grid of 2-inch cells over the table, each listing the surfaces
// whose bounds meet it (ascending). A surface covering more than kBigCells
// cells is kept in `big` instead and always read, which bounds the memory.
// Tables with few surfaces (up to kIndexFrom) are read in full: cheaper.
struct SurfaceGrid {
  static constexpr double kCell = 2.0;
  static constexpr int kBigCells = 256;
  static constexpr std::size_t kIndexFrom = 64;
  bool built = false;
  int nx = 0, ny = 0;
  std::vector<int> start;  // nx * ny + 1 offsets into ids
  std::vector<int> ids;
  std::vector<int> big;
  std::size_t count = 0;   // surfaces indexed; a mismatch means "not indexed"
  // Cell ranges of a box, clamped to the grid (clamping keeps every overlap).
  int cx(double x) const;
  int cy(double y) const;
};

class Terrain {
 public:
  std::string name;
  double width = 36;
  double depth = 36;
  Settings settings;
  // Rounds played before the game ends: the Move-phase text gives no victory
  // condition (docs/rulings.md#blightmeer-game-end).
  int turn_limit = kDefaultTurnLimit;
  std::vector<Surface> surfaces;
  std::vector<Ladder> ladders;
  std::vector<Region> regions;
  std::vector<LowTerrain> low_terrain;
  std::shared_ptr<const NavGraph> nav;  // built by compile()
  SurfaceGrid surface_grid;             // built by index_surfaces() and compile()

  // Fills bounding boxes and builds the navigation graph. Call once after loading.
  void compile(double max_reach = 6.0);
  // Fills the surfaces' bounding boxes and the surface index, so that
  // level_at and scan read only nearby surfaces (before compile(), a loader
  // placing things on levels may call it). Without it they read every one.
  void index_surfaces();

  Aabb table() const { return {{0, 0}, {width, depth}}; }
  bool on_table(Vec2 p) const;
  // The level a unit stands on at p: the highest footprint containing p, or 0.
  double level_at(Vec2 p) const;
  int surface_at(Vec2 p) const;  // index of that footprint, -1 for the ground
  bool in_impassable(Vec2 p) const;
  // Regions (and low terrain) at p on `level`, as TerrainBits.
  unsigned regions_at(Vec2 p, double level) const;
  int ladder_index(const std::string& id) const;

  // What a straight line from a to b passes over, seen from above.
  struct Scan {
    double min_level = 0;     // lowest level under the line (endpoints included)
    double max_level = 0;     // highest
    double first_drop_t = -1; // first t where the level falls below the level at a (-1: never)
    bool impassable = false;
    bool leaves_table = false;
    bool unclimbable_wall = false;  // crosses a side of a surface that may not be climbed
    unsigned bits = 0;              // regions crossed on `level`
    double deep_entry_t = -1;       // where it first enters deep water on `level`
  };
  Scan scan(Vec2 a, Vec2 b, double level) const;
};

struct State {
  std::vector<Unit> units;
  int find(const std::string& id) const;  // -1 when absent
};

// A battlefield as loaded: the shared description and its starting state.
struct Battle {
  std::shared_ptr<const Terrain> terrain;
  State state;
  // Side names in play order: the file's "sides", or the order in which units
  // first name them (docs/rulings.md#blightmeer-turn-order).
  std::vector<std::string> sides;
  std::string source;  // file it came from
};

}  // namespace referee::blightmeer
