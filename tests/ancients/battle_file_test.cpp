// Bad battle files: each error names the item and the problem.
#include <gtest/gtest.h>

#include "referee/core/errors.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

std::string error_of(const nlohmann::json& j) {
  try {
    parse_battle(j, "test");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(AncientsBattleFile, BundledBattlesLoad) {
  Battle a = load_scenario("centre_clash.json");
  EXPECT_EQ(a.units.size(), 30u);
  int terrain = 0;
  for (auto t : a.terrain) terrain += t >= 0;
  EXPECT_EQ(terrain, 15);
  Battle b = load_scenario("river_crossing.json");
  EXPECT_EQ(b.board.columns(), 11);
  EXPECT_EQ(b.board.rows(), 7);
  EXPECT_EQ(b.leaders[0].hex, b.units[static_cast<std::size_t>(b.find_unit("r_hi2"))].hex);
}

TEST(AncientsBattleFile, HexOffTheBoard) {
  EXPECT_EQ(error_of(battle_json({unit("u", "heavy_infantry", 0, 12, 1)})),
            "units[0].at: hex 12,1 is off the board (13 columns, 9 rows; odd rows hold 12)");
}

TEST(AncientsBattleFile, TwoUnitsOnOneHex) {
  EXPECT_EQ(error_of(battle_json({unit("a", "heavy_infantry", 0, 6, 6), unit("b", "auxilia", 1, 6, 6)})),
            "units[1].at: two units on one hex: a and b are both on 6,6");
}

TEST(AncientsBattleFile, UnknownClassAndCard) {
  EXPECT_EQ(error_of(battle_json({unit("a", "hoplite", 0, 6, 6)})), "units[0].class: unknown unit class \"hoplite\"");
  nlohmann::json j = battle_json({unit("a", "heavy_infantry", 0, 6, 6)});
  j["players"][1]["hand"][0] = "order-five-center";
  EXPECT_EQ(error_of(j), "players[1].hand[0]: unknown command card \"order-five-center\"");
}

TEST(AncientsBattleFile, LeaderAttachedToNothing) {
  nlohmann::json j = battle_json({unit("a", "heavy_infantry", 0, 6, 6)}, {{{"id", "L"}, {"side", 0}, {"attached_to", "ghost"}}});
  EXPECT_EQ(error_of(j), "leaders[0].attached_to: leader attached to nothing: no unit \"ghost\"");
  nlohmann::json k = battle_json({unit("a", "heavy_infantry", 0, 6, 6)}, {{{"id", "L"}, {"side", 0}}});
  EXPECT_EQ(error_of(k), "leaders[0]: a leader needs \"at\" or \"attached_to\"");
}

TEST(AncientsBattleFile, MissingUnknownAndWrongTypedFields) {
  nlohmann::json missing = battle_json({{{"id", "a"}, {"class", "heavy_infantry"}, {"side", 0}}});
  EXPECT_EQ(error_of(missing), "units[0].at: missing field");
  nlohmann::json unknown = battle_json({unit("a", "heavy_infantry", 0, 6, 6)});
  unknown["units"][0]["facing"] = 3;
  EXPECT_NE(error_of(unknown).find("units[0].facing: unknown field"), std::string::npos) << error_of(unknown);
  nlohmann::json wrong = battle_json({unit("a", "heavy_infantry", 0, 6, 6)});
  wrong["units"][0]["side"] = "north";
  EXPECT_NE(error_of(wrong).find("units[0].side:"), std::string::npos) << error_of(wrong);
  nlohmann::json blocks = battle_json({unit("a", "heavy_cavalry", 0, 6, 6)});
  blocks["units"][0]["blocks"] = 4;  // cavalry has 3
  EXPECT_NE(error_of(blocks).find("units[0].blocks:"), std::string::npos) << error_of(blocks);
}

}  // namespace
}  // namespace referee::ancients
