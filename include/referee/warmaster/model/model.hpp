// The Warmaster battlefield as plain data: terrain, units of stands, and
// characters. Measurements are in centimetres, facings in compass degrees
// (see core/geometry.hpp). A Battlefield is an immutable description of a
// position; game state (orders given, turn) lives with the command phase.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/core/cow_vector.hpp"
#include "referee/core/geometry.hpp"
#include "referee/core/index.hpp"
#include "referee/core/ruling.hpp"

namespace referee::warmaster {

// Coordinates beyond this (cm) are refused as absurd.
inline constexpr double kCoordinateLimit = 10000.0;

enum class TroopType { Infantry, Cavalry, Chariot, Monster, Artillery, Machine, Flyer };

enum class TerrainKind {
  OpenHill,
  SteepHill,
  Wood,
  Village,
  BrokenGround,
  Marsh,
  GrownField,
  ShallowRiver,
  DeepRiver,
  Ford,
  Bridge,
  LowObstacle,
  HighObstacle,
  Building,
  FortificationWall,
  Impassable,
};

enum class CharacterRole { General, Hero, Wizard };

// Missile weapons and their ranges (play sheet, Shooting: "Range"):
// bows and crossbows 30 cm, stone throwers and cannons 60 cm, bolt throwers
// 40 cm, pistols and goblin bows 15 cm. The table has no handgun; ours shoots
// 30 cm, as a crossbow, and is otherwise no different
// (docs/rulings.md#warmaster-shooting-handguns). Handgun comes last so the
// other weapons keep their places.
enum class Missile { None, Bow, Crossbow, StoneThrower, Cannon, BoltThrower, Pistol, GoblinBow, Handgun };
double missile_range(Missile m);  // cm; 0 for None

// A terrain feature. Area features are one polygon. Linear features
// (obstacles, walls, rivers drawn as lines) are a polyline with a width; the
// parser turns them into `pieces`, one quad per segment, leaving open the
// gateways of a fortification wall. Every query uses `pieces`.
struct TerrainFeature {
  std::string id;
  TerrainKind kind = TerrainKind::Wood;
  std::vector<Polygon> pieces;     // the footprint, always filled in
  std::vector<Vec2> line;          // the centre line, for linear features
  double width = 0;                // of a linear feature
  struct Gateway {
    double at = 0;     // distance along the centre line to the gateway's middle
    double width = 0;  // opening
  };
  std::vector<Gateway> gateways;   // fortification walls only
  Aabb bounds;                     // of all pieces
  std::optional<bool> blocks_sight;  // scenario override of blocks_sight(kind)
};

// A unit's place in Battlefield::units, a stand's in its unit's stands.
using UnitIndex = Index<struct UnitTag>;
using StandIndex = Index<struct StandTag>;

struct Stand {
  Pose pose;
  bool operator==(const Stand&) const = default;
};

struct Unit {
  std::string id;
  std::string name;
  int side = 0;                    // 0 or 1: index into Battlefield::armies
  TroopType type = TroopType::Infantry;
  std::vector<Stand> stands;       // stands on the table; lost stands are not listed
  int stands_lost = 0;
  // Footprint of each stand: `width` is the edge facing front (the frontage),
  // `depth` the other. Infantry 4 x 2; cavalry, chariots, monsters, artillery
  // and machines 2 x 4 unless the scenario overrides the frontage.
  double width = 4.0;
  double depth = 2.0;
  double machine_pace = 0;         // full pace of a Machine, from its army list
  bool engaged = false;
  bool confused = false;
  bool fortified = false;          // wholly or partly in a fortified position
  bool sees_all_round = false;     // 360 degree vision (e.g. Wolf Riders)
  // The troop profile (docs/warmaster-shooting.md): each stand's
  // Attacks and Hits, and the Armour save (a D6 equal to or above it saves;
  // 0: no save). Zero attacks and hits: no profile given (a movement-only
  // battle).
  int attacks = 0;
  int hits = 0;
  int armour = 0;
  Missile missile = Missile::None;
  bool terrifying = false;

  bool operator==(const Unit&) const = default;
  double frontage() const { return width; }
  double shortest_edge() const { return width < depth ? width : depth; }
  OrientedRect footprint(std::size_t stand) const {
    return OrientedRect::from_pose(stands[stand].pose, width, depth);
  }
  OrientedRect footprint_at(const Pose& p) const { return OrientedRect::from_pose(p, width, depth); }
  // The same, with the caller's memo of the last rotation (RotMemo).
  OrientedRect footprint(std::size_t stand, RotMemo& memo) const {
    return OrientedRect::from_pose(stands[stand].pose, width, depth, memo);
  }
  OrientedRect footprint_at(const Pose& p, RotMemo& memo) const {
    return OrientedRect::from_pose(p, width, depth, memo);
  }
};

// A character's Attacks bonus is a small whole number (+2 for a General).
inline constexpr int kMaxCharacterAttacks = 10;

struct Character {
  std::string id;
  std::string name;
  int side = 0;
  CharacterRole role = CharacterRole::Hero;
  int command = 8;
  // Its Attacks: a bonus added to one fighting stand of the unit it has
  // joined, never attacked itself (docs/rulings.md#warmaster-combat-characters).
  int attacks = 0;
  bool flying = false;
  Pose pose;
  // A 25 mm round base by default; a scenario may give a 40 x 20 mm stand.
  double base_diameter = 2.5;
  std::optional<Vec2> stand_size;  // {width, depth} when on a rectangular stand
  std::string joined_unit;         // id of the unit it has joined, if any
};

struct Army {
  std::string name;
  // Units lost at which the army withdraws (docs/rulings.md#warmaster-break-point);
  // 0: half its units, rounded up.
  int break_point = 0;
};

struct Battlefield {
  std::string name;
  double width = 180.0;   // table, x from 0 to width
  double height = 120.0;  // table, y from 0 to height
  // Shared by copies until one changes it: states are copied with every
  // move, the terrain never changes during a game.
  CowVector<TerrainFeature> terrain;
  std::vector<Army> armies;  // exactly two
  std::vector<Unit> units;   // both armies, each tagged with its side
  std::vector<Character> characters;

  Aabb table() const { return {{0, 0}, {width, height}}; }
  const Unit* find_unit(const std::string& id) const;
  Unit* find_unit(const std::string& id);
  const Character* find_character(const std::string& id) const;
  Character* find_character(const std::string& id);
};

// Unit `id` removed with every character joined to it: they go where it goes,
// slain with it or off the table with it (docs/rulings.md#warmaster-combat-characters).
// Returns those characters' ids.
std::vector<std::string> remove_unit_and_characters(Battlefield& bf, const std::string& id);
// The ruling (warmaster.combat.characters) on characters slain with unit `unit`.
Ruling characters_slain(const std::vector<std::string>& characters, const std::string& unit);

// --- Names used in files and answers ------------------------------------------
const char* to_string(TroopType t);
const char* to_string(TerrainKind k);
const char* to_string(CharacterRole r);
const char* to_string(Missile m);
std::optional<Missile> missile_from_string(const std::string& s);
std::vector<std::string> missile_names();
std::optional<TroopType> troop_type_from_string(const std::string& s);
std::optional<TerrainKind> terrain_kind_from_string(const std::string& s);
std::optional<CharacterRole> character_role_from_string(const std::string& s);
std::vector<std::string> troop_type_names();
std::vector<std::string> terrain_kind_names();
std::vector<std::string> character_role_names();

}  // namespace referee::warmaster
