// Rules 5, 6, 7, 8 and 11 with dice: failed checks, falls, Injury Rolls,
// water. ScriptedDice throws if the engine asks for a roll the test did not
// script, so these also prove which rolls are made.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "referee/blightmeer/resolve.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

bool has_event(const Resolution& r, const std::string& rule) {
  for (const auto& e : r.events)
    if (e.rule == rule) return true;
  return false;
}

Resolution resolve(Battle& b, const MoveRequest& m, std::vector<int> rolls) {
  ScriptedDice dice(std::move(rolls));
  Resolution r = resolve_move(*b.terrain, b.state, m, dice);
  EXPECT_EQ(dice.remaining(), 0u) << "unused scripted rolls";
  return r;
}

TEST(BlightmeerFall, InjuryModifierIsTwoPerFullInchAboveTwo) {
  EXPECT_EQ(fall_modifier(2.0), 0);
  EXPECT_EQ(fall_modifier(2.9), 0);
  EXPECT_EQ(fall_modifier(3.0), 2);
  EXPECT_EQ(fall_modifier(4.5), 4);
  EXPECT_EQ(fall_modifier(6.0), 8);
}

TEST(BlightmeerFall, InjuryRollTable) {
  EXPECT_EQ(injury_for(11), Injury::none);
  EXPECT_EQ(injury_for(12), Injury::dazed);
  EXPECT_EQ(injury_for(14), Injury::dazed);
  EXPECT_EQ(injury_for(15), Injury::stunned);
  EXPECT_EQ(injury_for(17), Injury::stunned);
  EXPECT_EQ(injury_for(18), Injury::incapacitated);
}

TEST(BlightmeerResolve, FailedClimbStaysAtTheFootWithoutAFall) {
  Battle b = battle({unit("a", 9.5, 13, 0)});
  Resolution r = resolve(b, move("a", {climb(10.5, 13, 3), walk(12.5, 13)}), {7});
  EXPECT_TRUE(r.applied);
  EXPECT_EQ(r.after.pos, (Vec3{9.5, 13, 0}));
  EXPECT_FALSE(has_event(r, "blightmeer.fall.injury"));
  Battle b2 = battle({unit("a", 9.5, 13, 0)});
  Resolution ok = resolve(b2, move("a", {climb(10.5, 13, 3), walk(12.5, 13)}), {8});
  EXPECT_EQ(ok.after.pos, (Vec3{12.5, 13, 3}));
}

TEST(BlightmeerResolve, FailedJumpDownFallsWhereItLanded) {
  // 6 in drop: Disadvantage (3 and 15, keeps 3: fails), then Injury Roll 5 + 8 = 13: Dazed.
  Battle b = battle({unit("a", 13.5, 22, 6)});
  Resolution r = resolve(b, move("a", {jump_down(14.5, 22), walk(14.5, 25)}), {3, 15, 5});
  EXPECT_EQ(r.after.pos, (Vec3{14.5, 22, 0}));
  EXPECT_TRUE(r.after.dazed);
  EXPECT_FALSE(r.after.incapacitated);
  EXPECT_TRUE(has_event(r, "blightmeer.fall.injury"));
}

TEST(BlightmeerResolve, DwarvesTakeMinusTwoOnFallInjuryRolls) {
  json d = unit("dwarf", 13.5, 22, 6);
  d["agility"] = 14;
  d["traits"] = {{"fall_injury_modifier", -2}};
  Battle b = battle({d});
  // Both fail the check; Injury Roll 10: the Dwarf has 10 + 8 - 2 = 16 (Stunned), a man 10 + 8 = 18 (Incapacitated).
  Resolution r = resolve(b, move("dwarf", {jump_down(14.5, 22)}), {2, 2, 10});
  EXPECT_TRUE(r.after.stunned);  // 10 + 6 = 16
  EXPECT_FALSE(r.after.incapacitated);
  Battle man = battle({unit("man", 13.5, 22, 6)});
  Resolution m = resolve(man, move("man", {jump_down(14.5, 22)}), {2, 2, 10});
  EXPECT_TRUE(m.after.incapacitated);  // 10 + 8 = 18
}

TEST(BlightmeerResolve, AFallCostsNoWoundButMultiWoundUnitsAreStunnedAndLoseOne) {
  json treant = unit("treant", 13.5, 22, 6);
  treant["wounds"] = 3;
  Battle b = battle({treant});
  Resolution r = resolve(b, move("treant", {jump_down(14.5, 22)}), {1, 1, 12});  // 12 + 8 = 20
  EXPECT_FALSE(r.after.incapacitated);
  EXPECT_TRUE(r.after.stunned);
  EXPECT_EQ(r.after.wounds, 2);
  EXPECT_TRUE(has_event(r, "blightmeer.fall.wounds"));
  Battle one = battle({unit("man", 13.5, 22, 6)});
  Resolution m = resolve(one, move("man", {jump_down(14.5, 22)}), {1, 1, 12});
  EXPECT_TRUE(m.after.incapacitated);
  EXPECT_EQ(m.after.wounds, 1);
  Battle light = battle({unit("man", 13.5, 22, 6)});
  Resolution l = resolve(light, move("man", {jump_down(14.5, 22)}), {1, 1, 1});  // 1 + 8 = 9: no effect
  EXPECT_FALSE(l.after.dazed || l.after.stunned || l.after.incapacitated);
}

