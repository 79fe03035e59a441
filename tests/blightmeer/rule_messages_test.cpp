// Rulings not exercised elsewhere, and the wording of reasons: figures built
// from the battle's settings (never a fixed "4 in"), and near misses printed
// with enough digits that "spends 6.0 in of 6.0 in" never reads as a refusal
// of a legal move.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "referee/blightmeer/resolve.hpp"

namespace referee::blightmeer {
namespace rule_messages_test {
using namespace testing;

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

const Ruling* violation_of(const MoveReport& r, const std::string& rule) {
  for (const Ruling& v : r.verdict.violations)
    if (v.rule == rule) return &v;
  return nullptr;
}

const Ruling* note_of(const MoveReport& r, const std::string& rule) {
  for (const Ruling& n : r.notes)
    if (n.rule == rule) return &n;
  return nullptr;
}

TEST(BlightmeerRuleMessages, AnIncapacitatedUnitDoesNotMove) {
  json a = unit("a", 1, 10, 0);
  a["state"] = {{"incapacitated", true}};
  Battle b = battle({a});
  MoveReport r = check(b, move("a", {walk(3, 10)}));
  const Ruling* v = violation_of(r, "blightmeer.move.incapacitated");
  ASSERT_NE(v, nullptr) << explain(r.verdict);
  EXPECT_EQ(v->reason, "a is Incapacitated and off the table");
}

TEST(BlightmeerRuleMessages, DifficultTerrainTakesTwoInchesOnce) {
  // Through the mud: Move 6 becomes 4, however much mud is crossed.
  Battle b = battle({unit("a", 1, 1, 0)});
  MoveReport r = check(b, move("a", {walk(3, 1), walk(3, 2)}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  const Ruling* n = note_of(r, "blightmeer.terrain.difficult");
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(contains(n->reason, "the whole allowance loses 2 in, once, after the Run multiplier (6.0 in -> 4.0 in)"));
  EXPECT_DOUBLE_EQ(r.allowance.total, 4.0);
  EXPECT_FALSE(has_note(r, "blightmeer.water.difficult"));
}

TEST(BlightmeerRuleMessages, AJumpAcrossMayNotPassOverSomethingHigherThanBothEnds) {
  // From the 3 in shed to the 3 in cliff top, 2.2 in, over the 5 in post.
  Battle b = battle({unit("a", 17.9, 12, 3)});
  MoveReport r = check(b, move("a", {jump_across(20.1, 12)}));
  const Ruling* v = violation_of(r, "blightmeer.jump_across.over_higher");
  ASSERT_NE(v, nullptr) << explain(r.verdict);
  EXPECT_TRUE(contains(v->reason, "jumps through terrain 5.0 in high, higher than both ends"));
}

TEST(BlightmeerRuleMessages, AFailedClimbBesideAnAllyIsPlacedNextToIt) {
  // a walks through its ally b (0.2 in south of the foot of the house wall)
  // and fails the climb (7 against Agility 8): it stays at the foot, which is
  // on b, so it is moved straight away from b's centre until the bases are
  // 0.1 in apart: 1.1 in north of b.
  json a = unit("a", 7, 13, 0);
  a["move"] = 8;
  Battle b = battle({a, unit("b", 9.5, 12.8, 0)});
  MoveReport checked = check(b, move("a", {walk(9.5, 13), climb(10.5, 13, 3)}));
  ASSERT_TRUE(checked.verdict.legal()) << explain(checked.verdict);
  ScriptedDice dice({7});
  Resolution r = resolve_move(*b.terrain, b.state, move("a", {walk(9.5, 13), climb(10.5, 13, 3)}), dice);
  EXPECT_EQ(dice.remaining(), 0u);
  bool placed = false;
  for (const auto& e : r.events) placed = placed || e.rule == "blightmeer.climb.placement";
  EXPECT_TRUE(placed);
  EXPECT_NEAR(r.after.pos.x, 9.5, 1e-9);
  EXPECT_NEAR(r.after.pos.y, 12.8 + 1.1, 1e-9);
  EXPECT_DOUBLE_EQ(r.after.pos.z, 0);
}

// --- Messages built from the settings --------------------------------------

std::string disadvantage_why(const MoveReport& r) {
  for (const std::string& w : r.checks.at(0).why)
    if (w.find("drop of") != std::string::npos) return w;
  return "none";
}

TEST(BlightmeerRuleMessages, TheJumpDownDisadvantageNamesTheSetting) {
  // From the 4.5 in hut to the ground 1.5 in away: a 4.5 in drop.
  Battle plain = battle({unit("a", 16.5, 22, 4.5)});
  MoveReport r = check(plain, move("a", {jump_down(18, 22)}));
  EXPECT_EQ(r.checks.at(0).edge, Edge::disadvantage);
  EXPECT_EQ(disadvantage_why(r), "drop of 4.5 in (4.0 in or more): Disadvantage");

  json t = base_terrain();
  t["settings"] = {{"disadvantage_drop", 3}};
  Battle low = battle({unit("a", 16.5, 22, 4.5)}, t);
  r = check(low, move("a", {jump_down(18, 22)}));
  EXPECT_EQ(disadvantage_why(r), "drop of 4.5 in (3.0 in or more): Disadvantage");
  // The 3 in house roof: no Disadvantage by default, Disadvantage at 3 in.
  Battle house = battle({unit("a", 13.5, 12, 3)}, t);
  r = check(house, move("a", {jump_down(15, 12)}));
  EXPECT_EQ(disadvantage_why(r), "drop of 3.0 in (3.0 in or more): Disadvantage");

  t["settings"] = {{"disadvantage_drop", 5}};
  Battle high = battle({unit("a", 16.5, 22, 4.5)}, t);
  r = check(high, move("a", {jump_down(18, 22)}));
  EXPECT_EQ(r.checks.at(0).edge, Edge::none);
  EXPECT_EQ(disadvantage_why(r), "none");
}

TEST(BlightmeerRuleMessages, TheFreeJumpNoteNamesTheSetting) {
  // house2 to shed2 across their half-inch gap: a 1 in jump.
  Battle plain = battle({unit("a", 14.2, 16.5, 3)});
  MoveReport r = check(plain, move("a", {jump_across(15.2, 16.5)}));
  const Ruling* n = note_of(r, "blightmeer.jump_across.short");
  ASSERT_NE(n, nullptr) << explain(r.verdict);
  EXPECT_TRUE(contains(n->reason, "jumps 1.0 in: 1.0 in or less needs no check"));

  json t = base_terrain();
  t["settings"] = {{"free_jump_gap", 1.5}};
  Battle wide = battle({unit("a", 14.2, 16.5, 3)}, t);
  r = check(wide, move("a", {jump_across(15.2, 16.5)}));
  n = note_of(r, "blightmeer.jump_across.short");
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(contains(n->reason, "jumps 1.0 in: 1.5 in or less needs no check"));
}

TEST(BlightmeerRuleMessages, TheJumpDownRangeNamesTheSetting) {
  json t = base_terrain();
  t["settings"] = {{"jump_down_range", 2}};
  Battle b = battle({unit("a", 13.5, 12, 3)}, t);
  // From the 3 in house roof to the ground 3 in south: within the text's 3 in,
  // beyond a 2 in setting.
  MoveReport r = check(b, move("a", {jump_down(13.5, 9.0)}));
  const Ruling* v = violation_of(r, "blightmeer.jump_down.range");
  ASSERT_NE(v, nullptr) << explain(r.verdict);
  EXPECT_TRUE(contains(v->reason, "lands 3.0 in from where it jumped down; at most 2.0 in"));
}

// --- Near misses print the digits that differ -------------------------------

TEST(BlightmeerRuleMessages, ANearMissOnTheAllowanceShowsDistinctFigures) {
  Battle b = battle({unit("a", 1, 10, 0)});
  MoveReport r = check(b, move("a", {walk(7.05, 10)}));
  const Ruling* v = violation_of(r, "blightmeer.move.allowance");
  ASSERT_NE(v, nullptr) << explain(r.verdict);
  EXPECT_EQ(v->reason, "a spends 6.05 in of 6.00 in allowed");
  EXPECT_EQ(explain_report(r).substr(0, 41), "Illegal move by a: spends 6.05 in of 6.00");
}

TEST(BlightmeerRuleMessages, ANearMissOnTheClimbLeewayShowsDistinctFigures) {
  Battle b = battle({unit("a", 9.45, 13, 0)});
  MoveReport r = check(b, move("a", {climb(10.5, 13, 3)}));
  const Ruling* v = violation_of(r, "blightmeer.climb.leeway");
  ASSERT_NE(v, nullptr) << explain(r.verdict);
  EXPECT_TRUE(contains(v->reason, "moves 1.05 in horizontally within a climb; 1.00 in is allowed"));
}

}  // namespace rule_messages_test
}  // namespace referee::blightmeer
