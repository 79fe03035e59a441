// A Warmaster battlefield at the unit cap (kMaxUnits, docs/rulings.md#warmaster-caps):
// loading it, line of sight across the gap between the armies (seen at
// once), line of sight to a unit in the far back row (blocked: the exact
// search runs to the end), and one unit's reach there.
#include <benchmark/benchmark.h>

#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "warmaster_rows_field.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

void BM_WarmasterLoadUnits(benchmark::State& state) {
  const std::string text = bench::rows_field_json(static_cast<int>(state.range(0))).dump();
  for (auto _ : state) {
    Battlefield bf = parse_battlefield(parse_json_text(text, "generated"));
    benchmark::DoNotOptimize(bf);
  }
}
BENCHMARK(BM_WarmasterLoadUnits)->Arg(100)->Arg(static_cast<int>(kMaxUnits))->Unit(benchmark::kMillisecond);

const Battlefield& at_cap() {
  static const Battlefield bf = parse_battlefield(bench::rows_field_json(static_cast<int>(kMaxUnits)));
  return bf;
}

void BM_WarmasterLosAtCapNear(benchmark::State& state) {
  const Battlefield& bf = at_cap();
  const Unit& a = *bf.find_unit("u0");
  const Unit& b = *bf.find_unit("u1");
  for (auto _ : state) benchmark::DoNotOptimize(line_of_sight(bf, a, b, {}));
}
BENCHMARK(BM_WarmasterLosAtCapNear)->Unit(benchmark::kMicrosecond);

void BM_WarmasterLosAtCapFar(benchmark::State& state) {
  const Battlefield& bf = at_cap();
  const Unit& a = *bf.find_unit("u0");
  const Unit& b = *bf.find_unit("u" + std::to_string(kMaxUnits - 1));
  for (auto _ : state) benchmark::DoNotOptimize(line_of_sight(bf, a, b, {}));
}
BENCHMARK(BM_WarmasterLosAtCapFar)->Unit(benchmark::kMillisecond);

void BM_WarmasterReachAtCap(benchmark::State& state) {
  const Battlefield& bf = at_cap();
  ReachRequest req;
  req.mover = "u0";
  for (auto _ : state) benchmark::DoNotOptimize(reach(bf, req));
}
BENCHMARK(BM_WarmasterReachAtCap)->Unit(benchmark::kMillisecond);

}  // namespace