TEST(BlightmeerResolve, AutomaticJumpAcrossFailureRollsNoCheckAndFallsFromTheTakeOff) {
  // 3.5 in gap: no check is rolled; the fall is 3 in (+2), Injury Roll 10 + 2 = 12: Dazed.
  Battle b = battle({unit("a", 13, 12, 3)});
  Resolution r = resolve(b, move("a", {jump_across(16.5, 12)}), {10});
  EXPECT_EQ(r.after.pos, (Vec3{14.5, 12, 0}));
  EXPECT_TRUE(r.after.dazed);
  EXPECT_TRUE(has_event(r, "blightmeer.jump_across.automatic_failure"));
}

TEST(BlightmeerResolve, AFallOntoAUnitLandsNextToItNotEngaged) {
  // The fall spot (14.5, 12) is 0.2 in south of b: placed north of b, bases 0.1 in apart.
  Battle b = battle({unit("a", 14, 12, 3), unit("b", 14.5, 11.8, 0, "blue")});
  Resolution r = resolve(b, move("a", {jump_across(16, 12)}), {5, 3});
  EXPECT_NEAR(r.after.pos.x, 14.5, 1e-9);
  EXPECT_NEAR(r.after.pos.y, 11.8 + 1.1, 1e-9);
  EXPECT_TRUE(has_event(r, "blightmeer.fall.placement"));
  EXPECT_TRUE(r.after.engaged_with.empty());
}

TEST(BlightmeerResolve, AnAmbiguousFallDirectionIsRolled) {
  // Falling exactly onto b's centre: d8 = 3 points east (90 degrees).
  Battle b = battle({unit("a", 14, 12, 3), unit("b", 14.5, 12, 0, "blue")});
  Resolution r = resolve(b, move("a", {jump_across(16, 12)}), {5, 3, 9});
  EXPECT_NEAR(r.after.pos.x, 14.5 + 1.1, 1e-9);
  EXPECT_NEAR(r.after.pos.y, 12, 1e-9);
  ASSERT_GE(r.rolls.size(), 2u);
  EXPECT_EQ(r.rolls[1].sides, 8);
}

TEST(BlightmeerWater, ShallowWaterIsDifficultAndGivesCover) {
  Battle b = battle({unit("a", 26, 2, 0)});
  MoveReport r = check(b, move("a", {walk(30, 2)}));
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_DOUBLE_EQ(r.allowance.total, 4.0);
  EXPECT_TRUE(has_note(r, "blightmeer.water.difficult"));
  EXPECT_TRUE(has_note(r, "blightmeer.water.cover"));
  EXPECT_FALSE(has_note(r, "blightmeer.water.deep"));
  EXPECT_TRUE(check(b, move("a", {walk(30.5, 2)})).verdict.has("blightmeer.move.allowance"));
}

TEST(BlightmeerWater, DeepWaterStopsShootingAndCasting) {
  Battle b = battle({unit("a", 26, 25, 0)});
  MoveReport r = check(b, move("a", {walk(29, 25)}));
  EXPECT_TRUE(r.verdict.legal());
  EXPECT_TRUE(has_note(r, "blightmeer.water.deep"));
  EXPECT_FALSE(has_note(r, "blightmeer.water.deep_armour"));
}

TEST(BlightmeerWater, ArmourInDeepWaterIsIncapacitated) {
  for (const char* armour : {"light", "heavy", "mithril"}) {
    json a = unit("a", 26, 25, 0);
    a["armour"] = armour;
    Battle b = battle({a});
    MoveRequest m = move("a", {walk(29, 25)});
    EXPECT_TRUE(has_note(check(b, m), "blightmeer.water.deep_armour")) << armour;
    Resolution r = resolve(b, m, {});
    EXPECT_TRUE(r.after.incapacitated) << armour;
    EXPECT_EQ(r.after.pos, (Vec3{28, 25, 0})) << armour;  // where it entered the water
  }
  // Mithril is a setting (docs/rulings.md#blightmeer-mithril-in-deep-water).
  json t = base_terrain();
  t["settings"] = {{"mithril_sinks", false}};
  json a = unit("a", 26, 25, 0);
  a["armour"] = "mithril";
  Battle b = battle({a}, t);
  Resolution r = resolve(b, move("a", {walk(29, 25)}), {});
  EXPECT_FALSE(r.after.incapacitated);
}

TEST(BlightmeerWater, DazedOrStunnedInWaterIsIncapacitated) {
  // Jump down from the jetty into the pond, fail, Injury Roll 10 + 2 = 12: Dazed, in water: Incapacitated.
  Battle b = battle({unit("a", 27.5, 5, 3)});
  Resolution r = resolve(b, move("a", {jump_down(29, 5)}), {4, 10});
  EXPECT_TRUE(r.after.dazed);
  EXPECT_TRUE(r.after.incapacitated);
  EXPECT_TRUE(has_event(r, "blightmeer.water.incapacitated"));
}

TEST(BlightmeerResolve, AnIllegalMoveChangesNothingAndRollsNothing) {
  Battle b = battle({unit("a", 2, 8, 0)});
  State before = b.state;
  ScriptedDice dice({});
  Resolution r = resolve_move(*b.terrain, b.state, move("a", {walk(2, 20)}), dice);
  EXPECT_FALSE(r.applied);
  EXPECT_EQ(b.state.units[0].pos, before.units[0].pos);
  EXPECT_TRUE(dice.history().empty());
}

}  // namespace
}  // namespace referee::blightmeer
