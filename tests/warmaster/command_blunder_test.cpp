// Blunders (docs/rulings.md#warmaster-command-blunders): a Hero or Wizard
// rolling 12 for an order fails it and rolls a D6 on the blunder table.
#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/movement/sight.hpp"

namespace referee::warmaster {
namespace blunder_test {

using namespace testing;

// Side 0: unit B at (60, 20) facing north; General g and Hero h beside it.
// Side 1: E far away at y = 100.
Battlefield blunder_field() {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("B", 0, 60, 20));
  bf.units.push_back(line_unit("E", 1, 60, 100, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 14));
  bf.characters.push_back(character("h", 0, CharacterRole::Hero, 8, 66, 14));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  return bf;
}

TEST(CommandBlunder, HeroRollingTwelveBlundersAndOneCostsCommandForTheGame) {
  WarmasterState s(make_game(blunder_field()));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 1});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_FALSE(o.result["passed"].get<bool>());
  ASSERT_TRUE(o.result.contains("blunder"));
  EXPECT_EQ(o.result["blunder"]["roll"], 1);
  EXPECT_EQ(o.result["blunder"]["ruling"]["rule"], "warmaster.command.blunder");
  EXPECT_EQ(o.result["blunder"]["text"].get<std::string>().rfind("Blunder! (D6 = 1): ", 0), 0u);
  ASSERT_EQ(o.rolls.size(), 3u);
  EXPECT_EQ(o.rolls[2].purpose, "blunder");
  expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
  EXPECT_EQ(status(s, "B").blunder_penalty, 1);
  // The General's order to B now carries the -1.
  const auto q = s.ask_order("g", {"B"});
  EXPECT_EQ(q.target.penalties.back().rule, "warmaster.command.blunder");
  EXPECT_EQ(q.target.penalties.back().value, -1);
}

// The -1 lasts the game, so a saved state keeps it.
TEST(CommandBlunder, TheLastingPenaltyIsKeptInASavedState) {
  const auto game = make_game(blunder_field());
  WarmasterState s(game);
  play(s, order("h", {"B"}), {6, 6, 1});
  const Json saved = state_to_json(s);
  const WarmasterState back = state_from_json(game, saved, "state");
  EXPECT_EQ(status(back, "B").blunder_penalty, 1);
  EXPECT_EQ(state_to_json(back), saved);
}

TEST(CommandBlunder, TwoOrThreeHalts) {
  for (int d6 : {2, 3}) {
    WarmasterState s(make_game(blunder_field()));
    const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, d6});
    EXPECT_EQ(o.result["blunder"]["roll"], d6);
    EXPECT_EQ(o.result["allows"], "halt: no move");
    expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
    EXPECT_EQ(status(s, "B").blunder_penalty, 0);
  }
}

TEST(CommandBlunder, FourOrFiveMovesHalfPaceWithoutCharging) {
  for (int d6 : {4, 5}) {
    WarmasterState s(make_game(blunder_field()));
    const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, d6});
    EXPECT_EQ(o.result["allows"], "half pace, no charge");
    ASSERT_TRUE(s.pending());
    EXPECT_EQ(*s.pending()->kind, MoveKind::HalfPace);
    EXPECT_FALSE(s.validate(move({slide(unit(s, "B"), {0, 15})})).legal());
    EXPECT_TRUE(play(s, move({slide(unit(s, "B"), {0, 10})})).verdict.legal());
  }
}

// Side 0: unit B at (60, 60) facing north (its front edge at y = 61), the
// Hero h behind it; side 1: E facing south, its stands' centres at `enemy_y`
// (its front edge 1 cm nearer B). B's full pace (infantry): 20 cm.
Battlefield blunder_near_field(double enemy_y) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("B", 0, 60, 60));
  bf.units.push_back(line_unit("E", 1, 60, enemy_y, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 50));
  bf.characters.push_back(character("h", 0, CharacterRole::Hero, 8, 66, 50));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 115));
  return bf;
}

