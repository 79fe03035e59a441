// Moving by initiative (movement text, "Moving by initiative", "The path of
// evaders"; command text, "Initiative movement").
#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/movement/sight.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

// U (side 0) in line at y = 50 facing north, front edge y = 51. E1 (side 1)
// faces it 13 cm away (its edge at y = 64). E2 is 28 cm off to the side.
Battlefield initiative_field() {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  bf.units.push_back(line_unit("E1", 1, 60, 65, 180));
  bf.units.push_back(line_unit("E2", 1, 110, 60, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  return bf;
}

TEST(Initiative, OnlyUnitsWithin20cmOfAnEnemyAtTheStart) {
  Battlefield bf = initiative_field();
  bf.units.push_back(line_unit("far", 0, 150, 20));
  WarmasterState s(make_game(bf));
  EXPECT_TRUE(status(s, "U").near_enemy_at_start);
  EXPECT_FALSE(status(s, "far").near_enemy_at_start);
  expect_refused(s, initiative("far", false, "E2"), "warmaster.initiative.range");
}

TEST(Initiative, EvadeComputedByTheEngineMovesStraightAwayAtFullPace) {
  WarmasterState s(make_game(initiative_field()));
  const auto plan = s.compute_evade("U", "E1");
  ASSERT_TRUE(plan);
  const ActionOutcome o = play(s, initiative("U", false, "E1"));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  // Directly away (south) by the full 20 cm: front edge from 51 to 31.
  for (const Stand& st : unit(s, "U").stands) EXPECT_NEAR(st.pose.position.y, 30.0, 1e-9);
  EXPECT_NEAR(unit(s, "U").stands[0].pose.position.x, 56.0, 1e-9);
  EXPECT_TRUE(status(s, "U").used_initiative);
  // A unit that used initiative cannot be ordered that turn.
  expect_refused(s, order("g", {"U"}), "warmaster.initiative.no_orders");
}

TEST(Initiative, EvadeGivenByThePlayerMustGoStraightAway) {
  WarmasterState s(make_game(initiative_field()));
  // Sideways is not directly away.
  expect_refused(s, initiative("U", false, "E1", {slide(unit(s, "U"), {5, -5}, MoveKind::Evade)}),
                 "warmaster.initiative.evade_direction");
  // Less than 1 cm.
  expect_refused(s, initiative("U", false, "E1", {slide(unit(s, "U"), {0, -0.5}, MoveKind::Evade)}),
                 "warmaster.initiative.evade_distance");
  // More than full pace is the movement engine's refusal.
  EXPECT_FALSE(s.validate(initiative("U", false, "E1", {slide(unit(s, "U"), {0, -25}, MoveKind::Evade)})).legal());
  const ActionOutcome o = play(s, initiative("U", false, "E1", {slide(unit(s, "U"), {0, -12}, MoveKind::Evade)}));
  EXPECT_TRUE(o.verdict.legal()) << explain(o.verdict);
}

// "The nearest stand moves first, in a straight line": the engine may not
// plan it round something in the way, even when a way round fits the pace.
TEST(Initiative, EvadersNearestStandMayNotGoRoundWhatBlocksItsLine) {
  Battlefield bf = initiative_field();
  // A post straight behind stand 0 (x = 56), clear of stand 1's line (x = 60).
  bf.terrain.push_back(area("post", TerrainKind::Impassable, {{55.5, 43}, {56.5, 43}, {56.5, 44}, {55.5, 44}}));
  WarmasterState s(make_game(bf));
  const Action a = initiative("U", false, "E1", {slide(unit(s, "U"), {0, -12}, MoveKind::Evade)});
  expect_refused(s, a, "warmaster.initiative.evade_direction");
  // The same slide as a plain move is legal: the engine plans round the post.
  MoveRequest plain = slide(unit(s, "U"), {0, -12}, MoveKind::Ordered);
  const MoveAnswer ans = check_move(s.battlefield(), plain, s.settings());
  EXPECT_TRUE(ans.verdict.legal()) << explain(ans.verdict);
  EXPECT_TRUE(ans.routes[0].planned);
}

TEST(Initiative, EvadeMustEndAtLeast5cmFromEveryEnemy) {
  Battlefield bf = initiative_field();
  // A second enemy behind U, facing away: its edge at y = 30 (18 cm from U's rear at 49... closer than E1? no: 19 cm).
  bf.units.push_back(line_unit("E3", 1, 60, 29, 0));
  WarmasterState s(make_game(bf));
  // Evading 20 cm from E1 would end touching E3; the engine's evade stops 5 cm short.
  const ActionOutcome o = play(s, initiative("U", false, "E1"));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  const double rear = unit(s, "U").stands[0].pose.position.y - 1.0;
  EXPECT_GE(rear - 30.0, 5.0 - 1e-9);
  EXPECT_LT(rear - 30.0, 5.5 + 1e-9);  // the longest legal slide, in 0.5 cm steps
}

TEST(Initiative, PlayerEvadeEndingTooCloseIsRefused) {
  Battlefield bf = initiative_field();
  bf.units.push_back(line_unit("E3", 1, 60, 29, 0));
  WarmasterState s(make_game(bf));
  expect_refused(s, initiative("U", false, "E1", {slide(unit(s, "U"), {0, -16}, MoveKind::Evade)}),
                 "warmaster.initiative.evade_clearance");
}

TEST(Initiative, CannotEvadeWhenNoMoveIsPossible) {
  Battlefield bf = initiative_field();
  // A lake right behind U: it can back off 0.5 cm at most.
  bf.terrain.push_back(area("lake", TerrainKind::DeepRiver, {{40, 20}, {80, 20}, {80, 48.5}, {40, 48.5}}));
  WarmasterState s(make_game(bf));
  EXPECT_FALSE(s.compute_evade("U", "E1"));
  expect_refused(s, initiative("U", false, "E1"), "warmaster.initiative.evade");
}

TEST(Initiative, BurstThroughConfusesTheFriendlyUnit) {
  Battlefield bf = initiative_field();
  bf.units.push_back(line_unit("F", 0, 60, 40));  // right behind U: y 39..41
  WarmasterState s(make_game(bf));
  // Without bursting through, the evade stops against F (8 cm).
  const auto short_plan = s.compute_evade("U", "E1");
  ASSERT_TRUE(short_plan);
  // It ends touching F (y 42) or, if the path keeps a hair's clearance, one 0.5 cm step short.
  EXPECT_GE(short_plan->stands[0].final_pose.position.y, 42.0 - 1e-9);
  EXPECT_LE(short_plan->stands[0].final_pose.position.y, 42.5 + 1e-9);
  Action a = initiative("U", false, "E1");
  a.burst_through = {"F"};
  const ActionOutcome o = play(s, a);
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_NEAR(unit(s, "U").stands[0].pose.position.y, 30.0, 1e-9);
  EXPECT_TRUE(unit(s, "F").confused);
}

TEST(Initiative, ChargeTheClosestVisibleEnemy) {
  WarmasterState s(make_game(initiative_field()));
  const ActionOutcome o = play(s, initiative("U", true, "E1", {slide(unit(s, "U"), {0, 13}, MoveKind::Charge)}));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(status(s, "U").charged);
  EXPECT_TRUE(unit(s, "U").engaged);
  EXPECT_TRUE(unit(s, "E1").engaged);
}

TEST(Initiative, ChargeMustEndInContact) {
  WarmasterState s(make_game(initiative_field()));
  expect_refused(s, initiative("U", true, "E1", {slide(unit(s, "U"), {0, 10}, MoveKind::Charge)}),
                 "warmaster.command.charge_contact");
}

TEST(Initiative, NotAnEnemyOtherThanTheClosest) {
  Battlefield bf = initiative_field();
  // E3 at 12.8 cm (dx 8, dy 10) is closer than E1 at 13 cm.
  bf.units.push_back(line_unit("E3", 1, 80, 62, 180));
  WarmasterState s(make_game(bf));
  expect_refused(s, initiative("U", true, "E1", {slide(unit(s, "U"), {0, 13}, MoveKind::Charge)}),
                 "warmaster.initiative.closest");
  // Ignoring E3 is allowed only if it is fortified infantry or artillery.
  Action a = initiative("U", true, "E1", {slide(unit(s, "U"), {0, 13}, MoveKind::Charge)});
  a.ignore = {"E3"};
  expect_refused(s, a, "warmaster.initiative.ignore");
}

TEST(Initiative, FortifiedInfantryMayBeIgnored) {
  Battlefield bf = initiative_field();
  bf.units.push_back(line_unit("E3", 1, 80, 62, 180));
  bf.units.back().fortified = true;
  WarmasterState s(make_game(bf));
  Action a = initiative("U", true, "E1", {slide(unit(s, "U"), {0, 13}, MoveKind::Charge)});
  a.ignore = {"E3"};
  const ActionOutcome o = play(s, a);
  EXPECT_TRUE(o.verdict.legal()) << explain(o.verdict);
}

TEST(Initiative, EnemyNotSeenCannotBeChargedByInitiative) {
  Battlefield bf = initiative_field();
  // A wood between U and E1 blocks sight.
  bf.terrain.push_back(area("wood", TerrainKind::Wood, {{40, 55}, {80, 55}, {80, 60}, {40, 60}}));
  WarmasterState s(make_game(bf));
  expect_refused(s, initiative("U", true, "E1", {slide(unit(s, "U"), {0, 13}, MoveKind::Charge)}),
                 "warmaster.initiative.sight");
}

// Command text, "Initiative" (warmaster.initiative.ignore): "A unit can also
// ignore the presence of enemy units if they are divided by a mutually
// impassable barrier so long as neither the unit itself nor the enemy unit(s)
// can move round the barrier within a full pace move. For example, cavalry
// cannot cross rivers, so two cavalry units divided by a river can ignore each
// other." Cavalry stands here are 2 cm wide and 4 cm deep; full pace is 30 cm.
//
// C (side 0) at y = 50 facing north: front edge y = 52, x 57..63. X (side 1)
// faces it across a deep river (y 56..60): X's edge at y = 67, 15 cm away.
// D (side 1) at (80, 63) facing south: x 78..82, y 61..65, 17.5 cm from C's
// corner (63, 52), beyond the river's east end when the river is short of it.
Battlefield barrier_field(double river_west, double river_east) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("C", 0, 60, 50, 0, TroopType::Cavalry));
  bf.units.push_back(line_unit("X", 1, 60, 69, 180, TroopType::Cavalry));
  bf.units.push_back(line_unit("D", 1, 80, 63, 180, TroopType::Cavalry));
  bf.terrain.push_back(
      area("river", TerrainKind::DeepRiver, {{river_west, 56}, {river_east, 56}, {river_east, 60}, {river_west, 60}}));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  return bf;
}

