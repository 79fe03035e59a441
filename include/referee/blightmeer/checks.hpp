// d20 checks (docs/rulings.md#blightmeer-checks):
// succeed on a natural roll at or above the stat, a natural 1-4 always fails,
// a natural 20 always succeeds. Advantage rolls 2d20 and keeps the higher,
// Disadvantage the lower. Our reading: when both apply they cancel
// (docs/rulings.md#blightmeer-checks). Chances are exact counts over the dice rolled.
#pragma once

#include <string>

#include "referee/core/chance.hpp"
#include "referee/core/dice.hpp"

namespace referee::blightmeer {

enum class Edge { none, advantage, disadvantage };
const char* to_string(Edge e);

// Advantage and Disadvantage cancel when both apply.
Edge combine(bool advantage, bool disadvantage);
// Does a natural d20 roll pass a check against `target`?
bool check_passes(int natural, int target);
// Faces of one d20 that pass.
int passing_faces(int target);
// "13/20" plain, "/400" with Advantage or Disadvantage.
Chance check_chance(int target, Edge edge);

struct CheckRoll {
  int kept = 0;
  int first = 0;
  int second = 0;  // 0 when only one die was rolled
  bool passed = false;
};
// Rolls the check through Dice: one d20, or two with Advantage/Disadvantage.
CheckRoll roll_check(Dice& dice, int target, Edge edge, const std::string& purpose);

}  // namespace referee::blightmeer
