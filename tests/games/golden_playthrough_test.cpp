// Golden playthroughs: one format for every system, the game log itself
// (referee-log/1, carrying its battle). Each scripted playthrough is played
// again through the game interface and must give the golden log byte for
// byte, and the golden log must replay. A seeded random game of each system
// is recorded the same way, so a change to any rule shows up here as a diff
// to read. REFEREE_UPDATE_GOLDEN=1 rewrites the files (then read the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace referee {
namespace {

const std::string kRoot = REFEREE_SOURCE_DIR;

struct Playthrough {
  std::string golden;   // tests/games/golden/<name>.log
  std::string system;
  std::string battle;   // relative to the root
  std::string actions;  // an actions file, or empty for a seeded random game
  std::uint64_t seed = 1;
  int random_actions = 0;
  // Overrides of the battle's settings: the worked example plays the hand
  // its battle lists (the bundled battles deal at random otherwise).
  Json settings = Json::object();
};

std::vector<Playthrough> playthroughs() {
  return {
      {"warmaster-default", "warmaster", "scenarios/warmaster/default.json",
       "scenarios/warmaster/command-actions/default.json", 11, 0},
      {"warmaster-crossroads", "warmaster", "scenarios/warmaster/command-crossroads.json",
       "scenarios/warmaster/command-actions/command-crossroads.json", 11, 0},
      {"ancients-centre-clash", "ancients", "scenarios/ancients/centre_clash.json", "tests/ancients/data/golden_actions.json",
       7, 0, {{"deal", "as_listed"}}},
      {"blightmeer-town", "blightmeer", "scenarios/blightmeer/town.json", "tests/games/golden/blightmeer-town-actions.json", 5,
       0},
      {"warmaster-default-random", "warmaster", "scenarios/warmaster/default.json", "", 2026, 120},
      // Whole battles, from the first action to the end (turn limit or break point).
      {"warmaster-default-whole", "warmaster", "scenarios/warmaster/default.json", "", 14, 5000},
      {"warmaster-shooting-whole", "warmaster", "scenarios/warmaster/shooting.json", "", 14, 5000},
      {"ancients-river-random", "ancients", "scenarios/ancients/river_crossing.json", "", 2026, 120},
      // A whole random battle, to a side's victory banners.
      {"ancients-lines-whole", "ancients", "scenarios/ancients/lines_engaged.json", "", 14, 5000},
      {"blightmeer-ruin-random", "blightmeer", "scenarios/blightmeer/ruin.json", "", 2026, 120},
  };
}

// Names the parameter in failure messages.
void PrintTo(const Playthrough& p, std::ostream* os) { *os << p.golden; }

Match play(const Playthrough& p) {
  const auto game = builtin_games().at(p.system).load(load_json_file(kRoot + "/" + p.battle), p.battle, p.settings);
  Match m(game, DiceSource{p.seed, std::nullopt}, p.battle);
  if (!p.actions.empty()) {
    Json list = load_json_file(kRoot + "/" + p.actions);
    if (list.is_object()) list = list.at("actions");
    for (std::size_t i = 0; i < list.size(); ++i) m.play(list[i], p.actions + "[" + std::to_string(i) + "]");
  } else {
    Rng rng(p.seed);
    for (int i = 0; i < p.random_actions && !m.state().is_terminal(); ++i) {
      const std::optional<Json> a = m.state().sample_action(rng);
      if (!a) break;
      m.play(*a);
    }
  }
  return m;
}

class Golden : public ::testing::TestWithParam<Playthrough> {};

TEST_P(Golden, PlaysAgainByteForByteAndReplays) {
  const Playthrough& p = GetParam();
  const std::string file = kRoot + "/tests/games/golden/" + p.golden + ".log";
  const Match m = play(p);
  const std::string text = m.log().to_jsonl();
  if (std::getenv("REFEREE_UPDATE_GOLDEN")) {
    std::ofstream(file, std::ios::binary) << text;
    GTEST_SKIP() << "rewrote " << file;
  }
  const std::string golden = read_text_file(file);
  if (text != golden) {
    // Name the first line that differs, not the whole log.
    std::size_t line = 1, i = 0;
    while (i < text.size() && i < golden.size() && text[i] == golden[i]) line += text[i++] == '\n';
    ADD_FAILURE() << "the game now differs from " << file << " at line " << line
                  << " (REFEREE_UPDATE_GOLDEN=1 rewrites it; read the diff before committing)";
  }
  const GameLog log = GameLog::parse_jsonl(golden, file);
  EXPECT_FALSE(log.battle.is_null()) << "a golden log carries its battle";
  EXPECT_GT(log.entries.size(), 5u);
  const Match replayed = Match::replay(builtin_games(), log, file);
  EXPECT_EQ(replayed.state().to_json(), m.state().to_json());
  if (p.golden.find("-whole") != std::string::npos) {
    EXPECT_TRUE(m.state().is_terminal()) << "a whole game ends";
    EXPECT_FALSE(m.state().result().at("reason").get<std::string>().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Playthroughs, Golden, ::testing::ValuesIn(playthroughs()),
                         [](const ::testing::TestParamInfo<Playthrough>& info) {
                           std::string n = info.param.golden;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace referee
