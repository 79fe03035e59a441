// Validating a move: the path as steps (walk, climb, ladder, jump
// down, jump across), Move or Run, checked against every Move-phase rule.
// Validation never changes the state; it reports the inches spent against
// the allowance, every violation, and every check the move needs with its
// exact chance and what happens if it fails.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/blightmeer/checks.hpp"
#include "referee/blightmeer/model.hpp"
#include "referee/core/chance.hpp"
#include "referee/core/ruling.hpp"

namespace referee::blightmeer {

enum class StepType { walk, climb, ladder, jump_down, jump_across };
const char* to_string(StepType t);

struct Step {
  StepType type = StepType::walk;
  Vec2 to;                    // walk, climb, jump_down, jump_across; for a ladder, optional
  std::optional<double> to_z; // when the request states a height
  bool has_to = true;
  std::optional<Vec3> from;   // optional: must match where the previous step ended
  std::string ladder;         // ladder id
};

struct MoveRequest {
  std::string unit;
  bool run = false;
  std::vector<Step> path;
};

// What a failed check does (the Move-phase text, per kind).
enum class OnFailure {
  stop_at_foot,      // climb (and an animal on a ladder): back at the foot, move ends, no fall
  fall_at_landing,   // jump down: falls where it landed
  fall_from_takeoff, // jump across: falls to the ground below where it jumped from
};
const char* to_string(OnFailure f);

struct CheckNeed {
  int step = 0;
  std::string kind;   // "climb", "ladder", "jump_down", "jump_across"
  std::string rule;
  int target = 0;     // Agility
  bool advantage = false;
  bool disadvantage = false;
  Edge edge = Edge::none;
  std::vector<std::string> why;  // where Advantage/Disadvantage came from
  bool automatic_failure = false;
  std::string automatic_reason;
  Chance chance;
  OnFailure on_failure = OnFailure::stop_at_foot;
  Vec3 failure_spot;        // where the unit is put (a fall still moves it off other units)
  double fall_height = 0;   // inches fallen, for the Injury Roll
};

struct StepReport {
  int index = 0;
  StepType type = StepType::walk;
  Vec3 from;
  Vec3 to;
  double horizontal = 0;
  double vertical = 0;   // counted for climbs and ladders only
  double cost = 0;
  unsigned bits = 0;     // TerrainBits crossed
};

struct Allowance {
  int move = 0;
  bool staggered = false;
  int base = 0;           // Move, halved rounded up when Staggered
  bool run = false;
  double multiplier = 1;  // 1.5 when running
  bool difficult = false;
  double penalty = 0;     // 2 when difficult terrain (or water) is crossed
  double total = 0;
};

struct MoveReport {
  std::string unit;
  Verdict verdict;
  Allowance allowance;
  double spent = 0;
  std::vector<StepReport> steps;
  std::vector<CheckNeed> checks;
  Chance all_checks{1, 1};
  std::vector<Ruling> notes;  // consequences that are not violations
  Vec3 final_pos;
  bool complete = true;       // false when a step could not be followed
  int drown_step = -1;        // entering deep water in armour: Incapacitated here
  Vec3 drown_at;
  unsigned final_bits = 0;    // water and difficult ground under the final position
};

// Allowance before any difficult-terrain penalty: Move (halved rounded up when
// Staggered), x1.5 when running.
Allowance base_allowance(const Unit& u, bool run);

// blightmeer.move.* and blightmeer.run.treasure: may the unit Move (or Run) at
// all, before any step is looked at? Incapacitated, attempted to Engage,
// Stunned, Dazed, held in a melee, Run with Treasure. Leaving a melee of
// Stunned or Dazed enemies is a note, added to `notes` when given.
Verdict may_move(const State& state, int unit, bool run, std::vector<Ruling>* notes = nullptr);

// Throws InputError for an unknown unit or ladder, or a step that does not
// connect to the one before.
MoveReport check_move(const Terrain& terrain, const State& state, const MoveRequest& req);

// Index of another standing unit whose base overlaps a base of `radius` at p, or -1.
int overlapping_unit(const State& state, int self, Vec3 p, double radius);
bool armour_sinks(const Settings& s, Armour a);

}  // namespace referee::blightmeer