double blunder_gap(const WarmasterState& s, const std::string& a, const std::string& b) {
  return unit_distance(unit(s, a), unit(s, b)).distance;
}

// The blunder table, 2-3: the unit halts, but with a visible enemy within a
// full pace move it must move so that it is at least a full pace distant.
// Ours: straight back, directly away from that enemy, by the full pace.
TEST(CommandBlunder, TwoWithAVisibleEnemyWithinAFullPaceRetreatsAFullPaceDirectlyAway) {
  WarmasterState s(make_game(blunder_near_field(72)));
  const double before = blunder_gap(s, "B", "E");
  ASSERT_NEAR(before, 10.0, 1e-9);
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 2});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_EQ(o.result["allows"], "retreat a full pace directly away from the closest visible enemy");
  const double after = blunder_gap(s, "B", "E");
  EXPECT_NEAR(after, 30.0, 0.01);
  EXPECT_NEAR(after - before, 20.0, 0.01);
  for (const Stand& st : unit(s, "B").stands) {
    EXPECT_NEAR(st.pose.position.y, 40.0, 0.01);
    EXPECT_DOUBLE_EQ(st.pose.facing_deg, 0.0);
  }
  EXPECT_DOUBLE_EQ(unit(s, "B").stands[1].pose.position.x, 60.0);
  const Json& b = o.result.at("blunder");
  ASSERT_EQ(b.at("moves").size(), 1u);
  const Json& m = b.at("moves").at(0);
  EXPECT_EQ(m.at("how"), "retreat");
  EXPECT_EQ(m.at("enemy"), "E");
  EXPECT_NEAR(m.at("moved").get<double>(), 20.0, 0.01);
  EXPECT_NEAR(m.at("before").get<double>(), 10.0, 1e-9);
  EXPECT_NEAR(m.at("after").get<double>(), 30.0, 0.01);
  EXPECT_FALSE(m.at("blocked").get<bool>());
  EXPECT_NE(b.at("text").get<std::string>().find("B retreats 20.0 cm directly away from E"), std::string::npos)
      << b.at("text");
  EXPECT_TRUE(status(s, "B").moved);
  // The move is made with the order: none is left for the player.
  expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
}

// 2-3 with no enemy within a full pace move (E is 78 cm away): it halts.
TEST(CommandBlunder, ThreeWithNoEnemyWithinAFullPaceHalts) {
  WarmasterState s(make_game(blunder_field()));
  const std::vector<Stand> start = unit(s, "B").stands;
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 3});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_NEAR(blunder_gap(s, "B", "E"), 78.0, 1e-9);
  EXPECT_EQ(unit(s, "B").stands, start);
  EXPECT_TRUE(o.result.at("blunder").at("moves").empty());
  EXPECT_EQ(o.result.at("blunder").at("text"),
            "Blunder! (D6 = 3): halt: no visible enemy within a full pace move, so no move");
  EXPECT_FALSE(status(s, "B").moved);
}

// 2-3 with the enemy within a full pace but out of sight (a wood between):
// "visible enemy" only, so it halts.
TEST(CommandBlunder, TwoWithTheEnemyWithinAFullPaceButUnseenHalts) {
  Battlefield bf = blunder_near_field(72);
  bf.terrain.push_back(area("wood-b", TerrainKind::Wood, {{40, 63}, {80, 63}, {80, 69}, {40, 69}}));
  WarmasterState s(make_game(bf));
  const std::vector<Stand> start = unit(s, "B").stands;
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 2});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_EQ(o.result["allows"], "halt: no move");
  EXPECT_EQ(unit(s, "B").stands, start);
}

