// Clear paths through TransitScene: the gap rule, stand order, planned detours.
#include <gtest/gtest.h>

#include "movement_test_support.hpp"
#include "referee/warmaster/movement/movement.hpp"

using namespace referee;
using namespace referee::warmaster;
using referee::warmaster::testing::field;
using referee::warmaster::testing::request;

namespace {
std::string path_reasons(const MoveAnswer& a) { return explain(a.verdict); }
}  // namespace

TEST(MovementPath, StraightLineThroughAnEnemyIsRefusedWhenTheRouteIsGiven) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])",
                         R"([{"id": "foe", "type": "infantry", "stands": [{"x": 50, "y": 27, "facing": 180}]}])");
  // A waypoint makes the route the player's own: the engine does not replan it.
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0,
      "waypoints": [{"x": 50, "y": 30}], "to": {"x": 50, "y": 34}}]})"));
  EXPECT_TRUE(a.verdict.has("warmaster.movement.path")) << path_reasons(a);
}

TEST(MovementPath, BlockedStraightLineGetsAPlannedDetour) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])",
                         R"([{"id": "foe", "type": "infantry", "stands": [{"x": 50, "y": 27, "facing": 180}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 34}}]})"));
  EXPECT_TRUE(a.verdict.legal()) << path_reasons(a);
  ASSERT_EQ(a.routes.size(), 1u);
  EXPECT_TRUE(a.routes[0].planned);
  EXPECT_GT(a.routes[0].poses.size(), 2u);
  // Round a 4 cm wide enemy stand: longer than the straight 14 cm, within 20 cm.
  EXPECT_GT(a.routes[0].used, 14.0);
  EXPECT_LE(a.routes[0].used, 20.0);
}

TEST(MovementPath, NoDetourWithinReachIsAPathViolation) {
  // An enemy line of 5 stands (20 cm) across the way: round its end and back
  // is at least 2 * hypot(11, 6) = 25.1 cm, more than the 24 cm searched.
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])",
                         R"([{"id": "foe", "type": "infantry", "stands": [{"x": 42, "y": 27, "facing": 180},
                             {"x": 46, "y": 27, "facing": 180}, {"x": 50, "y": 27, "facing": 180},
                             {"x": 54, "y": 27, "facing": 180}, {"x": 58, "y": 27, "facing": 180}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 34}}]})"));
  EXPECT_FALSE(a.verdict.legal());
  EXPECT_FALSE(a.routes[0].planned);
  EXPECT_TRUE(a.verdict.has("warmaster.movement.path")) << path_reasons(a);
  EXPECT_NE(path_reasons(a).find("stand 1: no route round what blocks the straight line within 24.0 cm"),
            std::string::npos)
      << path_reasons(a);
}

TEST(MovementPath, DetourLongerThanTheAllowanceIsADistanceViolation) {
  // Two enemy stands (8 cm) across the way and a 19 cm advance: the centre's
  // detour round their end is about 9.4 + 2 + 10.3 = 21.7 cm, more than 20
  // but within the 24 cm searched.
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])",
                         R"([{"id": "foe", "type": "infantry", "stands": [{"x": 48, "y": 29, "facing": 180},
                             {"x": 52, "y": 29, "facing": 180}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 39}}]})"));
  ASSERT_TRUE(a.routes[0].planned) << path_reasons(a);
  ASSERT_EQ(a.verdict.violations.size(), 1u) << path_reasons(a);
  EXPECT_EQ(a.verdict.violations[0].rule, "warmaster.movement.distance");
  EXPECT_NE(path_reasons(a).find("along the route the engine planned"), std::string::npos) << path_reasons(a);
  EXPECT_GT(a.routes[0].used, 20.0);
}

TEST(MovementPath, GapBetweenEnemyStandsMustBeWiderThanTheFrontage) {
  // Two enemy stands 3 cm apart: wider than the 2 cm shortest edge, not wider than the 4 cm frontage.
  const char* enemies = R"([{"id": "foe1", "type": "infantry", "stands": [{"x": 45.5, "y": 30, "facing": 180}]},
                            {"id": "foe2", "type": "infantry", "stands": [{"x": 52.5, "y": 30, "facing": 180}]}])";
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 49, "y": 20}]}])", enemies);
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0,
      "waypoints": [{"x": 49, "y": 25}], "to": {"x": 49, "y": 36}}]})"));
  EXPECT_TRUE(a.verdict.has("warmaster.movement.gap")) << path_reasons(a);
  // The same gap between friendly stands is passable (at least the 2 cm shortest edge).
  Battlefield friends = field("[]", std::string(R"([{"id": "inf", "type": "infantry", "stands": [{"x": 49, "y": 20}]},
      {"id": "f1", "type": "infantry", "stands": [{"x": 45.5, "y": 30}]},
      {"id": "f2", "type": "infantry", "stands": [{"x": 52.5, "y": 30}]}])"));
  a = check_move(friends, request(friends, R"({"unit": "inf", "stands": [{"stand": 0,
      "waypoints": [{"x": 49, "y": 25}], "to": {"x": 49, "y": 36}}]})"));
  EXPECT_FALSE(a.verdict.has("warmaster.movement.gap")) << path_reasons(a);
  EXPECT_FALSE(a.verdict.has("warmaster.movement.path")) << path_reasons(a);
}