TEST(InitiativeBarrier, CavalryAcrossALongRiverMayIgnoreEachOther) {
  // The river runs from the west table edge to x = 76: going round its east
  // end is about 19 + 8 + 19 = 46 cm for either unit, more than 30.
  const Battlefield bf = barrier_field(0, 76);
  const Unit& c = bf.units[0];
  const Unit& x = bf.units[1];
  EXPECT_NEAR(unit_distance(c, x).distance, 15.0, 1e-9);
  EXPECT_TRUE(cut_off_by_barrier(bf, c, x, Settings{}));
  EXPECT_TRUE(cut_off_by_barrier(bf, x, c, Settings{}));
  WarmasterState s(make_game(bf));
  // Without ignoring X, initiative acts on X, the closest: D is refused.
  expect_refused(s, initiative("C", false, "D"), "warmaster.initiative.closest");
  // X ignored: initiative goes to the next closest enemy, D (17.5 cm).
  Action a = initiative("C", false, "D");
  a.ignore = {"X"};
  const ActionOutcome o = play(s, a);
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(status(s, "C").used_initiative);
  EXPECT_GT(unit_distance(unit(s, "C"), unit(s, "D")).distance, 17.5);
}

TEST(InitiativeBarrier, AShortRiverTheyCanGoRoundMayNotBeIgnored) {
  // The river covers only x 54..66: C's stand goes round its west end in about
  // 6.4 + 8 + 5.8 = 20 cm, inside its 30 cm full pace.
  const Battlefield bf = barrier_field(54, 66);
  EXPECT_FALSE(cut_off_by_barrier(bf, bf.units[0], bf.units[1], Settings{}));
  WarmasterState s(make_game(bf));
  Action a = initiative("C", false, "D");
  a.ignore = {"X"};
  expect_refused(s, a, "warmaster.initiative.ignore");
}

