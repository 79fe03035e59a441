// Combat phase speed: one whole phase for 12 engagements across the table,
// each a line of three infantry stands against another, half of them with a
// supporting unit behind, Attacks 3, Hits 3: so each finds its engagement,
// rolls, counts support, and retreats, pursues or falls back through the move
// checker, round after round.
#include <benchmark/benchmark.h>

#include <string>

#include "referee/core/dice.hpp"
#include "referee/warmaster/combat/combat.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

Unit line(const std::string& id, int side, double x, double y, double facing) {
  Unit u;
  u.id = id;
  u.name = id;
  u.side = side;
  u.attacks = 3;
  u.hits = 3;
  u.armour = side == 0 ? 5 : 6;
  for (double dx : {-4.0, 0.0, 4.0}) u.stands.push_back({{{x + dx, y}, facing}});
  return u;
}

Battlefield combat_field() {
  Battlefield bf;
  bf.name = "bench";
  bf.armies = {{"South"}, {"North"}};
  for (int k = 0; k < 12; ++k) {
    const double x = 12 + 14.0 * k, y = k % 2 ? 50 : 70;
    bf.units.push_back(line("s" + std::to_string(k), 0, x, y, 0));
    bf.units.push_back(line("n" + std::to_string(k), 1, x, y + 2, 180));
    if (k % 2 == 0) bf.units.push_back(line("r" + std::to_string(k), 0, x, y - 2, 0));
  }
  return bf;
}

void BM_WarmasterCombatPhase(benchmark::State& state) {
  const Battlefield bf = combat_field();
  std::uint64_t seed = 1;
  int rounds = 0;
  for (auto _ : state) {
    SeededDice dice(seed++);
    CombatReport r = resolve_combat(bf, 0, dice);
    rounds += static_cast<int>(r.rounds.size());
    benchmark::DoNotOptimize(r);
  }
  state.counters["rounds_per_phase"] = benchmark::Counter(rounds, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_WarmasterCombatPhase)->Unit(benchmark::kMicrosecond);

}  // namespace
