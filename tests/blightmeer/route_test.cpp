// Best routes and reach (docs/rulings.md#blightmeer-routes): the graph search over ground, surfaces,
// ladders, climbs and jumps, checked afterwards by check_move.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/errors.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

Battle town() { return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json"); }

bool uses(const MoveRequest& m, StepType t) {
  for (const Step& s : m.path)
    if (s.type == t) return true;
  return false;
}

const ReachCell* cell(const ReachAnswer& a, double x, double y) {
  for (const ReachCell& c : a.cells)
    if (std::abs(c.p.x - x) < 1e-9 && std::abs(c.p.y - y) < 1e-9) return &c;
  return nullptr;
}

TEST(BlightmeerRoute, LadderIsTheRiskFreeWayUp) {
  // 1 in to the ladder's foot, then 1 in across and 3 in up: 5 in, no check.
  Battle b = battle({unit("a", 9.5, 11, 0)});
  RouteAnswer r = best_route(*b.terrain, b.state, "a", {10.5, 12, 3}, false);
  ASSERT_TRUE(r.safe.found);
  EXPECT_TRUE(uses(r.safe.request, StepType::ladder));
  EXPECT_TRUE(r.safe.report.verdict.legal()) << explain(r.safe.report.verdict);
  EXPECT_TRUE(r.safe.report.checks.empty());
  EXPECT_NEAR(r.safe.report.spent, 5.0, 1e-6);
}

TEST(BlightmeerRoute, TownRoofRiskFreeAndWithAClimb) {
  // The captain to the inn roof: the ladder is on the far side, a climb is
  // much shorter but needs an Agility 8 check (13/20).
  Battle b = town();
  RouteAnswer r = best_route(*b.terrain, b.state, "captain", {8, 8, 3}, false);
  ASSERT_TRUE(r.safe.found);
  ASSERT_TRUE(r.risky.found);
  EXPECT_TRUE(uses(r.safe.request, StepType::ladder));
  EXPECT_TRUE(r.safe.report.checks.empty());
  EXPECT_TRUE(uses(r.risky.request, StepType::climb));
  EXPECT_EQ(r.risky.report.all_checks.fraction(), "13/20");
  EXPECT_LT(r.risky.report.spent, r.safe.report.spent);
  // The climb route: the straight line from (3.5, 7) to (8, 8) is
  // sqrt(4.5^2 + 1^2) = 4.61 in across, plus 3 in up, taken where it meets the wall.
  EXPECT_GE(r.risky.report.spent, std::hypot(4.5, 1.0) + 3 - 1e-6);
  EXPECT_LE(r.risky.report.spent, (std::hypot(4.5, 1.0) + 3) * 1.01);
}

TEST(BlightmeerRoute, GoesAroundImpassableTerrain) {
  Battle b = battle({unit("a", 3, 18, 0)});
  RouteAnswer r = best_route(*b.terrain, b.state, "a", {3, 24, 0}, true);
  ASSERT_TRUE(r.safe.found);
  EXPECT_FALSE(r.safe.report.verdict.has("blightmeer.terrain.impassable"));
  EXPECT_GT(r.safe.report.spent, 6.0);
  EXPECT_LT(r.safe.report.spent, 7.5);
}

TEST(BlightmeerRoute, ArmouredUnitsKeepOutOfDeepWater) {
  // The knight (heavy armour) crosses the river at the shallow ford.
  Battle b = town();
  RouteAnswer r = best_route(*b.terrain, b.state, "knight", {28, 6, 0}, false);
  ASSERT_TRUE(r.safe.found);
  EXPECT_EQ(r.safe.report.drown_step, -1);
  EXPECT_TRUE(r.safe.report.allowance.difficult);  // the ford is shallow water
  EXPECT_FALSE(r.safe.report.verdict.has("blightmeer.walk.level"));
}

TEST(BlightmeerRoute, NeverThroughEnemies) {
  // An enemy wall across a corridor between the house and the rock... go around.
  Battle b = battle({unit("a", 2, 10, 0), unit("e1", 2, 12, 0, "blue"), unit("e2", 1, 12, 0, "blue"),
                     unit("e3", 3, 12, 0, "blue")});
  RouteAnswer r = best_route(*b.terrain, b.state, "a", {2, 14, 0}, true);
  ASSERT_TRUE(r.safe.found);
  EXPECT_FALSE(r.safe.report.verdict.has("blightmeer.units.enemy"));
  EXPECT_GT(r.safe.report.spent, 4.0);
}

TEST(BlightmeerRoute, DestinationMustBeAPlaceToStand) {
  Battle b = battle({unit("a", 2, 10, 0)});
  EXPECT_THROW(best_route(*b.terrain, b.state, "a", {12, 12, 1}, false), InputError);
  EXPECT_THROW(best_route(*b.terrain, b.state, "a", {40, 12, 0}, false), InputError);
  EXPECT_THROW(best_route(*b.terrain, b.state, "a", {3, 21, 0}, false), InputError);
}

TEST(BlightmeerReach, SplitByChecks) {
  // The Wood Elf on the inn roof (Move 7).
  Battle b = town();
  ReachAnswer r = unit_reach(*b.terrain, b.state, "elf", false);
  EXPECT_DOUBLE_EQ(r.allowance, 7.0);
  const ReachCell* by_ladder = cell(r, 12.5, 5.5);  // down the inn ladder: 2.06 + 4 + 0.7 in
  ASSERT_NE(by_ladder, nullptr);
  EXPECT_EQ(by_ladder->checks, 0);
  const ReachCell* jumped = cell(r, 11.5, 11.5);  // jump down the north side
  ASSERT_NE(jumped, nullptr);
  EXPECT_EQ(jumped->checks, 1);
  EXPECT_EQ(cell(r, 3.5, 7.5), nullptr);  // west of the inn: more than 7 in
  EXPECT_EQ(cell(r, 14.5, 8.5), nullptr); // the dwarf stands there
  int total = r.counts[0] + r.counts[1] + r.counts[2] + r.counts[3];
  EXPECT_EQ(total, static_cast<int>(r.cells.size()));
  for (const ReachCell& c : r.cells) EXPECT_LE(c.cost, 7.0 + 1e-6);
}

TEST(BlightmeerReach, RunningReachesFurtherAndStunnedUnitsNowhereUseful) {
  Battle b = town();
  ReachAnswer walk_r = unit_reach(*b.terrain, b.state, "captain", false);
  ReachAnswer run_r = unit_reach(*b.terrain, b.state, "captain", true);
  EXPECT_GT(run_r.cells.size(), walk_r.cells.size());
  EXPECT_DOUBLE_EQ(run_r.allowance, 9.0);
}

}  // namespace
}  // namespace referee::blightmeer
