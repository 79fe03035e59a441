// The game interface, the registry and Match, on the tests' own fourth
// system (tic-tac-toe), so nothing here leans on the three real systems.
#include <gtest/gtest.h>

#include "referee/core/errors.hpp"
#include "referee/core/game.hpp"
#include "referee/core/match.hpp"
#include "support/game_conformance.hpp"
#include "fixtures/tictactoe/tictactoe.hpp"

namespace referee {
namespace {

GameRegistry test_registry() {
  GameRegistry r;
  r.add(tictactoe::game_type());
  return r;
}

std::shared_ptr<const Game> tictactoe(const GameRegistry& r) {
  return r.at("tictactoe").load(Json{{"name", "empty board"}}, "test", Json::object());
}

// enumerate_chance counts every sequence of faces in 64 bits: a toss of two
// dice is 36 sequences, 18 for each side; one of 30 dice (6^30 sequences,
// past 2^63) is refused as too many instead of overflowing the count.
TEST(GameInterface, EnumeratedChanceStopsWhereTheSampleSpaceOutgrows64Bits) {
  const GameRegistry reg = test_registry();
  const auto tossing = [&](int dice) {
    return reg.at("tictactoe").load(Json{{"name", "tossed"}, {"toss_dice", dice}}, "test", Json::object())->new_initial_state();
  };
  const Json toss{{"type", "toss"}};
  const auto starts = [](const Outcome& o) { return o.result.at("starts").dump(); };
  const Chances two = enumerate_chance(*tossing(2), toss, starts);
  ASSERT_EQ(two.kind, Chances::Kind::Outcomes);
  ASSERT_EQ(two.outcomes.size(), 2u);
  EXPECT_EQ(two.outcomes[0].chance, (Chance{18, 36}));
  EXPECT_EQ(two.outcomes[1].chance, (Chance{18, 36}));
  const Chances thirty = enumerate_chance(*tossing(30), toss, starts, "action", 1u << 20);
  EXPECT_EQ(thirty.kind, Chances::Kind::NotEnumerable);
  EXPECT_FALSE(thirty.why.empty());
}

TEST(GameInterface, RandomGamesOfTicTacToePassEveryGenericCheck) {
  const GameRegistry reg = test_registry();
  int finished = 0, refusals = 0, chance = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const conformance::Stats st = conformance::random_game(reg, tictactoe(reg), seed);
    finished += st.finished;
    refusals += st.refusals_tested;
    chance += st.chance_actions;
  }
  EXPECT_EQ(finished, 60);     // tic-tac-toe always ends within 10 actions
  EXPECT_GT(refusals, 100);    // marking the same cell twice is refused every time
  EXPECT_EQ(chance, 60);       // one toss a game
}

TEST(GameInterface, RegistryRefusesDuplicatesAndNamesTheKnownSystems) {
  GameRegistry reg = test_registry();
  EXPECT_THROW(reg.add(tictactoe::game_type()), std::logic_error);
  try {
    (void)reg.at("chess", "battle.system");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "battle.system");
    EXPECT_EQ(e.problem(), "unknown system \"chess\" (known: tictactoe)");
  }
}

TEST(Match, RefusalIsLoggedAndLeavesTheStateAlone) {
  const GameRegistry reg = test_registry();
  Match m(tictactoe(reg), DiceSource{7, std::vector<int>{2}}, "test");
  EXPECT_TRUE(m.play({{"type", "toss"}}).applied());
  EXPECT_EQ(m.state().current_player(), 0);  // a 2 on the toss: X starts
  EXPECT_TRUE(m.play({{"type", "mark"}, {"cell", 4}}).applied());
  const Json before = m.state().to_json();
  const Outcome o = m.play({{"type", "mark"}, {"cell", 4}});
  ASSERT_FALSE(o.applied());
  EXPECT_EQ(o.verdict.violations.at(0).rule, "tictactoe.occupied");
  EXPECT_EQ(o.verdict.violations.at(0).reason, "cell 4 is taken");
  EXPECT_EQ(m.state().to_json(), before);
  ASSERT_EQ(m.log().entries.size(), 3u);
  EXPECT_EQ(m.log().entries[2].refused.at(0).at("rule"), "tictactoe.occupied");
  EXPECT_TRUE(m.log().entries[2].result.is_null());
}

