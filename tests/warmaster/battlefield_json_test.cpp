#include "referee/warmaster/battle/battlefield_json.hpp"

#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

using namespace referee;
using namespace referee::warmaster;

namespace {

Json minimal() {
  return Json::parse(R"({
    "name": "test",
    "terrain": [
      {"id": "wood", "kind": "wood", "polygon": [[10,10],[20,10],[20,20],[10,20],[10,10]]},
      {"id": "wall", "kind": "fortification_wall", "line": [[50,50],[70,50],[70,70]], "width": 1,
       "gateways": [{"at": 10, "width": 4}]}
    ],
    "armies": [
      {"name": "Empire", "units": [
        {"id": "e1", "type": "infantry", "stands": [{"x": 40, "y": 30, "facing": 0}, {"x": 44, "y": 30, "facing": 0}]},
        {"id": "e2", "type": "cavalry", "stands": [{"x": 40, "y": 40}]}
       ],
       "characters": [{"id": "eg", "role": "general", "command": 9, "x": 30, "y": 30}]},
      {"name": "Orcs", "units": [
        {"id": "o1", "type": "machine", "pace": 15, "stands": [{"x": 100, "y": 90, "facing": 180}]}
      ]}
    ]
  })");
}

std::string error_of(const Json& j) {
  try {
    parse_battlefield(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(BattlefieldJson, ParsesUnitsTerrainAndCharacters) {
  Battlefield bf = parse_battlefield(minimal());
  EXPECT_EQ(bf.width, 180);
  EXPECT_EQ(bf.height, 120);
  ASSERT_EQ(bf.units.size(), 3u);
  EXPECT_EQ(bf.units[0].width, 4.0);  // infantry face a long edge
  EXPECT_EQ(bf.units[0].depth, 2.0);
  EXPECT_EQ(bf.units[1].width, 2.0);  // cavalry face a short edge
  EXPECT_EQ(bf.units[1].depth, 4.0);
  EXPECT_EQ(bf.units[2].side, 1);
  EXPECT_EQ(bf.units[2].machine_pace, 15);
  EXPECT_DOUBLE_EQ(bf.units[2].stands[0].pose.facing_deg, 180);
  ASSERT_EQ(bf.characters.size(), 1u);
  EXPECT_EQ(bf.characters[0].role, CharacterRole::General);
  EXPECT_EQ(bf.characters[0].command, 9);
  // The closed ring is stored without the repeated point.
  EXPECT_EQ(bf.terrain[0].pieces[0].points.size(), 4u);
  EXPECT_EQ(bf.terrain[0].bounds.min, (Vec2{10, 10}));
}

TEST(BattlefieldJson, WallGatewayLeavesAnOpening) {
  Battlefield bf = parse_battlefield(minimal());
  const TerrainFeature& wall = bf.terrain[1];
  // First segment 0..20 with a gateway 8..12: two pieces; second segment one.
  ASSERT_EQ(wall.pieces.size(), 3u);
  Vec2 in_gateway{60, 50};
  for (const auto& p : wall.pieces) EXPECT_FALSE(contains(p, in_gateway));
  EXPECT_TRUE(contains(wall.pieces[0], Vec2{55, 50}));
  // The joint at (70, 50) is closed: the corner of the bend is covered.
  bool covered = false;
  for (const auto& p : wall.pieces) covered = covered || contains(p, Vec2{70.4, 49.6});
  EXPECT_TRUE(covered);
}

TEST(BattlefieldJson, RoundTripsThroughToJson) {
  Settings s;
  s.contact_tolerance = 0.1;
  Json j = minimal();
  j["settings"] = {{"contact_tolerance", 0.1}};
  Settings read;
  Battlefield bf = parse_battlefield(j, &read);
  EXPECT_DOUBLE_EQ(read.contact_tolerance, 0.1);
  Settings again;
  Battlefield back = parse_battlefield(to_json(bf, &read), &again);
  EXPECT_DOUBLE_EQ(again.contact_tolerance, 0.1);
  ASSERT_EQ(back.units.size(), bf.units.size());
  EXPECT_EQ(back.units[1].stands[0].pose, bf.units[1].stands[0].pose);
  EXPECT_EQ(back.terrain[1].pieces.size(), 3u);
  EXPECT_EQ(back.terrain[0].pieces[0].points, bf.terrain[0].pieces[0].points);
}

TEST(BattlefieldJson, RefusesUnclosedPolygon) {
  Json j = minimal();
  j["terrain"][0]["polygon"] = Json::parse("[[10,10],[20,10],[20,20],[10,20]]");
  EXPECT_NE(error_of(j).find("terrain[0].polygon: not closed"), std::string::npos) << error_of(j);
}

TEST(BattlefieldJson, RefusesSelfIntersectingPolygon) {
  Json j = minimal();
  j["terrain"][0]["polygon"] = Json::parse("[[10,10],[20,20],[20,10],[10,20],[10,10]]");
  EXPECT_NE(error_of(j).find("intersects itself"), std::string::npos) << error_of(j);
}

TEST(BattlefieldJson, RefusesOverlappingStandsButNotTouchingOnes) {
  Json j = minimal();
  // e2 is cavalry, 2 wide and 4 deep at (40, 40): y from 38 to 42. e1's stands end at y 31.
  j["armies"][0]["units"][1]["stands"][0]["y"] = 35;  // now 33..37: clear
  EXPECT_EQ(error_of(j), "");
  j["armies"][0]["units"][1]["stands"][0]["y"] = 33;  // 31..35: touches e1's front edge
  EXPECT_EQ(error_of(j), "");
  j["armies"][0]["units"][1]["stands"][0]["y"] = 32.5;  // 30.5..34.5: 0.5 cm into e1
  std::string e = error_of(j);
  EXPECT_NE(e.find("armies[0].units[1].stands[0]: stand 1 of unit 'e2' overlaps stand 1 of unit 'e1' by 0.5 cm"),
            std::string::npos)
      << e;
}

TEST(BattlefieldJson, NamesTheFieldOfEachBadInput) {
  struct Case {
    std::string pointer;
    Json value;
    std::string expected;
  };
  std::vector<Case> cases{
      {"/armies/0/units/0/type", "dragoon", "armies[0].units[0].type: unknown value \"dragoon\""},
      {"/armies/0/units/0/stands/1/x", 1e7, "armies[0].units[0].stands[1].x: 1e+07 is out of range"},
      {"/armies/0/units/0/facng", 3, "armies[0].units[0].facng: unknown field"},
      {"/armies/0/units/1/id", "e1", "armies[0].units[1].id: duplicate id \"e1\""},
      {"/armies/1/characters", Json::parse(R"([{"id":"g1","role":"general","command":8,"x":1,"y":1},
                                                {"id":"g2","role":"general","command":8,"x":5,"y":1}])"),
       "armies[1].characters[1].role: an army has at most one General"},
  };
  for (const auto& c : cases) {
    Json j = minimal();
    j[Json::json_pointer(c.pointer)] = c.value;
    std::string e = error_of(j);
    EXPECT_NE(e.find(c.expected), std::string::npos) << c.pointer << " gave: " << e;
  }
  Json j = minimal();
  j["armies"][0]["units"].push_back(Json::parse(R"({"id":"m","type":"machine","stands":[{"x":150,"y":10}]})"));
  EXPECT_NE(error_of(j).find("armies[0].units[2].pace: missing field"), std::string::npos) << error_of(j);
  j = minimal();
  j["armies"][0]["units"][0]["stands"][0].erase("y");
  EXPECT_NE(error_of(j).find("armies[0].units[0].stands[0].y: missing field"), std::string::npos) << error_of(j);
  // nlohmann parses NaN only from numbers we build in code; it must still be refused.
  j = minimal();
  j["armies"][0]["units"][0]["stands"][0]["x"] = std::nan("");
  EXPECT_NE(error_of(j).find("stands[0].x"), std::string::npos) << error_of(j);
}

TEST(BattlefieldJson, BundledDefaultBattleLoads) {
  auto f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  EXPECT_GE(f.battlefield.units.size(), 12u);
  EXPECT_GE(f.battlefield.terrain.size(), 5u);
  int generals = 0;
  for (const auto& c : f.battlefield.characters) generals += c.role == CharacterRole::General;
  EXPECT_EQ(generals, 2);
}

// Every bundled battle parses, and every bundled move request (X-move.json
// next to X.json) parses and gets an answer.
TEST(BattlefieldJson, EveryBundledScenarioLoads) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(REFEREE_SOURCE_DIR) / "scenarios" / "warmaster";
  int battles = 0, moves = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    const std::string suffix = "-move.json";
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      fs::path battle = dir / (name.substr(0, name.size() - suffix.size()) + ".json");
      ASSERT_TRUE(fs::exists(battle)) << name;
      auto f = load_battlefield_file(battle.string());
      MoveRequest req;
      ASSERT_NO_THROW(req = load_move_request_file(entry.path().string(), f.battlefield)) << name;
      MoveAnswer a = check_move(f.battlefield, req, f.settings);
      EXPECT_FALSE(a.routes.empty()) << name;
      ++moves;
    } else {
      EXPECT_NO_THROW(load_battlefield_file(entry.path().string())) << name;
      ++battles;
    }
  }
  EXPECT_GE(battles, 4);
  EXPECT_GE(moves, 4);
}
