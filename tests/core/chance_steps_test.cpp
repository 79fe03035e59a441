// Explicit chance steps (core/chance_steps.hpp) on the tests' own system,
// tic-tac-toe: the toss is a d6 (1-3: X starts, 4-6: O), so its declaration
// lists six outcomes of 1/6 each, and resolving with outcome k is the toss
// that rolled face k + 1.
#include <gtest/gtest.h>

#include <stdexcept>

#include "fixtures/tictactoe/tictactoe.hpp"
#include "referee/core/chance_steps.hpp"

namespace referee {
namespace {

std::unique_ptr<GameState> board(int toss_dice = 1) {
  static const GameType type = tictactoe::game_type();
  return type.load(Json{{"name", "steps"}, {"toss_dice", toss_dice}}, "test", Json::object())->new_initial_state();
}

const Json kToss{{"type", "toss"}};

TEST(ChanceSteps, TheTossIsSixFacesOfOneSixthEach) {
  const auto s = board();
  const DeclaredAction d = declare(*s, kToss);
  ASSERT_TRUE(d.is_chance());
  ASSERT_EQ(d.outcomes.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(d.outcomes[k].chance, (Chance{1, 6}));
    ASSERT_EQ(d.outcomes[k].rolls.size(), 1u);
    EXPECT_EQ(d.outcomes[k].rolls[0], (Roll{6, static_cast<int>(k) + 1, "who starts"}));
  }
  EXPECT_EQ(s->phase(), "toss");  // declaring changes nothing
}

TEST(ChanceSteps, ResolvingIsApplyingWithThoseFaces) {
  const auto s = board();
  const DeclaredAction d = declare(*s, kToss);
  for (std::size_t k = 0; k < 6; ++k) {
    const Resolved r = resolve(*s, d, k);
    ScriptedDice dice({static_cast<int>(k) + 1});
    const auto applied = s->clone();
    const Outcome o = applied->apply(kToss, dice);
    EXPECT_EQ(r.outcome.rolls, o.rolls);
    EXPECT_EQ(r.outcome.result, o.result);
    EXPECT_EQ(r.state->to_json(), applied->to_json());
    EXPECT_EQ(r.state->current_player(), k < 3 ? 0 : 1);  // 1-3: X starts, 4-6: O
  }
  EXPECT_FALSE(s->to_json().at("tossed").get<bool>());  // the state resolved from is left as it was
}

TEST(ChanceSteps, TwoDiceAreThirtySixSequences) {
  const DeclaredAction d = declare(*board(2), kToss);
  ASSERT_EQ(d.outcomes.size(), 36u);
  EXPECT_EQ(d.outcomes[7].chance, (Chance{1, 36}));
  EXPECT_EQ(d.outcomes[7].rolls[0].value, 2);  // faces in lexicographic order: (2, 2) is the eighth
  EXPECT_EQ(d.outcomes[7].rolls[1].value, 2);
}

TEST(ChanceSteps, AMarkRollsNoDiceAndAMarkTwiceIsRefused) {
  const auto s = resolve(*board(), declare(*board(), kToss), 0).state;  // X starts
  const Json centre{{"type", "mark"}, {"cell", 4}};
  const DeclaredAction mark = declare(*s, centre);
  EXPECT_EQ(mark.kind, Chances::Kind::NoDice);
  EXPECT_TRUE(mark.outcomes.empty());
  const Resolved r = resolve(*s, mark, 0);
  EXPECT_TRUE(r.outcome.rolls.empty());
  EXPECT_EQ(r.state->to_json().at("cells").at(4), 1);
  const DeclaredAction again = declare(*r.state, centre);
  ASSERT_TRUE(again.refused());
  EXPECT_EQ(again.verdict.violations.at(0).rule, "tictactoe.occupied");
  EXPECT_THROW((void)resolve(*r.state, again, 0), std::logic_error);
}

TEST(ChanceSteps, ADeclarationIsForTheStateItWasMadeOn) {
  const DeclaredAction two = declare(*board(2), kToss);
  EXPECT_THROW((void)resolve(*board(1), two, 0), std::logic_error);  // one die where two were declared
  const DeclaredAction one = declare(*board(1), kToss);
  EXPECT_THROW((void)resolve(*board(2), one, 0), std::logic_error);  // a second die it did not declare
  EXPECT_THROW((void)resolve(*board(1), one, 6), std::logic_error);  // no seventh face
}

// Five dice are 7,776 sequences, past the limit of 4,096; thirty are past
// what 64 bits count (6^25 > 2^63), found before the limit.
TEST(ChanceSteps, TooManySequencesAreSaidToBeUnlistable) {
  const DeclaredAction five = declare(*board(5), kToss);
  EXPECT_EQ(five.kind, Chances::Kind::NotEnumerable);
  EXPECT_EQ(five.why, "more than 4096 sequences of die faces");
  EXPECT_THROW((void)resolve(*board(5), five, 0), std::logic_error);
  EXPECT_EQ(to_json_value(five).at("why"), five.why);
  EXPECT_EQ(declare(*board(4), kToss).outcomes.size(), 1296u);
  EXPECT_EQ(declare(*board(30), kToss).why, "the sample space of its dice does not fit in 64 bits");
}

// Sampling draws each outcome with its chance: 60,000 seeded draws of the
// toss give each face within 3 % of 10,000.
TEST(ChanceSteps, SamplingDrawsEachOutcomeWithItsChance) {
  const DeclaredAction d = declare(*board(), kToss);
  Rng rng(42);
  int counts[6] = {};
  for (int i = 0; i < 60000; ++i) ++counts[sample_outcome(d, rng)];
  for (int c : counts) EXPECT_NEAR(c, 10000, 300);
}

}  // namespace
}  // namespace referee
