// Seeded games in bulk (core/simulate.hpp), on the tests' own tic-tac-toe so
// nothing leans on the real systems: the seed streams, that a game is a pure
// function of (battle, players, master seed, index), and the summary's
// counts and Wilson intervals.
#include <gtest/gtest.h>

#include <set>

#include "referee/core/errors.hpp"
#include "referee/core/simulate.hpp"
#include "fixtures/tictactoe/tictactoe.hpp"

namespace referee {
namespace {

struct Fixture {
  GameType type = tictactoe::game_type();
  std::shared_ptr<const Game> game = type.load(Json{{"name", "empty board"}}, "test", Json::object());
  Player players[2] = {named_player(type, "random", "side0"), named_player(type, "random", "side1")};
};

// SplitMix64 from state 0 gives 0xE220A8397B1DCDAF first (Vigna's reference
// splitmix64.c): mix_seed is its mixing of state + the golden gamma.
TEST(Simulate, SeedMixingIsSplitMix64) {
  EXPECT_EQ(mix_seed(0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(mix_seed(0x9E3779B97F4A7C15ull), 0x6E789E6AA1B965F4ull);
  const GameSeeds s = game_seeds(7);
  EXPECT_EQ(s.dice, mix_seed(7));
  EXPECT_EQ(s.player[0], mix_seed(7 ^ 0xA5A5A5A5ull));
  EXPECT_EQ(s.player[1], mix_seed(7 ^ 0x5A5A5A5A00ull));
  EXPECT_NE(s.player[0], s.player[1]);
}

// Game i of master seed S is the game of seed simulation_game_seed(S, i),
// whichever order the games are played in and whatever was played before:
// the lines of indices 0..29 played forwards, backwards, and as the games of
// their own seeds (play_seeded) are the same games.
// Runs from neighbouring master seeds share no game (were game i seed S + i,
// master seed 41's game 0 would be master seed 40's game 1).
TEST(Simulate, NeighbouringMasterSeedsShareNoGame) {
  EXPECT_EQ(simulation_game_seed(0, 0), mix_seed(mix_seed(0)));
  EXPECT_EQ(simulation_game_seed(40, 3), mix_seed(mix_seed(40) + 3));
  std::set<std::uint64_t> seeds;
  for (std::uint64_t master = 40; master < 50; ++master)
    for (std::uint64_t i = 0; i < 1000; ++i) seeds.insert(simulation_game_seed(master, i));
  EXPECT_EQ(seeds.size(), 10000u);
}

TEST(Simulate, AGameIsAPureFunctionOfTheMasterSeedAndItsIndex) {
  Fixture f;
  SimulationSpec spec;
  spec.seed = 40;
  std::vector<std::string> forwards, backwards(30);
  for (std::uint64_t i = 0; i < 30; ++i) forwards.push_back(simulate_one(f.type, *f.game, f.players, spec, i).dump());
  for (std::uint64_t i = 30; i-- > 0;) backwards[i] = simulate_one(f.type, *f.game, f.players, spec, i).dump();
  EXPECT_EQ(forwards, backwards);
  for (std::uint64_t i = 0; i < 30; ++i) {
    const Json line = Json::parse(forwards[i]);
    const std::uint64_t seed = simulation_game_seed(spec.seed, i);
    EXPECT_EQ(line.at("seed").get<std::uint64_t>(), seed);
    const PlayedGame g = play_seeded(f.type, *f.game, f.players, seed, spec.max_actions, spec.mode);
    EXPECT_EQ(line.at("actions").get<int>(), g.actions) << "game " << i;
    EXPECT_EQ(line.at("winner"), g.state->is_terminal() ? g.state->result().at("winner") : Json(nullptr)) << "game " << i;
  }
  // Different seeds give different games (tic-tac-toe at random has many).
  std::set<std::string> distinct;
  for (const std::string& l : forwards) {
    Json j = Json::parse(l);
    j.erase("index");
    j.erase("seed");
    distinct.insert(j.dump());
  }
  EXPECT_GT(distinct.size(), 3u);
  const Json first = Json::parse(forwards.front());
  EXPECT_EQ(first.at("seed"), mix_seed(mix_seed(40)));
  EXPECT_TRUE(first.at("over").get<bool>());
}

// Phase mode stops where the first phase or player ends: one action of the
// player who starts (tic-tac-toe's turn is one mark, or the toss).
TEST(Simulate, PhaseModeStopsAtTheFirstChangeOfPhaseOrPlayer) {
  Fixture f;
  SimulationSpec spec;
  spec.mode = SimulationMode::Phase;
  for (std::uint64_t i = 0; i < 10; ++i) {
    const Json line = simulate_one(f.type, *f.game, f.players, spec, i);
    EXPECT_EQ(line.at("actions"), 1) << line;
    EXPECT_FALSE(line.at("over").get<bool>());
  }
}

TEST(Simulate, BadPlayersAndModesNameTheField) {
  Fixture f;
  try {
    named_player(f.type, "clever", "--side1");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--side1");
  }
  GameType no_opponent = f.type;
  no_opponent.opponent = {};
  EXPECT_THROW(named_player(no_opponent, "opponent", "players[0]"), InputError);
  EXPECT_THROW(simulation_mode("turn", "--mode"), InputError);
}

// Wilson's interval for 17 of 40 (Wilson 1927; as tabulated by Newcombe
// 1998's method 3): 0.2847 to 0.5776. 0 of 30: 0 to 0.1135.
TEST(Simulate, SummaryCountsAndWilsonIntervals) {
  const auto [lo, hi] = wilson_interval(17, 40);
  EXPECT_NEAR(lo, 0.2847, 5e-4);
  EXPECT_NEAR(hi, 0.5776, 5e-4);
  const auto [zlo, zhi] = wilson_interval(0, 30);
  EXPECT_EQ(zlo, 0.0);
  EXPECT_NEAR(zhi, 0.1135, 5e-4);
  std::vector<Json> lines;
  const auto line = [](Json winner, bool over, int turn, int actions, int passed) {
    return Json{{"winner", winner}, {"over", over},     {"turn", turn},
                {"actions", actions}, {"passed", passed}, {"failed", 1}};
  };
  lines.push_back(line(0, true, 3, 10, 2));
  lines.push_back(line(1, true, 5, 20, 0));
  lines.push_back(line(nullptr, true, 4, 30, 1));
  lines.push_back(line(nullptr, false, 4, 40, 1));
  const Json s = simulation_summary(lines, {"X", "O"});
  EXPECT_EQ(s.at("games"), 4);
  EXPECT_EQ(s.at("sides").at(0).at("wins"), 1);
  EXPECT_EQ(s.at("sides").at(1).at("army"), "O");
  EXPECT_EQ(s.at("draws"), 1);
  EXPECT_EQ(s.at("unfinished"), 1);
  EXPECT_DOUBLE_EQ(s.at("mean_actions").get<double>(), 25.0);
  EXPECT_EQ(s.at("passed"), 4);
  EXPECT_EQ(s.at("failed"), 4);
  const std::string svg = summary_svg(s, "test");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  // The army's name, and "wins" under it (two lines, so neighbouring labels never meet).
  EXPECT_NE(svg.find(">X<"), std::string::npos);
  EXPECT_NE(svg.find(">wins<"), std::string::npos);
  EXPECT_NE(svg.find("25.0%"), std::string::npos);
}

}  // namespace
}  // namespace referee
