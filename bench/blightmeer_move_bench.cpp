// Blightmeer move-phase speed (issue 5): validating a 4-step move, the best
// route across the town, and one unit's reach. The battlefield is loaded and
// its navigation graph compiled once, outside the timed loops, as a program
// answering many questions about one table would.
#include <benchmark/benchmark.h>

#include "referee/blightmeer/io.hpp"

namespace bm = referee::blightmeer;

namespace {

const bm::Battle& town() {
  static const bm::Battle b = bm::load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json");
  return b;
}

void BM_BlightmeerCheckMove(benchmark::State& state) {
  const bm::Battle& b = town();
  // The captain: walk to the inn's wall, climb it, cross the roof, jump down the far side.
  bm::MoveRequest m = bm::parse_move(nlohmann::json::parse(R"({"unit": "captain", "mode": "run", "path": [
    {"type": "walk", "to": [3.5, 7.5]},
    {"type": "climb", "to": [4.5, 7.5, 3]},
    {"type": "walk", "to": [6.5, 9.5]},
    {"type": "jump_down", "to": [6.5, 11.5]}]})"));
  for (auto _ : state) {
    bm::MoveReport r = bm::check_move(*b.terrain, b.state, m);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_BlightmeerCheckMove);

void BM_BlightmeerBestRoute(benchmark::State& state) {
  const bm::Battle& b = town();
  // Across the town: from the west edge by the inn to the far bank beyond the ford.
  for (auto _ : state) {
    bm::RouteAnswer r = bm::best_route(*b.terrain, b.state, "captain", {30.5, 18.5, 0}, false);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_BlightmeerBestRoute)->Unit(benchmark::kMicrosecond);

void BM_BlightmeerReach(benchmark::State& state) {
  const bm::Battle& b = town();
  for (auto _ : state) {
    bm::ReachAnswer r = bm::unit_reach(*b.terrain, b.state, "elf", true);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_BlightmeerReach)->Unit(benchmark::kMillisecond);

}  // namespace