TEST(Match, BadInputAndSpentScriptsRecordNothing) {
  const GameRegistry reg = test_registry();
  Match m(tictactoe(reg), DiceSource{7, std::vector<int>{}}, "test");
  try {
    m.play({{"type", "mark"}, {"cell", 9}}, "actions[0]");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "actions[0].cell");
  }
  try {
    m.play({{"type", "toss"}});
    FAIL();
  } catch (const ScriptError& e) {
    EXPECT_STREQ(e.what(), "the dice script ran out: roll 1 (a d6 for who starts) has no value");
  }
  EXPECT_TRUE(m.log().entries.empty());
  EXPECT_FALSE(m.can_undo());
}

TEST(Match, UndoRewindsTheDiceSoTheSameActionRollsTheSame) {
  const GameRegistry reg = test_registry();
  Match m(tictactoe(reg), DiceSource{12345, std::nullopt}, "test");
  const Outcome first = m.play({{"type", "toss"}});
  m.undo();
  EXPECT_EQ(m.state().phase(), "toss");
  const Outcome second = m.play({{"type", "toss"}});
  EXPECT_EQ(first.rolls, second.rolls);
  EXPECT_EQ(m.log().entries.size(), 1u);  // playing after an undo drops what was undone
  EXPECT_FALSE(m.can_redo());
  EXPECT_THROW(m.redo(), InputError);
}

TEST(Match, SeededStreamRollsWhatSeededDiceRolls) {
  StreamDice a(DiceSource{99, std::nullopt});
  SeededDice b(99);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(a.roll(6 + i % 15), b.roll(6 + i % 15)) << i;
}

TEST(Match, ReplayRefusesALogWhoseRollsOrResultsDiffer) {
  const GameRegistry reg = test_registry();
  Match m(tictactoe(reg), DiceSource{5, std::nullopt}, "test");
  m.play({{"type", "toss"}});
  m.play({{"type", "mark"}, {"cell", 0}});
  GameLog log = m.log();
  EXPECT_NO_THROW(Match::replay(reg, log, "game.log"));

  GameLog bad_roll = log;
  bad_roll.entries[0].rolls[0].value = bad_roll.entries[0].rolls[0].value % 6 + 1;
  try {
    Match::replay(reg, bad_roll, "game.log");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "game.log line 2");
    EXPECT_NE(e.problem().find("roll 1 differs"), std::string::npos) << e.problem();
  }
  GameLog bad_result = log;
  bad_result.entries[1].result["marked"] = 3;
  try {
    Match::replay(reg, bad_result, "game.log");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "game.log line 3");
  }
  GameLog no_battle = log;
  no_battle.battle = nullptr;
  EXPECT_THROW(Match::replay(reg, no_battle, "game.log"), InputError);
}

TEST(Match, ScriptedDiceTravelInTheLogAndReplay) {
  const GameRegistry reg = test_registry();
  Match m(tictactoe(reg), DiceSource{0, std::vector<int>{5}}, "test");
  m.play({{"type", "toss"}});
  EXPECT_EQ(m.state().current_player(), 1);  // a 5: O starts
  const GameLog parsed = GameLog::parse_jsonl(m.log().to_jsonl(), "x.log");
  EXPECT_TRUE(parsed.scripted_dice);
  EXPECT_EQ(Match::replay(reg, parsed, "x.log").state().to_json(), m.state().to_json());
}

TEST(DiceScript, ParsesValuesAndNamesTheBadOne) {
  EXPECT_EQ(parse_dice_script("3,4, 6,1"), (std::vector<int>{3, 4, 6, 1}));
  try {
    parse_dice_script("3,x,6");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--dice");
    EXPECT_EQ(e.problem(), "die 2: expected a whole number from 1 to 1000, got \"x\"");
  }
  EXPECT_THROW(parse_dice_script(""), InputError);
  EXPECT_THROW(parse_dice_script("0"), InputError);
  EXPECT_THROW(parse_dice_script("7,"), InputError);
}

}  // namespace
}  // namespace referee
