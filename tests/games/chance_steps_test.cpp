// Explicit chance steps (core/chance_steps.hpp) on a real system: an order in
// the Warmaster pitched battle is a 2D6 test, "passed: 8 or less on 2D6" for
// the General's first order to the Halberdiers (Command 9, -1 for a unit over
// 20 cm away), so its declaration lists the 36 sequences of two faces and
// those summing to 8 or less are 26 of 36, the odds the state itself gives.
#include <gtest/gtest.h>

#include "referee/core/chance_steps.hpp"
#include "referee/core/json_io.hpp"
#include "referee/games/builtin.hpp"

namespace referee {
namespace {

TEST(WarmasterChanceSteps, AnOrderIsThirtySixSequencesAndPassesOnTwentySixOfThem) {
  const GameType& type = builtin_games().at("warmaster");
  const std::string file = std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/pitched-battle.json";
  const auto game = type.load(load_json_file(file), file, Json::object());
  const auto start = game->new_initial_state();
  const Json order{{"type", "order"}, {"character", "emp-general"}, {"units", {"emp-halberd-1"}}};
  const DeclaredAction d = declare(*start, order);
  ASSERT_TRUE(d.is_chance());
  ASSERT_EQ(d.outcomes.size(), 36u);
  std::int64_t passing = 0;
  for (std::size_t k = 0; k < d.outcomes.size(); ++k) {
    const ChanceStep& step = d.outcomes[k];
    ASSERT_EQ(step.rolls.size(), 2u);
    EXPECT_EQ(step.rolls[0].purpose, "order test");
    EXPECT_EQ(step.chance, (Chance{1, 36}));
    const bool passes = step.rolls[0].value + step.rolls[1].value <= 8;
    passing += passes;
    const Resolved r = resolve(*start, d, k);
    EXPECT_EQ(r.outcome.result.at("passed").get<bool>(), passes) << "outcome " << k;
    EXPECT_EQ(r.outcome.result.at("needed"), 8);
  }
  EXPECT_EQ(passing, 26);
  const Chances odds = start->chance_outcomes(order);
  ASSERT_EQ(odds.outcomes.size(), 2u);
  EXPECT_EQ(odds.outcomes[0].label, "passed: 8 or less on 2D6");
  EXPECT_EQ(odds.outcomes[0].chance, (Chance{26, 36}));
}

}  // namespace
}  // namespace referee
