// The built-in opponent's speed (opponent.hpp): one full turn of one side
// (Command, Shooting and Combat phases) chosen by the opponent, from the
// position after three turns of the opponent against itself (on the default
// battle: units at the river, some fighting). Target: 20 ms a turn.
//
// BM_WarmasterOpponentTurn calls the typed API with a scratch kept from turn
// to turn (as a simulation would); BM_WarmasterOpponentTurnInterface goes
// through GameType::opponent and GameState::apply, JSON in and out, a fresh
// scratch each call (as the arena command and the web board do).
//
// Growth with the battle: the argument is the number of units, 16 for the
// bundled battle, 32 and 64 for that position repeated side by side two and
// four times (warmaster_tiled_battle.hpp), so that each unit's surroundings
// are what they were. The counter `actions` (per turn) divides the cost into
// a cost per action, which should stay within 1.3x from 16 to 64 units
// (docs/warmaster-opponent.md), and `unit_turns` (the units, per turn) into a
// cost per unit and turn, flat when a turn's cost grows as the battle does.
// BM_WarmasterOpponentTurnPitched: the same on the pitched battle.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "referee/core/dice.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "referee/warmaster/opponent/opponent.hpp"
#include "warmaster_tiled_battle.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

std::shared_ptr<const Game> bundled_battle(const std::string& name) {
  const std::string file = std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/" + name + ".json";
  return load_game(load_json_file(file), file, Json::object());
}
std::shared_ptr<const Game> default_battle() { return bundled_battle("default"); }

// Plays the opponent for the side to move until the turn passes.
int opponent_turn(WarmasterState& s, Dice& dice, Rng& rng, OpponentScratch& scratch) {
  const int side = s.side(), turn = s.turn();
  int actions = 0;
  while (!s.battle_over() && s.side() == side && s.turn() == turn && actions < 500) {
    const OpponentChoice c = choose_opponent_action(s, rng, OpponentOptions{}, scratch);
    s.apply(c.action, dice, WarmasterState::Describe::No, scratch.move);
    ++actions;
  }
  return actions;
}

// The position after three turns of both sides (six side-turns), side 0 to move.
WarmasterState mid_game(const Game& game) {
  const std::unique_ptr<GameState> start = game.new_initial_state();
  WarmasterState s = *typed_state<System>(*start);
  SeededDice dice(11);
  Rng rng(5);
  OpponentScratch scratch;
  for (int k = 0; k < 6 && !s.battle_over(); ++k) opponent_turn(s, dice, rng, scratch);
  return s;
}

// The position after three turns on `battle`, repeated side by side to
// `units` units (16: the battle itself).
WarmasterState mid_game_tiled(const std::string& battle, int units) {
  const auto game = bundled_battle(battle);
  const WarmasterState base = mid_game(*game);
  const int units_in_battle = static_cast<int>(base.battlefield().units.size());
  const int copies = units / units_in_battle;
  if (copies < 1 || copies * units_in_battle != units)
    throw std::runtime_error("the argument is a multiple of the battle's units");
  if (copies == 1) return base;
  return bench::tiled_state(base, bench::tiled_game(base.game(), copies), copies);
}

void opponent_turns(benchmark::State& state, const std::string& battle) {
  const WarmasterState from = mid_game_tiled(battle, static_cast<int>(state.range(0)));
  OpponentScratch scratch;
  std::uint64_t seed = 1;
  int actions = 0;
  for (auto _ : state) {
    WarmasterState s = from;
    SeededDice dice(seed);
    Rng rng(seed++);
    actions += opponent_turn(s, dice, rng, scratch);
    benchmark::DoNotOptimize(s.turn());
  }
  state.counters["actions"] = benchmark::Counter(actions, benchmark::Counter::kAvgIterations);
  // Each iteration is one side-turn of every unit on the table: instructions
  // per unit-turn stay flat when the turn's cost grows as the battle does.
  state.counters["unit_turns"] =
      benchmark::Counter(static_cast<double>(state.range(0)) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kAvgIterations);
}

void BM_WarmasterOpponentTurn(benchmark::State& state) { opponent_turns(state, "default"); }
BENCHMARK(BM_WarmasterOpponentTurn)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_WarmasterOpponentTurnPitched(benchmark::State& state) { opponent_turns(state, "pitched-battle"); }
BENCHMARK(BM_WarmasterOpponentTurnPitched)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

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
