// Caps on what a battlefield may hold (docs/rulings.md#blightmeer-caps): a
// battlefield at each cap loads and answers questions; one item more is
// refused with an InputError naming the list and the cap. How long loading
// takes at the caps is measured in bench/blightmeer_load_bench.cpp, not here.
#include <gtest/gtest.h>

#include <string>

#include "../../bench/blightmeer_field.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/errors.hpp"

namespace blightmeer_caps_test {

using namespace referee;
using namespace referee::blightmeer;

// A square region or low piece of 0.2 in at the corner gap of grid square k.
nlohmann::json small_square(int k, double pitch, int per_row) {
  const double x0 = (k % per_row) * pitch + 0.02 * pitch, y0 = (k / per_row) * pitch + 0.02 * pitch;
  return {{x0, y0}, {x0 + 0.1, y0}, {x0 + 0.1, y0 + 0.1}, {x0, y0 + 0.1}};
}

nlohmann::json field_at_caps() {
  const int n = static_cast<int>(kMaxSurfaces);
  nlohmann::json j = bench::surfaces_field(n, static_cast<int>(kMaxUnits));
  const int per_row = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double pitch = 120.0 / per_row;
  j["regions"] = nlohmann::json::array();
  for (std::size_t k = 0; k < kMaxRegions; ++k)
    j["regions"].push_back({{"id", "r" + std::to_string(k)}, {"kind", k % 2 ? "difficult" : "shallow_water"},
                            {"area", small_square(static_cast<int>(k), pitch, per_row)}});
  j["low_terrain"] = nlohmann::json::array();
  for (std::size_t k = 0; k < kMaxLowTerrain; ++k)
    j["low_terrain"].push_back({{"id", "l" + std::to_string(k)}, {"height", 0.5},
                                {"area", small_square(static_cast<int>(k + kMaxRegions), pitch, per_row)}});
  // A ladder up the west side of each of the first surfaces, from the gap to the top.
  j["ladders"] = nlohmann::json::array();
  for (std::size_t k = 0; k < kMaxLadders; ++k) {
    const nlohmann::json& s = j["surfaces"][k];
    const double x0 = s["footprint"][0][0], y0 = s["footprint"][0][1], y1 = s["footprint"][2][1];
    const double h = s["height"];
    j["ladders"].push_back({{"id", "ladder" + std::to_string(k)},
                            {"bottom", {x0 - 0.1, (y0 + y1) / 2, 0}},
                            {"top", {x0 + 0.1, (y0 + y1) / 2, h}}});
  }
  return j;
}

TEST(BlightmeerCaps, ABattlefieldAtEveryCapLoadsAndAnswers) {
  const Battle b = parse_battle(field_at_caps(), "at the caps");
  ASSERT_EQ(b.terrain->surfaces.size(), kMaxSurfaces);
  ASSERT_EQ(b.terrain->regions.size(), kMaxRegions);
  ASSERT_EQ(b.terrain->low_terrain.size(), kMaxLowTerrain);
  ASSERT_EQ(b.terrain->ladders.size(), kMaxLadders);
  ASSERT_EQ(b.state.units.size(), kMaxUnits);
  // u0 stands on the ground in a gap 0.48 in wide between walls 1 to 4 in
  // high: it can reach cells, some only with checks (climbs and jumps).
  const ReachAnswer r = unit_reach(*b.terrain, b.state, "u0", false);
  EXPECT_GT(r.cells.size(), 10u);
  EXPECT_GT(r.counts[0], 0);
  EXPECT_GT(r.counts[1] + r.counts[2] + r.counts[3], 0);
  // The middle of surface s0 is on its top, and a route there is found.
  const Surface& s0 = b.terrain->surfaces[0];
  const Vec2 mid = (s0.box.min + s0.box.max) / 2;
  EXPECT_DOUBLE_EQ(b.terrain->level_at(mid), s0.height);
  const RouteAnswer route = best_route(*b.terrain, b.state, "u0", {mid.x, mid.y, s0.height}, false);
  EXPECT_TRUE(route.safe.found || route.risky.found);
}

void expect_refused(nlohmann::json j, const std::string& list, std::size_t cap) {
  try {
    parse_battle(j, "over the cap");
    ADD_FAILURE() << list << ": accepted one over the cap";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), list);
    EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(cap)), std::string::npos) << e.what();
  }
}

TEST(BlightmeerCaps, OneMoreThanACapIsRefusedNamingTheListAndTheCap) {
  expect_refused(bench::surfaces_field(static_cast<int>(kMaxSurfaces) + 1), "surfaces", kMaxSurfaces);
  nlohmann::json j = bench::surfaces_field(4, 1);
  const nlohmann::json square = {{1, 1}, {1.1, 1}, {1.1, 1.1}, {1, 1.1}};
  for (auto [list, cap] : {std::pair{"regions", kMaxRegions}, std::pair{"low_terrain", kMaxLowTerrain}}) {
    nlohmann::json over = j;
    over[list] = nlohmann::json::array();
    for (std::size_t k = 0; k <= cap; ++k) over[list].push_back({{"id", "x" + std::to_string(k)}, {"area", square}});
    expect_refused(over, list, cap);
  }
  nlohmann::json ladders = j;
  ladders["ladders"] = nlohmann::json::array();
  for (std::size_t k = 0; k <= kMaxLadders; ++k)
    ladders["ladders"].push_back({{"id", "x" + std::to_string(k)}, {"bottom", {0, 0, 0}}, {"top", {0, 0, 1}}});
  expect_refused(ladders, "ladders", kMaxLadders);
  nlohmann::json units = j;
  while (units["units"].size() <= kMaxUnits) units["units"].push_back(units["units"][0]);
  expect_refused(units, "units", kMaxUnits);
}

}  // namespace blightmeer_caps_test
