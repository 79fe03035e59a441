// Busy Blightmeer battlefields for benchmarks and the cap tests: `n`
// rectangular surfaces (1 to 4 in high) in a square grid over a 120 x 120 in
// table, gaps between them, so that nearly every cell of the navigation grid
// is by an edge with climbs and jumps to make; `units` units on the ground
// in the gaps. The same arguments always give the same battlefield.
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace referee::blightmeer::bench {

inline nlohmann::json surfaces_field(int n, int units = 1) {
  const int k = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double pitch = 120.0 / k, side = pitch * 0.6;
  nlohmann::json surfaces = nlohmann::json::array();
  for (int idx = 0; idx < n; ++idx) {
    const double x0 = (idx % k) * pitch + 0.2 * pitch, y0 = (idx / k) * pitch + 0.2 * pitch;
    surfaces.push_back({{"id", "s" + std::to_string(idx)},
                        {"height", 1 + (idx * 7 % 4)},
                        {"footprint", {{x0, y0}, {x0 + side, y0}, {x0 + side, y0 + side}, {x0, y0 + side}}}});
  }
  nlohmann::json us = nlohmann::json::array();
  for (int u = 0; u < units; ++u) {
    // On the ground, in the gap at the corner of a grid square (pitch >= 1.2 in).
    const int i = u % k, j = (u / k) % k;
    us.push_back({{"id", "u" + std::to_string(u)},
                  {"name", "Unit"},
                  {"side", u % 2 ? "b" : "a"},
                  {"position", {i * pitch + 0.1 * pitch, j * pitch + 0.1 * pitch, 0}},
                  {"base", 0.25},
                  {"move", 6},
                  {"agility", 8},
                  {"wounds", 1}});
  }
  return {{"name", std::to_string(n) + " surfaces"},
          {"table", {{"width", 120}, {"depth", 120}}},
          {"surfaces", surfaces},
          {"units", us}};
}

}  // namespace referee::blightmeer::bench
