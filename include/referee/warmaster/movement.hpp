// Checking a Warmaster move (movement text; README readings 3-5). Validation
// is pure: it never changes the battlefield. Applying a legal move is a
// separate step.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model.hpp"
#include "referee/warmaster/settings.hpp"

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
  int stand = 0;                 // index into the unit's stands
  std::vector<Pose> waypoints;   // optional intermediate poses
  Pose final_pose;
};

struct MoveRequest {
  std::string mover;             // unit id, or character id for MoveKind::Character
  MoveKind kind = MoveKind::Ordered;
  std::vector<StandPlan> stands; // one per stand that moves (a character: one, stand 0)
  std::vector<int> order;        // order the stands move in; empty = the engine chooses
  std::optional<double> dice_distance;  // for MoveKind::Dice: the distance rolled
};

struct StandRoute {
  int stand = 0;
  std::vector<Pose> poses;       // start, waypoints, final
  double used = 0;               // cm, reading 4
  bool planned = false;          // the engine added waypoints to get round something
};

enum class Formation { Line, Column, Irregular };
const char* to_string(Formation f);

struct MoveAnswer {
  Verdict verdict;
  Formation formation = Formation::Irregular;  // at the start of the move
  double allowance = 0;          // cm each stand may move
  std::string pace;              // "full pace", "half pace", "dice"
  std::vector<int> order;        // the order the stands were moved in
  std::vector<StandRoute> routes;
  bool leaves_table = false;     // warmaster.movement.off_table: roll with resolve_off_table()
};

MoveAnswer check_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings = {});

// The formation of a unit's stands as they stand now (warmaster.movement.formation).
Formation classify_formation(const Unit& u, const Settings& settings = {});

// A copy of the battlefield with the move applied (stands at their final
// poses). Call only with a legal answer.
Battlefield apply_move(const Battlefield& bf, const MoveRequest& req);

}  // namespace referee::warmaster
