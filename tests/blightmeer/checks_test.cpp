// d20 checks: exact chances from the check rules (docs/rulings.md#blightmeer-checks).
#include <gtest/gtest.h>

#include "referee/blightmeer/checks.hpp"

namespace referee::blightmeer {
namespace {

TEST(BlightmeerCheck, AgilityEightPassesOnThirteenFaces) {
  // A Sellsword Captain (Agility 8) passes on 8..20.
  EXPECT_EQ(check_chance(8, Edge::none).fraction(), "13/20");
}

TEST(BlightmeerCheck, NaturalOneToFourAlwaysFails) {
  // Agility 2 would pass on 2+, but 2, 3 and 4 are natural failures.
  EXPECT_EQ(passing_faces(2), 16);
  EXPECT_FALSE(check_passes(4, 2));
  EXPECT_TRUE(check_passes(5, 2));
}

TEST(BlightmeerCheck, NaturalTwentyAlwaysPasses) {
  // The Treant's Agility 16 passes on 16..20; Agility 25 only on a natural 20.
  EXPECT_EQ(check_chance(16, Edge::none).fraction(), "5/20");
  EXPECT_EQ(check_chance(25, Edge::none).fraction(), "1/20");
  EXPECT_TRUE(check_passes(20, 25));
}

TEST(BlightmeerCheck, AdvantageAndDisadvantageCountFourHundredPairs) {
  // Agility 8: 13 passing faces, 7 failing.
  EXPECT_EQ(check_chance(8, Edge::advantage).fraction(), "351/400");    // 400 - 7*7
  EXPECT_EQ(check_chance(8, Edge::disadvantage).fraction(), "169/400"); // 13*13
}

TEST(BlightmeerCheck, AdvantageAndDisadvantageCancel) {
  EXPECT_EQ(combine(true, true), Edge::none);
  EXPECT_EQ(combine(false, true), Edge::disadvantage);
  EXPECT_EQ(combine(true, false), Edge::advantage);
  EXPECT_EQ(combine(false, false), Edge::none);
}

TEST(BlightmeerCheck, RollKeepsTheLowerWithDisadvantage) {
  ScriptedDice dice({15, 6});
  CheckRoll r = roll_check(dice, 8, Edge::disadvantage, "test");
  EXPECT_EQ(r.kept, 6);
  EXPECT_FALSE(r.passed);
  ScriptedDice dice2({3, 9});
  CheckRoll a = roll_check(dice2, 8, Edge::advantage, "test");
  EXPECT_EQ(a.kept, 9);
  EXPECT_TRUE(a.passed);
}

}  // namespace
}  // namespace referee::blightmeer
