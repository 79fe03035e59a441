// Golden playthroughs (OpenSpiel style): the bundled battles played with a
// fixed seed and action list; the game log must match the golden file line
// by line, and replaying the golden log must give the same state, field for
// field. Regenerate with REFEREE_UPDATE_GOLDEN=1 after a deliberate change.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"

namespace referee::warmaster {
namespace {

const std::string kRoot = REFEREE_SOURCE_DIR;

struct Golden {
  const char* name;
  const char* battle;   // relative to the repository root, as the log names it
  const char* actions;
  std::uint64_t seed;
};

const Golden kGoldens[] = {
    {"default-command", "scenarios/warmaster/default.json", "scenarios/warmaster/command-actions/default.json", 11},
    {"crossroads-command", "scenarios/warmaster/command-crossroads.json",
     "scenarios/warmaster/command-actions/command-crossroads.json", 11},
};

std::shared_ptr<const BattleGame> load_game(const std::string& battle) {
  BattlefieldFile f = load_battlefield_file(kRoot + "/" + battle);
  auto g = std::make_shared<BattleGame>();
  g->start = std::move(f.battlefield);
  g->settings = f.settings;
  g->scenario = battle;
  return g;
}

PlayReport play_golden(const Golden& g) {
  const Json file = load_json_file(kRoot + "/" + g.actions);
  return play_actions(load_game(g.battle), g.seed, file.at("actions"), "actions");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class GoldenPlaythrough : public ::testing::TestWithParam<Golden> {};

TEST_P(GoldenPlaythrough, LogMatchesTheGoldenFileLineByLine) {
  const Golden& g = GetParam();
  const PlayReport rep = play_golden(g);
  const std::string log_text = rep.log.to_jsonl();
  const std::string state_text = rep.final_state.dump(2) + "\n";
  const std::string log_path = kRoot + "/tests/warmaster/golden/" + g.name + ".log";
  const std::string state_path = kRoot + "/tests/warmaster/golden/" + g.name + ".state.json";
  if (std::getenv("REFEREE_UPDATE_GOLDEN")) {
    write_file_atomic(log_path, log_text);
    write_file_atomic(state_path, state_text);
  }
  const std::vector<std::string> want = lines_of(read_text_file(log_path));
  const std::vector<std::string> got = lines_of(log_text);
  ASSERT_EQ(got.size(), want.size()) << "number of log lines";
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << g.name << ".log line " << i + 1;
  const std::vector<std::string> want_state = lines_of(read_text_file(state_path));
  const std::vector<std::string> got_state = lines_of(state_text);
  ASSERT_EQ(got_state.size(), want_state.size());
  for (std::size_t i = 0; i < want_state.size(); ++i)
    EXPECT_EQ(got_state[i], want_state[i]) << g.name << ".state.json line " << i + 1;
}

TEST_P(GoldenPlaythrough, ReplayingTheGoldenLogGivesTheSameState) {
  const Golden& g = GetParam();
  const std::string log_path = kRoot + "/tests/warmaster/golden/" + g.name + ".log";
  const GameLog log = GameLog::parse_jsonl(read_text_file(log_path), log_path);
  EXPECT_EQ(log.seed, g.seed);
  const WarmasterState s = replay_log(load_game(log.scenario), log, log_path);
  EXPECT_EQ(state_to_json(s), play_golden(g).final_state);
  EXPECT_EQ(state_to_json(s), parse_json_text(read_text_file(kRoot + "/tests/warmaster/golden/" + g.name + ".state.json"), "state"));
}

INSTANTIATE_TEST_SUITE_P(Bundled, GoldenPlaythrough, ::testing::ValuesIn(kGoldens),
                         [](const ::testing::TestParamInfo<Golden>& i) {
                           std::string n = i.param.name;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(GameLogReplay, ATamperedRollIsRefusedWithItsLine) {
  const Golden& g = kGoldens[0];
  std::string text = play_golden(g).log.to_jsonl();
  std::vector<std::string> lines = lines_of(text);
  // Line 2 is the first order: change its first die.
  const std::size_t at = lines[1].find("\"value\":", lines[1].find("\"rolls\""));
  ASSERT_NE(at, std::string::npos);
  const char old = lines[1][at + 8];
  lines[1][at + 8] = old == '6' ? '5' : static_cast<char>(old + 1);
  std::string bad;
  for (const std::string& l : lines) bad += l + "\n";
  const GameLog log = GameLog::parse_jsonl(bad, "game.log");
  try {
    replay_log(load_game(g.battle), log, "game.log");
    FAIL() << "a tampered log was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "game.log line 2");
  }
}

TEST(GameLogReplay, BrokenJsonIsRefusedWithItsLine) {
  std::string text = play_golden(kGoldens[0]).log.to_jsonl();
  std::vector<std::string> lines = lines_of(text);
  lines[3] = lines[3].substr(0, lines[3].size() / 2);
  std::string bad;
  for (const std::string& l : lines) bad += l + "\n";
  try {
    GameLog::parse_jsonl(bad, "game.log");
    FAIL() << "a broken log was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("game.log line 4"), std::string::npos) << e.what();
  }
}

TEST(GameLogReplay, AnUnknownActionIsRefusedWithItsLine) {
  std::string text = play_golden(kGoldens[0]).log.to_jsonl();
  std::vector<std::string> lines = lines_of(text);
  const std::size_t at = lines[2].find("\"type\":\"move\"");
  ASSERT_NE(at, std::string::npos);
  lines[2].replace(at, 13, "\"type\":\"jump\"");
  std::string bad;
  for (const std::string& l : lines) bad += l + "\n";
  const GameLog log = GameLog::parse_jsonl(bad, "game.log");
  try {
    replay_log(load_game(kGoldens[0].battle), log, "game.log");
    FAIL() << "an unknown action was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.field().find("game.log line 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace referee::warmaster
