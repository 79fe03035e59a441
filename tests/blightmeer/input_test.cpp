// Bad input: each error names the item and the problem.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "referee/core/errors.hpp"
#include "support/input_error.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

using referee::test_support::error_of;

TEST(BlightmeerInput, SelfIntersectingSurface) {
  json t = base_terrain();
  t["surfaces"][1]["footprint"] = {{0, 0}, {4, 4}, {4, 0}, {0, 4}};
  std::string e = error_of([&] { battle({}, t); });
  EXPECT_NE(e.find("surfaces[1].footprint"), std::string::npos) << e;
  EXPECT_NE(e.find("intersects itself"), std::string::npos) << e;
}

TEST(BlightmeerInput, LadderThatDoesNotJoinTwoSurfaces) {
  json t = base_terrain();
  t["ladders"][0]["top"] = {10.5, 12, 2};  // the roof is at 3
  std::string e = error_of([&] { battle({}, t); });
  EXPECT_NE(e.find("ladders[0].top"), std::string::npos) << e;
  EXPECT_NE(e.find("does not join two surfaces"), std::string::npos) << e;
  json flat = base_terrain();
  flat["ladders"][0]["top"] = {8.5, 12, 0};
  EXPECT_NE(error_of([&] { battle({}, flat); }).find("must be higher"), std::string::npos);
}

TEST(BlightmeerInput, UnitInsideAWallOrInMidAir) {
  std::string wall = error_of([&] { battle({unit("a", 12, 12, 0)}); });
  EXPECT_NE(wall.find("units[0].position"), std::string::npos) << wall;
  EXPECT_NE(wall.find("inside a wall"), std::string::npos) << wall;
  std::string air = error_of([&] { battle({unit("a", 2, 2, 1)}); });
  EXPECT_NE(air.find("in mid-air"), std::string::npos) << air;
  std::string overlap = error_of([&] { battle({unit("a", 2, 2, 0), unit("b", 2.5, 2, 0)}); });
  EXPECT_NE(overlap.find("units[1].position"), std::string::npos) << overlap;
}

TEST(BlightmeerInput, PathStepThatDoesNotConnect) {
  Battle b = battle({unit("a", 2, 8, 0)});
  MoveRequest m = move("a", {walk(2, 9), walk(2, 10)});
  m.path[1].from = Vec3{3, 9, 0};
  std::string e = error_of([&] { check(b, m); });
  EXPECT_NE(e.find("path[1].from"), std::string::npos) << e;
  std::string l = error_of([&] { check(b, move("a", {ladder("house-ladder")})); });
  EXPECT_NE(l.find("path[0].ladder"), std::string::npos) << l;
  EXPECT_NE(l.find("does not connect"), std::string::npos) << l;
  std::string nol = error_of([&] { check(b, move("a", {ladder("rope")})); });
  EXPECT_NE(nol.find("no ladder"), std::string::npos) << nol;
  std::string nou = error_of([&] { check(b, move("ghost", {walk(1, 1)})); });
  EXPECT_NE(nou.find("unit"), std::string::npos) << nou;
}

TEST(BlightmeerInput, MissingUnknownAndWrongFields) {
  json a = unit("a", 2, 8, 0);
  a.erase("move");
  EXPECT_NE(error_of([&] { battle({a}); }).find("units[0].move: missing field"), std::string::npos);
  json b = unit("a", 2, 8, 0);
  b["colour"] = "red";
  EXPECT_NE(error_of([&] { battle({b}); }).find("units[0].colour: unknown field"), std::string::npos);
  json c = unit("a", 2, 8, 0);
  c["move"] = "six";
  EXPECT_NE(error_of([&] { battle({c}); }).find("units[0].move"), std::string::npos);
  json d = unit("a", 2, 8, 0);
  d["armour"] = "plate";
  EXPECT_NE(error_of([&] { battle({d}); }).find("units[0].armour"), std::string::npos);
  json t = base_terrain();
  t["low_terrain"][0]["height"] = 2;
  EXPECT_NE(error_of([&] { battle({}, t); }).find("low_terrain[0].height"), std::string::npos);
}

TEST(BlightmeerInput, NotFiniteNumbers) {
  std::string text = base_terrain().dump();
  text.replace(text.find("\"units\":[]"), 10,
               R"("units":[{"id":"a","side":"r","position":[1e999,2,0],"move":6,"agility":8,"wounds":1}])");
  std::string e = error_of([&] { parse_battle_text(text, "t.json"); });
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  std::string nan = error_of([&] { parse_battle_text(R"({"units": [NaN]})", "n.json"); });
  EXPECT_NE(nan.find("n.json"), std::string::npos) << nan;
}

TEST(BlightmeerInput, MoveRequestFields) {
  EXPECT_NE(error_of([&] { parse_move(json::parse(R"({"unit":"a","path":[{"type":"fly","to":[1,2]}]})")); })
                .find("path[0].type"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_move(json::parse(R"({"unit":"a","path":[{"type":"walk"}]})")); }).find("path[0].to"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_move(json::parse(R"({"unit":"a","mode":"sprint","path":[]})")); }).find("mode"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_move(json::parse(R"({"unit":"a","path":[]})")); }).find("path"), std::string::npos);
  MoveRequest m = parse_move(json::parse(R"({"unit":"a","mode":"run","path":[{"type":"climb","to":[1,2,3]}]})"));
  EXPECT_TRUE(m.run);
  ASSERT_TRUE(m.path[0].to_z.has_value());
  EXPECT_DOUBLE_EQ(*m.path[0].to_z, 3.0);
}

TEST(BlightmeerInput, BundledScenariosLoad) {
  for (const char* name : {"town.json", "ruin.json"}) {
    Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/" + name);
    EXPECT_GE(b.terrain->surfaces.size(), 4u) << name;
    EXPECT_GE(b.terrain->ladders.size(), 2u) << name;
    EXPECT_GE(b.state.units.size(), 5u) << name;
  }
}

}  // namespace
}  // namespace referee::blightmeer
