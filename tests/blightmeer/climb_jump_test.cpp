// The Move-phase text: climbing, jumping down, jumping across,
// ladders, impassable terrain, and the checks' Advantage and Disadvantage.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

TEST(BlightmeerClimb, AgilityCheckAndVerticalDistanceCounts) {
  // From the foot of the 3 in house to its roof: 1 in across + 3 in up = 4 in, then 2 in on the roof.
  Battle b = battle({unit("a", 9.5, 13, 0)});
  MoveReport r = check(b, move("a", {climb(10.5, 13, 3), walk(12.5, 13)}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_DOUBLE_EQ(r.steps[0].cost, 4.0);
  EXPECT_DOUBLE_EQ(r.spent, 6.0);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].rule, "blightmeer.climb.check");
  EXPECT_EQ(r.checks[0].target, 8);
  EXPECT_EQ(r.checks[0].chance.fraction(), "13/20");
  EXPECT_EQ(r.checks[0].on_failure, OnFailure::stop_at_foot);
  EXPECT_EQ(r.final_pos, (Vec3{12.5, 13, 3}));
}

TEST(BlightmeerClimb, ClimbingDownIsAClimbToo) {
  Battle b = battle({unit("a", 10.5, 13, 3)});
  MoveReport r = check(b, move("a", {climb(9.5, 13, 0)}));
  EXPECT_TRUE(r.verdict.legal());
  EXPECT_DOUBLE_EQ(r.spent, 4.0);
  EXPECT_EQ(r.checks.size(), 1u);
}

