// A Warmaster battlefield file with `units` infantry units of three stands
// in rows, half on each side, the two armies facing each other 20 cm apart
// across the middle; the table is sized to hold them. Unit u0 (south) faces
// u1 (north) across the gap; the last unit stands in a far back row, behind
// everyone. For benchmarks and the cap tests: the same file every time.
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace referee::warmaster::bench {

inline nlohmann::json rows_field_json(int units) {
  const int per_row = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(units))));
  const int rows = (units + per_row - 1) / per_row;
  const double w = per_row * 16 + 10, h = (rows / 2 + 1) * 6 * 2 + 40;
  nlohmann::json armies = nlohmann::json::array({{{"name", "South"}, {"units", nlohmann::json::array()}},
                                                 {{"name", "North"}, {"units", nlohmann::json::array()}}});
  for (int idx = 0; idx < units; ++idx) {
    const int side = idx % 2, m = idx / 2, i = m % per_row, j = m / per_row;
    const double x = 7 + i * 16.0;
    const double y = side == 0 ? h / 2 - 10 - j * 6.0 : h / 2 + 10 + j * 6.0;
    const double facing = side == 0 ? 0 : 180;
    nlohmann::json stands = nlohmann::json::array();
    for (double dx : {-4.0, 0.0, 4.0}) stands.push_back({{"x", x + dx}, {"y", y}, {"facing", facing}});
    armies[static_cast<std::size_t>(side)]["units"].push_back(
        {{"id", "u" + std::to_string(idx)}, {"type", "infantry"}, {"stands", stands}});
  }
  return {{"name", std::to_string(units) + " units"}, {"table", {{"width", w}, {"height", h}}}, {"armies", armies}};
}

}  // namespace referee::warmaster::bench
