// Exact probabilities as counted outcomes: "21/36" for a 2D6 order test,
// "/400" for a d20 check with Advantage. Kept unreduced on purpose, so the
// denominator shows the dice that were counted.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace referee {

struct Chance {
  std::int64_t successes = 0;
  std::int64_t outcomes = 1;

  double value() const { return static_cast<double>(successes) / static_cast<double>(outcomes); }
  std::string fraction() const { return std::to_string(successes) + "/" + std::to_string(outcomes); }
  // Product of independent events; outcomes multiply so the sample space stays visible.
  Chance operator*(const Chance& o) const { return {successes * o.successes, outcomes * o.outcomes}; }
  Chance complement() const { return {outcomes - successes, outcomes}; }
  bool operator==(const Chance&) const = default;
};

// P(2D6 <= target): 0 below 2, 36/36 from 12.
Chance chance_2d6_at_most(int target);
// Number of ways n dice of `sides` faces sum to exactly `total`.
std::int64_t ways_to_sum(int n, int sides, int total);

// {"fraction":"21/36","value":0.5833}
void to_json(nlohmann::json& j, const Chance& c);

}  // namespace referee