TEST(BlightmeerClimb, MayNotAttemptAClimbThatCannotBeFinished) {
  // 2.5 in to the wall, then a 4 in climb: 6.5 in > Move 6.
  Battle b = battle({unit("a", 7, 13, 0)});
  MoveReport r = check(b, move("a", {walk(9.5, 13), climb(10.5, 13, 3)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.climb.unreachable"));
  EXPECT_TRUE(r.verdict.has("blightmeer.move.allowance"));
}

TEST(BlightmeerClimb, MayNotEndPartwayUp) {
  Battle b = battle({unit("a", 9.5, 13, 0)});
  MoveReport r = check(b, move("a", {climb(10.5, 13, 1.5)}));
  EXPECT_FALSE(r.verdict.legal());
  EXPECT_TRUE(r.verdict.has("blightmeer.climb.partway"));
}

TEST(BlightmeerClimb, OneInchOfHorizontalLeeway) {
  Battle b = battle({unit("a", 9.5, 13, 0)});
  MoveReport r = check(b, move("a", {climb(11, 13, 3)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.climb.leeway"));
  // The leeway is a setting.
  json t = base_terrain();
  t["settings"] = {{"climb_leeway", 2}};
  Battle wide = battle({unit("a", 9.5, 13, 0)}, t);
  EXPECT_TRUE(check(wide, move("a", {climb(11, 13, 3)})).verdict.legal());
}

TEST(BlightmeerClimb, UnclimbableSidesCannotBeClimbed) {
  Battle b = battle({unit("a", 19.5, 10.5, 0)});
  MoveReport r = check(b, move("a", {climb(20.5, 10.5, 3)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.climb.not_climbable"));
}

TEST(BlightmeerClimb, AWalkCannotChangeLevel) {
  Battle b = battle({unit("a", 8, 13, 0)});
  MoveReport r = check(b, move("a", {walk(12, 13)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.walk.level"));
}

TEST(BlightmeerJumpDown, LandingWithinThreeInchesVerticalFree) {
  // From the 3 in house roof to the ground 1.5 in away: costs 1.5 in, no Disadvantage.
  Battle b = battle({unit("a", 13.5, 12, 3)});
  MoveReport r = check(b, move("a", {jump_down(15, 12)}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_DOUBLE_EQ(r.spent, 1.5);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].rule, "blightmeer.jump_down.check");
  EXPECT_EQ(r.checks[0].edge, Edge::none);
  EXPECT_EQ(r.checks[0].chance.fraction(), "13/20");
  EXPECT_EQ(r.checks[0].on_failure, OnFailure::fall_at_landing);
  EXPECT_DOUBLE_EQ(r.checks[0].fall_height, 3.0);
  EXPECT_TRUE(check(b, move("a", {jump_down(16.9, 12)})).verdict.has("blightmeer.jump_down.range") == false);
}

TEST(BlightmeerJumpDown, BeyondThreeInchesIsIllegal) {
  Battle b = battle({unit("a", 13.5, 12, 3)});
  MoveReport r = check(b, move("a", {jump_down(13.5, 8)}));  // 4 in from the take-off
  EXPECT_TRUE(r.verdict.has("blightmeer.jump_down.range"));
}

TEST(BlightmeerJumpDown, DisadvantageFromAFourInchDrop) {
  Battle b = battle({unit("a", 23.5, 32, 4), unit("t", 13.5, 22, 6)});
  MoveReport four = check(b, move("a", {jump_down(25, 32)}));
  ASSERT_EQ(four.checks.size(), 1u);
  EXPECT_EQ(four.checks[0].edge, Edge::disadvantage);
  EXPECT_EQ(four.checks[0].chance.fraction(), "169/400");  // 13 x 13
  MoveReport six = check(b, move("t", {jump_down(14.5, 22)}));
  EXPECT_EQ(six.checks[0].edge, Edge::disadvantage);
  EXPECT_DOUBLE_EQ(six.checks[0].fall_height, 6.0);
}

TEST(BlightmeerJumpDown, NotOverAnythingHigherThanTheTakeOff) {
  // From the 3 in shed over the 5 in post.
  Battle b = battle({unit("a", 17.8, 12, 3)});
  EXPECT_TRUE(check(b, move("a", {jump_down(19.5, 12)})).verdict.has("blightmeer.jump_down.over_higher"));
  // Clear of the post, the same jump is fine.
  EXPECT_TRUE(check(b, move("a", {jump_down(18.2, 9.5)})).verdict.legal());
}

TEST(BlightmeerJumpDown, MustLandLower) {
  Battle b = battle({unit("a", 13.5, 12, 3)});
  EXPECT_TRUE(check(b, move("a", {jump_down(16.5, 12)})).verdict.has("blightmeer.jump_down.not_lower"));
}

TEST(BlightmeerJumpAcross, OneInchOrLessNeedsNoCheck) {
  Battle b = battle({unit("a", 14, 16, 3)});
  MoveReport r = check(b, move("a", {jump_across(15, 16)}));
  EXPECT_TRUE(r.verdict.legal());
  EXPECT_TRUE(r.checks.empty());
  EXPECT_TRUE(has_note(r, "blightmeer.jump_across.short"));
}

TEST(BlightmeerJumpAcross, UpToThreeInchesNeedsACheckAndAFailureFalls) {
  Battle b = battle({unit("a", 14, 12, 3)});
  MoveReport r = check(b, move("a", {jump_across(16, 12)}));
  EXPECT_TRUE(r.verdict.legal());
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].rule, "blightmeer.jump_across.check");
  EXPECT_EQ(r.checks[0].chance.fraction(), "13/20");
  EXPECT_EQ(r.checks[0].on_failure, OnFailure::fall_from_takeoff);
  EXPECT_DOUBLE_EQ(r.checks[0].fall_height, 3.0);
  EXPECT_EQ(r.checks[0].failure_spot, (Vec3{14.5, 12, 0}));  // base just past the edge it jumped from
  EXPECT_DOUBLE_EQ(r.spent, 2.0);
}

TEST(BlightmeerJumpAcross, OverThreeInchesFailsAutomatically) {
  Battle b = battle({unit("a", 13, 12, 3)});
  MoveReport r = check(b, move("a", {jump_across(16.5, 12)}));
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_TRUE(r.checks[0].automatic_failure);
  EXPECT_EQ(r.checks[0].rule, "blightmeer.jump_across.automatic_failure");
  EXPECT_EQ(r.checks[0].chance.fraction(), "0/20");
  EXPECT_EQ(r.all_checks.successes, 0);
}

TEST(BlightmeerJumpAcross, LandingMoreThanOneInchHigherFailsAutomatically) {
  // From the 4.5 in hut to the 6 in tower: 1.5 in higher.
  Battle b = battle({unit("a", 15.5, 22, 4.5)});
  MoveReport r = check(b, move("a", {jump_across(13.5, 22)}));
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_TRUE(r.checks[0].automatic_failure);
  EXPECT_NE(r.checks[0].automatic_reason.find("above"), std::string::npos);
}

TEST(BlightmeerJumpAcross, WoodElvesReachSixInches) {
  json elf = unit("elf", 12, 12, 3);
  elf["agility"] = 6;
  elf["traits"] = {{"jump_across_reach", 6}};
  Battle b = battle({elf, unit("man", 11, 11, 3)});
  MoveReport r = check(b, move("elf", {jump_across(17, 12)}));  // 5 in
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_FALSE(r.checks[0].automatic_failure);
  EXPECT_EQ(r.checks[0].chance.fraction(), "15/20");
  MoveReport man = check(b, move("man", {jump_across(16.5, 11)}));  // 5.5 in, reach 3
  EXPECT_TRUE(man.checks[0].automatic_failure);
}

TEST(BlightmeerLadder, NoCheckAndVerticalDistanceCounts) {
  // 1 in to the ladder's foot, 1 in across, 3 in up.
  Battle b = battle({unit("a", 9.5, 11, 0)});
  MoveReport r = check(b, move("a", {ladder("house-ladder")}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_TRUE(r.checks.empty());
  EXPECT_DOUBLE_EQ(r.spent, 5.0);
  EXPECT_EQ(r.final_pos, (Vec3{10.5, 12, 3}));
}

TEST(BlightmeerLadder, AnimalsMustClimbThem) {
  json dog = unit("dog", 9.5, 11, 0);
  dog["animal"] = true;
  Battle b = battle({dog});
  MoveReport r = check(b, move("dog", {ladder("house-ladder")}));
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].rule, "blightmeer.ladder.animal");
  EXPECT_EQ(r.checks[0].chance.fraction(), "13/20");
}

TEST(BlightmeerLadder, MayNotEndOnALadder) {
  Battle b = battle({unit("a", 9.5, 11, 0)});
  Step s = ladder("house-ladder");
  s.has_to = true;
  s.to = {10, 12};
  s.to_z = 1.5;
  MoveReport r = check(b, move("a", {s}));
  EXPECT_TRUE(r.verdict.has("blightmeer.ladder.end"));
}

TEST(BlightmeerImpassable, CannotBeCrossedOrJumpedOver) {
  Battle b = battle({unit("a", 3, 18, 0)});
  EXPECT_TRUE(check(b, move("a", {walk(3, 24)})).verdict.has("blightmeer.terrain.impassable"));
  json t = base_terrain();
  t["regions"].push_back({{"id", "tree"}, {"kind", "impassable"}, {"area", {{14.2, 11}, {14.6, 11}, {14.6, 13}, {14.2, 13}}}});
  Battle trees = battle({unit("a", 14, 12, 3)}, t);
  EXPECT_TRUE(check(trees, move("a", {jump_across(16, 12)})).verdict.has("blightmeer.terrain.impassable"));
}

TEST(BlightmeerChecks, StaggeredGivesDisadvantageAndAdvantageCancelsIt) {
  json a = unit("a", 9.5, 13, 0);
  a["state"] = {{"staggered", true}};
  Battle b = battle({a});
  MoveReport r = check(b, move("a", {climb(10.5, 13, 3)}));
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].edge, Edge::disadvantage);
  EXPECT_EQ(r.checks[0].chance.fraction(), "169/400");
  a["traits"] = {{"agility_advantage", true}};
  Battle both = battle({a});
  MoveReport c = check(both, move("a", {climb(10.5, 13, 3)}));
  EXPECT_EQ(c.checks[0].edge, Edge::none);
  EXPECT_EQ(c.checks[0].chance.fraction(), "13/20");
  json adv = unit("a", 9.5, 13, 0);
  adv["traits"] = {{"agility_advantage", true}};
  Battle only = battle({adv});
  EXPECT_EQ(check(only, move("a", {climb(10.5, 13, 3)})).checks[0].chance.fraction(), "351/400");
}

TEST(BlightmeerChecks, EveryCheckOfAMoveMultiplies) {
  // Climb the house (13/20), jump across to the shed (13/20): 169/400.
  // Move 7 running: 10.5 in for 4 + 3.5 + 2 = 9.5 in.
  json a = unit("a", 9.5, 12.5, 0);
  a["move"] = 7;
  Battle b = battle({a});
  MoveRequest m = move("a", {climb(10.5, 12.5, 3)});
  m.run = true;
  m.path.push_back(walk(14, 12.5));
  m.path.push_back(jump_across(16, 12.5));
  MoveReport r = check(b, m);
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_EQ(r.all_checks.fraction(), "169/400");
  EXPECT_DOUBLE_EQ(r.spent, 4.0 + 3.5 + 2.0);
}

}  // namespace
}  // namespace referee::blightmeer

namespace referee::blightmeer {
namespace {
using namespace testing;

TEST(BlightmeerPlacement, StepsMustEndWhereAUnitCanStand) {
  Battle b = battle({unit("a", 13.5, 12, 3), unit("b", 15, 12, 0)});
  // Jumping down onto b, then walking on: the landing spot is taken.
  MoveReport r = check(b, move("a", {jump_down(15, 12.2), walk(15, 13.5)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.units.occupied"));
  // A jump landing stated at a height that is not a level.
  Step s = jump_across(16.5, 12);
  s.to_z = 2;
  EXPECT_TRUE(check(b, move("a", {s})).verdict.has("blightmeer.jump_across.landing"));
  Step d = jump_down(15, 13.5);
  d.to_z = 1;
  EXPECT_TRUE(check(b, move("a", {d})).verdict.has("blightmeer.jump_down.landing"));
  // A climb to the same level is not a climb.
  EXPECT_TRUE(check(b, move("a", {climb(13.5, 12.5, 3)})).verdict.has("blightmeer.climb.no_height"));
}

TEST(BlightmeerPlacement, NotOffTheTable) {
  Battle b = battle({unit("a", 1, 33, 0)});
  MoveReport r = check(b, move("a", {walk(-1, 33)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.table.edge"));
}

}  // namespace
}  // namespace referee::blightmeer
