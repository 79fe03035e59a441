// Command phase speed (issue 3): the number needed for one order on the
// 40-unit battlefield, and whole random legal command phases for a 20-unit
// army with every move validated.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "referee/core/dice.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/opponent/command_sim.hpp"
#include "warmaster_field.hpp"
#include "warmaster_tiled_battle.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

Battlefield field_with_generals() {
  Battlefield bf = bench::make_field(40);
  Character g;
  g.id = "south-general";
  g.role = CharacterRole::General;
  g.command = 9;
  g.pose = Pose{{90, 30}, 0};
  bf.characters.push_back(g);
  g.id = "south-hero";
  g.role = CharacterRole::Hero;
  g.command = 8;
  g.pose = Pose{{40, 20}, 0};
  bf.characters.push_back(g);
  g.id = "north-general";
  g.side = 1;
  g.role = CharacterRole::General;
  g.pose = Pose{{90, 90}, 180};
  bf.characters.push_back(g);
  return bf;
}

void BM_WarmasterOrderTarget(benchmark::State& state) {
  const Battlefield bf = field_with_generals();
  const Character& c = bf.characters[0];
  std::size_t k = 0;
  for (auto _ : state) {
    // Each iteration orders the next unit of side 0 in turn.
    const Unit* u = &bf.units[(2 * k) % bf.units.size()];
    ++k;
    const Unit* units[] = {u};
    const OrderFactors f = order_factors(bf, c, units, 1, false);
    benchmark::DoNotOptimize(order_needed(f));
  }
}
BENCHMARK(BM_WarmasterOrderTarget);

void BM_WarmasterRandomCommandPhase(benchmark::State& state) {
  auto game = std::make_shared<BattleGame>();
  game->start = field_with_generals();
  const WarmasterState start(game);
  Rng rng(7);
  MoveScratch scratch;  // the simulation's working space, kept from phase to phase (one per thread)
  std::int64_t actions = 0;
  for (auto _ : state) {
    WarmasterState s = start;  // a cheap clone: the battlefield is shared until a stand moves
    SeededDice dice(rng.next());
    actions += sim::random_command_phase(s, dice, rng, nullptr, scratch);
  }
  state.counters["actions_per_phase"] = benchmark::Counter(static_cast<double>(actions) / state.iterations());
}
BENCHMARK(BM_WarmasterRandomCommandPhase)->Unit(benchmark::kMicrosecond);

// A whole random battle on the bundled shooting battle (16 units with
// profiles, both sides shooting): every side's Command phase at random, its
// Shooting phase and its Combat phase, to the end (the turn limit of 8, or a
// break point). Target: 100 games a second or more on one core.
void BM_WarmasterRandomGame(benchmark::State& state) {
  const BattlefieldFile f =
      load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/shooting.json");
  auto game = std::make_shared<BattleGame>();
  game->start = f.battlefield;
  game->settings = f.settings;
  const WarmasterState start(game);
  Rng rng(11);
  MoveScratch scratch;
  std::int64_t actions = 0, turns = 0, broken = 0;
  for (auto _ : state) {
    WarmasterState s = start;
    SeededDice dice(rng.next());
    actions += sim::random_battle(s, dice, rng, nullptr, scratch);
    turns += 2 * (s.turn() - 1) + s.side();
    broken += s.battle_over_reason().find("break point") != std::string::npos;
  }
  state.counters["actions_per_game"] = benchmark::Counter(static_cast<double>(actions) / state.iterations());
  state.counters["side_turns_per_game"] = benchmark::Counter(static_cast<double>(turns) / state.iterations());
  state.counters["ended_by_break_point"] = benchmark::Counter(static_cast<double>(broken) / state.iterations());
  state.counters["games_per_second"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WarmasterRandomGame)->Unit(benchmark::kMillisecond);

// Whole random battles as BM_WarmasterRandomGame plays them, on the default
// and the pitched battle repeated side by side (warmaster_tiled_battle.hpp):
// the argument is the number of units, 16 for the battle itself, 32 and 64
// for two and four copies of it, so each unit's surroundings are what they
// were. The counter `actions` (per game) divides the cost into a cost per
// action, which should not grow with the battle, and `unit_turns` (the
// side-turns played times the units) into a cost per unit and side-turn,
// flat when a game's cost grows as the battle does (docs/warmaster-command.md).
void random_games(benchmark::State& state, const std::string& battle) {
  const BattlefieldFile f =
      load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/" + battle + ".json");
  BattleGame base;
  base.start = f.battlefield;
  base.settings = f.settings;
  const int copies = static_cast<int>(state.range(0)) / static_cast<int>(base.start.units.size());
  const WarmasterState start(copies > 1 ? bench::tiled_game(base, copies) : std::make_shared<const BattleGame>(base));
  Rng rng(11);
  MoveScratch scratch;
  std::int64_t actions = 0, side_turns = 0;
  for (auto _ : state) {
    WarmasterState s = start;
    SeededDice dice(rng.next());
    // sim::random_battle's loop, counting the side-turns begun.
    while (!s.battle_over()) {
      actions += sim::random_turn(s, dice, rng, nullptr, scratch);
      ++side_turns;
    }
  }
  state.counters["actions"] = benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kAvgIterations);
  // A side-turn of every unit on the table: the work a battle of twice the
  // units should take twice the instructions for (docs/warmaster-command.md).
  state.counters["unit_turns"] = benchmark::Counter(static_cast<double>(side_turns * state.range(0)),
                                                    benchmark::Counter::kAvgIterations);
  state.counters["side_turns"] = benchmark::Counter(static_cast<double>(side_turns), benchmark::Counter::kAvgIterations);
}
void BM_WarmasterRandomGameDefault(benchmark::State& state) { random_games(state, "default"); }
BENCHMARK(BM_WarmasterRandomGameDefault)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);
void BM_WarmasterRandomGamePitched(benchmark::State& state) { random_games(state, "pitched-battle"); }
BENCHMARK(BM_WarmasterRandomGamePitched)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace
