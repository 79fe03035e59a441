#include "referee/core/chance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

namespace referee {

std::int64_t ways_to_sum(int n, int sides, int total) {
  if (n < 0 || sides < 1) return 0;
  std::vector<std::int64_t> ways(static_cast<std::size_t>(n * sides + 1), 0);
  ways[0] = 1;
  for (int die = 0; die < n; ++die) {
    std::vector<std::int64_t> next(ways.size(), 0);
    for (std::size_t s = 0; s < ways.size(); ++s)
      if (ways[s])
        for (int f = 1; f <= sides && s + f < next.size(); ++f) next[s + f] += ways[s];
    ways.swap(next);
  }
  return total < 0 || total >= static_cast<int>(ways.size()) ? 0 : ways[static_cast<std::size_t>(total)];
}

// Two dice make t in 6 - |t - 7| ways (t from 2 to 12): the closed form of
// ways_to_sum(2, 6, t), asked for every order test.
Chance chance_2d6_at_most(int target) {
  std::int64_t s = 0;
  for (int t = 2; t <= std::min(target, 12); ++t) s += 6 - std::abs(t - 7);
  return {s, 36};
}

void to_json(nlohmann::json& j, const Chance& c) {
  j = nlohmann::json{{"fraction", c.fraction()}, {"value", std::round(c.value() * 1e6) / 1e6}};
}

}  // namespace referee