TEST(InitiativeBarrier, InfantryAcrossAWoodAreNotCutOff) {
  // Infantry may enter woods, so a wood is no barrier between them, however long.
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("I", 0, 60, 50));
  bf.units.push_back(line_unit("J", 1, 60, 66, 180));
  bf.units.push_back(line_unit("K", 1, 80, 62, 180));
  bf.terrain.push_back(area("wood", TerrainKind::Wood, {{0, 55}, {76, 55}, {76, 60}, {0, 60}}));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  EXPECT_FALSE(cut_off_by_barrier(bf, bf.units[0], bf.units[1], Settings{}));
  WarmasterState s(make_game(bf));
  Action a = initiative("I", false, "K");
  a.ignore = {"J"};
  expect_refused(s, a, "warmaster.initiative.ignore");
}

TEST(Initiative, ArtilleryNeverChargesFlyersNeverEvade) {
  Battlefield bf = initiative_field();
  bf.units[0] = line_unit("U", 0, 60, 50, 0, TroopType::Artillery);
  bf.units.push_back(line_unit("F", 0, 20, 62, 90, TroopType::Flyer));
  bf.units.push_back(line_unit("E4", 1, 20, 75, 180));
  WarmasterState s(make_game(bf));
  expect_refused(s, initiative("U", true, "E1", {slide(unit(s, "U"), {0, 11}, MoveKind::Charge)}),
                 "warmaster.initiative.artillery");
  expect_refused(s, initiative("F", false, "E4"), "warmaster.initiative.flyer");
  // Artillery may evade.
  EXPECT_TRUE(s.validate(initiative("U", false, "E1")).legal());
}

TEST(Initiative, AllInitiativeBeforeTheFirstOrder) {
  Battlefield bf = initiative_field();
  bf.units.push_back(line_unit("B", 0, 20, 20));
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  expect_refused(s, initiative("U", false, "E1"), "warmaster.initiative.before_orders");
}

TEST(Initiative, BrigadesCannotUseInitiativeAsABody) {
  WarmasterState s(make_game(initiative_field()));
  Action a = initiative("U", false, "E1");
  a.units = {"U", "X"};
  expect_refused(s, a, "warmaster.initiative.brigade");
}

TEST(Initiative, EvadeLineRunsBetweenTheClosestStands) {
  Battlefield bf = initiative_field();
  const EvadeLine line = evade_line(bf.units[0], bf.units[1]);
  EXPECT_NEAR(line.distance, 13.0, 1e-9);
  EXPECT_NEAR(line.direction.x, 0.0, 1e-12);
  EXPECT_NEAR(line.direction.y, -1.0, 1e-12);
}

}  // namespace
}  // namespace referee::warmaster
