// Shooting phase speed: one whole phase for a side of 20 units on the
// 40-unit bench field, every unit with a bow (target <= 200 us), so each
// finds its closest visible target, rolls, and drives back what it hits.
#include <benchmark/benchmark.h>

#include "referee/core/dice.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "warmaster_field.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

void BM_WarmasterShootingPhase(benchmark::State& state) {
  Battlefield bf = bench::make_field(40);
  for (Unit& u : bf.units) {
    u.attacks = 2;
    u.hits = 3;
    u.armour = 6;
    u.missile = Missile::Bow;
  }
  std::uint64_t seed = 1;
  int shots = 0;
  for (auto _ : state) {
    SeededDice dice(seed++);
    ShootingResult r = resolve_shooting(bf, 0, dice);
    shots += static_cast<int>(r.shots.size());
    benchmark::DoNotOptimize(r);
  }
  state.counters["shots_per_phase"] = benchmark::Counter(shots, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_WarmasterShootingPhase)->Unit(benchmark::kMicrosecond);

}  // namespace

