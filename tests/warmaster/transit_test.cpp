// The gap rule and the transit model (movement text, "The gap rule"; docs/rulings.md#warmaster-transit-model).
#include <gtest/gtest.h>

#include "referee/warmaster/movement/transit.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {

// Two walls of impassable terrain with a vertical gap of `gap` cm centred on x = 50.
Battlefield walls(double gap) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("cliff-1", TerrainKind::Impassable, {{20, 40}, {50 - gap / 2, 40}, {50 - gap / 2, 60}, {20, 60}}));
  bf.terrain.push_back(area("cliff-2", TerrainKind::Impassable, {{50 + gap / 2, 40}, {80, 40}, {80, 60}, {50 + gap / 2, 60}}));
  return bf;
}

std::vector<Ruling> through_gap(const Battlefield& bf, const Unit& u) {
  TransitScene scene(bf, u, {});
  return scene.check_leg({{50, 30}, 0}, {{50, 70}, 0}, "stand 1");
}

}  // namespace

TEST(GapRule, InfantryPassesTwoCentimetreGapBetweenWalls) {
  Battlefield bf = walls(2.0);
  Unit u = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(bf, u).empty());
}

// "be oriented to pass through any gap so long as the gap is at least as wide
// as the stand's shortest edge": 2.0 cm for a 40 x 20 mm stand, where touching
// means within the contact tolerance (0.5 mm) on each side, as it does for a
// stand's end pose (docs/rulings.md#warmaster-transit-model). A stand placed in
// a 1.9 cm gap only touches both walls, so it may also move through one.
TEST(GapRule, InfantryPassesItsShortestEdgeWithinTheContactTolerance) {
  Unit u = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(walls(1.9), u).empty());
  auto v = through_gap(walls(1.85), u);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.gap");
  EXPECT_NEAR(v[0].figures[0].value, 1.85, 1e-9);
  EXPECT_NEAR(v[0].figures[1].value, 1.9, 1e-9);
  EXPECT_NE(v[0].reason.find("gap between cliff-1 and cliff-2 is 1.85 cm, narrower than the 2.0 cm shortest edge "
                             "(the 1.90 cm it needs, touching within the 0.5 mm contact tolerance on each side)"),
            std::string::npos)
      << v[0].reason;
  // With no tolerance agreed, the full 2.0 cm.
  Settings strict;
  strict.contact_tolerance = 0;
  TransitScene scene(walls(1.9), u, strict);
  EXPECT_FALSE(scene.check_leg({{50, 30}, 0}, {{50, 70}, 0}, "stand 1").empty());
  TransitScene wide(walls(2.0), u, strict);
  EXPECT_TRUE(wide.check_leg({{50, 30}, 0}, {{50, 70}, 0}, "stand 1").empty());
}

// Enemy stand on one side, a river on the other: "more than 40mm".
namespace {
Battlefield enemy_and_river(double gap, double frontage_side = 0) {
  (void)frontage_side;
  Battlefield bf = empty_field();
  // River to the left of x = 50 - gap/2, enemy stand (4 x 2, facing 90) right of x = 50 + gap/2.
  bf.terrain.push_back(area("river-1", TerrainKind::ShallowRiver, {{30, 0}, {50 - gap / 2, 0}, {50 - gap / 2, 120}, {30, 120}}));
  bf.units.push_back(infantry("orcs-1", 1, {{{50 + gap / 2 + 1, 50}, 90}}));
  return bf;
}
}  // namespace

TEST(GapRule, EnemyAndRiverNeedMoreThanFrontage) {
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  auto v = through_gap(enemy_and_river(4.0), me);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.gap");
  EXPECT_NE(v[0].reason.find("gap between orcs-1 stand 1 and river-1 is 4.0 cm, not wider than the 4.0 cm frontage"),
            std::string::npos)
      << v[0].reason;
  EXPECT_TRUE(through_gap(enemy_and_river(4.01), me).empty());
  EXPECT_FALSE(through_gap(enemy_and_river(3.0), me).empty());
}

TEST(GapRule, CavalryFrontageIsTwoCentimetres) {
  Unit cav = cavalry("me", 0, {{{50, 30}, 0}});
  // Cavalry may enter a shallow river, so only the gap rule matters here.
  EXPECT_FALSE(through_gap(enemy_and_river(2.0), cav).empty());
  EXPECT_TRUE(through_gap(enemy_and_river(2.05), cav).empty());
}

TEST(GapRule, TwoEnemyStands) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("orcs-1", 1, {{{46, 50}, 0}}));         // right edge at x = 48
  bf.units.push_back(infantry("orcs-2", 1, {{{54.5, 50}, 0}}));       // left edge at x = 52.5: gap 4.5
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(bf, me).empty());
  bf.units[1].stands[0].pose.position.x = 54.0;  // gap 4.0: closed
  auto v = through_gap(bf, me);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.gap");
  EXPECT_NEAR(v[0].figures[0].value, 4.0, 1e-9);
}

TEST(GapRule, FriendlyStandsOnlyNeedTheShortestEdge) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("elves-1", 0, {{{46, 50}, 0}}));
  bf.units.push_back(infantry("elves-2", 0, {{{54, 50}, 0}}));  // gap 4.0: passes for friends
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(bf, me).empty());
  bf.units[0].stands[0].pose.position.x = 47.075;  // right edge 49.075
  bf.units[1].stands[0].pose.position.x = 52.925;  // left edge 50.925: gap 1.85 centred on the path
  auto v = through_gap(bf, me);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.gap");
}