// A brigade rolls once and retreats as one body: both units a full pace.
TEST(CommandBlunder, ABrigadeRetreatsAsOneBody) {
  Battlefield bf = blunder_near_field(72);
  bf.units.push_back(line_unit("B2", 0, 72, 60));
  WarmasterState s(make_game(bf));
  const ActionOutcome o = play(s, order("h", {"B", "B2"}), {6, 6, 3});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  ASSERT_EQ(o.result.at("blunder").at("moves").size(), 2u);
  for (const char* id : {"B", "B2"})
    for (const Stand& st : unit(s, id).stands) EXPECT_NEAR(st.pose.position.y, 40.0, 0.01) << id;
  EXPECT_NEAR(blunder_gap(s, "B", "E"), 30.0, 0.01);
}

// Over the table edge, as any forced move: off the table and a roll on the
// off-table chart (here 6: it comes back at the edge and may move).
TEST(CommandBlunder, ARetreatOverTheTableEdgeRollsOnTheOffTableChart) {
  Battlefield bf = blunder_near_field(22);
  bf.units[0] = line_unit("B", 0, 60, 10);
  bf.characters[0].pose.position = {60, 4};
  bf.characters[1].pose.position = {66, 4};
  WarmasterState s(make_game(bf));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 2, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  ASSERT_EQ(o.rolls.size(), 4u);
  EXPECT_EQ(o.rolls[3].purpose, "off-table: B");
  ASSERT_TRUE(o.result.contains("off_table"));
  EXPECT_EQ(o.result.at("off_table").at(0).at("unit"), "B");
  EXPECT_EQ(o.result.at("off_table").at(0).at("outcome"), to_string(OffTableOutcome::ReturnsMayMove));
  EXPECT_NE(o.result.at("blunder").at("text").get<std::string>().find("now 30.0 cm away; 'B' left the table: rolled 6"),
            std::string::npos)
      << o.result.at("blunder").at("text");
  // Back wholly on the table at the edge it crossed.
  for (const Stand& st : unit(s, "B").stands) EXPECT_GE(st.pose.position.y, 1.0 - 1e-6);
}

// The blunder table, 6: it moves its full pace towards the nearest enemy and
// charges it if it can. E 10 cm away: a lined-up charge, front edges flush.
TEST(CommandBlunder, SixWithTheNearestEnemyInReachChargesItLinedUp) {
  WarmasterState s(make_game(blunder_near_field(72)));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_EQ(o.result["allows"], "full pace towards the nearest enemy, charging if it can");
  const Json& m = o.result.at("blunder").at("moves").at(0);
  EXPECT_EQ(m.at("how"), "charge");
  EXPECT_EQ(m.at("enemy"), "E");
  EXPECT_NEAR(m.at("moved").get<double>(), 10.0, 0.01);
  EXPECT_EQ(m.at("move").at("kind"), "charge");
  EXPECT_EQ(o.result.at("blunder").at("text"),
            "Blunder! (D6 = 6): B charges E, the nearest enemy (10.0 cm away), lined up edge to edge (10.0 cm moved)");
  EXPECT_TRUE(unit(s, "B").engaged);
  EXPECT_TRUE(unit(s, "E").engaged);
  EXPECT_TRUE(status(s, "B").charged);
  EXPECT_NEAR(blunder_gap(s, "B", "E"), 0.0, s.settings().contact_tolerance);
  // Front edges flush: B's front edge (centre + 1 cm) on E's (centre - 1 cm, y = 71).
  for (const Stand& st : unit(s, "B").stands) EXPECT_NEAR(st.pose.position.y + 1.0, 71.0, 0.01);
  const ChargeAlignment al =
      measure_charge_alignment(s.battlefield(), unit(s, "B"), "E", s.settings().contact_tolerance);
  EXPECT_EQ(al.flush_with_target, 3);
  expect_refused(s, move({slide(unit(s, "B"), {0, -5})}), "warmaster.command.failed_order");
}