TEST(MovementPath, EngineChoosesAnOrderInWhichStandsPassUnmovedOnes) {
  // A column, front stand 0 at y 20. Stand 2 (rear) moves up to y 22 through
  // stands 1 and 0; stand 0 moves on to y 24 and stand 1 to y 20. Stand 2 can
  // pass stand 1 only before stand 1 has moved.
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}, {"x": 50, "y": 18}, {"x": 50, "y": 16}]}])");
  const char* move = R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 24}},
      {"stand": 1, "to": {"x": 50, "y": 20}}, {"stand": 2, "to": {"x": 50, "y": 22}}]})";
  MoveAnswer a = check_move(bf, request(bf, move));
  EXPECT_TRUE(a.verdict.legal()) << path_reasons(a);
  ASSERT_EQ(a.order.size(), 3u);
  auto pos = [&](int s) { return std::find(a.order.begin(), a.order.end(), StandIndex(s)) - a.order.begin(); };
  EXPECT_LT(pos(2), pos(1));  // stand 2 moves before stand 1 blocks it
  EXPECT_LT(pos(0), pos(2));  // and after stand 0 has left y 22
  for (const auto& r : a.routes) EXPECT_FALSE(r.planned);
  EXPECT_EQ(values_of(a.order), (std::vector<int>{0, 2, 1}));
}

TEST(MovementPath, OwnStandsThatHaveMovedBlock) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}, {"x": 50, "y": 18}, {"x": 50, "y": 16}]}])");
  // The player insists on moving stand 1 first, then stand 2 straight through it.
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "order": [0, 1, 2], "stands": [
      {"stand": 0, "to": {"x": 50, "y": 24}}, {"stand": 1, "to": {"x": 50, "y": 20}},
      {"stand": 2, "waypoints": [{"x": 50, "y": 19}], "to": {"x": 50, "y": 22}}]})"));
  EXPECT_TRUE(a.verdict.has("warmaster.movement.path")) << path_reasons(a);
  EXPECT_EQ(values_of(a.order), (std::vector<int>{0, 1, 2}));
}

TEST(MovementPath, CavalryRoundAWoodRatherThanThroughIt) {
  const char* wood = R"([{"id": "w", "kind": "wood", "polygon": [[46,26],[54,26],[54,30],[46,30],[46,26]]}])";
  Battlefield bf = field(wood, R"([{"id": "cav", "type": "cavalry", "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "cav", "stands": [{"stand": 0, "to": {"x": 50, "y": 38}}]})"));
  EXPECT_TRUE(a.verdict.legal()) << path_reasons(a);
  EXPECT_TRUE(a.routes[0].planned);
}

TEST(MovementPath, ChargersMayPassAGapBesideTheUnitTheyCharge) {
  // An enemy stand 2 cm from a wood: a gap as wide as a cavalry stand's
  // shortest edge, but not wider than its 2 cm frontage, so closed to it.
  // Charging that stand, the cavalry may go through to hit its rear
  // (movement text, the gap rule: "this does not prevent them moving between
  // such stands to charge them").
  const char* wood = R"([{"id": "w", "kind": "wood", "polygon": [[49.5,20],[60,20],[60,40],[49.5,40],[49.5,20]]}])";
  const char* enemy = R"([{"id": "foe", "type": "infantry", "stands": [{"x": 45.5, "y": 30, "facing": 180}]}])";
  Battlefield bf = field(wood, R"([{"id": "cav", "type": "cavalry", "stands": [{"x": 48.5, "y": 14}]}])", enemy);
  std::string move = R"({"unit": "cav", "kind": "charge", %TARGET% "stands": [{"stand": 0,
      "waypoints": [{"x": 48.5, "y": 35}], "to": {"x": 45.5, "y": 33, "facing": 180}}]})";
  std::string with = move, without = move;
  with.replace(with.find("%TARGET%"), 8, R"("target": "foe",)");
  without.replace(without.find("%TARGET%"), 8, "");
  MoveAnswer a = check_move(bf, request(bf, with));
  EXPECT_TRUE(a.verdict.legal()) << path_reasons(a);
  a = check_move(bf, request(bf, without));
  EXPECT_TRUE(a.verdict.has("warmaster.movement.gap")) << path_reasons(a);
}
