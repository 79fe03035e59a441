// Battles that start legal (docs/rulings.md#warmaster-deployment): "every
// stand must touch another stand of its unit" (Formation & Movement) holds of
// every unit of every bundled battle, and a battle whose unit breaks it loads
// with a warning naming the unit, its stands and the gap.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "command_fixtures.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/battle/queries.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {

TEST(WarmasterDeployment, EveryUnitOfEveryBundledBattleIsInFormation) {
  int battles = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster")) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.ends_with("-move.json")) continue;
    const BattlefieldFile f = load_battlefield_file(e.path().string());
    for (const Ruling& w : f.warnings) ADD_FAILURE() << name << ": " << w.reason;
    ++battles;
  }
  EXPECT_GE(battles, 10);
}

// Cavalry stands are 2 cm across their front: three of them 4 cm apart, as
// the pitched battle once deployed its knights, leave 2 cm between stands.
TEST(WarmasterDeployment, CavalryStandsTwoCentimetresApartAreOneWarningNamingTheGap) {
  Battlefield bf;
  Unit knights = line_unit("knights", 0, 26, 22, 0, TroopType::Cavalry);
  for (std::size_t s = 0; s < knights.stands.size(); ++s) knights.stands[s].pose.position.x = 22 + 4.0 * static_cast<double>(s);
  bf.units.push_back(knights);
  bf.units.push_back(line_unit("halberds", 0, 54, 22));  // 4 cm apart, 4 cm across: in line
  const std::vector<Ruling> w = formation_warnings(bf, Settings{});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rule, "warmaster.movement.formation");
  EXPECT_EQ(w[0].reason,
            "knights is deployed in no formation: stand 1 touches no other stand of its unit (nearest: stand 2, "
            "20.0 mm away; touching means within 0.5 mm), and so do stands 2 and 3; its next move must leave every "
            "stand touching another (docs/rulings.md#warmaster-deployment)");
  ASSERT_EQ(w[0].figures.size(), 3u);
  EXPECT_DOUBLE_EQ(w[0].figures[0].value, 2.0);
  EXPECT_DOUBLE_EQ(w[0].figures[2].value, 3.0);
}

// A stand touching its neighbour only at a corner is in formation; one 0.6 mm
// off, past the 0.5 mm contact tolerance, is not.
TEST(WarmasterDeployment, ACornerTouchIsFormationAndASixthOfAMillimetreMoreIsNot) {
  Battlefield bf;
  Unit u = line_unit("halberds", 0, 54, 22);
  u.stands[2].pose.position += Vec2{0, 2.0};  // corner to corner with stand 2
  bf.units.push_back(u);
  EXPECT_TRUE(formation_warnings(bf, Settings{}).empty());
  bf.units[0].stands[2].pose.position.x += 0.06;
  const std::vector<Ruling> w = formation_warnings(bf, Settings{});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].reason.find("stand 3 touches no other stand of its unit (nearest: stand 2, 0.6 mm away"),
            std::string::npos)
      << w[0].reason;
}

TEST(WarmasterDeployment, TheDeploymentQueryAnswersTheWarnings) {
  Battlefield bf;
  Unit knights = line_unit("knights", 0, 26, 22, 0, TroopType::Cavalry);
  knights.stands[2].pose.position.x += 3;
  bf.units.push_back(knights);
  std::string text;
  const nlohmann::json j = answer_query(bf, Settings{}, "deployment", nlohmann::json::object(), "args", &text);
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_EQ(j["warnings"][0]["rule"], "warmaster.movement.formation");
  EXPECT_NE(text.find("stand 3 touches no other stand"), std::string::npos) << text;
}

}  // namespace
