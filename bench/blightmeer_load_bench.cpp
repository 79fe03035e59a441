// Loading a Blightmeer battlefield (parse, checks, the surface index and the
// navigation graph) with 1,000, 3,000 and kMaxSurfaces surfaces, and
// answering reach and route on the table at the cap (docs/rulings.md#blightmeer-caps).
// Loading used to read every surface for every level asked, so it grew with
// the product of the table and the surfaces.
#include <benchmark/benchmark.h>

#include <cmath>

#include "blightmeer_field.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/route.hpp"

namespace bm = referee::blightmeer;

namespace {

void BM_BlightmeerLoadSurfaces(benchmark::State& state) {
  const std::string text = bm::bench::surfaces_field(static_cast<int>(state.range(0))).dump();
  for (auto _ : state) {
    bm::Battle b = bm::parse_battle_text(text, "generated");
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_BlightmeerLoadSurfaces)
    ->Arg(1000)
    ->Arg(3000)
    ->Arg(static_cast<int>(bm::kMaxSurfaces))
    ->Unit(benchmark::kMillisecond);

const bm::Battle& at_cap() {
  static const bm::Battle b =
      bm::parse_battle(bm::bench::surfaces_field(static_cast<int>(bm::kMaxSurfaces), static_cast<int>(bm::kMaxUnits)),
                       "generated");
  return b;
}

void BM_BlightmeerReachAtCap(benchmark::State& state) {
  const bm::Battle& b = at_cap();
  for (auto _ : state) {
    bm::ReachAnswer r = bm::unit_reach(*b.terrain, b.state, "u0", false);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_BlightmeerReachAtCap)->Unit(benchmark::kMillisecond);

void BM_BlightmeerRouteAtCap(benchmark::State& state) {
  const bm::Battle& b = at_cap();
  // To the ground in the gap at a grid corner near the middle of the table.
  const int k = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(bm::kMaxSurfaces))));
  const double pitch = 120.0 / k, at = (k / 2) * pitch + 0.1 * pitch;
  for (auto _ : state) {
    bm::RouteAnswer r = bm::best_route(*b.terrain, b.state, "u0", {at, at, 0}, false);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_BlightmeerRouteAtCap)->Unit(benchmark::kMillisecond);

}  // namespace
