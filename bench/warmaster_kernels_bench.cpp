// The transit kernels (transit_kernels.hpp) on the pairs a scene mostly
// meets: a swept disc far from a polygon (boxes apart), and one that passes
// near it without contact (the boxes meet at a corner; the centre passes
// 1.5 cm from the outline, r = 1 cm).
#include <benchmark/benchmark.h>

#include <cmath>

#include "referee/warmaster/movement/transit_kernels.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {

// A 7-point outline about 6 cm across, as a bench field's wood or hill.
Polygon blob_at(Vec2 c) {
  Polygon p;
  for (int i = 0; i < 7; ++i) {
    const double a = 2 * kPi * i / 7, r = i % 2 == 0 ? 6.0 : 4.5;
    p.points.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
  }
  return p;
}

void BM_FirstContactFar(benchmark::State& state) {
  const Polygon poly = blob_at({20, 20});
  const Segment path{{60, 45}, {72, 51}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(path);
    benchmark::DoNotOptimize(first_contact(path, 1.0, poly));
  }
}
BENCHMARK(BM_FirstContactFar);

void BM_FirstContactNearMiss(benchmark::State& state) {
  const Polygon poly = blob_at({20, 20});
  const Segment path{{23, 25.5}, {27, 21.5}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(path);
    benchmark::DoNotOptimize(first_contact(path, 1.0, poly));
  }
}
BENCHMARK(BM_FirstContactNearMiss);

}  // namespace
