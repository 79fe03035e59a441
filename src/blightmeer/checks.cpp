#include "referee/blightmeer/checks.hpp"

#include <algorithm>

namespace referee::blightmeer {

const char* to_string(Edge e) {
  switch (e) {
    case Edge::advantage: return "advantage";
    case Edge::disadvantage: return "disadvantage";
    default: return "none";
  }
}

Edge combine(bool advantage, bool disadvantage) {
  if (advantage == disadvantage) return Edge::none;
  return advantage ? Edge::advantage : Edge::disadvantage;
}

bool check_passes(int natural, int target) {
  if (natural >= 20) return true;
  if (natural <= 4) return false;
  return natural >= target;
}

int passing_faces(int target) {
  int n = 0;
  for (int f = 1; f <= 20; ++f) n += check_passes(f, target) ? 1 : 0;
  return n;
}

// With Advantage the check fails only when both dice fail; with Disadvantage
// it passes only when both pass. Counting over the 400 pairs keeps the exact
// fraction.
Chance check_chance(int target, Edge edge) {
  std::int64_t s = passing_faces(target);
  switch (edge) {
    case Edge::advantage: return {400 - (20 - s) * (20 - s), 400};
    case Edge::disadvantage: return {s * s, 400};
    default: return {s, 20};
  }
}

CheckRoll roll_check(Dice& dice, int target, Edge edge, const std::string& purpose) {
  CheckRoll r;
  r.first = dice.d20(purpose);
  r.kept = r.first;
  if (edge != Edge::none) {
    r.second = dice.d20(purpose);
    r.kept = edge == Edge::advantage ? std::max(r.first, r.second) : std::min(r.first, r.second);
  }
  r.passed = check_passes(r.kept, target);
  return r;
}

}  // namespace referee::blightmeer