TEST(Transit, RunningIntoAStandNamesItAndWhere) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("orcs-1", 1, {{{50, 50}, 0}, {{54, 50}, 0}}));
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  auto v = through_gap(bf, me);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].rule, "warmaster.movement.path");
  EXPECT_NE(v[0].reason.find("orcs-1 stand 1"), std::string::npos) << v[0].reason;
  // The disc (radius 1 less the 0.05 contact tolerance) touches the stand's
  // near edge (y = 49) when its centre reaches y = 48.05: 18.05 cm along.
  EXPECT_NEAR(v[0].figures[0].value, 18.05, 1e-6);
}

TEST(Transit, CharactersNeverBlock) {
  Battlefield bf = empty_field();
  Character c;
  c.id = "general";
  c.side = 1;
  c.pose = {{50, 50}, 0};
  bf.characters.push_back(c);
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(bf, me).empty());
}

TEST(Transit, CavalryHaltsAtTheEdgeOfAWood) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 45}, {60, 45}, {60, 60}, {40, 60}}));
  Unit cav = cavalry("me", 0, {{{50, 30}, 0}});
  auto v = through_gap(bf, cav);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.terrain");
  EXPECT_NEAR(v[0].figures[0].value, 14.05, 1e-6);  // disc radius 0.95: centre stops at y = 44.05
  // Infantry may enter woods.
  Unit inf = infantry("me", 0, {{{50, 30}, 0}});
  EXPECT_TRUE(through_gap(bf, inf).empty());
}

TEST(Transit, TouchingAtStartAndEndIsNotOverlapping) {
  Battlefield bf = empty_field();
  // A friendly unit touching the mover's side; the mover moves straight ahead.
  bf.units.push_back(infantry("elves-2", 0, {{{54, 30}, 0}}));
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, {});
  EXPECT_TRUE(scene.check_leg({{50, 30}, 0}, {{50, 48}, 0}, "stand 1").empty());
  // Sideways into it: blocked.
  EXPECT_FALSE(scene.check_leg({{50, 30}, 0}, {{55, 30}, 0}, "stand 1").empty());
}

TEST(Transit, OwnMovedStandsBlock) {
  Battlefield bf = empty_field();
  Unit me = infantry("me", 0, {{{50, 30}, 0}, {{54, 30}, 0}});
  bf.units.push_back(me);
  TransitScene scene(bf, me, {});
  EXPECT_TRUE(scene.check_leg({{50, 30}, 0}, {{50, 60}, 0}, "stand 1").empty());  // own unmoved stands never block
  scene.set_own_blockers({OrientedRect::from_pose({{50, 45}, 0}, 4, 2)});
  auto v = scene.check_leg({{50, 30}, 0}, {{50, 60}, 0}, "stand 1");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.path");
}

TEST(Transit, EvadersBurstThroughFriendsOnlyCompletely) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("elves-2", 0, {{{50, 40}, 0}, {{54, 40}, 0}}));
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitOptions o;
  o.evading = true;
  o.burst_through = {"elves-2"};
  TransitScene scene(bf, me, {}, o);
  EXPECT_TRUE(scene.check_leg({{50, 30}, 0}, {{50, 45}, 0}, "stand 1").empty());
  auto v = scene.check_leg({{50, 30}, 0}, {{50, 41}, 0}, "stand 1");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "warmaster.movement.burst_through");
  // Engaged units may not be burst through.
  bf.units[0].engaged = true;
  TransitScene engaged(bf, me, {}, o);
  EXPECT_FALSE(engaged.check_leg({{50, 30}, 0}, {{50, 45}, 0}, "stand 1").empty());
}

TEST(Transit, FlyersPassOverTerrainButNotStands) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 35}, {60, 35}, {60, 40}, {40, 40}}));
  bf.units.push_back(infantry("orcs-1", 1, {{{50, 50}, 0}}));
  Unit f = infantry("eagles", 0, {{{50, 30}, 0}});
  f.type = TroopType::Flyer;
  TransitScene scene(bf, f, {});
  EXPECT_TRUE(scene.check_leg({{50, 30}, 0}, {{50, 45}, 0}, "stand 1").empty());
  EXPECT_FALSE(scene.check_leg({{50, 30}, 0}, {{50, 60}, 0}, "stand 1").empty());
}

TEST(Measure, CornerDistancesCountTurning) {
  // Reading 4: a 4 x 2 stand turning 90 degrees in place: each corner moves
  // the chord between its two positions. Corner (-2, 1) at radius sqrt(5)
  // turning 90 degrees moves sqrt(2) * sqrt(5) = sqrt(10).
  std::vector<Pose> p{{{50, 50}, 0}, {{50, 50}, 90}};
  auto c = corner_distances(p, 4, 2);
  for (double d : c) EXPECT_NEAR(d, std::sqrt(10.0), 1e-9);
  // Two straight legs: 3-4-5 triangle corners move 3 + 4 = 7.
  std::vector<Pose> q{{{0, 0}, 0}, {{3, 0}, 0}, {{3, 4}, 0}};
  EXPECT_NEAR(route_distance(q, 4, 2), 7.0, 1e-9);
}
