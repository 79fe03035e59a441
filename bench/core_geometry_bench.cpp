#include <benchmark/benchmark.h>

#include "referee/core/geometry.hpp"

using namespace referee;

// One stand-against-stand overlap test (issue target: <= 20 ns).
static void BM_StandOverlap(benchmark::State& state) {
  OrientedRect a = OrientedRect::from_pose({{10, 10}, 30}, 4, 2);
  OrientedRect b = OrientedRect::from_pose({{13, 11}, 75}, 4, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(overlaps(a, b));
  }
}
BENCHMARK(BM_StandOverlap);

static void BM_StandDistance(benchmark::State& state) {
  OrientedRect a = OrientedRect::from_pose({{10, 10}, 30}, 4, 2);
  OrientedRect b = OrientedRect::from_pose({{23, 17}, 75}, 4, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(distance(a, b));
  }
}
BENCHMARK(BM_StandDistance);
