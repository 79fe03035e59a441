// Match with a snapshot interval (core/match.hpp): a game that keeps only
// every k-th state (and those near the current position) undoes, redoes and
// shows any past state exactly as a game that keeps them all, refusals and
// dice included, while holding a number of states that grows with the log
// divided by k rather than with the log.
#include <gtest/gtest.h>

#include "referee/core/files.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace referee {
namespace {

std::shared_ptr<const Game> pitched_battle() {
  const std::string file = "scenarios/warmaster/pitched-battle.json";
  return builtin_games().at("warmaster").load(load_json_file(std::string(REFEREE_SOURCE_DIR) + "/" + file), file,
                                              Json::object());
}

// The built-in opponent plays both sides for `n` entries; every fifth entry
// is an action asked out of turn, which is refused and logged.
void play(Match& m, std::size_t n) {
  const GameType& type = builtin_games().at("warmaster");
  for (std::size_t i = 0; i < n && !m.state().is_terminal(); ++i) {
    if (i % 5 == 4) {
      m.play(Json{{"type", "order"}, {"character", "nobody"}, {"unit", "emp-knights"}});
      continue;
    }
    Rng rng(1000 + i);
    const auto action = type.opponent(m.state(), rng);
    ASSERT_TRUE(action.has_value());
    m.play(*action);
  }
}

TEST(SparseHistory, UndoRedoAndPastStatesAreThoseOfTheFullHistory) {
  const auto game = pitched_battle();
  Match full(game, DiceSource{21, std::nullopt}, "m");
  Match sparse(game, DiceSource{21, std::nullopt}, "m");
  sparse.set_snapshot_interval(8);
  play(full, 120);
  play(sparse, 120);
  const std::size_t end = full.position();
  ASSERT_GT(end, 100u);
  ASSERT_EQ(sparse.position(), end);
  EXPECT_EQ(full.snapshots_kept(), end + 1);
  // Every 8th state, the start, the end and the one before it.
  EXPECT_LE(sparse.snapshots_kept(), end / 8 + 3);
  EXPECT_EQ(sparse.log_bytes(), full.log_bytes());
  EXPECT_GT(sparse.log_bytes(), end * 20);

  for (std::size_t p = 0; p <= end; p += 7)
    EXPECT_EQ(sparse.state_at(p)->to_json(), full.state_at(p)->to_json()) << "position " << p;
  // Back to the start and forward again, one entry at a time.
  while (full.can_undo()) {
    full.undo();
    sparse.undo();
    ASSERT_EQ(sparse.state().to_json(), full.state().to_json()) << "undone to " << full.position();
    EXPECT_LE(sparse.snapshots_kept(), end / 8 + 20);
  }
  while (full.can_redo()) {
    full.redo();
    sparse.redo();
    ASSERT_EQ(sparse.state().to_json(), full.state().to_json()) << "redone to " << full.position();
  }
  // Undone half way, then played on: the dice stand where they stood.
  for (int i = 0; i < 45; ++i) {
    full.undo();
    sparse.undo();
  }
  play(full, 10);
  play(sparse, 10);
  EXPECT_EQ(sparse.state().to_json(), full.state().to_json());
  EXPECT_EQ(sparse.current_log().to_jsonl(), full.current_log().to_jsonl());
  EXPECT_EQ(sparse.log_bytes(), full.log_bytes());
}

TEST(SparseHistory, PrepareStopsAtItsDeadlineAndKeepsWhatItMade) {
  Match m(pitched_battle(), DiceSource{4, std::nullopt}, "m");
  m.set_snapshot_interval(16);
  play(m, 60);
  ASSERT_EQ(m.position(), 60u);
  // Kept: 0, 16, 32, 48, 59 and 60. Position 40 is made from 32.
  const std::size_t kept = m.snapshots_kept();
  const auto expected = m.state_at(40)->to_json();
  EXPECT_EQ(m.snapshots_kept(), kept);  // state_at keeps nothing
  const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EXPECT_FALSE(m.prepare(40, past));  // one entry replayed, then the deadline
  EXPECT_EQ(m.snapshots_kept(), kept + 1);
  EXPECT_TRUE(m.prepare(40, std::chrono::steady_clock::now() + std::chrono::hours(1)));
  EXPECT_EQ(m.snapshots_kept(), kept + 8);
  for (int i = 0; i < 20; ++i) m.undo();
  EXPECT_EQ(m.state().to_json(), expected);
}

}  // namespace
}  // namespace referee
