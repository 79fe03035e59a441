// The Move-phase text: who may move, running, difficult and low
// terrain, other units. Figures from the Move-phase text.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "referee/blightmeer/resolve.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

TEST(BlightmeerWhoMayMove, TriedToEngageStunnedAndDazedMayNotMove) {
  const char* flags[3] = {"tried_to_engage", "stunned", "dazed"};
  const char* rules[3] = {"blightmeer.move.engage_attempted", "blightmeer.move.stunned", "blightmeer.move.dazed"};
  for (int k = 0; k < 3; ++k) {
    json u = unit("a", 2, 10, 0);
    u["state"] = {{flags[k], true}};
    Battle b = battle({u});
    MoveReport r = check(b, move("a", {walk(2, 12)}));
    EXPECT_FALSE(r.verdict.legal()) << flags[k];
    EXPECT_TRUE(r.verdict.has(rules[k])) << flags[k];
  }
}

TEST(BlightmeerWhoMayMove, EngagedWithAStandingEnemyMayNotMove) {
  json a = unit("a", 2, 10, 0);
  a["state"] = {{"engaged_with", {"b"}}};
  json e = unit("b", 3, 10, 0, "blue");
  e["state"] = {{"engaged_with", {"a"}}};
  Battle b = battle({a, e});
  MoveReport r = check(b, move("a", {walk(2, 13)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.move.engaged"));
}

TEST(BlightmeerWhoMayMove, EngagedOnlyWithStunnedOrDazedEnemiesMayLeave) {
  json a = unit("a", 2, 10, 0);
  a["state"] = {{"engaged_with", {"b", "c"}}};
  json e = unit("b", 3, 10, 0, "blue");
  e["state"] = {{"stunned", true}, {"engaged_with", {"a"}}};
  json f = unit("c", 1, 10, 0, "blue");
  f["state"] = {{"dazed", true}, {"engaged_with", {"a"}}};
  Battle b = battle({a, e, f});
  MoveRequest m = move("a", {walk(2, 13)});
  MoveReport r = check(b, m);
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_TRUE(has_note(r, "blightmeer.move.leave_melee"));
  ScriptedDice dice({});
  Resolution res = resolve_move(*b.terrain, b.state, m, dice);
  EXPECT_TRUE(res.after.engaged_with.empty());
  EXPECT_TRUE(b.state.units[1].engaged_with.empty());
  EXPECT_TRUE(b.state.units[2].engaged_with.empty());
}

TEST(BlightmeerWhoMayMove, StaggeredHalvesMoveRoundedUp) {
  // Move 7 Staggered: 3.5 rounds up to 4 in.
  json a = unit("a", 2, 10, 0);
  a["move"] = 7;
  a["state"] = {{"staggered", true}};
  Battle b = battle({a});
  MoveReport ok = check(b, move("a", {walk(2, 14)}));
  EXPECT_TRUE(ok.verdict.legal());
  EXPECT_EQ(ok.allowance.base, 4);
  EXPECT_DOUBLE_EQ(ok.allowance.total, 4.0);
  MoveReport over = check(b, move("a", {walk(2, 14.2)}));
  EXPECT_TRUE(over.verdict.has("blightmeer.move.allowance"));
}

TEST(BlightmeerRun, RunIsOneAndAHalfTimesMove) {
  // "if a unit has 6" Move they may run 9"".
  Battle b = battle({unit("a", 2, 8, 0)});
  MoveReport ok = check(b, move("a", {walk(2, 17)}, true));
  EXPECT_TRUE(ok.verdict.legal());
  EXPECT_DOUBLE_EQ(ok.allowance.total, 9.0);
  EXPECT_DOUBLE_EQ(ok.spent, 9.0);
  MoveReport over = check(b, move("a", {walk(2, 17.5)}, true));
  EXPECT_TRUE(over.verdict.has("blightmeer.move.allowance"));
  MoveReport walking = check(b, move("a", {walk(2, 17)}, false));
  EXPECT_TRUE(walking.verdict.has("blightmeer.move.allowance"));
}

TEST(BlightmeerRun, TreasureCarrierCannotRun) {
  json a = unit("a", 2, 8, 0);
  a["state"] = {{"treasure", true}};
  Battle b = battle({a});
  EXPECT_TRUE(check(b, move("a", {walk(2, 10)}, true)).verdict.has("blightmeer.run.treasure"));
  EXPECT_TRUE(check(b, move("a", {walk(2, 10)}, false)).verdict.legal());
}

TEST(BlightmeerRun, RunningMarksNoShootingAndSpellPenalty) {
  Battle b = battle({unit("a", 2, 8, 0)});
  MoveRequest m = move("a", {walk(2, 12)}, true);
  MoveReport r = check(b, m);
  ASSERT_TRUE(has_note(r, "blightmeer.run.after"));
  for (const auto& n : r.notes) {
    if (n.rule == "blightmeer.run.after") {
      EXPECT_DOUBLE_EQ(n.figures.at(0).value, 2.0);
    }
  }
  ScriptedDice dice({});
  Resolution res = resolve_move(*b.terrain, b.state, m, dice);
  EXPECT_TRUE(res.after.ran);
}

TEST(BlightmeerDifficult, TwoInchesOffTheWholeAllowanceOnce) {
  // Move 6 through difficult terrain: 4 in; running: 9 - 2 = 7 in.
  Battle b = battle({unit("a", 8, 3, 0)});
  MoveReport ok = check(b, move("a", {walk(4, 3)}));
  EXPECT_TRUE(ok.verdict.legal()) << explain(ok.verdict);
  EXPECT_TRUE(ok.allowance.difficult);
  EXPECT_DOUBLE_EQ(ok.allowance.total, 4.0);
  EXPECT_TRUE(check(b, move("a", {walk(3.8, 3)})).verdict.has("blightmeer.move.allowance"));
  MoveReport run = check(b, move("a", {walk(1, 3)}, true));
  EXPECT_TRUE(run.verdict.legal());
  EXPECT_DOUBLE_EQ(run.allowance.total, 7.0);
  // In, out and in again: still only 2 in off.
  MoveReport twice = check(b, move("a", {walk(5, 3), walk(7, 3), walk(5, 3.5)}, true));
  EXPECT_DOUBLE_EQ(twice.allowance.penalty, 2.0);
  EXPECT_DOUBLE_EQ(twice.allowance.total, 7.0);
}

TEST(BlightmeerLowTerrain, OneInchOrLessCostsNothingExtra) {
  // The 0.8 in hedge at y 30-30.5: a 6 in walk across it is a full 6 in move.
  Battle b = battle({unit("a", 5, 28, 0)});
  MoveReport r = check(b, move("a", {walk(5, 34)}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_DOUBLE_EQ(r.allowance.total, 6.0);
  EXPECT_DOUBLE_EQ(r.spent, 6.0);
  EXPECT_TRUE(has_note(r, "blightmeer.terrain.low"));
}

TEST(BlightmeerOtherUnits, AlliesMayBePassedEnemiesNever) {
  Battle pass = battle({unit("a", 2, 10, 0), unit("b", 2, 12, 0)});
  EXPECT_TRUE(check(pass, move("a", {walk(2, 14)})).verdict.legal());
  Battle enemy = battle({unit("a", 2, 10, 0), unit("b", 2, 12, 0, "blue")});
  EXPECT_TRUE(check(enemy, move("a", {walk(2, 14)})).verdict.has("blightmeer.units.enemy"));
}

TEST(BlightmeerOtherUnits, EngagedStunnedOrDazedAlliesBlock) {
  json ally = unit("b", 2, 12, 0);
  ally["state"] = {{"engaged_with", {"c"}}};
  json foe = unit("c", 1, 12, 0, "blue");
  foe["state"] = {{"engaged_with", {"b"}}};
  Battle b = battle({unit("a", 2, 10, 0), ally, foe});
  MoveReport r = check(b, move("a", {walk(2, 14)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.units.ally"));
  EXPECT_FALSE(r.verdict.has("blightmeer.units.enemy"));  // c's base only touches the line
  json stunned = unit("b", 2, 12, 0);
  stunned["state"] = {{"stunned", true}};
  Battle b2 = battle({unit("a", 2, 10, 0), stunned});
  EXPECT_TRUE(check(b2, move("a", {walk(2, 14)})).verdict.has("blightmeer.units.ally"));
}

TEST(BlightmeerOtherUnits, MayNotEndOnAnotherUnit) {
  Battle b = battle({unit("a", 2, 10, 0), unit("b", 2, 12, 0)});
  MoveReport r = check(b, move("a", {walk(2, 12.5)}));
  EXPECT_TRUE(r.verdict.has("blightmeer.units.end_on_unit"));
  // Touching is not overlapping.
  EXPECT_TRUE(check(b, move("a", {walk(2, 11)})).verdict.legal());
}

}  // namespace
}  // namespace referee::blightmeer
