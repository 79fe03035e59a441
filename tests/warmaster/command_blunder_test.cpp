// Blunders (docs/rulings.md#warmaster-command-blunders): a Hero or Wizard
// rolling 12 for an order fails it and rolls a D6 on the blunder table.
#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/battle/queries.hpp"

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
  BattleState s(make_game(blunder_field()));
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
  BattleState s(game);
  play(s, order("h", {"B"}), {6, 6, 1});
  const Json saved = state_to_json(s);
  const BattleState back = state_from_json(game, saved, "state");
  EXPECT_EQ(status(back, "B").blunder_penalty, 1);
  EXPECT_EQ(state_to_json(back), saved);
}

TEST(CommandBlunder, TwoOrThreeHalts) {
  for (int d6 : {2, 3}) {
    BattleState s(make_game(blunder_field()));
    const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, d6});
    EXPECT_EQ(o.result["blunder"]["roll"], d6);
    EXPECT_EQ(o.result["allows"], "halt: no move");
    expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
    EXPECT_EQ(status(s, "B").blunder_penalty, 0);
  }
}

TEST(CommandBlunder, FourOrFiveMovesHalfPaceWithoutCharging) {
  for (int d6 : {4, 5}) {
    BattleState s(make_game(blunder_field()));
    const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, d6});
    EXPECT_EQ(o.result["allows"], "half pace, no charge");
    ASSERT_TRUE(s.pending());
    EXPECT_EQ(*s.pending()->kind, MoveKind::HalfPace);
    EXPECT_FALSE(s.validate(move({slide(unit(s, "B"), {0, 15})})).legal());
    EXPECT_TRUE(play(s, move({slide(unit(s, "B"), {0, 10})})).verdict.legal());
  }
}

TEST(CommandBlunder, SixMovesFullPace) {
  BattleState s(make_game(blunder_field()));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6, 6});
  EXPECT_EQ(o.result["blunder"]["roll"], 6);
  ASSERT_TRUE(s.pending());
  EXPECT_EQ(*s.pending()->kind, MoveKind::Ordered);
  EXPECT_TRUE(play(s, move({slide(unit(s, "B"), {0, 20})})).verdict.legal());
}

TEST(CommandBlunder, TheGeneralsTwelveIsAPlainFailure) {
  BattleState s(make_game(blunder_field()));
  const ActionOutcome o = play(s, order("g", {"B"}), {6, 6});
  EXPECT_FALSE(o.result.contains("blunder"));
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
}

TEST(CommandBlunder, SettingOffMakesTwelveAPlainFailure) {
  Settings st;
  st.blunders = false;
  BattleState s(make_game(blunder_field(), st));
  const ActionOutcome o = play(s, order("h", {"B"}), {6, 6});
  EXPECT_FALSE(o.result.contains("blunder"));
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
}

TEST(CommandBlunder, OrderOddsGiveTheBlunderChance) {
  BattleState s(make_game(blunder_field()));
  const Json hero = answer_query(s, "order_odds", Json{{"character", "h"}, {"units", {"B"}}}, "test", nullptr);
  EXPECT_EQ(hero["blunder_chance"]["fraction"], "1/36");
  const Json general = answer_query(s, "order_odds", Json{{"character", "g"}, {"units", {"B"}}}, "test", nullptr);
  EXPECT_DOUBLE_EQ(general["blunder_chance"]["value"].get<double>(), 0.0);
}

}  // namespace blunder_test
}  // namespace referee::warmaster
