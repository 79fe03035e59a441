// The built-in opponent's speed (opponent.hpp): one full turn of one side
// (Command, Shooting and Combat phases) chosen by the opponent on the default
// battle, from the position after three turns of the opponent against
// itself (units at the river, some fighting). Target: 20 ms a turn.
//
// BM_WarmasterOpponentTurn calls the typed API with a scratch kept from turn
// to turn (as a simulation would); BM_WarmasterOpponentTurnInterface goes
// through GameType::opponent and GameState::apply, JSON in and out, a fresh
// scratch each call (as the arena command and the web board do).
#include <benchmark/benchmark.h>

#include <memory>

#include "referee/core/dice.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/command_json.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "referee/warmaster/opponent.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

std::shared_ptr<const Game> default_battle() {
  const std::string file = std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json";
  return load_game(load_json_file(file), file, Json::object());
}

// Plays the opponent for the side to move until the turn passes.
int opponent_turn(CommandState& s, Dice& dice, Rng& rng, OpponentScratch& scratch) {
  const int side = s.side(), turn = s.turn();
  int actions = 0;
  while (!s.battle_over() && s.side() == side && s.turn() == turn && actions < 500) {
    const OpponentChoice c = choose_opponent_action(s, rng, OpponentOptions{}, scratch);
    s.apply(c.action, dice, CommandState::Describe::No, scratch.move);
    ++actions;
  }
  return actions;
}

// The position after three turns of both sides (six side-turns), side 0 to move.
CommandState mid_game(const Game& game) {
  const std::unique_ptr<GameState> start = game.new_initial_state();
  CommandState s = *typed_state(*start);
  SeededDice dice(11);
  Rng rng(5);
  OpponentScratch scratch;
  for (int k = 0; k < 6 && !s.battle_over(); ++k) opponent_turn(s, dice, rng, scratch);
  return s;
}

void BM_WarmasterOpponentTurn(benchmark::State& state) {
  const auto game = default_battle();
  const CommandState from = mid_game(*game);
  OpponentScratch scratch;
  std::uint64_t seed = 1;
  int actions = 0;
  for (auto _ : state) {
    CommandState s = from;
    SeededDice dice(seed);
    Rng rng(seed++);
    actions += opponent_turn(s, dice, rng, scratch);
    benchmark::DoNotOptimize(s.turn());
  }
  state.counters["actions/turn"] = benchmark::Counter(actions, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_WarmasterOpponentTurn)->Unit(benchmark::kMillisecond);

void BM_WarmasterOpponentTurnInterface(benchmark::State& state) {
  const auto game = default_battle();
  const GameType type = game_type();
  const Json from = state_to_json(mid_game(*game));
  const std::unique_ptr<GameState> start = game->state_from_json(from);
  std::uint64_t seed = 1;
  for (auto _ : state) {
    std::unique_ptr<GameState> s = start->clone();
    SeededDice dice(seed);
    Rng rng(seed++);
    const int side = s->current_player(), turn = s->turn();
    for (int n = 0; n < 500 && !s->is_terminal() && s->current_player() == side && s->turn() == turn; ++n)
      s->apply(*type.opponent(*s, rng), dice, "action", false);
    benchmark::DoNotOptimize(s->turn());
  }
}
BENCHMARK(BM_WarmasterOpponentTurnInterface)->Unit(benchmark::kMillisecond);

}  // namespace
