// Caps on what a battlefield may hold (docs/rulings.md#warmaster-caps): a
// battlefield at the unit cap loads and answers line of sight and reach;
// one unit, character or terrain feature more than a cap is refused with an
// InputError naming the list and the cap. How long the answers take at the
// cap is measured in bench/warmaster_sight_bench.cpp, not here.
#include <gtest/gtest.h>

#include <string>

#include "../../bench/warmaster_rows_field.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/sight.hpp"

namespace warmaster_caps_test {

using namespace referee;
using namespace referee::warmaster;

TEST(WarmasterCaps, ABattlefieldAtTheUnitCapLoadsAndAnswers) {
  const Battlefield bf = parse_battlefield(bench::rows_field_json(static_cast<int>(kMaxUnits)));
  ASSERT_EQ(bf.units.size(), kMaxUnits);
  // u0 and u1 face each other across the 20 cm between the armies' front
  // rows (their stands are 2 cm deep: 18 cm apart, edge to edge).
  const SightAnswer near = line_of_sight(bf, *bf.find_unit("u0"), *bf.find_unit("u1"), {});
  EXPECT_TRUE(near.visible) << near.reason;
  EXPECT_NEAR(near.distance, 18.0, 1e-9);
  // The last unit stands in the north army's back row: every line from u0's
  // front edges crosses the ranks in between.
  const SightAnswer far = line_of_sight(bf, *bf.find_unit("u0"), *bf.find_unit("u" + std::to_string(kMaxUnits - 1)), {});
  EXPECT_FALSE(far.visible) << far.reason;
  EXPECT_EQ(far.blocked_by.rfind("unit ", 0), 0u) << far.blocked_by;
  ReachRequest req;
  req.mover = "u0";
  const ReachAnswer r = reach(bf, req);
  EXPECT_GT(r.area, 0);
}

void expect_refused(const nlohmann::json& j, const std::string& list, std::size_t cap) {
  try {
    parse_battlefield(j);
    ADD_FAILURE() << list << ": accepted one over the cap";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), list);
    EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(cap)), std::string::npos) << e.what();
  }
}

TEST(WarmasterCaps, OneMoreThanACapIsRefusedNamingTheListAndTheCap) {
  // The unit cap counts both armies: the north army's list takes the total over it.
  expect_refused(bench::rows_field_json(static_cast<int>(kMaxUnits) + 1), "armies[1].units", kMaxUnits);
  nlohmann::json j = bench::rows_field_json(2);
  nlohmann::json features = j;
  features["terrain"] = nlohmann::json::array();
  for (std::size_t k = 0; k <= kMaxTerrainFeatures; ++k)
    features["terrain"].push_back({{"id", "w" + std::to_string(k)}, {"kind", "wood"}});
  expect_refused(features, "terrain", kMaxTerrainFeatures);
  nlohmann::json characters = j;
  characters["armies"][1]["characters"] = nlohmann::json::array();
  for (std::size_t k = 0; k <= kMaxCharacters; ++k)
    characters["armies"][1]["characters"].push_back({{"id", "c" + std::to_string(k)}});
  expect_refused(characters, "armies[1].characters", kMaxCharacters);
}

}  // namespace warmaster_caps_test