// 6 with the nearest enemy beyond reach (78 cm): a full pace straight
// towards it, the distance closed equal to the pace.
TEST(CommandBlunder, SixWithTheEnemyBeyondReachMovesAFullPaceStraightTowardsIt) {
  WarmasterState s(make_game(blunder_field()));
  const double before = blunder_gap(s, "B", "E");
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_FALSE(s.pending() && s.pending()->kind);
  const double after = blunder_gap(s, "B", "E");
  EXPECT_NEAR(before - after, 20.0, 0.01);
  EXPECT_NEAR(after, 58.0, 0.01);
  for (const Stand& st : unit(s, "B").stands) EXPECT_NEAR(st.pose.position.y, 40.0, 0.01);
  const Json& m = o.result.at("blunder").at("moves").at(0);
  EXPECT_EQ(m.at("how"), "towards");
  EXPECT_NEAR(m.at("moved").get<double>(), 20.0, 0.01);
  const std::string text = o.result.at("blunder").at("text").get<std::string>();
  EXPECT_NE(text.find("B cannot charge E, the nearest enemy (78.0 cm away): it moves 20.0 cm straight towards it, "
                      "now 58.0 cm away"),
            std::string::npos)
      << text;
  EXPECT_FALSE(unit(s, "B").engaged);
  expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
}

// 6 when the nearest enemy is within reach but cannot be charged (cavalry,
// a wood across the whole table between): the straight move towards it, cut
// short where the wood stops it.
TEST(CommandBlunder, SixThatCannotChargeMovesStraightTowardsTheEnemyAsFarAsItCan) {
  Battlefield bf = blunder_near_field(72);
  bf.units[0] = line_unit("B", 0, 60, 60, 0, TroopType::Cavalry);  // stands 2 x 4: front edge at y = 62
  bf.terrain.push_back(area("wood-c", TerrainKind::Wood, {{0, 64}, {180, 64}, {180, 69}, {0, 69}}));
  WarmasterState s(make_game(bf));
  const double before = blunder_gap(s, "B", "E");
  ASSERT_NEAR(before, 9.0, 1e-9);
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  const Json& m = o.result.at("blunder").at("moves").at(0);
  EXPECT_EQ(m.at("how"), "towards");
  EXPECT_NEAR(m.at("pace").get<double>(), 30.0, 1e-9);
  EXPECT_TRUE(m.at("blocked").get<bool>());
  // To the wood's edge at y = 64, 2 cm on; a stand touching a feature (overlapping it by no more than
  // the tolerance) is not in it, so it may go up to that much further.
  const double tol = s.settings().contact_tolerance;
  EXPECT_GE(m.at("moved").get<double>(), 2.0 - 0.01);
  EXPECT_LE(m.at("moved").get<double>(), 2.0 + tol + 0.01);
  EXPECT_NEAR(before - blunder_gap(s, "B", "E"), m.at("moved").get<double>(), 1e-9);
  EXPECT_FALSE(unit(s, "B").engaged);
  EXPECT_FALSE(status(s, "B").charged);
}

TEST(CommandBlunder, TheGeneralsTwelveIsAPlainFailure) {
  WarmasterState s(make_game(blunder_field()));
  const ActionOutcome o = play(s, order("g", {"B"}), {6, 6});
  EXPECT_FALSE(o.result.contains("blunder"));
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
}

TEST(CommandBlunder, SettingOffMakesTwelveAPlainFailure) {
  Settings st;
  st.blunders = false;
  WarmasterState s(make_game(blunder_field(), st));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6});
  EXPECT_FALSE(o.result.contains("blunder"));
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
}

TEST(CommandBlunder, OrderOddsGiveTheBlunderChance) {
  WarmasterState s(make_game(blunder_field()));
  const Json hero = answer_query(s, "order_odds", Json{{"character", "h"}, {"units", {"B"}}}, "test", nullptr);
  EXPECT_EQ(hero["blunder_chance"]["fraction"], "1/36");
  const Json general = answer_query(s, "order_odds", Json{{"character", "g"}, {"units", {"B"}}}, "test", nullptr);
  EXPECT_DOUBLE_EQ(general["blunder_chance"]["value"].get<double>(), 0.0);
}

}  // namespace blunder_test
}  // namespace referee::warmaster
